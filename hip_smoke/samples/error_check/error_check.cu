// Error-checking macros: a fatal CUDA_CHECK, a non-fatal CUDA_TRY that
// reports and returns the error, and CHECK_KERNEL for launches (launch error
// from cudaGetLastError, execution error from cudaDeviceSynchronize). The
// program provokes a few errors on purpose and checks that they are reported
// and then cleared. Error names and strings go to stderr only: they differ
// between platforms.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error at %s:%d: %s failed: %s (%s)\n", __FILE__,  \
              __LINE__, #call, cudaGetErrorString(err_),                      \
              cudaGetErrorName(err_));                                        \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

// Reports the failure and yields the error code, without exiting.
static cudaError_t reportError(cudaError_t err, const char* what, const char* file, int line) {
  if (err != cudaSuccess)
    fprintf(stderr, "[expected] %s:%d: %s -> %s: %s\n", file, line, what, cudaGetErrorName(err),
            cudaGetErrorString(err));
  return err;
}
#define CUDA_TRY(call) reportError((call), #call, __FILE__, __LINE__)

#ifdef NDEBUG
#define CHECK_KERNEL() CUDA_CHECK(cudaGetLastError())
#else
#define CHECK_KERNEL()                                                        \
  do {                                                                        \
    CUDA_CHECK(cudaGetLastError());                                           \
    CUDA_CHECK(cudaDeviceSynchronize());                                      \
  } while (0)
#endif

__global__ void fill(int* out, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

int main() {
  int failures = 0;
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));

  // 1. An oversized block is rejected at launch.
  int* d = nullptr;
  const int n = 1024;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  fill<<<1, 4096>>>(d, n, 0);
  const cudaError_t launchErr = CUDA_TRY(cudaGetLastError());
  const bool launchRejected = launchErr != cudaSuccess;
  // cudaGetLastError resets the error: the next call sees success.
  const bool cleared = cudaGetLastError() == cudaSuccess;
  printf("oversized block rejected: %s\n", launchRejected ? "yes" : "no");
  printf("error cleared once read: %s\n", cleared ? "yes" : "no");
  failures += !launchRejected + !cleared;

  // 2. An invalid device ordinal.
  const cudaError_t devErr = CUDA_TRY(cudaSetDevice(count + 7));
  (void)cudaGetLastError();
  printf("invalid device rejected with the invalid-device code: %s\n",
         devErr == cudaErrorInvalidDevice ? "yes" : "no");
  failures += devErr != cudaErrorInvalidDevice;

  // 3. An impossible allocation (1 PiB) fails and leaves the pointer usable.
  void* huge = nullptr;
  const cudaError_t allocErr = CUDA_TRY(cudaMalloc(&huge, (size_t)1 << 50));
  (void)cudaGetLastError();
  printf("1 PiB allocation rejected: %s\n", allocErr != cudaSuccess ? "yes" : "no");
  failures += allocErr == cudaSuccess;
  if (allocErr == cudaSuccess) CUDA_CHECK(cudaFree(huge));

  // 4. A copy from a null device pointer is rejected as an invalid value.
  int host[4] = {0, 0, 0, 0};
  const cudaError_t copyErr =
      CUDA_TRY(cudaMemcpy(host, nullptr, sizeof(host), cudaMemcpyDeviceToHost));
  (void)cudaGetLastError();
  printf("copy from a null pointer rejected: %s\n", copyErr != cudaSuccess ? "yes" : "no");
  failures += copyErr == cudaSuccess;

  // 5. After the errors above (none of them sticky) the device still works.
  CUDA_CHECK(cudaSetDevice(0));
  fill<<<(n + 255) / 256, 256>>>(d, n, 100);
  CHECK_KERNEL();
  int h[n];
  CUDA_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 100 + i;
  printf("kernel after recovered errors: mismatches = %d\n", bad);
  failures += bad != 0;

  // 6. The error strings exist for every code used here.
  const bool strings = cudaGetErrorString(cudaSuccess) != nullptr &&
                       cudaGetErrorName(cudaErrorInvalidDevice) != nullptr &&
                       cudaGetErrorString(launchErr)[0] != '\0';
  printf("error strings available: %s\n", strings ? "yes" : "no");
  failures += !strings;

  CUDA_CHECK(cudaFree(d));
  printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
