// C = A * B with cuBLAS (column-major, small integer entries: exact in fp32),
// checked against the CPU; prints a few entries of C.
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include "check.cuh"

int main() {
  const int m = 64, k = 48, n = 32;
  std::vector<float> a(m * k), b(k * n), c(m * n), reference(m * n, 0.0f);
  for (int i = 0; i < m * k; ++i) a[i] = float((i * 7) % 7 - 3);
  for (int i = 0; i < k * n; ++i) b[i] = float((i * 5) % 5 - 2);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p) reference[i + j * m] += a[i + p * m] * b[p + j * k];
  float *da, *db, *dc;
  CUDA_CHECK(cudaMalloc(&da, a.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&db, b.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dc, c.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da, m,
                                      db, k, &zero, dc, m);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasSgemm failed: %d\n", int(status));
    return 1;
  }
  CUDA_CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < m * n; ++i) wrong += c[i] != reference[i];
  std::printf("C[0,0] = %.1f\n", c[0]);
  std::printf("C[%d,%d] = %.1f\n", m - 1, n - 1, c[m * n - 1]);
  std::printf("wrong entries = %d\n", wrong);
  std::printf("%s\n", wrong ? "FAIL" : "PASS");
  cublasDestroy(handle);
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dc));
  return wrong != 0;
}
