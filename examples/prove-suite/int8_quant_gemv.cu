// int8_quant_gemv.cu - symmetric per-row INT8 quantisation and an INT8 GEMV
// as weight-only and W8A8 inference kernels do it: absmax per row with a warp
// reduction, round-to-nearest into int8 (char4 stores), dequantisation, and a
// dot product of packed int8x4 words with __dp4a accumulating in int32,
// scaled back to float.
#include "check.cuh"

#include <vector>

__device__ __forceinline__ float warp_max(float v) {
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

__device__ __forceinline__ int warp_sum_int(int v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// one warp per row; cols is a multiple of 128
__global__ void quantize_rows(const float *__restrict__ x, char4 *__restrict__ q, float *__restrict__ scales, int rows,
                              int cols) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float4 *xr = reinterpret_cast<const float4 *>(x + static_cast<size_t>(row) * cols);
    float amax = 0.0f;
    for (int i = lane; i < cols / 4; i += 32) {
        const float4 v = xr[i];
        amax = fmaxf(amax, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
    }
    amax = warp_max(amax);
    const float scale = amax / 127.0f;
    const float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    for (int i = lane; i < cols / 4; i += 32) {
        const float4 v = xr[i];
        q[static_cast<size_t>(row) * (cols / 4) + i] =
            make_char4(static_cast<signed char>(__float2int_rn(v.x * inv)), static_cast<signed char>(__float2int_rn(v.y * inv)),
                       static_cast<signed char>(__float2int_rn(v.z * inv)), static_cast<signed char>(__float2int_rn(v.w * inv)));
    }
    if (lane == 0) scales[row] = scale;
}

__global__ void dequantize_rows(const signed char *__restrict__ q, const float *__restrict__ scales, float *__restrict__ y,
                                int rows, int cols) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < static_cast<size_t>(rows) * cols) y[i] = q[i] * scales[i / cols];
}

// y[row] = w_scale[row] * x_scale * sum_k Wq[row][k] * xq[k], one warp per row
__global__ void gemv_int8_dp4a(const int *__restrict__ wq, const float *__restrict__ w_scale, const int *__restrict__ xq,
                               float x_scale, float *__restrict__ y, int *__restrict__ acc_out, int rows, int cols) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const int *wr = wq + static_cast<size_t>(row) * (cols / 4);
    int acc = 0;
    for (int i = lane; i < cols / 4; i += 32) acc = __dp4a(wr[i], xq[i], acc);
    acc = warp_sum_int(acc);
    if (lane == 0) {
        acc_out[row] = acc;
        y[row] = static_cast<float>(acc) * w_scale[row] * x_scale;
    }
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 149)));
    const int rows = 1024, cols = 2048;
    const size_t n = static_cast<size_t>(rows) * cols;
    std::vector<float> w(n), x(cols);
    for (auto &v : w) v = rng.symmetric() * (1.0f + 3.0f * rng.uniform());
    for (auto &v : x) v = rng.symmetric();
    float *dw, *dscale, *dy, *dx, *dxscale;
    signed char *dq, *dxq;
    int *dacc;
    CUDA_CHECK(cudaMalloc(&dw, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dq, n));
    CUDA_CHECK(cudaMalloc(&dscale, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dx, cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dxq, cols));
    CUDA_CHECK(cudaMalloc(&dxscale, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dacc, rows * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dw, w.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

    quantize_rows<<<rows / 8, 256>>>(dw, reinterpret_cast<char4 *>(dq), dscale, rows, cols);
    CUDA_CHECK_LAST();
    quantize_rows<<<1, 32>>>(dx, reinterpret_cast<char4 *>(dxq), dxscale, 1, cols);
    CUDA_CHECK_LAST();
    std::vector<signed char> q(n), xq(cols);
    std::vector<float> scale(rows);
    float xscale = 0.0f;
    CUDA_CHECK(cudaMemcpy(q.data(), dq, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(xq.data(), dxq, cols, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(scale.data(), dscale, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&xscale, dxscale, sizeof(float), cudaMemcpyDeviceToHost));
    long long bad_q = 0, qsum = 0;
    for (int r = 0; r < rows; ++r) {
        float amax = 0.0f;
        for (int c = 0; c < cols; ++c) amax = std::max(amax, fabsf(w[static_cast<size_t>(r) * cols + c]));
        const float inv = 127.0f / amax;
        for (int c = 0; c < cols; ++c) {
            const size_t i = static_cast<size_t>(r) * cols + c;
            const int expect = static_cast<int>(nearbyintf(w[i] * inv));
            bad_q += std::abs(q[i] - expect) > 0;
            qsum += q[i] * ((c % 13) + 1);
        }
        bad_q += scale[r] != amax / 127.0f;
    }
    printf("int8 weights: weighted sum = %lld\n", qsum);
    check_equal("quantised values and scales", bad_q);

    dequantize_rows<<<static_cast<unsigned>((n + 255) / 256), 256>>>(dq, dscale, dy, rows, cols);
    CUDA_CHECK_LAST();
    std::vector<float> deq(n);
    CUDA_CHECK(cudaMemcpy(deq.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0.0;
    for (size_t i = 0; i < n; ++i) err = std::max(err, static_cast<double>(fabsf(deq[i] - w[i]) / scale[i / cols]));
    check_close("dequantisation error in units of the scale", err, 0.5 + 1e-3);

    gemv_int8_dp4a<<<rows / 8, 256>>>(reinterpret_cast<const int *>(dq), dscale, reinterpret_cast<const int *>(dxq), xscale,
                                      dy, dacc, rows, cols);
    CUDA_CHECK_LAST();
    std::vector<float> y(rows);
    std::vector<int> acc(rows);
    CUDA_CHECK(cudaMemcpy(y.data(), dy, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(acc.data(), dacc, rows * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad_acc = 0;
    double yerr = 0.0, ynorm = 0.0;
    for (int r = 0; r < rows; ++r) {
        int a = 0;
        double exact = 0.0;
        for (int c = 0; c < cols; ++c) {
            a += q[static_cast<size_t>(r) * cols + c] * xq[c];
            exact += static_cast<double>(w[static_cast<size_t>(r) * cols + c]) * x[c];
        }
        bad_acc += acc[r] != a;
        yerr = std::max(yerr, fabs(y[r] - exact));
        ynorm = std::max(ynorm, fabs(exact));
    }
    printf("dp4a accumulators: acc[0] = %d acc[%d] = %d checksum = %.0f\n", acc[0], rows - 1, acc[rows - 1],
           weighted_checksum(acc.data(), rows));
    check_equal("__dp4a int32 accumulators", bad_acc);
    check_close("W8A8 GEMV vs float GEMV (relative to max |y|)", yerr / ynorm, 2e-2);
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(dq));
    CUDA_CHECK(cudaFree(dscale));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dxq));
    CUDA_CHECK(cudaFree(dxscale));
    CUDA_CHECK(cudaFree(dacc));
    return finish("int8_quant_gemv");
}
