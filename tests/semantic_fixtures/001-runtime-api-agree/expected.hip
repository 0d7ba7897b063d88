#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
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
    hipStream_t stream;
    hipEvent_t start, stop;
    hipStreamCreate(&stream);
    hipEventCreate(&start);
    hipEventCreate(&stop);
    hipMalloc(&d_in, n * sizeof(float));
    hipMalloc(&d_out, n * sizeof(float));
    float factors[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    hipMemcpyToSymbol(HIP_SYMBOL(c_scale), factors, sizeof(factors));
    hipMemcpyAsync(d_in, host, n * sizeof(float), hipMemcpyHostToDevice, stream);
    hipEventRecord(start, stream);
    scale<<<(n + 255) / 256, 256, 0, stream>>>(d_out, d_in, n);
    hipEventRecord(stop, stream);
    hipEventSynchronize(stop);
    float ms = 0.0f;
    hipEventElapsedTime(&ms, start, stop);
    hipblasHandle_t handle;
    hipblasCreate(&handle);
    float total = 0.0f;
    hipblasSasum(handle, n, d_out, 1, &total);
    hipblasDestroy(handle);
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) {
        std::printf("%s\n", hipGetErrorString(err));
        return 1;
    }
    hipFree(d_in);
    hipFree(d_out);
    hipStreamDestroy(stream);
    return static_cast<int>(total + ms * 0.0f);
}
