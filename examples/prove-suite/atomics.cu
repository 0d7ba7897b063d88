// atomics.cu - the atomic operations real kernels rely on: integer
// add/sub/min/max/and/or/xor, atomicInc's wrap-around, atomicExch, a
// spin lock built on atomicCAS, the classic double atomicAdd emulation with
// atomicCAS (pre-sm_60 code still carries it), and 64-bit counters.
#include "check.cuh"

#include <vector>

__device__ double atomic_add_double_cas(double *address, double val) {
    unsigned long long int *address_as_ull = reinterpret_cast<unsigned long long int *>(address);
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

struct Counters {
    int add;
    int sub;
    int minv;
    int maxv;
    unsigned int and_bits;
    unsigned int or_bits;
    unsigned int xor_bits;
    unsigned int ring;  // atomicInc wraps at 99
    unsigned long long big;
    double dsum;
    int lock;
    int locked_total;
};

__global__ void atomics_kernel(const int *values, int n, Counters *c) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int v = values[i];
    atomicAdd(&c->add, v);
    atomicSub(&c->sub, v);
    atomicMin(&c->minv, v);
    atomicMax(&c->maxv, v);
    atomicAnd(&c->and_bits, ~(1u << (i % 32)) | 0x80000000u);
    atomicOr(&c->or_bits, 1u << (v & 31));
    atomicXor(&c->xor_bits, static_cast<unsigned int>(v));
    atomicInc(&c->ring, 99u);
    atomicAdd(&c->big, static_cast<unsigned long long>(v & 0xffff) << 20);
    atomic_add_double_cas(&c->dsum, 0.5 * v);
    // one thread per block takes the lock (a lock per lane of a warp would
    // deadlock where lanes are not scheduled independently)
    if (threadIdx.x == 0) {
        while (atomicCAS(&c->lock, 0, 1) != 0) {
        }
        __threadfence();
        volatile int *total = &c->locked_total;  // past the L1 cache
        *total = *total + 1;
        __threadfence();
        atomicExch(&c->lock, 0);
    }
}

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 100000));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 3)));
    std::vector<int> h(n);
    Counters ref{};
    ref.minv = INT_MAX;
    ref.maxv = INT_MIN;
    ref.and_bits = 0xffffffffu;
    for (int i = 0; i < n; ++i) {
        h[i] = static_cast<int>(rng.next_u32() % 20001) - 10000;
        ref.add += h[i];
        ref.sub -= h[i];
        ref.minv = std::min(ref.minv, h[i]);
        ref.maxv = std::max(ref.maxv, h[i]);
        ref.and_bits &= ~(1u << (i % 32)) | 0x80000000u;
        ref.or_bits |= 1u << (h[i] & 31);
        ref.xor_bits ^= static_cast<unsigned int>(h[i]);
        ref.ring = (ref.ring >= 99u) ? 0u : ref.ring + 1u;
        ref.big += static_cast<unsigned long long>(h[i] & 0xffff) << 20;
        ref.dsum += 0.5 * h[i];
    }
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    ref.locked_total = blocks;

    Counters init{};
    init.minv = INT_MAX;
    init.maxv = INT_MIN;
    init.and_bits = 0xffffffffu;
    int *d_values;
    Counters *d_c;
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_c, sizeof(Counters)));
    CUDA_CHECK(cudaMemcpy(d_values, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c, &init, sizeof(Counters), cudaMemcpyHostToDevice));
    atomics_kernel<<<blocks, threads>>>(d_values, n, d_c);
    CUDA_CHECK_LAST();
    Counters got{};
    CUDA_CHECK(cudaMemcpy(&got, d_c, sizeof(Counters), cudaMemcpyDeviceToHost));

    printf("add = %d sub = %d min = %d max = %d\n", got.add, got.sub, got.minv, got.maxv);
    printf("and = 0x%08x or = 0x%08x xor = 0x%08x\n", got.and_bits, got.or_bits, got.xor_bits);
    printf("ring = %u big = %llu\n", got.ring, got.big);
    printf("dsum = %.1f locked_total = %d\n", got.dsum, got.locked_total);
    check_equal("add/sub", (got.add != ref.add) + (got.sub != ref.sub));
    check_equal("min/max", (got.minv != ref.minv) + (got.maxv != ref.maxv));
    check_equal("bitwise", (got.and_bits != ref.and_bits) + (got.or_bits != ref.or_bits) +
                               (got.xor_bits != ref.xor_bits));
    check_equal("atomicInc ring", got.ring != ref.ring);
    check_equal("64-bit add", got.big != ref.big);
    check_close("double CAS add", fabs(got.dsum - ref.dsum), 0.0);
    check_equal("spin lock", got.locked_total != ref.locked_total);
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_c));
    return finish("atomics");
}
