// thrust_algos.cu - the Thrust algorithms applications lean on: sort and
// stable sort_by_key, reduce and transform_reduce with a functor,
// transform with a device lambda-free functor, inclusive/exclusive scan,
// count_if, unique + erase, reduce_by_key (a group-by), gather through a
// permutation, and device_vector <-> host_vector copies.
#include "check.cuh"

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <numeric>
#include <vector>

struct square {
    __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};

struct saxpy_functor {
    const float a;
    explicit saxpy_functor(float a_) : a(a_) {}
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct is_even {
    __host__ __device__ bool operator()(int x) const { return (x & 1) == 0; }
};

int main(int argc, char **argv) {
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 107)));
    const int n = 1 << 20;
    thrust::host_vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<int>(rng.next_u32() % 100000) - 50000;
    std::vector<int> ref(h.begin(), h.end());

    thrust::device_vector<int> d = h;
    thrust::sort(d.begin(), d.end());
    std::sort(ref.begin(), ref.end());
    thrust::host_vector<int> sorted = d;
    long long bad = 0;
    for (int i = 0; i < n; ++i) bad += sorted[i] != ref[i];
    printf("sorted: first = %d median = %d last = %d\n", sorted[0], sorted[n / 2], sorted[n - 1]);
    check_equal("sort", bad);

    const long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
    const long long sumsq = thrust::transform_reduce(d.begin(), d.end(), square(), 0LL, thrust::plus<long long>());
    const int mx = thrust::reduce(d.begin(), d.end(), INT_MIN, thrust::maximum<int>());
    long long rsum = 0, rsq = 0;
    for (int v : ref) {
        rsum += v;
        rsq += static_cast<long long>(v) * v;
    }
    printf("sum = %lld sum of squares = %lld max = %d\n", sum, sumsq, mx);
    check_equal("reduce / transform_reduce", (sum != rsum) + (sumsq != rsq) + (mx != ref[n - 1]));

    const long long evens = thrust::count_if(d.begin(), d.end(), is_even());
    long long revens = 0;
    for (int v : ref) revens += (v & 1) == 0;
    printf("even values = %lld\n", evens);
    check_equal("count_if", evens != revens);

    // unique + erase on the sorted data
    thrust::device_vector<int> u = d;
    u.erase(thrust::unique(u.begin(), u.end()), u.end());
    const size_t distinct = std::unique(ref.begin(), ref.end()) - ref.begin();
    printf("distinct = %zu\n", static_cast<size_t>(u.size()));
    check_equal("unique", u.size() != distinct);

    // scans
    thrust::device_vector<int> ones(1000, 3), inc(1000), exc(1000);
    thrust::inclusive_scan(ones.begin(), ones.end(), inc.begin());
    thrust::exclusive_scan(ones.begin(), ones.end(), exc.begin(), 10);
    const int inc_last = inc[999], exc_last = exc[999];
    printf("inclusive[999] = %d exclusive[999] = %d\n", inc_last, exc_last);
    check_equal("scans", (inc_last != 3000) + (exc_last != 10 + 3 * 999));

    // transform: saxpy
    thrust::device_vector<float> x(n), y(n, 1.0f);
    thrust::sequence(x.begin(), x.end(), 0.0f, 0.25f);
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_functor(2.0f));
    const float y_last = y[n - 1];
    printf("saxpy y[n-1] = %.2f\n", y_last);
    check_close("transform saxpy", fabs(y_last - (2.0 * 0.25 * (n - 1) + 1.0)), 0.0);

    // stable sort_by_key + reduce_by_key: total value per key
    const int m = 100000, keys = 37;
    thrust::host_vector<int> hk(m), hv(m);
    std::vector<long long> per_key(keys, 0);
    for (int i = 0; i < m; ++i) {
        hk[i] = static_cast<int>(rng.next_u32() % keys);
        hv[i] = static_cast<int>(rng.next_u32() % 1000);
        per_key[hk[i]] += hv[i];
    }
    thrust::device_vector<int> dk = hk, dv = hv, out_k(keys), out_v(keys);
    thrust::stable_sort_by_key(dk.begin(), dk.end(), dv.begin());
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), dv.begin(), out_k.begin(), out_v.begin());
    const int groups = static_cast<int>(ends.first - out_k.begin());
    thrust::host_vector<int> gk = out_k, gv = out_v;
    bad = groups != keys;
    for (int g = 0; g < groups; ++g) bad += gk[g] != g || gv[g] != per_key[g];
    printf("groups = %d total[0] = %d total[%d] = %d\n", groups, static_cast<int>(gv[0]), keys - 1,
           static_cast<int>(gv[keys - 1]));
    check_equal("sort_by_key + reduce_by_key", bad);

    // stability: equal keys keep their input order, so values of key 0 are the input's
    thrust::host_vector<int> sv = dv;
    std::vector<int> key0_in, key0_out;
    for (int i = 0; i < m; ++i)
        if (hk[i] == 0) key0_in.push_back(hv[i]);
    for (size_t i = 0; i < key0_in.size(); ++i) key0_out.push_back(sv[i]);
    check_true("stable_sort_by_key keeps order", key0_in == key0_out);

    // gather through a reversing permutation
    thrust::device_vector<int> map(1000), src(1000), dst(1000);
    thrust::sequence(src.begin(), src.end(), 5);
    thrust::sequence(map.begin(), map.end(), 999, -1);
    thrust::gather(map.begin(), map.end(), src.begin(), dst.begin());
    const int g0 = dst[0], g999 = dst[999];
    check_equal("gather", (g0 != 1004) + (g999 != 5));
    return finish("thrust_algos");
}
