// The kernel of histogram.cu, in its own file: each block counts into shared
// memory, then adds its counts to the global ones.
#include "histogram_kernel.cuh"

__global__ void histogram(const unsigned char* data, int n, unsigned* counts, int bins) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % bins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&counts[b], local[b]);
}
