// main.cu - a test driver (written here) for DeepSpeed's transformer GELU
// kernels, csrc/transformer/gelu_kernels.cu of DeepSpeed 0.19.8 (Apache-2.0,
// copied unchanged beside this file): launch_gelu, launch_bias_gelu and
// launch_d_gelu for float and __half, with the BERT-large intermediate size
// (4096) that the kernels' launch heuristic was written for, checked against
// a double-precision reference of the same tanh approximation.
#include "custom_cuda_layers.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                     \
    do {                                                                                     \
        cudaError_t e = (call);                                                              \
        if (e != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));       \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

static int failures = 0;

static void report(const char* what, double err, double tol)
{
    const bool ok = err <= tol;
    printf("check %s: %s (max_err %.3e, tol %.0e)\n", what, ok ? "PASS" : "FAIL", err, tol);
    if (!ok) ++failures;
}

static double gelu_ref(double x)
{
    return x * 0.5 * (1.0 + tanh(0.79788456080286535587989211986876 * (x + 0.044715 * x * x * x)));
}

static double d_gelu_ref(double x)
{
    const double s = 0.79788456080286535587989211986876, m = 0.044715;
    const double x2mul = x * x * m;
    const double t = tanh(s * (x + x * x2mul));
    return 0.5 * (1.0 + t) + x * 0.5 * s * (1 - t * t) + x * 0.5 * s * (1 - t * t) * 3 * x2mul;
}

static uint64_t rng_state;
static float next_symmetric()
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<float>(static_cast<uint32_t>(rng_state >> 40)) / 8388608.0f - 1.0f;
}

int main(int argc, char** argv)
{
    rng_state = argc > 2 ? strtoull(argv[2], nullptr, 10) : 157;  // --seed N
    const int batch = 64, inter = 4096, n = batch * inter;
    std::vector<float> x(n), bias(inter), dy(n), out(n);
    for (auto& v : x) v = 4.0f * next_symmetric();
    for (auto& v : bias) v = 0.5f * next_symmetric();
    for (auto& v : dy) v = next_symmetric();
    float *dx, *dbias, *dout, *dgrad;
    CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dbias, inter * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dgrad, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dbias, bias.data(), inter * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dgrad, dy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    launch_gelu<float>(dx, dout, inter, batch, stream);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    double err = 0, sum = 0;
    for (int i = 0; i < n; ++i) {
        err = std::fmax(err, std::fabs(out[i] - gelu_ref(x[i])));
        sum += out[i];
    }
    printf("gelu float: sum = %.3f\n", sum);
    report("launch_gelu<float>", err, 1e-5);

    launch_bias_gelu<float>(dx, dbias, dout, inter, batch, stream);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    err = 0;
    sum = 0;
    for (int i = 0; i < n; ++i) {
        err = std::fmax(err, std::fabs(out[i] - gelu_ref(x[i] + bias[i % inter])));
        sum += out[i];
    }
    printf("bias gelu float: sum = %.3f\n", sum);
    report("launch_bias_gelu<float>", err, 1e-5);

    launch_d_gelu<float>(dgrad, dx, dbias, inter, batch, stream);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(out.data(), dgrad, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    err = 0;
    sum = 0;
    for (int i = 0; i < n; ++i) {
        err = std::fmax(err, std::fabs(out[i] - dy[i] * d_gelu_ref(x[i] + bias[i % inter])));
        sum += out[i];
    }
    printf("d_gelu float: sum = %.3f\n", sum);
    report("launch_d_gelu<float>", err, 1e-5);

    // half precision: inputs rounded to half, results compared in half's precision
    std::vector<__half> hx(n), hb(inter), hout(n);
    for (int i = 0; i < n; ++i) hx[i] = __float2half(x[i]);
    for (int i = 0; i < inter; ++i) hb[i] = __float2half(bias[i]);
    __half *dhx, *dhb, *dhout;
    CHECK_CUDA(cudaMalloc(&dhx, n * sizeof(__half)));
    CHECK_CUDA(cudaMalloc(&dhb, inter * sizeof(__half)));
    CHECK_CUDA(cudaMalloc(&dhout, n * sizeof(__half)));
    CHECK_CUDA(cudaMemcpy(dhx, hx.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dhb, hb.data(), inter * sizeof(__half), cudaMemcpyHostToDevice));
    launch_bias_gelu<__half>(dhx, dhb, dhout, inter, batch, stream);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(hout.data(), dhout, n * sizeof(__half), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    err = 0;
    sum = 0;
    for (int i = 0; i < n; ++i) {
        const double in = static_cast<double>(__half2float(hx[i])) + __half2float(hb[i % inter]);
        const double ref = gelu_ref(in);
        const double got = __half2float(hout[i]);
        err = std::fmax(err, std::fabs(got - ref) / std::fmax(std::fabs(ref), 1.0));
        sum += got;
    }
    printf("bias gelu half: sum = %.2f\n", sum);
    report("launch_bias_gelu<__half>", err, 2e-3);

    CHECK_CUDA(cudaStreamDestroy(stream));
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dbias));
    CHECK_CUDA(cudaFree(dout));
    CHECK_CUDA(cudaFree(dgrad));
    CHECK_CUDA(cudaFree(dhx));
    CHECK_CUDA(cudaFree(dhb));
    CHECK_CUDA(cudaFree(dhout));
    printf("deepspeed_gelu: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
