// Equality proof for hipify_py_compat.h (see README.md here).  A plain CUDA
// program: every function the compat header provides is evaluated over about
// 1M random inputs plus edge cases, and one line per function prints a
// checksum (FNV-1a 64 of the output bytes).  Built as the CUDA original it
// measures CUDA's own functions; translated with `hipify-py --compat` and
// built as HIP on NVIDIA with -DHIPIFY_PY_COMPAT_FORCE it measures the
// header's bodies on the same GPU.  Equal output = equal results.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

static const int kRandom = 1 << 20;
static const int kThreads = 256;

static uint64_t g_state = 0x9e3779b97f4a7c15ull;
static uint64_t next_random() {  // splitmix64: the same stream in both builds
  uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t fnv1a(const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static int g_lines = 0;
static void print_line(const char* name, const void* data, size_t bytes, size_t count) {
  std::printf("%-28s n=%-8zu %016llx\n", name, count, (unsigned long long)fnv1a(data, bytes));
  ++g_lines;
}

// ---------------------------------------------------------------- inputs
// 32-bit words: byte and halfword edge values in every lane, then random
static std::vector<unsigned int> word_inputs() {
  const unsigned int bytes[] = {0x00, 0x01, 0x02, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  const unsigned int halves[] = {0x0000, 0x0001, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff};
  std::vector<unsigned int> edges;
  for (unsigned int b : bytes) edges.push_back(b * 0x01010101u);
  for (unsigned int h : halves) edges.push_back(h * 0x00010001u);
  for (unsigned int b0 : bytes)
    for (unsigned int b1 : bytes) edges.push_back(b0 | (b1 << 8) | (b1 << 16) | (b0 << 24));
  for (unsigned int h0 : halves)
    for (unsigned int h1 : halves) edges.push_back(h0 | (h1 << 16));
  std::vector<unsigned int> words;  // pairs: words[2i], words[2i+1]
  for (unsigned int a : edges)
    for (unsigned int b : edges) {
      words.push_back(a);
      words.push_back(b);
    }
  for (int i = 0; i < kRandom; ++i) {
    uint64_t r = next_random();
    words.push_back((unsigned int)r);
    words.push_back((unsigned int)(r >> 32));
  }
  return words;
}

// ------------------------------------------------------ video intrinsics
#define VIDEO2(NAME)                                                                       \
  __global__ void k_##NAME(const unsigned int* in, unsigned int* out, int n) {            \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    if (i < n) out[i] = NAME(in[2 * i], in[2 * i + 1]);                                   \
  }
#define VIDEO1(NAME)                                                                       \
  __global__ void k_##NAME(const unsigned int* in, unsigned int* out, int n) {            \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    if (i < n) out[i] = NAME(in[2 * i]);                                                  \
  }
#define BOTH2(N) VIDEO2(N##2) VIDEO2(N##4)
BOTH2(__vadd) BOTH2(__vsub) BOTH2(__vabsdiffu) BOTH2(__vabsdiffs) BOTH2(__vavgu) BOTH2(__vhaddu)
BOTH2(__vmaxu) BOTH2(__vminu) BOTH2(__vmaxs) BOTH2(__vmins) BOTH2(__vcmpeq) BOTH2(__vcmpne)
BOTH2(__vcmpgtu) BOTH2(__vcmpgeu) BOTH2(__vcmpltu) BOTH2(__vcmpleu) BOTH2(__vcmpgts)
BOTH2(__vcmpges) BOTH2(__vcmplts) BOTH2(__vcmples) BOTH2(__vseteq) BOTH2(__vsetne)
BOTH2(__vsetgtu) BOTH2(__vsetgeu) BOTH2(__vsetltu) BOTH2(__vsetleu) BOTH2(__vsetgts)
BOTH2(__vsetges) BOTH2(__vsetlts) BOTH2(__vsetles) BOTH2(__vaddss) BOTH2(__vsubss)
BOTH2(__vaddus) BOTH2(__vsubus) BOTH2(__vsadu) BOTH2(__vsads)
VIDEO1(__vabs2) VIDEO1(__vabs4) VIDEO1(__vabsss2) VIDEO1(__vabsss4) VIDEO1(__vneg2)
VIDEO1(__vneg4) VIDEO1(__vnegss2) VIDEO1(__vnegss4)

// ------------------------------------------------------------ min / max
__global__ void k_uminmax(const unsigned int* in, unsigned int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[2 * i] = umin(in[2 * i], in[2 * i + 1]);
    out[2 * i + 1] = umax(in[2 * i], in[2 * i + 1]);
  }
}
__global__ void k_llminmax(const long long* in, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[2 * i] = llmin(in[2 * i], in[2 * i + 1]);
    out[2 * i + 1] = llmax(in[2 * i], in[2 * i + 1]);
  }
}
__global__ void k_ullminmax(const unsigned long long* in, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[2 * i] = ullmin(in[2 * i], in[2 * i + 1]);
    out[2 * i + 1] = ullmax(in[2 * i], in[2 * i + 1]);
  }
}

