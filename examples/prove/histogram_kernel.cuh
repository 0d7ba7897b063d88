#pragma once
#include <cuda_runtime.h>

__global__ void histogram(const unsigned char* data, int n, unsigned* counts, int bins);
