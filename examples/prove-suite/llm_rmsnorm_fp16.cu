// llm_rmsnorm_fp16.cu - RMSNorm over FP16 activations as LLM inference
// kernels write it (vLLM / llama.cpp style): 128-bit vector loads of 8
// halves (uint4 reinterpreted as half2[4]), FP32 accumulation, a warp
// reduction with __shfl_xor_sync and a cross-warp reduction in shared
// memory, weight multiply, FP16 output; plus a fused SiLU-and-mul
// (SwiGLU gate) kernel on half2.
#include "check.cuh"

#include <cuda_fp16.h>
#include <vector>

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask, 32);
    return v;
}

template <int BLOCK>
__device__ float block_reduce_sum(float v) {
    __shared__ float shared[BLOCK / 32];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) shared[wid] = v;
    __syncthreads();
    v = lane < BLOCK / 32 ? shared[lane] : 0.0f;
    v = warp_reduce_sum(v);  // every warp computes the total
    return v;
}

template <int BLOCK>
__global__ void rms_norm_kernel(__half *__restrict__ out, const __half *__restrict__ in, const __half *__restrict__ weight,
                                float eps, int hidden) {
    const uint4 *in_vec = reinterpret_cast<const uint4 *>(in + static_cast<size_t>(blockIdx.x) * hidden);
    const uint4 *w_vec = reinterpret_cast<const uint4 *>(weight);
    uint4 *out_vec = reinterpret_cast<uint4 *>(out + static_cast<size_t>(blockIdx.x) * hidden);
    const int nvec = hidden / 8;
    float ss = 0.0f;
    for (int i = threadIdx.x; i < nvec; i += BLOCK) {
        uint4 raw = in_vec[i];
        const half2 *h = reinterpret_cast<const half2 *>(&raw);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const float2 f = __half22float2(h[k]);
            ss += f.x * f.x + f.y * f.y;
        }
    }
    __shared__ float s_inv;
    const float total = block_reduce_sum<BLOCK>(ss);
    if (threadIdx.x == 0) s_inv = rsqrtf(total / hidden + eps);
    __syncthreads();
    const float inv = s_inv;
    for (int i = threadIdx.x; i < nvec; i += BLOCK) {
        uint4 raw = in_vec[i], wraw = w_vec[i], res;
        const half2 *h = reinterpret_cast<const half2 *>(&raw);
        const half2 *w = reinterpret_cast<const half2 *>(&wraw);
        half2 *o = reinterpret_cast<half2 *>(&res);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const float2 f = __half22float2(h[k]);
            const float2 g = __half22float2(w[k]);
            o[k] = __floats2half2_rn(f.x * inv * g.x, f.y * inv * g.y);
        }
        out_vec[i] = res;
    }
}

// out[t][i] = silu(gate[t][i]) * up[t][i], input laid out as [gate | up] per token
__global__ void silu_and_mul(half2 *__restrict__ out, const half2 *__restrict__ in, int d2) {
    const half2 *gate = in + static_cast<size_t>(blockIdx.x) * 2 * d2;
    const half2 *up = gate + d2;
    for (int i = threadIdx.x; i < d2; i += blockDim.x) {
        const float2 g = __half22float2(gate[i]);
        const float2 u = __half22float2(up[i]);
        const float sx = g.x / (1.0f + __expf(-g.x));
        const float sy = g.y / (1.0f + __expf(-g.y));
        out[static_cast<size_t>(blockIdx.x) * d2 + i] = __floats2half2_rn(sx * u.x, sy * u.y);
    }
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 139)));
    const int tokens = 64, hidden = 4096, n = tokens * hidden;
    std::vector<__half> in(n), w(hidden), out(n);
    std::vector<float> fin(n), fw(hidden);
    for (int i = 0; i < n; ++i) {
        in[i] = __float2half(2.0f * rng.symmetric());
        fin[i] = __half2float(in[i]);
    }
    for (int i = 0; i < hidden; ++i) {
        w[i] = __float2half(1.0f + 0.25f * rng.symmetric());
        fw[i] = __half2float(w[i]);
    }
    __half *din, *dw, *dout;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dw, hidden * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(__half)));
    CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw, w.data(), hidden * sizeof(__half), cudaMemcpyHostToDevice));
    rms_norm_kernel<256><<<tokens, 256>>>(dout, din, dw, 1e-6f, hidden);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(__half), cudaMemcpyDeviceToHost));
    double err = 0.0, sum = 0.0;
    for (int t = 0; t < tokens; ++t) {
        double ss = 0;
        for (int i = 0; i < hidden; ++i) ss += static_cast<double>(fin[t * hidden + i]) * fin[t * hidden + i];
        const double inv = 1.0 / sqrt(ss / hidden + 1e-6);
        for (int i = 0; i < hidden; ++i) {
            const double ref = fin[t * hidden + i] * inv * fw[i];
            const double got = __half2float(out[t * hidden + i]);
            err = std::max(err, fabs(got - ref) / std::max(fabs(ref), 1.0));
            sum += got;
        }
    }
    printf("rms_norm fp16: sum = %.2f\n", sum);
    check_close("RMSNorm fp16 (relative to max(|ref|,1))", err, 2e-3);

    const int d = 2048, d2 = d / 2;
    std::vector<__half> gu(tokens * 2 * d), act(tokens * d);
    for (auto &v : gu) v = __float2half(4.0f * rng.symmetric());
    __half *dgu, *dact;
    CUDA_CHECK(cudaMalloc(&dgu, gu.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dact, act.size() * sizeof(__half)));
    CUDA_CHECK(cudaMemcpy(dgu, gu.data(), gu.size() * sizeof(__half), cudaMemcpyHostToDevice));
    silu_and_mul<<<tokens, 256>>>(reinterpret_cast<half2 *>(dact), reinterpret_cast<const half2 *>(dgu), d2);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(act.data(), dact, act.size() * sizeof(__half), cudaMemcpyDeviceToHost));
    err = 0.0;
    sum = 0.0;
    for (int t = 0; t < tokens; ++t)
        for (int i = 0; i < d; ++i) {
            const double g = __half2float(gu[t * 2 * d + i]), u = __half2float(gu[t * 2 * d + d + i]);
            const double ref = g / (1.0 + exp(-g)) * u;
            const double got = __half2float(act[t * d + i]);
            err = std::max(err, fabs(got - ref) / std::max(fabs(ref), 1.0));
            sum += got;
        }
    printf("silu_and_mul fp16: sum = %.2f\n", sum);
    check_close("SiLU-and-mul fp16", err, 2e-3);
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dgu));
    CUDA_CHECK(cudaFree(dact));
    return finish("llm_rmsnorm_fp16");
}
