// cub_device.cu - CUB device-wide primitives with the two-call temporary
// storage idiom (size query with a null pointer, allocate, run):
// DeviceReduce::Sum / Max / ArgMax, DeviceScan::ExclusiveSum / InclusiveSum,
// DeviceRadixSort::SortPairs (with a bit range), DeviceSelect::If and
// DeviceHistogram::HistogramEven, as PyTorch, CuPy and XGBoost call them.
#include "check.cuh"

#include <cub/cub.cuh>
#include <vector>

struct GreaterThan {
    int threshold;
    __host__ __device__ bool operator()(const int &v) const { return v > threshold; }
};

template <typename F>
static void with_temp(F &&call) {
    void *temp = nullptr;
    size_t bytes = 0;
    CUDA_CHECK(call(temp, bytes));
    CUDA_CHECK(cudaMalloc(&temp, bytes));
    CUDA_CHECK(call(temp, bytes));
    CUDA_CHECK(cudaFree(temp));
}

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 109)));
    const int n = 1000003;
    std::vector<int> h(n);
    for (auto &v : h) v = static_cast<int>(rng.next_u32() % 2000) - 1000;
    h[654321] = 5000;  // the unique maximum
    int *d_in, *d_out, *d_scalar;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_scalar, 2 * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    with_temp([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, d_in, d_scalar, n); });
    with_temp([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, d_in, d_scalar + 1, n); });
    int sum_max[2];
    CUDA_CHECK(cudaMemcpy(sum_max, d_scalar, sizeof(sum_max), cudaMemcpyDeviceToHost));
    long long rsum = 0;
    for (int v : h) rsum += v;
    printf("sum = %d max = %d\n", sum_max[0], sum_max[1]);
    check_equal("DeviceReduce Sum/Max", (sum_max[0] != rsum) + (sum_max[1] != 5000));

    cub::KeyValuePair<int, int> *d_kv;
    CUDA_CHECK(cudaMalloc(&d_kv, sizeof(*d_kv)));
    with_temp([&](void *t, size_t &b) { return cub::DeviceReduce::ArgMax(t, b, d_in, d_kv, n); });
    cub::KeyValuePair<int, int> kv;
    CUDA_CHECK(cudaMemcpy(&kv, d_kv, sizeof(kv), cudaMemcpyDeviceToHost));
    printf("argmax = %d (value %d)\n", kv.key, kv.value);
    check_equal("DeviceReduce ArgMax", (kv.key != 654321) + (kv.value != 5000));

    with_temp([&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, d_in, d_out, n); });
    std::vector<int> got(n);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long bad = 0;
    int acc = 0;
    for (int i = 0; i < n; ++i) {
        bad += got[i] != acc;
        acc += h[i];
    }
    printf("exclusive[n-1] = %d\n", got[n - 1]);
    check_equal("DeviceScan ExclusiveSum", bad);
    with_temp([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, d_in, d_out, n); });
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    bad = 0;
    acc = 0;
    for (int i = 0; i < n; ++i) {
        acc += h[i];
        bad += got[i] != acc;
    }
    check_equal("DeviceScan InclusiveSum", bad);

    // radix sort of 24-bit keys with values
    const int m = 500000;
    std::vector<unsigned> keys(m), vals(m);
    for (int i = 0; i < m; ++i) {
        keys[i] = rng.next_u32() & 0xffffffu;
        vals[i] = i;
    }
    unsigned *dk_in, *dk_out, *dv_in, *dv_out;
    CUDA_CHECK(cudaMalloc(&dk_in, m * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dk_out, m * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dv_in, m * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dv_out, m * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(dk_in, keys.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dv_in, vals.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice));
    with_temp([&](void *t, size_t &b) {
        return cub::DeviceRadixSort::SortPairs(t, b, dk_in, dk_out, dv_in, dv_out, m, 0, 24);
    });
    std::vector<unsigned> sk(m), sv(m);
    CUDA_CHECK(cudaMemcpy(sk.data(), dk_out, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sv.data(), dv_out, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < m; ++i) {
        if (i && (sk[i - 1] > sk[i] || (sk[i - 1] == sk[i] && sv[i - 1] > sv[i]))) ++bad;  // radix sort is stable
        bad += keys[sv[i]] != sk[i];
    }
    printf("sorted keys[0] = %u keys[m-1] = %u value checksum = %.0f\n", sk[0], sk[m - 1], weighted_checksum(sv.data(), m));
    check_equal("DeviceRadixSort SortPairs (stable)", bad);

    // select values > 500
    int *d_num;
    CUDA_CHECK(cudaMalloc(&d_num, sizeof(int)));
    GreaterThan pred{500};
    with_temp([&](void *t, size_t &b) { return cub::DeviceSelect::If(t, b, d_in, d_out, d_num, n, pred); });
    int selected = 0;
    CUDA_CHECK(cudaMemcpy(&selected, d_num, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, selected * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> rsel;
    for (int v : h)
        if (v > 500) rsel.push_back(v);
    bad = selected != static_cast<int>(rsel.size());
    for (int i = 0; !bad && i < selected; ++i) bad += got[i] != rsel[i];  // DeviceSelect keeps order
    printf("selected = %d\n", selected);
    check_equal("DeviceSelect If", bad);

    // histogram of the input in 20 even bins over [-1000, 1000)
    const int levels = 21;
    int *d_hist;
    CUDA_CHECK(cudaMalloc(&d_hist, (levels - 1) * sizeof(int)));
    with_temp([&](void *t, size_t &b) {
        return cub::DeviceHistogram::HistogramEven(t, b, d_in, d_hist, levels, -1000, 1000, n);
    });
    int hist[levels - 1];
    CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDeviceToHost));
    int rhist[levels - 1] = {};
    for (int v : h)
        if (v >= -1000 && v < 1000) ++rhist[(v + 1000) / 100];
    bad = 0;
    for (int b = 0; b < levels - 1; ++b) bad += hist[b] != rhist[b];
    printf("hist[0] = %d hist[19] = %d\n", hist[0], hist[19]);
    check_equal("DeviceHistogram HistogramEven", bad);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_scalar));
    CUDA_CHECK(cudaFree(d_kv));
    CUDA_CHECK(cudaFree(dk_in));
    CUDA_CHECK(cudaFree(dk_out));
    CUDA_CHECK(cudaFree(dv_in));
    CUDA_CHECK(cudaFree(dv_out));
    CUDA_CHECK(cudaFree(d_num));
    CUDA_CHECK(cudaFree(d_hist));
    return finish("cub_device");
}
