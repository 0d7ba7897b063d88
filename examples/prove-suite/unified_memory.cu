// unified_memory.cu - cudaMallocManaged data touched by host and device in
// turn (a linked structure of offsets that only works with one address
// space), prefetch and advice hints (cudaMemPrefetchAsync, cudaMemAdvise)
// where the device reports concurrentManagedAccess, and a __managed__
// global variable.
#include "check.cuh"

__device__ __managed__ int g_visits = 0;

struct Node {
    int value;
    int next;  // index of the next node, -1 at the end
};

__global__ void walk_lists(const Node *nodes, const int *heads, int lists, long long *sums) {
    const int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= lists) return;
    long long s = 0;
    int visits = 0;
    for (int i = heads[l]; i >= 0; i = nodes[i].next) {
        s += nodes[i].value;
        ++visits;
    }
    sums[l] = s;
    atomicAdd(&g_visits, visits);
}

__global__ void square_in_place(float *x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * x[i];
}

int main(int argc, char **argv) {
    const int lists = 64, per_list = 1000, n = lists * per_list;
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 41)));
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    int concurrent = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));

    Node *nodes;
    int *heads;
    long long *sums;
    CUDA_CHECK(cudaMallocManaged(&nodes, n * sizeof(Node)));
    CUDA_CHECK(cudaMallocManaged(&heads, lists * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&sums, lists * sizeof(long long)));
    // scatter each list's nodes through the array with a fixed permutation
    int *perm = new int[n];
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        const int j = static_cast<int>(rng.next_u32() % static_cast<uint32_t>(i + 1));
        std::swap(perm[i], perm[j]);
    }
    long long ref[lists];
    for (int l = 0; l < lists; ++l) {
        ref[l] = 0;
        heads[l] = perm[l * per_list];
        for (int k = 0; k < per_list; ++k) {
            const int me = perm[l * per_list + k];
            nodes[me].value = static_cast<int>(rng.next_u32() % 1000);
            nodes[me].next = k + 1 < per_list ? perm[l * per_list + k + 1] : -1;
            ref[l] += nodes[me].value;
        }
    }
    if (concurrent) {
#if CUDART_VERSION >= 13000  // CUDA 13 takes a cudaMemLocation
        const cudaMemLocation loc = {cudaMemLocationTypeDevice, device};
        CUDA_CHECK(cudaMemAdvise(nodes, n * sizeof(Node), cudaMemAdviseSetReadMostly, loc));
        CUDA_CHECK(cudaMemPrefetchAsync(nodes, n * sizeof(Node), loc, 0, 0));
        CUDA_CHECK(cudaMemPrefetchAsync(heads, lists * sizeof(int), loc, 0, 0));
#else
        CUDA_CHECK(cudaMemAdvise(nodes, n * sizeof(Node), cudaMemAdviseSetReadMostly, device));
        CUDA_CHECK(cudaMemPrefetchAsync(nodes, n * sizeof(Node), device, 0));
        CUDA_CHECK(cudaMemPrefetchAsync(heads, lists * sizeof(int), device, 0));
#endif
    }
    walk_lists<<<1, lists>>>(nodes, heads, lists, sums);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaDeviceSynchronize());
    long long bad = 0, total = 0;
    for (int l = 0; l < lists; ++l) {
        bad += sums[l] != ref[l];
        total += sums[l];
    }
    printf("lists = %d nodes = %d\n", lists, n);
    printf("total = %lld visits = %d\n", total, g_visits);
    check_equal("list sums", bad);
    check_equal("managed global", g_visits != n);

    // the same managed buffer alternately written by host and device
    float *x;
    const int m = 1 << 16;
    CUDA_CHECK(cudaMallocManaged(&x, m * sizeof(float), cudaMemAttachGlobal));
    for (int i = 0; i < m; ++i) x[i] = 1.0f + static_cast<float>(i % 13) / 16.0f;
    square_in_place<<<(m + 255) / 256, 256>>>(x, m);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < m; ++i) x[i] += 1.0f;
    square_in_place<<<(m + 255) / 256, 256>>>(x, m);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaDeviceSynchronize());
    double max_err = 0.0;
    for (int i = 0; i < m; ++i) {
        const double v = 1.0 + (i % 13) / 16.0;
        const double expect = (v * v + 1.0) * (v * v + 1.0);
        max_err = std::max(max_err, fabs(x[i] - expect) / expect);
    }
    printf("x[5] = %.6f\n", x[5]);
    check_close("host/device ping-pong", max_err, 1e-6);
    delete[] perm;
    CUDA_CHECK(cudaFree(nodes));
    CUDA_CHECK(cudaFree(heads));
    CUDA_CHECK(cudaFree(sums));
    CUDA_CHECK(cudaFree(x));
    return finish("unified_memory");
}
