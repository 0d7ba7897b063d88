"""Throughput and latency benchmark for hipify-py.  Prints numbers; asserts nothing.

Run from the repository root (or anywhere; the project root is found from this file):

    python benchmarks/throughput.py                 # 8 MB corpus, --jobs 1 and --jobs <cores>
    python benchmarks/throughput.py --mb 2 --repeat 1 --json bench.json

What it measures:

1. End to end, through the real CLI in a subprocess: ``python -m hipify_py DIR -o OUT -q``
   and ``python -m hipify_py DIR --check -q`` over a generated corpus of CUDA sources (plus
   the samples and fixture inputs shipped in the repository), with ``--jobs 1`` and
   ``--jobs N``, three kinds of run kept apart: "cold" (``--no-cache``: every file parsed and
   translated, the mapping-table cache warm), "first" (an empty ``HIPIFY_PY_CACHE_DIR``: the
   YAML tables are compiled too) and "rerun" (the same command again over the unchanged tree:
   every result comes from the content-hash result cache, nothing is parsed).
2. Small-file latency, process start to exit: ``python -m hipify_py one_small.cu --check -q``
   (what a pre-commit hook pays), next to ``python -c pass``, ``python -c "import hipify_py"``
   and ``python -m hipify_py --version``; the ``hipify-py`` console script too if it exists.
3. In-process engine throughput: ``translate_bytes`` over the corpus held in memory, and where
   that time goes (parse, the rules, the rest) by wrapping the engine's helpers for one pass.

Configurations are interleaved round by round, and each run records its CPU time (cpu/wall
shows how well --jobs spreads) and the CPU other processes used meanwhile ("noise": on a
shared machine, distrust rows where it is high).  The CLI runs get a private
PYTHONPYCACHEPREFIX so hipify_py is not recompiled from source on every run even when
PYTHONDONTWRITEBYTECODE=1 (use --inherit-bytecode to keep the inherited settings).

Issue targets, for context only: >= 3 MB/s end to end on a 2-core machine; < 0.5 s for one
small file from process start to exit.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import os
import platform
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KB = 1024
MB = 1024 * 1024
MIN_FILE, MAX_FILE = 2 * KB, 200 * KB

# --------------------------------------------------------------------------- corpus


def _pick(rng: random.Random, items: Sequence[str]) -> str:
    return items[rng.randrange(len(items))]


_TYPES = ("float", "double", "int", "__half", "float2", "unsigned int")
_SCALARS = ("float", "double")
_UNARY = (
    "__expf({x})",
    "rsqrtf({x} + 1.0f)",
    "__fdividef({x}, 3.0f)",
    "fmaxf({x}, 0.0f)",
    "__saturatef({x})",
    "tanhf({x})",
    "__logf(fabsf({x}) + 1e-6f)",
    "{x} * {x}",
)
_WORDS = (
    "tile",
    "block",
    "warp",
    "grid",
    "row",
    "col",
    "accum",
    "partial",
    "scale",
    "bias",
    "norm",
    "index",
    "stride",
    "offset",
    "chunk",
    "batch",
    "lane",
    "head",
    "seq",
    "feat",
)
_SYSTEM_INCLUDES = (
    "<cstdio>",
    "<cstdlib>",
    "<vector>",
    "<algorithm>",
    "<cmath>",
    "<memory>",
    "<string>",
    "<stdexcept>",
    "<numeric>",
    "<iostream>",
)
_CUDA_INCLUDES = (
    "<cuda_runtime.h>",
    "<cuda.h>",
    "<cuda_fp16.h>",
    "<cooperative_groups.h>",
    "<curand_kernel.h>",
    "<cuda_runtime_api.h>",
    "<device_launch_parameters.h>",
)


class _Names:
    """Unique identifiers for one file, so generated chunks never clash."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.n = 0

    def __call__(self, stem: str) -> str:
        self.n += 1
        return f"{stem}_{_pick(self.rng, _WORDS)}{self.n}"


def _header(rng: random.Random, kind: str, project: str) -> str:
    year = rng.randint(2015, 2024)
    lines = [
        "/*",
        f" * Copyright (c) {year}, The {project} authors. All rights reserved.",
        " *",
        ' * Licensed under the Apache License, Version 2.0 (the "License");',
        " * you may not use this file except in compliance with the License.",
        " */",
        "",
    ]
    if kind == ".cuh":
        lines.append("#pragma once")
    includes = rng.sample(_SYSTEM_INCLUDES, rng.randint(1, 4))
    cuda = ["<cuda_runtime.h>"] if kind != ".cuh" or rng.random() < 0.5 else []
    cuda += rng.sample(_CUDA_INCLUDES[1:], rng.randint(0, 2))
    if kind != ".cuh" and rng.random() < 0.5:
        cuda.append("<cublas_v2.h>")
    lines += [f"#include {inc}" for inc in [*includes, *cuda]]
    if rng.random() < 0.6:
        lines.append(f'#include "{project.lower()}/common.cuh"')
    lines.append("")
    return "\n".join(lines) + "\n"


