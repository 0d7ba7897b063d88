// llm_softmax_layernorm.cu - the row-wise kernels of a transformer block as
// inference engines write them (one block per row, float4 loads, warp
// shuffles then shared memory across warps): numerically safe softmax
// (max-subtracted, online max/sum in one pass), LayerNorm with a fused
// residual add, gamma and beta, and Welford's running mean/variance merged
// across lanes with __shfl_down_sync.
#include "check.cuh"

#include <vector>

constexpr int kBlock = 256;

struct MaxSum {
    float m;  // running max
    float s;  // sum of exp(x - m)
};

__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
    if (b.m == -INFINITY) return a;  // empty partials (exp(-inf - -inf) would be NaN)
    if (a.m == -INFINITY) return b;
    const float m = fmaxf(a.m, b.m);
    return {m, a.s * __expf(a.m - m) + b.s * __expf(b.m - m)};
}

template <int BLOCK>
__device__ MaxSum block_reduce_maxsum(MaxSum v) {
    __shared__ MaxSum warp_vals[BLOCK / 32];
    __shared__ MaxSum result;
    for (int off = 16; off > 0; off >>= 1) {
        MaxSum o;
        o.m = __shfl_down_sync(0xffffffffu, v.m, off);
        o.s = __shfl_down_sync(0xffffffffu, v.s, off);
        v = merge(v, o);
    }
    if ((threadIdx.x & 31) == 0) warp_vals[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK / 32 ? warp_vals[threadIdx.x] : MaxSum{-INFINITY, 0.0f};
        for (int off = 16; off > 0; off >>= 1) {
            MaxSum o;
            o.m = __shfl_down_sync(0xffffffffu, v.m, off);
            o.s = __shfl_down_sync(0xffffffffu, v.s, off);
            v = merge(v, o);
        }
        if (threadIdx.x == 0) result = v;
    }
    __syncthreads();
    return result;
}

// online softmax: one pass for max and sum, one pass to write
template <int BLOCK>
__global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ y, int cols) {
    const float4 *row4 = reinterpret_cast<const float4 *>(x + static_cast<size_t>(blockIdx.x) * cols);
    float4 *out4 = reinterpret_cast<float4 *>(y + static_cast<size_t>(blockIdx.x) * cols);
    MaxSum acc{-INFINITY, 0.0f};
    for (int i = threadIdx.x; i < cols / 4; i += BLOCK) {
        const float4 v = row4[i];
        acc = merge(acc, {v.x, 1.0f});
        acc = merge(acc, {v.y, 1.0f});
        acc = merge(acc, {v.z, 1.0f});
        acc = merge(acc, {v.w, 1.0f});
    }
    const MaxSum total = block_reduce_maxsum<BLOCK>(acc);
    const float inv = 1.0f / total.s;
    for (int i = threadIdx.x; i < cols / 4; i += BLOCK) {
        const float4 v = row4[i];
        out4[i] = make_float4(__expf(v.x - total.m) * inv, __expf(v.y - total.m) * inv, __expf(v.z - total.m) * inv,
                              __expf(v.w - total.m) * inv);
    }
}

struct Welford {
    float mean, m2, n;
};

__device__ __forceinline__ Welford welford_merge(Welford a, Welford b) {
    const float n = a.n + b.n;
    if (n == 0.0f) return {0.0f, 0.0f, 0.0f};
    const float delta = b.mean - a.mean;
    const float nb_over_n = b.n / n;
    return {a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n};
}

__device__ Welford warp_welford(Welford w) {
    for (int off = 16; off > 0; off >>= 1) {
        Welford o;
        o.mean = __shfl_down_sync(0xffffffffu, w.mean, off);
        o.m2 = __shfl_down_sync(0xffffffffu, w.m2, off);
        o.n = __shfl_down_sync(0xffffffffu, w.n, off);
        w = welford_merge(w, o);
    }
    return w;
}

