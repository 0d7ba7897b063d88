// CUB block-level primitives: cub::BlockReduce (Sum and Reduce with a custom
// max functor) and cub::BlockScan (ExclusiveSum) over a blocked arrangement
// loaded with cub::LoadDirectBlocked, plus the device-wide cub::DeviceReduce::Sum
// with its two-phase temporary storage query.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cub/cub.cuh>
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

struct MaxOp {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void blockReduceScan(const int* in, int* blockSums, int* blockMaxes, int* prefix, int n) {
  typedef cub::BlockReduce<int, BLOCK_THREADS> BlockReduceT;
  typedef cub::BlockScan<int, BLOCK_THREADS> BlockScanT;
  __shared__ union {
    typename BlockReduceT::TempStorage reduce;
    typename BlockScanT::TempStorage scan;
  } temp;

  const int tileSize = BLOCK_THREADS * ITEMS_PER_THREAD;
  const int offset = blockIdx.x * tileSize;
  const int valid = min(tileSize, n - offset);
  int items[ITEMS_PER_THREAD];
  cub::LoadDirectBlocked(threadIdx.x, in + offset, items, valid, 0);  // out of range -> 0

  const int sum = BlockReduceT(temp.reduce).Sum(items);
  __syncthreads();  // temp storage is reused
  const int mx = BlockReduceT(temp.reduce).Reduce(items, MaxOp());
  __syncthreads();
  int scanned[ITEMS_PER_THREAD];
  BlockScanT(temp.scan).ExclusiveSum(items, scanned);

  if (threadIdx.x == 0) {
    blockSums[blockIdx.x] = sum;
    blockMaxes[blockIdx.x] = mx;
  }
  for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
    const int idx = offset + threadIdx.x * ITEMS_PER_THREAD + k;
    if (idx < n) prefix[idx] = scanned[k];
  }
}

int main() {
  constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;
  const int n = 100000;  // not a multiple of the tile
  const int blocks = (n + kTile - 1) / kTile;

  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 97 + 13) % 1000;  // 0..999

  int *d_in, *d_sums, *d_maxes, *d_prefix, *d_total;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_maxes, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_prefix, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  blockReduceScan<kThreads, kItems><<<blocks, kThreads>>>(d_in, d_sums, d_maxes, d_prefix, n);
  CUDA_CHECK(cudaGetLastError());

  void* d_temp = nullptr;
  size_t tempBytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, tempBytes, d_in, d_total, n));  // size query
  CUDA_CHECK(cudaMalloc(&d_temp, tempBytes));
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, tempBytes, d_in, d_total, n));
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> sums(blocks), maxes(blocks), prefix(n);
  int total = 0;
  CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(maxes.data(), d_maxes, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(prefix.data(), d_prefix, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));

  int badSum = 0, badMax = 0, badScan = 0;
  long long refTotal = 0;
  for (int b = 0; b < blocks; ++b) {
    int s = 0, m = 0;
    for (int i = b * kTile; i < std::min(n, (b + 1) * kTile); ++i) {
      if (prefix[i] != s) ++badScan;
      s += h[i];
      m = std::max(m, h[i]);
    }
    badSum += sums[b] != s;
    badMax += maxes[b] != m;
    refTotal += s;
  }

  printf("blocks = %d, items per block = %d\n", blocks, kTile);
  printf("BlockReduce Sum mismatches = %d\n", badSum);
  printf("BlockReduce max mismatches = %d\n", badMax);
  printf("BlockScan ExclusiveSum mismatches = %d\n", badScan);
  printf("block 0 sum = %d, last block sum = %d\n", sums[0], sums[blocks - 1]);
  printf("DeviceReduce::Sum = %d (cpu %lld)\n", total, refTotal);

  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_sums));
  CUDA_CHECK(cudaFree(d_maxes));
  CUDA_CHECK(cudaFree(d_prefix));
  CUDA_CHECK(cudaFree(d_total));

  const bool ok = badSum == 0 && badMax == 0 && badScan == 0 && total == refTotal;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
