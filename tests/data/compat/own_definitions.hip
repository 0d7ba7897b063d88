// A HIP port's own definitions of names the compat header provides (as
// ggml's vendors/hip.h has): they must not collide with the header's, and
// calls must resolve to them.
#include "hipify_py_compat.h"

__device__ unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned int __vsub4(unsigned int a, unsigned int b) {
  return a - b;  // deliberately not CUDA's: shows which one is called
}
static __device__ __forceinline__ int __vsubss4(const int a, const int b) { return a - b; }

__global__ void k(unsigned int* u, int* s, float4* f) {
  u[0] = umin(u[1], u[2]) + umax(u[1], u[2]) + __vsub4(u[3], u[4]) + __vcmpne4(u[5], u[6]);
  s[0] = __vsubss4(s[1], s[2]);
  __stcs(f, __ldcs(f + 1));
}
