// error_check.cu - the error handling real projects wrap around every call:
// a CUDA_CHECK macro that reports file and line, cudaGetLastError after a
// launch, an invalid launch configuration caught (and cleared), an
// out-of-memory allocation caught, cudaPeekAtLastError vs cudaGetLastError,
// and a kernel that reports a failed precondition through a device flag.
// Error names and strings differ between runtimes, so only the fact that an
// error was caught is printed; the text goes to stderr.
#include "check.cuh"

#define CHECK_RETURN(call, status)                                               \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorString(e_));                                     \
            (status) = e_;                                                       \
        }                                                                        \
    } while (0)

__global__ void checked_divide(const int *a, const int *b, int *out, int n, int *error_flag) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (b[i] == 0) {
        atomicExch(error_flag, i + 1);  // report, like a device-side assert would
        out[i] = 0;
        return;
    }
    out[i] = a[i] / b[i];
}

static const char *yes_no(bool v) { return v ? "yes" : "no"; }

int main() {
    // 1. a launch with too many threads per block: a launch error, no sticky state
    checked_divide<<<1, 4096>>>(nullptr, nullptr, nullptr, 0, nullptr);
    const cudaError_t peek = cudaPeekAtLastError();
    const cudaError_t launch = cudaGetLastError();
    const cudaError_t after = cudaGetLastError();
    fprintf(stderr, "invalid launch: %s\n", cudaGetErrorString(launch));
    printf("invalid configuration caught: %s\n", yes_no(launch == cudaErrorInvalidConfiguration));
    printf("peek saw it too: %s\n", yes_no(peek == launch));
    printf("cleared after get: %s\n", yes_no(after == cudaSuccess));
    check_true("launch error reported and cleared",
               launch == cudaErrorInvalidConfiguration && peek == launch && after == cudaSuccess);

    // 2. an allocation that cannot succeed
    void *huge = nullptr;
    cudaError_t status = cudaSuccess;
    CHECK_RETURN(cudaMalloc(&huge, static_cast<size_t>(1) << 62), status);
    printf("out of memory caught: %s\n", yes_no(status == cudaErrorMemoryAllocation));
    check_true("cudaMalloc failure reported", status == cudaErrorMemoryAllocation);
    (void)cudaGetLastError();  // runtimes differ on whether this error is also recorded
    check_true("no error pending afterwards", cudaGetLastError() == cudaSuccess);

    // 3. error strings exist for every code we use
    check_true("error strings", strlen(cudaGetErrorString(cudaErrorInvalidValue)) > 0 &&
                                    strlen(cudaGetErrorName(cudaErrorMemoryAllocation)) > 0);

    // 4. a precondition failing inside a kernel, reported through a flag
    const int n = 1000;
    int ha[n], hb[n], hout[n];
    for (int i = 0; i < n; ++i) {
        ha[i] = 1000 + i;
        hb[i] = (i == 777) ? 0 : 1 + i % 13;
    }
    int *da, *db, *dout, *dflag;
    CUDA_CHECK(cudaMalloc(&da, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&db, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dflag, sizeof(int)));
    CUDA_CHECK(cudaMemset(dflag, 0, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));
    checked_divide<<<(n + 127) / 128, 128>>>(da, db, dout, n, dflag);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    int flag = 0;
    CUDA_CHECK(cudaMemcpy(&flag, dflag, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += hout[i] != (hb[i] ? ha[i] / hb[i] : 0);
    printf("device flag = %d\n", flag);
    check_true("device precondition flag", flag == 778);
    check_equal("divisions", bad);

    // 5. freeing a null pointer is allowed
    CUDA_CHECK(cudaFree(da));
    status = cudaSuccess;
    CHECK_RETURN(cudaFree(nullptr), status);  // freeing null is allowed
    printf("cudaFree(nullptr) ok: %s\n", yes_no(status == cudaSuccess));
    check_true("cudaFree(nullptr)", status == cudaSuccess);
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dflag));
    return finish("error_check");
}
