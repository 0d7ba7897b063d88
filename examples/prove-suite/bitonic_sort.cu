// bitonic_sort.cu - bitonic sort of key/value pairs: the in-block stages in
// shared memory (one block sorts 1024 elements), then the global merge steps
// launched from the host, as in cuda-samples' sortingNetworks.
#include "check.cuh"

#include <vector>

constexpr int kSharedSize = 1024;

__device__ inline void compare_swap(unsigned &ka, unsigned &va, unsigned &kb, unsigned &vb, unsigned dir) {
    if ((ka > kb) == dir) {
        unsigned t = ka; ka = kb; kb = t;
        t = va; va = vb; vb = t;
    }
}

__global__ void bitonic_sort_shared(unsigned *keys, unsigned *vals, unsigned dir) {
    __shared__ unsigned sk[kSharedSize];
    __shared__ unsigned sv[kSharedSize];
    const unsigned base = blockIdx.x * kSharedSize;
    sk[threadIdx.x] = keys[base + threadIdx.x];
    sv[threadIdx.x] = vals[base + threadIdx.x];
    sk[threadIdx.x + kSharedSize / 2] = keys[base + threadIdx.x + kSharedSize / 2];
    sv[threadIdx.x + kSharedSize / 2] = vals[base + threadIdx.x + kSharedSize / 2];
    // alternate directions per block so that the global merge sees bitonic runs
    const unsigned block_dir = dir ^ (blockIdx.x & 1);
    for (unsigned size = 2; size < kSharedSize; size <<= 1) {
        const unsigned ddd = block_dir ^ ((threadIdx.x & (size / 2)) != 0);
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            compare_swap(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], ddd);
        }
    }
    for (unsigned stride = kSharedSize / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        compare_swap(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], block_dir);
    }
    __syncthreads();
    keys[base + threadIdx.x] = sk[threadIdx.x];
    vals[base + threadIdx.x] = sv[threadIdx.x];
    keys[base + threadIdx.x + kSharedSize / 2] = sk[threadIdx.x + kSharedSize / 2];
    vals[base + threadIdx.x + kSharedSize / 2] = sv[threadIdx.x + kSharedSize / 2];
}

// one compare-exchange step of the global bitonic merge
__global__ void bitonic_merge_global(unsigned *keys, unsigned *vals, unsigned n, unsigned size, unsigned stride, unsigned dir) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;  // comparator index
    if (i >= n / 2) return;
    const unsigned ddd = dir ^ ((i & (size / 2)) != 0);
    const unsigned pos = 2 * i - (i & (stride - 1));
    unsigned ka = keys[pos], kb = keys[pos + stride];
    unsigned va = vals[pos], vb = vals[pos + stride];
    compare_swap(ka, va, kb, vb, ddd);
    keys[pos] = ka; keys[pos + stride] = kb;
    vals[pos] = va; vals[pos + stride] = vb;
}

int main(int argc, char **argv) {
    const unsigned n = 1u << static_cast<int>(arg_int(argc, argv, "--log2n", 20));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 19)));
    std::vector<unsigned> keys(n), vals(n);
    for (unsigned i = 0; i < n; ++i) {
        keys[i] = rng.next_u32() % 100000;  // many duplicates
        vals[i] = i;
    }
    unsigned *dk, *dv;
    CUDA_CHECK(cudaMalloc(&dk, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dv, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(dk, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dv, vals.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    const unsigned dir = 1;  // ascending
    bitonic_sort_shared<<<n / kSharedSize, kSharedSize / 2>>>(dk, dv, dir);
    CUDA_CHECK_LAST();
    for (unsigned size = 2 * kSharedSize; size <= n; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            bitonic_merge_global<<<(n / 2 + 255) / 256, 256>>>(dk, dv, n, size, stride, dir);
            CUDA_CHECK_LAST();
        }
    }
    std::vector<unsigned> sk(n), sv(n);
    CUDA_CHECK(cudaMemcpy(sk.data(), dk, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sv.data(), dv, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    long long unsorted = 0, broken_pairs = 0;
    for (unsigned i = 0; i < n; ++i) {
        if (i > 0 && sk[i - 1] > sk[i]) ++unsorted;
        if (keys[sv[i]] != sk[i]) ++broken_pairs;  // the value still names its key's origin
    }
    std::vector<unsigned> ref = keys;
    std::sort(ref.begin(), ref.end());
    long long bad = 0;
    for (unsigned i = 0; i < n; ++i) bad += ref[i] != sk[i];
    printf("n = %u\n", n);
    printf("keys[0..3] = %u %u %u %u keys[n-1] = %u\n", sk[0], sk[1], sk[2], sk[3], sk[n - 1]);
    printf("key checksum = %.0f\n", weighted_checksum(sk.data(), n));
    check_equal("sorted order", unsorted);
    check_equal("same keys as std::sort", bad);
    check_equal("pairs kept together", broken_pairs);
    CUDA_CHECK(cudaFree(dk));
    CUDA_CHECK(cudaFree(dv));
    return finish("bitonic_sort");
}
