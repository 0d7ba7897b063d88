// Templates and functors as kernels: generic map/zip kernels parameterised by
// a functor type, a block reduction templated on block size, element type and
// operator, and host-side launch helpers. The CPU reference calls the same
// __host__ __device__ functors.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

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

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

template <typename T>
struct Clamp {
  T lo, hi;
  __host__ __device__ T operator()(T x) const { return x < lo ? lo : (x > hi ? hi : x); }
};

struct Max {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

struct Plus {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

template <typename T, typename UnaryOp>
__global__ void mapKernel(const T* in, T* out, int n, UnaryOp op) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = op(in[i]);
}

template <typename T, typename BinaryOp>
__global__ void zipKernel(const T* a, const T* b, T* out, int n, BinaryOp op) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = op(a[i], b[i]);
}

template <int BLOCK, typename T, typename Op>
__global__ void reduceKernel(const T* in, T* out, int n, Op op, T identity) {
  __shared__ T s[BLOCK];
  T acc = identity;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) acc = op(acc, in[i]);
  s[threadIdx.x] = acc;
  __syncthreads();
#pragma unroll
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T, typename Op>
void launchMap(const T* in, T* out, int n, Op op) {
  mapKernel<T, Op><<<64, 256>>>(in, out, n, op);
  CUDA_CHECK(cudaGetLastError());
}

template <typename T, typename Op>
void launchZip(const T* a, const T* b, T* out, int n, Op op) {
  zipKernel<<<64, 256>>>(a, b, out, n, op);  // template arguments deduced
  CUDA_CHECK(cudaGetLastError());
}

// Two-pass reduction: per-block partials on the GPU, then the partials on the host.
template <int BLOCK, typename T, typename Op>
T reduce(const T* d_in, int n, Op op, T identity) {
  const int blocks = 32;
  T* d_partial;
  CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(T)));
  reduceKernel<BLOCK, T, Op><<<blocks, BLOCK>>>(d_in, d_partial, n, op, identity);
  CUDA_CHECK(cudaGetLastError());
  std::vector<T> partial(blocks);
  CUDA_CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_partial));
  T r = identity;
  for (int b = 0; b < blocks; ++b) r = op(r, partial[b]);
  return r;
}

int main() {
  const int n = 200000;
  std::vector<float> hx(n), hy(n);
  std::vector<int> hi(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 513 - 256);
    hy[i] = (float)(i % 37);
    hi[i] = (i * 7877) % 20011 - 10005;
  }

  float *dx, *dy, *dz;
  int *di, *dc;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dz, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&di, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dc, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  const Saxpy saxpy{2.0f};
  const Clamp<int> clamp{-5000, 7000};
  launchZip(dx, dy, dz, n, saxpy);
  launchMap(di, dc, n, clamp);
  const int maxClamped = reduce<256>(dc, n, Max(), INT_MIN);
  const long long sumSaxpyInt = (long long)reduce<128>(dz, n, Plus(), 0.0f);
  const int sumClamped = reduce<512>(dc, n, Plus(), 0);
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> z(n);
  std::vector<int> c(n);
  CUDA_CHECK(cudaMemcpy(z.data(), dz, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(c.data(), dc, n * sizeof(int), cudaMemcpyDeviceToHost));

  int badZ = 0, badC = 0, refMax = INT_MIN, refSumC = 0;
  double refSumZ = 0.0;
  for (int i = 0; i < n; ++i) {
    const float rz = saxpy(hx[i], hy[i]);
    const int rc = clamp(hi[i]);
    badZ += z[i] != rz;
    badC += c[i] != rc;
    refMax = Max()(refMax, rc);
    refSumZ += rz;
    refSumC += rc;
  }

  printf("saxpy mismatches = %d\n", badZ);
  printf("clamp mismatches = %d\n", badC);
  printf("max of clamped = %d\n", maxClamped);
  printf("sum of clamped = %d\n", sumClamped);
  printf("sum of saxpy = %lld\n", sumSaxpyInt);

  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  CUDA_CHECK(cudaFree(dz));
  CUDA_CHECK(cudaFree(di));
  CUDA_CHECK(cudaFree(dc));

  const bool ok = badZ == 0 && badC == 0 && maxClamped == refMax && sumClamped == refSumC &&
                  sumSaxpyInt == (long long)refSumZ;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
