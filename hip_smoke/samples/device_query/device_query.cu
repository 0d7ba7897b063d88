// Device query: prints the warp size (32 on NVIDIA GPUs, 64 on AMD CDNA) and
// a few facts that hold on every supported GPU. Names, clocks and memory sizes
// are checked but not printed.
#include <cstdio>
#include <cstdlib>
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

__global__ void readWarpSize(int* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = warpSize;
}

int main() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  printf("device count >= 1: %s\n", count >= 1 ? "yes" : "no");
  if (count < 1) {
    printf("FAIL\n");
    return 1;
  }

  int dev = 0;
  CUDA_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int attrWarp = 0, attrThreads = 0, attrSMs = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&attrWarp, cudaDevAttrWarpSize, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&attrThreads, cudaDevAttrMaxThreadsPerBlock, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&attrSMs, cudaDevAttrMultiProcessorCount, dev));

  int* d_ws;
  int deviceWarp = 0;
  CUDA_CHECK(cudaMalloc(&d_ws, sizeof(int)));
  readWarpSize<<<1, 64>>>(d_ws);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(&deviceWarp, d_ws, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_ws));

  size_t freeMem = 0, totalMem = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeMem, &totalMem));

  const bool warpOk = prop.warpSize == attrWarp && prop.warpSize == deviceWarp &&
                      (prop.warpSize == 32 || prop.warpSize == 64);
  const bool threadsOk = prop.maxThreadsPerBlock >= 1024 && attrThreads == prop.maxThreadsPerBlock;
  const bool smOk = prop.multiProcessorCount >= 1 && attrSMs == prop.multiProcessorCount;
  const bool memOk = prop.totalGlobalMem >= ((size_t)1 << 30) && totalMem > 0 && freeMem <= totalMem;
  const bool sharedOk = prop.sharedMemPerBlock >= 48 * 1024;
  const bool dimsOk = prop.maxThreadsDim[0] >= 1024 && prop.maxGridSize[0] >= 65535;

  printf("warpSize = %d\n", prop.warpSize);
  printf("warpSize agrees (properties, attribute, device code): %s\n", warpOk ? "yes" : "no");
  printf("maxThreadsPerBlock >= 1024: %s\n", threadsOk ? "yes" : "no");
  printf("multiprocessors >= 1: %s\n", smOk ? "yes" : "no");
  printf("global memory >= 1 GiB: %s\n", memOk ? "yes" : "no");
  printf("shared memory per block >= 48 KiB: %s\n", sharedOk ? "yes" : "no");
  printf("block and grid limits >= 1024 x 65535: %s\n", dimsOk ? "yes" : "no");

  const bool ok = warpOk && threadsOk && smOk && memOk && sharedOk && dimsOk;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