def _check_macros() -> str:
    return """\
#ifndef CUDA_CHECK
#define CUDA_CHECK(call)                                                        \\
  do {                                                                          \\
    cudaError_t err__ = (call);                                                 \\
    if (err__ != cudaSuccess) {                                                 \\
      fprintf(stderr, "CUDA error %s at %s:%d\\n", cudaGetErrorString(err__),   \\
              __FILE__, __LINE__);                                              \\
      std::exit(EXIT_FAILURE);                                                  \\
    }                                                                           \\
  } while (0)
#endif

#define CUBLAS_CHECK(call)                                                      \\
  do {                                                                          \\
    cublasStatus_t st__ = (call);                                               \\
    if (st__ != CUBLAS_STATUS_SUCCESS) {                                        \\
      fprintf(stderr, "cuBLAS error %d at %s:%d\\n", (int)st__, __FILE__, __LINE__); \\
      std::exit(EXIT_FAILURE);                                                  \\
    }                                                                           \\
  } while (0)

#define KERNEL_CHECK() CUDA_CHECK(cudaGetLastError())
"""


def _doc_comment(rng: random.Random, what: str) -> str:
    lines = [f"/// {what}: {' '.join(rng.sample(_WORDS, 6))}."]
    for _ in range(rng.randint(0, 4)):
        lines.append(f"/// {' '.join(rng.sample(_WORDS, rng.randint(4, 10)))}.")
    if rng.random() < 0.3:
        lines.append("/// Note: the caller owns the buffers (allocate them with cudaMalloc).")
    return "\n".join(lines) + "\n"


def _elementwise(rng: random.Random, names: _Names) -> str:
    name = names("k_map")
    expr = _pick(rng, _UNARY).format(x="static_cast<float>(in[i])")
    return (
        _doc_comment(rng, "element-wise map")
        + f"""\
template <typename T>
__global__ void {name}(const T* __restrict__ in, T* __restrict__ out, int n, float alpha) {{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{
    out[i] = static_cast<T>(alpha * {expr});
  }}
}}

"""
    )


def _reduce(rng: random.Random, names: _Names) -> str:
    name = names("k_reduce")
    block = _pick(rng, ("128", "256", "512"))
    t = _pick(rng, _SCALARS)
    return (
        _doc_comment(rng, "block reduction")
        + f"""\
template <int BLOCK>
__global__ void {name}(const {t}* in, {t}* out, size_t n) {{
  __shared__ {t} smem[BLOCK / 32];
  {t} sum = 0;
  for (size_t i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += (size_t)BLOCK * gridDim.x)
    sum += in[i];
  // warp-level reduction with shuffles
  for (int off = warpSize / 2; off > 0; off >>= 1)
    sum += __shfl_down_sync(0xffffffff, sum, off);
  const int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  if (lane == 0) smem[wid] = sum;
  __syncthreads();
  if (wid == 0) {{
    sum = (lane < BLOCK / 32) ? smem[lane] : 0;
    for (int off = warpSize / 2; off > 0; off >>= 1)
      sum += __shfl_xor_sync(0xffffffff, sum, off);
    if (lane == 0) atomicAdd(out, sum);
  }}
}}
template __global__ void {name}<{block}>(const {t}*, {t}*, size_t);

"""
    )


def _matmul(rng: random.Random, names: _Names) -> str:
    name = names("k_gemm")
    tile = _pick(rng, ("8", "16", "32"))
    return (
        _doc_comment(rng, "tiled matrix multiply")
        + f"""\
template <int TILE, typename T>
__global__ void {name}(const T* A, const T* B, T* C, int M, int N, int K) {{
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE + 1];  // +1: avoid bank conflicts
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  T acc = T(0);
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {{
    As[threadIdx.y][threadIdx.x] = (row < M && t * TILE + threadIdx.x < K)
        ? A[row * K + t * TILE + threadIdx.x] : T(0);
    Bs[threadIdx.y][threadIdx.x] = (col < N && t * TILE + threadIdx.y < K)
        ? __ldg(&B[(t * TILE + threadIdx.y) * N + col]) : T(0);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }}
  if (row < M && col < N) C[row * N + col] = acc;
}}

inline void launch_{name}(const float* A, const float* B, float* C, int M, int N, int K,
                          cudaStream_t stream) {{
  dim3 block({tile}, {tile});
  dim3 grid((N + {tile} - 1) / {tile}, (M + {tile} - 1) / {tile});
  {name}<{tile}, float><<<grid, block, 0, stream>>>(A, B, C, M, N, K);
  KERNEL_CHECK();
}}

"""
    )


def _stencil(rng: random.Random, names: _Names) -> str:
    name = names("k_stencil")
    radius = rng.randint(1, 4)
    return (
        _doc_comment(rng, "1-D stencil with dynamic shared memory")
        + f"""\
__global__ void {name}(const float* in, float* out, int n) {{
  extern __shared__ float halo[];
  const int R = {radius};
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + R;
  halo[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < R) {{
    halo[l - R] = g >= R ? in[g - R] : 0.0f;
    halo[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
  }}
  __syncthreads();
  float v = 0.0f;
  for (int o = -R; o <= R; ++o) v += halo[l + o];
  if (g < n) out[g] = v / (2 * R + 1);
}}

"""
    )


def _device_helpers(rng: random.Random, names: _Names) -> str:
    name = names("d_apply")
    expr = _pick(rng, _UNARY).format(x="x")
    return f"""\
__device__ __forceinline__ float {name}(float x) {{
  return {expr};
}}

__host__ __device__ inline int {name}_div_up(int a, int b) {{ return (a + b - 1) / b; }}

__global__ void {name}_rng(curandState* states, float* out, unsigned long long seed, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  curand_init(seed, i, 0, &states[i]);
  out[i] = {name}(curand_uniform(&states[i]));
  __threadfence();
}}

"""