// out = LayerNorm(x + residual) * gamma + beta; also writes x + residual back (pre-norm residual stream)
template <int BLOCK>
__global__ void add_layernorm(float *__restrict__ x, const float *__restrict__ residual, const float *__restrict__ gamma,
                              const float *__restrict__ beta, float *__restrict__ out, int cols, float eps) {
    __shared__ Welford warp_vals[BLOCK / 32];
    __shared__ float s_mean, s_rstd;
    float *xr = x + static_cast<size_t>(blockIdx.x) * cols;
    const float *rr = residual + static_cast<size_t>(blockIdx.x) * cols;
    Welford w{0.0f, 0.0f, 0.0f};
    for (int i = threadIdx.x; i < cols; i += BLOCK) {
        const float v = xr[i] + rr[i];
        xr[i] = v;
        w = welford_merge(w, {v, 0.0f, 1.0f});
    }
    w = warp_welford(w);
    if ((threadIdx.x & 31) == 0) warp_vals[threadIdx.x / 32] = w;
    __syncthreads();
    if (threadIdx.x < 32) {
        w = threadIdx.x < BLOCK / 32 ? warp_vals[threadIdx.x] : Welford{0.0f, 0.0f, 0.0f};
        w = warp_welford(w);
        if (threadIdx.x == 0) {
            s_mean = w.mean;
            s_rstd = rsqrtf(w.m2 / w.n + eps);
        }
    }
    __syncthreads();
    float *o = out + static_cast<size_t>(blockIdx.x) * cols;
    for (int i = threadIdx.x; i < cols; i += BLOCK) o[i] = (xr[i] - s_mean) * s_rstd * gamma[i] + beta[i];
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 137)));
    const int rows = 128, cols = 4096, n = rows * cols;
    std::vector<float> x(n), res(n), gamma(cols), beta(cols), y(n), ref(n);
    for (auto &v : x) v = 10.0f * rng.symmetric();
    for (auto &v : res) v = rng.symmetric();
    for (auto &v : gamma) v = 1.0f + 0.1f * rng.symmetric();
    for (auto &v : beta) v = 0.1f * rng.symmetric();
    float *dx, *dy, *dres, *dg, *db;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dres, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dg, cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, cols * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dres, res.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dg, gamma.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, beta.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

    softmax_rows<kBlock><<<rows, kBlock>>>(dx, dy, cols);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    double max_rel = 0.0, argmax_mass = 0.0;
    for (int r = 0; r < rows; ++r) {
        double mx = -1e30, s = 0;
        int am = 0;
        for (int c = 0; c < cols; ++c)
            if (x[r * cols + c] > mx) {
                mx = x[r * cols + c];
                am = c;
            }
        for (int c = 0; c < cols; ++c) s += exp(x[r * cols + c] - mx);
        for (int c = 0; c < cols; ++c) {
            const double p = exp(x[r * cols + c] - mx) / s;
            max_rel = std::max(max_rel, fabs(y[r * cols + c] - p) / std::max(p, 1e-30));
        }
        argmax_mass += y[r * cols + am];
    }
    printf("softmax: mean probability of the argmax = %.5f\n", argmax_mass / rows);
    check_close("online softmax (relative)", max_rel, 1e-4);

    add_layernorm<kBlock><<<rows, kBlock>>>(dx, dres, dg, db, dy, cols, 1e-5f);
    CUDA_CHECK_LAST();
    std::vector<float> xsum(n);
    CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(xsum.data(), dx, n * sizeof(float), cudaMemcpyDeviceToHost));
    long long bad_res = 0;
    for (int r = 0; r < rows; ++r) {
        double mean = 0, var = 0;
        for (int c = 0; c < cols; ++c) {
            const float v = x[r * cols + c] + res[r * cols + c];
            bad_res += xsum[r * cols + c] != v;
            mean += v;
        }
        mean /= cols;
        for (int c = 0; c < cols; ++c) {
            const double d = (x[r * cols + c] + res[r * cols + c]) - mean;
            var += d * d;
        }
        var /= cols;
        const double rstd = 1.0 / sqrt(var + 1e-5);
        for (int c = 0; c < cols; ++c)
            ref[r * cols + c] =
                static_cast<float>(((x[r * cols + c] + res[r * cols + c]) - mean) * rstd * gamma[c] + beta[c]);
    }
    printf("layernorm: checksum = %.3f\n", weighted_checksum(y.data(), n));
    check_equal("residual stream written back", bad_res);
    check_close("add + LayerNorm (Welford)", max_abs_diff(y.data(), ref.data(), n), 1e-4);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dres));
    CUDA_CHECK(cudaFree(dg));
    CUDA_CHECK(cudaFree(db));
    return finish("llm_softmax_layernorm");
}
