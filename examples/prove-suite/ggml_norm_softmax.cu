// ggml_norm_softmax.cu - drives ggml's own CUDA kernels (excerpted verbatim in
// ggml_cuda_kernels.cuh, from ctransformers 0.2.27's vendored ggml-cuda.cu;
// MIT, see that file) through their launchers as ggml's graph does for a
// transformer layer: layer norm (norm_f32), RMS norm (rms_norm_f32), and the
// attention-score path scale_f32 -> diag_mask_inf_f32 -> soft_max_f32.
// Those kernels reduce with width-32 __shfl_xor_sync over one 32-thread
// block per row. The harness (this file) is written here.
#include "check.cuh"
#include "ggml_cuda_kernels.cuh"

#include <vector>

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 127)));
    const int nrows = 64, ncols = 4096;  // 64 tokens of a 4096-wide hidden state
    const int n = nrows * ncols;
    std::vector<float> x(n), out(n), ref(n);
    for (auto &v : x) v = 3.0f * rng.symmetric() + 0.5f;
    float *dx, *dout;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    norm_f32_cuda(dx, dout, ncols, nrows, stream);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpyAsync(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int r = 0; r < nrows; ++r) {
        double mean = 0, var = 0;
        for (int c = 0; c < ncols; ++c) mean += x[r * ncols + c];
        mean /= ncols;
        for (int c = 0; c < ncols; ++c) var += (x[r * ncols + c] - mean) * (x[r * ncols + c] - mean);
        var /= ncols;
        for (int c = 0; c < ncols; ++c) ref[r * ncols + c] = static_cast<float>((x[r * ncols + c] - mean) / sqrt(var + 1e-5));
    }
    printf("norm_f32: out[0][0..2] = %.4f %.4f %.4f\n", out[0], out[1], out[2]);
    check_close("norm_f32", max_abs_diff(out.data(), ref.data(), n), 1e-3);

    const float eps = 1e-6f;
    rms_norm_f32_cuda(dx, dout, ncols, nrows, eps, stream);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpyAsync(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int r = 0; r < nrows; ++r) {
        double ss = 0;
        for (int c = 0; c < ncols; ++c) ss += static_cast<double>(x[r * ncols + c]) * x[r * ncols + c];
        const double scale = 1.0 / sqrt(ss / ncols + eps);
        for (int c = 0; c < ncols; ++c) ref[r * ncols + c] = static_cast<float>(x[r * ncols + c] * scale);
    }
    printf("rms_norm_f32: checksum = %.3f\n", weighted_checksum(out.data(), n));
    check_close("rms_norm_f32", max_abs_diff(out.data(), ref.data(), n), 1e-4);

    // attention scores of 8 heads, 128 queries x 160 keys (32 cached), causal mask
    const int heads = 8, nq = 128, nk = 160, n_past = 32, head_dim = 64;
    const int m = heads * nq * nk;
    std::vector<float> kq(m), probs(m), pref(m);
    for (auto &v : kq) v = 8.0f * rng.symmetric();
    float *dkq, *dtmp;
    CUDA_CHECK(cudaMalloc(&dkq, m * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dtmp, m * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dkq, kq.data(), m * sizeof(float), cudaMemcpyHostToDevice));
    const float kq_scale = 1.0f / sqrtf(static_cast<float>(head_dim));
    scale_f32_cuda(dkq, dtmp, kq_scale, m, stream);
    diag_mask_inf_f32_cuda(dtmp, dkq, nk, heads * nq, nq, n_past, stream);
    soft_max_f32_cuda(dkq, dtmp, nk, heads * nq, stream);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpyAsync(probs.data(), dtmp, m * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double row_sum_err = 0.0, masked_mass = 0.0;
    for (int row = 0; row < heads * nq; ++row) {
        const int q = row % nq;
        double mx = -1e30, s = 0, rs = 0;
        for (int c = 0; c <= n_past + q && c < nk; ++c) mx = std::max(mx, static_cast<double>(kq[row * nk + c] * kq_scale));
        for (int c = 0; c < nk; ++c) {
            const bool visible = c <= n_past + q;
            const double e = visible ? exp(kq[row * nk + c] * kq_scale - mx) : 0.0;
            pref[row * nk + c] = static_cast<float>(e);
            s += e;
            if (!visible) masked_mass += probs[row * nk + c];
            rs += probs[row * nk + c];
        }
        for (int c = 0; c < nk; ++c) pref[row * nk + c] = static_cast<float>(pref[row * nk + c] / s);
        row_sum_err = std::max(row_sum_err, fabs(rs - 1.0));
    }
    printf("soft_max_f32: p[0][0..1] = %.5f %.5f p[last][0] = %.6f\n", probs[0], probs[1], probs[(heads * nq - 1) * nk]);
    check_close("soft_max_f32 vs reference", max_abs_diff(probs.data(), pref.data(), m), 1e-5);
    check_close("rows sum to one", row_sum_err, 1e-5);
    check_close("masked positions get no mass", masked_mass, 0.0);
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dkq));
    CUDA_CHECK(cudaFree(dtmp));
    return finish("ggml_norm_softmax");
}
