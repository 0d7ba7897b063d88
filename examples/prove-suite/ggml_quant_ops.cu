// ggml_quant_ops.cu - drives ggml's quantisation and element-wise CUDA
// kernels (verbatim in ggml_cuda_kernels.cuh, from ctransformers 0.2.27's
// vendored ggml-cuda.cu; MIT, see that file): quantize_q8_1 (per-32-block
// absmax with width-32 warp shuffles, half2 scale and sum), the q4_0 and q8_0
// dequantizers through the templated dequantize_block, gelu_f32, silu_f32,
// add_f32 / mul_f32 with broadcasting, and rope_f32 (rotary embeddings).
// Blocks are quantised on the host as ggml's reference quantizers do. The
// harness (this file) is written here.
#include "check.cuh"
#include "ggml_cuda_kernels.cuh"

#include <vector>

static float h2f(half h) { return __half2float(h); }

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 131)));
    cudaStream_t stream = 0;

    // quantize_q8_1: 16 rows of 4096 values (no padding)
    const int kx = 4096, ky = 16, n = kx * ky, nb = n / QK8_1;
    std::vector<float> x(n);
    for (auto &v : x) v = 4.0f * rng.symmetric();
    float *dx;
    block_q8_1 *dq;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dq, nb * sizeof(block_q8_1)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    quantize_row_q8_1_cuda(dx, dq, kx, ky, kx, stream);
    CUDA_CHECK_LAST();
    std::vector<block_q8_1> q(nb);
    CUDA_CHECK(cudaMemcpy(q.data(), dq, nb * sizeof(block_q8_1), cudaMemcpyDeviceToHost));
    double q_err = 0.0, d_err = 0.0, s_err = 0.0;
    long long qsum = 0;
    for (int b = 0; b < nb; ++b) {
        half ds[2];
        memcpy(ds, &q[b].ds, sizeof(ds));
        const float d = h2f(ds[0]);
        float amax = 0.0f, sum = 0.0f;
        for (int k = 0; k < QK8_1; ++k) {
            amax = std::max(amax, fabsf(x[b * QK8_1 + k]));
            sum += x[b * QK8_1 + k];
        }
        d_err = std::max(d_err, static_cast<double>(fabsf(d - amax / 127) / (amax / 127)));
        s_err = std::max(s_err, static_cast<double>(fabsf(h2f(ds[1]) - sum)));
        for (int k = 0; k < QK8_1; ++k) {
            q_err = std::max(q_err, static_cast<double>(fabsf(q[b].qs[k] * (amax / 127) - x[b * QK8_1 + k])));
            qsum += q[b].qs[k] * (k + 1);
        }
    }
    printf("q8_1: weighted sum of quants = %lld\n", qsum);
    check_close("q8_1 scale = amax/127 (half)", d_err, 1e-3);
    check_close("q8_1 sum (half)", s_err, 0.05);
    check_close("q8_1 round-off within d/2", q_err, 4.0 / 127 * 0.5 + 1e-6);

    // q4_0 and q8_0 blocks made on the host, dequantised on the device
    const int k4 = 8192, nb4 = k4 / QK4_0;
    std::vector<block_q4_0> b4(nb4);
    std::vector<block_q8_0> b8(nb4);
    std::vector<float> ref4(k4), ref8(k4);
    for (int b = 0; b < nb4; ++b) {
        const float d = static_cast<float>(1 + rng.next_u32() % 16) / 64.0f;  // exact in half
        b4[b].d = __float2half(d);
        b8[b].d = __float2half(d);
        for (int j = 0; j < QK4_0 / 2; ++j) {
            const uint8_t lo = rng.next_u32() & 0xF, hi = rng.next_u32() & 0xF;
            b4[b].qs[j] = static_cast<uint8_t>(lo | (hi << 4));
            ref4[b * QK4_0 + j] = (static_cast<int>(lo) - 8) * d;
            ref4[b * QK4_0 + j + QK4_0 / 2] = (static_cast<int>(hi) - 8) * d;
        }
        for (int j = 0; j < QK8_0; ++j) {
            b8[b].qs[j] = static_cast<int8_t>(static_cast<int>(rng.next_u32() % 255) - 127);
            ref8[b * QK8_0 + j] = b8[b].qs[j] * d;
        }
    }
    block_q4_0 *d4;
    block_q8_0 *d8;
    float *dy;
    CUDA_CHECK(cudaMalloc(&d4, nb4 * sizeof(block_q4_0)));
    CUDA_CHECK(cudaMalloc(&d8, nb4 * sizeof(block_q8_0)));
    CUDA_CHECK(cudaMalloc(&dy, k4 * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d4, b4.data(), nb4 * sizeof(block_q4_0), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d8, b8.data(), nb4 * sizeof(block_q8_0), cudaMemcpyHostToDevice));
    std::vector<float> y(k4);
    dequantize_row_q4_0_cuda(d4, dy, k4, stream);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(y.data(), dy, k4 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("q4_0 dequantised checksum = %.4f\n", weighted_checksum(y.data(), k4));
    check_close("dequantize q4_0", max_abs_diff(y.data(), ref4.data(), k4), 0.0);
    dequantize_row_q8_0_cuda(d8, dy, k4, stream);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(y.data(), dy, k4 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("q8_0 dequantised checksum = %.4f\n", weighted_checksum(y.data(), k4));
    check_close("dequantize q8_0", max_abs_diff(y.data(), ref8.data(), k4), 0.0);

    // element-wise: gelu, silu, add and mul with a broadcast row
    const int ne = 1 << 16, row = 256;
    std::vector<float> a(ne), brow(row), out(ne);
    for (auto &v : a) v = 6.0f * rng.symmetric();
    for (auto &v : brow) v = rng.symmetric();
    float *da, *db, *dout;
    CUDA_CHECK(cudaMalloc(&da, ne * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, row * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, ne * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(da, a.data(), ne * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, brow.data(), row * sizeof(float), cudaMemcpyHostToDevice));
    double err = 0.0;
    gelu_f32_cuda(da, dout, ne, stream);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, ne * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < ne; ++i) {
        const double v = a[i];
        const double g = 0.5 * v * (1.0 + tanh(0.7978845608028654 * v * (1.0 + 0.044715 * v * v)));
        err = std::max(err, fabs(out[i] - g));
    }
    printf("gelu_f32 checksum = %.4f\n", weighted_checksum(out.data(), ne));
    check_close("gelu_f32", err, 1e-5);
    silu_f32_cuda(da, dout, ne, stream);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, ne * sizeof(float), cudaMemcpyDeviceToHost));
    err = 0.0;
    for (int i = 0; i < ne; ++i) err = std::max(err, fabs(out[i] - a[i] / (1.0 + exp(-static_cast<double>(a[i])))));
    printf("silu_f32 checksum = %.4f\n", weighted_checksum(out.data(), ne));
    check_close("silu_f32", err, 1e-5);
    add_f32_cuda(da, db, dout, ne, row, stream);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, ne * sizeof(float), cudaMemcpyDeviceToHost));
    err = 0.0;
    for (int i = 0; i < ne; ++i) err = std::max(err, static_cast<double>(fabsf(out[i] - (a[i] + brow[i % row]))));
    check_close("add_f32 broadcast", err, 0.0);
    mul_f32_cuda(da, db, dout, ne, row, stream);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, ne * sizeof(float), cudaMemcpyDeviceToHost));
    err = 0.0;
    for (int i = 0; i < ne; ++i) err = std::max(err, static_cast<double>(fabsf(out[i] - a[i] * brow[i % row])));
    check_close("mul_f32 broadcast", err, 0.0);

    // rope: 32 rows (positions 5..36) of 128 dims
    const int rncols = 128, rnrows = 32;
    const float p0 = 5.0f, theta_scale = powf(10000.0f, -2.0f / rncols);
    std::vector<float> rx(rncols * rnrows), ry(rncols * rnrows);
    for (auto &v : rx) v = rng.symmetric();
    float *drx, *dry;
    CUDA_CHECK(cudaMalloc(&drx, rx.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dry, ry.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(drx, rx.data(), rx.size() * sizeof(float), cudaMemcpyHostToDevice));
    rope_f32_cuda(drx, dry, rncols, rnrows, p0, 1.0f, 1, theta_scale, stream);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(ry.data(), dry, ry.size() * sizeof(float), cudaMemcpyDeviceToHost));
    err = 0.0;
    for (int r = 0; r < rnrows; ++r)
        for (int c = 0; c < rncols; c += 2) {
            const double theta = (p0 + r) * pow(static_cast<double>(theta_scale), c / 2);
            const double x0 = rx[r * rncols + c], x1 = rx[r * rncols + c + 1];
            err = std::max(err, fabs(ry[r * rncols + c] - (x0 * cos(theta) - x1 * sin(theta))));
            err = std::max(err, fabs(ry[r * rncols + c + 1] - (x0 * sin(theta) + x1 * cos(theta))));
        }
    printf("rope_f32 checksum = %.4f\n", weighted_checksum(ry.data(), ry.size()));
    check_close("rope_f32", err, 2e-5);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dq));
    CUDA_CHECK(cudaFree(d4));
    CUDA_CHECK(cudaFree(d8));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(drx));
    CUDA_CHECK(cudaFree(dry));
    return finish("ggml_quant_ops");
}
