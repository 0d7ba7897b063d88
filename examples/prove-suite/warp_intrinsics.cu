// warp_intrinsics.cu - warp-level primitives as stream-compaction and
// top-k code uses them: __ballot_sync + __popc for a warp-aggregated atomic
// (one atomicAdd per warp, each lane's slot from the prefix of the ballot),
// __any_sync / __all_sync, __activemask, __shfl_sync broadcast, and the bit
// intrinsics __ffs, __clz, __brev, __popcll.
#include "check.cuh"

#include <vector>

// stream compaction with warp-aggregated atomics (order within the output
// depends on scheduling, so the output is sorted before comparing)
__global__ void compact_positive(const int *in, int n, int *out, int *out_count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const bool keep = i < n && in[i] > 0;
    const unsigned mask = __ballot_sync(0xffffffffu, keep);
    const int warp_count = __popc(mask);
    int base = 0;
    if (lane == 0 && warp_count) base = atomicAdd(out_count, warp_count);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) {
        const int rank = __popc(mask & ((1u << lane) - 1u));
        out[base + rank] = in[i];
    }
}

__global__ void vote_flags(const int *in, int *any_out, int *all_out, int *ballot_out, int *first_out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int warp = i / 32;
    const int v = in[i];
    const int any = __any_sync(0xffffffffu, v > 900);
    const int all = __all_sync(0xffffffffu, v >= 0);
    const unsigned ballot = __ballot_sync(0xffffffffu, v % 3 == 0);
    if ((threadIdx.x & 31) == 0) {
        any_out[warp] = any;
        all_out[warp] = all;
        ballot_out[warp] = static_cast<int>(__popc(ballot));
        first_out[warp] = __ffs(ballot);  // 1-based lane of the first multiple of 3, 0 if none
    }
}

__global__ void bit_ops(const unsigned *in, unsigned *clz, unsigned *brev, unsigned *popll, unsigned *active, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        clz[i] = __clz(in[i]);
        brev[i] = __brev(in[i]);
        popll[i] = __popcll((static_cast<unsigned long long>(in[i]) << 32) | (in[i] ^ 0xdeadbeefu));
        active[i] = __popc(__activemask());  // every lane of a full warp is active here
    }
}

static int host_clz(unsigned x) {
    int c = 0;
    for (int b = 31; b >= 0 && !((x >> b) & 1u); --b) ++c;
    return c;
}
static unsigned host_brev(unsigned x) {
    unsigned r = 0;
    for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
    return r;
}
static int host_pop(unsigned long long x) {
    int c = 0;
    while (x) {
        c += static_cast<int>(x & 1ull);
        x >>= 1;
    }
    return c;
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 79)));
    const int n = 1 << 16;
    std::vector<int> h(n);
    for (auto &v : h) v = static_cast<int>(rng.next_u32() % 1001) - 200;
    int *din, *dout, *dcount;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dcount, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dcount, 0, sizeof(int)));
    compact_positive<<<n / 256, 256>>>(din, n, dout, dcount);
    CUDA_CHECK_LAST();
    int count = 0;
    CUDA_CHECK(cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> got(count), ref;
    CUDA_CHECK(cudaMemcpy(got.data(), dout, count * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v : h)
        if (v > 0) ref.push_back(v);
    std::sort(got.begin(), got.end());
    std::sort(ref.begin(), ref.end());
    printf("kept %d of %d\n", count, n);
    check_equal("warp-aggregated compaction", count != static_cast<int>(ref.size()) || got != ref);

    const int warps = n / 32;
    int *dany, *dall, *dballot, *dfirst;
    CUDA_CHECK(cudaMalloc(&dany, warps * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dall, warps * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dballot, warps * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dfirst, warps * sizeof(int)));
    vote_flags<<<n / 128, 128>>>(din, dany, dall, dballot, dfirst);
    CUDA_CHECK_LAST();
    std::vector<int> any(warps), all(warps), bal(warps), first(warps);
    CUDA_CHECK(cudaMemcpy(any.data(), dany, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(all.data(), dall, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(bal.data(), dballot, warps * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(first.data(), dfirst, warps * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0, any_total = 0, all_total = 0, ballot_total = 0;
    for (int w = 0; w < warps; ++w) {
        int a = 0, l = 1, b = 0, f = 0;
        for (int k = 0; k < 32; ++k) {
            const int v = h[w * 32 + k];
            a |= v > 900;
            l &= v >= 0;
            if (v % 3 == 0) {
                ++b;
                if (!f) f = k + 1;
            }
        }
        bad += (any[w] != 0) != (a != 0);
        bad += (all[w] != 0) != (l != 0);
        bad += bal[w] != b;
        bad += first[w] != f;
        any_total += any[w] != 0;
        all_total += all[w] != 0;
        ballot_total += bal[w];
    }
    printf("warps with any = %lld all = %lld ballot bits = %lld\n", any_total, all_total, ballot_total);
    check_equal("votes per 32-lane warp", bad);

    std::vector<unsigned> u(n);
    for (auto &v : u) v = rng.next_u32() >> (rng.next_u32() % 32);
    unsigned *du, *dclz, *dbrev, *dpop, *dact;
    CUDA_CHECK(cudaMalloc(&du, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dclz, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dbrev, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dpop, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dact, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(du, u.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    bit_ops<<<n / 256, 256>>>(du, dclz, dbrev, dpop, dact, n);
    CUDA_CHECK_LAST();
    std::vector<unsigned> clz(n), brev(n), pop(n), act(n);
    CUDA_CHECK(cudaMemcpy(clz.data(), dclz, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(brev.data(), dbrev, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(pop.data(), dpop, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(act.data(), dact, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    bad = 0;
    long long act_bad = 0;
    for (int i = 0; i < n; ++i) {
        bad += static_cast<int>(clz[i]) != host_clz(u[i]);
        bad += brev[i] != host_brev(u[i]);
        bad += static_cast<int>(pop[i]) !=
               host_pop((static_cast<unsigned long long>(u[i]) << 32) | (u[i] ^ 0xdeadbeefu));
        act_bad += act[i] != 32u;
    }
    printf("clz[0..3] = %u %u %u %u\n", clz[0], clz[1], clz[2], clz[3]);
    check_equal("clz/brev/popcll", bad);
    check_equal("activemask of a full warp", act_bad);
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dcount));
    CUDA_CHECK(cudaFree(dany));
    CUDA_CHECK(cudaFree(dall));
    CUDA_CHECK(cudaFree(dballot));
    CUDA_CHECK(cudaFree(dfirst));
    CUDA_CHECK(cudaFree(du));
    CUDA_CHECK(cudaFree(dclz));
    CUDA_CHECK(cudaFree(dbrev));
    CUDA_CHECK(cudaFree(dpop));
    CUDA_CHECK(cudaFree(dact));
    return finish("warp_intrinsics");
}
