// sgemm_tiled.cu - single-precision GEMM C = alpha*A*B + beta*C, row-major,
// with the two kernels most hand-written GEMMs start from: shared-memory
// tiles (TILE x TILE), and a register-blocked variant where each thread
// computes a 4x4 micro-tile from 64x64 block tiles (BK = 8).
#include "check.cuh"

#include <vector>

constexpr int TILE = 16;

__global__ void sgemm_shared(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        const int ak = t * TILE + threadIdx.x;
        const int bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_register_blocked(int M, int N, int K, float alpha, const float *__restrict__ A, const float *__restrict__ B,
                       float beta, float *__restrict__ C) {
    __shared__ float As[BK][BM];  // A tile stored transposed
    __shared__ float Bs[BK][BN];
    const int threads = (BM / TM) * (BN / TN);
    const int tid = threadIdx.x;
    const int ty = tid / (BN / TN);
    const int tx = tid % (BN / TN);
    const int block_row = blockIdx.y * BM;
    const int block_col = blockIdx.x * BN;
    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK; i += threads) {
            const int r = i / BK, c = i % BK;
            const int gr = block_row + r, gc = k0 + c;
            As[c][r] = (gr < M && gc < K) ? A[gr * K + gc] : 0.0f;
        }
        for (int i = tid; i < BK * BN; i += threads) {
            const int r = i / BN, c = i % BN;
            const int gr = k0 + r, gc = block_col + c;
            Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[k][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[k][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int r = block_row + ty * TM + i, c = block_col + tx * TN + j;
            if (r < M && c < N) C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
        }
}

int main(int argc, char **argv) {
    const int M = 300, N = 270, K = 515;
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 13)));
    const float alpha = 1.5f, beta = -0.5f;
    std::vector<float> A(M * K), B(K * N), C0(M * N), ref(M * N), got(M * N);
    for (auto &v : A) v = rng.symmetric();
    for (auto &v : B) v = rng.symmetric();
    for (auto &v : C0) v = rng.symmetric();
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double s = 0.0;
            for (int k = 0; k < K; ++k) s += static_cast<double>(A[i * K + k]) * B[k * N + j];
            ref[i * N + j] = static_cast<float>(alpha * s + beta * C0[i * N + j]);
        }
    float *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, C0.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    printf("M = %d N = %d K = %d alpha = %.2f beta = %.2f\n", M, N, K, alpha, beta);

    CUDA_CHECK(cudaMemcpy(dC, C0.data(), C0.size() * sizeof(float), cudaMemcpyHostToDevice));
    sgemm_shared<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), dim3(TILE, TILE)>>>(M, N, K, alpha, dA, dB, beta, dC);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    printf("shared tiles: checksum = %.4f\n", weighted_checksum(got.data(), got.size()));
    check_close("sgemm shared tiles", max_rel_diff(got.data(), ref.data(), got.size()), 1e-4);

    CUDA_CHECK(cudaMemcpy(dC, C0.data(), C0.size() * sizeof(float), cudaMemcpyHostToDevice));
    constexpr int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4;
    sgemm_register_blocked<BM, BN, BK, TM, TN>
        <<<dim3((N + BN - 1) / BN, (M + BM - 1) / BM), (BM / TM) * (BN / TN)>>>(M, N, K, alpha, dA, dB, beta, dC);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    printf("register blocked: checksum = %.4f\n", weighted_checksum(got.data(), got.size()));
    check_close("sgemm register blocked", max_rel_diff(got.data(), ref.data(), got.size()), 1e-4);
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    return finish("sgemm_tiled");
}
