// cusolver_getrf.cu - solving a small dense linear system with cuSOLVER's
// dense API, as scientific codes do: LU factorisation with partial pivoting
// (cusolverDnDgetrf with its workspace query) and the solve (cusolverDnDgetrs)
// for several right-hand sides, devInfo checked; then a Cholesky
// factorisation and solve (cusolverDnDpotrf / cusolverDnDpotrs) of an SPD
// system built from the same matrix.
#include "check.cuh"

#include <cusolverDn.h>
#include <vector>

#define CUSOLVER_CHECK(call)                                                                 \
    do {                                                                                     \
        cusolverStatus_t s_ = (call);                                                        \
        if (s_ != CUSOLVER_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: cuSOLVER status %d\n", __FILE__, __LINE__, (int)s_);     \
            exit(EXIT_FAILURE);                                                              \
        }                                                                                    \
    } while (0)

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 167)));
    const int n = 64, nrhs = 3;
    std::vector<double> A(n * n), X(n * nrhs), B(n * nrhs, 0.0);  // column-major
    for (auto &v : A) v = rng.symmetric();
    for (int i = 0; i < n; ++i) A[i + i * n] += 2.0;  // well conditioned, pivoting still exercised
    for (auto &v : X) v = rng.symmetric();
    for (int j = 0; j < nrhs; ++j)
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) B[i + j * n] += A[i + k * n] * X[k + j * n];

    cusolverDnHandle_t handle;
    CUSOLVER_CHECK(cusolverDnCreate(&handle));
    double *dA, *dB, *work;
    int *dpiv, *dinfo;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dpiv, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dinfo, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(double), cudaMemcpyHostToDevice));
    int lwork = 0;
    CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(handle, n, n, dA, n, &lwork));
    CUDA_CHECK(cudaMalloc(&work, std::max(lwork, 1) * sizeof(double)));
    CUSOLVER_CHECK(cusolverDnDgetrf(handle, n, n, dA, n, work, dpiv, dinfo));
    int info = -1;
    CUDA_CHECK(cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
    printf("getrf info = %d\n", info);
    check_equal("getrf succeeded", info != 0);
    CUSOLVER_CHECK(cusolverDnDgetrs(handle, CUBLAS_OP_N, n, nrhs, dA, n, dpiv, dB, n, dinfo));
    CUDA_CHECK(cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<double> sol(n * nrhs);
    std::vector<int> piv(n);
    CUDA_CHECK(cudaMemcpy(sol.data(), dB, sol.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(piv.data(), dpiv, n * sizeof(int), cudaMemcpyDeviceToHost));
    // the pivots are LAPACK's: 1-based rows, each >= its own index
    long long bad_piv = 0;
    for (int i = 0; i < n; ++i) bad_piv += piv[i] < i + 1 || piv[i] > n;
    printf("getrs info = %d, x[0] = %.10f x[n-1] = %.10f\n", info, sol[0], sol[n * nrhs - 1]);
    check_equal("pivots in LAPACK convention", bad_piv);
    check_close("LU solve", max_abs_diff(sol.data(), X.data(), sol.size()), 1e-10);

    // SPD system: S = A^T A + n I
    std::vector<double> S(n * n, 0.0), Bs(n, 0.0), xs(n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < n; ++k) S[i + j * n] += A[k + i * n] * A[k + j * n];
            if (i == j) S[i + j * n] += n;
        }
    for (auto &v : xs) v = rng.symmetric();
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) Bs[i] += S[i + k * n] * xs[k];
    CUDA_CHECK(cudaMemcpy(dA, S.data(), S.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, Bs.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    int lwork2 = 0;
    CUSOLVER_CHECK(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, dA, n, &lwork2));
    double *work2;
    CUDA_CHECK(cudaMalloc(&work2, std::max(lwork2, 1) * sizeof(double)));
    CUSOLVER_CHECK(cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, dA, n, work2, lwork2, dinfo));
    CUDA_CHECK(cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
    check_equal("potrf succeeded", info != 0);
    CUSOLVER_CHECK(cusolverDnDpotrs(handle, CUBLAS_FILL_MODE_LOWER, n, 1, dA, n, dB, n, dinfo));
    std::vector<double> solc(n);
    CUDA_CHECK(cudaMemcpy(solc.data(), dB, n * sizeof(double), cudaMemcpyDeviceToHost));
    printf("potrs x[0] = %.10f\n", solc[0]);
    check_close("Cholesky solve", max_abs_diff(solc.data(), xs.data(), n), 1e-10);
    CUSOLVER_CHECK(cusolverDnDestroy(handle));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(work));
    CUDA_CHECK(cudaFree(work2));
    CUDA_CHECK(cudaFree(dpiv));
    CUDA_CHECK(cudaFree(dinfo));
    return finish("cusolver_getrf");
}
