#include <cuda_runtime.h>
#include "gpu_util.h"

// Macros from a project header (found through -I include): the uses are
// reported here, with where the macros are defined and translated.
int main()
{
    float* buffer = nullptr;
    cudaMalloc(&buffer, 256);
    GPU_SYNC();
    GPU_FREE(buffer);
    return 0;
}
