#include <cuda_runtime.h>
#include <cstdio>

// Project macros that hide CUDA calls: both engines translate the
// definitions; the clang engine also reports each use and each definition.
#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t status_ = (call);                                        \
        if (status_ != cudaSuccess) {                                        \
            std::fprintf(stderr, "%s\n", cudaGetErrorString(status_));       \
        }                                                                    \
    } while (0)
#define DEVICE_ALLOC(ptr, bytes) cudaMalloc(reinterpret_cast<void**>(&(ptr)), (bytes))
#define SYNC_ALL() cudaDeviceSynchronize()
#define RESET_DEVICE() SYNC_ALL()

__global__ void fill(int* out, int value) { out[threadIdx.x] = value; }

int main()
{
    int* data = nullptr;
    CUDA_CHECK(DEVICE_ALLOC(data, 64 * sizeof(int)));
    fill<<<1, 64>>>(data, 7);
    CUDA_CHECK(SYNC_ALL());
    RESET_DEVICE();
    CUDA_CHECK(cudaFree(data));
    return 0;
}