def _host_pipeline(rng: random.Random, names: _Names, launches: bool) -> str:
    name = names("run_pipeline")
    t = _pick(rng, ("float", "double", "int"))
    streams = rng.randint(1, 4)
    launch = (
        f"""    k_host_{name}<<<blocks, threads, 0, streams[s]>>>(d_in + off, d_out + off, chunk);
    CUDA_CHECK(cudaGetLastError());
"""
        if launches
        else "    CUDA_CHECK(cudaMemsetAsync(d_out + off, 0, chunk * sizeof(T), streams[s]));\n"
    )
    kernel = (
        f"""template <typename T>
__global__ void k_host_{name}(const T* in, T* out, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + T(1);
}}

"""
        if launches
        else ""
    )
    return (
        kernel
        + _doc_comment(rng, "host pipeline")
        + f"""\
template <typename T>
float {name}(const std::vector<T>& host_in, std::vector<T>& host_out) {{
  const int n = static_cast<int>(host_in.size());
  const int kStreams = {streams};
  T* d_in = nullptr;
  T* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc((void**)&d_out, n * sizeof(T)));
  T* pinned = nullptr;
  CUDA_CHECK(cudaMallocHost(&pinned, n * sizeof(T)));
  std::copy(host_in.begin(), host_in.end(), pinned);
  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s)
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, streams[0]));
  const int chunk = (n + kStreams - 1) / kStreams;
  const int threads = 256;
  const int blocks = (chunk + threads - 1) / threads;
  for (int s = 0; s < kStreams; ++s) {{
    const int off = s * chunk;
    CUDA_CHECK(cudaMemcpyAsync(d_in + off, pinned + off, chunk * sizeof(T),
                               cudaMemcpyHostToDevice, streams[s]));
{launch}    CUDA_CHECK(cudaMemcpyAsync(pinned + off, d_out + off, chunk * sizeof(T),
                               cudaMemcpyDeviceToHost, streams[s]));
  }}
  CUDA_CHECK(cudaEventRecord(stop, streams[0]));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaDeviceSynchronize());
  host_out.assign(pinned, pinned + n);
  for (int s = 0; s < kStreams; ++s) CUDA_CHECK(cudaStreamDestroy(streams[s]));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFreeHost(pinned));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return ms;
}}
template float {name}<{t}>(const std::vector<{t}>&, std::vector<{t}>&);

"""
    )


def _host_cublas(rng: random.Random, names: _Names) -> str:
    name = names("gemm_cublas")
    op_a = _pick(rng, ("CUBLAS_OP_N", "CUBLAS_OP_T"))
    double = rng.random() < 0.3
    t, gemm = ("double", "cublasDgemm") if double else ("float", "cublasSgemm")
    return (
        _doc_comment(rng, "cuBLAS GEMM wrapper")
        + f"""\
void {name}(int m, int n, int k, const {t}* A, const {t}* B, {t}* C, cudaStream_t stream) {{
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  const {t} alpha = 1, beta = 0;
  CUBLAS_CHECK({gemm}(handle, {op_a}, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m));
  {t} result = 0;
  CUBLAS_CHECK(cublas{"D" if double else "S"}dot(handle, m, C, 1, C, 1, &result));
  int version = 0;
  cublasGetVersion(handle, &version);
  CUBLAS_CHECK(cublasDestroy(handle));
}}

"""
    )


def _host_device_query(rng: random.Random, names: _Names) -> str:
    name = names("select_device")
    return f"""\
int {name}(bool verbose) {{
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  int best = 0;
  size_t best_mem = 0;
  for (int d = 0; d < count; ++d) {{
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    if (verbose)
      printf("device %d: %s, %d SMs, cc %d.%d\\n", d, prop.name, prop.multiProcessorCount,
             prop.major, prop.minor);
    if (prop.totalGlobalMem > best_mem) {{ best = d; best_mem = prop.totalGlobalMem; }}
  }}
  CUDA_CHECK(cudaSetDevice(best));
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  int value = 0;
  cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, best);
  return best;
}}

"""


def _host_managed(rng: random.Random, names: _Names) -> str:
    name = names("managed_buffer")
    return f"""\
struct {name} {{
  float* ptr = nullptr;
  size_t n = 0;
  explicit {name}(size_t count) : n(count) {{
    CUDA_CHECK(cudaMallocManaged(&ptr, n * sizeof(float), cudaMemAttachGlobal));
    CUDA_CHECK(cudaMemset(ptr, 0, n * sizeof(float)));
  }}
  void prefetch(int device, cudaStream_t s = 0) const {{
    CUDA_CHECK(cudaMemPrefetchAsync(ptr, n * sizeof(float), device, s));
  }}
  ~{name}() {{ cudaFree(ptr); }}
}};

"""


def _plain_cpp(rng: random.Random, names: _Names) -> str:
    name = names("Options")
    fields = rng.sample(_WORDS, rng.randint(3, 8))
    body = "\n".join(f"  int {f} = {rng.randint(0, 64)};" for f in fields)
    checks = "\n".join(
        f'    if ({f} < 0) throw std::invalid_argument("{f} must be >= 0");' for f in fields
    )
    return f"""\
// Plain C++: configuration parsing, nothing CUDA-specific here.
class {name} {{
 public:
{body}

  void validate() const {{
{checks}
  }}

  std::string describe() const {{
    std::string out;
    for (const char* part : {{{", ".join(f'"{f}"' for f in fields)}}}) {{
      out += part;
      out += ' ';
    }}
    return out;
  }}
}};

"""


