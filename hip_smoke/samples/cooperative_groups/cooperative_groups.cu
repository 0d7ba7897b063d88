// Cooperative groups: thread_block, a static 16-thread tile with shfl_down /
// shfl reductions and meta_group_rank, and a dynamic 4-thread partition that
// synchronises through shared memory. Tiles of 16 fit in 32- and 64-lane warps.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

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

constexpr int kBlock = 256;
constexpr int kTile = 16;

template <unsigned int Size>
__device__ int tileSum(cg::thread_block_tile<Size> tile, int v) {
  for (unsigned int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  return v;
}

__global__ void tileReduce(const int* in, int* tileSums, int* tileMaxLane, int* blockSums, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);
  __shared__ int tileTotals[kBlock / kTile];

  const int i = block.group_index().x * block.size() + block.thread_rank();
  const int v = (i < n) ? in[i] : 0;
  const int s = tileSum(tile, v);
  // Lane 0 holds the sum; broadcast it so every lane can compare with it.
  const int total = tile.shfl(s, 0);
  // Lowest lane whose value is at least the tile mean (total / size), found by
  // each lane checking its own value and its neighbours' through shfl.
  int firstAbove = kTile;
  for (unsigned int l = 0; l < tile.size(); ++l) {
    const int lv = tile.shfl(v, l);
    if (firstAbove == kTile && lv * (int)tile.size() >= total) firstAbove = (int)l;
  }

  if (tile.thread_rank() == 0) {
    tileSums[i / kTile] = s;
    tileMaxLane[i / kTile] = firstAbove;
    tileTotals[tile.meta_group_rank()] = s;
  }
  block.sync();
  if (block.thread_rank() == 0) {
    int b = 0;
    for (unsigned int t = 0; t < tile.meta_group_size(); ++t) b += tileTotals[t];
    blockSums[block.group_index().x] = b;
  }
}

// Dynamic partition: groups of 4 add their values through shared memory.
__global__ void quadSum(const int* in, int* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group quad = cg::tiled_partition(block, 4);
  __shared__ int s[kBlock];
  const int t = block.thread_rank();
  const int i = blockIdx.x * blockDim.x + t;
  s[t] = (i < n) ? in[i] : 0;
  quad.sync();
  if (quad.thread_rank() == 0) {
    int q = 0;
    for (unsigned int k = 0; k < quad.size(); ++k) q += s[t + k];
    if (i < n) out[i / 4] = q;
  }
}

int main() {
  const int n = 100000;  // a multiple of 16 and 4, not of the block
  const int blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 53 + 17) % 199 - 99;

  int *d_in, *d_tileSums, *d_tileLane, *d_blockSums, *d_quads;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tileSums, (blocks * kBlock / kTile) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_tileLane, (blocks * kBlock / kTile) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_blockSums, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_quads, (n / 4) * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  tileReduce<<<blocks, kBlock>>>(d_in, d_tileSums, d_tileLane, d_blockSums, n);
  CUDA_CHECK(cudaGetLastError());
  quadSum<<<blocks, kBlock>>>(d_in, d_quads, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  const int numTiles = n / kTile;
  std::vector<int> tileSums(numTiles), tileLane(numTiles), blockSums(blocks), quads(n / 4);
  CUDA_CHECK(cudaMemcpy(tileSums.data(), d_tileSums, numTiles * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(tileLane.data(), d_tileLane, numTiles * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(blockSums.data(), d_blockSums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(quads.data(), d_quads, (n / 4) * sizeof(int), cudaMemcpyDeviceToHost));

  int badTile = 0, badLane = 0, badBlock = 0, badQuad = 0;
  long long total = 0;
  for (int t = 0; t < numTiles; ++t) {
    int s = 0;
    for (int l = 0; l < kTile; ++l) s += h[t * kTile + l];
    int first = kTile;
    for (int l = 0; l < kTile && first == kTile; ++l)
      if (h[t * kTile + l] * kTile >= s) first = l;
    badTile += tileSums[t] != s;
    badLane += tileLane[t] != first;
  }
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int k = b * kBlock; k < (b + 1) * kBlock && k < n; ++k) s += h[k];
    badBlock += blockSums[b] != s;
    total += blockSums[b];
  }
  for (int q = 0; q < n / 4; ++q) badQuad += quads[q] != h[4 * q] + h[4 * q + 1] + h[4 * q + 2] + h[4 * q + 3];

  printf("tiles of %d: sum mismatches = %d, first-above-mean mismatches = %d\n", kTile, badTile, badLane);
  printf("block sums (meta_group_rank): mismatches = %d\n", badBlock);
  printf("dynamic partition of 4: mismatches = %d\n", badQuad);
  printf("total = %lld\n", total);
  printf("tileSums[0] = %d, tileSums[last] = %d\n", tileSums[0], tileSums[numTiles - 1]);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_tileSums));
  CUDA_CHECK(cudaFree(d_tileLane));
  CUDA_CHECK(cudaFree(d_blockSums));
  CUDA_CHECK(cudaFree(d_quads));

  const bool ok = badTile == 0 && badLane == 0 && badBlock == 0 && badQuad == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
