// memcpy_pitch_graph.cu - 2D pitched allocations and copies
// (cudaMallocPitch, cudaMemcpy2D, cudaMemset2D, cudaMemcpy2DAsync between
// sub-rectangles), then the same small pipeline captured once into a CUDA
// graph (cudaStreamBeginCapture / cudaStreamEndCapture /
// cudaGraphInstantiate) and replayed many times, as inference servers do.
#include "check.cuh"

#include <vector>

__global__ void add_row_index(float *img, size_t pitch, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = reinterpret_cast<float *>(reinterpret_cast<char *>(img) + y * pitch);
        row[x] += static_cast<float>(y);
    }
}

__global__ void axpy_step(float *y, const float *x, float a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void decay_step(float *y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= 0.5f;
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 83)));
    const int w = 333, h = 111;
    std::vector<float> img(w * h), got(w * h);
    for (auto &v : img) v = static_cast<float>(rng.next_u32() % 100);
    float *d_img, *d_copy;
    size_t pitch = 0, pitch2 = 0;
    CUDA_CHECK(cudaMallocPitch(&d_img, &pitch, w * sizeof(float), h));
    CUDA_CHECK(cudaMallocPitch(&d_copy, &pitch2, w * sizeof(float), h));
    check_true("pitch covers a row", pitch >= w * sizeof(float) && pitch2 >= w * sizeof(float));
    CUDA_CHECK(cudaMemset2D(d_copy, pitch2, 0, w * sizeof(float), h));
    CUDA_CHECK(cudaMemcpy2D(d_img, pitch, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    add_row_index<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(d_img, pitch, w, h);
    CUDA_CHECK_LAST();
    // copy the sub-rectangle [10, 10 + 100) x [5, 5 + 50) to the origin of the second image
    const int sx = 10, sy = 5, cw = 100, ch = 50;
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaMemcpy2DAsync(d_copy, pitch2, reinterpret_cast<char *>(d_img) + sy * pitch + sx * sizeof(float), pitch,
                                 cw * sizeof(float), ch, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy2D(got.data(), w * sizeof(float), d_copy, pitch2, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const float expect = (x < cw && y < ch) ? img[(y + sy) * w + x + sx] + static_cast<float>(y + sy) : 0.0f;
            bad += got[y * w + x] != expect;
        }
    printf("sub-rectangle checksum = %.1f\n", weighted_checksum(got.data(), got.size()));
    check_equal("pitched 2D copies", bad);

    // graph capture and replay
    const int n = 1 << 16, replays = 50;
    std::vector<float> x(n), y(n), ref(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(rng.next_u32() % 64) / 8.0f;
        y[i] = static_cast<float>(rng.next_u32() % 64) / 8.0f;
        ref[i] = y[i];
    }
    for (int r = 0; r < replays; ++r)
        for (int i = 0; i < n; ++i) ref[i] = 0.5f * (2.0f * x[i] + ref[i]);
    float *dx, *dy;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    axpy_step<<<(n + 255) / 256, 256, 0, stream>>>(dy, dx, 2.0f, n);
    decay_step<<<(n + 255) / 256, 256, 0, stream>>>(dy, n);
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    size_t nodes = 0;
    CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));  // the CUDA 12 signature (flags)
    for (int r = 0; r < replays; ++r) CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("graph nodes = %zu replays = %d\n", nodes, replays);
    printf("graph result checksum = %.5f\n", weighted_checksum(y.data(), n));
    check_equal("two kernel nodes captured", nodes != 2);
    check_close("graph replays", max_abs_diff(y.data(), ref.data(), n), 1e-5);
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_img));
    CUDA_CHECK(cudaFree(d_copy));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    return finish("memcpy_pitch_graph");
}
