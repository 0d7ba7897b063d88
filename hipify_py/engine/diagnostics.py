"""Diagnostics: what the engine could not (or chose not to) translate, and why.

Every diagnostic has a stable code.  The catalogue below is the single source
of truth for codes, default severities and the one-line summaries that
``docs/diagnostics.md`` is generated from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: Severity
    summary: str
    why: str = ""
    example: str = ""
    fix: str = ""


CATALOGUE: dict[str, Code] = {}


def _code(code: str, name: str, severity: Severity, summary: str, **text: str) -> Code:
    entry = Code(code, name, severity, summary, **text)
    assert code not in CATALOGUE, code
    CATALOGUE[code] = entry
    return entry


E, W, N = Severity.ERROR, Severity.WARNING, Severity.INFO  # N: note (info)

PARSE_REGRESSION = _code(
    "HPY001",
    "self-check-failed",
    E,
    "the translated file parses worse than the original, so the file was left unchanged",
    why="An edit produced text that tree-sitter cannot parse; writing it would break the build.",
    fix="Report the input as a bug; translate the affected lines by hand.",
    example="a file whose translation would not parse",
)
BINARY_FILE = _code(
    "HPY002",
    "not-source-text",
    W,
    "the file is not source text (binary, NUL bytes or UTF-16) and was skipped",
    fix="Exclude the file (--exclude) or convert it to UTF-8.",
    why="hipify-py rewrites text; it cannot tell code from data in a binary or UTF-16 file, so it "
    "does not touch it.",
    example="kernels.cu saved as UTF-16 by an editor",
)
PARSE_ERRORS = _code(
    "HPY003",
    "parse-errors",
    N,
    "the original file has syntax the parser could not read; nearby translations may be incomplete",
    why="tree-sitter recovers from errors, but names inside an unparsed region are renamed "
    "only when they clearly are code.",
    example="KERNEL_BEGIN(add, float* p) p[threadIdx.x] += 1; KERNEL_END",
    fix="Nothing to do when the translation is right; otherwise translate the lines near the "
    "reported position by hand.",
)
EDIT_CONFLICT = _code(
    "HPY004",
    "edit-conflict",
    W,
    "two edits overlapped; the later one was dropped",
    why="Two rules wanted to change the same text; applying both would corrupt it.",
    fix="Check the reported line by hand, and please report the input.",
    example="a macro argument that two rules both rewrite",
)
TRANSLATABLE_REFERENCE = _code(
    "HPY100",
    "translatable-cuda-reference",
    W,
    "a CUDA API use (name or header) that hipify-py translates; reported by `hipify-py check`",
    why="The code still depends on CUDA: it builds for AMD GPUs only once it is translated.",
    example="cudaMalloc(&ptr, bytes);",
    fix="Run hipify-py on the file (or the hipify-py pre-commit hook), or record the finding "
    "in a baseline (`hipify-py check --write-baseline`) while migrating gradually.",
)
UNSUPPORTED_API = _code(
    "HPY101",
    "unsupported-api",
    E,
    "a CUDA API with no HIP equivalent; left unchanged",
    why="The code will not compile for AMD GPUs until this call is replaced.",
    example="cudaGraphInstantiateWithParams(...)",
    fix="Rewrite the code around the missing API or implement it on top of what HIP offers.  "
    "For the SIMD video intrinsics (__vsub4, __vcmpne4, ...), the cache-hint loads and stores "
    "(__stcs, __ldlu, ...) and umin/umax, pass --compat: hipify_py_compat.h provides them "
    "(the hint says so).  NVML calls whose AMD SMI counterpart has another shape (device "
    "count and handles, memory, utilization, temperature, power, clocks) become, with "
    "--compat, hipify_nvml_* functions of that header over AMD SMI; for the other NVML calls "
    "the hint names the AMD SMI call to use.",
)
UNKNOWN_CUDA_NAME = _code(
    "HPY102",
    "unknown-cuda-name",
    W,
    "an identifier that looks like CUDA API but is not in the mapping tables; left unchanged",
    why="It may be a newer CUDA API than our tables know, or a project name that merely "
    "looks like CUDA.  Either way nobody translated it.",
    fix="If it is the project's own name, ignore this (or suppress it); otherwise port it by hand.",
    example="cudaFooBarNewIn13(x);",
)
NEEDS_NEWER_HIP = _code(
    "HPY103",
    "needs-newer-hip",
    E,
    "the HIP counterpart appeared after the target HIP version; left unchanged",
    why="Emitting it would fail to compile with the HIP version you target (--hip-version).",
    fix="Target a newer HIP (--hip-version) or avoid the API.  NVML is translated to AMD SMI "
    "from HIP 6.4 on; below it the hint names the ROCm SMI call for a port by hand.",
    example="hipGraphInstantiateWithParams with --hip-version 5.7",
)
DEPRECATED_API = _code(
    "HPY104",
    "deprecated-cuda-api",
    N,
    "a deprecated CUDA API; translated, but consider the replacement",
    why="CUDA may drop it in a later release; HIP keeps it for now, so the translation builds.",
    example="cudaThreadSynchronize();",
    fix="Move to the replacement the message names (cudaDeviceSynchronize here).",
)
REMOVED_API = _code(
    "HPY105",
    "removed-cuda-api",
    W,
    "a CUDA API removed from newer CUDA; translated where HIP has it",
    why="HIP may drop it too (texture references, for example, are deprecated in HIP).",
    fix="Move to the API CUDA replaced it with, which HIP usually has as well.",
    example="texture<float, 1, cudaReadModeElementType> tex;",
)
EXPERIMENTAL_API = _code(
    "HPY106",
    "experimental-hip-api",
    N,
    "the HIP counterpart is marked experimental",
    why="Experimental HIP APIs may change their behaviour or signature between ROCm releases.",
    example="cublasSgemm_64(handle, ...)  // hipblasSgemm_v2_64, experimental in hipBLAS",
    fix="Pin the ROCm version you build with, or avoid the API.",
)
STRING_MENTION = _code(
    "HPY107",
    "cuda-name-in-string",
    N,
    "a string literal names a CUDA API; strings are not rewritten without --rewrite-strings",
    why="A name in a string is usually a log message; when it is a symbol looked up at run time "
    "(dlsym, nvrtc) it must be renamed too.",
    example='printf("cudaMalloc failed\\n");',
    fix="Rename it by hand where the string is looked up at run time, or translate with "
    "--rewrite-strings.",
)
ROC_FALLBACK = _code(
    "HPY108",
    "roc-library-incomplete",
    E,
    "with --roc, a CUDA name or header the ROC library (rocBLAS, rocSPARSE, rocSOLVER, rocRAND, "
    "MIOpen) lacks; left unchanged",
    why="--roc asks for the ROC libraries, and one file cannot mix them with the HIP library "
    "of the same family (a rocSOLVER handle passed to a hipSOLVER function does not compile), so "
    "the name is neither renamed to the HIP library's nor does the file quietly switch to it: "
    "each such use is reported where it is, and only names in code count (a comment or a "
    "string never changes the translation).",
    example="cusparseSpSMDescr_t d;  // no rocSPARSE name: left unchanged, reported",
    fix="Rewrite the use with the ROC library's own API, or keep this code on the HIP library "
    "(hipSPARSE, hipSOLVER, ...): translate the file without --roc (the hint names the HIP "
    "name and header).",
)
ROC_ARGUMENT_CAST = _code(
    "HPY115",
    "roc-argument-cast",
    N,
    "with --roc, a call's complex, half or bfloat16 arguments are cast to the ROC library's own "
    "types (same layout), or inputs to the non-const pointer the ROC function declares",
    why="rocBLAS, rocSOLVER and rocSPARSE take rocblas_float_complex*, rocblas_half*, "
    "rocsparse_double_complex*, ... where CUDA's calls take cuComplex*, __half*, ...; the file "
    "keeps HIP's types (hipFloatComplex, __half, __hip_bfloat16), which its arithmetic "
    "(hipCaddf, __hadd, kernels) needs, and the values have the same layout, so the pointers "
    "are cast at the call.  MIOpen declares some inputs it only reads void* where cuDNN has "
    "const void* (batch normalization's alpha, beta, scale, bias): those are cast to void*, "
    "and the note says so.",
    example="cublasCgemm(h, ..., alpha, A, ...)  // rocblas_cgemm(h, ..., "
    "(const rocblas_float_complex*)(alpha), ...)",
    fix="Nothing to do.  To drop the casts, declare the values with the ROC types.",
)
SIGNATURE_CAUTION = _code(
    "HPY109",
    "hip-signature-differs",
    W,
    "translated, but the HIP function's signature (with --roc: the ROC library's) differs from "
    "CUDA's in a way a rename cannot fix (the message says how)",
    why="The call compiles against CUDA's declaration and not against HIP's, or compiles and "
    "means something else: an argument's type or size differs (size_t* where CUDA takes int*), "
    "the HIP handle type is a void* where CUDA's is an integer, or the function takes other "
    "arguments (rocsparse_spmv runs in stages) and no mechanical rewrite keeps the meaning.  "
    "Differences that one does are rewritten instead (hipGetProcAddress's HIP version, "
    "rocsparse_scsrmv's optional info).",
    example="cusparseScsr2gebsr_bufferSize(h, ..., &size)  // int in CUDA, size_t in hipSPARSE",
    fix="Change the argument as the hint says; the rest of the call is translated.",
)
UNCHECKED_HIP_ERROR = _code(
    "HPY110",
    "unchecked-hip-error",
    N,
    "a HIP call whose hipError_t result is discarded: hipcc warns (hipError_t is [[nodiscard]])",
    why="hip_runtime_api.h declares hipError_t [[nodiscard]] from C++17 on (HIP 5.7.1, 6.4.3 "
    "and 7.2.4 alike; hipcc's clang defaults to C++17), so every call statement that drops the "
    "result warns 'ignoring return value of type hipError_t'; CUDA's cudaError_t is not "
    "nodiscard, so the CUDA build was quiet.  Reported once per file.",
    example="cudaMalloc(&p, n);\ncudaDeviceSynchronize();",
    fix="Check the result with the project's error macro, or cast it to (void) where ignoring it "
    "is meant.",
)
ASSUMED_CUDA_VERSION = _code(
    "HPY111",
    "assumed-cuda-version",
    W,
    "a CUDA version macro used as a value becomes the CUDA release HIP's API follows (11070)",
    why="hipcc defines neither CUDART_VERSION nor CUDA_VERSION, and an undefined name reads as 0 "
    "in #if: `#if CUDART_VERSION < 11020` would select the oldest CUDA branch (ggml's "
    "`#define CUBLAS_COMPUTE_32F CUDA_R_32F`) and a minimum-version `#error` would fire. The "
    "use becomes 11070 (CUDA 11.7): HIP 5.7.1 to 7.2.4 keep CUDA 11's signatures where CUDA 12 "
    "changed them (hipGraphInstantiate, hipGraphExecUpdate) and lack what CUDA 11.8 and later "
    "added (programmatic dependent launch, fp8/fp4 types), so the branch for CUDA 11.7 is the "
    "one HIP translates best. In an #if, HIP's NVIDIA platform keeps CUDA's own value "
    "(`(CUDART_VERSION + !defined(__HIP_PLATFORM_NVIDIA__) * 11070)`): its CUDA headers define "
    "it. A defined() / #ifdef test stays and is reported (HPY101).",
    example="#if CUDART_VERSION < 11020\n#define CUBLAS_COMPUTE_32F CUDA_R_32F\n#endif",
    fix="Check that the branch selected is the one HIP supports; for a test of HIP itself use "
    "HIP_VERSION (<hip/hip_version.h>).",
)
LEGACY_CUBLAS = _code(
    "HPY112",
    "legacy-cublas-api",
    E,
    "a call of the legacy cuBLAS API (cublas.h: no handle, scalars by value); hipBLAS has only "
    "the handle API, so it is left unchanged (the hint gives the v2 call to write)",
    why="cublas.h declares cublasSscal(n, alpha, x, incx) and friends without a handle; "
    "cublas_v2.h redefines the same names as the handle API, which is what hipBLAS and "
    "rocBLAS have.  Renamed, the call would be a handle-less hipblasSscal(n, ...) that does not "
    "compile, so it is not renamed.",
    example="#include <cublas.h>\ncublasSscal(n, 2.0f, d_x, 1);",
    fix="Port the file to cublas_v2.h (a cublasHandle_t from cublasCreate, scalars by "
    "pointer, results through the last argument) as the hint shows, and translate again; "
    "cublasInit/cublasShutdown become cublasCreate/cublasDestroy, cublasAlloc/cublasFree "
    "cudaMalloc/cudaFree.",
)
HINT_CALL_DROPPED = _code(
    "HPY114",
    "hint-call-dropped",
    W,
    "a call that only sets a hint HIP cannot take becomes its success status",
    why="Some calls only allow a library a faster way to compute (cublasSetMathMode with "
    "CUBLAS_TF32_TENSOR_OP_MATH). hipBLAS before 2.1 (ROCm 6.1) has no math mode, and "
    "hipBLAS's rocBLAS backend answers every mode but the default and XF32 with "
    "HIPBLAS_STATUS_NOT_SUPPORTED, which a checked call (ggml's CUBLAS_CHECK) turns into an "
    "abort at run time. Either way the library computes as CUBLAS_DEFAULT_MATH does. Where "
    "the call's arguments have no effects, the translation replaces it with its success "
    "status.",
    example="CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));\n"
    "// becomes: CUBLAS_CHECK(HIPBLAS_STATUS_SUCCESS);",
    fix="Nothing, if the library's default (full precision) is acceptable.",
)
PROJECT_HIP_PATH = _code(
    "HPY113",
    "project-hip-path",
    W,
    "a branch of the project's own HIP path (#ifdef __HIP_PLATFORM_AMD__) that hipcc compiles",
    why="nvcc never took a branch that tests __HIP_PLATFORM_AMD__, __HIPCC__ or __HIP__; "
    "hipcc for AMD defines them, so the translation compiles it. It was written for the "
    "project's own HIP build, whose headers and defines the translated build may lack "
    "(ctransformers calls rocblas_initialize() there; its rocblas.h include sits in a "
    "GGML_USE_HIPBLAS shim branch that the CUDA build does not take).",
    example="#ifdef __HIP_PLATFORM_AMD__\n    rocblas_initialize();\n#endif",
    fix="Make what the branch uses available in the translated build (the header, or the "
    "project's own HIP build macro), or guard the branch with the project's HIP macro.",
)
UNSUPPORTED_HEADER = _code(
    "HPY201",
    "unsupported-header",
    E,
    "a CUDA header with no HIP counterpart; left unchanged",
    fix="Remove the include and port what it provided (see the hint).  "
    "<cooperative_groups/reduce.h> and <cooperative_groups/scan.h>: pass --compat, which "
    "replaces them with hipify_py_compat.h.",
    why="The file includes a CUDA header that ROCm has no counterpart for, so it cannot compile "
    "for AMD GPUs.",
    example="#include <mma.h>",
)
RUNTIME_INCLUDE_ADDED = _code(
    "HPY202",
    "runtime-include-added",
    N,
    "inserted #include <hip/hip_runtime.h> (nvcc includes the CUDA runtime implicitly, hipcc for "
    "host compilers does not)",
    why="nvcc includes the CUDA runtime header in every .cu file by itself; hipcc does not, so "
    "a file that uses kernels, threadIdx or runtime calls without an include fails to compile.",
    example="__global__ void k(float* p) { p[threadIdx.x] = 0; }  // no #include",
    fix="Nothing: the include is what HIP needs (--no-runtime-include leaves it out).",
)
STD_HEADER_ADDED = _code(
    "HPY203",
    "std-header-added",
    N,
    "inserted #include <string.h> (or <cstring>): CUDA's runtime header brings it in, HIP >= "
    "7.0's does not",
    why="CUDA's runtime header includes string.h (crt/common_functions.h), so CUDA code calls "
    "memcpy or strlen with only the runtime included; HIP 7.0 trimmed the headers "
    "hip_runtime.h includes, and with HIP 7.2 such a call is an undeclared identifier.",
    example="#include <cuda_runtime.h>\nvoid f(char* a, const char* b) { memcpy(a, b, 4); }",
    fix="Nothing: the include is what HIP >= 7.0 needs (<cstring> where the calls are "
    "std::memcpy, else the C header, valid in C and C++).",
)
WARP_PARTIAL_MASK = _code(
    "HPY401",
    "partial-warp-mask",
    W,
    "a warp function with a partial or computed mask (HIP >= 6.2): lane numbers differ on wave64",
    why="HIP's masks are 64-bit and a gfx942 wavefront has lanes 0-63; a mask built for 32 "
    "lanes leaves half the wavefront out.  The mask is given a 64-bit type (HIP rejects a "
    "32-bit mask type at compile time), which keeps the same lane numbers: a mask that was "
    "meant as every lane (a 32-bit full mask in a parameter or variable) then names lanes "
    "0-31 only.",
    example="__shfl_xor_sync(0x0000ffff, v, 1, 16)",
    fix="Build the mask as unsigned long long over warpSize lanes (__ballot_sync, __activemask); "
    "use 0xffffffffffffffffULL for every lane.",
)
WARP_MASK_NEEDS_62 = _code(
    "HPY402",
    "masked-warp-function-needs-hip-6.2",
    E,
    "a warp function with a partial, computed or side-effecting mask has no counterpart "
    "before HIP 6.2; left unchanged",
    why="HIP < 6.2 has only the mask-less __shfl/__ballot/__any/__all, which act on every active "
    "lane; which rewrite keeps the meaning of a mask depends on which lanes execute the call, "
    "which only the author knows, so the call is left (and does not compile).",
    example="__ballot_sync(lanes, pred)  // with --hip-version 5.7",
    fix="Apply the rewrite the hint gives when it holds ((__ballot(pred) & (lanes)) for a vote "
    "whose mask names lanes that all execute it; the mask-less shuffle when the mask names "
    "exactly the lanes taking part), or target HIP >= 6.2.",
)
WARP_NARROW_BALLOT = _code(
    "HPY403",
    "narrow-ballot-result",
    W,
    "a ballot / active mask result kept in 32 bits (variable, field, return value, cast) "
    "or given to a 32-bit bit function",
    why="HIP returns one bit per lane of a wave64: 64 bits.  A 32-bit variable, __popc or __clz "
    "sees lanes 0-31 only.",
    example="unsigned b = __ballot_sync(~0u, x > 0);\nauto c = __ballot_sync(~0u, y > 0);\nint n = "
    "__clz(c);",
    fix="Use unsigned long long and __popcll / __ffsll / __clzll / __brevll (__popc and __ffs of a "
    "ballot, or of a 64-bit variable holding one, are rewritten).",
)
WARP_SYNCWARP = _code(
    "HPY404",
    "syncwarp-helper",
    N,
    "__syncwarp became hipify_py_syncwarp, a helper defined at the top of the file",
    why="HIP declares no __syncwarp; a wavefront runs in lockstep, so a wavefront barrier "
    "with release/acquire fences gives the same ordering.",
    example="__syncwarp();",
    fix="Nothing; where the code relies on __syncwarp(mask) synchronising part of a warp, check "
    "that a wavefront barrier is right.",
)
WARP_SYNC_OPT_IN = _code(
    "HPY405",
    "warp-sync-opt-in",
    N,
    "the _sync warp functions need HIP >= 6.2; defined HIP_ENABLE_WARP_SYNC_BUILTINS, which "
    "HIP 6.2 to 6.4 need for them",
    why="HIP 6.2 to 6.4 declare __shfl_sync, __ballot_sync, ... only when "
    "HIP_ENABLE_WARP_SYNC_BUILTINS is defined before <hip/hip_runtime.h>; HIP 7.0 declares them by "
    "default (6.4.3's and 7.2.4's amd_warp_sync_functions.h).",
    example="v += __shfl_down_sync(0xffffffff, v, 1);  // with --hip-version 6.2",
    fix="With HIP 6.2-6.4, nothing (if another header includes hip_runtime.h first, compile "
    "with -DHIP_ENABLE_WARP_SYNC_BUILTINS); with an older HIP, translate with its "
    "--hip-version, which gives the mask-less __shfl forms.",
)
WARP_MASK_PARAMETER = _code(
    "HPY406",
    "mask-parameter-widened",
    W,
    "a mask parameter whose default is CUDA's full mask was made 64-bit (HIP >= 6.2)",
    why="HIP's masks are 64-bit.  Cast to 64 bits, the 32-bit full mask 0xffffffff names "
    "lanes 0-31 only, so the parameter's type and default are widened; calls from other "
    "files that pass a mask explicitly are not seen.",
    example="__device__ float shfl_down(float v, int d, unsigned mask = 0xffffffff)\n"
    "{ return __shfl_down_sync(mask, v, d); }",
    fix="Make callers elsewhere pass a 64-bit mask (0xffffffffffffffffULL for every lane).",
)
WARP_SHUFFLE_TYPE = _code(
    "HPY407",
    "shuffle-type-needs-hip-6.2",
    E,
    "a shuffle of a bfloat16 value, which HIP < 6.2 has no __shfl overload for",
    why="HIP 5.7's __shfl, __shfl_up, __shfl_down and __shfl_xor take int, unsigned, float, "
    "double, 64-bit integers, __half and __half2; the translated call does not compile.",
    example="__nv_bfloat16 b = x[i];\nb = __shfl_xor_sync(0xffffffff, b, 1);",
    fix="Shuffle the raw bits: __ushort_as_bfloat16(__shfl_xor(__bfloat16_as_ushort(b), 1)).",
)
WARP_SIZE_LANE_MATH = _code(
    "HPY420",
    "lane-math-32",
    W,
    "lane or warp index computed with 32 (`% 32`, `& 31`, `>> 5`, `/ 32`)",
    why="A gfx942 wavefront has 64 lanes: threadIdx.x % 32 gives two lanes the same id and "
    "threadIdx.x / 32 puts one wavefront in two warps.  The code compiles and computes wrong "
    "answers.",
    example="int lane = threadIdx.x % 32;",
    fix="Use warpSize (threadIdx.x % warpSize); --fix-warp-size rewrites it when the operand is "
    "threadIdx and the value is only compared, stored or used as a shuffle lane: never a "
    "shift amount or bit index (1u << (threadIdx.x % 32) indexes the bits of a 32-bit word), "
    "never an index, stride or offset into memory (whose layout would change).",
)
WARP_SIZE_REDUCTION = _code(
    "HPY421",
    "reduction-from-16",
    W,
    "a warp reduction that starts at offset 16 (covers 32 lanes)",
    why="With 64 lanes the step at offset 32 is missing, so the two halves of the wavefront "
    "are never combined.",
    example="for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(~0u, v, offset);",
    fix="Start at warpSize / 2.  Loops over a 32-wide cooperative-groups tile "
    "(tiled_partition<32>) are right and not reported.",
)
WARP_SIZE_CONSTANT = _code(
    "HPY422",
    "warp-size-constant-32",
    W,
    "a constant named like the warp size defined as 32",
    why="Everything sized or indexed with it assumes 32 lanes; gfx942 has 64.",
    example="#define WARP_SIZE 32\nconstexpr int kWarpSize{32};\ntemplate <int kNumThreadsPerWarp "
    "= 32> ...",
    fix="Use warpSize in device code; --fix-warp-size redefines the macro as warpSize only when "
    "every use is a lane count (lane math on threadIdx whose value is a lane count, a shuffle "
    "width, the start of a halving loop): not an array size, template argument, case label, "
    "stride or bit index.",
)
WARP_SIZE_SHARED_ARRAY = _code(
    "HPY423",
    "per-warp-shared-array-32",
    W,
    "a one-dimensional __shared__ array of 32 elements (one slot per 32-lane warp)",
    why="Indexed by warp (threadIdx.x / 32) or by lane, it no longer matches 64-lane wavefronts.",
    example="__shared__ float warp_sums[32];",
    fix="Size it by blockDim.x / warpSize and index it with threadIdx.x / warpSize.",
)
CUB_WARP_TRANSPOSE_BLOCK = _code(
    "HPY427",
    "cub-warp-transpose-block",
    E,
    "a hipCUB BlockLoad/BlockStore with a warp-transpose algorithm and a block that is not "
    "whole 64-lane wavefronts",
    why="CUB needs whole 32-lane warps for BLOCK_LOAD_WARP_TRANSPOSE; rocPRIM (under hipCUB) "
    "static_asserts that the block size is a multiple of the wavefront, 64 on gfx942.",
    example="cub::BlockLoad<int, 32, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>",
    fix="Use a block of a multiple of 64 threads, or the DIRECT / TRANSPOSE algorithm.",
)
CUB_ALLOCATOR_ARGUMENTS = _code(
    "HPY428",
    "cub-allocator-constructor-arguments",
    W,
    "a hipCUB CachingDeviceAllocator constructed with arguments: on HIP's NVIDIA platform it "
    "has only a default constructor",
    why="hipCUB's CUB backend (HIP's NVIDIA platform; hipCUB 5.7.1, 6.4.3 and 7.2.4 alike) "
    "derives hipcub::CachingDeviceAllocator from cub::CachingDeviceAllocator without "
    "forwarding its constructors, so a construction with bin_growth, min_bin, max_bin, ... "
    "does not compile there; on AMD (the rocPRIM backend) it does.",
    example="std::make_unique<cub::CachingDeviceAllocator>(2, 9, 29)",
    fix="Construct it without arguments and call SetMaxCachedBytes, or build for AMD only.",
)
WARP_SIZE_COMPARE = _code(
    "HPY424",
    "warpsize-compared-with-32",
    W,
    "warpSize compared with 32",
    why="It is 64 on gfx942, so the 32-lane branch is never taken (or always taken with !=).",
    example="if (warpSize == 32) { ... }",
    fix="Handle both wavefront sizes, or write the code for any warpSize.",
)
WARP_SIZE_BLOCK = _code(
    "HPY425",
    "block-size-not-multiple-of-64",
    W,
    "a kernel that uses warp intrinsics launched with a block size that is not a multiple of 64",
    why="The last wavefront of each block is partly empty, so full-mask shuffles and votes read "
    "lanes that do not exist.  Kernels that call a __device__ helper (or a macro) using warp "
    "functions count too.",
    example="reduce<<<grid, 96>>>(...);\ndim3 block(48, 2);\nreduce<<<grid, block>>>(...);",
    fix="Launch a multiple of 64 threads per block.",
)
WARP_SIZE_NOT_CONSTANT = _code(
    "HPY426",
    "warp-size-not-constant",
    E,
    "warpSize in a constant expression (constexpr, template argument, array size, "
    "static_assert, case label): HIP >= 7.0 makes it a run-time value",
    why="Up to HIP 6.4 warpSize was a static constexpr int (__AMDGCN_WAVEFRONT_SIZE); HIP 7.0 "
    "made it a non-constexpr object, as in CUDA, and clang 22 (ROCm 7.2) no longer defines "
    "__AMDGCN_WAVEFRONT_SIZE (clang 21, ROCm 6.4, deprecates it), so such code stops compiling.",
    example="__shared__ float partial[warpSize];\ntemplate <int W> struct Tile;  Tile<warpSize> t;",
    fix="Use a constant of the target's wavefront width (constexpr int kWarpSize = 64; for "
    "gfx942) where a constant is needed, and warpSize for run-time arithmetic.",
)
CUDA_ARCH_GATE = _code(
    "HPY410",
    "cuda-arch-gate",
    W,
    "a __CUDA_ARCH__ value test (a version gate) has no meaning under HIP",
    why="hipcc never defines __CUDA_ARCH__: `#if __CUDA_ARCH__ >= 800` is false in AMD device "
    "code, so the code behind it silently disappears.",
    example="#if __CUDA_ARCH__ >= 800",
    fix="Use __HIP_DEVICE_COMPILE__ for the device pass, or an AMD architecture macro "
    "(__gfx942__) or a feature test for a capability.",
)
CUDA_ARCH_VALUE = _code(
    "HPY411",
    "cuda-arch-value",
    W,
    "__CUDA_ARCH__ used as a value in code: replaced by 0, as hipcc reads it in #if",
    why="nvcc defines __CUDA_ARCH__ (700, 800, ...) in its device pass; hipcc for AMD never "
    "does, so a use in code or in a macro expanded in code (even inside `#ifdef __CUDA_ARCH__`, "
    "translated to `#ifdef __HIP_DEVICE_COMPILE__`) would be an undeclared identifier. It "
    "becomes 0: hipcc reads the undefined name as 0 in every `#if __CUDA_ARCH__ ...` left in "
    "the file, so code and preprocessor agree (and `__CUDA_ARCH__ >= 800` is false in both).",
    example="#ifdef __CUDA_ARCH__\n#define WHERE() report(__CUDA_ARCH__)\n#endif",
    fix="Where the number matters (a message, a static_assert, a branch on the architecture), "
    "use a value that means something on AMD (a project constant) or an architecture test "
    "such as `__gfx942__`.",
)
REGISTER_REMOVED = _code(
    "HPY801",
    "register-removed",
    N,
    "removed the `register` storage class, which C++17 removed and hipcc's clang rejects",
    why="nvcc accepts `register` with a warning; clang in C++17 mode rejects it as an error. "
    "Compilers ignore the keyword, so removing it changes nothing.",
    example="register int i = 0;",
    fix="Nothing: it is removed.",
)
VECTOR_OPERATOR = _code(
    "HPY803",
    "vector-compound-operator",
    W,
    "a compound assignment operator (+=, *=, ...) defined for a CUDA vector type, which HIP's "
    "vector types have as a member",
    why="CUDA's float2, int4, ... are plain structs, so helper_math.h-style code defines "
    "operator+= for them; HIP's AMD vector types define the same operators as members, so "
    "every call is ambiguous under hipcc.",
    example="inline __host__ __device__ void operator+=(float2 &a, float2 b) { a.x += b.x; "
    "a.y += b.y; }",
    fix="Wrapped in #if !defined(__HIP_PLATFORM_AMD__) (HIP's member does the same on AMD); "
    "a definition that shares its lines with other code is only reported: guard it by hand.",
)
OVERLOAD_COLLISION = _code(
    "HPY802",
    "overload-collision",
    E,
    "two overloads whose CUDA parameter types become the same HIP type: a redefinition",
    why="HIP has one type where CUDA has two (cudaError_t and CUresult both become hipError_t; "
    "cudaStream_t and CUstream both hipStream_t), so overloads that differ only there "
    "collide after translation.",
    example="const char* name(cudaError_t e);\nconst char* name(CUresult e);",
    fix="Delete the overload the message names (its body usually duplicates the other's), or "
    "rename one of them.",
)
FP8_FORMAT = _code(
    "HPY430",
    "fp8-format",
    W,
    "fp8 types and conversions: the formats differ between AMD targets and from CUDA",
    why="gfx942 implements the FNUZ fp8 variants (e4m3: largest value 240 instead of 448, no "
    "negative zero, NaN encoded as 0x80); later targets implement CUDA's OCP formats.",
    example="__nv_fp8_e4m3 x = __nv_fp8_e4m3(1.5f);",
    fix="Pick the format with --fp8 fnuz|ocp (the FNUZ types need HIP >= 6.2, the OCP ones HIP "
    ">= 6.3) and check results that depend on range or NaN.",
)
TEXTURE_REFERENCE = _code(
    "HPY440",
    "texture-reference",
    E,
    "a texture or surface reference (texture<T, dim>, surface<void, dim>)",
    why="Texture references were removed in CUDA 12 and are deprecated in HIP.  hipcc 5.7 for "
    "gfx942 rejects surface references (no template named 'surface') and every fetch through "
    "a texture reference (gfx942 has no texture hardware).",
    example="texture<float, 1, cudaReadModeElementType> tex;",
    fix="Read the data with global loads.",
)
TEXTURE_FETCH = _code(
    "HPY441",
    "texture-fetch",
    E,
    "a texture or surface fetch (tex1Dfetch, tex2D, surf2Dread, ...)",
    why="MI300 (gfx942) has no texture sampling units; hipcc 5.7 rejects the fetch there "
    "('tex1Dfetch' is unavailable: The image/texture API not supported on the device).",
    example="float v = tex1Dfetch<float>(tex, i);",
    fix="Replace the fetch with a global load and do filtering or addressing by hand.",
)
DEVICE_PROP_VALUE = _code(
    "HPY450",
    "device-prop-differs",
    N,
    "a cudaDeviceProp field or device attribute whose value differs on AMD GPUs (shared "
    "memory, registers, compute capability, L2)",
    why="Code that sizes work from NVIDIA's numbers, or tests the compute capability, takes the "
    "wrong path on gfx942.",
    example="if (prop.major >= 8) use_tensor_cores();\ncudaDeviceGetAttribute(&v, "
    "cudaDevAttrMaxSharedMemoryPerBlock, dev);",
    fix="Use the values HIP reports, and gcnArchName instead of major/minor.",
)
DEVICE_WARP_SIZE = _code(
    "HPY451",
    "device-warp-size-query",
    W,
    "the warp size read from the device (cudaDeviceProp::warpSize, cudaDevAttrWarpSize): 64 "
    "on gfx942",
    why="Host code that reads the warp size usually goes on to size masks, shared arrays or "
    "lane math for 32 lanes; on gfx942 the value is 64, so those sizes are half of what the "
    "wavefront needs.",
    example="int lanes = prop.warpSize;\nunsigned full = (1u << lanes) - 1;  // 32-bit mask",
    fix="Keep using the value, and make everything sized by it work for 64: 64-bit masks, "
    "blockDim.x / warpSize warps per block.",
)
DEVICE_PROP_FIELD_MISSING = _code(
    "HPY452",
    "device-prop-field-missing",
    W,
    "a cudaDeviceProp field that the target HIP's hipDeviceProp_t lacks (added in HIP 6.0, "
    "removed, or named differently)",
    why="hipDeviceProp_t gained most of cudaDeviceProp's fields in HIP 6.0 (HIP 5.7.1 lacks "
    "unifiedAddressing, asyncEngineCount, the texture and surface limits, ...), and a few "
    "CUDA fields have other names in HIP; the access does not compile.",
    example="if (prop.unifiedAddressing) ...   // --hip-version 5.7",
    fix="Target a HIP that has the field, use the HIP name the hint gives, or query the value "
    "with hipDeviceGetAttribute.",
)
HALF2_MEMBER = _code(
    "HPY460",
    "half2-member",
    W,
    "half2 .x / .y member access",
    why="In CUDA they are __half values; in HIP they are the raw unsigned short bits, so "
    "arithmetic on them silently uses the bit pattern as an integer.",
    example="float lo = __half2float(h.x);\nfloat hi = __half2float(hp[i].y);",
    fix="Use __low2half(h) / __high2half(h).",
)
BF16_NO_OPERATORS = _code(
    "HPY461",
    "bf16-no-operators",
    W,
    "bfloat16 used with a target HIP whose __hip_bfloat16 has no operators",
    why="HIP 5.7.1's __hip_bfloat16 is a plain struct: `a + b`, `a < b` and `float(a)` do not "
    "compile (hipcc 5.7.1), where CUDA's __nv_bfloat16 has them; HIP 6.4.3 and 7.2.4 have them.",
    example="__nv_bfloat16 s = a + b;  // with --hip-version 5.7",
    fix="Use the functions (__hadd, __hlt, __bfloat162float, __float2bfloat16), or target a "
    "newer HIP.",
)
BUILD_CMAKE_LANGUAGE = _code(
    "HPY601",
    "cmake-cuda-language",
    W,
    "a CMake line that enables or configures the CUDA language",
    why="CMake compiles HIP sources with its HIP language (CMake >= 3.21); CUDA settings and "
    "NVIDIA architectures do nothing for gfx942.",
    example="enable_language(CUDA)",
    fix="The HIP equivalent in the message; --fix-build rewrites the simple cases.",
)
BUILD_CMAKE_PACKAGE = _code(
    "HPY602",
    "cmake-cuda-package",
    W,
    "a CMake line that finds or links CUDA packages (CUDAToolkit, CUDA::cudart, FindCUDA)",
    why="ROCm's CMake packages are hip, hipblas, hipfft, hiprand, ... with their own targets.",
    example="target_link_libraries(app PRIVATE CUDA::cublas)",
    fix="find_package(hip) and the hip::/roc:: targets; --fix-build rewrites the simple cases.",
)
BUILD_MAKE_NVCC = _code(
    "HPY603",
    "makefile-nvcc",
    W,
    "a Makefile line that calls nvcc or passes nvcc-only flags or CUDA paths",
    why="hipcc takes clang flags: --offload-arch=gfx942 instead of -arch=sm_XX, no -Xcompiler.",
    example="NVCC_FLAGS = -arch=sm_80 --use_fast_math",
    fix="hipcc with --offload-arch=gfx942; --fix-build rewrites the simple cases.",
)
DEVICE_SIDE_RUNTIME = _code(
    "HPY302",
    "device-side-runtime",
    E,
    "a kernel launch or runtime API call in device code (CUDA dynamic parallelism)",
    why="CUDA's device runtime lets a kernel launch kernels and call cudaMalloc, "
    "cudaStreamCreate or cudaDeviceSynchronize; HIP has no device-side runtime, so hipcc "
    "rejects these as calls to host functions.",
    example="__global__ void parent() { child<<<1, 32>>>(); cudaDeviceSynchronize(); }",
    fix="Move the launch or call to the host, before or after the kernel; device code may use "
    "malloc/free for allocation.",
)
INLINE_PTX = _code(
    "HPY501",
    "inline-ptx",
    E,
    "inline PTX assembly (asm / asm volatile) in device code or a #define body",
    why="PTX is NVIDIA's virtual instruction set; hipcc cannot assemble it for AMD GPUs.",
    example='asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n#define LANE_ID(r) asm '
    'volatile("mov.u32 %0, %%laneid;" : "=r"(r))',
    fix="Rewrite it with HIP intrinsics (__lane_id(), __builtin_amdgcn_*) or AMD GCN assembly.",
)
LAUNCH_NOT_REWRITTEN = _code(
    "HPY301",
    "launch-not-rewritten",
    W,
    "a <<<...>>> launch could not be rewritten to hipLaunchKernelGGL; it was kept as is",
    why="hipcc accepts the triple-chevron syntax, so the code still builds with hipcc.",
    example="LAUNCH_MACRO(kernel)<<<grid, block>>>(args);",
    fix="Nothing: hipcc compiles <<<...>>>; rewrite it to hipLaunchKernelGGL by hand if you need "
    "that form.",
)

# The clang engine (--engine clang, hipify_py/semantic): what libclang saw.
CLANG_FALLBACK = _code(
    "HPY701",
    "clang-engine-fallback",
    W,
    "the clang engine could not compile this file; the default engine translated it",
    why="libclang reported errors (a missing header, a flag the build passes and the run did "
    "not), so its answers about this file cannot be trusted; the file is still translated, by "
    "the header-free default engine, which is what the message's reason affected.",
    example="fatal error: 'config.h' file not found (the build adds -Ibuild/include)",
    fix="Pass the flags the file is built with: -p BUILD_DIR (compile_commands.json), or "
    "-I / -D / --std, and --cuda-path for the CUDA headers.",
)
MACRO_USE_EXPANDS_TO_CUDA = _code(
    "HPY702",
    "macro-use-expands-to-cuda",
    N,
    "a use of a project macro that expands to CUDA API (reported where it is used)",
    why="The CUDA call is hidden behind the macro; it is translated in the macro's definition, "
    "so this use becomes HIP once the file (or header) defining the macro is translated.",
    example="CUDA_CHECK(x);  // #define CUDA_CHECK(x) ... cudaGetErrorString(e) ...",
    fix="Nothing, when the definition is translated too (the message says where it is).",
)
MACRO_DEFINITION_CUDA = _code(
    "HPY703",
    "macro-definition-expands-to-cuda",
    N,
    "a project macro whose expansions produce CUDA API uses; its definition is translated",
    why="Every use of the macro depends on this definition: the message lists the CUDA names "
    "it produced and how many uses the file has.",
    example="#define ALLOC(p, n) cudaMalloc((void**)&p, n)",
    fix="Nothing: the definition is translated like any other code.",
)
PASTED_PREFIX_REWRITTEN = _code(
    "HPY704",
    "pasted-prefix-rewritten",
    N,
    "a macro makes CUDA API names by token pasting (cuda##Name); the pasted prefix was rewritten",
    why="No text spells out the names the macro makes, so only the compiler sees them; every "
    "name made there has a HIP counterpart with the same suffix, so rewriting the prefix "
    "(cuda## -> hip##) translates them all.",
    example="#define CALL(fn, ...) cuda##fn(__VA_ARGS__)",
    fix="Nothing; check the HIP names the message lists exist for your target.",
)
INACTIVE_BRANCH = _code(
    "HPY705",
    "branch-not-compiled",
    N,
    "preprocessor branch lines that neither the host nor the device side compiled with these "
    "flags; translated textually",
    why="The clang engine answers only for code the compiler saw; inside these lines the "
    "default engine's textual translation applies (as hipify-clang translates them too).",
    example="#if CUDART_VERSION < 11000 ... #endif",
    fix="Check those lines by hand, or pass the -D flags (or -p BUILD_DIR) that enable them.",
)
PASTED_NAMES_UNTRANSLATED = _code(
    "HPY706",
    "pasted-names-untranslated",
    W,
    "a macro makes CUDA API names by token pasting that no single prefix rewrite translates",
    why="The names it makes map to HIP names with different prefixes, lack a HIP counterpart, "
    "or need a newer HIP than the target; the macro still produces CUDA names after "
    "translation.",
    example="#define CU(fn) cu##fn  // CU(blasCreate) and CU(daMalloc)",
    fix="Spell the names out in the macro's uses, or translate the macro by hand.",
)
SHADOWED_CUDA_NAME = _code(
    "HPY707",
    "user-name-shadows-cuda",
    N,
    "a name spelled like a CUDA API is the project's own declaration here; left unchanged",
    why="A function, type, variable or namespace member of the project has a CUDA API's name; "
    "renaming its uses (as text alone would) would point them at the HIP API instead.",
    example="struct Pool { void* cudaMalloc(size_t n); void* get() { return cudaMalloc(16); } };",
    fix="Nothing; consider renaming the declaration to avoid the confusion.",
)


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    line: int
    column: int
    offset: int = 0
    end_offset: int = 0
    hint: str = ""
    name: str = ""  # the CUDA name or header concerned, when there is one
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def rule(self) -> str:
        return CATALOGUE[self.code].name if self.code in CATALOGUE else self.code

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }
        if self.hint:
            data["hint"] = self.hint
        if self.name:
            data["name"] = self.name
        return data
