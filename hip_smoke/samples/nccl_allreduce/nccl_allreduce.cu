// NCCL single-process all-reduce: one communicator per visible GPU
// (ncclCommInitAll), a grouped ncclAllReduce (sum) on per-device streams, and
// a check of every device's result. Works with a single GPU too.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <nccl.h>

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

#define NCCL_CHECK(call)                                                      \
  do {                                                                        \
    ncclResult_t r_ = (call);                                                 \
    if (r_ != ncclSuccess) {                                                  \
      fprintf(stderr, "NCCL error at %s:%d: %s failed: %s\n", __FILE__,       \
              __LINE__, #call, ncclGetErrorString(r_));                       \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

__global__ void fillRank(float* buf, int count, int rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) buf[i] = (float)((rank + 1) * (i % 100));
}

int main() {
  int nDev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&nDev));
  if (nDev < 1) {
    printf("FAIL\n");
    return 1;
  }
  if (nDev > 8) nDev = 8;
  const int count = 1 << 20;

  std::vector<int> devs(nDev);
  for (int d = 0; d < nDev; ++d) devs[d] = d;
  std::vector<ncclComm_t> comms(nDev);
  NCCL_CHECK(ncclCommInitAll(comms.data(), nDev, devs.data()));

  std::vector<float*> send(nDev), recv(nDev);
  std::vector<cudaStream_t> streams(nDev);
  for (int d = 0; d < nDev; ++d) {
    CUDA_CHECK(cudaSetDevice(devs[d]));
    CUDA_CHECK(cudaMalloc(&send[d], count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&recv[d], count * sizeof(float)));
    CUDA_CHECK(cudaStreamCreate(&streams[d]));
    fillRank<<<(count + 255) / 256, 256, 0, streams[d]>>>(send[d], count, d);
    CUDA_CHECK(cudaGetLastError());
  }

  // One thread drives every device: the calls must be grouped.
  NCCL_CHECK(ncclGroupStart());
  for (int d = 0; d < nDev; ++d)
    NCCL_CHECK(ncclAllReduce(send[d], recv[d], count, ncclFloat, ncclSum, comms[d], streams[d]));
  NCCL_CHECK(ncclGroupEnd());

  for (int d = 0; d < nDev; ++d) {
    CUDA_CHECK(cudaSetDevice(devs[d]));
    CUDA_CHECK(cudaStreamSynchronize(streams[d]));
  }

  // Sum over ranks of (rank + 1) * (i % 100) = nDev (nDev + 1) / 2 * (i % 100).
  const float factor = nDev * (nDev + 1) / 2.0f;
  int bad = 0;
  std::vector<float> h(count);
  for (int d = 0; d < nDev; ++d) {
    CUDA_CHECK(cudaSetDevice(devs[d]));
    CUDA_CHECK(cudaMemcpy(h.data(), recv[d], count * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < count; ++i) bad += h[i] != factor * (i % 100);
  }
  printf("all-reduce over the visible devices: mismatches = %d\n", bad);

  for (int d = 0; d < nDev; ++d) {
    CUDA_CHECK(cudaSetDevice(devs[d]));
    CUDA_CHECK(cudaFree(send[d]));
    CUDA_CHECK(cudaFree(recv[d]));
    CUDA_CHECK(cudaStreamDestroy(streams[d]));
    NCCL_CHECK(ncclCommDestroy(comms[d]));
  }

  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
