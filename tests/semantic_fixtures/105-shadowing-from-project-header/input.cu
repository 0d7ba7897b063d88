#include <cuda_runtime.h>
#include "host_alloc.h"

// The declarations are in a project header; only the compiler sees that
// these calls resolve to them (one argument), not to CUDA's.
using namespace hostmem;

int main()
{
    void* scratch = cudaMallocHost(1024);
    float* pinned = nullptr;
    cudaMallocHost(&pinned, 1024);
    cudaFreeHost(pinned);
    cudaFreeHost(scratch, 1024);
    return 0;
}
