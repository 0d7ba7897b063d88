// coop_grid_sync.cu - a cooperative launch (cudaLaunchCooperativeKernel) with
// grid-wide synchronisation (grid_group::sync), sized from the occupancy API
// so that all blocks are resident, as in cuda-samples' reductionMultiBlockCG
// and conjugateGradientMultiBlockCG: phase 1 block sums, grid sync, phase 2
// the final sum and a normalisation that needs it, all in one kernel.
#include "check.cuh"

#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

__global__ void normalise_in_one_kernel(const double *in, double *out, double *partial, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    extern __shared__ double sdata[];
    double s = 0.0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
    sdata[block.thread_rank()] = s;
    block.sync();
    for (unsigned stride = block.size() / 2; stride > 0; stride >>= 1) {
        if (block.thread_rank() < stride) sdata[block.thread_rank()] += sdata[block.thread_rank() + stride];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = sdata[0];
    grid.sync();  // every block's partial is written
    if (blockIdx.x == 0) {
        double t = 0.0;
        for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.size()) t += partial[b];
        sdata[block.thread_rank()] = t;
        block.sync();
        for (unsigned stride = block.size() / 2; stride > 0; stride >>= 1) {
            if (block.thread_rank() < stride) sdata[block.thread_rank()] += sdata[block.thread_rank() + stride];
            block.sync();
        }
        if (block.thread_rank() == 0) partial[0] = sdata[0];
    }
    grid.sync();  // the total is in partial[0]
    const double total = partial[0];
    for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = in[i] / total;
}

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 1 << 20));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 73)));
    int device = 0, supports = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, device));
    check_true("cooperative launch supported", supports != 0);
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    const int threads = 256;
    const size_t smem = threads * sizeof(double);
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalise_in_one_kernel, threads, smem));
    const int blocks = std::min(per_sm * prop.multiProcessorCount, 2 * prop.multiProcessorCount);
    std::vector<double> h(n);
    double ref_total = 0.0;
    for (auto &v : h) {
        v = static_cast<double>(rng.next_u32() % 1024) / 16.0;  // exact sums
        ref_total += v;
    }
    double *din, *dout, *dpartial;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dpartial, blocks * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    int nn = n;
    void *args[] = {&din, &dout, &dpartial, &nn};
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void *>(normalise_in_one_kernel), dim3(blocks), dim3(threads),
                                           args, smem, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> out(n);
    double total = 0.0;
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&total, dpartial, sizeof(double), cudaMemcpyDeviceToHost));
    double err = 0.0, s = 0.0;
    for (int i = 0; i < n; ++i) {
        err = std::max(err, fabs(out[i] - h[i] / ref_total));
        s += out[i];
    }
    printf("n = %d total = %.4f\n", n, total);
    printf("normalised sum = %.12f\n", s);
    check_close("grid-synchronised total", fabs(total - ref_total), 0.0);
    check_close("normalised values", err, 1e-15);
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dpartial));
    return finish("coop_grid_sync");
}
