// Tiled matrix multiply C = A * B with shared-memory tiles, for sizes that are
// not multiples of the tile. Small integer entries make every result exact.
#include <cstdio>
#include <cstdlib>
#include <cmath>
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

// A: M x K, B: K x N, C: M x N, all row-major.
template <int TILE>
__global__ void matmulTiled(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;

  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int ak = t * TILE + tx;
    const int bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

int main() {
  const int M = 200, N = 176, K = 144;
  constexpr int TILE = 16;

  std::vector<float> h_A((size_t)M * K), h_B((size_t)K * N), h_C((size_t)M * N), ref((size_t)M * N);
  for (int i = 0; i < M * K; ++i) h_A[i] = (float)((i * 7 + 3) % 5 - 2);  // -2..2
  for (int i = 0; i < K * N; ++i) h_B[i] = (float)((i * 3 + 1) % 7 - 3);  // -3..3

  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      double s = 0.0;
      for (int k = 0; k < K; ++k) s += (double)h_A[r * K + k] * h_B[k * N + c];
      ref[r * N + c] = (float)s;
    }

  float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
  CUDA_CHECK(cudaMalloc(&d_A, h_A.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_B, h_B.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_C, h_C.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_A, h_A.data(), h_A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_B, h_B.data(), h_B.size() * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmulTiled<TILE><<<grid, block>>>(d_A, d_B, d_C, M, N, K);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h_C.data(), d_C, h_C.size() * sizeof(float), cudaMemcpyDeviceToHost));

  double max_err = 0.0;
  long long checksum = 0;
  for (size_t i = 0; i < h_C.size(); ++i) {
    max_err = std::fmax(max_err, std::fabs((double)h_C[i] - ref[i]));
    checksum += (long long)h_C[i];
  }

  printf("M = %d, N = %d, K = %d\n", M, N, K);
  printf("C[0][0] = %.1f\n", h_C[0]);
  printf("C[%d][%d] = %.1f\n", M - 1, N - 1, h_C[(size_t)M * N - 1]);
  printf("checksum = %lld\n", checksum);
  printf("max abs error = %g\n", max_err);

  CUDA_CHECK(cudaFree(d_A));
  CUDA_CHECK(cudaFree(d_B));
  CUDA_CHECK(cudaFree(d_C));

  const bool ok = max_err == 0.0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
