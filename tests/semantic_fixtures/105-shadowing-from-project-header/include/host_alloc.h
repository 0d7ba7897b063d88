#pragma once
#include <cstddef>

namespace hostmem {
// a host allocator that kept its CUDA-era name
void* cudaMallocHost(std::size_t bytes);
void cudaFreeHost(void* p, std::size_t bytes);
}
