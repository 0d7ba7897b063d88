// texture_objects.cu - bindless texture objects over linear memory (1D,
// tex1Dfetch) and over pitched 2D memory (tex2D, point sampling with clamp
// addressing and unnormalised coordinates), and a 2D linear-filtered lookup
// from a cudaArray, as image and lookup-table code uses them.
#include "check.cuh"

#include <vector>

__global__ void gather_1d(cudaTextureObject_t tex, const int *idx, float *out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, idx[i]);
}

__global__ void shift_2d(cudaTextureObject_t tex, float *out, int w, int h, int dx, int dy) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        // +0.5: the centre of a texel with unnormalised coordinates
        out[y * w + x] = tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
    }
}

__global__ void bilinear(cudaTextureObject_t tex, float *out, int w, int h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        // halfway between texel centres: the mean of four neighbours
        out[y * w + x] = tex2D<float>(tex, x + 1.0f, y + 1.0f);
    }
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 47)));
    // 1D linear
    const int n = 4096, m = 10000;
    std::vector<float> table(n);
    std::vector<int> idx(m);
    for (int i = 0; i < n; ++i) table[i] = static_cast<float>(i) * 0.25f - 100.0f;
    for (int i = 0; i < m; ++i) idx[i] = static_cast<int>(rng.next_u32() % n);
    float *d_table, *d_out1;
    int *d_idx;
    CUDA_CHECK(cudaMalloc(&d_table, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_idx, m * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out1, m * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_table, table.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_idx, idx.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_table;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex1 = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex1, &res, &td, nullptr));
    gather_1d<<<(m + 255) / 256, 256>>>(tex1, d_idx, d_out1, m);
    CUDA_CHECK_LAST();
    std::vector<float> got1(m);
    CUDA_CHECK(cudaMemcpy(got1.data(), d_out1, m * sizeof(float), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < m; ++i) bad += got1[i] != table[idx[i]];
    printf("1D gather checksum = %.2f\n", weighted_checksum(got1.data(), m));
    check_equal("tex1Dfetch gather", bad);

    // 2D pitched, point sampling, clamp
    const int w = 300, h = 200, dx = 7, dy = -5;
    std::vector<float> img(w * h);
    for (auto &v : img) v = static_cast<float>(rng.next_u32() % 256);
    float *d_img, *d_out2;
    size_t pitch = 0;
    CUDA_CHECK(cudaMallocPitch(&d_img, &pitch, w * sizeof(float), h));
    CUDA_CHECK(cudaMemcpy2D(d_img, pitch, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMalloc(&d_out2, w * h * sizeof(float)));
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = d_img;
    res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    res.res.pitch2D.width = w;
    res.res.pitch2D.height = h;
    res.res.pitch2D.pitchInBytes = pitch;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex2 = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex2, &res, &td, nullptr));
    const dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    shift_2d<<<grid, block>>>(tex2, d_out2, w, h, dx, dy);
    CUDA_CHECK_LAST();
    std::vector<float> got2(w * h);
    CUDA_CHECK(cudaMemcpy(got2.data(), d_out2, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int sx = std::min(std::max(x + dx, 0), w - 1), sy = std::min(std::max(y + dy, 0), h - 1);
            bad += got2[y * w + x] != img[sy * w + sx];
        }
    printf("2D shift checksum = %.1f\n", weighted_checksum(got2.data(), got2.size()));
    check_equal("tex2D pitched clamp", bad);

    // cudaArray with linear filtering: values chosen so that the 8-bit
    // fixed-point filter weights at 0.5 are exact
    cudaArray_t array;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    CUDA_CHECK(cudaMallocArray(&array, &desc, w, h));
    CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex3 = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex3, &res, &td, nullptr));
    bilinear<<<grid, block>>>(tex3, d_out2, w, h);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(got2.data(), d_out2, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0.0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int x1 = std::min(x + 1, w - 1), y1 = std::min(y + 1, h - 1);
            const double expect = 0.25 * (img[y * w + x] + img[y * w + x1] + img[y1 * w + x] + img[y1 * w + x1]);
            err = std::max(err, fabs(got2[y * w + x] - expect));
        }
    printf("bilinear checksum = %.1f\n", weighted_checksum(got2.data(), got2.size()));
    check_close("tex2D linear filter", err, 1e-3);
    CUDA_CHECK(cudaDestroyTextureObject(tex1));
    CUDA_CHECK(cudaDestroyTextureObject(tex2));
    CUDA_CHECK(cudaDestroyTextureObject(tex3));
    CUDA_CHECK(cudaFreeArray(array));
    CUDA_CHECK(cudaFree(d_table));
    CUDA_CHECK(cudaFree(d_idx));
    CUDA_CHECK(cudaFree(d_out1));
    CUDA_CHECK(cudaFree(d_img));
    CUDA_CHECK(cudaFree(d_out2));
    return finish("texture_objects");
}
