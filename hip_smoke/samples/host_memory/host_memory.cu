// Host memory kinds: pinned (cudaMallocHost), mapped zero-copy
// (cudaHostAlloc + cudaHostGetDevicePointer), registered pageable memory
// (cudaHostRegister) and managed memory (cudaMallocManaged, small).
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

__global__ void affine(const int* in, int* out, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i] + b;
}

__global__ void squareInPlace(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

static int check(const int* got, int n, int a, int b, long long* sum) {
  int bad = 0;
  *sum = 0;
  for (int i = 0; i < n; ++i) {
    const int expect = a * (i % 1000) + b;
    if (got[i] != expect) ++bad;
    *sum += got[i];
  }
  return bad;
}

int main() {
  // Must precede any call that creates the context.
  CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));

  const int n = 1 << 20;
  const size_t bytes = n * sizeof(int);
  const int threads = 256, blocks = (n + threads - 1) / threads;
  int *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));

  // 1. Pinned memory with synchronous and asynchronous copies.
  int *h_pinned, *h_result;
  CUDA_CHECK(cudaMallocHost(&h_pinned, bytes));
  CUDA_CHECK(cudaMallocHost(&h_result, bytes));
  for (int i = 0; i < n; ++i) h_pinned[i] = i % 1000;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  CUDA_CHECK(cudaMemcpyAsync(d_in, h_pinned, bytes, cudaMemcpyHostToDevice, stream));
  affine<<<blocks, threads, 0, stream>>>(d_in, d_out, n, 3, 1);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(h_result, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  long long pinnedSum = 0;
  const int pinnedBad = check(h_result, n, 3, 1, &pinnedSum);

  // 2. Mapped (zero-copy) memory: the kernel writes straight into host memory.
  int* h_mapped = nullptr;
  int* d_mapped = nullptr;
  CUDA_CHECK(cudaHostAlloc(&h_mapped, bytes, cudaHostAllocMapped));
  CUDA_CHECK(cudaHostGetDevicePointer(&d_mapped, h_mapped, 0));
  affine<<<blocks, threads>>>(d_in, d_mapped, n, -2, 7);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  long long mappedSum = 0;
  const int mappedBad = check(h_mapped, n, -2, 7, &mappedSum);

  // 3. Pageable memory registered with the runtime.
  std::vector<int> pageable(n, 0);
  CUDA_CHECK(cudaHostRegister(pageable.data(), bytes, cudaHostRegisterDefault));
  affine<<<blocks, threads, 0, stream>>>(d_in, d_out, n, 5, -3);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(pageable.data(), d_out, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaHostUnregister(pageable.data()));
  long long registeredSum = 0;
  const int registeredBad = check(pageable.data(), n, 5, -3, &registeredSum);

  // 4. Managed memory (small): written on the host, squared on the device.
  const int m = 4096;
  int* managed = nullptr;
  CUDA_CHECK(cudaMallocManaged(&managed, m * sizeof(int)));
  for (int i = 0; i < m; ++i) managed[i] = i - 2048;
  squareInPlace<<<(m + threads - 1) / threads, threads>>>(managed, m);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());  // before the host touches managed memory
  int managedBad = 0;
  long long managedSum = 0;
  for (int i = 0; i < m; ++i) {
    if (managed[i] != (i - 2048) * (i - 2048)) ++managedBad;
    managedSum += managed[i];
  }

  printf("can map host memory: %s\n", prop.canMapHostMemory ? "yes" : "no");
  printf("pinned: mismatches = %d, sum = %lld\n", pinnedBad, pinnedSum);
  printf("mapped: mismatches = %d, sum = %lld\n", mappedBad, mappedSum);
  printf("registered: mismatches = %d, sum = %lld\n", registeredBad, registeredSum);
  printf("managed: mismatches = %d, sum = %lld\n", managedBad, managedSum);

  CUDA_CHECK(cudaFree(managed));
  CUDA_CHECK(cudaFreeHost(h_mapped));
  CUDA_CHECK(cudaFreeHost(h_pinned));
  CUDA_CHECK(cudaFreeHost(h_result));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  const bool ok = prop.canMapHostMemory && pinnedBad == 0 && mappedBad == 0 &&
                  registeredBad == 0 && managedBad == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
