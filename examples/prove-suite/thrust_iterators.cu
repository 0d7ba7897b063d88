// thrust_iterators.cu - Thrust the way library code mixes it with raw CUDA:
// thrust::device_ptr around cudaMalloc'd memory, execution on a user stream
// (thrust::cuda::par.on), fancy iterators (counting_iterator,
// transform_iterator, zip_iterator, make_permutation_iterator), sort with a
// custom comparator, min_element / max_element, inner_product, and
// sort_by_key on zipped values (structure-of-arrays sorting).
#include "check.cuh"

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>
#include <vector>

struct by_abs_desc {
    __host__ __device__ bool operator()(int a, int b) const {
        const int aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
        return aa != bb ? aa > bb : a < b;  // ties: negative first, a strict weak order
    }
};

struct cube {
    __host__ __device__ long long operator()(int i) const { return static_cast<long long>(i) * i * i; }
};

struct dist2 {
    __host__ __device__ float operator()(const thrust::tuple<float, float> &p) const {
        return thrust::get<0>(p) * thrust::get<0>(p) + thrust::get<1>(p) * thrust::get<1>(p);
    }
};

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 173)));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    const int n = 200000;
    std::vector<int> h(n);
    for (auto &v : h) v = static_cast<int>(rng.next_u32() % 20001) - 10000;
    int *raw;
    CUDA_CHECK(cudaMalloc(&raw, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(raw, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    thrust::device_ptr<int> p = thrust::device_pointer_cast(raw);

    auto policy = thrust::cuda::par.on(stream);
    const auto mn = thrust::min_element(policy, p, p + n);
    const auto mx = thrust::max_element(policy, p, p + n);
    const int min_v = *mn, max_v = *mx;
    const long long min_pos = mn - p;
    const int ref_min = *std::min_element(h.begin(), h.end()), ref_max = *std::max_element(h.begin(), h.end());
    const long long ref_pos = std::min_element(h.begin(), h.end()) - h.begin();
    printf("min = %d at %lld, max = %d\n", min_v, min_pos, max_v);
    check_equal("min/max_element", (min_v != ref_min) + (max_v != ref_max) + (min_pos != ref_pos));

    thrust::sort(policy, p, p + n, by_abs_desc());
    std::vector<int> ref = h;
    std::sort(ref.begin(), ref.end(), by_abs_desc());
    std::vector<int> got(n);
    CUDA_CHECK(cudaMemcpyAsync(got.data(), raw, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += got[i] != ref[i];
    printf("custom order: %d %d %d ... %d\n", got[0], got[1], got[2], got[n - 1]);
    check_equal("sort with a custom comparator on a user stream", bad);

    // sum of cubes 0..999 through a transform_iterator over a counting_iterator
    thrust::counting_iterator<int> first(0);
    const long long cubes = thrust::reduce(thrust::device, thrust::make_transform_iterator(first, cube()),
                                           thrust::make_transform_iterator(first + 1000, cube()), 0LL);
    printf("sum of cubes below 1000 = %lld\n", cubes);
    check_equal("transform_iterator(counting_iterator)", cubes != 249500250000LL);

    // structure of arrays: points (x, y), sort by distance, keys carried along
    const int m = 50000;
    std::vector<float> hx(m), hy(m);
    std::vector<int> hid(m);
    for (int i = 0; i < m; ++i) {
        hx[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 2001) - 1000) / 8.0f;
        hy[i] = static_cast<float>(static_cast<int>(rng.next_u32() % 2001) - 1000) / 8.0f;
        hid[i] = i;
    }
    thrust::device_vector<float> x(hx.begin(), hx.end()), y(hy.begin(), hy.end()), d(m);
    thrust::device_vector<int> id(hid.begin(), hid.end());
    auto zbegin = thrust::make_zip_iterator(thrust::make_tuple(x.begin(), y.begin()));
    thrust::transform(zbegin, zbegin + m, d.begin(), dist2());
    thrust::stable_sort_by_key(d.begin(), d.end(), thrust::make_zip_iterator(thrust::make_tuple(x.begin(), y.begin(), id.begin())));
    std::vector<float> sd(m), sx(m), sy(m);
    std::vector<int> sid(m);
    thrust::copy(d.begin(), d.end(), sd.begin());
    thrust::copy(x.begin(), x.end(), sx.begin());
    thrust::copy(y.begin(), y.end(), sy.begin());
    thrust::copy(id.begin(), id.end(), sid.begin());
    bad = 0;
    for (int i = 0; i < m; ++i) {
        if (i && (sd[i - 1] > sd[i] || (sd[i - 1] == sd[i] && sid[i - 1] > sid[i]))) ++bad;
        bad += sx[i] != hx[sid[i]] || sy[i] != hy[sid[i]];
    }
    printf("nearest point id = %d (%.3f, %.3f), farthest id = %d\n", sid[0], sx[0], sy[0], sid[m - 1]);
    check_equal("zip_iterator sort_by_key", bad);

    // gather-sum through a permutation_iterator and a dot product
    thrust::device_vector<int> map(1000);
    for (int i = 0; i < 1000; ++i) map[i] = (i * 37) % m;
    const double gathered = thrust::reduce(thrust::make_permutation_iterator(d.begin(), map.begin()),
                                          thrust::make_permutation_iterator(d.begin(), map.end()), 0.0);  // exact in double
    double ref_g = 0.0;
    for (int i = 0; i < 1000; ++i) ref_g += sd[(i * 37) % m];
    const double dot = thrust::inner_product(x.begin(), x.end(), y.begin(), 0.0);  // exact in double
    double ref_dot = 0.0;
    for (int i = 0; i < m; ++i) ref_dot += static_cast<double>(hx[i]) * hy[i];
    printf("gathered = %.4f dot = %.4f\n", gathered, dot);
    check_close("permutation_iterator reduce", fabs(gathered - ref_g), 0.0);
    check_close("inner_product", fabs(dot - ref_dot), 0.0);
    CUDA_CHECK(cudaFree(raw));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return finish("thrust_iterators");
}
