// reduce_warp_block.cu - sum and max reductions the way production kernels
// write them: grid-stride loads, warp shuffles (__shfl_down_sync), one
// shared-memory slot per warp, a second pass over the per-block partials,
// and a single-pass variant that finishes with atomicAdd.
#include "check.cuh"

#include <vector>

constexpr int kWarp = 32;
constexpr int kBlock = 256;

__inline__ __device__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

__inline__ __device__ int warp_reduce_max(int v) {
#pragma unroll
    for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
        v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
    }
    return v;
}

__inline__ __device__ float block_reduce_sum(float v) {
    __shared__ float shared[kBlock / kWarp];
    const int lane = threadIdx.x % kWarp;
    const int wid = threadIdx.x / kWarp;
    v = warp_reduce_sum(v);
    if (lane == 0) shared[wid] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / kWarp) ? shared[lane] : 0.0f;
    if (wid == 0) v = warp_reduce_sum(v);
    return v;
}

__global__ void reduce_partials(const float *__restrict__ in, float *__restrict__ partial, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    sum = block_reduce_sum(sum);
    if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

__global__ void reduce_atomic(const float *__restrict__ in, double *out, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    sum = block_reduce_sum(sum);
    if (threadIdx.x == 0) atomicAdd(out, static_cast<double>(sum));
}

__global__ void max_kernel(const int *__restrict__ in, int *out, int n) {
    int m = INT_MIN;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        m = max(m, in[i]);
    }
    m = warp_reduce_max(m);
    if ((threadIdx.x % kWarp) == 0) atomicMax(out, m);
}

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 1 << 22));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 1)));
    std::vector<float> h(n);
    std::vector<int> hi(n);
    double ref = 0.0;
    int ref_max = INT_MIN;
    for (int i = 0; i < n; ++i) {
        // multiples of 1/1024 in [-1, 1): every partial sum is exact in float
        h[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 2048) - 1024) / 1024.0f;
        ref += h[i];
        hi[i] = static_cast<int>(rng.next_u32() % 1000000) - 500000;
        ref_max = std::max(ref_max, hi[i]);
    }

    float *d_in, *d_partial;
    int *d_int, *d_max;
    double *d_sum;
    const int blocks = 120;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_int, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_max, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_int, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // two-pass: partials, then one block over the partials
    reduce_partials<<<blocks, kBlock>>>(d_in, d_partial, n);
    CUDA_CHECK_LAST();
    reduce_partials<<<1, kBlock>>>(d_partial, d_partial, blocks);
    CUDA_CHECK_LAST();
    float two_pass = 0.0f;
    CUDA_CHECK(cudaMemcpy(&two_pass, d_partial, sizeof(float), cudaMemcpyDeviceToHost));

    // one pass with a double atomicAdd per block
    CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(double)));
    reduce_atomic<<<blocks, kBlock>>>(d_in, d_sum, n);
    CUDA_CHECK_LAST();
    double atomic_sum = 0.0;
    CUDA_CHECK(cudaMemcpy(&atomic_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost));

    const int init = INT_MIN;
    CUDA_CHECK(cudaMemcpy(d_max, &init, sizeof(int), cudaMemcpyHostToDevice));
    max_kernel<<<blocks, kBlock>>>(d_int, d_max, n);
    CUDA_CHECK_LAST();
    int gpu_max = 0;
    CUDA_CHECK(cudaMemcpy(&gpu_max, d_max, sizeof(int), cudaMemcpyDeviceToHost));

    printf("n = %d\n", n);
    printf("sum (reference) = %.6f\n", ref);
    printf("sum (two-pass)  = %.6f\n", static_cast<double>(two_pass));
    printf("sum (atomic)    = %.6f\n", atomic_sum);
    printf("max = %d\n", gpu_max);
    check_close("two-pass sum", fabs(two_pass - ref), 1e-6);
    check_close("atomic sum", fabs(atomic_sum - ref), 1e-6);
    check_equal("max", gpu_max != ref_max);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_partial));
    CUDA_CHECK(cudaFree(d_int));
    CUDA_CHECK(cudaFree(d_max));
    CUDA_CHECK(cudaFree(d_sum));
    return finish("reduce_warp_block");
}
