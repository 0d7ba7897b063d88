"""Engine behaviour, one property at a time, with the shipped tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify_py import Options, translate, translate_bytes
from hipify_py.tables.table import load_directory


def out(src: str, **options: object) -> str:
    result = translate(src, **options)
    assert isinstance(result.text, str)
    return result.text


def codes(src: str, **options: object) -> list[str]:
    return [d.code for d in translate(src, **options).diagnostics]


# --- renaming only real tokens ------------------------------------------------


def test_renames_calls_types_and_enums() -> None:
    src = "cudaError_t e = cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n"
    assert out(src, insert_runtime_include=False) == (
        "hipError_t e = hipMemcpy(d, h, n, hipMemcpyHostToDevice);\n"
    )


def test_comments_and_strings_are_left_alone() -> None:
    src = (
        "// cudaMalloc here\n/* cudaFree */ const char* s = \"cudaMalloc failed\"; char c = 'c';\n"
    )
    assert out(src) == src
    assert codes(src, select={"HPY107"}) == ["HPY107"]  # one note for the string mention


def test_rewrite_strings_is_opt_in() -> None:
    src = 'const char* s = "cudaMalloc failed";\n'
    assert out(src, rewrite_strings=True) == 'const char* s = "hipMalloc failed";\n'


def test_longer_identifiers_are_not_touched() -> None:
    src = "void f() { mycudaMalloc(); cudaMallocWrapper(); cudaMalloc_(); x_cudaFree(); }\n"
    assert out(src, insert_runtime_include=False) == src


def test_member_and_foreign_namespace_names_are_not_cuda() -> None:
    src = "void f(S s) { s.cudaMalloc(); p->cudaFree(); mylib::cudaMalloc(); ::cudaFree(0); }\n"
    assert out(src, insert_runtime_include=False) == (
        "void f(S s) { s.cudaMalloc(); p->cudaFree(); mylib::cudaMalloc(); ::hipFree(0); }\n"
    )


def test_namespaces() -> None:
    src = "#include <cub/cub.cuh>\nusing namespace cub;\nnamespace c2 = cub;\ncub::BlockReduce<int, 128> r; int cub_count;\n"
    assert out(src) == (
        "#include <hipcub/hipcub.hpp>\n"
        # hipCUB for NVIDIA already uses cub inside hipcub: the directive keeps cub there
        "#if defined(__HIP_PLATFORM_NVIDIA__)\nusing namespace cub;\n#else\n"
        "using namespace hipcub;\n#endif\nnamespace c2 = hipcub;\n"
        "hipcub::BlockReduce<int, 128> r; int cub_count;\n"
    )


def test_define_bodies_are_token_lexed() -> None:
    src = (
        "#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) "
        'printf("cudaSuccess %s", cudaGetErrorString(e)); } while (0) // cudaFree\n'
    )
    assert out(src, insert_runtime_include=False) == (
        "#define CHECK(x) do { hipError_t e = (x); if (e != hipSuccess) "
        'printf("cudaSuccess %s", hipGetErrorString(e)); } while (0) // cudaFree\n'
    )


def test_multiline_define_body() -> None:
    src = "#define ALLOC(p, n) \\\n  cudaMalloc(&p, n); \\\n  cudaMemset(p, 0, n)\n"
    assert out(src, insert_runtime_include=False) == (
        "#define ALLOC(p, n) \\\n  hipMalloc(&p, n); \\\n  hipMemset(p, 0, n)\n"
    )


def test_every_preprocessor_branch_and_condition() -> None:
    src = (
        "#if defined(CUDART_VERSION) && CUDART_VERSION >= 11000\ncudaStream_t a;\n"
        "#elif 1\ncudaEvent_t b;\n#else\ncudaError_t c;\n#endif\n#ifdef cudaMalloc\n#endif\n"
    )
    text = out(src, insert_runtime_include=False)
    assert "hipStream_t a;" in text and "hipEvent_t b;" in text and "hipError_t c;" in text
    assert "cudaStream_t" not in text


# --- includes -------------------------------------------------------------------


def test_known_headers_map_and_project_headers_do_not() -> None:
    src = (
        '#include <cuda_runtime.h>\n#include "cuda_runtime.h"\n#include "vendors/cuda.h"\n'
        "#include <cublas_v2.h>\n#include <curand.h>\n#include <cufft.h>\n#include <thrust/sort.h>\n"
    )
    assert out(src) == (
        '#include <hip/hip_runtime.h>\n#include "vendors/cuda.h"\n'
        "#include <hipblas/hipblas.h>\n#include <hiprand/hiprand.h>\n#include <hipfft/hipfft.h>\n"
        "#include <thrust/sort.h>\n"
    )


def test_header_without_counterpart_is_reported() -> None:
    result = translate("#include <mma.h>\n")
    assert result.text == "#include <mma.h>\n"
    (diag,) = [d for d in result.diagnostics if d.code == "HPY201"]
    assert (diag.line, diag.column) == (1, 10)
    assert "rocWMMA" in diag.hint


def test_runtime_include_inserted_once_after_pragma_once() -> None:
    src = "// licence\n#pragma once\n__device__ float twice(float x) { return 2 * x; }\n"
    text = out(src)
    assert text == (
        "// licence\n#pragma once\n#include <hip/hip_runtime.h>\n"
        "__device__ float twice(float x) { return 2 * x; }\n"
    )
    assert out(text) == text


def test_runtime_include_inserted_inside_include_guard() -> None:
    src = "#ifndef K_H\n#define K_H\n__global__ void k();\n#endif\n"
    assert (
        out(src)
        == "#ifndef K_H\n#define K_H\n#include <hip/hip_runtime.h>\n__global__ void k();\n#endif\n"
    )


def test_runtime_include_goes_before_first_include_and_after_leading_comment() -> None:
    assert out("/* c */\n#include <cstdio>\nvoid f() { cudaFree(0); }\n") == (
        "/* c */\n#include <hip/hip_runtime.h>\n#include <cstdio>\nvoid f() { hipFree(0); }\n"
    )
    assert out("// c\nvoid f() { cudaFree(0); }\n") == (
        "// c\n#include <hip/hip_runtime.h>\nvoid f() { hipFree(0); }\n"
    )


def test_no_runtime_include_for_plain_cpp_or_library_only_code() -> None:
    assert out("int main() { return 0; }\n") == "int main() { return 0; }\n"
    src = "#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasCreate(&h); }\n"
    assert "hip_runtime" not in out(src)


# --- launches ------------------------------------------------------------------


def test_launch_kept_by_default() -> None:
    src = "#include <hip/hip_runtime.h>\nvoid f() { k<<<g, b>>>(x); }\n"
    assert out(src) == src


@pytest.mark.parametrize(
    ("launch", "expected"),
    [
        ("k<<<g, b>>>(x, y);", "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x, y);"),
        ("k<<<g, b, s>>>(x);", "hipLaunchKernelGGL(k, dim3(g), dim3(b), s, 0, x);"),
        ("k<<<g, b, s, st>>>(x);", "hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st, x);"),
        ("k<<<dim3(1, 2), 32>>>();", "hipLaunchKernelGGL(k, dim3(1, 2), dim3(32), 0, 0);"),
        (
            "k<float, 4><<<g, b>>>(x);",
            "hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float, 4>), dim3(g), dim3(b), 0, 0, x);",
        ),
        ("ns::k<<<g, b>>>(x);", "hipLaunchKernelGGL(ns::k, dim3(g), dim3(b), 0, 0, x);"),
    ],
)
def test_launch_rewrite(launch: str, expected: str) -> None:
    src = f"#include <hip/hip_runtime.h>\nvoid f() {{ {launch} }}\n"
    assert (
        out(src, launch_syntax="hip")
        == f"#include <hip/hip_runtime.h>\nvoid f() {{ {expected} }}\n"
    )


def test_launch_rewrite_keeps_multiline_arguments_and_renames_inside() -> None:
    src = "void f(cudaStream_t s) {\n  k<<<g, b, 0, s>>>(a,\n      cudaMemcpyHostToDevice);\n}\n"
    assert out(src, launch_syntax="hip", insert_runtime_include=False) == (
        "void f(hipStream_t s) {\n  hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, s, a,\n"
        "      hipMemcpyHostToDevice);\n}\n"
    )


def test_launch_inside_macro() -> None:
    src = "#define LAUNCH(k, n, ...) k<<<(n + 255) / 256, 256>>>(__VA_ARGS__)\n"
    assert out(src, launch_syntax="hip") == (
        "#include <hip/hip_runtime.h>\n"
        "#define LAUNCH(k, n, ...) hipLaunchKernelGGL(k, dim3((n + 255) / 256), dim3(256), 0, 0, __VA_ARGS__)\n"
    )


def test_translated_launch_is_stable() -> None:
    src = "#include <hip/hip_runtime.h>\nvoid f() { k<float><<<g, b>>>(x); }\n"
    once = out(src, launch_syntax="hip")
    assert out(once, launch_syntax="hip") == once


# --- diagnostics -------------------------------------------------------------------


def test_unsupported_api_is_reported_with_position_and_left_alone() -> None:
    src = "void f() {\n  cudaDeviceFlushGPUDirectRDMAWrites(t, s);\n}\n"
    result = translate(src)
    assert "cudaDeviceFlushGPUDirectRDMAWrites(t, s)" in str(result.text)
    (diag,) = [d for d in result.diagnostics if d.code == "HPY101"]
    assert (diag.line, diag.column, diag.severity.value) == (2, 3, "error")
    assert diag.name == "cudaDeviceFlushGPUDirectRDMAWrites"
    assert result.stats.unconverted["cudaDeviceFlushGPUDirectRDMAWrites"] == 1


def test_unknown_cuda_like_name_is_reported_unless_defined_here() -> None:
    assert "HPY102" in codes("void f() { cudaFrobnicate(); }\n")
    assert "HPY102" not in codes("#define CUDA_CHECK(x) x\nvoid f() { CUDA_CHECK(g()); }\n")
    assert "HPY102" not in codes("void cudaHelper();\nvoid f() { cudaHelper(); }\n")
    assert "HPY102" not in codes("// cudaFrobnicate\n")


def test_hip_version_gates_newer_apis() -> None:
    src = "void f(cudaStream_t s) { cudaStreamBeginCaptureToGraph(s, g, 0, 0, 0, m); }\n"
    result = translate(src, hip_version="5.7")
    assert "cudaStreamBeginCaptureToGraph" in str(result.text)
    assert any(d.code == "HPY103" and "needs HIP >=" in d.message for d in result.diagnostics)


def test_self_check_drops_the_edits_that_would_break_the_parse(tmp_path: Path) -> None:
    (tmp_path / "runtime.yaml").write_text(
        "schema: 1\nlibrary: runtime\nsections:\n  S:\n"
        "    cudaBad: {hip: 'hip Bad(', kind: function}\n"
        "    cudaGood: {hip: hipGood, kind: function}\n"
    )
    table = load_directory(tmp_path)
    options = Options(insert_runtime_include=False)
    src = b"void f() { cudaBad(1); }\n"
    result = translate_bytes(src, table, options)
    assert result.data == src
    (diag,) = [d for d in result.diagnostics if d.code == "HPY001"]
    assert (diag.line, diag.column) == (1, 12)
    mixed = translate_bytes(b"void f() {\n  cudaGood(2);\n  cudaBad(1);\n}\n", table, options)
    assert mixed.data == b"void f() {\n  hipGood(2);\n  cudaBad(1);\n}\n"
    assert [(d.code, d.line) for d in mixed.diagnostics if d.code == "HPY001"] == [("HPY001", 3)]


# --- bytes survive ---------------------------------------------------------------


def test_crlf_latin1_and_bom_survive_byte_for_byte() -> None:
    latin1 = "/* caf\xe9 */\r\nvoid f() { cudaFree(0); }\r\n".encode("latin-1")
    result = translate(latin1, insert_runtime_include=False)
    assert result.text == latin1.replace(b"cudaFree", b"hipFree")
    bom = b"\xef\xbb\xbfvoid f() { cudaFree(0); }\n"
    assert translate(bom, insert_runtime_include=False).text == bom.replace(b"cudaFree", b"hipFree")


def test_mixed_line_endings_preserved() -> None:
    src = b"void f() {\r\n cudaFree(0);\n}\r\n"
    assert translate(src, insert_runtime_include=False).text == src.replace(b"cudaFree", b"hipFree")


def test_roc_option_uses_roc_names() -> None:
    src = "#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasCreate(&h); }\n"
    text = out(src, roc=True)
    assert "rocblas_handle" in text and "rocblas_create_handle" in text
    assert "<rocblas/rocblas.h>" in text


def test_cublas_enum_in_cusolver_call_uses_hipsolver_name() -> None:
    # a file using cuBLAS too: only the cuSOLVER call's arguments change
    src = "void f(cusolverDnHandle_t h, cublasHandle_t b) { cublasCreate(&b); cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, a, n, w, l, i); g(CUBLAS_OP_N); }\n"
    text = out(src, insert_runtime_include=False)
    assert "hipsolverDnSpotrf(h, HIPSOLVER_FILL_MODE_LOWER" in text
    assert "g(HIPBLAS_OP_N)" in text


def test_cuda_arch_device_pass_test_is_renamed_and_version_gate_reported() -> None:
    src = "#ifdef __CUDA_ARCH__\nint a;\n#endif\n#if __CUDA_ARCH__ >= 800\nint b;\n#endif\n"
    result = translate(src)
    assert str(result.text).startswith("#ifdef __HIP_DEVICE_COMPILE__\n")
    assert "#if __CUDA_ARCH__ >= 800" in str(result.text)
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("HPY410", 4, 5)]


# --- common words that are also CUDA names -----------------------------------


def test_plain_cpp_words_of_the_table_are_not_cuda_api() -> None:
    src = "int texture = 3;\nvoid g() { sync(); int half = 3; float s = sqrt(2.0f); }\n"
    result = translate(src, hip_version="5.2")
    assert result.text == src
    assert result.diagnostics == []
    assert result.stats.to_dict()["converted"] == 0


def test_namespace_alias_of_a_cuda_namespace_is_cuda() -> None:
    src = (
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
        "__global__ void k() { auto c = cg::this_cluster(); auto d = ::cooperative_groups::this_cluster(); mylib::this_cluster(); }\n"
    )
    found = [d for d in translate(src).diagnostics if d.code == "HPY101"]
    assert [d.column for d in found] == [36, 83]


def test_roc_reports_each_name_the_roc_library_lacks_and_never_falls_back() -> None:
    src = (
        "#include <cusolverDn.h>\n#include <cublas_v2.h>\n"
        "void f() { cusolverDnHandle_t h; cusolverDnCreate(&h); cusolverDnSgetrf_bufferSize(h, 1, 1, 0, 1, 0);\n"
        "  cublasHandle_t b; cublasCreate(&b); }\n"
    )
    result = translate(src, roc=True)
    text = str(result.text)
    # rocSOLVER's handle is rocBLAS's; the names rocSOLVER lacks stay CUDA's
    assert "#include <rocsolver/rocsolver.h>" in text and "rocblas_handle h;" in text
    assert "rocblas_create_handle(&h)" in text and "cusolverDnSgetrf_bufferSize(h" in text
    assert "hipsolver" not in text
    assert "#include <rocblas/rocblas.h>" in text and "rocblas_create_handle(&b)" in text
    errors = [d for d in result.diagnostics if d.code == "HPY108"]
    assert [(d.severity, d.name, d.line) for d in errors] == [
        ("error", "cusolverDnSgetrf_bufferSize", 3)
    ]
    assert "hipsolverDnSgetrf_bufferSize" in errors[0].hint
    assert result.stats.to_dict()["unconverted"] == 1


def test_cuda_headers_that_become_the_same_hip_header_are_included_once() -> None:
    src = (
        "#include <cooperative_groups.h>\n#include <cuda_runtime.h>\n#include <cuda.h>\n"
        "#ifdef X\n#include <cuda.h>\n#endif\n__global__ void k() {}\n"
    )
    text = str(translate(src).text)
    assert text == (
        "#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"
        "#ifdef X\n#include <hip/hip_runtime.h>\n#endif\n__global__ void k() {}\n"
    )
    assert translate(text).text == text
    # a project's own repeated include is not ours to drop
    mine = "#include <hip/hip_runtime.h>\n#include <hip/hip_runtime.h>\n"
    assert translate(mine).text == mine


def test_scoped_rows_rename_only_under_their_scope() -> None:
    src = (
        "#include <thrust/sort.h>\nvoid f(cudaStream_t s, int* p) {\n"
        "  thrust::sort(thrust::cuda::par.on(s), p, p + 4);\n"
        "  auto q = thrust::system::cuda::par; thrust :: cuda_cub::tag t;\n"
        "  auto& c = thrust::system::cuda_category();\n"
        "  cuda::std::atomic<int> a; mine::cuda::x y; int cuda = 0;\n}\n"
    )
    text = str(translate(src).text)
    assert "thrust::sort(thrust::hip::par.on(s), p, p + 4);" in text
    assert "thrust::system::hip::par; thrust :: hip_rocprim::tag t;" in text
    assert "thrust::system::hip_category();" in text
    assert "cuda::std::atomic<int> a; mine::cuda::x y; int cuda = 0;" in text


def test_cublas_types_in_a_cusolver_only_file_become_hipsolver_types() -> None:
    src = (
        "#include <cusolverDn.h>\n"
        "void f(cusolverDnHandle_t h, int n, float* a, int* w) {\n"
        "  cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;\n"
        "  cusolverDnSpotrf(h, uplo, n, a, n, a, n, w);\n}\n"
    )
    text = str(translate(src).text)
    assert "hipsolverFillMode_t uplo = HIPSOLVER_FILL_MODE_LOWER;" in text
    with_blas = "#include <cublas_v2.h>\n" + src
    assert "hipblasFillMode_t uplo = HIPBLAS_FILL_MODE_LOWER;" in str(translate(with_blas).text)


def test_struct_keyword_is_dropped_where_hip_has_only_a_typedef() -> None:
    src = (
        "#include <cuda_runtime.h>\nstruct CUstream_st;\ntypedef struct CUstream_st* cudaStream_t;\n"
        "void f(struct cudaLaunchParams* p) { size_t s = sizeof(struct cudaLaunchParams); "
        "struct cudaDeviceProp prop; struct mine m; }\n"
    )
    text = str(translate(src).text)
    assert "struct ihipStream_t;\ntypedef struct ihipStream_t* hipStream_t;" in text
    assert (
        "void f(hipLaunchParams* p) { size_t s = sizeof(hipLaunchParams); hipDeviceProp_t prop; struct mine m; }"
        in text
    )
    assert translate(text).text == text


def test_cuda_only_namespaces_and_attributes_are_reported_where_used() -> None:
    src = (
        "struct P { int a; };\n"
        "__global__ void k(const __grid_constant__ P p, int cuda) {\n"
        "  nvcuda::wmma::fill_fragment(f, 0.0f); ::cuda::std::atomic<int> x; mylib::cuda::y z;\n"
        "  thrust::cuda::par; if (cuda) {}\n}\n"
    )
    result = translate(src)
    reported = sorted(d.name for d in result.diagnostics if d.code == "HPY101")
    assert reported == ["__grid_constant__", "cuda", "nvcuda"]
    assert "thrust::hip::par" in str(result.text)


def test_lines_total_counts_files_without_cuda_too() -> None:
    plain = translate("int x;\nint y;\n")
    cuda = translate("cudaFree(p);\nint y;\n", insert_runtime_include=False)
    assert plain.stats.lines_total == cuda.stats.lines_total == 3  # LineIndex counts the last
    assert translate("").stats.lines_total == 0


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_runtime_include_never_lands_inside_a_continued_line(newline: str) -> None:
    # fuzz finding: after "\\<newline>" the inserted line joined the line above
    # (it was no directive), so a second run inserted it again
    src = f"\\{newline}k<<<g, b>>>(x);{newline}"
    once = translate(src).text
    assert once == f"#include <hip/hip_runtime.h>{newline}{src}"
    assert translate(once).text == once


@pytest.mark.parametrize(
    "header",
    [
        "cufile.h",
        "cutlass/gemm/device/gemm.h",
        "cute/tensor.hpp",
        "nvfunctional",
        "cudnn_frontend.h",
        "cusparseLt.h",
        "cutensor.h",
    ],
)
def test_nvidia_only_library_headers_are_reported(header: str) -> None:
    src = f"#include <{header}>\n__global__ void k() {{}}\n"
    result = translate(src, insert_runtime_include=False)
    assert result.text == src
    [diagnostic] = [d for d in result.diagnostics if d.code == "HPY201"]
    assert header in diagnostic.message and diagnostic.line == 1 and diagnostic.hint


def test_conversion_operator_type_is_renamed_after_an_unknown_macro() -> None:
    # libcu++ (cupy's vendored CCCL): recovery reads the type as a member name
    src = (
        "struct normal {\n"
        "  [[nodiscard]] _CCCL_API constexpr operator ::cudaAccessProperty() const noexcept\n"
        "  { return ::cudaAccessProperty::cudaAccessPropertyNormal; }\n"
        "  operator cudaStream_t() const;\n"
        "  int cudaMalloc;\n"
        "};\n"
    )
    out = str(translate(src, insert_runtime_include=False).text)
    assert "operator ::hipAccessProperty()" in out and "operator hipStream_t()" in out
    assert "::hipAccessProperty::hipAccessPropertyNormal" in out
    assert "int cudaMalloc;" in out  # a member named like the API stays


def test_return_type_after_an_unknown_macro_in_a_class_is_renamed() -> None:
    # recovery reads `MACRO cudaError_t f(...)` in a class as a member named cudaError_t
    src = (
        "struct S {\n"
        "  _CCCL_HOST_DEVICE cudaError_t map_to_buffer(void* d, size_t n);\n"
        "  _CCCL_HIDE_FROM_ABI cudaError_t\n  MaxGridDimX(int& x) const;\n"
        "  cudaStream_t cudaStream __attribute__((aligned(8)));\n"
        "};\n"
    )
    out = str(translate(src, insert_runtime_include=False).text)
    assert out.count("hipError_t") == 2 and "cudaError_t" not in out
    assert "hipStream_t cudaStream __attribute__" in out  # the member's name stays


def test_a_namespace_alias_in_a_comment_is_no_alias() -> None:
    src = (
        "#include <cooperative_groups.h>\n// namespace cg = cooperative_groups;\n"
        "__global__ void k() { auto c = cg::this_cluster(); }\n"
    )
    assert [d.code for d in translate(src).diagnostics if d.code == "HPY101"] == []


def test_a_commented_warp_sync_opt_in_define_does_not_count() -> None:
    src = (
        "// #define HIP_ENABLE_WARP_SYNC_BUILTINS\n"
        "__global__ void k(int* p) { p[0] = __shfl_sync(0xffffffffffffffffull, p[0], 0); }\n"
    )
    text = out(src, hip_version="6.2")
    assert (
        "#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS\n#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#endif"
        in text
    )


def test_a_long_alias_right_side_without_a_semicolon_does_not_hang() -> None:
    """`using X = <a long name>` not followed by ';' (a template alias, a
    macro): the alias scan of the warp rule backtracked exponentially on it
    (CuPy's vendored CCCL hung the translation).  Guarded by a timeout far
    beyond a normal run (well under a second), not a speed measurement."""
    import subprocess
    import sys

    source = (
        b"__global__ void k(unsigned* out) {\n"
        b"  using Tile = cooperative_groups_thread_block_tile_of_thirty_two_lanes <32>;\n"
        b"  out[0] = __ballot_sync(0xffffffff, 1);\n}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "hipify_py", "-", "--stdout", "--stdin-filename", "k.cu"],
        input=source,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    assert b"__ballot" in done.stdout
