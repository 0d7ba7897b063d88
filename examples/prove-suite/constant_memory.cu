// constant_memory.cu - a separable convolution with its filter taps in
// __constant__ memory (uploaded with cudaMemcpyToSymbol, read back with
// cudaMemcpyFromSymbol), a constant lookup table of structs, and
// cudaGetSymbolAddress / cudaGetSymbolSize, as image-processing code does.
#include "check.cuh"

#include <vector>

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__constant__ float c_kernel[KERNEL_LENGTH];

struct Affine {
    float scale;
    float offset;
};
__constant__ Affine c_affine[4];

__global__ void convolve_rows(float *dst, const float *src, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float sum = 0.0f;
#pragma unroll
    for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k) {
        const int xx = min(max(x + k, 0), w - 1);  // clamp to edge
        sum += src[y * w + xx] * c_kernel[KERNEL_RADIUS - k];
    }
    dst[y * w + x] = sum;
}

__global__ void convolve_cols(float *dst, const float *src, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float sum = 0.0f;
#pragma unroll
    for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k) {
        const int yy = min(max(y + k, 0), h - 1);
        sum += src[yy * w + x] * c_kernel[KERNEL_RADIUS - k];
    }
    const Affine a = c_affine[(x + y) & 3];
    dst[y * w + x] = a.scale * sum + a.offset;
}

int main(int argc, char **argv) {
    const int w = 640, h = 480;
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 43)));
    float taps[KERNEL_LENGTH];
    float tsum = 0.0f;
    for (int i = 0; i < KERNEL_LENGTH; ++i) {
        const float d = static_cast<float>(i - KERNEL_RADIUS);
        taps[i] = expf(-d * d / (2.0f * 4.0f * 4.0f));
        tsum += taps[i];
    }
    for (float &t : taps) t /= tsum;
    const Affine affine[4] = {{1.0f, 0.0f}, {2.0f, -1.0f}, {0.5f, 0.25f}, {-1.0f, 1.0f}};
    CUDA_CHECK(cudaMemcpyToSymbol(c_kernel, taps, sizeof(taps)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_affine, affine, sizeof(affine), 0, cudaMemcpyHostToDevice));
    float back[KERNEL_LENGTH];
    CUDA_CHECK(cudaMemcpyFromSymbol(back, c_kernel, sizeof(back)));
    size_t symbol_size = 0;
    void *symbol_addr = nullptr;
    CUDA_CHECK(cudaGetSymbolSize(&symbol_size, c_kernel));
    CUDA_CHECK(cudaGetSymbolAddress(&symbol_addr, c_affine));

    std::vector<float> img(w * h), tmp(w * h), ref(w * h), got(w * h);
    for (auto &v : img) v = rng.uniform();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float s = 0.0f;
            for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
                s += img[y * w + std::min(std::max(x + k, 0), w - 1)] * taps[KERNEL_RADIUS - k];
            tmp[y * w + x] = s;
        }
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float s = 0.0f;
            for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
                s += tmp[std::min(std::max(y + k, 0), h - 1) * w + x] * taps[KERNEL_RADIUS - k];
            const Affine a = affine[(x + y) & 3];
            ref[y * w + x] = a.scale * s + a.offset;
        }
    float *d_img, *d_tmp, *d_out;
    CUDA_CHECK(cudaMalloc(&d_img, w * h * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_tmp, w * h * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, w * h * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_img, img.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    convolve_rows<<<grid, block>>>(d_tmp, d_img, w, h);
    CUDA_CHECK_LAST();
    convolve_cols<<<grid, block>>>(d_out, d_tmp, w, h);
    CUDA_CHECK_LAST();
    // the symbol's address works as an ordinary device pointer
    Affine via_pointer[4];
    CUDA_CHECK(cudaMemcpy(via_pointer, symbol_addr, sizeof(via_pointer), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    printf("image %d x %d, %d taps\n", w, h, KERNEL_LENGTH);
    printf("symbol size = %zu bytes\n", symbol_size);
    printf("checksum = %.4f\n", weighted_checksum(got.data(), got.size()));
    check_close("taps read back", max_abs_diff(back, taps, KERNEL_LENGTH), 0.0);
    check_equal("constant struct via symbol address",
                (via_pointer[1].scale != 2.0f) + (via_pointer[3].offset != 1.0f));
    check_close("separable convolution", max_abs_diff(got.data(), ref.data(), got.size()), 1e-5);
    CUDA_CHECK(cudaFree(d_img));
    CUDA_CHECK(cudaFree(d_tmp));
    CUDA_CHECK(cudaFree(d_out));
    return finish("constant_memory");
}
