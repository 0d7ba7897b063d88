// cufft_c2c.cu - complex-to-complex FFTs as signal-processing code runs them:
// a batched 1D plan (cufftPlanMany), forward then inverse (unnormalised: the
// round trip returns N times the input), a 2D plan (cufftPlan2d), and a
// plan bound to a stream (cufftSetStream); checked against a direct DFT.
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

static void dft(const std::vector<cufftComplex> &in, std::vector<double> &re, std::vector<double> &im, int n, int offset,
                int stride) {
    for (int k = 0; k < n; ++k) {
        double sr = 0, si = 0;
        for (int t = 0; t < n; ++t) {
            const double ang = -2.0 * M_PI * static_cast<double>(k) * t / n;
            const cufftComplex v = in[offset + t * stride];
            sr += v.x * cos(ang) - v.y * sin(ang);
            si += v.x * sin(ang) + v.y * cos(ang);
        }
        re[k] = sr;
        im[k] = si;
    }
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 101)));
    // batched 1D: 16 signals of 240 points (2^4 * 3 * 5: a mixed-radix size)
    const int n = 240, batch = 16;
    std::vector<cufftComplex> h(n * batch), out(n * batch), back(n * batch);
    for (auto &c : h) c = make_cuFloatComplex(rng.symmetric(), rng.symmetric());
    cufftComplex *d;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle plan;
    int dims[1] = {n};
    CUFFT_CHECK(cufftPlanMany(&plan, 1, dims, nullptr, 1, n, nullptr, 1, n, CUFFT_C2C, batch));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUFFT_CHECK(cufftSetStream(plan, stream));
    CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(out.data(), d, out.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    double err = 0.0, scale = 0.0;
    std::vector<double> re(n), im(n);
    for (int b = 0; b < batch; ++b) {
        dft(h, re, im, n, b * n, 1);
        for (int k = 0; k < n; ++k) {
            err = std::max(err, std::max(fabs(out[b * n + k].x - re[k]), fabs(out[b * n + k].y - im[k])));
            scale = std::max(scale, std::max(fabs(re[k]), fabs(im[k])));
        }
    }
    printf("1D forward: X[0] of batch 0 = (%.4f, %.4f)\n", out[0].x, out[0].y);
    check_close("batched 1D forward vs DFT (relative)", err / scale, 1e-5);
    CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(back.data(), d, back.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    err = 0.0;
    for (size_t i = 0; i < h.size(); ++i)
        err = std::max(err, static_cast<double>(std::max(fabsf(back[i].x / n - h[i].x), fabsf(back[i].y / n - h[i].y))));
    check_close("round trip / N", err, 1e-5);
    CUFFT_CHECK(cufftDestroy(plan));

    // 2D: 64 x 48, row-major (nx rows of ny)
    const int nx = 64, ny = 48;
    std::vector<cufftComplex> img(nx * ny), spec(nx * ny);
    for (auto &c : img) c = make_cuFloatComplex(rng.symmetric(), 0.0f);
    cufftComplex *d2;
    CUDA_CHECK(cudaMalloc(&d2, img.size() * sizeof(cufftComplex)));
    CUDA_CHECK(cudaMemcpy(d2, img.data(), img.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle plan2;
    CUFFT_CHECK(cufftPlan2d(&plan2, nx, ny, CUFFT_C2C));
    CUFFT_CHECK(cufftExecC2C(plan2, d2, d2, CUFFT_FORWARD));
    CUDA_CHECK(cudaMemcpy(spec.data(), d2, spec.size() * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
    // reference: rows then columns
    std::vector<cufftComplex> tmp(nx * ny);
    std::vector<double> r(ny), i2(ny), rc(nx), ic(nx);
    for (int x = 0; x < nx; ++x) {
        dft(img, r, i2, ny, x * ny, 1);
        for (int y = 0; y < ny; ++y) tmp[x * ny + y] = make_cuFloatComplex(static_cast<float>(r[y]), static_cast<float>(i2[y]));
    }
    err = 0.0;
    scale = 0.0;
    for (int y = 0; y < ny; ++y) {
        dft(tmp, rc, ic, nx, y, ny);
        for (int x = 0; x < nx; ++x) {
            err = std::max(err, std::max(fabs(spec[x * ny + y].x - rc[x]), fabs(spec[x * ny + y].y - ic[x])));
            scale = std::max(scale, std::max(fabs(rc[x]), fabs(ic[x])));
        }
    }
    printf("2D forward: DC = (%.4f, %.4f)\n", spec[0].x, spec[0].y);
    check_close("2D forward vs DFT (relative)", err / scale, 1e-5);
    CUFFT_CHECK(cufftDestroy(plan2));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(d2));
    return finish("cufft_c2c");
}
