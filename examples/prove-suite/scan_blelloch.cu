// scan_blelloch.cu - work-efficient exclusive prefix sum (Blelloch up-sweep /
// down-sweep in shared memory with bank-conflict padding, as in GPU Gems 3
// ch. 39), extended to large arrays: scan each block, scan the block sums,
// add them back.
#include "check.cuh"

#include <vector>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

constexpr int kThreads = 256;
constexpr int kElems = 2 * kThreads;  // elements per block

__global__ void block_scan(const unsigned int *in, unsigned int *out, unsigned int *block_sums, int n) {
    __shared__ unsigned int temp[kElems + kElems / NUM_BANKS];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * kElems;
    int ai = tid;
    int bi = tid + kThreads;
    const int bank_a = CONFLICT_FREE_OFFSET(ai);
    const int bank_b = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bank_a] = (base + ai < n) ? in[base + ai] : 0u;
    temp[bi + bank_b] = (base + bi < n) ? in[base + bi] : 0u;

    int offset = 1;
    for (int d = kElems >> 1; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {
        const int last = kElems - 1 + CONFLICT_FREE_OFFSET(kElems - 1);
        if (block_sums) block_sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < kElems; d *= 2) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            const unsigned int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + bank_a];
    if (base + bi < n) out[base + bi] = temp[bi + bank_b];
}

__global__ void add_block_offsets(unsigned int *data, const unsigned int *offsets, int n) {
    const int i = blockIdx.x * kElems + threadIdx.x;
    const unsigned int add = offsets[blockIdx.x];
    if (i < n) data[i] += add;
    if (i + kThreads < n) data[i + kThreads] += add;
}

// Recursive scan over any n (the block sums are scanned the same way).
static void exclusive_scan(const unsigned int *d_in, unsigned int *d_out, int n) {
    const int blocks = (n + kElems - 1) / kElems;
    if (blocks == 1) {
        block_scan<<<1, kThreads>>>(d_in, d_out, nullptr, n);
        CUDA_CHECK_LAST();
        return;
    }
    unsigned int *d_sums, *d_sums_scanned;
    CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_sums_scanned, blocks * sizeof(unsigned int)));
    block_scan<<<blocks, kThreads>>>(d_in, d_out, d_sums, n);
    CUDA_CHECK_LAST();
    exclusive_scan(d_sums, d_sums_scanned, blocks);
    add_block_offsets<<<blocks, kThreads>>>(d_out, d_sums_scanned, n);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_sums_scanned));
}

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 3000000));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 5)));
    std::vector<unsigned int> h(n), ref(n), got(n);
    unsigned int acc = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = rng.next_u32() % 100;
        ref[i] = acc;
        acc += h[i];
    }
    unsigned int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    exclusive_scan(d_in, d_out, n);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += got[i] != ref[i];
    printf("n = %d total = %u\n", n, acc);
    printf("out[0..4] = %u %u %u %u %u\n", got[0], got[1], got[2], got[3], got[4]);
    printf("out[n-1] = %u\n", got[n - 1]);
    check_equal("exclusive scan", bad);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return finish("scan_blelloch");
}
