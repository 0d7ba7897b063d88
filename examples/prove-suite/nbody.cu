// nbody.cu - all-pairs gravitational N-body step in the style of GPU Gems 3
// ch. 31: bodies as float4 (xyz + mass), tiles of positions staged through
// shared memory, softened rsqrtf interaction, leapfrog integration.
#include "check.cuh"

#include <vector>

constexpr int kBlock = 128;
constexpr float kSoftening2 = 0.01f;

__device__ float3 body_body(float4 bi, float4 bj, float3 ai) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    const float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + kSoftening2;
    const float inv = rsqrtf(dist2);
    const float inv3 = inv * inv * inv;
    const float s = bj.w * inv3;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void integrate(float4 *pos, float4 *vel, int n, float dt) {
    __shared__ float4 tile[kBlock];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int t = 0; t < (n + kBlock - 1) / kBlock; ++t) {
        const int j = t * kBlock + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);  // mass 0 adds nothing
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < kBlock; ++k) acc = body_body(me, tile[k], acc);
        __syncthreads();
    }
    if (i < n) {
        float4 v = vel[i];
        v.x += acc.x * dt;
        v.y += acc.y * dt;
        v.z += acc.z * dt;
        vel[i] = v;
    }
}

__global__ void advance(float4 *pos, const float4 *vel, int n, float dt) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = pos[i];
        const float4 v = vel[i];
        p.x += v.x * dt;
        p.y += v.y * dt;
        p.z += v.z * dt;
        pos[i] = p;
    }
}

int main(int argc, char **argv) {
    const int n = static_cast<int>(arg_int(argc, argv, "--n", 4000));
    const int steps = static_cast<int>(arg_int(argc, argv, "--steps", 10));
    HostRng rng(static_cast<uint64_t>(arg_int(argc, argv, "--seed", 31)));
    const float dt = 0.001f;
    std::vector<float4> pos(n), vel(n);
    for (int i = 0; i < n; ++i) {
        pos[i] = make_float4(rng.symmetric(), rng.symmetric(), rng.symmetric(), 0.5f + rng.uniform());
        vel[i] = make_float4(0.1f * rng.symmetric(), 0.1f * rng.symmetric(), 0.1f * rng.symmetric(), 0.0f);
    }
    // CPU reference in double
    std::vector<double> px(n), py(n), pz(n), vx(n), vy(n), vz(n), m(n);
    for (int i = 0; i < n; ++i) {
        px[i] = pos[i].x; py[i] = pos[i].y; pz[i] = pos[i].z; m[i] = pos[i].w;
        vx[i] = vel[i].x; vy[i] = vel[i].y; vz[i] = vel[i].z;
    }
    for (int s = 0; s < steps; ++s) {
        for (int i = 0; i < n; ++i) {
            double ax = 0, ay = 0, az = 0;
            for (int j = 0; j < n; ++j) {
                const double rx = px[j] - px[i], ry = py[j] - py[i], rz = pz[j] - pz[i];
                const double d2 = rx * rx + ry * ry + rz * rz + kSoftening2;
                const double inv = 1.0 / sqrt(d2);
                const double k = m[j] * inv * inv * inv;
                ax += rx * k; ay += ry * k; az += rz * k;
            }
            vx[i] += ax * dt; vy[i] += ay * dt; vz[i] += az * dt;
        }
        for (int i = 0; i < n; ++i) {
            px[i] += vx[i] * dt; py[i] += vy[i] * dt; pz[i] += vz[i] * dt;
        }
    }
    float4 *dpos, *dvel;
    CUDA_CHECK(cudaMalloc(&dpos, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&dvel, n * sizeof(float4)));
    CUDA_CHECK(cudaMemcpy(dpos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dvel, vel.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    const int blocks = (n + kBlock - 1) / kBlock;
    for (int s = 0; s < steps; ++s) {
        integrate<<<blocks, kBlock>>>(dpos, dvel, n, dt);
        CUDA_CHECK_LAST();
        advance<<<blocks, kBlock>>>(dpos, dvel, n, dt);
        CUDA_CHECK_LAST();
    }
    CUDA_CHECK(cudaMemcpy(pos.data(), dpos, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(vel.data(), dvel, n * sizeof(float4), cudaMemcpyDeviceToHost));
    double err = 0.0, cx = 0, cy = 0, cz = 0, mt = 0;
    for (int i = 0; i < n; ++i) {
        err = std::max(err, fabs(pos[i].x - px[i]));
        err = std::max(err, fabs(pos[i].y - py[i]));
        err = std::max(err, fabs(pos[i].z - pz[i]));
        cx += pos[i].w * pos[i].x; cy += pos[i].w * pos[i].y; cz += pos[i].w * pos[i].z; mt += pos[i].w;
    }
    printf("bodies = %d steps = %d\n", n, steps);
    printf("centre of mass = (%.5f, %.5f, %.5f)\n", cx / mt, cy / mt, cz / mt);
    printf("body 0 = (%.4f, %.4f, %.4f)\n", pos[0].x, pos[0].y, pos[0].z);
    check_close("positions vs double reference", err, 1e-4);
    CUDA_CHECK(cudaFree(dpos));
    CUDA_CHECK(cudaFree(dvel));
    return finish("nbody");
}
