// streams_events.cu - the overlap pattern of real pipelines: pinned host
// buffers, the work split into chunks over several non-blocking streams
// (H2D copy, kernel, D2H copy per chunk), events for ordering between streams
// (cudaStreamWaitEvent), a host callback (cudaLaunchHostFunc), event timing
// (printed on an "elapsed" line that smoke.toml ignores), and stream queries.
#include "check.cuh"

#include <vector>

constexpr int kStreams = 4;

__global__ void scale_shift(const float *in, float *out, int n, float a, float b) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        for (int k = 0; k < 16; ++k) v = a * v + b;  // some work per element
        out[i] = v;
    }
}

__global__ void combine(const float *x, float *y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] + 0.5f * x[i];
}

static void CUDART_CB on_chunk_done(void *user) {
    int *counter = static_cast<int *>(user);
    ++*counter;  // host callbacks of one stream run in order
}

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 1 << 22));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 37)));
    const int chunk = n / kStreams;
    float *h_in, *h_out;
    CUDA_CHECK(cudaMallocHost(&h_in, n * sizeof(float)));
    CUDA_CHECK(cudaHostAlloc(&h_out, n * sizeof(float), cudaHostAllocDefault));
    for (int i = 0; i < n; ++i) h_in[i] = rng.symmetric();

    float *d_in, *d_out, *d_extra;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_extra, chunk * sizeof(float)));
    cudaStream_t streams[kStreams];
    cudaEvent_t done[kStreams];
    for (int s = 0; s < kStreams; ++s) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
    }
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    int callbacks = 0;

    CUDA_CHECK(cudaEventRecord(start, streams[0]));
    for (int s = 0; s < kStreams; ++s) {
        const int off = s * chunk;
        CUDA_CHECK(cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        scale_shift<<<64, 256, 0, streams[s]>>>(d_in + off, d_out + off, chunk, 0.9f, 0.01f);
        CUDA_CHECK_LAST();
        CUDA_CHECK(cudaEventRecord(done[s], streams[s]));
    }
    // stream 0 combines chunk 3 into chunk 0: must wait for stream 3's kernel
    CUDA_CHECK(cudaStreamWaitEvent(streams[0], done[kStreams - 1], 0));
    combine<<<(chunk + 255) / 256, 256, 0, streams[0]>>>(d_out + (kStreams - 1) * chunk, d_out, chunk);
    CUDA_CHECK_LAST();
    for (int s = 0; s < kStreams; ++s) {
        const int off = s * chunk;
        if (s == kStreams - 1) CUDA_CHECK(cudaStreamWaitEvent(streams[s], done[0], 0));
        CUDA_CHECK(cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
    }
    CUDA_CHECK(cudaLaunchHostFunc(streams[0], on_chunk_done, &callbacks));
    CUDA_CHECK(cudaLaunchHostFunc(streams[0], on_chunk_done, &callbacks));
    CUDA_CHECK(cudaEventRecord(stop, streams[0]));
    for (int s = 0; s < kStreams; ++s) CUDA_CHECK(cudaStreamSynchronize(streams[s]));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    const bool idle = cudaStreamQuery(streams[1]) == cudaSuccess && cudaEventQuery(done[1]) == cudaSuccess;

    std::vector<float> ref(n);
    for (int i = 0; i < n; ++i) {
        float v = h_in[i];
        for (int k = 0; k < 16; ++k) v = 0.9f * v + 0.01f;
        ref[i] = v;
    }
    for (int i = 0; i < chunk; ++i) ref[i] += 0.5f * ref[(kStreams - 1) * chunk + i];
    printf("n = %d in %d streams\n", n, kStreams);
    printf("checksum = %.4f\n", weighted_checksum(h_out, n));
    printf("host callbacks = %d\n", callbacks);
    printf("elapsed: %.3f ms\n", ms);
    check_close("chunks through streams", max_abs_diff(h_out, ref.data(), n), 1e-5);
    check_true("streams idle after synchronize", idle);
    check_true("callbacks ran", callbacks == 2);
    for (int s = 0; s < kStreams; ++s) {
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
        CUDA_CHECK(cudaEventDestroy(done[s]));
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFreeHost(h_in));
    CUDA_CHECK(cudaFreeHost(h_out));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_extra));
    return finish("streams_events");
}
