// Constant memory: a 1-D convolution whose weights and bias live in
// __constant__ memory, set with cudaMemcpyToSymbol (whole and at an offset),
// read back with cudaMemcpyFromSymbol and through cudaGetSymbolAddress.
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

#define RADIUS 4
#define WIDTH (2 * RADIUS + 1)

__constant__ int c_weights[WIDTH];
__constant__ int c_bias;

__global__ void conv1d(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = c_bias;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k) {
    const int j = i + k;
    if (j >= 0 && j < n) acc += c_weights[k + RADIUS] * in[j];
  }
  out[i] = acc;
}

static void conv1dHost(const std::vector<int>& in, std::vector<int>& out, const int* w, int bias) {
  const int n = (int)in.size();
  for (int i = 0; i < n; ++i) {
    int acc = bias;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
      const int j = i + k;
      if (j >= 0 && j < n) acc += w[k + RADIUS] * in[j];
    }
    out[i] = acc;
  }
}

static int runAndCheck(const int* d_in, int* d_out, const std::vector<int>& h_in, const int* w,
                       int bias, long long* checksum) {
  const int n = (int)h_in.size();
  conv1d<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> got(n), ref(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  conv1dHost(h_in, ref, w, bias);
  int bad = 0;
  *checksum = 0;
  for (int i = 0; i < n; ++i) {
    bad += got[i] != ref[i];
    *checksum += got[i];
  }
  return bad;
}

int main() {
  const int n = 100003;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 31 + 7) % 101 - 50;

  int h_weights[WIDTH] = {1, -2, 3, -4, 5, -4, 3, -2, 1};
  const int h_bias = 10;
  CUDA_CHECK(cudaMemcpyToSymbol(c_weights, h_weights, sizeof(h_weights)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_bias, &h_bias, sizeof(int)));

  int* d_in;
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  long long sum1 = 0, sum2 = 0;
  const int bad1 = runAndCheck(d_in, d_out, h_in, h_weights, h_bias, &sum1);

  // Change the centre weight only: copy one int at a byte offset.
  h_weights[RADIUS] = 9;
  CUDA_CHECK(cudaMemcpyToSymbol(c_weights, &h_weights[RADIUS], sizeof(int), RADIUS * sizeof(int),
                                cudaMemcpyHostToDevice));
  const int bad2 = runAndCheck(d_in, d_out, h_in, h_weights, h_bias, &sum2);

  int back[WIDTH] = {0};
  CUDA_CHECK(cudaMemcpyFromSymbol(back, c_weights, sizeof(back)));
  int backBad = 0;
  for (int k = 0; k < WIDTH; ++k) backBad += back[k] != h_weights[k];

  void* biasAddr = nullptr;
  size_t biasSize = 0;
  CUDA_CHECK(cudaGetSymbolAddress(&biasAddr, c_bias));
  CUDA_CHECK(cudaGetSymbolSize(&biasSize, c_bias));
  int biasBack = 0;
  CUDA_CHECK(cudaMemcpy(&biasBack, biasAddr, sizeof(int), cudaMemcpyDeviceToHost));

  printf("pass 1: mismatches = %d, checksum = %lld\n", bad1, sum1);
  printf("pass 2 (centre weight 9): mismatches = %d, checksum = %lld\n", bad2, sum2);
  printf("weights read back: %s\n", backBad == 0 ? "match" : "differ");
  printf("bias via symbol address = %d (size %zu)\n", biasBack, biasSize);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  const bool ok = bad1 == 0 && bad2 == 0 && backBad == 0 && biasBack == h_bias &&
                  biasSize == sizeof(int) && sum1 != sum2;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
