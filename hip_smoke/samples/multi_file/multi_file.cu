// Multi-file program: main here, kernels in kernels.cu, shared declarations
// and a __host__ __device__ function in common.cuh.
#include <vector>
#include "common.cuh"

int main() {
  const int n = 100000;
  std::vector<unsigned int> h_start(n);
  for (int i = 0; i < n; ++i) h_start[i] = (unsigned int)(i + 1);  // 1..n

  unsigned int* d_start;
  int* d_steps;
  StepStats* d_stats;
  CUDA_CHECK(cudaMalloc(&d_start, n * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_steps, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_stats, sizeof(StepStats)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  CUDA_CHECK(cudaMemcpyAsync(d_start, h_start.data(), n * sizeof(unsigned int),
                             cudaMemcpyHostToDevice, stream));
  launchCollatz(d_start, d_steps, n, stream);
  launchStats(d_steps, n, d_stats, stream);

  std::vector<int> steps(n);
  StepStats stats;
  CUDA_CHECK(cudaMemcpyAsync(steps.data(), d_steps, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(&stats, d_stats, sizeof(StepStats), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  int mismatches = 0, refMax = 0, argMax = 0;
  unsigned long long refTotal = 0;
  for (int i = 0; i < n; ++i) {
    const int r = collatzSteps(h_start[i]);  // the same function on the host
    mismatches += steps[i] != r;
    refTotal += r;
    if (r > refMax) {
      refMax = r;
      argMax = (int)h_start[i];
    }
  }

  printf("n = %d\n", n);
  printf("steps(27) = %d\n", steps[26]);
  printf("total steps = %llu (cpu %llu)\n", stats.total, refTotal);
  printf("max steps = %d at start %d\n", stats.maxSteps, argMax);
  printf("mismatches = %d\n", mismatches);

  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_start));
  CUDA_CHECK(cudaFree(d_steps));
  CUDA_CHECK(cudaFree(d_stats));

  const bool ok = mismatches == 0 && stats.total == refTotal && stats.maxSteps == refMax;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
