// Thrust: sort (ascending, descending, stable by key), reduce (sum, max),
// transform_reduce with a functor, count_if and unique on device_vectors,
// compared with the C++ standard library on the host.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>
#include <cuda_runtime.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "CUDA error at %s:%d: %s failed: %s\n", __FILE__,       \
              __LINE__, #call, cudaGetErrorString(err_));                     \
      printf("FAIL\n");                                                       \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

struct Square {
  __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

struct IsMultipleOf7 {
  __host__ __device__ bool operator()(int x) const { return x % 7 == 0; }
};

int main() {
  const int n = 1 << 20;
  thrust::host_vector<int> h(n);
  unsigned int state = 2024u;
  for (int i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    h[i] = (int)((state >> 8) % 100000u);  // many duplicates
  }
  std::vector<int> ref(h.begin(), h.end());

  thrust::device_vector<int> d = h;
  thrust::sort(d.begin(), d.end());
  std::sort(ref.begin(), ref.end());
  thrust::host_vector<int> sorted = d;
  const bool sortOk = std::equal(ref.begin(), ref.end(), sorted.begin());

  const long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
  const int mx = thrust::reduce(d.begin(), d.end(), INT_MIN, thrust::maximum<int>());
  const long long sumSq = thrust::transform_reduce(d.begin(), d.end(), Square(), 0LL,
                                                   thrust::plus<long long>());
  const long long mult7 = thrust::count_if(d.begin(), d.end(), IsMultipleOf7());

  long long refSum = 0, refSumSq = 0, refMult7 = 0;
  for (int v : ref) {
    refSum += v;
    refSumSq += (long long)v * v;
    refMult7 += v % 7 == 0;
  }
  const int refMax = ref.back();

  // Descending sort of a copy of the original data.
  thrust::device_vector<int> desc = h;
  thrust::sort(desc.begin(), desc.end(), thrust::greater<int>());
  thrust::host_vector<int> hdesc = desc;
  const bool descOk = std::equal(ref.rbegin(), ref.rend(), hdesc.begin());

  // Stable sort by key: keys are the original values mod 1000, values the
  // original positions; equal keys keep their input order.
  thrust::device_vector<int> keys(n), vals(n);
  thrust::host_vector<int> hkeys(n);
  for (int i = 0; i < n; ++i) hkeys[i] = h[i] % 1000;
  keys = hkeys;
  thrust::sequence(vals.begin(), vals.end());
  thrust::stable_sort_by_key(keys.begin(), keys.end(), vals.begin());
  std::vector<std::pair<int, int>> kv(n);
  for (int i = 0; i < n; ++i) kv[i] = std::make_pair(hkeys[i], i);
  std::stable_sort(kv.begin(), kv.end(),
                   [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; });
  thrust::host_vector<int> sk = keys, sv = vals;
  bool kvOk = true;
  for (int i = 0; i < n; ++i) kvOk = kvOk && sk[i] == kv[i].first && sv[i] == kv[i].second;

  // Distinct values of the sorted data.
  const long long distinct = thrust::unique(d.begin(), d.end()) - d.begin();
  const long long refDistinct = std::unique(ref.begin(), ref.end()) - ref.begin();
  CUDA_CHECK(cudaDeviceSynchronize());

  printf("n = %d\n", n);
  printf("sort matches std::sort: %s\n", sortOk ? "yes" : "no");
  printf("descending sort matches: %s\n", descOk ? "yes" : "no");
  printf("stable_sort_by_key matches std::stable_sort: %s\n", kvOk ? "yes" : "no");
  printf("sum = %lld\n", sum);
  printf("max = %d\n", mx);
  printf("sum of squares = %lld\n", sumSq);
  printf("multiples of 7 = %lld\n", mult7);
  printf("distinct values = %lld\n", distinct);
  printf("min = %d\n", sorted[0]);

  const bool ok = sortOk && descOk && kvOk && sum == refSum && mx == refMax && sumSq == refSumSq &&
                  mult7 == refMult7 && distinct == refDistinct;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
