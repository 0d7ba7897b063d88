#include <cuda_runtime.h>
#include <cstddef>
#include <cstdlib>

// Project declarations that happen to have CUDA API names: only the clang
// engine knows these uses are the project's, and leaves them alone.
namespace sim {
typedef int cudaStream_t;  // the simulator's own stream handle
inline int cudaStreamCreate(cudaStream_t* s) { *s = 42; return 0; }
inline void run() { cudaStream_t s; cudaStreamCreate(&s); }
}

struct HostPool {
    void* cudaMalloc(std::size_t bytes) { return std::malloc(bytes); }
    void* grab() { return cudaMalloc(64); }
};

int copy_kind(int cudaMemcpyHostToDevice)
{
    return cudaMemcpyHostToDevice + 1;
}

int main()
{
    sim::run();
    HostPool pool;
    void* host = pool.grab();
    void* device = nullptr;
    cudaMalloc(&device, 64);
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream);
    cudaStreamDestroy(stream);
    cudaFree(device);
    std::free(host);
    return copy_kind(1);
}
