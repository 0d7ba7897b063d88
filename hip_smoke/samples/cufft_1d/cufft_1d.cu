// cuFFT 1-D: a batched complex-to-complex forward transform of two signals
// (DC + two tones, and a shifted impulse), the inverse transform back, and a
// real-to-complex transform of the first signal. Checked against a CPU DFT in
// double precision; magnitudes are printed rounded to one decimal.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

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

#define CUFFT_CHECK(call)                                                     \
  do {                                                                        \
    cufftResult r_ = (call);                                                  \
    if (r_ != CUFFT_SUCCESS) {                                                \
      fprintf(stderr, "cuFFT error %d at %s:%d: %s\n", (int)r_, __FILE__,     \
              __LINE__, #call);                                               \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

static const double kPi = 3.14159265358979323846;

int main() {
  const int N = 1024, batch = 2;
  std::vector<cufftComplex> h(N * batch);
  std::vector<float> real(N);
  for (int n = 0; n < N; ++n) {
    const double t = 2.0 * kPi * n / N;
    real[n] = (float)(1.0 + 3.0 * std::cos(5.0 * t) + 2.0 * std::sin(17.0 * t));
    h[n].x = real[n];
    h[n].y = 0.0f;
    h[N + n].x = (n == 3) ? 1.0f : 0.0f;  // impulse at n = 3: |X[k]| = 1 for all k
    h[N + n].y = 0.0f;
  }

  // CPU reference DFT in double.
  std::vector<double> refRe(N * batch), refIm(N * batch);
  for (int b = 0; b < batch; ++b)
    for (int k = 0; k < N; ++k) {
      double re = 0.0, im = 0.0;
      for (int n = 0; n < N; ++n) {
        const double a = -2.0 * kPi * (double)((long long)k * n % N) / N;
        re += h[b * N + n].x * std::cos(a) - h[b * N + n].y * std::sin(a);
        im += h[b * N + n].x * std::sin(a) + h[b * N + n].y * std::cos(a);
      }
      refRe[b * N + k] = re;
      refIm[b * N + k] = im;
    }

  cufftComplex *d_data, *d_half;
  float* d_real;
  CUDA_CHECK(cudaMalloc(&d_data, sizeof(cufftComplex) * N * batch));
  CUDA_CHECK(cudaMalloc(&d_half, sizeof(cufftComplex) * (N / 2 + 1)));
  CUDA_CHECK(cudaMalloc(&d_real, sizeof(float) * N));
  CUDA_CHECK(cudaMemcpy(d_data, h.data(), sizeof(cufftComplex) * N * batch, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_real, real.data(), sizeof(float) * N, cudaMemcpyHostToDevice));

  cufftHandle plan, planR2C;
  CUFFT_CHECK(cufftPlan1d(&plan, N, CUFFT_C2C, batch));
  CUFFT_CHECK(cufftPlan1d(&planR2C, N, CUFFT_R2C, 1));

  CUFFT_CHECK(cufftExecC2C(plan, d_data, d_data, CUFFT_FORWARD));  // in place
  CUFFT_CHECK(cufftExecR2C(planR2C, d_real, d_half));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<cufftComplex> X(N * batch), half(N / 2 + 1);
  CUDA_CHECK(cudaMemcpy(X.data(), d_data, sizeof(cufftComplex) * N * batch, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(half.data(), d_half, sizeof(cufftComplex) * (N / 2 + 1), cudaMemcpyDeviceToHost));

  CUFFT_CHECK(cufftExecC2C(plan, d_data, d_data, CUFFT_INVERSE));  // unnormalised: N * x
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<cufftComplex> back(N * batch);
  CUDA_CHECK(cudaMemcpy(back.data(), d_data, sizeof(cufftComplex) * N * batch, cudaMemcpyDeviceToHost));

  double fwdErr = 0.0, r2cErr = 0.0, invErr = 0.0, impulseErr = 0.0;
  for (int i = 0; i < N * batch; ++i) {
    fwdErr = std::fmax(fwdErr, std::hypot(X[i].x - refRe[i], X[i].y - refIm[i]));
    invErr = std::fmax(invErr, std::hypot(back[i].x / N - h[i].x, back[i].y / N - h[i].y));
  }
  for (int k = 0; k <= N / 2; ++k)
    r2cErr = std::fmax(r2cErr, std::hypot(half[k].x - refRe[k], half[k].y - refIm[k]));
  for (int k = 0; k < N; ++k)
    impulseErr = std::fmax(impulseErr, std::fabs(std::hypot(X[N + k].x, X[N + k].y) - 1.0));
  fwdErr /= N;  // relative to the largest possible magnitude scale
  r2cErr /= N;

  auto mag = [&](int k) { return std::hypot((double)X[k].x, (double)X[k].y); };
  printf("N = %d, batch = %d\n", N, batch);
  printf("|X[0]| = %.1f, |X[5]| = %.1f, |X[17]| = %.1f, |X[%d]| = %.1f\n", mag(0), mag(5), mag(17),
         N - 5, mag(N - 5));
  printf("|X[1]| < 0.1: %s\n", mag(1) < 0.1 ? "yes" : "no");
  printf("forward C2C error / N < 1e-5: %s\n", fwdErr < 1e-5 ? "yes" : "no");
  printf("R2C matches C2C half spectrum (error / N < 1e-5): %s\n", r2cErr < 1e-5 ? "yes" : "no");
  printf("impulse spectrum |X[k]| = 1 within 1e-5: %s\n", impulseErr < 1e-5 ? "yes" : "no");
  printf("inverse / N recovers the input within 1e-4: %s\n", invErr < 1e-4 ? "yes" : "no");

  CUFFT_CHECK(cufftDestroy(plan));
  CUFFT_CHECK(cufftDestroy(planR2C));
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_half));
  CUDA_CHECK(cudaFree(d_real));

  const bool ok = fwdErr < 1e-5 && r2cErr < 1e-5 && impulseErr < 1e-5 && invErr < 1e-4 && mag(1) < 0.1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
