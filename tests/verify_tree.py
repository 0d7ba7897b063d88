"""A small, real header tree and mapping tables for the verify tests.

Each header exercises one way a name can be declared; each row one outcome.
"""

from __future__ import annotations

from pathlib import Path

HIP_HEADERS = {
    "hip/hip_version.h": """
#ifndef HIP_VERSION_H
#define HIP_VERSION_H
#define HIP_VERSION_MAJOR 5
#define HIP_VERSION_MINOR 7
#define HIP_VERSION_PATCH 31921
#endif
""",
    "hip/hip_runtime_api.h": """
#pragma once
#define HIP_DEPRECATED(msg)
#if __cplusplus >= 201703L
#define __HIP_NODISCARD [[nodiscard]]
#else
#define __HIP_NODISCARD
#endif
#define HIP_API_MACRO 1
#define hipStreamPerThread ((hipStream_t)2)
typedef struct ihipStream_t* hipStream_t;
typedef void (*hipHostFn_t)(void* userData);
typedef enum __HIP_NODISCARD hipError_t {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
} hipError_t;
union hipUnion { int a; };
class hipClass;
using hipAlias_t = int;
extern "C" {
HIP_DEPRECATED("use hipMalloc") hipError_t hipMalloc(void** ptr, unsigned long size);
hipError_t hipFree(void* ptr);
}
struct hipHolder {
    int memberField;
    hipError_t memberMethod(int);
};
namespace hip_impl { int hipNamespaceMember; }
static inline int hipBody(void) { int hipLocalVariable = 0; return hipLocalVariable; }
""",
    # tree-sitter cannot read this line, so its identifiers count as declared
    "hip/hip_broken.h": 'extern "C" hipErrorRegion @;\n',
    "hipblas/hipblas.h": """
#define hipblasVersionMajor 0
#define hipblasVersionMinor 54
#define hipblasVersionPatch 0
typedef void* hipblasHandle_t;
int hipblasCreate(hipblasHandle_t* handle);
""",
    "hiprand/hiprand.h": """
#define DEFINE_HIPRAND_STATE(hiprand_name, rocrand_name) \\
    struct hiprand_name : public rocrand_name {}; \\
    typedef struct hiprand_name hiprand_name ## _t;
DEFINE_HIPRAND_STATE(hiprandStateSobol32, rocrand_state_sobol32)
int rocrand_fn(void);
""",
    "rocrand/rocrand.h": """
namespace rocrand_device {
template <bool B> class sobol32_engine { };
}
""",
}

CUDA_HEADERS = {
    "cuda.h": """
#define CUDA_VERSION 12040
#define CUDAAPI
#define cuMemAlloc cuMemAlloc_v2
typedef int CUresult;
CUresult CUDAAPI cuMemAlloc(void** p, unsigned long n);
#define _CONCAT(x, y) x ## y
typedef _CONCAT(CUdevResource_v, 1) CUdevResource;
""",
    "cuda_runtime_api.h": """
#define __device_builtin__
enum __device_builtin__ cudaError {
    cudaSuccess = 0,
#ifdef __CUDA_API_VERSION_INTERNAL
    cudaErrorApiFailureBase = 10000,
#endif
};
typedef enum cudaError cudaError_t;
typedef struct CUstream_st* cudaStream_t;
extern cudaError_t cudaMalloc(void** p, unsigned long n);
#ifndef CUDA_USER_SWITCH
#endif
""",
    "curand.h": "int curandCreateGenerator(void);\ntypedef struct curandStateSobol32 curandStateSobol32_t;\n",
    "cublas_v2.h": "int cublasCreate(void);\nint cublasNewer(void);\n",
    # the rest of the runtime rows, plainly declared
    "cuda_runtime_more.h": "".join(
        f"int {name}(void);\n"
        for name in [
            "cudaFree",
            "cudaHostFn_t",
            "cudaUnion",
            "cudaClass",
            "cudaAlias_t",
            "CUDA_MACRO",
            "cudaStreamPerThread",
            "cudaMethod",
            "cudaNamespaceMember",
            "cudaRegion",
            "cudaVoidPtr",
            "cudaNewer",
            "cudaWrong",
            "cudaField",
            "cudaLocal",
            "cudaGone",
            "curandQualified",
        ]
    ),
    "cublasLt.h": "int cublasLtCreate(void);\n",
}

