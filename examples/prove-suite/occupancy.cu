// occupancy.cu - launch configuration from the occupancy API, as libraries
// size their grids: cudaOccupancyMaxPotentialBlockSize (with and without a
// dynamic shared-memory size function), cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// cudaFuncGetAttributes, then a grid-stride kernel launched with the result.
// Only platform-independent facts are printed; the numbers go to "info:" lines.
#include "check.cuh"

#include <vector>

__global__ void saxpy_grid_stride(int n, float a, const float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

__global__ void smem_hungry(float *out, int n) {
    extern __shared__ float buf[];
    buf[threadIdx.x] = static_cast<float>(threadIdx.x);
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

static size_t smem_for_block(int block_size) { return block_size * sizeof(float); }

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 1 << 20));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 67)));
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));

    int min_grid = 0, block = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, saxpy_grid_stride, 0, 0));
    int active = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, saxpy_grid_stride, block, 0));
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, saxpy_grid_stride));
    printf("info: block = %d min_grid = %d active/SM = %d regs = %d\n", block, min_grid, active, attr.numRegs);
    check_true("block size is a positive multiple of 32 within limits",
               block > 0 && block % 32 == 0 && block <= prop.maxThreadsPerBlock && block <= attr.maxThreadsPerBlock);
    check_true("at least one block per multiprocessor", active >= 1 && min_grid >= prop.multiProcessorCount);

    std::vector<float> x(n), y(n), ref(n);
    for (int i = 0; i < n; ++i) {
        x[i] = rng.symmetric();
        y[i] = rng.symmetric();
        ref[i] = 2.5f * x[i] + y[i];
    }
    float *dx, *dy;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const int grid = active * prop.multiProcessorCount;
    saxpy_grid_stride<<<grid, block>>>(n, 2.5f, dx, dy);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("saxpy checksum = %.4f\n", weighted_checksum(y.data(), n));
    check_close("saxpy with occupancy-sized grid", max_abs_diff(y.data(), ref.data(), n), 1e-6);

    int min_grid2 = 0, block2 = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid2, &block2, smem_hungry, smem_for_block, 0));
    printf("info: variable smem block = %d\n", block2);
    check_true("variable-smem block size valid", block2 > 0 && block2 <= prop.maxThreadsPerBlock);
    float *dout;
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
    smem_hungry<<<(n + block2 - 1) / block2, block2, smem_for_block(block2)>>>(dout, n);
    CUDA_CHECK_LAST();
    std::vector<float> out(n);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += out[i] != static_cast<float>(block2 - 1 - i % block2);
    check_equal("smem_hungry", bad);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dout));
    return finish("occupancy");
}
