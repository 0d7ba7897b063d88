// Dynamic shared memory: extern __shared__ arrays sized at launch time,
// a templated kernel that carves its typed array out of raw bytes, and one
// allocation split into two arrays of different types.
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

// Reverse each block's segment through shared memory.
__global__ void reverseBlocks(int* data) {
  extern __shared__ int s_seg[];
  const int t = threadIdx.x;
  const int g = blockIdx.x * blockDim.x + t;
  s_seg[t] = data[g];
  __syncthreads();
  data[g] = s_seg[blockDim.x - 1 - t];
}

// Tree reduction; blockDim.x must be a power of two. One extern array name is
// shared by every instantiation, so it is declared as bytes and cast.
template <typename T>
__global__ void blockSum(const T* in, T* out, int n) {
  extern __shared__ unsigned char s_raw[];
  T* s = reinterpret_cast<T*>(s_raw);
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t] = (i < n) ? in[i] : T(0);
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// One dynamic allocation holding blockDim.x ints followed by blockDim.x floats.
__global__ void splitShared(const int* in, float* out, int n) {
  extern __shared__ int s_ints[];
  float* s_floats = reinterpret_cast<float*>(&s_ints[blockDim.x]);
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s_ints[t] = (i < n) ? in[i] : 0;
  s_floats[t] = 0.5f * t;
  __syncthreads();
  // Each thread combines its neighbour's int with its own float.
  const int nb = (t + 1) % blockDim.x;
  if (i < n) out[i] = s_ints[nb] + s_floats[t];
}

template <typename T>
static int checkBlockSums(const std::vector<T>& h_in, int threads, double* total) {
  const int n = (int)h_in.size();
  const int blocks = (n + threads - 1) / threads;
  T *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_out, blocks * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  blockSum<T><<<blocks, threads, threads * sizeof(T)>>>(d_in, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<T> got(blocks);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  int bad = 0;
  *total = 0.0;
  for (int b = 0; b < blocks; ++b) {
    T ref = T(0);
    for (int t = 0; t < threads && b * threads + t < n; ++t) ref += h_in[b * threads + t];
    bad += got[b] != ref;
    *total += (double)got[b];
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return bad;
}

int main() {
  const int threads = 128;
  const int blocks = 64;
  const int n = threads * blocks;

  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i * 3 - 1000;
  int* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  reverseBlocks<<<blocks, threads, threads * sizeof(int)>>>(d);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> rev(n);
  CUDA_CHECK(cudaMemcpy(rev.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int revBad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      revBad += rev[b * threads + t] != h[b * threads + threads - 1 - t];

  // Integer and integer-valued double data: exact sums in any order.
  const int m = 50000;
  std::vector<int> hi(m);
  std::vector<double> hd(m);
  for (int i = 0; i < m; ++i) {
    hi[i] = (i * 17) % 1001 - 500;
    hd[i] = (double)((i * 13) % 2001) * 0.5;
  }
  double intTotal = 0.0, dblTotal = 0.0;
  const int intBad = checkBlockSums(hi, 256, &intTotal);
  const int dblBad = checkBlockSums(hd, 512, &dblTotal);

  const int k = 1000;  // not a multiple of the block size
  float* d_f;
  CUDA_CHECK(cudaMalloc(&d_f, k * sizeof(float)));
  const size_t splitBytes = threads * (sizeof(int) + sizeof(float));
  splitShared<<<(k + threads - 1) / threads, threads, splitBytes>>>(d, d_f, k);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> f(k);
  CUDA_CHECK(cudaMemcpy(f.data(), d_f, k * sizeof(float), cudaMemcpyDeviceToHost));
  int splitBad = 0;
  for (int i = 0; i < k; ++i) {
    const int t = i % threads, base = i - t;
    const int nbIdx = base + (t + 1) % threads;
    const int nb = nbIdx < k ? rev[nbIdx] : 0;
    splitBad += f[i] != nb + 0.5f * t;
  }

  printf("reverse mismatches = %d\n", revBad);
  printf("blockSum<int> mismatches = %d, total = %.0f\n", intBad, intTotal);
  printf("blockSum<double> mismatches = %d, total = %.1f\n", dblBad, dblTotal);
  printf("split int/float shared mismatches = %d\n", splitBad);

  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(d_f));

  const bool ok = revBad == 0 && intBad == 0 && dblBad == 0 && splitBad == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
