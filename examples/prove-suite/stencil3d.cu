// stencil3d.cu - 7-point 3D Laplacian, the "2.5D" way finite-difference codes
// write it: each thread walks z through the volume, keeping the column below,
// at and above in registers and the current xy-plane in shared memory.
#include "check.cuh"

#include <vector>

constexpr int TX = 16, TY = 16;

__global__ void laplacian7(const float *__restrict__ u, float *__restrict__ out, int nx, int ny, int nz, float inv_h2) {
    __shared__ float plane[TY + 2][TX + 2];
    const int x = blockIdx.x * TX + threadIdx.x;
    const int y = blockIdx.y * TY + threadIdx.y;
    const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    const bool inside = x < nx && y < ny;
    const size_t stride = static_cast<size_t>(nx) * ny;
    auto idx = [&](int xx, int yy, int zz) { return static_cast<size_t>(zz) * stride + static_cast<size_t>(yy) * nx + xx; };
    float below = 0.0f, current = inside ? u[idx(x, y, 0)] : 0.0f;
    float above = (inside && nz > 1) ? u[idx(x, y, 1)] : 0.0f;
    for (int z = 0; z < nz; ++z) {
        __syncthreads();
        if (inside) {
            plane[ly][lx] = current;
            if (threadIdx.x == 0) plane[ly][0] = x > 0 ? u[idx(x - 1, y, z)] : 0.0f;
            if (threadIdx.x == TX - 1 || x == nx - 1) plane[ly][lx + 1] = x + 1 < nx ? u[idx(x + 1, y, z)] : 0.0f;
            if (threadIdx.y == 0) plane[0][lx] = y > 0 ? u[idx(x, y - 1, z)] : 0.0f;
            if (threadIdx.y == TY - 1 || y == ny - 1) plane[ly + 1][lx] = y + 1 < ny ? u[idx(x, y + 1, z)] : 0.0f;
        }
        __syncthreads();
        if (inside) {
            // zero (Dirichlet) values outside the volume
            const float lap = plane[ly][lx - 1] + plane[ly][lx + 1] + plane[ly - 1][lx] + plane[ly + 1][lx] +
                              below + above - 6.0f * current;
            out[idx(x, y, z)] = lap * inv_h2;
        }
        below = current;
        current = above;
        above = (inside && z + 2 < nz) ? u[idx(x, y, z + 2)] : 0.0f;
    }
}

int main(int argc, char **argv) {
    const int nx = 97, ny = 64, nz = 50;
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 29)));
    const size_t n = static_cast<size_t>(nx) * ny * nz;
    const float h = 0.5f, inv_h2 = 1.0f / (h * h);
    std::vector<float> u(n), ref(n), got(n);
    for (auto &v : u) v = rng.symmetric();
    auto at = [&](int x, int y, int z) -> float {
        if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) return 0.0f;
        return u[(static_cast<size_t>(z) * ny + y) * nx + x];
    };
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x)
                ref[(static_cast<size_t>(z) * ny + y) * nx + x] =
                    (at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) + at(x, y + 1, z) + at(x, y, z - 1) +
                     at(x, y, z + 1) - 6.0f * at(x, y, z)) * inv_h2;
    float *du, *dout;
    CUDA_CHECK(cudaMalloc(&du, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(du, u.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    laplacian7<<<dim3((nx + TX - 1) / TX, (ny + TY - 1) / TY), dim3(TX, TY)>>>(du, dout, nx, ny, nz, inv_h2);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("volume %d x %d x %d\n", nx, ny, nz);
    printf("laplacian checksum = %.3f\n", weighted_checksum(got.data(), n));
    check_close("7-point laplacian", max_abs_diff(got.data(), ref.data(), n), 1e-4);
    CUDA_CHECK(cudaFree(du));
    CUDA_CHECK(cudaFree(dout));
    return finish("stencil3d");
}
