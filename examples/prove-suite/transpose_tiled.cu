// transpose_tiled.cu - the three classic matrix transposes (naive, coalesced
// through a shared-memory tile, and the tile padded by one column against
// bank conflicts), TILE_DIM x BLOCK_ROWS threads per tile as in the CUDA
// "Efficient Matrix Transpose" write-up, on a non-square, non-multiple size.
#include "check.cuh"

#include <vector>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(float *odata, const float *idata, int rows, int cols) {
    const int x = blockIdx.x * TILE_DIM + threadIdx.x;
    const int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < cols && y + j < rows) odata[x * rows + (y + j)] = idata[(y + j) * cols + x];
    }
}

template <int PAD>
__global__ void transpose_tile(float *odata, const float *idata, int rows, int cols) {
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;  // transposed block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < rows && y + j < cols) odata[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

int main(int argc, char **argv) {
    const int rows = static_cast<int>(arg_int(argc, argv, "--rows", 1000));
    const int cols = static_cast<int>(arg_int(argc, argv, "--cols", 1537));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 7)));
    const size_t n = static_cast<size_t>(rows) * cols;
    std::vector<float> h(n), ref(n), got(n);
    for (size_t i = 0; i < n; ++i) h[i] = rng.symmetric();
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) ref[static_cast<size_t>(c) * rows + r] = h[static_cast<size_t>(r) * cols + c];

    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    const dim3 block(TILE_DIM, BLOCK_ROWS);

    printf("matrix %d x %d\n", rows, cols);
    const char *names[3] = {"naive", "shared tile", "padded tile"};
    for (int k = 0; k < 3; ++k) {
        CUDA_CHECK(cudaMemset(d_out, 0, n * sizeof(float)));
        if (k == 0) transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
        if (k == 1) transpose_tile<0><<<grid, block>>>(d_out, d_in, rows, cols);
        if (k == 2) transpose_tile<1><<<grid, block>>>(d_out, d_in, rows, cols);
        CUDA_CHECK_LAST();
        CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        printf("%s: checksum = %.6f\n", names[k], weighted_checksum(got.data(), n));
        check_close(names[k], max_abs_diff(got.data(), ref.data(), n), 0.0);
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return finish("transpose_tiled");
}
