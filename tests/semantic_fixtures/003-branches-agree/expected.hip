#include <hip/hip_runtime.h>

// #if branches: the clang engine reports the lines no side compiled with
// these flags (-DUSE_PINNED), and both engines translate every branch.
__device__ float twice(float x)
{
#ifdef __HIP_DEVICE_COMPILE__
    return __fmul_rn(x, 2.0f);
#else
    return x * 2.0f;
#endif
}

float* host_buffer(size_t bytes)
{
    float* p = nullptr;
#if defined(USE_PINNED)
    hipHostMalloc(&p, bytes);
#elif defined(USE_MANAGED)
    hipMallocManaged(&p, bytes);
#else
    p = static_cast<float*>(malloc(bytes));
#endif
    return p;
}

#if (CUDART_VERSION + !defined(__HIP_PLATFORM_NVIDIA__) * 11070) < 11000
void legacy() { hipDeviceSynchronize(); }
#endif
