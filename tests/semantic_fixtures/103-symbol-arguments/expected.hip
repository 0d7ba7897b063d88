#include <hip/hip_runtime.h>

// HIP_SYMBOL() only where CUDA takes the variable itself: a helper that
// receives the symbol's address (const void*) passes it on as an address,
// which HIP's NVIDIA backend would break by taking its address again.
__constant__ float c_table[32];
__device__ float* d_cursor;

hipError_t upload(const void* symbol, const float* values, size_t bytes)
{
    return hipMemcpyToSymbol(symbol, values, bytes);
}

hipError_t download(float* values, const void* symbol, size_t bytes)
{
    return hipMemcpyFromSymbol(values, symbol, bytes);
}

int main()
{
    float values[32] = {};
    upload(&c_table, values, sizeof(values));
    hipMemcpyToSymbol(HIP_SYMBOL(c_table), values, sizeof(values));
    float* start = nullptr;
    hipMemcpyToSymbol(HIP_SYMBOL(d_cursor), &start, sizeof(start));
    download(values, &c_table, sizeof(values));
    return 0;
}
