// cusparse_spmv.cu - cuSPARSE's generic API as current code uses it
// (cusparseCreateCsr / cusparseCreateDnVec / cusparseSpMV_bufferSize /
// cusparseSpMV) for y = alpha A x + beta y on a CSR matrix, then the same
// matrix transposed (CUSPARSE_OPERATION_TRANSPOSE) and a sparse x dense
// product (cusparseSpMM) with a column-major dense matrix.
#include "check.cuh"

#include <cusparse.h>
#include <vector>

#define CUSPARSE_CHECK(call)                                                                          \
    do {                                                                                              \
        cusparseStatus_t s_ = (call);                                                                 \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                          \
            fprintf(stderr, "%s:%d: cuSPARSE error %d: %s\n", __FILE__, __LINE__, (int)s_,            \
                    cusparseGetErrorString(s_));                                                      \
            exit(EXIT_FAILURE);                                                                       \
        }                                                                                             \
    } while (0)

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 163)));
    const int rows = 2000, cols = 1500;
    std::vector<int> row_ptr(rows + 1, 0), col_idx;
    std::vector<float> val;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (rng.next_u32() % 100 < 2 || c == r % cols) {
                col_idx.push_back(c);
                val.push_back(static_cast<float>(static_cast<int>(rng.next_u32() % 17) - 8) / 4.0f);
            }
        }
        row_ptr[r + 1] = static_cast<int>(col_idx.size());
    }
    const int nnz = static_cast<int>(val.size());
    std::vector<float> x(cols), y(rows), xt(rows), yt(cols);
    for (auto &v : x) v = static_cast<float>(static_cast<int>(rng.next_u32() % 9) - 4) / 2.0f;
    for (auto &v : y) v = static_cast<float>(static_cast<int>(rng.next_u32() % 9) - 4) / 2.0f;
    for (auto &v : xt) v = static_cast<float>(static_cast<int>(rng.next_u32() % 9) - 4) / 2.0f;
    const float alpha = 2.0f, beta = -1.0f;
    std::vector<float> ref(rows), reft(cols, 0.0f);
    for (int r = 0; r < rows; ++r) {
        float s = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col_idx[k]];
        ref[r] = alpha * s + beta * y[r];
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) reft[col_idx[k]] += val[k] * xt[r];
    }
    int *d_rp, *d_ci;
    float *d_val, *d_x, *d_y, *d_xt, *d_yt;
    CUDA_CHECK(cudaMalloc(&d_rp, (rows + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_ci, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_val, nnz * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_x, cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_xt, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_yt, cols * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_rp, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ci, col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_val, val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, y.data(), rows * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_xt, xt.data(), rows * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_yt, 0, cols * sizeof(float)));

    cusparseHandle_t handle;
    CUSPARSE_CHECK(cusparseCreate(&handle));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy, vxt, vyt;
    CUSPARSE_CHECK(cusparseCreateCsr(&A, rows, cols, nnz, d_rp, d_ci, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vx, cols, d_x, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vxt, rows, d_xt, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vyt, cols, d_yt, CUDA_R_32F));
    size_t bytes = 0, bytes_t = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    const float one = 1.0f, zero = 0.0f;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_TRANSPOSE, &one, A, vxt, &zero, vyt, CUDA_R_32F,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &bytes_t));
    void *buffer = nullptr;
    CUDA_CHECK(cudaMalloc(&buffer, std::max<size_t>(std::max(bytes, bytes_t), 1)));
    CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_TRANSPOSE, &one, A, vxt, &zero, vyt, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(rows), gott(cols);
    CUDA_CHECK(cudaMemcpy(got.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gott.data(), d_yt, cols * sizeof(float), cudaMemcpyDeviceToHost));
    printf("rows = %d cols = %d nnz = %d\n", rows, cols, nnz);
    printf("spmv checksum = %.3f\n", weighted_checksum(got.data(), rows));
    printf("spmv^T checksum = %.3f\n", weighted_checksum(gott.data(), cols));
    check_close("cusparseSpMV", max_abs_diff(got.data(), ref.data(), rows), 0.0);  // exact: quarter-integers
    check_close("cusparseSpMV transpose", max_abs_diff(gott.data(), reft.data(), cols), 0.0);

    // SpMM: C (rows x 8) = A B, B (cols x 8) column-major
    const int k = 8;
    std::vector<float> B(cols * k), C(rows * k, 0.0f), refc(rows * k, 0.0f);
    for (auto &v : B) v = static_cast<float>(static_cast<int>(rng.next_u32() % 5) - 2);
    for (int r = 0; r < rows; ++r)
        for (int j = 0; j < k; ++j) {
            float s = 0.0f;
            for (int p = row_ptr[r]; p < row_ptr[r + 1]; ++p) s += val[p] * B[col_idx[p] + j * cols];
            refc[r + j * rows] = s;
        }
    float *d_B, *d_C;
    CUDA_CHECK(cudaMalloc(&d_B, B.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_C, C.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_B, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_C, 0, C.size() * sizeof(float)));
    cusparseDnMatDescr_t mB, mC;
    CUSPARSE_CHECK(cusparseCreateDnMat(&mB, cols, k, cols, d_B, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CUSPARSE_CHECK(cusparseCreateDnMat(&mC, rows, k, rows, d_C, CUDA_R_32F, CUSPARSE_ORDER_COL));
    size_t bytes_mm = 0;
    CUSPARSE_CHECK(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                           A, mB, &zero, mC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &bytes_mm));
    void *buffer_mm = nullptr;
    CUDA_CHECK(cudaMalloc(&buffer_mm, std::max<size_t>(bytes_mm, 1)));
    CUSPARSE_CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, mB,
                                &zero, mC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer_mm));
    CUDA_CHECK(cudaMemcpy(C.data(), d_C, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    printf("spmm checksum = %.3f\n", weighted_checksum(C.data(), C.size()));
    check_close("cusparseSpMM", max_abs_diff(C.data(), refc.data(), C.size()), 0.0);

    CUSPARSE_CHECK(cusparseDestroySpMat(A));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vxt));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vyt));
    CUSPARSE_CHECK(cusparseDestroyDnMat(mB));
    CUSPARSE_CHECK(cusparseDestroyDnMat(mC));
    CUSPARSE_CHECK(cusparseDestroy(handle));
    CUDA_CHECK(cudaFree(buffer));
    CUDA_CHECK(cudaFree(buffer_mm));
    CUDA_CHECK(cudaFree(d_rp));
    CUDA_CHECK(cudaFree(d_ci));
    CUDA_CHECK(cudaFree(d_val));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_xt));
    CUDA_CHECK(cudaFree(d_yt));
    CUDA_CHECK(cudaFree(d_B));
    CUDA_CHECK(cudaFree(d_C));
    return finish("cusparse_spmv");
}
