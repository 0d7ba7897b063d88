// Uses every function of hipify_py_compat.h under its CUDA name (AMD: the
// exported names; NVIDIA: CUDA's own), plus the namespace bodies explicitly.
#include "hipify_py_compat.h"

namespace cg = cooperative_groups;

template <class T> __device__ void hints(T* p, const T* q) {
  T v = __ldcs(q); v = __ldlu(q); v = __ldcg(q); v = __ldca(q); v = __ldcv(q);
  __stcs(p, v); __stcg(p, v); __stwb(p, v); __stwt(p, v);
  v = hipify_py_compat::__ldcs(q); hipify_py_compat::__stcs(p, v);
}

__global__ void every(unsigned int* u, long long* ll, unsigned long long* ull, float* f,
                      int* i, double* d, char2* c2, char4* c4, short2* s2, short4* s4,
                      int2* i2, int4* i4, longlong2* l2, uchar2* uc2, uchar4* uc4, ushort2* us2,
                      ushort4* us4, uint2* ui2, uint4* ui4, ulonglong2* ul2, float2* f2,
                      float4* f4, double2* d2, char* c, signed char* sc, short* s,
                      unsigned char* uc, unsigned short* us) {
  unsigned int a = u[0], b = u[1];
  u[2] = umin(a, b) + umax(a, b);
  ll[0] = llmin(ll[1], ll[2]) + llmax(ll[1], ll[2]);
  ull[0] = ullmin(ull[1], ull[2]) + ullmax(ull[1], ull[2]);
#define TWO(N) u[3] += N##2(a, b) + N##4(a, b) + hipify_py_compat::N##2(a, b) + hipify_py_compat::N##4(a, b);
  TWO(__vadd) TWO(__vsub) TWO(__vabsdiffu) TWO(__vabsdiffs) TWO(__vavgu) TWO(__vhaddu)
  TWO(__vmaxu) TWO(__vminu) TWO(__vmaxs) TWO(__vmins) TWO(__vcmpeq) TWO(__vcmpne)
  TWO(__vcmpgtu) TWO(__vcmpgeu) TWO(__vcmpltu) TWO(__vcmpleu) TWO(__vcmpgts) TWO(__vcmpges)
  TWO(__vcmplts) TWO(__vcmples) TWO(__vseteq) TWO(__vsetne) TWO(__vsetgtu) TWO(__vsetgeu)
  TWO(__vsetltu) TWO(__vsetleu) TWO(__vsetgts) TWO(__vsetges) TWO(__vsetlts) TWO(__vsetles)
  TWO(__vaddss) TWO(__vsubss) TWO(__vaddus) TWO(__vsubus) TWO(__vsadu) TWO(__vsads)
#define ONE(N) u[4] += N##2(a) + N##4(a);
  ONE(__vabs) ONE(__vabsss) ONE(__vneg) ONE(__vnegss)
  hints(u, u + 1); hints(ll, ll + 1); hints(ull, ull + 1); hints(f, f + 1); hints(i, i + 1);
  hints(d, d + 1); hints(c2, c2 + 1); hints(c4, c4 + 1); hints(s2, s2 + 1); hints(s4, s4 + 1);
  hints(i2, i2 + 1); hints(i4, i4 + 1); hints(l2, l2 + 1); hints(uc2, uc2 + 1);
  hints(uc4, uc4 + 1); hints(us2, us2 + 1); hints(us4, us4 + 1); hints(ui2, ui2 + 1);
  hints(ui4, ui4 + 1); hints(ul2, ul2 + 1); hints(f2, f2 + 1); hints(f4, f4 + 1);
  hints(d2, d2 + 1); hints(c, c + 1); hints(sc, sc + 1); hints(s, s + 1); hints(uc, uc + 1);
  hints(us, us + 1);

  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  float x = f[threadIdx.x];
  int n = i[threadIdx.x];
  f[0] = cg::reduce(t32, x, cg::plus<float>()) + cg::reduce(t16, x, cg::less<float>())
       + cg::reduce(t32, x, cg::greater<float>());
  i[0] = cg::reduce(t32, n, cg::bit_and<int>()) + cg::reduce(t32, n, cg::bit_or<int>())
       + cg::reduce(t32, n, cg::bit_xor<int>());
  f[1] = cg::inclusive_scan(t32, x) + cg::inclusive_scan(t16, x, cg::plus<float>())
       + cg::exclusive_scan(t32, x) + cg::exclusive_scan(t16, x, cg::greater<float>());
  f[2] = hipify_py_compat::cg::reduce(t32, x, hipify_py_compat::cg::plus<float>())
       + hipify_py_compat::cg::inclusive_scan(t32, x)
       + hipify_py_compat::cg::exclusive_scan(t32, x);
  i[1] = cg::reduce(t32, n, [](int p, int q) { return p > q ? p : q; });
}

int main() { return 0; }