_KERNEL_CHUNKS: tuple[Callable[[random.Random, _Names], str], ...] = (
    _elementwise,
    _reduce,
    _matmul,
    _stencil,
    _device_helpers,
)
_HOST_CHUNKS: tuple[Callable[[random.Random, _Names], str], ...] = (
    _host_cublas,
    _host_device_query,
    _host_managed,
    _plain_cpp,
)


def generate_source(rng: random.Random, kind: str, size: int, project: str) -> str:
    """One CUDA source file of about ``size`` bytes, of extension ``kind``."""
    names = _Names(rng)
    parts = [_header(rng, kind, project)]
    if kind != ".cuh":
        parts.append(_check_macros())
    parts.append(f"namespace {project.lower()} {{\n\n")
    total = sum(len(p) for p in parts)
    while total < size:
        roll = rng.random()
        if kind == ".cuh":
            chunk = _pick_chunk(rng, _KERNEL_CHUNKS)(rng, names)
        elif kind == ".cpp":  # host code: no kernels, no launches
            chunk = (
                _host_pipeline(rng, names, launches=False)
                if roll < 0.35
                else _pick_chunk(rng, _HOST_CHUNKS)(rng, names)
            )
        elif roll < 0.45:
            chunk = _pick_chunk(rng, _KERNEL_CHUNKS)(rng, names)
        elif roll < 0.75:
            chunk = _host_pipeline(rng, names, launches=True)
        else:
            chunk = _pick_chunk(rng, _HOST_CHUNKS)(rng, names)
        parts.append(chunk)
        total += len(chunk)
    parts.append(f"}}  // namespace {project.lower()}\n")
    return "".join(parts)


def _pick_chunk(
    rng: random.Random, chunks: tuple[Callable[[random.Random, _Names], str], ...]
) -> Callable[[random.Random, _Names], str]:
    return chunks[rng.randrange(len(chunks))]


@dataclass
class Corpus:
    root: Path
    files: list[Path] = field(default_factory=list)
    generated: int = 0
    shipped: int = 0

    @property
    def total_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.files)


def build_corpus(root: Path, megabytes: float, seed: int) -> Corpus:
    """Generated sources (log-uniform sizes, 2-200 KB) plus the repo's samples and fixtures."""
    rng = random.Random(seed)
    corpus = Corpus(root)
    target = int(megabytes * MB)
    total = 0
    index = 0
    projects = ("Fluxion", "Tensorette", "Quark", "Mandel", "Sparrow")
    while total < target:
        kind = rng.choices((".cu", ".cuh", ".cpp"), weights=(60, 25, 15))[0]
        size = int(math.exp(rng.uniform(math.log(MIN_FILE), math.log(MAX_FILE))))
        size = max(MIN_FILE, min(MAX_FILE, size, target - total))
        project = _pick(rng, projects)
        text = generate_source(rng, kind, size, project)
        folder = root / "gen" / project.lower() / f"mod{index % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"unit{index:04d}{kind}"
        path.write_text(text, encoding="utf-8")
        corpus.files.append(path)
        total += len(text)
        index += 1
    corpus.generated = index
    for path in shipped_sources():
        rel = path.relative_to(ROOT)
        dest = root / "repo" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
        corpus.files.append(dest)
        corpus.shipped += 1
    return corpus


def shipped_sources() -> list[Path]:
    found: list[Path] = []
    samples = ROOT / "hip_smoke" / "samples"
    if samples.is_dir():
        found += sorted(p for p in samples.rglob("*") if p.is_file())
    fixtures = ROOT / "fixtures"
    if fixtures.is_dir():
        found += sorted(p for p in fixtures.glob("*/input.*") if p.is_file())
    return found


# --------------------------------------------------------------------------- timing helpers


# Where the CLI subprocesses keep their .pyc files (set in main).  An installed tool has
# bytecode; PYTHONDONTWRITEBYTECODE=1 with a checkout would make every run compile
# hipify_py from source, so by default the runs get a private PYTHONPYCACHEPREFIX
# (nothing is written into the repository or site-packages).
_PYCACHE: Path | None = None


