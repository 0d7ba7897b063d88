// cublas_gemm.cu - cuBLAS GEMM as applications call it: column-major
// SGEMM and DGEMM with transposes, the row-major trick (C^T = B^T A^T),
// strided-batched SGEMM (attention heads), and GemmEx with FP16 inputs and
// FP32 compute, with a CUBLAS_CHECK macro like ggml's and PyTorch's.
#include "check.cuh"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <vector>

#define CUBLAS_CHECK(call)                                                                    \
    do {                                                                                      \
        cublasStatus_t st_ = (call);                                                          \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                   \
            fprintf(stderr, "cuBLAS error %d at %s:%d\n", static_cast<int>(st_), __FILE__, __LINE__); \
            exit(EXIT_FAILURE);                                                               \
        }                                                                                     \
    } while (0)

// column-major reference: C = alpha op(A) op(B) + beta C
template <typename T>
static void ref_gemm(bool ta, bool tb, int m, int n, int k, T alpha, const std::vector<T> &A, int lda,
                     const std::vector<T> &B, int ldb, T beta, std::vector<T> &C, int ldc) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0.0;
            for (int p = 0; p < k; ++p) {
                const double a = ta ? A[p + i * lda] : A[i + p * lda];
                const double b = tb ? B[j + p * ldb] : B[p + j * ldb];
                s += a * b;
            }
            C[i + j * ldc] = static_cast<T>(alpha * s + beta * C[i + j * ldc]);
        }
}

template <typename T>
static T *to_device(const std::vector<T> &h) {
    T *d;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T>
static std::vector<T> to_host(const T *d, size_t n) {
    std::vector<T> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 89)));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUBLAS_CHECK(cublasSetStream(handle, stream));

    // SGEMM, C = A^T B with A k x m, B k x n (column-major)
    {
        const int m = 123, n = 77, k = 200;
        std::vector<float> A(k * m), B(k * n), C(m * n);
        for (auto &v : A) v = rng.symmetric();
        for (auto &v : B) v = rng.symmetric();
        for (auto &v : C) v = rng.symmetric();
        float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
        const float alpha = 0.75f, beta = 0.25f;
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, k, dB, k, &beta, dC, m));
        ref_gemm(true, false, m, n, k, alpha, A, k, B, k, beta, C, m);
        const std::vector<float> got = to_host(dC, C.size());
        printf("sgemm T,N checksum = %.4f\n", weighted_checksum(got.data(), got.size()));
        check_close("sgemm", max_rel_diff(got.data(), C.data(), C.size()), 1e-4);
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(dB));
        CUDA_CHECK(cudaFree(dC));
    }
    // DGEMM, N,T
    {
        const int m = 64, n = 96, k = 50;
        std::vector<double> A(m * k), B(n * k), C(m * n, 0.0);
        for (auto &v : A) v = rng.symmetric();
        for (auto &v : B) v = rng.symmetric();
        double *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
        const double alpha = 2.0, beta = 0.0;
        CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, dA, m, dB, n, &beta, dC, m));
        ref_gemm(false, true, m, n, k, alpha, A, m, B, n, beta, C, m);
        const std::vector<double> got = to_host(dC, C.size());
        printf("dgemm N,T checksum = %.8f\n", weighted_checksum(got.data(), got.size()));
        check_close("dgemm", max_rel_diff(got.data(), C.data(), C.size()), 1e-12);
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(dB));
        CUDA_CHECK(cudaFree(dC));
    }
    // row-major C[M][N] = A[M][K] B[K][N] through column-major cuBLAS: C^T = B^T A^T
    {
        const int M = 40, N = 30, K = 20;
        std::vector<float> A(M * K), B(K * N), C(M * N), ref(M * N);
        for (auto &v : A) v = rng.symmetric();
        for (auto &v : B) v = rng.symmetric();
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                double s = 0;
                for (int p = 0; p < K; ++p) s += static_cast<double>(A[i * K + p]) * B[p * N + j];
                ref[i * N + j] = static_cast<float>(s);
            }
        float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
        const float one = 1.0f, zero = 0.0f;
        CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, N, dA, K, &zero, dC, N));
        const std::vector<float> got = to_host(dC, C.size());
        check_close("row-major via column-major", max_abs_diff(got.data(), ref.data(), got.size()), 1e-5);
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(dB));
        CUDA_CHECK(cudaFree(dC));
    }
    // strided batched: 8 heads of Q K^T, each 32 x 32 x 64
    {
        const int batch = 8, m = 32, n = 32, k = 64;
        std::vector<float> Q(batch * m * k), Kt(batch * n * k), S(batch * m * n, 0.0f);
        for (auto &v : Q) v = rng.symmetric();
        for (auto &v : Kt) v = rng.symmetric();
        float *dQ = to_device(Q), *dK = to_device(Kt), *dS = to_device(S);
        const float scale = 0.125f, zero = 0.0f;
        // S_b (m x n) = Q_b (m x k) * K_b^T, K_b stored n x k column-major
        CUBLAS_CHECK(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &scale, dQ, m,
                                               static_cast<long long>(m) * k, dK, n, static_cast<long long>(n) * k,
                                               &zero, dS, m, static_cast<long long>(m) * n, batch));
        double err = 0.0;
        const std::vector<float> got = to_host(dS, S.size());
        for (int b = 0; b < batch; ++b) {
            std::vector<float> Qb(Q.begin() + b * m * k, Q.begin() + (b + 1) * m * k);
            std::vector<float> Kb(Kt.begin() + b * n * k, Kt.begin() + (b + 1) * n * k);
            std::vector<float> Sb(m * n, 0.0f);
            ref_gemm(false, true, m, n, k, scale, Qb, m, Kb, n, 0.0f, Sb, m);
            err = std::max(err, max_abs_diff(got.data() + b * m * n, Sb.data(), Sb.size()));
        }
        printf("batched checksum = %.4f\n", weighted_checksum(got.data(), got.size()));
        check_close("sgemm strided batched", err, 1e-5);
        CUDA_CHECK(cudaFree(dQ));
        CUDA_CHECK(cudaFree(dK));
        CUDA_CHECK(cudaFree(dS));
    }
    // GemmEx: FP16 inputs, FP32 output and compute
    {
        const int m = 64, n = 48, k = 128;
        std::vector<__half> A(m * k), B(k * n);
        std::vector<float> Af(m * k), Bf(k * n), C(m * n, 0.0f);
        for (int i = 0; i < m * k; ++i) {
            Af[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 33) - 16) / 16.0f;
            A[i] = __float2half(Af[i]);
        }
        for (int i = 0; i < k * n; ++i) {
            Bf[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 33) - 16) / 16.0f;
            B[i] = __float2half(Bf[i]);
        }
        __half *dA = to_device(A), *dB = to_device(B);
        float *dC = to_device(C);
        const float one = 1.0f, zero = 0.0f;
        CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, CUDA_R_16F, m, dB, CUDA_R_16F, k,
                                  &zero, dC, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        ref_gemm(false, false, m, n, k, 1.0f, Af, m, Bf, k, 0.0f, C, m);
        const std::vector<float> got = to_host(dC, C.size());
        printf("gemmex fp16 checksum = %.4f\n", weighted_checksum(got.data(), got.size()));
        check_close("gemmEx fp16 in, fp32 out", max_abs_diff(got.data(), C.data(), C.size()), 0.0);
        CUDA_CHECK(cudaFree(dA));
        CUDA_CHECK(cudaFree(dB));
        CUDA_CHECK(cudaFree(dC));
    }
    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return finish("cublas_gemm");
}
