// cuRAND host API: a pseudo-random generator with a fixed seed fills device
// buffers with uniform, normal and raw 32-bit values. The exact numbers are
// library-specific, so the program prints only properties any correct
// generator has (range, moments within wide bounds, reproducibility) and a
// count that a kernel and the CPU compute from the same buffer.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>

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

#define CURAND_CHECK(call)                                                    \
  do {                                                                        \
    curandStatus_t st_ = (call);                                              \
    if (st_ != CURAND_STATUS_SUCCESS) {                                       \
      fprintf(stderr, "cuRAND error %d at %s:%d: %s\n", (int)st_, __FILE__,   \
              __LINE__, #call);                                               \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

__global__ void countBelow(const float* x, int n, float threshold, unsigned int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < threshold) atomicAdd(count, 1u);
}

static void meanStd(const std::vector<float>& v, double* mean, double* sd) {
  double s = 0.0, s2 = 0.0;
  for (float x : v) {
    s += x;
    s2 += (double)x * x;
  }
  *mean = s / v.size();
  *sd = std::sqrt(s2 / v.size() - *mean * *mean);
}

int main() {
  const int n = 1 << 20;  // even, as curandGenerateNormal requires
  float *d_u, *d_u2, *d_norm;
  unsigned int *d_bits, *d_count;
  CUDA_CHECK(cudaMalloc(&d_u, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_u2, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_norm, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_bits, n * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(unsigned int)));

  curandGenerator_t gen, gen2;
  CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CHECK(curandGenerateUniform(gen, d_u, n));
  CURAND_CHECK(curandGenerateNormal(gen, d_norm, n, 2.0f, 0.5f));
  CURAND_CHECK(curandGenerate(gen, d_bits, n));

  // Same seed, fresh generator: the first batch must repeat exactly.
  CURAND_CHECK(curandCreateGenerator(&gen2, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen2, 1234ULL));
  CURAND_CHECK(curandGenerateUniform(gen2, d_u2, n));

  countBelow<<<(n + 255) / 256, 256>>>(d_u, n, 0.25f, d_count);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> u(n), u2(n), g(n);
  std::vector<unsigned int> bits(n);
  unsigned int gpuCount = 0;
  CUDA_CHECK(cudaMemcpy(u.data(), d_u, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(u2.data(), d_u2, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(g.data(), d_norm, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(bits.data(), d_bits, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&gpuCount, d_count, sizeof(unsigned int), cudaMemcpyDeviceToHost));

  bool inRange = true, same = true;
  unsigned int cpuCount = 0, odd = 0;
  for (int i = 0; i < n; ++i) {
    inRange = inRange && u[i] > 0.0f && u[i] <= 1.0f;  // cuRAND's uniform range is (0, 1]
    same = same && u[i] == u2[i];
    cpuCount += u[i] < 0.25f;
    odd += bits[i] & 1u;
  }
  double um, us, gm, gs;
  meanStd(u, &um, &us);
  meanStd(g, &gm, &gs);
  const double quarter = (double)cpuCount / n, oddFrac = (double)odd / n;

  // Bounds are more than 15 standard errors wide for n = 2^20.
  const bool uniformOk = inRange && std::fabs(um - 0.5) < 0.005 && std::fabs(us - 0.288675) < 0.005;
  const bool normalOk = std::fabs(gm - 2.0) < 0.01 && std::fabs(gs - 0.5) < 0.01;
  const bool quarterOk = std::fabs(quarter - 0.25) < 0.01;
  const bool bitsOk = std::fabs(oddFrac - 0.5) < 0.01;

  printf("n = %d\n", n);
  printf("uniform values in (0, 1]: %s\n", inRange ? "yes" : "no");
  printf("uniform mean ~ 0.5 and sd ~ 0.2887: %s\n", uniformOk ? "yes" : "no");
  printf("normal(2, 0.5) mean and sd within 0.01: %s\n", normalOk ? "yes" : "no");
  printf("raw 32-bit values: odd fraction ~ 0.5: %s\n", bitsOk ? "yes" : "no");
  printf("values below 0.25: kernel count equals CPU count: %s\n", gpuCount == cpuCount ? "yes" : "no");
  printf("fraction below 0.25 ~ 0.25: %s\n", quarterOk ? "yes" : "no");
  printf("same seed reproduces the sequence: %s\n", same ? "yes" : "no");

  CURAND_CHECK(curandDestroyGenerator(gen));
  CURAND_CHECK(curandDestroyGenerator(gen2));
  CUDA_CHECK(cudaFree(d_u));
  CUDA_CHECK(cudaFree(d_u2));
  CUDA_CHECK(cudaFree(d_norm));
  CUDA_CHECK(cudaFree(d_bits));
  CUDA_CHECK(cudaFree(d_count));

  const bool ok = uniformOk && normalOk && bitsOk && quarterOk && gpuCount == cpuCount && same;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
