// spmv_csr.cu - sparse matrix-vector products on a CSR matrix, the two
// kernels of Bell & Garland's "Implementing Sparse Matrix-Vector
// Multiplication on Throughput-Oriented Processors": CSR-scalar (one thread
// per row) and CSR-vector (one warp per row, shuffle reduction), on a 2D
// Poisson matrix plus random off-diagonal entries; then 20 Jacobi sweeps.
#include "check.cuh"

#include <vector>

__global__ void spmv_csr_scalar(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                                const double *__restrict__ val, const double *__restrict__ x, double *__restrict__ y) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double s = 0.0;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col[k]];
        y[r] = s;
    }
}

__global__ void spmv_csr_vector(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                                const double *__restrict__ val, const double *__restrict__ x, double *__restrict__ y) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    double s = 0.0;
    for (int k = row_ptr[warp] + lane; k < row_ptr[warp + 1]; k += 32) s += val[k] * x[col[k]];
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) y[warp] = s;
}

// x_new = x + D^-1 (b - A x)
__global__ void jacobi_update(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                              const double *__restrict__ val, const double *__restrict__ b, const double *__restrict__ ax,
                              double *__restrict__ x) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double diag = 1.0;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
            if (col[k] == r) diag = val[k];
        x[r] += (b[r] - ax[r]) / diag;
    }
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 151)));
    const int g = 200, rows = g * g;
    std::vector<int> row_ptr(rows + 1, 0), col;
    std::vector<double> val;
    for (int i = 0; i < g; ++i)
        for (int j = 0; j < g; ++j) {
            const int r = i * g + j;
            std::vector<std::pair<int, double>> entries;
            entries.push_back({r, 6.0});  // strictly diagonally dominant: Jacobi converges
            if (i > 0) entries.push_back({r - g, -1.0});
            if (j > 0) entries.push_back({r - 1, -1.0});
            if (j < g - 1) entries.push_back({r + 1, -1.0});
            if (i < g - 1) entries.push_back({r + g, -1.0});
            if (rng.next_u32() % 10 == 0) {  // a few long-range couplings
                const int c = static_cast<int>(rng.next_u32() % rows);
                if (c != r && std::abs(c - r) != 1 && std::abs(c - r) != g) entries.push_back({c, -0.25});
            }
            std::sort(entries.begin(), entries.end());
            for (auto &e : entries) {
                col.push_back(e.first);
                val.push_back(e.second);
            }
            row_ptr[r + 1] = static_cast<int>(col.size());
        }
    const int nnz = static_cast<int>(col.size());
    std::vector<double> x(rows), y_ref(rows), b(rows);
    for (auto &v : x) v = rng.symmetric();
    for (auto &v : b) v = rng.symmetric();
    for (int r = 0; r < rows; ++r) {
        double s = 0;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col[k]];
        y_ref[r] = s;
    }
    int *drp, *dcol;
    double *dval, *dx, *dy, *db;
    CUDA_CHECK(cudaMalloc(&drp, (rows + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dcol, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dval, nnz * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dx, rows * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dy, rows * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&db, rows * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(drp, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dcol, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dval, val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), rows * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b.data(), rows * sizeof(double), cudaMemcpyHostToDevice));
    std::vector<double> y(rows);
    printf("rows = %d nnz = %d\n", rows, nnz);
    spmv_csr_scalar<<<(rows + 255) / 256, 256>>>(rows, drp, dcol, dval, dx, dy);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(y.data(), dy, rows * sizeof(double), cudaMemcpyDeviceToHost));
    printf("csr-scalar checksum = %.8f\n", weighted_checksum(y.data(), rows));
    check_close("csr-scalar", max_abs_diff(y.data(), y_ref.data(), rows), 1e-12);
    spmv_csr_vector<<<(rows * 32 + 255) / 256, 256>>>(rows, drp, dcol, dval, dx, dy);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(y.data(), dy, rows * sizeof(double), cudaMemcpyDeviceToHost));
    printf("csr-vector checksum = %.8f\n", weighted_checksum(y.data(), rows));
    check_close("csr-vector", max_abs_diff(y.data(), y_ref.data(), rows), 1e-12);

    // Jacobi from x = 0
    CUDA_CHECK(cudaMemset(dx, 0, rows * sizeof(double)));
    for (int it = 0; it < 20; ++it) {
        spmv_csr_vector<<<(rows * 32 + 255) / 256, 256>>>(rows, drp, dcol, dval, dx, dy);
        jacobi_update<<<(rows + 255) / 256, 256>>>(rows, drp, dcol, dval, db, dy, dx);
    }
    CUDA_CHECK_LAST();
    spmv_csr_scalar<<<(rows + 255) / 256, 256>>>(rows, drp, dcol, dval, dx, dy);
    CUDA_CHECK(cudaMemcpy(y.data(), dy, rows * sizeof(double), cudaMemcpyDeviceToHost));
    double res = 0.0, bn = 0.0;
    for (int r = 0; r < rows; ++r) {
        res += (b[r] - y[r]) * (b[r] - y[r]);
        bn += b[r] * b[r];
    }
    printf("jacobi: relative residual after 20 sweeps = %.3e\n", sqrt(res / bn));
    check_true("jacobi reduces the residual below 1e-2", sqrt(res / bn) < 1e-2);
    CUDA_CHECK(cudaFree(drp));
    CUDA_CHECK(cudaFree(dcol));
    CUDA_CHECK(cudaFree(dval));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(db));
    return finish("spmv_csr");
}
