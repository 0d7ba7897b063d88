// zero_copy_priority.cu - host memory the GPU reads and writes directly and
// stream features of real pipelines: mapped pinned memory
// (cudaHostAlloc(cudaHostAllocMapped) + cudaHostGetDevicePointer), a
// registered existing buffer (cudaHostRegister), streams with priorities
// (cudaDeviceGetStreamPriorityRange, cudaStreamCreateWithPriority),
// cudaMemsetAsync, the legacy cudaStreamAddCallback, and event ordering
// between a producer and a consumer stream.
#include "check.cuh"

#include <vector>

__global__ void produce(int *out, int n, int base) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = base + i * 3;
}

__global__ void consume(const int *in, int *host_visible, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) host_visible[i] = in[i] * 2 + 1;  // written straight into mapped host memory
}

__global__ void scale_registered(float *data, int n, float s) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= s;
}

static void CUDART_CB record_status(cudaStream_t, cudaError_t status, void *user) {
    *static_cast<int *>(user) = status == cudaSuccess ? 1 : -1;
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 179)));
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));  // before the first allocation
    int device = 0, can_map = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device));
    check_true("device can map host memory", can_map != 0);

    int least = 0, greatest = 0;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    printf("info: priority range %d .. %d\n", least, greatest);
    check_true("priority range ordered (greatest <= least)", greatest <= least);
    cudaStream_t high, low;
    CUDA_CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least));
    int prio_high = 0, prio_low = 0;
    CUDA_CHECK(cudaStreamGetPriority(high, &prio_high));
    CUDA_CHECK(cudaStreamGetPriority(low, &prio_low));
    check_true("stream priorities kept", prio_high == greatest && prio_low == least);

    const int n = 1 << 18;
    int *mapped, *mapped_dev, *dbuf;
    CUDA_CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(&mapped_dev, mapped, 0));
    CUDA_CHECK(cudaMalloc(&dbuf, n * sizeof(int)));
    CUDA_CHECK(cudaMemsetAsync(dbuf, 0xff, n * sizeof(int), low));
    cudaEvent_t produced;
    CUDA_CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));
    produce<<<(n + 255) / 256, 256, 0, low>>>(dbuf, n, 1000);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaEventRecord(produced, low));
    CUDA_CHECK(cudaStreamWaitEvent(high, produced, 0));
    consume<<<(n + 255) / 256, 256, 0, high>>>(dbuf, mapped_dev, n);
    CUDA_CHECK_LAST();
    int callback_status = 0;
    CUDA_CHECK(cudaStreamAddCallback(high, record_status, &callback_status, 0));
    CUDA_CHECK(cudaStreamSynchronize(high));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += mapped[i] != (1000 + i * 3) * 2 + 1;
    printf("mapped[0] = %d mapped[n-1] = %d\n", mapped[0], mapped[n - 1]);
    printf("callback status = %d\n", callback_status);
    check_equal("zero-copy writes through the mapped pointer", bad);
    check_true("stream callback ran after the kernel", callback_status == 1);

    // an ordinary host buffer, registered (pinned) in place
    std::vector<float> buf(n);
    for (auto &v : buf) v = static_cast<float>(rng.next_u32() % 1000) / 4.0f;
    const std::vector<float> orig = buf;
    CUDA_CHECK(cudaHostRegister(buf.data(), n * sizeof(float), cudaHostRegisterMapped));
    float *buf_dev = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(&buf_dev, buf.data(), 0));
    scale_registered<<<(n + 255) / 256, 256, 0, low>>>(buf_dev, n, 0.5f);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaStreamSynchronize(low));
    double err = 0.0;
    for (int i = 0; i < n; ++i) err = std::max(err, static_cast<double>(fabsf(buf[i] - 0.5f * orig[i])));
    printf("registered checksum = %.2f\n", weighted_checksum(buf.data(), n));
    check_close("kernel on registered host memory", err, 0.0);
    CUDA_CHECK(cudaHostUnregister(buf.data()));
    CUDA_CHECK(cudaEventDestroy(produced));
    CUDA_CHECK(cudaStreamDestroy(high));
    CUDA_CHECK(cudaStreamDestroy(low));
    CUDA_CHECK(cudaFreeHost(mapped));
    CUDA_CHECK(cudaFree(dbuf));
    return finish("zero_copy_priority");
}
