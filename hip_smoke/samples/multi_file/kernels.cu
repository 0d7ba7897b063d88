// Kernels and their launch wrappers; only common.cuh is shared with main.
#include "common.cuh"

__global__ void collatzKernel(const unsigned int* start, int* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) steps[i] = collatzSteps(start[i]);
}

__global__ void statsKernel(const int* steps, int n, StepStats* stats) {
  unsigned long long local = 0;
  int localMax = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    local += steps[i];
    localMax = max(localMax, steps[i]);
  }
  atomicAdd(&stats->total, local);
  atomicMax(&stats->maxSteps, localMax);
}

void launchCollatz(const unsigned int* d_start, int* d_steps, int n, cudaStream_t stream) {
  collatzKernel<<<(n + kBlockSize - 1) / kBlockSize, kBlockSize, 0, stream>>>(d_start, d_steps, n);
  CUDA_CHECK(cudaGetLastError());
}

void launchStats(const int* d_steps, int n, StepStats* d_stats, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(d_stats, 0, sizeof(StepStats), stream));
  statsKernel<<<32, kBlockSize, 0, stream>>>(d_steps, n, d_stats);
  CUDA_CHECK(cudaGetLastError());
}
