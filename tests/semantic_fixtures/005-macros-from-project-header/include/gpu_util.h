#pragma once
#include <cuda_runtime.h>

#define GPU_SYNC() cudaDeviceSynchronize()
#define GPU_FREE(p) cudaFree(p)
