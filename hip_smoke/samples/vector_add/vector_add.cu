// Vector addition: c = a + b on the GPU, checked against the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

int main() {
  // Not a multiple of the block size, so the bounds check matters.
  const int n = 1000003;
  const size_t bytes = n * sizeof(float);

  // Quarter-integer values below 1000: every sum is exact in float.
  std::vector<float> h_a(n), h_b(n), h_c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    h_a[i] = (i % 1000) * 0.5f;
    h_b[i] = (i % 777) * 0.25f;
  }

  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_b, bytes));
  CUDA_CHECK(cudaMalloc(&d_c, bytes));
  CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_c, 0, bytes));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

  int mismatches = 0;
  double checksum = 0.0;
  for (int i = 0; i < n; ++i) {
    if (h_c[i] != h_a[i] + h_b[i]) ++mismatches;
    checksum += h_c[i];
  }

  printf("n = %d\n", n);
  printf("c[0] = %.2f\n", h_c[0]);
  printf("c[12345] = %.2f\n", h_c[12345]);
  printf("c[n-1] = %.2f\n", h_c[n - 1]);
  printf("checksum = %.2f\n", checksum);
  printf("mismatches = %d\n", mismatches);

  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));

  const bool ok = mismatches == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
