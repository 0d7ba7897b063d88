// cuBLAS SGEMM: C = alpha * A * B + beta * C and D = A^T * A (column-major),
// on a user stream, with small integer entries so every result is exact and
// equal to the CPU reference on any GPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

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

#define CUBLAS_CHECK(call)                                                    \
  do {                                                                        \
    cublasStatus_t st_ = (call);                                              \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                       \
      fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)st_, __FILE__,   \
              __LINE__, #call);                                               \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

#define IDX(i, j, ld) ((size_t)(j) * (ld) + (i))  // column-major

int main() {
  const int M = 128, N = 96, K = 64;
  std::vector<float> A((size_t)M * K), B((size_t)K * N), C((size_t)M * N), D((size_t)K * K);
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < M; ++i) A[IDX(i, j, M)] = (float)((i + 2 * j) % 7 - 3);
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < K; ++i) B[IDX(i, j, K)] = (float)((3 * i + j) % 5 - 2);
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) C[IDX(i, j, M)] = (float)(2 * ((i + j) % 4));
  const float alpha = 1.0f, beta = 0.5f, zero = 0.0f;

  std::vector<float> refC(C.size()), refD(D.size());
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < M; ++i) {
      double s = 0.0;
      for (int k = 0; k < K; ++k) s += (double)A[IDX(i, k, M)] * B[IDX(k, j, K)];
      refC[IDX(i, j, M)] = (float)(alpha * s + beta * C[IDX(i, j, M)]);
    }
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) {
      double s = 0.0;
      for (int k = 0; k < M; ++k) s += (double)A[IDX(k, i, M)] * A[IDX(k, j, M)];
      refD[IDX(i, j, K)] = (float)s;
    }

  float *dA, *dB, *dC, *dD;
  CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dD, D.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dC, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));

  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, dA, M, dB, K, &beta,
                           dC, M));
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, K, K, M, &alpha, dA, M, dA, M, &zero,
                           dD, K));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  CUDA_CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(D.data(), dD, D.size() * sizeof(float), cudaMemcpyDeviceToHost));

  double errC = 0.0, errD = 0.0, sumC = 0.0, sumD = 0.0;
  for (size_t i = 0; i < C.size(); ++i) {
    errC = std::fmax(errC, std::fabs((double)C[i] - refC[i]));
    sumC += C[i];
  }
  for (size_t i = 0; i < D.size(); ++i) {
    errD = std::fmax(errD, std::fabs((double)D[i] - refD[i]));
    sumD += D[i];
  }

  printf("C = A*B + 0.5*C (%d x %d): C(0,0) = %.1f, C(%d,%d) = %.1f, sum = %.1f\n", M, N, C[0],
         M - 1, N - 1, C[IDX(M - 1, N - 1, M)], sumC);
  printf("D = A^T*A (%d x %d): D(0,0) = %.1f, sum = %.1f\n", K, K, D[0], sumD);
  printf("max abs error C = %g, D = %g\n", errC, errD);

  CUBLAS_CHECK(cublasDestroy(handle));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  CUDA_CHECK(cudaFree(dD));

  const bool ok = errC == 0.0 && errD == 0.0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
