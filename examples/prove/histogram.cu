// A histogram with atomics of bytes made from $HIST_SEED, into the number of
// bins read from data/bins.txt; writes histogram.txt and prints where its
// device buffer was (an address, masked by smoke.toml).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "check.cuh"
#include "histogram_kernel.cuh"

int main() {
  const char* text = std::getenv("HIST_SEED");
  unsigned seed = text ? std::strtoul(text, nullptr, 10) : 1;
  int bins = 0;
  FILE* in = std::fopen("data/bins.txt", "r");
  if (!in || std::fscanf(in, "%d", &bins) != 1 || bins < 1 || bins > 256) {
    std::fprintf(stderr, "cannot read data/bins.txt\n");
    return 2;
  }
  std::fclose(in);
  const int n = 1 << 20;
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    data[i] = (seed >> 16) & 0xff;
  }
  unsigned char* d_data;
  unsigned* d_counts;
  CUDA_CHECK(cudaMalloc(&d_data, n));
  CUDA_CHECK(cudaMalloc(&d_counts, bins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_counts, 0, bins * sizeof(unsigned)));
  histogram<<<128, 256, bins * sizeof(unsigned)>>>(d_data, n, d_counts, bins);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> counts(bins);
  CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, bins * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  std::vector<unsigned> reference(bins, 0);
  for (int i = 0; i < n; ++i) reference[data[i] % bins]++;
  FILE* out = std::fopen("histogram.txt", "w");
  bool same = true;
  for (int b = 0; b < bins; ++b) {
    std::fprintf(out, "%d %u\n", b, counts[b]);
    same = same && counts[b] == reference[b];
  }
  std::fclose(out);
  std::printf("device buffer at %p\n", static_cast<void*>(d_counts));
  std::printf("bins = %d, values = %d\n", bins, n);
  std::printf("%s\n", same ? "PASS" : "FAIL");
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_counts));
  return same ? 0 : 1;
}
