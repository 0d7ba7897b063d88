#include <cuda_runtime.h>
#include <nvrtc.h>
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
    cudaHostAlloc(&b.staging, 256, cudaHostAllocDefault);
    void* raw = nullptr;
    cudaHostAlloc(b.slots, 256, cudaHostAllocDefault);
    cudaHostAlloc(&raw, 256, cudaHostAllocMapped);
    float* typed = nullptr;
    cudaHostAlloc(&typed, 256, cudaHostAllocDefault);
    cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferL1);
    nvrtcProgram prog;
    std::vector<const char*> headers{"#pragma once\n"};
    std::vector<const char*> names{"defs.h"};
    nvrtcCreateProgram(&prog, "__global__ void k() {}", "k.cu", 1, headers.data(), names.data());
    std::vector<const char*> options{"--gpu-architecture=compute_80"};
    nvrtcCompileProgram(prog, 1, options.data());
    cudaFreeHost(raw);
    return 0;
}
