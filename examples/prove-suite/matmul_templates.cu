// matmul_templates.cu - one templated tiled matrix multiply instantiated for
// float, double and int, with the tile size a template parameter and a
// functor epilogue (bias + ReLU), the way header-only libraries write it.
#include "check.cuh"

#include <type_traits>
#include <vector>

template <typename T>
struct BiasRelu {
    const T *bias;
    __host__ __device__ T operator()(T acc, int col) const {
        const T v = acc + bias[col];
        return v > T(0) ? v : T(0);
    }
};

template <typename T>
struct Identity {
    __host__ __device__ T operator()(T acc, int) const { return acc; }
};

template <typename T, int BLOCK, typename Epilogue>
__global__ void matmul(const T *A, const T *B, T *C, int M, int N, int K, Epilogue epilogue) {
    __shared__ T sA[BLOCK][BLOCK];
    __shared__ T sB[BLOCK][BLOCK];
    const int row = blockIdx.y * BLOCK + threadIdx.y;
    const int col = blockIdx.x * BLOCK + threadIdx.x;
    T acc = T(0);
    for (int k0 = 0; k0 < K; k0 += BLOCK) {
        sA[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : T(0);
        sB[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK; ++k) acc += sA[threadIdx.y][k] * sB[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = epilogue(acc, col);
}

template <typename T, int BLOCK, typename Epilogue>
void launch_matmul(const T *A, const T *B, T *C, int M, int N, int K, Epilogue e) {
    dim3 block(BLOCK, BLOCK);
    dim3 grid((N + BLOCK - 1) / BLOCK, (M + BLOCK - 1) / BLOCK);
    matmul<T, BLOCK, Epilogue><<<grid, block>>>(A, B, C, M, N, K, e);
    CUDA_CHECK_LAST();
}

template <typename T, int BLOCK>
bool run_case(const char *name, HostRng &rng, int M, int N, int K, bool with_bias, double tol) {
    std::vector<T> A(M * K), B(K * N), bias(N), C(M * N), ref(M * N);
    for (auto &v : A) v = static_cast<T>(static_cast<int>(rng.next_u32() % 17) - 8) / T(4);
    for (auto &v : B) v = static_cast<T>(static_cast<int>(rng.next_u32() % 17) - 8) / T(2);
    for (auto &v : bias) v = static_cast<T>(static_cast<int>(rng.next_u32() % 9) - 4);
    if (std::is_integral<T>::value) {
        for (auto &v : A) v = static_cast<T>(rng.next_u32() % 11) - T(5);
        for (auto &v : B) v = static_cast<T>(rng.next_u32() % 11) - T(5);
    }
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            T s = T(0);
            for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
            if (with_bias) {
                s += bias[j];
                s = s > T(0) ? s : T(0);
            }
            ref[i * N + j] = s;
        }
    T *dA, *dB, *dC, *dBias;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dBias, bias.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dBias, bias.data(), bias.size() * sizeof(T), cudaMemcpyHostToDevice));
    if (with_bias) {
        launch_matmul<T, BLOCK>(dA, dB, dC, M, N, K, BiasRelu<T>{dBias});
    } else {
        launch_matmul<T, BLOCK>(dA, dB, dC, M, N, K, Identity<T>{});
    }
    CUDA_CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(T), cudaMemcpyDeviceToHost));
    printf("%s (%dx%dx%d, tile %d): checksum = %.3f\n", name, M, N, K, BLOCK, weighted_checksum(C.data(), C.size()));
    const bool ok = check_close(name, max_abs_diff(C.data(), ref.data(), C.size()), tol);
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dBias));
    return ok;
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 17)));
    // values are small multiples of powers of two: float results are exact
    run_case<float, 16>("float", rng, 129, 200, 77, false, 0.0);
    run_case<float, 32>("float bias+relu", rng, 96, 130, 250, true, 0.0);
    run_case<double, 16>("double bias+relu", rng, 150, 61, 300, true, 0.0);
    run_case<int, 8>("int", rng, 64, 99, 45, false, 0.0);
    return finish("matmul_templates");
}
