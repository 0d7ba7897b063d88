// half_precision.cu - FP16 the way inference kernels use it: __half storage
// with float accumulation, half2 vector arithmetic (__hfma2, __hmul2,
// __hadd2), conversions (__float2half_rn, __half2float, __floats2half2_rn,
// __low2float/__high2float), comparisons (__hgt, __hmax) and a half2 dot
// product reduced with warp shuffles of half2.
#include "check.cuh"

#include <cuda_fp16.h>
#include <vector>

__global__ void axpby_half2(const half2 *x, const half2 *y, half2 *out, int n2, half2 a, half2 b) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) out[i] = __hfma2(a, x[i], __hmul2(b, y[i]));
}

__global__ void relu_half(const __half *x, __half *out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const __half zero = __float2half(0.0f);
        out[i] = __hgt(x[i], zero) ? x[i] : zero;
    }
}

__global__ void dot_half2(const half2 *x, const half2 *y, int n2, double *result) {
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x) {
        const half2 p = __hmul2(x[i], y[i]);
        acc += __low2float(p) + __high2float(p);
    }
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(result, static_cast<double>(acc));  // exact: order-independent
}

__global__ void half_shuffle_max(const __half *x, __half *out) {
    // a warp-wide max of __half values with __shfl_xor_sync on __half
    __half v = x[threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v = __hmax(v, __shfl_xor_sync(0xffffffffu, v, off));
    if (threadIdx.x == 0) out[0] = v;
}

int main(int argc, char **argv) {
    const int n = 1 << 16, n2 = n / 2;
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 53)));
    std::vector<__half> hx(n), hy(n);
    std::vector<float> fx(n), fy(n);
    for (int i = 0; i < n; ++i) {
        // multiples of 1/64 in [-2, 2): exact in half
        fx[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 256) - 128) / 64.0f;
        fy[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 256) - 128) / 64.0f;
        hx[i] = __float2half_rn(fx[i]);
        hy[i] = __float2half_rn(fy[i]);
    }
    __half *dx, *dy, *dout;
    double *dres;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dres, sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(__half), cudaMemcpyHostToDevice));

    const half2 a = __floats2half2_rn(0.5f, 0.5f), b = __floats2half2_rn(-0.25f, -0.25f);
    axpby_half2<<<(n2 + 255) / 256, 256>>>(reinterpret_cast<half2 *>(dx), reinterpret_cast<half2 *>(dy),
                                           reinterpret_cast<half2 *>(dout), n2, a, b);
    CUDA_CHECK_LAST();
    std::vector<__half> hout(n);
    CUDA_CHECK(cudaMemcpy(hout.data(), dout, n * sizeof(__half), cudaMemcpyDeviceToHost));
    double err = 0.0, sum = 0.0;
    for (int i = 0; i < n; ++i) {
        const float got = __half2float(hout[i]);
        err = std::max(err, static_cast<double>(fabsf(got - (0.5f * fx[i] - 0.25f * fy[i]))));
        sum += got;
    }
    printf("axpby half2 sum = %.4f\n", sum);
    check_close("half2 fma", err, 0.0);  // every value is exact in half

    relu_half<<<(n + 255) / 256, 256>>>(dx, dout, n);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(hout.data(), dout, n * sizeof(__half), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += __half2float(hout[i]) != std::max(fx[i], 0.0f);
    check_equal("relu half", bad);

    CUDA_CHECK(cudaMemset(dres, 0, sizeof(double)));
    dot_half2<<<64, 256>>>(reinterpret_cast<half2 *>(dx), reinterpret_cast<half2 *>(dy), n2, dres);
    CUDA_CHECK_LAST();
    double dot = 0.0;
    CUDA_CHECK(cudaMemcpy(&dot, dres, sizeof(double), cudaMemcpyDeviceToHost));
    double ref = 0.0;
    for (int i = 0; i < n; ++i) ref += static_cast<double>(fx[i]) * fy[i];
    printf("dot = %.4f\n", dot);
    check_close("half2 dot", fabs(dot - ref), 0.0);

    half_shuffle_max<<<1, 32>>>(dx + 100, dout);
    CUDA_CHECK_LAST();
    __half hmax;
    CUDA_CHECK(cudaMemcpy(&hmax, dout, sizeof(__half), cudaMemcpyDeviceToHost));
    float ref_max = -1e30f;
    for (int i = 100; i < 132; ++i) ref_max = std::max(ref_max, fx[i]);
    printf("warp max = %.4f\n", __half2float(hmax));
    check_close("half shuffle max", fabs(__half2float(hmax) - ref_max), 0.0);
    // conversions: rounding to nearest even, overflow to inf
    const float conv[4] = {__half2float(__float2half_rn(1.0f + 1.0f / 4096.0f)),
                           __half2float(__float2half_rn(65504.0f)), __half2float(__float2half_rn(1e6f)),
                           __half2float(__float2half_rn(-3.0e-8f))};
    printf("conversions = %.6f %.1f %f %.3e\n", conv[0], conv[1], conv[2], conv[3]);
    check_true("half conversions", conv[0] == 1.0f && conv[1] == 65504.0f && std::isinf(conv[2]));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dres));
    return finish("half_precision");
}
