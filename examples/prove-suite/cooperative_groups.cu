// cooperative_groups.cu - reductions written with cooperative groups, as in
// the CUDA programming guide and cuda-samples' reductionMultiBlockCG:
// thread_block, tiled_partition<32> / <16> / <8> with tile.shfl_down,
// thread_block_tile::sync, meta-data (thread_rank, size, meta_group_rank),
// coalesced_threads() inside a branch, and a dynamic tiled_partition.
#include "check.cuh"

#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

template <int TILE>
__device__ int tile_sum(cg::thread_block_tile<TILE> tile, int v) {
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    return v;  // valid in rank 0
}

template <int TILE>
__global__ void tiled_sums(const int *in, int *tile_out, int *block_out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    __shared__ int partial[1024 / TILE];
    const int v = in[blockIdx.x * block.size() + block.thread_rank()];
    const int s = tile_sum<TILE>(tile, v);
    if (tile.thread_rank() == 0) {
        const unsigned tiles_per_block = block.size() / TILE;
        tile_out[blockIdx.x * tiles_per_block + tile.meta_group_rank()] = s;
        partial[tile.meta_group_rank()] = s;
    }
    block.sync();
    if (block.thread_rank() == 0) {
        int total = 0;
        for (unsigned t = 0; t < block.size() / TILE; ++t) total += partial[t];
        block_out[blockIdx.x] = total;
    }
}

// threads with odd values count themselves with the coalesced group of that branch
__global__ void count_odd(const int *in, int *count) {
    const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        if (active.thread_rank() == 0) atomicAdd(count, static_cast<int>(active.size()));
    }
}

// a tile whose size is only known at run time (dynamic tiled_partition)
__global__ void dynamic_tiles(const int *in, int *out, unsigned tile_size) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    __shared__ int buf[256];
    buf[block.thread_rank()] = in[blockIdx.x * block.size() + block.thread_rank()];
    tile.sync();
    // each thread takes the max of its tile through shared memory
    const unsigned base = block.thread_rank() - tile.thread_rank();
    int m = INT_MIN;
    for (unsigned k = 0; k < tile.size(); ++k) m = max(m, buf[base + k]);
    out[blockIdx.x * block.size() + block.thread_rank()] = m;
}

template <int TILE>
static void run_tiles(const std::vector<int> &h, int *din, int blocks, int threads) {
    const int tiles = blocks * threads / TILE;
    int *dtile, *dblock;
    CUDA_CHECK(cudaMalloc(&dtile, tiles * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dblock, blocks * sizeof(int)));
    tiled_sums<TILE><<<blocks, threads>>>(din, dtile, dblock);
    CUDA_CHECK_LAST();
    std::vector<int> t(tiles), b(blocks);
    CUDA_CHECK(cudaMemcpy(t.data(), dtile, tiles * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.data(), dblock, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int k = 0; k < tiles; ++k) {
        int s = 0;
        for (int j = 0; j < TILE; ++j) s += h[k * TILE + j];
        bad += t[k] != s;
    }
    for (int k = 0; k < blocks; ++k) {
        int s = 0;
        for (int j = 0; j < threads; ++j) s += h[k * threads + j];
        bad += b[k] != s;
    }
    printf("tile %d: tile[0] = %d block[0] = %d block[last] = %d\n", TILE, t[0], b[0], b[blocks - 1]);
    char name[64];
    snprintf(name, sizeof(name), "tiled_partition<%d> sums", TILE);
    check_equal(name, bad);
    CUDA_CHECK(cudaFree(dtile));
    CUDA_CHECK(cudaFree(dblock));
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 71)));
    const int blocks = 64, threads = 256, n = blocks * threads;
    std::vector<int> h(n);
    for (auto &v : h) v = static_cast<int>(rng.next_u32() % 2001) - 1000;
    int *din;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    run_tiles<32>(h, din, blocks, threads);
    run_tiles<16>(h, din, blocks, threads);
    run_tiles<8>(h, din, blocks, threads);

    int *dcount;
    CUDA_CHECK(cudaMalloc(&dcount, sizeof(int)));
    CUDA_CHECK(cudaMemset(dcount, 0, sizeof(int)));
    count_odd<<<blocks, threads>>>(din, dcount);
    CUDA_CHECK_LAST();
    int count = 0, ref = 0;
    CUDA_CHECK(cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost));
    for (int v : h) ref += v & 1;
    printf("odd values = %d\n", count);
    check_equal("coalesced_threads count", count != ref);

    int *dout;
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
    const unsigned tile_size = 4;
    dynamic_tiles<<<blocks, threads>>>(din, dout, tile_size);
    CUDA_CHECK_LAST();
    std::vector<int> out(n);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < n; ++i) {
        const int base = i - i % tile_size;
        int m = INT_MIN;
        for (unsigned k = 0; k < tile_size; ++k) m = std::max(m, h[base + k]);
        bad += out[i] != m;
    }
    check_equal("dynamic tiled_partition max", bad);
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dcount));
    CUDA_CHECK(cudaFree(dout));
    return finish("cooperative_groups");
}