MAPPINGS = {
    "includes.yaml": """
schema: 1
headers:
  cuda_runtime_api.h: {hip: hip/hip_runtime_api.h, library: runtime}
  cuda.h: {hip: hip/hip_runtime.h, library: driver}
  curand.h: {hip: hiprand/hiprand.h, roc: rocrand/rocrand.h, library: rand}
  cublas_v2.h: {hip: hipblas/hipblas.h, roc: rocblas/rocblas.h, library: blas}
  cublasLt.h: {hip: hipblaslt/hipblaslt.h, library: blas}
  cudnn.h: {hip: hipdnn.h, roc: miopen/miopen.h, library: dnn}
""",
    "providers.yaml": """
schema: 1
providers:
  runtime: {header: cuda_runtime_api.h}
  driver: {header: cuda_runtime_api.h}
  rand: {header: curand.h}
  blas: {header: cublas_v2.h, prefixes: {cublasLt: cublasLt.h, hipblasLt: hipblaslt/hipblaslt.h}}
  dnn: {header: cudnn.h}
releases:
  hipblas: {version: [hipblasVersionMajor, hipblasVersionMinor, hipblasVersionPatch], rocm: {"0.54.0": "5.5.1"}}
""",
    "runtime.yaml": """
schema: 1
library: runtime
title: CUDA Runtime API
sections:
  Kinds:
    cudaMalloc: {hip: hipMalloc, kind: function}
    cudaFree: {hip: hipFree, kind: function}
    cudaStream_t: {hip: hipStream_t, kind: type}
    cudaHostFn_t: {hip: hipHostFn_t, kind: type}
    cudaError_t: {hip: hipError_t, kind: type}
    cudaSuccess: {hip: hipSuccess, kind: enum}
    cudaUnion: {hip: hipUnion, kind: type}
    cudaClass: {hip: hipClass, kind: type}
    cudaAlias_t: {hip: hipAlias_t, kind: type}
    CUDA_MACRO: {hip: HIP_API_MACRO, kind: macro}
    cudaStreamPerThread: {hip: hipStreamPerThread, kind: macro}
    cudaMethod: {hip: memberMethod, kind: function}
    cudaNamespaceMember: {hip: hipNamespaceMember, kind: variable}
    cudaRegion: {hip: hipErrorRegion, kind: function}
    CUDA_USER_SWITCH: {kind: macro}
    cudaVoidPtr: {hip: "void*", kind: type}
  Outcomes:
    cudaNewer: {hip: hipNewer, kind: function, hip_added: "6.2.0"}
    cudaWrong: {hip: hipWrong, kind: function, hip_added: "1.0.0"}
    cudaField: {hip: memberField, kind: variable}
    cudaLocal: {hip: hipLocalVariable, kind: variable}
    cudaGone: {hip: hipGone, kind: function, hip_added: "1.0.0", hip_removed: "5.0.0", status: supported}
    cudaBrandNew: {kind: function, cuda_added: "12.6"}
    cudaRemovedLongAgo: {kind: function, cuda_removed: "12.0"}
    cudaErrorApiFailureBase: {hip: hipErrorInvalidValue, kind: enum}
    cudaNotInCuda: {hip: hipFree, kind: function, note: "a CUDA name the CUDA headers lack"}
""",
    "driver.yaml": """
schema: 1
library: driver
title: CUDA Driver API
sections:
  Driver:
    cuMemAlloc_v2: {hip: hipMalloc, kind: function}
    CUdevResource: {kind: type}
""",
    "rand.yaml": """
schema: 1
library: rand
title: cuRAND
sections:
  Types:
    curandStateSobol32: {hip: hiprandStateSobol32, roc: "rocrand_device::sobol32_engine<false>", kind: type}
    curandStateSobol32_t: {hip: hiprandStateSobol32_t, kind: type}
    curandCreateGenerator: {roc: "rocrand_device::missing_engine<false>", kind: function}
    curandQualified: {roc: "rocrand_fn::x", kind: function}
""",
    "blas.yaml": """
schema: 1
library: blas
title: cuBLAS
sections:
  Blas:
    cublasCreate: {hip: hipblasCreate, roc: rocblas_create_handle, kind: function}
    cublasLtCreate: {hip: hipblasLtCreate, kind: function}
    cublasNewer: {hip: hipblasNewer, kind: function, hip_added: "5.6.0"}
""",
    "dnn.yaml": """
schema: 1
library: dnn
title: cuDNN
sections:
  Dnn:
    cudnnCreate: {hip: hipdnnCreate, roc: miopenCreate, kind: function}
""",
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip("\n"), encoding="utf-8")
    return root


def make_tree(root: Path) -> tuple[Path, Path, Path]:
    """(HIP include folder, CUDA include folder, mappings folder) under ``root``."""
    return (
        _write(root / "hip-include", HIP_HEADERS),
        _write(root / "cuda-include", CUDA_HEADERS),
        _write(root / "mappings", MAPPINGS),
    )