// ----------------------------------------------------- cache-hint access
// every load hint into out[9*i + h], every store hint from in[i]
#define HINTS(T)                                                                    \
  __global__ void k_hints_##T(const T* in, T* out, int n) {                         \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
    if (i < n) {                                                                    \
      out[9 * i + 0] = __ldcs(in + i);                                              \
      out[9 * i + 1] = __ldlu(in + i);                                              \
      out[9 * i + 2] = __ldcg(in + i);                                              \
      out[9 * i + 3] = __ldca(in + i);                                              \
      out[9 * i + 4] = __ldcv(in + i);                                              \
      __stcs(out + 9 * i + 5, in[i]);                                               \
      __stcg(out + 9 * i + 6, in[i]);                                               \
      __stwb(out + 9 * i + 7, in[i]);                                               \
      __stwt(out + 9 * i + 8, in[i]);                                               \
    }                                                                               \
  }
typedef signed char schar;
typedef long long llong;
typedef unsigned char uchar_;
typedef unsigned short ushort_;
typedef unsigned int uint_;
typedef unsigned long long ullong;
#define HINT_TYPES(X)                                                                     \
  X(char) X(schar) X(short) X(int) X(llong) X(uchar_) X(ushort_) X(uint_) X(ullong) X(float) \
  X(double) X(char2) X(char4) X(short2) X(short4) X(int2) X(int4) X(longlong2) X(uchar2)  \
  X(uchar4) X(ushort2) X(ushort4) X(uint2) X(uint4) X(ulonglong2) X(float2) X(float4)     \
  X(double2)
HINT_TYPES(HINTS)

// ------------------------------------------------ cooperative_groups tiles
// one value per thread; each thread writes its reduce / inclusive / exclusive
#define TILE_KERNEL(NAME, SIZE, T, OP)                                                      \
  __global__ void NAME(const T* in, T* out, int n) {                                         \
    cg::thread_block_tile<SIZE> t = cg::tiled_partition<SIZE>(cg::this_thread_block());     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    T v = in[i];                                                                             \
    T r = cg::reduce(t, v, OP<T>());                                                         \
    T s = cg::inclusive_scan(t, v, OP<T>());                                                 \
    T e = cg::exclusive_scan(t, v, OP<T>());                                                 \
    if (i < n) {                                                                             \
      out[3 * i] = r;                                                                        \
      out[3 * i + 1] = s;                                                                    \
      out[3 * i + 2] = e;                                                                    \
    }                                                                                        \
  }
#define TILE_SIZES(X, T, OP) \
  X(T, OP, 32) X(T, OP, 16) X(T, OP, 8) X(T, OP, 4) X(T, OP, 2)
#define TILE_ONE(T, OP, SIZE) TILE_KERNEL(k_tile_##T##_##OP##_##SIZE, SIZE, T, cg::OP)
TILE_SIZES(TILE_ONE, float, plus)
TILE_SIZES(TILE_ONE, float, less)
TILE_SIZES(TILE_ONE, float, greater)
TILE_SIZES(TILE_ONE, int, plus)
TILE_SIZES(TILE_ONE, int, less)
TILE_SIZES(TILE_ONE, int, greater)
TILE_SIZES(TILE_ONE, uint_, plus)
TILE_SIZES(TILE_ONE, uint_, bit_and)
TILE_SIZES(TILE_ONE, uint_, bit_or)
TILE_SIZES(TILE_ONE, uint_, bit_xor)
TILE_SIZES(TILE_ONE, double, plus)

// the scan forms without an operation (plus)
__global__ void k_tile_default_scans(const int* in, int* out, int n) {
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = cg::inclusive_scan(t, in[i]);
  int e = cg::exclusive_scan(t, in[i]);
  if (i < n) {
    out[2 * i] = s;
    out[2 * i + 1] = e;
  }
}

