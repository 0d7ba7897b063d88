// stencil2d.cu - Jacobi iterations of the 2D heat equation (5-point
// stencil) with a shared-memory tile plus halo, ping-pong buffers and fixed
// boundary values; checked against the same iterations on the CPU.
#include "check.cuh"

#include <vector>

constexpr int BX = 32, BY = 8;

__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, float c) {
    __shared__ float tile[BY + 2][BX + 2];
    const int gx = blockIdx.x * BX + threadIdx.x;
    const int gy = blockIdx.y * BY + threadIdx.y;
    const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    auto at = [&](int x, int y) { return in[y * nx + x]; };
    if (gx < nx && gy < ny) {
        tile[ly][lx] = at(gx, gy);
        if (threadIdx.x == 0 && gx > 0) tile[ly][0] = at(gx - 1, gy);
        if (threadIdx.x == BX - 1 && gx < nx - 1) tile[ly][BX + 1] = at(gx + 1, gy);
        if (threadIdx.y == 0 && gy > 0) tile[0][lx] = at(gx, gy - 1);
        if (threadIdx.y == BY - 1 && gy < ny - 1) tile[BY + 1][lx] = at(gx, gy + 1);
    }
    __syncthreads();
    if (gx <= 0 || gy <= 0 || gx >= nx - 1 || gy >= ny - 1) {
        if (gx < nx && gy < ny) out[gy * nx + gx] = at(gx, gy);  // boundary stays fixed
        return;
    }
    const float west = tile[ly][lx - 1];
    const float east = tile[ly][lx + 1];
    const float north = tile[ly - 1][lx];
    const float south = tile[ly + 1][lx];
    const float center = tile[ly][lx];
    out[gy * nx + gx] = center + c * (west + east + north + south - 4.0f * center);
}

int main(int argc, char **argv) {
    const int nx = 515, ny = 389;
    const int iters = static_cast<int>(arg_int(argc, argv, "--iters", 200));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 23)));
    const float c = 0.2f;
    std::vector<float> h(nx * ny), a, b(nx * ny);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
            h[y * nx + x] = edge ? (x == 0 ? 100.0f : 0.0f) : rng.uniform();
        }
    a = h;
    b = h;
    for (int it = 0; it < iters; ++it) {
        for (int y = 1; y < ny - 1; ++y)
            for (int x = 1; x < nx - 1; ++x) {
                const float ctr = a[y * nx + x];
                b[y * nx + x] = ctr + c * (a[y * nx + x - 1] + a[y * nx + x + 1] + a[(y - 1) * nx + x] +
                                           a[(y + 1) * nx + x] - 4.0f * ctr);
            }
        std::swap(a, b);
    }
    float *d0, *d1;
    CUDA_CHECK(cudaMalloc(&d0, h.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d1, h.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d0, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d1, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 block(BX, BY), grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
    for (int it = 0; it < iters; ++it) {
        jacobi_step<<<grid, block>>>(d0, d1, nx, ny, c);
        CUDA_CHECK_LAST();
        std::swap(d0, d1);
    }
    std::vector<float> got(h.size());
    CUDA_CHECK(cudaMemcpy(got.data(), d0, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double total = 0.0;
    for (float v : got) total += v;
    printf("grid %d x %d, %d iterations\n", nx, ny, iters);
    printf("heat total = %.3f\n", total);
    printf("probe (5,5) = %.4f (100,200) = %.4f\n", got[5 * nx + 5], got[200 * nx + 100]);
    check_close("jacobi vs cpu", max_abs_diff(got.data(), a.data(), got.size()), 1e-3);
    CUDA_CHECK(cudaFree(d0));
    CUDA_CHECK(cudaFree(d1));
    return finish("stencil2d");
}
