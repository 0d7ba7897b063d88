// cufft_r2c.cu - real-to-complex and back (R2C / C2R), the pair behind
// FFT convolution: forward both signals, multiply spectra, inverse, divide
// by N; checked against a direct circular convolution. Also a double
// precision D2Z plan (cufftPlan1d with CUFFT_D2Z) for Parseval's identity.
#include "check.cuh"

#include <cufft.h>
#include <vector>

#define CUFFT_CHECK(call)                                                                \
    do {                                                                                 \
        cufftResult r_ = (call);                                                         \
        if (r_ != CUFFT_SUCCESS) {                                                       \
            fprintf(stderr, "%s:%d: cuFFT error %d\n", __FILE__, __LINE__, (int)r_);     \
            exit(EXIT_FAILURE);                                                          \
        }                                                                                \
    } while (0)

__global__ void multiply_spectra(cufftComplex *a, const cufftComplex *b, int n, float scale) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const cufftComplex x = a[i], y = b[i];
        a[i] = make_cuFloatComplex((x.x * y.x - x.y * y.y) * scale, (x.x * y.y + x.y * y.x) * scale);
    }
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 103)));
    const int n = 1024, nc = n / 2 + 1;
    std::vector<float> sig(n), ker(n, 0.0f), conv(n);
    for (auto &v : sig) v = rng.symmetric();
    for (int i = 0; i < 9; ++i) ker[i] = 1.0f / 9.0f;  // box filter
    float *dsig, *dker;
    cufftComplex *fsig, *fker;
    CUDA_CHECK(cudaMalloc(&dsig, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dker, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&fsig, nc * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMalloc(&fker, nc * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMemcpy(dsig, sig.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dker, ker.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cufftHandle r2c, c2r;
    CUFFT_CHECK(cufftPlan1d(&r2c, n, CUFFT_R2C, 1));
    CUFFT_CHECK(cufftPlan1d(&c2r, n, CUFFT_C2R, 1));
    CUFFT_CHECK(cufftExecR2C(r2c, dsig, fsig));
    CUFFT_CHECK(cufftExecR2C(r2c, dker, fker));
    std::vector<cufftComplex> spec(nc);
    CUDA_CHECK(cudaMemcpy(spec.data(), fsig, nc * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    double dc = 0.0;
    for (float v : sig) dc += v;
    printf("R2C: DC = %.4f (imag %.1f), Nyquist imag = %.1f\n", spec[0].x, fabs(spec[0].y), fabs(spec[nc - 1].y));
    check_close("DC term equals the sum", fabs(spec[0].x - dc), 1e-4);
    multiply_spectra<<<(nc + 255) / 256, 256>>>(fsig, fker, nc, 1.0f / n);
    CUDA_CHECK_LAST();
    CUFFT_CHECK(cufftExecC2R(c2r, fsig, dsig));
    CUDA_CHECK(cudaMemcpy(conv.data(), dsig, n * sizeof(float), cudaMemcpyDeviceToHost));
    double err = 0.0;
    for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int k = 0; k < 9; ++k) s += sig[(i - k + n) % n] / 9.0;
        err = std::max(err, fabs(conv[i] - s));
    }
    printf("convolution checksum = %.4f\n", weighted_checksum(conv.data(), n));
    check_close("FFT circular convolution", err, 1e-5);

    // double precision, Parseval: sum |x|^2 = (1/N) sum |X|^2 over the full spectrum
    const int m = 2000;
    std::vector<double> xd(m);
    for (auto &v : xd) v = rng.symmetric();
    double *dxd;
    cufftDoubleComplex *fxd;
    CUDA_CHECK(cudaMalloc(&dxd, m * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&fxd, (m / 2 + 1) * sizeof(cufftDoubleComplex)));
    CUDA_CHECK(cudaMemcpy(dxd, xd.data(), m * sizeof(double), cudaMemcpyHostToDevice));
    cufftHandle d2z;
    CUFFT_CHECK(cufftPlan1d(&d2z, m, CUFFT_D2Z, 1));
    CUFFT_CHECK(cufftExecD2Z(d2z, dxd, fxd));
    std::vector<cufftDoubleComplex> X(m / 2 + 1);
    CUDA_CHECK(cudaMemcpy(X.data(), fxd, X.size() * sizeof(cufftDoubleComplex), cudaMemcpyDeviceToHost));
    double time_energy = 0, freq_energy = 0;
    for (double v : xd) time_energy += v * v;
    for (int k = 0; k <= m / 2; ++k) {
        const double e = X[k].x * X[k].x + X[k].y * X[k].y;
        freq_energy += (k == 0 || k == m / 2) ? e : 2.0 * e;  // the other half is the mirror image
    }
    freq_energy /= m;
    printf("energy = %.8f\n", time_energy);
    check_close("Parseval (double)", fabs(freq_energy - time_energy) / time_energy, 1e-12);
    CUFFT_CHECK(cufftDestroy(r2c));
    CUFFT_CHECK(cufftDestroy(c2r));
    CUFFT_CHECK(cufftDestroy(d2z));
    CUDA_CHECK(cudaFree(dsig));
    CUDA_CHECK(cudaFree(dker));
    CUDA_CHECK(cudaFree(fsig));
    CUDA_CHECK(cudaFree(fker));
    CUDA_CHECK(cudaFree(dxd));
    CUDA_CHECK(cudaFree(fxd));
    return finish("cufft_r2c");
}
