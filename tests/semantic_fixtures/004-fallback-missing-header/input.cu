#include <cuda_runtime.h>
#include "generated/config.h"

// The build generates config.h; without the build's -I the file does not
// compile, so the clang engine falls back to the default engine (HPY701).
int main()
{
    void* p = nullptr;
    cudaMalloc(&p, CONFIG_BYTES);
    cudaFree(p);
    return 0;
}
