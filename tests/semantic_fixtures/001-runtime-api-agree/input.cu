#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cstdio>

// Plain CUDA: both engines give the same translation.
__constant__ float c_scale[4];

__global__ void scale(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * c_scale[i % 4];
}

int run(const float* host, int n)
{
    float* d_in = nullptr;
    float* d_out = nullptr;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaStreamCreate(&stream);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    float factors[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    cudaMemcpyToSymbol(c_scale, factors, sizeof(factors));
    cudaMemcpyAsync(d_in, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
    cudaEventRecord(start, stream);
    scale<<<(n + 255) / 256, 256, 0, stream>>>(d_out, d_in, n);
    cudaEventRecord(stop, stream);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    cublasHandle_t handle;
    cublasCreate(&handle);
    float total = 0.0f;
    cublasSasum(handle, n, d_out, 1, &total);
    cublasDestroy(handle);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        std::printf("%s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaStreamDestroy(stream);
    return static_cast<int>(total + ms * 0.0f);
}