def _env(cache: Path, inherit_bytecode: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["HIPIFY_PY_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    if _PYCACHE is not None and not inherit_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    return env


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


@dataclass
class Timed:
    seconds: float
    returncode: int
    stderr: str
    cpu_s: float  # user + sys of the command and all its (waited-for) children
    other_cpu_s: float | None  # CPU the rest of the machine used meanwhile (Linux), noise


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _machine_busy_cpu() -> float | None:
    """Busy CPU seconds of the whole machine since boot (from /proc/stat), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            fields = handle.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 8:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(v) for v in fields[1:8])
    steal = int(fields[8]) if len(fields) > 8 else 0
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def run_timed(cmd: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> Timed:
    cpu0, busy0 = _children_cpu(), _machine_busy_cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        list(cmd), env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    elapsed = time.perf_counter() - start
    cpu = _children_cpu() - cpu0
    busy1 = _machine_busy_cpu()
    other = None if busy0 is None or busy1 is None else max(0.0, busy1 - busy0 - cpu)
    stderr = proc.stderr.decode("utf-8", "replace")[-2000:]
    return Timed(elapsed, proc.returncode, stderr, cpu, other)


def _summary(samples: list[float]) -> dict[str, float]:
    return {
        "best": min(samples),
        "median": statistics.median(samples),
        "worst": max(samples),
    }


def _warn_rc(label: str, timed: Timed, ok: tuple[int, ...] = (0, 1)) -> None:
    if timed.returncode not in ok:
        tail = timed.stderr.strip().splitlines()[-5:]
        print(f"  ! {label}: exit {timed.returncode}: {' | '.join(tail)}", file=sys.stderr)


# --------------------------------------------------------------------------- end to end


@dataclass
class E2ERow:
    mode: str
    jobs: int
    cache: str  # the kind of run: cold (--no-cache), first (empty cache folder), rerun
    runs: list[float]
    best_s: float
    median_s: float
    mb_per_s_best: float
    mb_per_s_median: float
    files_per_s_best: float
    cpu_per_wall_best: float  # CPU seconds (all processes of the run) / wall, best run
    other_cpu_pct_best: float | None  # rest of the machine's CPU during the best run, % of a core
    exit_codes: list[int]


# The three kinds of end-to-end run, kept apart so that no row mixes them:
#   cold   every file parsed and translated: --no-cache (the result cache is
#          neither read nor filled); the mapping-table cache is warm
#   first  the very first run: an empty cache folder, so the YAML tables are
#          compiled (about 0.7 s) and every file parsed (the result cache is filled)
#   rerun  the same command again over the unchanged tree: the result cache
#          answers for every file (nothing is parsed)
RUN_KINDS = ("cold", "first", "rerun")
# hipify-py's default extensions: what -o writes (the corpus also holds sample.yaml files)
_SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".inl", ".inc")


def bench_end_to_end(
    python: str, corpus: Corpus, jobs_list: list[int], repeat: int, work: Path
) -> list[E2ERow]:
    """Every configuration once per round, ``repeat`` rounds (so noise spreads evenly)."""
    size_mb = corpus.total_bytes / MB
    nfiles = len(corpus.files)
    warm_cache = work / "cache-warm"
    warm_cache.mkdir(exist_ok=True)
    # Fill the warm cache once - the table and every file's result at these
    # options (warms the OS page cache of the corpus and the .pyc files too).
    _warn_rc(
        "warm-up",
        run_timed(
            [python, "-m", "hipify_py", str(corpus.root), "--check", "-q", "--jobs", "1"],
            _env(warm_cache),
        ),
    )
    configs = [
        (mode, jobs, kind)
        for mode in ("output-dir", "check")
        for jobs in jobs_list
        for kind in RUN_KINDS
    ]
    timings: dict[tuple[str, int, str], list[Timed]] = {config: [] for config in configs}
    counter = 0
    for round_no in range(repeat):
        for config in configs:
            mode, jobs, kind = config
            counter += 1
            cmd = [python, "-m", "hipify_py", str(corpus.root), "-q", "--jobs", str(jobs)]
            if kind == "first":
                cache = work / f"cache-empty-{counter}"
                cache.mkdir()
            else:
                cache = warm_cache
            if kind == "cold":
                cmd.append("--no-cache")
            out = work / f"out-{counter}"
            cmd += ["-o", str(out)] if mode == "output-dir" else ["--check"]
            timed = run_timed(cmd, _env(cache))
            expected = (0,) if mode == "output-dir" else (0, 1)
            _warn_rc(f"{mode} jobs={jobs} {kind}", timed, expected)
            written = sum(1 for p in out.rglob("*") if p.is_file()) if out.is_dir() else 0
            sources = sum(1 for p in corpus.files if p.suffix in _SOURCE_SUFFIXES)
            if timed.returncode not in expected or "Traceback" in timed.stderr:
                print(f"  ! {mode} jobs={jobs} {kind}: failed run, not counted", file=sys.stderr)
            elif mode == "output-dir" and written < sources:
                print(
                    f"  ! {mode} jobs={jobs} {kind}: wrote {written} of {sources} "
                    "source files, not counted",
                    file=sys.stderr,
                )
            else:
                timings[config].append(timed)
            shutil.rmtree(out, ignore_errors=True)
            if kind == "first":
                shutil.rmtree(cache, ignore_errors=True)
            other = "" if timed.other_cpu_s is None else f"  other CPU {timed.other_cpu_s:5.2f} s"
            print(
                f"  round {round_no + 1}  {mode:<10} jobs={jobs:<3} {kind:<5} "
                f"{timed.seconds:7.3f} s  cpu {timed.cpu_s:6.2f} s{other}",
                flush=True,
            )
    rows: list[E2ERow] = []
    for config in configs:
        mode, jobs, kind = config
        runs = timings[config]
        if not runs:
            print(f"  ! {mode} jobs={jobs} {kind}: no valid run", file=sys.stderr)
            continue
        times = [t.seconds for t in runs]
        best_run = min(runs, key=lambda t: t.seconds)
        best, median = best_run.seconds, statistics.median(times)
        other_pct = None if best_run.other_cpu_s is None else 100 * best_run.other_cpu_s / best
        rows.append(
            E2ERow(
                mode,
                jobs,
                kind,
                times,
                best,
                median,
                size_mb / best,
                size_mb / median,
                nfiles / best,
                best_run.cpu_s / best,
                other_pct,
                [t.returncode for t in runs],
            )
        )
    return rows


def print_e2e_table(rows: list[E2ERow], corpus: Corpus) -> None:
    print()
    print(
        f"End to end ({len(corpus.files)} files, {corpus.total_bytes / MB:.2f} MB; "
        "MB/s, files/s, cpu/wall from the best run; noise: CPU other processes used meanwhile, "
        "in % of one core):"
    )
    head = (
        f"{'mode':<11}{'jobs':>5} {'run':<6}{'best s':>9}{'median s':>10}"
        f"{'MB/s best':>11}{'MB/s med':>10}{'files/s':>9}{'cpu/wall':>10}{'noise':>7}  exit"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        codes = ",".join(str(c) for c in sorted(set(r.exit_codes)))
        noise = "-" if r.other_cpu_pct_best is None else f"{r.other_cpu_pct_best:.0f}%"
        print(
            f"{r.mode:<11}{r.jobs:>5} {r.cache:<6}{r.best_s:>9.3f}{r.median_s:>10.3f}"
            f"{r.mb_per_s_best:>11.2f}{r.mb_per_s_median:>10.2f}{r.files_per_s_best:>9.1f}"
            f"{r.cpu_per_wall_best:>10.2f}{noise:>7}  {codes}"
        )
    print(
        "run: cold = --no-cache (every file parsed; table cache warm); first = empty cache "
        "folder (tables compiled, every file parsed); rerun = the same command again "
        "(result cache hits, nothing parsed)"
    )
    best = {(r.mode, r.jobs, r.cache): r.best_s for r in rows}
    for (mode, jobs, kind), seconds in best.items():
        if kind == "rerun" and (mode, jobs, "cold") in best:
            share = 100 * seconds / best[(mode, jobs, "cold")]
            print(f"  {mode} jobs={jobs}: rerun takes {share:.1f} % of the cold run (best of each)")


# --------------------------------------------------------------------------- latency


def small_file(folder: Path, seed: int) -> Path:
    rng = random.Random(seed + 1)
    path = folder / "one_small.cu"
    path.write_text(generate_source(rng, ".cu", 3 * KB, "Hook"), encoding="utf-8")
    return path


def bench_latency(python: str, small: Path, runs: int, work: Path) -> dict[str, dict[str, Any]]:
    cache = work / "cache-warm"
    cache.mkdir(exist_ok=True)
    env = _env(cache)
    cases: list[tuple[str, list[str], tuple[int, ...]]] = [
        ("python -c pass", [python, "-c", "pass"], (0,)),
        ("python -I -S -c pass", [python, "-I", "-S", "-c", "pass"], (0,)),
        ('python -c "import hipify_py"', [python, "-c", "import hipify_py"], (0,)),
        ("python -m hipify_py --version", [python, "-m", "hipify_py", "--version"], (0,)),
        (
            "python -m hipify_py one_small.cu --check -q",
            [python, "-m", "hipify_py", str(small), "--check", "-q"],
            (0, 1),
        ),
        (
            "  same, --no-cache (parsed every run)",
            [python, "-m", "hipify_py", str(small), "--check", "-q", "--no-cache"],
            (0, 1),
        ),
    ]
    script = shutil.which("hipify-py") or _script_next_to(python)
    if script:
        cases.append(
            ("hipify-py one_small.cu --check -q", [script, str(small), "--check", "-q"], (0, 1))
        )
    else:
        print("  (no hipify-py console script on PATH or next to the interpreter; skipped)")
    plain: list[tuple[str, list[str], tuple[int, ...], dict[str, str]]] = [
        (label, cmd, ok, env) for label, cmd, ok in cases
    ]
    if _PYCACHE is not None and os.environ.get("PYTHONDONTWRITEBYTECODE"):
        pyc = "with" if (ROOT / "hipify_py" / "__pycache__").is_dir() else "no"
        plain.append(
            (
                f"  same, PYTHONDONTWRITEBYTECODE=1 ({pyc} hipify_py .pyc)",
                [python, "-m", "hipify_py", str(small), "--check", "-q"],
                (0, 1),
                _env(cache, inherit_bytecode=True),
            )
        )
    # Make sure the table cache is filled before measuring.
    run_timed([python, "-m", "hipify_py", str(small), "--check", "-q"], env)
    results: dict[str, dict[str, Any]] = {}
    for label, cmd, ok, case_env in plain:
        run_timed(cmd, case_env)  # warm-up: page cache, .pyc files
        samples = []
        for _ in range(runs):
            timed = run_timed(cmd, case_env)
            _warn_rc(label, timed, ok)
            samples.append(timed.seconds)
        results[label] = {**_summary(samples), "runs": samples}
    return results


def _script_next_to(python: str) -> str | None:
    candidate = Path(python).parent / "hipify-py"
    return str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None


def print_latency(results: dict[str, dict[str, Any]], small: Path, runs: int) -> None:
    print()
    print(
        "Latency, process start to exit, warm table cache; without --no-cache the file's result "
        f"is cached after the first run ({small.stat().st_size} byte file, "
        f"{runs} runs):"
    )
    head = f"{'command':<48}{'best ms':>9}{'median ms':>11}{'worst ms':>10}"
    print(head)
    print("-" * len(head))
    for label, r in results.items():
        print(
            f"{label:<48}{r['best'] * 1e3:>9.1f}{r['median'] * 1e3:>11.1f}{r['worst'] * 1e3:>10.1f}"
        )


# --------------------------------------------------------------------------- in-process engine


class _Clock:
    """Accumulated seconds and calls per label (for the wrapped engine helpers)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[label] = self.seconds.get(label, 0.0) + time.perf_counter() - start
                self.calls[label] = self.calls.get(label, 0) + 1

        return timed


class _TimedRegex:
    def __init__(self, regex: Any, clock: _Clock, label: str) -> None:
        self._regex = regex
        self.findall = clock.wrap(label, regex.findall)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._regex, name)


@contextmanager
def _instrumented(clock: _Clock, table: Any) -> Iterator[list[str]]:
    """Wrap the engine's helpers (whatever of them exist) so their time is counted."""
    from hipify_py.engine import translate as engine

    patches: dict[str, Any] = {}
    names = ("inspect", "parse", "error_count", "LineIndex", "Context", "plan", "apply")
    for name in names:
        fn = getattr(engine, name, None)
        if callable(fn):
            patches[name] = clock.wrap(name, fn)
    regex = getattr(engine, "IDENTIFIER", None)
    if regex is not None and hasattr(regex, "findall"):
        patches["IDENTIFIER"] = _TimedRegex(regex, clock, "IDENTIFIER.findall (word scan)")
    all_rules = getattr(engine, "all_rules", None)
    if callable(all_rules):
        rules = tuple(replace(r, run=clock.wrap(f"rule {r.id}", r.run)) for r in all_rules())
        patches["all_rules"] = lambda: rules
    saved = {name: getattr(engine, name) for name in patches}
    wrapped = list(patches)
    for name, value in patches.items():
        setattr(engine, name, value)
    # Table methods the engine calls per file (an instance attribute shadows the method).
    table_methods = [
        name for name in ("newest_hip_version",) if callable(getattr(table, name, None))
    ]
    for name in table_methods:
        try:
            setattr(table, name, clock.wrap(f"table.{name}", getattr(table, name)))
            wrapped.append(f"table.{name}")
        except (AttributeError, TypeError):
            pass
    try:
        yield wrapped
    finally:
        for name, value in saved.items():
            setattr(engine, name, value)
        for name in table_methods:
            with suppress(AttributeError, TypeError):
                delattr(table, name)


def bench_engine(
    python: str, datas: list[bytes], repeat: int, work: Path, profile_top: int
) -> dict[str, Any]:
    cache = work / "cache-warm"
    cache.mkdir(exist_ok=True)
    # Fill the table cache from another process so the timing below is of a warm load.
    fill = [python, "-c", "from hipify_py import load_table; load_table()"]
    _warn_rc("filling the table cache", run_timed(fill, _env(cache)), (0,))
    os.environ["HIPIFY_PY_CACHE_DIR"] = str(cache)
    import hipify_py
    from hipify_py import Options, load_table, translate_bytes
    from hipify_py.engine.parse import parse

    out: dict[str, Any] = {}
    start = time.perf_counter()
    table = load_table()
    out["load_table_cached_s"] = time.perf_counter() - start
    try:
        from hipify_py.tables.table import default_mappings_dir, load_directory

        start = time.perf_counter()
        load_directory(default_mappings_dir())
        out["load_table_from_yaml_s"] = time.perf_counter() - start
    except Exception as exc:  # the API is being edited by others; report rather than fail
        out["load_table_from_yaml_s"] = None
        print(f"  (YAML compile timing skipped: {type(exc).__name__}: {exc})")
    options = Options()
    size_mb = sum(len(d) for d in datas) / MB

    totals: list[float] = []
    changed = diagnostics = parse_errors = skipped_parse = 0
    for rep in range(repeat):
        start = time.perf_counter()
        results = [translate_bytes(d, table, options) for d in datas]
        totals.append(time.perf_counter() - start)
        if rep == 0:
            changed = sum(1 for r in results if r.changed)
            diagnostics = sum(len(r.diagnostics) for r in results)
            parse_errors = sum(r.errors_before for r in results)
    parse_times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        for d in datas:
            parse(d)
        parse_times.append(time.perf_counter() - start)

    clock = _Clock()
    with _instrumented(clock, table) as wrapped:
        start = time.perf_counter()
        for d in datas:
            translate_bytes(d, table, options)
        instrumented_total = time.perf_counter() - start
    skipped_parse = len(datas) - clock.calls.get("parse", 0) if "parse" in wrapped else 0

    best = min(totals)
    out.update(
        {
            "hipify_py_version": hipify_py.__version__,
            "files": len(datas),
            "megabytes": size_mb,
            "translate_runs_s": totals,
            "translate_best_s": best,
            "translate_median_s": statistics.median(totals),
            "translate_mb_per_s_best": size_mb / best,
            "parse_only_runs_s": parse_times,
            "parse_only_best_s": min(parse_times),
            "parse_only_mb_per_s_best": size_mb / min(parse_times),
            "files_changed": changed,
            "diagnostics": diagnostics,
            "parse_error_regions_in_inputs": parse_errors,
            "files_not_parsed": skipped_parse,
            "breakdown_total_s": instrumented_total,
            "breakdown_s": dict(sorted(clock.seconds.items(), key=lambda kv: -kv[1])),
            "breakdown_calls": clock.calls,
        }
    )
    if profile_top:
        profiler = cProfile.Profile()
        profiler.enable()
        for d in datas:
            translate_bytes(d, table, options)
        profiler.disable()
        buf = io.StringIO()
        stats = pstats.Stats(profiler, stream=buf)
        stats.strip_dirs().sort_stats("tottime").print_stats(profile_top)
        out["profile_text"] = buf.getvalue()
    return out


def print_engine(r: dict[str, Any]) -> None:
    print()
    print(f"In-process engine ({r['files']} files, {r['megabytes']:.2f} MB, no I/O):")
    yaml_s = r.get("load_table_from_yaml_s")
    print(f"  load_table (pickle cache)     {r['load_table_cached_s'] * 1e3:8.1f} ms")
    if yaml_s is not None:
        print(f"  load_directory (YAML compile) {yaml_s * 1e3:8.1f} ms")
    print(
        f"  translate_bytes  best {r['translate_best_s']:7.3f} s  median "
        f"{r['translate_median_s']:7.3f} s  -> {r['translate_mb_per_s_best']:6.2f} MB/s"
    )
    print(
        f"  parse only       best {r['parse_only_best_s']:7.3f} s  "
        f"             -> {r['parse_only_mb_per_s_best']:6.2f} MB/s"
    )
    print(
        f"  files changed {r['files_changed']}/{r['files']}, diagnostics {r['diagnostics']}, "
        f"parse-error regions in inputs {r['parse_error_regions_in_inputs']}, "
        f"files never parsed {r['files_not_parsed']}"
    )
    total = r["breakdown_total_s"]
    print(f"  breakdown of one instrumented pass ({total:.3f} s; wrappers add a little):")
    accounted = 0.0
    for label, secs in r["breakdown_s"].items():
        calls = r["breakdown_calls"].get(label, 0)
        accounted += secs
        print(f"    {label:<34}{secs:8.3f} s {100 * secs / total:5.1f} %  ({calls} calls)")
    rest = total - accounted
    print(f"    {'rest (engine glue, diagnostics)':<34}{rest:8.3f} s {100 * rest / total:5.1f} %")
    if "profile_text" in r:
        print()
        print(r["profile_text"])


# --------------------------------------------------------------------------- main


def _git_dirty() -> bool | None:
    """Whether hipify_py/ or mappings/ differ from the commit (others may be editing them)."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "hipify_py", "mappings"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return bool(proc.stdout.strip()) if proc.returncode == 0 else None


def _git_commit() -> str | None:
    try:
        proc = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return proc.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--mb", type=float, default=8.0, help="generated corpus size (default 8)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="the parallel --jobs value compared with --jobs 1 (default: cores)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (default 3)")
    parser.add_argument(
        "--latency-runs",
        type=int,
        default=10,
        help="runs per small-file latency command (default 10)",
    )
    parser.add_argument("--seed", type=int, default=1234, help="corpus RNG seed")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the CLI runs")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the numbers here")
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="build the corpus in DIR and keep it (default: a temp folder)",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("e2e", "latency", "engine"),
        help="skip a section (repeatable)",
    )
    parser.add_argument(
        "--inherit-bytecode",
        action="store_true",
        help="keep the inherited PYTHONDONTWRITEBYTECODE/PYTHONPYCACHEPREFIX for the CLI runs",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="also cProfile one in-process pass and print the top N functions",
    )
    args = parser.parse_args(argv)
    global _PYCACHE

    with tempfile.TemporaryDirectory(prefix="hipify-bench-") as tmp:
        work = Path(tmp)
        _PYCACHE = None if args.inherit_bytecode else work / "pycache"
        corpus_root = args.keep.resolve() if args.keep else work / "corpus"
        if corpus_root.exists() and any(corpus_root.iterdir()):
            print(f"error: {corpus_root} is not empty", file=sys.stderr)
            return 2
        corpus_root.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        corpus = build_corpus(corpus_root, args.mb, args.seed)
        sizes = [p.stat().st_size for p in corpus.files]
        print(
            f"hipify-py benchmark: python {platform.python_version()}, {os.cpu_count()} cores, "
            f"{platform.platform()}, commit {_git_commit()}"
            f"{' (hipify_py/ or mappings/ modified)' if _git_dirty() else ''}"
        )
        print(
            f"Corpus: {len(corpus.files)} files ({corpus.generated} generated, {corpus.shipped} "
            f"from the repo), {corpus.total_bytes / MB:.2f} MB, sizes {min(sizes) / KB:.1f}-"
            f"{max(sizes) / KB:.1f} KB (median {statistics.median(sizes) / KB:.1f} KB); "
            f"built in {time.perf_counter() - start:.2f} s in {corpus_root}"
        )
        small = small_file(work, args.seed)
        jobs_list = sorted({1, max(1, args.jobs)})
        report: dict[str, Any] = {
            "meta": {
                "python": platform.python_version(),
                "executable": args.python,
                "cpu_count": os.cpu_count(),
                "platform": platform.platform(),
                "commit": _git_commit(),
                "worktree_modified": _git_dirty(),
                "seed": args.seed,
                "repeat": args.repeat,
                "bytecode": "inherited" if args.inherit_bytecode else "private PYTHONPYCACHEPREFIX",
                "loadavg_start": _load(),
            },
            "corpus": {
                "files": len(corpus.files),
                "generated": corpus.generated,
                "shipped": corpus.shipped,
                "bytes": corpus.total_bytes,
                "megabytes": corpus.total_bytes / MB,
            },
        }
        if "e2e" not in args.skip:
            print("\nEnd to end through the CLI (python -m hipify_py CORPUS -q ...):", flush=True)
            rows = bench_end_to_end(args.python, corpus, jobs_list, args.repeat, work)
            print_e2e_table(rows, corpus)
            report["end_to_end"] = [asdict(r) for r in rows]
        if "latency" not in args.skip:
            latency = bench_latency(args.python, small, args.latency_runs, work)
            print_latency(latency, small, args.latency_runs)
            report["latency"] = {"small_file_bytes": small.stat().st_size, "commands": latency}
        if "engine" not in args.skip:
            datas = [p.read_bytes() for p in corpus.files]
            engine = bench_engine(args.python, datas, args.repeat, work, args.profile)
            print_engine(engine)
            report["engine"] = engine
        report["meta"]["loadavg_end"] = _load()
        print(f"\nLoad average at start {report['meta']['loadavg_start']}, at end {_load()}")
        print(
            "\nIssue targets (context, not asserted): >= 3 MB/s end to end on 2 cores; "
            "< 500 ms for one small file."
        )
        if args.json:
            args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
            print(f"JSON written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
