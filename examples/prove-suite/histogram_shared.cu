// histogram_shared.cu - 256-bin byte histogram with per-block privatised
// bins in shared memory (shared atomics), merged with global atomics; then a
// 64-bin histogram of floats using dynamic shared memory sized at launch.
#include "check.cuh"

#include <vector>

constexpr int kBins = 256;

__global__ void histogram256(const unsigned char *data, size_t n, unsigned int *hist) {
    __shared__ unsigned int local[kBins];
    for (int i = threadIdx.x; i < kBins; i += blockDim.x) local[i] = 0;
    __syncthreads();
    // each thread reads 4 bytes at a time, like cuda-samples' histogram256
    const uchar4 *data4 = reinterpret_cast<const uchar4 *>(data);
    const size_t n4 = n / 4;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        const uchar4 v = data4[i];
        atomicAdd(&local[v.x], 1u);
        atomicAdd(&local[v.y], 1u);
        atomicAdd(&local[v.z], 1u);
        atomicAdd(&local[v.w], 1u);
    }
    if (blockIdx.x == 0) {
        for (size_t i = n4 * 4 + threadIdx.x; i < n; i += blockDim.x) atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kBins; i += blockDim.x) {
        if (local[i]) atomicAdd(&hist[i], local[i]);
    }
}

__global__ void histogram_float(const float *x, int n, float lo, float hi, int bins, unsigned int *hist) {
    extern __shared__ unsigned int sbins[];
    for (int i = threadIdx.x; i < bins; i += blockDim.x) sbins[i] = 0;
    __syncthreads();
    const float scale = bins / (hi - lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = static_cast<int>((x[i] - lo) * scale);
        b = min(max(b, 0), bins - 1);
        atomicAdd(&sbins[b], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < bins; i += blockDim.x) atomicAdd(&hist[i], sbins[i]);
}

int main(int argc, char **argv) {
    const size_t n = static_cast<size_t>(arg_int(argc, argv, "--n", 10000003));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 11)));
    std::vector<unsigned char> h(n);
    std::vector<unsigned int> ref(kBins, 0), got(kBins);
    for (size_t i = 0; i < n; ++i) {
        // skewed distribution: low bytes more frequent
        const unsigned int r = rng.next_u32();
        h[i] = static_cast<unsigned char>((r & 0xff) & ((r >> 8) & 0xff));
        ++ref[h[i]];
    }
    unsigned char *d_data;
    unsigned int *d_hist;
    CUDA_CHECK(cudaMalloc(&d_data, n));
    CUDA_CHECK(cudaMalloc(&d_hist, kBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_data, h.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_hist, 0, kBins * sizeof(unsigned int)));
    histogram256<<<240, 192>>>(d_data, n, d_hist);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(got.data(), d_hist, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < kBins; ++i) bad += got[i] != ref[i];
    printf("bytes = %zu\n", n);
    printf("bins[0..7] = %u %u %u %u %u %u %u %u\n", got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
    printf("bins[255] = %u\n", got[255]);
    check_equal("histogram256", bad);

    const int m = 1 << 20, fbins = 64;
    std::vector<float> xf(m);
    std::vector<unsigned int> fref(fbins, 0), fgot(fbins);
    for (int i = 0; i < m; ++i) {
        const float u = (rng.uniform() + rng.uniform() + rng.uniform()) / 3.0f;  // bell-shaped in [0, 1)
        xf[i] = u;
        int b = static_cast<int>((u - 0.0f) * (fbins / 1.0f));
        b = std::min(std::max(b, 0), fbins - 1);
        ++fref[b];
    }
    float *d_x;
    unsigned int *d_fh;
    CUDA_CHECK(cudaMalloc(&d_x, m * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_fh, fbins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_x, xf.data(), m * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_fh, 0, fbins * sizeof(unsigned int)));
    histogram_float<<<128, 256, fbins * sizeof(unsigned int)>>>(d_x, m, 0.0f, 1.0f, fbins, d_fh);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(fgot.data(), d_fh, fbins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < fbins; ++i) bad += fgot[i] != fref[i];
    printf("float bins[30..33] = %u %u %u %u\n", fgot[30], fgot[31], fgot[32], fgot[33]);
    check_equal("float histogram", bad);
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_hist));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_fh));
    return finish("histogram_shared");
}
