// cub_block.cu - CUB's block- and warp-level collectives inside a user
// kernel, the way custom fused kernels use them: BlockLoad / BlockStore
// (warp-transposed), BlockRadixSort, BlockScan (exclusive sum with block
// aggregate), BlockReduce (sum and a custom max functor), and WarpReduce
// over explicit 32-thread logical warps.
#include "check.cuh"

#include <cub/cub.cuh>
#include <vector>

constexpr int kThreads = 128;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;

struct MaxOp {
    __device__ int operator()(const int &a, const int &b) const { return a > b ? a : b; }
};

__global__ void block_sort_scan(const int *in, int *sorted, int *scanned, int *block_totals, int *block_max) {
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
    using Scan = cub::BlockScan<int, kThreads>;
    using Reduce = cub::BlockReduce<int, kThreads>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Sort::TempStorage sort;
        typename Scan::TempStorage scan;
        typename Reduce::TempStorage reduce;
    } temp;
    const int offset = blockIdx.x * kTile;
    int items[kItems];
    Load(temp.load).Load(in + offset, items);
    __syncthreads();
    const int local_max = Reduce(temp.reduce).Reduce(items, MaxOp());
    __syncthreads();
    Sort(temp.sort).Sort(items);  // blocked arrangement after the sort
    __syncthreads();
    // sorted items are in a blocked arrangement: thread t holds ranks t*kItems ..
    for (int k = 0; k < kItems; ++k) sorted[offset + threadIdx.x * kItems + k] = items[k];
    int aggregate = 0;
    Scan(temp.scan).ExclusiveSum(items, items, aggregate);
    __syncthreads();
    Store(temp.store).Store(scanned + offset, items);  // blocked -> striped order in memory: same as blocked
    if (threadIdx.x == 0) {
        block_totals[blockIdx.x] = aggregate;
        block_max[blockIdx.x] = local_max;
    }
}

__global__ void warp_sums(const int *in, int *out) {
    using WarpReduce = cub::WarpReduce<int, 32>;  // logical warps of 32 threads
    __shared__ typename WarpReduce::TempStorage temp[kThreads / 32];
    const int warp_id = threadIdx.x / 32;
    const int v = in[blockIdx.x * kThreads + threadIdx.x];
    const int s = WarpReduce(temp[warp_id]).Sum(v);
    if (threadIdx.x % 32 == 0) out[blockIdx.x * (kThreads / 32) + warp_id] = s;
}

__global__ void block_sum(const float *in, float *out, int n) {
    using Reduce = cub::BlockReduce<float, kThreads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename Reduce::TempStorage temp;
    float v = 0.0f;
    for (int i = threadIdx.x; i < n; i += kThreads) v += in[i];
    const float s = Reduce(temp).Sum(v);
    if (threadIdx.x == 0) *out = s;
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 113)));
    const int blocks = 200, n = blocks * kTile;
    std::vector<int> h(n);
    for (auto &v : h) v = static_cast<int>(rng.next_u32() % 20001) - 10000;
    int *din, *dsorted, *dscan, *dtot, *dmax;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dsorted, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dscan, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dtot, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dmax, blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_sort_scan<<<blocks, kThreads>>>(din, dsorted, dscan, dtot, dmax);
    CUDA_CHECK_LAST();
    std::vector<int> sorted(n), scanned(n), tot(blocks), mx(blocks);
    CUDA_CHECK(cudaMemcpy(sorted.data(), dsorted, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(scanned.data(), dscan, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tot.data(), dtot, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(mx.data(), dmax, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad_sort = 0, bad_scan = 0, bad_red = 0;
    for (int b = 0; b < blocks; ++b) {
        std::vector<int> tile(h.begin() + b * kTile, h.begin() + (b + 1) * kTile);
        std::sort(tile.begin(), tile.end());
        int acc = 0;
        for (int k = 0; k < kTile; ++k) {
            bad_sort += sorted[b * kTile + k] != tile[k];
            bad_scan += scanned[b * kTile + k] != acc;
            acc += tile[k];
        }
        bad_red += (tot[b] != acc) + (mx[b] != tile[kTile - 1]);
    }
    printf("block 0: min = %d max = %d total = %d\n", sorted[0], mx[0], tot[0]);
    check_equal("BlockLoad + BlockRadixSort", bad_sort);
    check_equal("BlockScan ExclusiveSum + BlockStore", bad_scan);
    check_equal("BlockScan aggregate + BlockReduce max", bad_red);

    const int wblocks = 64, wn = wblocks * kThreads;
    int *dw;
    CUDA_CHECK(cudaMalloc(&dw, wblocks * (kThreads / 32) * sizeof(int)));
    warp_sums<<<wblocks, kThreads>>>(din, dw);
    CUDA_CHECK_LAST();
    std::vector<int> ws(wblocks * (kThreads / 32));
    CUDA_CHECK(cudaMemcpy(ws.data(), dw, ws.size() * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (size_t w = 0; w < ws.size(); ++w) {
        int s = 0;
        for (int k = 0; k < 32; ++k) s += h[w * 32 + k];
        bad += ws[w] != s;
    }
    (void)wn;
    printf("warp sums[0..3] = %d %d %d %d\n", ws[0], ws[1], ws[2], ws[3]);
    check_equal("WarpReduce<int, 32> Sum", bad);

    const int fn = 100000;
    std::vector<float> f(fn);
    double ref = 0.0;
    for (auto &v : f) {
        v = static_cast<float>(rng.next_u32() % 256) / 256.0f;
        ref += v;
    }
    float *df, *dfo;
    CUDA_CHECK(cudaMalloc(&df, fn * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dfo, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(df, f.data(), fn * sizeof(float), cudaMemcpyHostToDevice));
    block_sum<<<1, kThreads>>>(df, dfo, fn);
    CUDA_CHECK_LAST();
    float fs = 0.0f;
    CUDA_CHECK(cudaMemcpy(&fs, dfo, sizeof(float), cudaMemcpyDeviceToHost));
    printf("float block sum = %.4f\n", fs);
    check_close("BlockReduce<float> warp reductions", fabs(fs - ref), 0.0);  // exact: multiples of 1/256 below 2^16
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dsorted));
    CUDA_CHECK(cudaFree(dscan));
    CUDA_CHECK(cudaFree(dtot));
    CUDA_CHECK(cudaFree(dmax));
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(df));
    CUDA_CHECK(cudaFree(dfo));
    return finish("cub_block");
}
