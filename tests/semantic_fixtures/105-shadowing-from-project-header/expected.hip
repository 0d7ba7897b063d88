#include <hip/hip_runtime.h>
#include "host_alloc.h"

// The declarations are in a project header; only the compiler sees that
// these calls resolve to them (one argument), not to CUDA's.
using namespace hostmem;

int main()
{
    void* scratch = cudaMallocHost(1024);
    float* pinned = nullptr;
    hipHostMalloc(&pinned, 1024);
    hipHostFree(pinned);
    cudaFreeHost(scratch, 1024);
    return 0;
}
