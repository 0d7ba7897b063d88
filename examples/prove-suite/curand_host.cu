// curand_host.cu - the cuRAND host API with a fixed seed: uniform, normal,
// log-normal and Poisson draws into device memory from a pseudo-random
// generator (the default XORWOW), and uniform draws from a quasi-random
// Sobol generator. The streams of numbers are not the same on every platform
// (another library implements the generators), so the program prints
// statistics rounded to what any correct generator reproduces, and
// smoke.toml compares them with an absolute tolerance. The first Sobol
// points are printed as they are: a direction-number table or skipped point
// that differs between libraries shows up there.
#include "check.cuh"

#include <curand.h>
#include <vector>

#define CURAND_CHECK(call)                                                                 \
    do {                                                                                   \
        curandStatus_t s_ = (call);                                                        \
        if (s_ != CURAND_STATUS_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: cuRAND status %d\n", __FILE__, __LINE__, (int)s_);    \
            exit(EXIT_FAILURE);                                                            \
        }                                                                                  \
    } while (0)

static void moments(const std::vector<float> &v, double &mean, double &stddev) {
    double s = 0, s2 = 0;
    for (float x : v) {
        s += x;
        s2 += static_cast<double>(x) * x;
    }
    mean = s / v.size();
    stddev = sqrt(s2 / v.size() - mean * mean);
}

int main(int argc, char **argv) {
    const unsigned long long seed = static_cast<unsigned long long>(arg_int(argc, argv, "--seed", 1234));
    const size_t n = 1 << 22;
    float *d;
    unsigned int *du;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&du, n * sizeof(unsigned int)));
    std::vector<float> h(n);
    double mean = 0, sd = 0;

    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
    CURAND_CHECK(curandGenerateUniform(gen, d, n));
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    moments(h, mean, sd);
    float lo = 1.0f, hi = 0.0f;
    for (float x : h) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    printf("uniform: mean = %.3f stddev = %.3f\n", mean, sd);
    check_true("uniform in (0, 1]", lo > 0.0f && hi <= 1.0f);
    check_close("uniform mean", fabs(mean - 0.5), 2e-3);
    check_close("uniform stddev", fabs(sd - sqrt(1.0 / 12.0)), 2e-3);

    CURAND_CHECK(curandGenerateNormal(gen, d, n, 2.0f, 3.0f));
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    moments(h, mean, sd);
    size_t within1 = 0;
    for (float x : h) within1 += fabsf(x - 2.0f) <= 3.0f;
    const double frac1 = static_cast<double>(within1) / n;
    printf("normal(2, 3): mean = %.2f stddev = %.2f within 1 sigma = %.2f\n", mean, sd, frac1);
    check_close("normal mean", fabs(mean - 2.0), 1e-2);
    check_close("normal stddev", fabs(sd - 3.0), 1e-2);
    check_close("normal 68% rule", fabs(frac1 - 0.6827), 2e-3);

    CURAND_CHECK(curandGenerateLogNormal(gen, d, n, 0.0f, 0.5f));
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    moments(h, mean, sd);
    printf("lognormal(0, 0.5): mean = %.2f\n", mean);
    check_close("lognormal mean", fabs(mean - exp(0.125)), 1e-2);

    CURAND_CHECK(curandGeneratePoisson(gen, du, n, 4.0));
    std::vector<unsigned int> hu(n);
    CUDA_CHECK(cudaMemcpy(hu.data(), du, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    double ps = 0;
    for (unsigned v : hu) ps += v;
    printf("poisson(4): mean = %.2f\n", ps / n);
    check_close("poisson mean", fabs(ps / n - 4.0), 1e-2);
    CURAND_CHECK(curandDestroyGenerator(gen));

    // quasi-random: Sobol, one dimension, exactly reproducible
    curandGenerator_t qgen;
    CURAND_CHECK(curandCreateGenerator(&qgen, CURAND_RNG_QUASI_SOBOL32));
    CURAND_CHECK(curandSetQuasiRandomGeneratorDimensions(qgen, 1));
    CURAND_CHECK(curandGenerateUniform(qgen, d, 1024));
    std::vector<float> q(1024);
    CUDA_CHECK(cudaMemcpy(q.data(), d, 1024 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("sobol[0..5] = %.5f %.5f %.5f %.5f %.5f %.5f\n", q[0], q[1], q[2], q[3], q[4], q[5]);
    double qs = 0;
    for (float x : q) qs += x;
    printf("sobol mean of 1024 = %.5f\n", qs / 1024);
    check_close("sobol mean of 1024 points", fabs(qs / 1024 - 0.5), 2e-3);
    CURAND_CHECK(curandDestroyGenerator(qgen));
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(du));
    return finish("curand_host");
}
