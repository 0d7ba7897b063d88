// Shared declarations for the multi-file sample: the error-check macro, a
// __host__ __device__ function used by the kernels and by the CPU reference,
// and the launch wrappers defined in kernels.cu.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__,       \
              __LINE__, #call, cudaGetErrorString(err_));                     \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

constexpr int kBlockSize = 256;

// Number of Collatz steps from x down to 1.
__host__ __device__ inline int collatzSteps(unsigned long long x) {
  int steps = 0;
  while (x != 1ull) {
    x = (x & 1ull) ? 3ull * x + 1ull : x >> 1;
    ++steps;
  }
  return steps;
}

struct StepStats {
  unsigned long long total;
  int maxSteps;
};

// kernels.cu
void launchCollatz(const unsigned int* d_start, int* d_steps, int n, cudaStream_t stream);
void launchStats(const int* d_steps, int n, StepStats* d_stats, cudaStream_t stream);
