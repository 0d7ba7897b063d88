// Overlapping copies and kernels in several streams from pinned memory, with
// events for cross-stream dependencies and timing. The elapsed time is only
// checked, never printed.
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

__global__ void transform(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    for (int k = 0; k < 16; ++k) v = (v * 3 + k) % 10007;  // some work per element
    out[i] = v;
  }
}

__global__ void sumAll(const int* data, int n, unsigned long long* total) {
  unsigned long long local = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    local += (unsigned long long)data[i];
  atomicAdd(total, local);
}

static int transformHost(int v) {
  for (int k = 0; k < 16; ++k) v = (v * 3 + k) % 10007;
  return v;
}

int main() {
  const int nStreams = 4;
  const int n = 1 << 22;
  const int chunk = n / nStreams;
  const size_t bytes = n * sizeof(int);
  const size_t chunkBytes = chunk * sizeof(int);

  int *h_in = nullptr, *h_out = nullptr;
  CUDA_CHECK(cudaMallocHost(&h_in, bytes));  // pinned: required for async overlap
  CUDA_CHECK(cudaMallocHost(&h_out, bytes));
  for (int i = 0; i < n; ++i) h_in[i] = (int)((i * 7919LL) % 10007);

  int *d_in = nullptr, *d_out = nullptr;
  unsigned long long* d_total = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));

  cudaStream_t streams[nStreams];
  cudaEvent_t done[nStreams];
  for (int s = 0; s < nStreams; ++s) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
  }
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  CUDA_CHECK(cudaMemsetAsync(d_total, 0, sizeof(unsigned long long), streams[0]));
  CUDA_CHECK(cudaEventRecord(start, streams[0]));
  for (int s = 1; s < nStreams; ++s) CUDA_CHECK(cudaStreamWaitEvent(streams[s], start, 0));

  const int threads = 256;
  const int blocks = (chunk + threads - 1) / threads;
  for (int s = 0; s < nStreams; ++s) {
    const int offset = s * chunk;
    CUDA_CHECK(cudaMemcpyAsync(d_in + offset, h_in + offset, chunkBytes, cudaMemcpyHostToDevice,
                               streams[s]));
    transform<<<blocks, threads, 0, streams[s]>>>(d_in + offset, d_out + offset, chunk);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(h_out + offset, d_out + offset, chunkBytes, cudaMemcpyDeviceToHost,
                               streams[s]));
    CUDA_CHECK(cudaEventRecord(done[s], streams[s]));
  }

  // The reduction reads every chunk: stream 0 waits for all the others.
  for (int s = 1; s < nStreams; ++s) CUDA_CHECK(cudaStreamWaitEvent(streams[0], done[s], 0));
  sumAll<<<64, threads, 0, streams[0]>>>(d_out, n, d_total);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop, streams[0]));
  CUDA_CHECK(cudaEventSynchronize(stop));

  float ms = -1.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  for (int s = 0; s < nStreams; ++s) CUDA_CHECK(cudaStreamSynchronize(streams[s]));
  bool idle = true;
  for (int s = 0; s < nStreams; ++s) idle = idle && cudaStreamQuery(streams[s]) == cudaSuccess;
  bool eventsDone = true;
  for (int s = 0; s < nStreams; ++s) eventsDone = eventsDone && cudaEventQuery(done[s]) == cudaSuccess;

  unsigned long long gpuTotal = 0;
  CUDA_CHECK(cudaMemcpy(&gpuTotal, d_total, sizeof(unsigned long long), cudaMemcpyDeviceToHost));

  int mismatches = 0;
  unsigned long long cpuTotal = 0;
  for (int i = 0; i < n; ++i) {
    const int r = transformHost(h_in[i]);
    if (h_out[i] != r) ++mismatches;
    cpuTotal += (unsigned long long)r;
  }

  printf("streams = %d, chunk = %d\n", nStreams, chunk);
  printf("out[0] = %d, out[n-1] = %d\n", h_out[0], h_out[n - 1]);
  printf("mismatches = %d\n", mismatches);
  printf("total = %llu (cpu %llu)\n", gpuTotal, cpuTotal);
  printf("elapsed time measured (>= 0 ms): %s\n", ms >= 0.0f ? "yes" : "no");
  printf("streams idle after sync: %s\n", idle ? "yes" : "no");
  printf("events complete: %s\n", eventsDone ? "yes" : "no");

  for (int s = 0; s < nStreams; ++s) {
    CUDA_CHECK(cudaEventDestroy(done[s]));
    CUDA_CHECK(cudaStreamDestroy(streams[s]));
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_total));
  CUDA_CHECK(cudaFreeHost(h_in));
  CUDA_CHECK(cudaFreeHost(h_out));

  const bool ok = mismatches == 0 && gpuTotal == cpuTotal && ms >= 0.0f && idle && eventsDone;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
