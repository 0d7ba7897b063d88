#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <vector>

// Casts only where the argument's type does not already convert to HIP's
// parameter type: the compiler knows the types of members, calls and
// address-of expressions, which text cannot see.
struct Buffers {
    void* staging;
    void** slots;
};

__global__ void kernel(float* out) { out[threadIdx.x] = 1.0f; }

int main()
{
    Buffers b{};
    hipHostAlloc(&b.staging, 256, hipHostMallocDefault);
    void* raw = nullptr;
    hipHostAlloc(b.slots, 256, hipHostMallocDefault);
    hipHostAlloc(&raw, 256, hipHostMallocMapped);
    float* typed = nullptr;
    hipHostAlloc((void**)(&typed), 256, hipHostMallocDefault);
    hipFuncSetCacheConfig((const void*)(kernel), hipFuncCachePreferL1);
    hiprtcProgram prog;
    std::vector<const char*> headers{"#pragma once\n"};
    std::vector<const char*> names{"defs.h"};
    hiprtcCreateProgram(&prog, "__global__ void k() {}", "k.cu", 1, headers.data(), names.data());
    std::vector<const char*> options{"--gpu-architecture=compute_80"};
    hiprtcCompileProgram(prog, 1, options.data());
    hipHostFree(raw);
    return 0;
}
