// dynamic_shared.cu - dynamic shared memory the ways real kernels declare it:
// an extern __shared__ byte array carved into typed sub-arrays, a templated
// kernel that reinterprets the same extern array per type (the
// SharedMemory<T> helper of cuda-samples), and an opt-in above 48 KiB (56 KiB, which 64 KiB-LDS GPUs also fit) with
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
#include "check.cuh"

#include <vector>

template <class T>
struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return reinterpret_cast<T *>(__smem);
    }
};

template <typename T>
__global__ void block_reverse_sum(const T *in, T *out, T *block_sums, int n) {
    T *s = SharedMemory<T>();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    if (i < n) out[i] = s[blockDim.x - 1 - threadIdx.x];
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) block_sums[blockIdx.x] = s[0];
}

// one byte array carved into a float tile and an int histogram
__global__ void carve(const float *x, int n, int bins, float *means, int *counts) {
    extern __shared__ unsigned char smem[];
    float *tile = reinterpret_cast<float *>(smem);
    int *hist = reinterpret_cast<int *>(smem + blockDim.x * sizeof(float));
    for (int b = threadIdx.x; b < bins; b += blockDim.x) hist[b] = 0;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) atomicAdd(&hist[static_cast<int>(tile[threadIdx.x] * bins) % bins], 1);
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) means[blockIdx.x] = tile[0] / blockDim.x;
    for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&counts[b], hist[b]);
}

// uses 56 KiB of dynamic shared memory: needs the opt-in above 48 KiB
__global__ void big_smem_rotate(const int *in, int *out, int words) {
    extern __shared__ int big[];
    for (int k = threadIdx.x; k < words; k += blockDim.x) big[k] = in[blockIdx.x * words + k];
    __syncthreads();
    for (int k = threadIdx.x; k < words; k += blockDim.x) out[blockIdx.x * words + k] = big[(k + 1000) % words];
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 61)));
    const int n = 256 * 100, threads = 256, blocks = n / threads;
    std::vector<double> xd(n), outd(n), sumsd(blocks);
    std::vector<int> xi(n), outi(n), sumsi(blocks);
    for (int i = 0; i < n; ++i) {
        xd[i] = static_cast<double>(rng.next_u32() % 1000) / 8.0;
        xi[i] = static_cast<int>(rng.next_u32() % 1000) - 500;
    }
    double *dxd, *doutd, *dsumsd;
    int *dxi, *douti, *dsumsi;
    CUDA_CHECK(cudaMalloc(&dxd, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&doutd, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dsumsd, blocks * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dxi, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&douti, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dsumsi, blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dxd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dxi, xi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_reverse_sum<double><<<blocks, threads, threads * sizeof(double)>>>(dxd, doutd, dsumsd, n);
    CUDA_CHECK_LAST();
    block_reverse_sum<int><<<blocks, threads, threads * sizeof(int)>>>(dxi, douti, dsumsi, n);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(outd.data(), doutd, n * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sumsd.data(), dsumsd, blocks * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(outi.data(), douti, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sumsi.data(), dsumsi, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int b = 0; b < blocks; ++b) {
        double sd = 0;
        int si = 0;
        for (int t = 0; t < threads; ++t) {
            const int i = b * threads + t, j = b * threads + threads - 1 - t;
            bad += outd[i] != xd[j];
            bad += outi[i] != xi[j];
            sd += xd[i];
            si += xi[i];
        }
        bad += sumsd[b] != sd;
        bad += sumsi[b] != si;
    }
    printf("block sums[0..2] double = %.3f %.3f %.3f int = %d %d %d\n", sumsd[0], sumsd[1], sumsd[2], sumsi[0], sumsi[1],
           sumsi[2]);
    check_equal("SharedMemory<T> double/int", bad);

    const int bins = 10, m = 1000;
    std::vector<float> x(m);
    for (auto &v : x) v = static_cast<float>(rng.next_u32() % 64) / 64.0f;
    float *dx, *dmeans;
    int *dcounts;
    const int cblocks = (m + 127) / 128;
    CUDA_CHECK(cudaMalloc(&dx, m * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dmeans, cblocks * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dcounts, bins * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), m * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dcounts, 0, bins * sizeof(int)));
    carve<<<cblocks, 128, 128 * sizeof(float) + bins * sizeof(int)>>>(dx, m, bins, dmeans, dcounts);
    CUDA_CHECK_LAST();
    std::vector<int> counts(bins), ref_counts(bins, 0);
    std::vector<float> means(cblocks);
    CUDA_CHECK(cudaMemcpy(counts.data(), dcounts, bins * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(means.data(), dmeans, cblocks * sizeof(float), cudaMemcpyDeviceToHost));
    for (float v : x) ++ref_counts[static_cast<int>(v * bins) % bins];
    bad = 0;
    for (int b = 0; b < bins; ++b) bad += counts[b] != ref_counts[b];
    double mean_err = 0.0;
    for (int b = 0; b < cblocks; ++b) {
        double s = 0;
        for (int t = 0; t < 128; ++t) s += (b * 128 + t < m) ? x[b * 128 + t] : 0.0f;
        mean_err = std::max(mean_err, fabs(means[b] - s / 128));
    }
    printf("counts = %d %d %d %d %d %d %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3], counts[4], counts[5],
           counts[6], counts[7], counts[8], counts[9]);
    check_equal("carved histogram", bad);
    check_close("carved block means", mean_err, 0.0);

    const int words = 56 * 1024 / 4, rblocks = 8;  // above the 48 KiB default, within 64 KiB
    CUDA_CHECK(cudaFuncSetAttribute(big_smem_rotate, cudaFuncAttributeMaxDynamicSharedMemorySize, words * 4));
    std::vector<int> in(words * rblocks), out(words * rblocks);
    for (auto &v : in) v = static_cast<int>(rng.next_u32());
    int *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, in.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dout, out.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
    big_smem_rotate<<<rblocks, 512, words * 4>>>(din, dout, words);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int b = 0; b < rblocks; ++b)
        for (int k = 0; k < words; ++k) bad += out[b * words + k] != in[b * words + (k + 1000) % words];
    check_equal("56 KiB dynamic shared memory", bad);
    CUDA_CHECK(cudaFree(dxd));
    CUDA_CHECK(cudaFree(doutd));
    CUDA_CHECK(cudaFree(dsumsd));
    CUDA_CHECK(cudaFree(dxi));
    CUDA_CHECK(cudaFree(douti));
    CUDA_CHECK(cudaFree(dsumsi));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dmeans));
    CUDA_CHECK(cudaFree(dcounts));
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dout));
    return finish("dynamic_shared");
}
