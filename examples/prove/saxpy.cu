// y = a * x + y on random data made from --seed; prints a checksum (compared
// within a relative tolerance) and its time (ignored by smoke.toml).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "check.cuh"

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
  unsigned seed = 1;
  int n = 1 << 16;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoul(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--n")) n = std::atoi(argv[i + 1]);
  }
  std::vector<float> x(n), y(n), reference(n);
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;  // the same numbers on every machine
    x[i] = (seed >> 8) / 16777216.0f;
    y[i] = 1.0f - x[i];
    reference[i] = 2.5f * x[i] + y[i];
  }
  float *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.5f, dx, dy);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  double checksum = 0, worst = 0;
  for (int i = 0; i < n; ++i) {
    checksum += y[i];
    double e = y[i] > reference[i] ? y[i] - reference[i] : reference[i] - y[i];
    if (e > worst) worst = e;
  }
  std::printf("n = %d\n", n);
  std::printf("checksum = %.9e\n", checksum);
  std::printf("elapsed: %.3f ms\n", ms);
  std::printf("%s\n", worst < 1e-5 ? "PASS" : "FAIL");
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  return worst < 1e-5 ? 0 : 1;
}
