// 256-bin histogram of bytes with atomics: a shared-memory privatized version
// and a global-memory version, plus atomicMin/atomicMax and an atomicCAS loop
// that implements a float maximum. All results are order-independent.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__,       \
              __LINE__, #call, cudaGetErrorString(err_));                     \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

#define NUM_BINS 256

__global__ void histogramShared(const unsigned char* data, int n, unsigned int* hist) {
  __shared__ unsigned int local[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

__global__ void histogramGlobal(const unsigned char* data, int n, unsigned int* hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[data[i]], 1u);
}

__device__ float atomicMaxFloat(float* address, float val) {
  int* addr = reinterpret_cast<int*>(address);
  int old = *addr, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(addr, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void extremes(const unsigned char* data, int n, int* minVal, int* maxVal,
                         float* maxWeighted) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = data[i];
  atomicMin(minVal, v);
  atomicMax(maxVal, v);
  // A weight that makes the float maximum land on one particular element.
  atomicMaxFloat(maxWeighted, v * 0.5f + (i % 97) * 0.25f);
}

int main() {
  const int n = 1 << 22;
  std::vector<unsigned char> h_data(n);
  unsigned int state = 12345u;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;  // LCG, fixed seed
    // Skewed distribution: the sum of two high bytes, folded into 0..255.
    h_data[i] = (unsigned char)((((state >> 24) & 0xff) + ((state >> 16) & 0x7f)) % 251 + 2);
  }

  std::vector<unsigned int> ref(NUM_BINS, 0);
  int refMin = 255, refMax = 0;
  float refMaxW = 0.0f;
  for (int i = 0; i < n; ++i) {
    ref[h_data[i]]++;
    refMin = h_data[i] < refMin ? h_data[i] : refMin;
    refMax = h_data[i] > refMax ? h_data[i] : refMax;
    const float w = h_data[i] * 0.5f + (i % 97) * 0.25f;
    refMaxW = w > refMaxW ? w : refMaxW;
  }

  unsigned char* d_data;
  unsigned int *d_histS, *d_histG;
  int *d_min, *d_max;
  float* d_maxW;
  CUDA_CHECK(cudaMalloc(&d_data, n));
  CUDA_CHECK(cudaMalloc(&d_histS, NUM_BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_histG, NUM_BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_min, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_max, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_maxW, sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_data, h_data.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_histS, 0, NUM_BINS * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_histG, 0, NUM_BINS * sizeof(unsigned int)));
  const int initMin = 1 << 30, initMax = -1;
  const float initW = 0.0f;
  CUDA_CHECK(cudaMemcpy(d_min, &initMin, sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_max, &initMax, sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_maxW, &initW, sizeof(float), cudaMemcpyHostToDevice));

  const int threads = 256;
  histogramShared<<<120, threads>>>(d_data, n, d_histS);
  CUDA_CHECK(cudaGetLastError());
  histogramGlobal<<<(n + threads - 1) / threads, threads>>>(d_data, n, d_histG);
  CUDA_CHECK(cudaGetLastError());
  extremes<<<(n + threads - 1) / threads, threads>>>(d_data, n, d_min, d_max, d_maxW);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<unsigned int> histS(NUM_BINS), histG(NUM_BINS);
  int gMin = 0, gMax = 0;
  float gMaxW = 0.0f;
  CUDA_CHECK(cudaMemcpy(histS.data(), d_histS, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(histG.data(), d_histG, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&gMin, d_min, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&gMax, d_max, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&gMaxW, d_maxW, sizeof(float), cudaMemcpyDeviceToHost));

  int badS = 0, badG = 0, peakBin = 0;
  unsigned long long totalS = 0;
  for (int b = 0; b < NUM_BINS; ++b) {
    badS += histS[b] != ref[b];
    badG += histG[b] != ref[b];
    totalS += histS[b];
    if (histS[b] > histS[peakBin]) peakBin = b;
  }

  printf("total count = %llu\n", totalS);
  printf("hist[0] = %u, hist[2] = %u, hist[128] = %u, hist[252] = %u\n", histS[0], histS[2],
         histS[128], histS[252]);
  printf("peak bin = %d (%u)\n", peakBin, histS[peakBin]);
  printf("shared-memory histogram mismatches = %d\n", badS);
  printf("global-memory histogram mismatches = %d\n", badG);
  printf("min = %d, max = %d\n", gMin, gMax);
  printf("float max (atomicCAS) = %.2f\n", gMaxW);

  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_histS));
  CUDA_CHECK(cudaFree(d_histG));
  CUDA_CHECK(cudaFree(d_min));
  CUDA_CHECK(cudaFree(d_max));
  CUDA_CHECK(cudaFree(d_maxW));

  const bool ok = badS == 0 && badG == 0 && totalS == (unsigned long long)n && gMin == refMin &&
                  gMax == refMax && gMaxW == refMaxW;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
