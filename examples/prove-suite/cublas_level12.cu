// cublas_level12.cu - cuBLAS level 1 and 2 as solvers use them: axpy, dot,
// nrm2, asum, scal, iamax (1-based), copy, and gemv (both transposes), with
// host and device pointer modes (cublasSetPointerMode) for the results.
#include "check.cuh"

#include <cublas_v2.h>
#include <vector>

#define CUBLAS_CHECK(call)                                                               \
    do {                                                                                 \
        cublasStatus_t s_ = (call);                                                      \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                               \
            fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s_);  \
            exit(EXIT_FAILURE);                                                          \
        }                                                                                \
    } while (0)

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 97)));
    const int n = 10000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 64) - 32) / 16.0f;
        y[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 64) - 32) / 16.0f;
    }
    x[4321] = 9.5f;  // the unique largest magnitude
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    float *dx, *dy, *dres;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dres, sizeof(float)));
    CUBLAS_CHECK(cublasSetVector(n, sizeof(float), x.data(), 1, dx, 1));
    CUBLAS_CHECK(cublasSetVector(n, sizeof(float), y.data(), 1, dy, 1));

    const float alpha = 0.5f;
    CUBLAS_CHECK(cublasSaxpy(h, n, &alpha, dx, 1, dy, 1));  // y = 0.5 x + y
    std::vector<float> y2(n);
    CUBLAS_CHECK(cublasGetVector(n, sizeof(float), dy, 1, y2.data(), 1));
    double err = 0.0;
    for (int i = 0; i < n; ++i) err = std::max(err, static_cast<double>(fabsf(y2[i] - (0.5f * x[i] + y[i]))));
    check_close("saxpy", err, 0.0);

    float dot = 0.0f, nrm = 0.0f, asum = 0.0f;
    int imax = 0;
    CUBLAS_CHECK(cublasSdot(h, n, dx, 1, dy, 1, &dot));
    CUBLAS_CHECK(cublasSnrm2(h, n, dx, 1, &nrm));
    CUBLAS_CHECK(cublasSasum(h, n, dx, 1, &asum));
    CUBLAS_CHECK(cublasIsamax(h, n, dx, 1, &imax));
    double rdot = 0, rnrm = 0, rasum = 0;
    for (int i = 0; i < n; ++i) {
        rdot += static_cast<double>(x[i]) * y2[i];
        rnrm += static_cast<double>(x[i]) * x[i];
        rasum += fabs(x[i]);
    }
    rnrm = sqrt(rnrm);
    printf("dot = %.4f nrm2 = %.4f asum = %.4f iamax = %d\n", dot, nrm, asum, imax);
    check_close("sdot", fabs(dot - rdot) / fabs(rdot), 1e-6);
    check_close("snrm2", fabs(nrm - rnrm) / rnrm, 1e-6);
    check_close("sasum", fabs(asum - rasum) / rasum, 1e-6);
    check_equal("isamax (1-based)", imax != 4322);

    // device pointer mode: the result stays on the device
    CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CUBLAS_CHECK(cublasSdot(h, n, dx, 1, dx, 1, dres));
    float dev_dot = 0.0f;
    CUDA_CHECK(cudaMemcpy(&dev_dot, dres, sizeof(float), cudaMemcpyDeviceToHost));
    CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    check_close("sdot in device pointer mode", fabs(dev_dot - rnrm * rnrm) / (rnrm * rnrm), 1e-6);

    const float s = -2.0f;
    CUBLAS_CHECK(cublasSscal(h, n, &s, dy, 1));
    CUBLAS_CHECK(cublasScopy(h, n, dy, 1, dx, 1));
    std::vector<float> x3(n);
    CUDA_CHECK(cudaMemcpy(x3.data(), dx, n * sizeof(float), cudaMemcpyDeviceToHost));
    err = 0.0;
    for (int i = 0; i < n; ++i) err = std::max(err, static_cast<double>(fabsf(x3[i] + 2.0f * y2[i])));
    check_close("sscal + scopy", err, 0.0);

    // gemv: A is m x k column-major
    const int m = 300, k = 200;
    std::vector<double> A(m * k), v(k), w(m), r1(m), r2(k);
    for (auto &a : A) a = rng.symmetric();
    for (auto &a : v) a = rng.symmetric();
    for (auto &a : w) a = rng.symmetric();
    double *dA, *dv, *dw, *dout1, *dout2;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dv, k * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dw, m * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dout1, m * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dout2, k * sizeof(double)));
    CUBLAS_CHECK(cublasSetMatrix(m, k, sizeof(double), A.data(), m, dA, m));
    CUDA_CHECK(cudaMemcpy(dv, v.data(), k * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw, w.data(), m * sizeof(double), cudaMemcpyHostToDevice));
    const double one = 1.0, zero = 0.0;
    CUBLAS_CHECK(cublasDgemv(h, CUBLAS_OP_N, m, k, &one, dA, m, dv, 1, &zero, dout1, 1));
    CUBLAS_CHECK(cublasDgemv(h, CUBLAS_OP_T, m, k, &one, dA, m, dw, 1, &zero, dout2, 1));
    std::vector<double> g1(m), g2(k);
    CUDA_CHECK(cudaMemcpy(g1.data(), dout1, m * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(g2.data(), dout2, k * sizeof(double), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; ++i) {
        r1[i] = 0;
        for (int j = 0; j < k; ++j) r1[i] += A[i + j * m] * v[j];
    }
    for (int j = 0; j < k; ++j) {
        r2[j] = 0;
        for (int i = 0; i < m; ++i) r2[j] += A[i + j * m] * w[i];
    }
    printf("dgemv N sum = %.10f T sum = %.10f\n", weighted_checksum(g1.data(), m), weighted_checksum(g2.data(), k));
    check_close("dgemv N", max_abs_diff(g1.data(), r1.data(), m), 1e-12);
    check_close("dgemv T", max_abs_diff(g2.data(), r2.data(), k), 1e-12);
    CUBLAS_CHECK(cublasDestroy(h));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dres));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dv));
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(dout1));
    CUDA_CHECK(cudaFree(dout2));
    return finish("cublas_level12");
}
