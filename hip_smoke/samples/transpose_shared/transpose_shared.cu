// Matrix transpose: naive, shared-memory tiled, and shared-memory tiled with
// one column of padding so that the column reads hit distinct banks.
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

#define TILE_DIM 32
#define BLOCK_ROWS 8

// in: height x width (row-major); out: width x height.
__global__ void transposeNaive(float* out, const float* in, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) out[x * height + (y + j)] = in[(y + j) * width + x];
  }
}

// PAD = 0: every thread of a warp reads the same bank in the second phase.
// PAD = 1: the row stride is 33 words, so the column reads spread over banks.
template <int PAD>
__global__ void transposeShared(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + PAD];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();

  // Swap the block indices: write the transposed tile with coalesced stores.
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

static int countMismatches(const std::vector<float>& got, const std::vector<float>& in,
                           int width, int height) {
  int bad = 0;
  for (int r = 0; r < width; ++r)
    for (int c = 0; c < height; ++c)
      if (got[(size_t)r * height + c] != in[(size_t)c * width + r]) ++bad;
  return bad;
}

int main() {
  // Neither dimension is a multiple of the tile size.
  const int width = 1000, height = 700;
  const size_t count = (size_t)width * height;
  const size_t bytes = count * sizeof(float);

  std::vector<float> h_in(count), h_out(count);
  for (size_t i = 0; i < count; ++i) h_in[i] = (float)i;  // exact below 2^24

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));

  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);
  const char* names[3] = {"naive", "shared", "shared padded"};
  int total_bad = 0;
  for (int k = 0; k < 3; ++k) {
    CUDA_CHECK(cudaMemset(d_out, 0, bytes));
    if (k == 0) {
      transposeNaive<<<grid, block>>>(d_out, d_in, width, height);
    } else if (k == 1) {
      transposeShared<0><<<grid, block>>>(d_out, d_in, width, height);
    } else {
      transposeShared<1><<<grid, block>>>(d_out, d_in, width, height);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    int bad = countMismatches(h_out, h_in, width, height);
    total_bad += bad;
    printf("%s mismatches = %d\n", names[k], bad);
  }

  printf("matrix = %d x %d\n", height, width);
  printf("out[1][2] = %.1f\n", h_out[1 * height + 2]);
  printf("out[999][699] = %.1f\n", h_out[(size_t)999 * height + 699]);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));

  const bool ok = total_bad == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