// ------------------------------------------------------------------ driver
template <class T> static T* to_device(const std::vector<T>& host) {
  T* p = nullptr;
  CHECK(cudaMalloc(&p, host.size() * sizeof(T)));
  CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}
template <class T> static std::vector<T> from_device(const T* p, size_t count) {
  std::vector<T> host(count);
  CHECK(cudaMemcpy(host.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}
static int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

int main() {
  std::vector<unsigned int> words = word_inputs();
  const int pairs = (int)(words.size() / 2);
  unsigned int* d_words = to_device(words);
  unsigned int* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, words.size() * sizeof(unsigned int)));

#define RUN_VIDEO(NAME)                                                             \
  {                                                                                 \
    CHECK(cudaMemset(d_out, 0, pairs * sizeof(unsigned int)));                      \
    k_##NAME<<<blocks_for(pairs), kThreads>>>(d_words, d_out, pairs);               \
    CHECK(cudaGetLastError());                                                      \
    std::vector<unsigned int> got = from_device(d_out, pairs);                      \
    print_line(#NAME, got.data(), got.size() * sizeof(unsigned int), got.size());   \
  }
#define RUN_BOTH(N) RUN_VIDEO(N##2) RUN_VIDEO(N##4)
  RUN_BOTH(__vadd) RUN_BOTH(__vsub) RUN_BOTH(__vabsdiffu) RUN_BOTH(__vabsdiffs) RUN_BOTH(__vavgu)
  RUN_BOTH(__vhaddu) RUN_BOTH(__vmaxu) RUN_BOTH(__vminu) RUN_BOTH(__vmaxs) RUN_BOTH(__vmins)
  RUN_BOTH(__vcmpeq) RUN_BOTH(__vcmpne) RUN_BOTH(__vcmpgtu) RUN_BOTH(__vcmpgeu) RUN_BOTH(__vcmpltu)
  RUN_BOTH(__vcmpleu) RUN_BOTH(__vcmpgts) RUN_BOTH(__vcmpges) RUN_BOTH(__vcmplts)
  RUN_BOTH(__vcmples) RUN_BOTH(__vseteq) RUN_BOTH(__vsetne) RUN_BOTH(__vsetgtu)
  RUN_BOTH(__vsetgeu) RUN_BOTH(__vsetltu) RUN_BOTH(__vsetleu) RUN_BOTH(__vsetgts)
  RUN_BOTH(__vsetges) RUN_BOTH(__vsetlts) RUN_BOTH(__vsetles) RUN_BOTH(__vaddss)
  RUN_BOTH(__vsubss) RUN_BOTH(__vaddus) RUN_BOTH(__vsubus) RUN_BOTH(__vsadu) RUN_BOTH(__vsads)
  RUN_BOTH(__vabs) RUN_BOTH(__vabsss) RUN_BOTH(__vneg) RUN_BOTH(__vnegss)

  {  // umin / umax over the same pairs
    k_uminmax<<<blocks_for(pairs), kThreads>>>(d_words, d_out, pairs);
    CHECK(cudaGetLastError());
    std::vector<unsigned int> got = from_device(d_out, words.size());
    print_line("umin/umax", got.data(), got.size() * sizeof(unsigned int), got.size());
  }
  {  // 64-bit pairs: edges then random
    const unsigned long long e64[] = {0ull, 1ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                      0x8000000000000001ull, 0xfffffffffffffffeull,
                                      0xffffffffffffffffull, 0x00000000ffffffffull};
    std::vector<unsigned long long> v;
    for (unsigned long long a : e64)
      for (unsigned long long b : e64) {
        v.push_back(a);
        v.push_back(b);
      }
    for (int i = 0; i < kRandom; ++i) {
      v.push_back(next_random());
      v.push_back(next_random());
    }
    const int n64 = (int)(v.size() / 2);
    unsigned long long* d_in = to_device(v);
    unsigned long long* d_o = nullptr;
    CHECK(cudaMalloc(&d_o, v.size() * sizeof(unsigned long long)));
    k_ullminmax<<<blocks_for(n64), kThreads>>>(d_in, d_o, n64);
    CHECK(cudaGetLastError());
    std::vector<unsigned long long> got = from_device(d_o, v.size());
    print_line("ullmin/ullmax", got.data(), got.size() * 8, got.size());
    k_llminmax<<<blocks_for(n64), kThreads>>>((const long long*)d_in, (long long*)d_o, n64);
    CHECK(cudaGetLastError());
    got = from_device(d_o, v.size());
    print_line("llmin/llmax", got.data(), got.size() * 8, got.size());
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_o));
  }

  {  // cache hints: random bytes of every type (NaN bit patterns included)
    const int n = kRandom;
    std::vector<unsigned char> bytes(n * 32);
    for (size_t i = 0; i < bytes.size(); i += 8) {
      uint64_t r = next_random();
      std::memcpy(&bytes[i], &r, 8);
    }
    unsigned char* d_in = to_device(bytes);
    unsigned char* d_o = nullptr;
    CHECK(cudaMalloc(&d_o, (size_t)n * 9 * 32));
#define RUN_HINTS(T)                                                                      \
  {                                                                                       \
    CHECK(cudaMemset(d_o, 0, (size_t)n * 9 * sizeof(T)));                                 \
    k_hints_##T<<<blocks_for(n), kThreads>>>((const T*)d_in, (T*)d_o, n);                 \
    CHECK(cudaGetLastError());                                                            \
    std::vector<unsigned char> got = from_device(d_o, (size_t)n * 9 * sizeof(T));         \
    print_line("cache hints " #T, got.data(), got.size(), (size_t)n * 9);                 \
  }
    HINT_TYPES(RUN_HINTS)
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_o));
  }

  {  // tiles: whole blocks (every thread of a tile takes part)
    const int n = kRandom;
    std::vector<float> f(n);
    std::vector<double> d(n);
    std::vector<int> k(n);
    std::vector<unsigned int> u(n);
    for (int i = 0; i < n; ++i) {
      uint64_t r = next_random();
      f[i] = (float)((int64_t)(r & 0xffffff) - 0x800000) / 4096.0f;  // exact-ish, mixed signs
      d[i] = (double)(int64_t)(r >> 11) * 1e-9 - 4.0e6;
      k[i] = (int)(r >> 32);
      u[i] = (unsigned int)(r >> 16);
    }
    if (n > 4) { f[3] = 1e30f; f[4] = -1e-30f; }  // wide magnitudes: order matters for sums
    float* d_f = to_device(f);
    double* d_d = to_device(d);
    int* d_k = to_device(k);
    unsigned int* d_u = to_device(u);
    void* d_o = nullptr;
    CHECK(cudaMalloc(&d_o, (size_t)n * 3 * sizeof(double)));
#define RUN_TILE(T, OP, SIZE, SRC)                                                        \
  {                                                                                       \
    k_tile_##T##_##OP##_##SIZE<<<n / kThreads, kThreads>>>(SRC, (T*)d_o, n);              \
    CHECK(cudaGetLastError());                                                            \
    std::vector<T> got = from_device((T*)d_o, (size_t)n * 3);                             \
    print_line("cg " #T " " #OP " tile " #SIZE, got.data(), got.size() * sizeof(T),      \
               got.size());                                                               \
  }
#define RUN_TILES(T, OP, SRC) \
  RUN_TILE(T, OP, 32, SRC) RUN_TILE(T, OP, 16, SRC) RUN_TILE(T, OP, 8, SRC) \
  RUN_TILE(T, OP, 4, SRC) RUN_TILE(T, OP, 2, SRC)
    RUN_TILES(float, plus, d_f)
    RUN_TILES(float, less, d_f)
    RUN_TILES(float, greater, d_f)
    RUN_TILES(int, plus, d_k)
    RUN_TILES(int, less, d_k)
    RUN_TILES(int, greater, d_k)
    RUN_TILES(uint_, plus, d_u)
    RUN_TILES(uint_, bit_and, d_u)
    RUN_TILES(uint_, bit_or, d_u)
    RUN_TILES(uint_, bit_xor, d_u)
    RUN_TILES(double, plus, d_d)
    k_tile_default_scans<<<n / kThreads, kThreads>>>(d_k, (int*)d_o, n);
    CHECK(cudaGetLastError());
    std::vector<int> got = from_device((int*)d_o, (size_t)n * 2);
    print_line("cg int default scans", got.data(), got.size() * sizeof(int), got.size());
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("%d functions checked\n", g_lines);
  return 0;
}
