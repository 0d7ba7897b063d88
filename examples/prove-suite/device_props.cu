// device_props.cu - the device query every application starts with
// (cudaGetDeviceCount, cudaGetDeviceProperties, cudaDeviceGetAttribute,
// cudaMemGetInfo, cudaRuntimeGetVersion / cudaDriverGetVersion), printing only
// what holds on any current data-centre GPU; the raw values go to "info:"
// lines that smoke.toml ignores. A kernel then uses the limits it read.
#include "check.cuh"

__global__ void fill_block_ids(int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

int main() {
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    check_true("at least one device", count >= 1);
    int device = 0;
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    int runtime = 0, driver = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    size_t free_mem = 0, total_mem = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_mem, &total_mem));
    int sm_count = 0, max_threads = 0, warp = 0, l2 = 0, clock_khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));

    printf("info: name = %s\n", prop.name);
    printf("info: compute capability = %d.%d sms = %d warp = %d\n", prop.major, prop.minor, sm_count, warp);
    printf("info: global memory = %zu MiB free = %zu MiB l2 = %d KiB\n", prop.totalGlobalMem >> 20, free_mem >> 20, l2 >> 10);
    printf("info: runtime = %d driver = %d clock = %d kHz\n", runtime, driver, clock_khz);
    printf("maxThreadsPerBlock = %d\n", prop.maxThreadsPerBlock);
    printf("info: maxThreadsDim = %d %d %d\n", prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
    printf("maxThreadsDim x, y >= 1024: %s\n", prop.maxThreadsDim[0] >= 1024 && prop.maxThreadsDim[1] >= 1024 ? "yes" : "no");
    printf("sharedMemPerBlock >= 48 KiB: %s\n", prop.sharedMemPerBlock >= 48 * 1024 ? "yes" : "no");
    printf("totalGlobalMem >= 16 GiB: %s\n", prop.totalGlobalMem >= (16ull << 30) ? "yes" : "no");
    printf("concurrentKernels: %s\n", prop.concurrentKernels ? "yes" : "no");
    check_true("attribute and property agree",
               sm_count == prop.multiProcessorCount && max_threads == prop.maxThreadsPerBlock && warp == prop.warpSize);
    check_true("warp size is 32 or 64", warp == 32 || warp == 64);
    check_true("memory info consistent", free_mem > 0 && free_mem <= total_mem && total_mem > 0);
    check_true("versions reported", runtime > 0 && driver > 0);

    const int blocks = 2 * sm_count, threads = max_threads;
    int *d;
    CUDA_CHECK(cudaMalloc(&d, static_cast<size_t>(blocks) * threads * sizeof(int)));
    fill_block_ids<<<blocks, threads>>>(d);
    CUDA_CHECK_LAST();
    int *h = new int[static_cast<size_t>(blocks) * threads];
    CUDA_CHECK(cudaMemcpy(h, d, static_cast<size_t>(blocks) * threads * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < blocks * threads; ++i) bad += h[i] != i / threads;
    check_equal("launch at maxThreadsPerBlock", bad);
    delete[] h;
    CUDA_CHECK(cudaFree(d));
    return finish("device_props");
}
