// curand_device_pi.cu - Monte Carlo estimate of pi with the cuRAND device
// API, as in cuda-samples' MC_EstimatePiInlineP: one curandState (XORWOW)
// per thread initialised with curand_init(seed, thread id, 0, ...), draws
// with curand_uniform, a block reduction of the hit counts, plus
// curand_normal and a Philox state for a second estimate. The streams
// differ between platforms; the estimates agree within the printed rounding
// and smoke.toml's absolute tolerance.
#include "check.cuh"

#include <curand_kernel.h>

constexpr int kThreads = 256;

__global__ void setup_states(curandState *states, unsigned long long seed) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

__global__ void count_hits(curandState *states, int per_thread, unsigned long long *hits) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];  // work on a register copy, store it back
    unsigned int count = 0;
    for (int i = 0; i < per_thread; ++i) {
        const float x = curand_uniform(&local);
        const float y = curand_uniform(&local);
        count += (x * x + y * y <= 1.0f);
    }
    states[id] = local;
    __shared__ unsigned int block_hits[kThreads];
    block_hits[threadIdx.x] = count;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) block_hits[threadIdx.x] += block_hits[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(hits, static_cast<unsigned long long>(block_hits[0]));
}

__global__ void normal_moments(unsigned long long seed, int per_thread, double *sum, double *sum2) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, 0, &state);
    double s = 0, s2 = 0;
    for (int i = 0; i < per_thread; ++i) {
        const float4 v = curand_normal4(&state);
        s += v.x + v.y + v.z + v.w;
        s2 += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    atomicAdd(sum, s);
    atomicAdd(sum2, s2);
}

int main(int argc, char **argv) {
    const unsigned long long seed = static_cast<unsigned long long>(arg_int(argc, argv, "--seed", 4321));
    const int blocks = 256, per_thread = 2000;
    const int threads_total = blocks * kThreads;
    curandState *states;
    unsigned long long *dhits;
    CUDA_CHECK(cudaMalloc(&states, threads_total * sizeof(curandState)));
    CUDA_CHECK(cudaMalloc(&dhits, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(dhits, 0, sizeof(unsigned long long)));
    setup_states<<<blocks, kThreads>>>(states, seed);
    CUDA_CHECK_LAST();
    count_hits<<<blocks, kThreads>>>(states, per_thread, dhits);
    CUDA_CHECK_LAST();
    unsigned long long hits = 0;
    CUDA_CHECK(cudaMemcpy(&hits, dhits, sizeof(hits), cudaMemcpyDeviceToHost));
    const double samples = static_cast<double>(threads_total) * per_thread;
    const double pi = 4.0 * hits / samples;
    printf("samples = %.0f\n", samples);
    printf("pi estimate = %.3f\n", pi);
    // the standard error is about 4e-4 for 1.3e8 samples
    check_close("pi within 5 standard errors", fabs(pi - M_PI), 2e-3);

    double *dsum, *dsum2;
    CUDA_CHECK(cudaMalloc(&dsum, sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dsum2, sizeof(double)));
    CUDA_CHECK(cudaMemset(dsum, 0, sizeof(double)));
    CUDA_CHECK(cudaMemset(dsum2, 0, sizeof(double)));
    normal_moments<<<64, kThreads>>>(seed, 500, dsum, dsum2);
    CUDA_CHECK_LAST();
    double s = 0, s2 = 0;
    CUDA_CHECK(cudaMemcpy(&s, dsum, sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&s2, dsum2, sizeof(double), cudaMemcpyDeviceToHost));
    const double count = 64.0 * kThreads * 500 * 4;
    const double mean = s / count, var = s2 / count - mean * mean;
    printf("philox normal: mean = %.2f variance = %.2f\n", mean, var);
    check_close("normal mean", fabs(mean), 5e-3);
    check_close("normal variance", fabs(var - 1.0), 5e-3);
    CUDA_CHECK(cudaFree(states));
    CUDA_CHECK(cudaFree(dhits));
    CUDA_CHECK(cudaFree(dsum));
    CUDA_CHECK(cudaFree(dsum2));
    return finish("curand_device_pi");
}
