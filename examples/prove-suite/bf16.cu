// bf16.cu - bfloat16 as training and inference code uses it: __nv_bfloat16
// storage, float math, round-to-nearest-even conversion
// (__float2bfloat16 / __bfloat162float), __nv_bfloat162 pairs, bf16
// arithmetic intrinsics (__hadd, __hmul, __hfma on bf16) and a mixed
// precision GEMV (bf16 weights, float activations and accumulation).
#include "check.cuh"

#include <cuda_bf16.h>
#include <vector>

__global__ void gemv_bf16(const __nv_bfloat16 *W, const float *x, float *y, int rows, int cols) {
    // one warp per row
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const __nv_bfloat162 *w2 = reinterpret_cast<const __nv_bfloat162 *>(W + static_cast<size_t>(row) * cols);
    float acc = 0.0f;
    for (int c = lane; c < cols / 2; c += 32) {
        const float2 wf = __bfloat1622float2(w2[c]);
        acc += wf.x * x[2 * c] + wf.y * x[2 * c + 1];
    }
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) y[row] = acc;
}

__global__ void bf16_ops(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *sum, __nv_bfloat16 *prod,
                         __nv_bfloat16 *fma, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        sum[i] = __hadd(a[i], b[i]);
        prod[i] = __hmul(a[i], b[i]);
        fma[i] = __hfma(a[i], b[i], a[i]);
    }
}

__global__ void round_trip(const float *in, __nv_bfloat16 *out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2bfloat16(in[i]);
}

static float bf16_round_host(float f) {  // round to nearest even, as the hardware does
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    u &= 0xffff0000u;
    float r;
    memcpy(&r, &u, 4);
    return r;
}

int main(int argc, char **argv) {
    const int rows = 512, cols = 1024;
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 59)));
    std::vector<float> wf(rows * cols), x(cols), ref(rows, 0.0f);
    std::vector<__nv_bfloat16> wb(rows * cols);
    for (int i = 0; i < rows * cols; ++i) {
        wf[i] = bf16_round_host(rng.symmetric());
        wb[i] = __float2bfloat16(wf[i]);
    }
    for (auto &v : x) v = rng.symmetric();
    for (int r = 0; r < rows; ++r) {
        double s = 0.0;
        for (int c = 0; c < cols; ++c) s += static_cast<double>(wf[r * cols + c]) * x[c];
        ref[r] = static_cast<float>(s);
    }
    __nv_bfloat16 *dW;
    float *dx, *dy;
    CUDA_CHECK(cudaMalloc(&dW, wb.size() * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMalloc(&dx, cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, rows * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dW, wb.data(), wb.size() * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
    gemv_bf16<<<rows / 8, 256>>>(dW, dx, dy, rows, cols);
    CUDA_CHECK_LAST();
    std::vector<float> y(rows);
    CUDA_CHECK(cudaMemcpy(y.data(), dy, rows * sizeof(float), cudaMemcpyDeviceToHost));
    printf("gemv %d x %d checksum = %.4f\n", rows, cols, weighted_checksum(y.data(), rows));
    check_close("bf16 gemv", max_abs_diff(y.data(), ref.data(), rows), 1e-3);

    // conversions: round-to-nearest-even on the device, compared bit for bit
    const int n = 4096;
    std::vector<float> f(n);
    for (int i = 0; i < n; ++i) f[i] = rng.symmetric() * 1000.0f;
    f[0] = 1.00390625f;   // halfway between two bf16 values: rounds to even (1.0)
    f[1] = 1.01171875f;   // halfway: rounds up to even (1.015625)
    f[2] = 3.0e38f;       // finite in bf16
    f[3] = -0.0f;
    float *df;
    __nv_bfloat16 *db, *da2, *dsum, *dprod, *dfma;
    CUDA_CHECK(cudaMalloc(&df, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, n * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMalloc(&da2, n * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMalloc(&dsum, n * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMalloc(&dprod, n * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMalloc(&dfma, n * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMemcpy(df, f.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    round_trip<<<(n + 255) / 256, 256>>>(df, db, n);
    CUDA_CHECK_LAST();
    std::vector<__nv_bfloat16> rb(n);
    CUDA_CHECK(cudaMemcpy(rb.data(), db, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += __bfloat162float(rb[i]) != bf16_round_host(f[i]);
    printf("rounded: %.8f %.8f %.6e %.1f\n", __bfloat162float(rb[0]), __bfloat162float(rb[1]), __bfloat162float(rb[2]),
           __bfloat162float(rb[3]));
    check_equal("float -> bf16 rounding", bad);

    // bf16 arithmetic on small integers: exact
    std::vector<__nv_bfloat16> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = __float2bfloat16(static_cast<float>(static_cast<int>(rng.next_u32() % 15) - 7));
        b[i] = __float2bfloat16(static_cast<float>(static_cast<int>(rng.next_u32() % 15) - 7));
    }
    CUDA_CHECK(cudaMemcpy(db, a.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(da2, b.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
    bf16_ops<<<(n + 255) / 256, 256>>>(db, da2, dsum, dprod, dfma, n);
    CUDA_CHECK_LAST();
    std::vector<__nv_bfloat16> s(n), p(n), m(n);
    CUDA_CHECK(cudaMemcpy(s.data(), dsum, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(p.data(), dprod, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(m.data(), dfma, n * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    bad = 0;
    double total = 0.0;
    for (int i = 0; i < n; ++i) {
        const float fa = __bfloat162float(a[i]), fb = __bfloat162float(b[i]);
        bad += __bfloat162float(s[i]) != fa + fb;
        bad += __bfloat162float(p[i]) != fa * fb;
        bad += __bfloat162float(m[i]) != fa * fb + fa;
        total += __bfloat162float(m[i]);
    }
    printf("fma total = %.1f\n", total);
    check_equal("bf16 add/mul/fma", bad);
    CUDA_CHECK(cudaFree(dW));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(df));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(da2));
    CUDA_CHECK(cudaFree(dsum));
    CUDA_CHECK(cudaFree(dprod));
    CUDA_CHECK(cudaFree(dfma));
    return finish("bf16");
}
