// Warp-shuffle reductions with the CUDA 9 _sync intrinsics: a block sum built
// from __shfl_down_sync, a butterfly max (__shfl_xor_sync), a broadcast
// (__shfl_sync), a warp prefix sum (__shfl_up_sync), all with the full mask,
// and a 16-lane sum with a partial mask. Loops run over warpSize, and the CPU
// reference uses the warp size the device reports, so the printed lines are
// the same for 32- and 64-lane warps.
#include <algorithm>
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

__device__ __forceinline__ int warpReduceSum(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void blockReduceSum(const int* in, int* blockSums, int n) {
  __shared__ int warpSums[32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (i < n) ? in[i] : 0;  // no early return: every lane of the warp takes part
  v = warpReduceSum(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int numWarps = blockDim.x / warpSize;
    v = (lane < numWarps) ? warpSums[lane] : 0;
    v = warpReduceSum(v);
    if (lane == 0) blockSums[blockIdx.x] = v;
  }
}

__global__ void warpOps(const int* in, int* wmax, int* bcast, int* scan, int n) {
  const int lane = threadIdx.x % warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = (i < n) ? in[i] : 0;

  int m = x;  // butterfly: every lane ends with the warp maximum
  for (int mask = warpSize / 2; mask > 0; mask /= 2)
    m = max(m, __shfl_xor_sync(0xffffffff, m, mask));

  const int b = __shfl_sync(0xffffffff, x, 0);  // lane 0's value

  int s = x;  // inclusive prefix sum over the warp
  for (int d = 1; d < warpSize; d *= 2) {
    const int t = __shfl_up_sync(0xffffffff, s, d);
    if (lane >= d) s += t;
  }

  if (i < n) {
    wmax[i] = m;
    bcast[i] = b;
    scan[i] = s;
  }
}

// Partial mask: only lanes 0..15 of each warp call the shuffle, so the mask
// names exactly those lanes, and width 16 keeps the butterfly inside them.
__global__ void lowLanesSum(const int* in, int* out, int n) {
  const int lane = threadIdx.x % warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane < 16) {
    int v = (i < n) ? in[i] : 0;
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0x0000ffff, v, offset, 16);
    if (lane == 0) out[i / warpSize] = v;
  }
}

int main() {
  const int n = 100000;
  const int threads = 256;  // a multiple of 32 and of 64
  const int blocks = (n + threads - 1) / threads;
  const int total = blocks * threads;

  int dev = 0, ws = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, dev));
  const int numWarps = total / ws;

  std::vector<int> x(total, 0);  // zero-padded like the kernels' out-of-range lanes
  for (int i = 0; i < n; ++i) x[i] = (i * 37 + 11) % 201 - 100;

  int *d_in, *d_blockSums, *d_wmax, *d_bcast, *d_scan, *d_low;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_blockSums, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_wmax, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_bcast, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_low, numWarps * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  blockReduceSum<<<blocks, threads>>>(d_in, d_blockSums, n);
  CUDA_CHECK(cudaGetLastError());
  warpOps<<<blocks, threads>>>(d_in, d_wmax, d_bcast, d_scan, n);
  CUDA_CHECK(cudaGetLastError());
  lowLanesSum<<<blocks, threads>>>(d_in, d_low, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<int> blockSums(blocks), wmax(n), bcast(n), scan(n), low(numWarps);
  CUDA_CHECK(cudaMemcpy(blockSums.data(), d_blockSums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(wmax.data(), d_wmax, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(bcast.data(), d_bcast, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(low.data(), d_low, numWarps * sizeof(int), cudaMemcpyDeviceToHost));

  long long gpuTotal = 0, cpuTotal = 0;
  int badBlocks = 0;
  for (int b = 0; b < blocks; ++b) {
    int ref = 0;
    for (int t = 0; t < threads; ++t) ref += x[b * threads + t];
    if (blockSums[b] != ref) ++badBlocks;
    gpuTotal += blockSums[b];
    cpuTotal += ref;
  }

  int badMax = 0, badBcast = 0, badScan = 0, badLow = 0;
  for (int w = 0; w < numWarps; ++w) {
    const int base = w * ws;
    const int m = *std::max_element(x.begin() + base, x.begin() + base + ws);
    int s = 0;
    for (int l = 0; l < ws; ++l) {
      const int i = base + l;
      s += x[i];
      if (i >= n) continue;
      if (wmax[i] != m) ++badMax;
      if (bcast[i] != x[base]) ++badBcast;
      if (scan[i] != s) ++badScan;
    }
    int lowRef = 0;
    for (int l = 0; l < 16; ++l) lowRef += x[base + l];
    if (low[w] != lowRef) ++badLow;
  }

  printf("total sum = %lld (cpu %lld)\n", gpuTotal, cpuTotal);
  printf("block sum mismatches = %d\n", badBlocks);
  printf("warp max (xor, full mask) mismatches = %d\n", badMax);
  printf("broadcast (full mask) mismatches = %d\n", badBcast);
  printf("warp scan (up, full mask) mismatches = %d\n", badScan);
  printf("16-lane sum (partial mask) mismatches = %d\n", badLow);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_blockSums));
  CUDA_CHECK(cudaFree(d_wmax));
  CUDA_CHECK(cudaFree(d_bcast));
  CUDA_CHECK(cudaFree(d_scan));
  CUDA_CHECK(cudaFree(d_low));

  const bool ok = gpuTotal == cpuTotal && badBlocks == 0 && badMax == 0 && badBcast == 0 &&
                  badScan == 0 && badLow == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
