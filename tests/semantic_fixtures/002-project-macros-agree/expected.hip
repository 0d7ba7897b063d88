#include <hip/hip_runtime.h>
#include <cstdio>

// Project macros that hide CUDA calls: both engines translate the
// definitions; the clang engine also reports each use and each definition.
#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        hipError_t status_ = (call);                                        \
        if (status_ != hipSuccess) {                                        \
            std::fprintf(stderr, "%s\n", hipGetErrorString(status_));       \
        }                                                                    \
    } while (0)
#define DEVICE_ALLOC(ptr, bytes) hipMalloc(reinterpret_cast<void**>(&(ptr)), (bytes))
#define SYNC_ALL() hipDeviceSynchronize()
#define RESET_DEVICE() SYNC_ALL()

__global__ void fill(int* out, int value) { out[threadIdx.x] = value; }

int main()
{
    int* data = nullptr;
    CUDA_CHECK(DEVICE_ALLOC(data, 64 * sizeof(int)));
    fill<<<1, 64>>>(data, 7);
    CUDA_CHECK(SYNC_ALL());
    RESET_DEVICE();
    CUDA_CHECK(hipFree(data));
    return 0;
}
