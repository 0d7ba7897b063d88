"""--roc through the real command line: only code decides the translation,
names the ROC library lacks are errors where they are used (never a silent
switch to the HIP library), and the complex / half values the ROC calls take
are cast at the call, which the real hipcc of ROCm 7.2 and 6.4 compiles
(Debian 13's HIP 5.7.1 packages no rocBLAS / rocSPARSE / rocSOLVER headers)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import REPO, run_cli
from toolchain_support import amd_compiler

FIXTURES = REPO / "fixtures"
COMMENTED = b"#include <cudnn.h>\n// cudnnOpTensor is not used here\ncudnnHandle_t h; void f() { cudnnCreate(&h); }\n"


def translated(source: bytes, *options: str) -> subprocess.CompletedProcess[bytes]:
    """``hipify-py OPTIONS --stdout input.cu``: the translation on stdout, the
    diagnostics (as ``input.cu:LINE:COLUMN: ...``) on stderr."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.cu"
        path.write_bytes(source)
        return run_cli(*options, "--no-cache", str(path), "--stdout", cwd=Path(folder))


# ------------------------------------------------------------ 1. only code decides


def test_a_comment_naming_a_name_miopen_lacks_changes_nothing() -> None:
    plain = COMMENTED.replace(b"// cudnnOpTensor is not used here\n", b"")
    with_comment = translated(COMMENTED, "--roc", "-v")
    without = translated(plain, "--roc", "-v")
    assert with_comment.returncode == without.returncode == 0
    assert with_comment.stdout == (
        b"#include <miopen/miopen.h>\n// cudnnOpTensor is not used here\n"
        b"miopenHandle_t h; void f() { miopenCreate(&h); }\n"
    )
    assert without.stdout == with_comment.stdout.replace(
        b"// cudnnOpTensor is not used here\n", b""
    )
    assert b"HPY108" not in with_comment.stderr and b"hipdnn" not in with_comment.stdout


def test_strings_include_paths_and_error_text_change_nothing_either() -> None:
    source = (
        b'#include <cudnn.h>\n#include "cudnnOpTensor_helpers.h"\n'
        b"#if 0\n#error cudnnOpTensor missing\n#endif\n"
        b'const char* why = "cudnnOpTensor";\n'
        b"/* cudnnOpTensor(h, ...) */ cudnnHandle_t h; void f() { cudnnCreate(&h); }\n"
    )
    done = translated(source, "--roc")
    assert done.returncode == 0
    assert b"miopenHandle_t h; void f() { miopenCreate(&h); }" in done.stdout
    assert b"#include <miopen/miopen.h>" in done.stdout and b"hipdnn" not in done.stdout
    assert b"HPY108" not in done.stderr


def test_a_comment_does_not_decide_cusolver_names_either() -> None:
    # a cuSOLVER-only file takes cuBLAS's enums as hipSOLVER's; a cuBLAS call or
    # include that is only mentioned in a comment does not make it a cuBLAS file
    source = (
        b"#include <cusolverDn.h>\n// #include <cublas_v2.h>, cublasSgemm(...)\n"
        b"void f(cusolverDnHandle_t h, int n, float* a, int* w) {\n"
        b"  cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;\n"
        b"  cusolverDnSpotrf(h, uplo, n, a, n, a, n, w);\n}\n"
    )
    done = translated(source)
    assert done.returncode == 0
    assert b"hipsolverFillMode_t uplo = HIPSOLVER_FILL_MODE_LOWER;" in done.stdout
    code = source.replace(b"// #include <cublas_v2.h>, cublasSgemm(...)", b"#include <cublas_v2.h>")
    assert b"hipblasFillMode_t uplo = HIPBLAS_FILL_MODE_LOWER;" in translated(code).stdout


# ------------------------------------------------------------ 2. no silent fallback


def test_each_use_of_a_name_rocsparse_lacks_is_an_error_and_the_rest_is_rocsparse(
    tmp_path: Path,
) -> None:
    folder = FIXTURES / "262-roc-name-without-roc-counterpart"
    source = (folder / "input.cu").read_bytes()
    done = translated(source, "--roc")
    assert done.returncode == 0
    assert done.stdout == (folder / "expected.hip").read_bytes()
    assert b"hipsparse" not in done.stdout  # no fallback to hipSPARSE
    errors = [line for line in done.stderr.decode().splitlines() if "[HPY108]" in line]
    assert [line.split(": error: ")[0] for line in errors] == [
        "input.cu:6:5",
        "input.cu:7:5",
        "input.cu:9:5",
    ]
    assert (
        "cusparseSpSMDescr_t has no counterpart in <rocsparse/rocsparse.h>; left unchanged"
        in errors[0]
    )
    assert (
        "where it becomes hipsparseSpSMDescr_t of <hipsparse/hipsparse.h>" in done.stderr.decode()
    )
    # the comment (line 3) and the string (line 8) are not uses
    assert not any(line.startswith(("input.cu:3:", "input.cu:8:")) for line in errors)
    strict = translated(source, "--roc", "--strict")
    assert strict.returncode == 1


def test_include_guard_tests_use_the_roc_headers_guard_or_are_reported() -> None:
    rand = translated(b"#include <curand.h>\n#ifdef CURAND_H_\nint x;\n#endif\n", "--roc")
    assert rand.stdout == (
        b"#include <rocrand/rocrand.h>\n#if defined(ROCRAND_H_) || defined(CURAND_H_)\nint x;\n#endif\n"
    )
    # rocsolver.h defines no guard: testing hipSOLVER's would drop the block silently
    solver = translated(b"#include <cusolverDn.h>\n#ifdef CUSOLVERDN_H_\nint x;\n#endif\n", "--roc")
    assert b"#ifdef CUSOLVERDN_H_\n" in solver.stdout and b"HIPSOLVER_H" not in solver.stdout
    assert "input.cu:2:8: error: --roc: CUSOLVERDN_H_ has no counterpart" in solver.stderr.decode()


def test_a_header_the_roc_library_lacks_is_reported_not_switched_to_hip() -> None:
    source = b"#include <cusolverSp.h>\n#include <curand_uniform.h>\n// #include <cusolverRf.h>\n"
    done = translated(source, "--roc")
    assert done.stdout == (
        b"#include <cusolverSp.h>\n#include <rocrand/rocrand_kernel.h>\n// #include <cusolverRf.h>\n"
    )
    errors = [line for line in done.stderr.decode().splitlines() if "[HPY108]" in line]
    assert len(errors) == 1 and errors[0].startswith("input.cu:1:10: error: --roc: <cusolverSp.h>")


def test_cublaslt_has_no_roc_library_and_keeps_hipblaslt_names() -> None:
    source = (
        b"#include <cublasLt.h>\n#include <cublas_v2.h>\n"
        b"void f() { cublasLtHandle_t lt; cublasLtCreate(&lt); cublasHandle_t h; cublasCreate(&h); }\n"
    )
    done = translated(source, "--roc")
    assert done.returncode == 0
    assert (
        b"hipblasLtHandle_t lt; hipblasLtCreate(&lt); rocblas_handle h; rocblas_create_handle(&h);"
        in done.stdout
    )
    assert b"HPY108" not in done.stderr


def test_a_roc_function_whose_parameters_differ_is_reported_not_silent() -> None:
    # rocrand_get_scramble_constants32 takes a const unsigned int**: CUDA's
    # unsigned int** does not convert, and no rewrite keeps the meaning
    source = (
        b"#include <curand.h>\nvoid f(unsigned int** c) {\n  curandGetScrambleConstants32(c);\n}\n"
    )
    done = translated(source, "--roc")
    assert b"rocrand_get_scramble_constants32(c);" in done.stdout
    assert (
        "input.cu:3:3: warning: curandGetScrambleConstants32 -> rocrand_get_scramble_constants32: "
        "the ROC function's signature differs (hipcc on a call with CUDA's argument types: no "
        "known conversion from 'unsigned int **' to 'const unsigned int **' for 1st argument) "
        "[HPY109]"
    ) in done.stderr.decode()


def test_a_roc_call_rewritten_by_roc_args_is_not_reported_as_differing() -> None:
    # rocsolver_spotrf has no workspace parameters: roc_args drops them
    source = (
        b"#include <cusolverDn.h>\n"
        b"void f(cusolverDnHandle_t h, int n, float* a, float* w, int lw, int* info) {\n"
        b"  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, a, n, w, lw, info);\n}\n"
    )
    done = translated(source, "--roc")
    assert b"rocsolver_spotrf(h, rocblas_fill_lower, n, a, n, info);" in done.stdout
    assert b"HPY109" not in done.stderr


def test_a_roc_name_newer_than_the_target_is_left_and_reported() -> None:
    source = b"#include <curand.h>\nvoid f(curandGenerator_t* g) { curandCreateGeneratorHost(g, CURAND_RNG_PSEUDO_DEFAULT); }\n"
    old = translated(source, "--roc", "--hip-version", "5.7")
    assert b"rocrand_generator* g) { curandCreateGeneratorHost(g," in old.stdout
    assert (
        "input.cu:2:32: error: curandCreateGeneratorHost -> rocrand_create_generator_host_blocking "
        "needs ROCm >= 6.2 (target is 5.7); left unchanged [HPY103]"
    ) in old.stderr.decode()
    new = translated(source, "--roc", "--hip-version", "7.2")
    assert (
        b"rocrand_create_generator_host_blocking(g," in new.stdout and b"HPY103" not in new.stderr
    )


def test_cuda_data_types_follow_the_library_that_takes_them() -> None:
    # rocBLAS takes rocblas_datatype, rocSPARSE rocsparse_datatype, and hipFFT /
    # hipBLASLt, which --roc keeps, HIP's hipDataType
    sparse = (
        b"#include <cusparse.h>\n"
        b"void f(cusparseDnVecDescr_t* v, float* x, int n) {\n"
        b"  cudaDataType t = CUDA_R_32F;\n  cusparseCreateDnVec(v, n, x, CUDA_R_64F);\n}\n"
    )
    done = translated(sparse, "--roc")
    assert b"rocsparse_datatype t = rocsparse_datatype_f32_r;" in done.stdout
    assert b"rocsparse_create_dnvec_descr(v, n, x, rocsparse_datatype_f64_r);" in done.stdout
    mixed = (
        b"#include <cublasLt.h>\n#include <cublas_v2.h>\n"
        b"void f(cublasLtMatrixLayout_t* l, cublasHandle_t h, void* A) {\n"
        b"  cublasLtMatrixLayoutCreate(l, CUDA_R_32F, 4, 4, 4);\n"
        b"  cublasSetVector_64(4, 4, A, 1, A, 1); cudaDataType t = CUDA_R_16F;\n}\n"
    )
    done = translated(mixed, "--roc")
    assert b"hipblasLtMatrixLayoutCreate(l, HIP_R_32F, 4, 4, 4);" in done.stdout
    # outside the calls, in a file that calls both: rocBLAS's
    assert b"rocblas_datatype t = rocblas_datatype_f16_r;" in done.stdout


# ------------------------------------------------------------ 3. value types


def test_complex_and_half_arguments_are_cast_at_the_roc_call() -> None:
    folder = FIXTURES / "263-roc-complex-half-casts"
    done = translated((folder / "input.cu").read_bytes(), "--roc", "-v")  # -v: notes too
    assert done.returncode == 0
    text = done.stdout.decode()
    assert text == (folder / "expected.hip").read_text()
    assert "#include <hip/hip_complex.h>\n#include <rocblas/rocblas.h>" in text
    # the file's own complex arithmetic keeps HIP's types and functions
    assert (
        "static hipComplex shifted(hipComplex a) { return hipCaddf(a, make_hipComplex(1.0f, 0.0f)); }"
        in text
    )
    assert (
        "rocblas_cgemm(h, rocblas_operation_none, rocblas_operation_none, n, n, n, "
        "(const rocblas_float_complex*)(&alpha), (const rocblas_float_complex*)(A), n, "
        "(const rocblas_float_complex*)(B), n, (const rocblas_float_complex*)(&beta), "
        "(rocblas_float_complex*)(C), n)"
    ) in text
    assert "(const rocblas_half*)(&one)" in text and "(rocblas_half*)(hC)" in text
    assert "rocsparse_cgtsv_no_pivot(h, m, 1, (const rocsparse_float_complex*)(dl)" in text
    notes = [line for line in done.stderr.decode().splitlines() if "[HPY115]" in line]
    assert len(notes) == 4 and "cublasCgemm -> rocblas_cgemm: 5 arguments cast" in notes[0]


def test_a_value_already_of_the_roc_type_is_not_cast() -> None:
    source = (
        b"#include <cublas_v2.h>\n"
        b"void f(cublasHandle_t h, int n, rocblas_float_complex* x, cuComplex* y) {\n"
        b"  cublasCcopy(h, n, y, 1, x, 1);\n}\n"
    )
    done = translated(source, "--roc")
    assert b"rocblas_ccopy(h, n, (const rocblas_float_complex*)(y), 1, x, 1);" in done.stdout


def test_without_roc_nothing_is_cast() -> None:
    folder = FIXTURES / "263-roc-complex-half-casts"
    done = translated((folder / "input.cu").read_bytes())
    assert done.returncode == 0
    assert b"rocblas_float_complex" not in done.stdout and b"HPY115" not in done.stderr


@pytest.mark.parametrize("release", ["7.2", "6.4"])
def test_the_roc_translation_compiles_for_gfx942(release: str) -> None:
    compiler = amd_compiler(release)
    source = (FIXTURES / "263-roc-complex-half-casts" / "input.cu").read_bytes()
    done = translated(source, "--roc", "--hip-version", release)
    assert done.returncode == 0, done.stderr.decode()
    uncast = done.stdout.replace(b"(const rocblas_float_complex*)", b"").replace(
        b"(rocblas_float_complex*)", b""
    )
    with compiler.workspace() as work:
        (work / "unit.hip").write_bytes(done.stdout)
        built = compiler.run(
            ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
        )
        assert built.returncode == 0, built.stderr + built.stdout
        # the casts are what makes it compile: without them rocblas_cgemm rejects hipComplex*
        (work / "uncast.hip").write_bytes(uncast)
        failed = compiler.run(
            ["--offload-arch=gfx942", "-fsyntax-only", "-x", "hip", "uncast.hip"], cwd=work
        )
        assert failed.returncode != 0 and "rocblas_cgemm" in failed.stderr + failed.stdout


# ------------------------------------------------------------ 4. library calls that compile
# (each call here failed to compile after translation without a diagnostic:
# tests/data/signature_silent.yaml listed them; one example of each cause)

ROC_CALLS = b"""#include <cuda_fp16.h>
#include <cublas_v2.h>
#include <cusparse.h>
#include <cusolverDn.h>
void f(cublasHandle_t h, cusparseHandle_t sh, cusolverDnHandle_t dh, cusparseMatDescr_t d,
       int64_t n, int m, cuDoubleComplex* A, cuDoubleComplex* B, cuDoubleComplex alpha,
       const __half* const* xs, __half* const* ys, float a, float b, void* const* C,
       cuComplex* ca, cuComplex* cx, cuComplex* cy, int* rp, int* ci, cuComplex* w, int lw, int* info) {
  cublasZtrsm_v2_64(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &alpha, A, n, B, n);
  cublasHSHgemvBatched(h, CUBLAS_OP_N, m, m, &a, xs, m, xs, 1, &b, ys, 1, 4);
  cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &a, (const void* const*)C, CUDA_R_32F, m, (const void* const*)C, CUDA_R_32F, m, &b, C, CUDA_R_32F, m, 4, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
  cusparseCbsrmv(sh, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, m, m, m, cx, d, ca, rp, ci, 2, cx, cx, cy);
  cusolverDnCpotrf(dh, CUBLAS_FILL_MODE_LOWER, m, ca, m, w, lw, info);
}
"""

MIOPEN_CALLS = b"""#include <cudnn.h>
void f(cudnnHandle_t h, cudnnTensorDescriptor_t xd, cudnnTensorDescriptor_t yd, cudnnFilterDescriptor_t wd,
       cudnnConvolutionDescriptor_t cd, cudnnDropoutDescriptor_t dd, void* x, void* y, void* w,
       void* ws, size_t wss, void* st, size_t sts, void* rs, size_t rss,
       const float* scale, const float* bias, const float* mean, const float* var) {
  const float one = 1.0f, zero = 0.0f;
  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, xd, x, &zero, yd, y);
  cudnnConvolutionBackwardData(h, &one, wd, w, yd, y, cd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, ws, wss, &zero, xd, x);
  cudnnSetDropoutDescriptor(dd, h, 0.5f, st, sts, 1234ULL);
  cudnnDropoutForward(h, dd, xd, x, yd, y, rs, rss);
  cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xd, x, yd, y, xd, scale, bias, mean, var, 1e-5);
  cudnnBackendDescriptor_t graph;
  cudnnBackendCreateDescriptor(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &graph);
  cudnnBackendSetAttribute(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &h);
}
"""

LT_CALLS = b"""#include <cublasLt.h>
void f(cublasLtMatmulDesc_t* d) {
  cublasComputeType_t ct = CUBLAS_COMPUTE_32F;
  cublasLtMatmulDescCreate(d, ct, CUDA_R_32F);
}
"""


@pytest.mark.parametrize("release", ["7.2", "6.4"])
def test_roc_calls_of_each_fixed_cause_are_rewritten_and_compile(release: str) -> None:
    compiler = amd_compiler(release)
    blas = translated(ROC_CALLS, "--roc", "--hip-version", release, "-v")
    assert blas.returncode == 0, blas.stderr.decode()
    text = blas.stdout.decode()
    # ROC-only functions (rocBLAS _64, mixed precision): their complex / half arguments cast
    assert (
        "rocblas_ztrsm_64(h, rocblas_side_left, rocblas_fill_lower, rocblas_operation_none, "
        "rocblas_diagonal_non_unit, n, n, (const rocblas_double_complex*)(&alpha), "
        "(const rocblas_double_complex*)(A), n, (rocblas_double_complex*)(B), n);"
    ) in text
    assert (
        "rocblas_hshgemv_batched(h, rocblas_operation_none, m, m, &a, "
        "(const rocblas_half* const*)(xs), m, (const rocblas_half* const*)(xs), 1, &b, "
        "(rocblas_half* const*)(ys), 1, 4);"
    ) in text
    # D is C's pointer array as rocBLAS's void* d; the compute type a rocblas_datatype
    assert (
        "&b, C, rocblas_datatype_f32_r, m, (void*)(C), rocblas_datatype_f32_r, m, 4, "
        "rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0);"
    ) in text
    # roc_args rewrites that also cast the complex arguments they keep
    assert (
        "rocsparse_cbsrmv(sh, rocsparse_direction_row, rocsparse_operation_none, m, m, m, "
        "(const rocsparse_float_complex*)(cx), d, (const rocsparse_float_complex*)(ca), rp, ci, "
        "2, nullptr, (const rocsparse_float_complex*)(cx), (const rocsparse_float_complex*)(cx), "
        "(rocsparse_float_complex*)(cy));"
    ) in text
    assert (
        "rocsolver_cpotrf(dh, rocblas_fill_lower, m, (rocblas_float_complex*)(ca), m, info);"
        in text
    )
    assert "input.cu:13:3: info: cusolverDnCpotrf -> rocsolver_cpotrf: 1 argument cast to " in (
        blas.stderr.decode()
    )
    dnn = translated(MIOPEN_CALLS, "--roc", "--hip-version", release, "-v")
    assert dnn.returncode == 0, dnn.stderr.decode()
    text = dnn.stdout.decode()
    # MIOpen declares its backend API only with MIOPEN_BETA_API
    assert text.startswith(
        "#ifndef MIOPEN_BETA_API\n#define MIOPEN_BETA_API\n#endif\n#include <miopen/miopen.h>\n"
    )
    # arguments moved (enumerators too, translated), a descriptor passed twice, defaults
    assert (
        "miopenSoftmaxForward_V2(h, &one, xd, x, &zero, yd, y, MIOPEN_SOFTMAX_ACCURATE, "
        "MIOPEN_SOFTMAX_MODE_CHANNEL);"
    ) in text
    assert (
        "miopenConvolutionBackwardData(h, &one, yd, y, wd, w, cd, miopenConvolutionBwdDataAlgoGEMM, "
        "&zero, xd, x, ws, wss);"
    ) in text
    assert (
        "miopenSetDropoutDescriptor(dd, h, 0.5f, st, sts, 1234ULL, false, false, "
        "MIOPEN_RNG_PSEUDO_XORWOW);"
    ) in text
    assert "miopenDropoutForward(h, dd, xd, xd, x, yd, y, rs, rss);" in text
    # inputs MIOpen declares void* (it only reads them)
    assert "(void*)(&one), (void*)(&zero), xd, x, yd, y, xd, (void*)(scale), (void*)(bias)" in text
    assert "MIOPEN_TYPE_HANDLE, 1, (void*)(&h));" in text
    assert "HPY109" not in dnn.stderr.decode() and "HPY205" not in dnn.stderr.decode()
    lt = translated(LT_CALLS, "--roc", "--hip-version", release)
    assert b"hipblasComputeType_t ct = HIPBLAS_COMPUTE_32F;" in lt.stdout
    with compiler.workspace() as work:
        for name, done in (("blas", blas), ("dnn", dnn), ("lt", lt)):
            (work / f"{name}.hip").write_bytes(done.stdout)
            built = compiler.run(
                ["--offload-arch=gfx942", "-fsyntax-only", "-x", "hip", f"{name}.hip"], cwd=work
            )
            assert built.returncode == 0, name + ": " + built.stderr + built.stdout


MIOPEN_DIFFERING = b"""#include <cudnn.h>
void f(cudnnHandle_t h, cudnnTensorDescriptor_t xd, cudnnTensorDescriptor_t yd, cudnnFilterDescriptor_t wd,
       cudnnConvolutionDescriptor_t cd, cudnnPoolingDescriptor_t pd, cudnnLRNDescriptor_t ld,
       cudnnCTCLossDescriptor_t ctc, cudnnDropoutDescriptor_t dd, void* x, void* y, void* w, void* ws,
       size_t wss, cudnnConvolutionFwdAlgoPerf_t* perf, int* found, float* p, void** st, unsigned long long* seed) {
  cudnnSetPooling2dDescriptor(pd, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2);
  cudnnSetLRNDescriptor(ld, 5, 1e-4, 0.75, 2.0);
  cudnnSetCTCLossDescriptor(ctc, CUDNN_DATA_FLOAT);
  cudnnGetDropoutDescriptor(dd, h, p, st, seed);
  cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, &wss);
  cudnnFindConvolutionForwardAlgorithmEx(h, xd, x, wd, w, cd, yd, y, 1, found, perf, ws, wss);
  cudnnSoftmaxForward(h, (cudnnSoftmaxAlgorithm_t)(1), CUDNN_SOFTMAX_MODE_CHANNEL, p, xd, x, p, yd, y);
}
"""


def test_miopen_calls_that_differ_otherwise_are_reported_at_their_line() -> None:
    done = translated(MIOPEN_DIFFERING, "--roc", "--hip-version", "7.2")
    errors = done.stderr.decode()
    expected = {
        6: "cudnnSetPooling2dDescriptor -> miopenSet2dPoolingDescriptor: the ROC signature "
        "differs; miopenSet2dPoolingDescriptor has no NaN-propagation option: drop argument 3 "
        "(maxpoolingNanOpt)",
        7: "cudnnSetLRNDescriptor -> miopenSetLRNDescriptor: the ROC signature differs; "
        "miopenSetLRNDescriptor takes the LRN mode after the descriptor",
        8: "cudnnSetCTCLossDescriptor -> miopenSetCTCLossDescriptor: the ROC signature differs; "
        "miopenSetCTCLossDescriptor also takes blank_label_id and apply_softmax_layer: append "
        "the blank label (cuDNN's is 0)",
        9: "cudnnGetDropoutDescriptor -> miopenGetDropoutDescriptor: the ROC signature differs; "
        "miopenGetDropoutDescriptor also returns use_mask, state_evo and rng_mode",
        10: "cudnnGetConvolutionForwardWorkspaceSize -> miopenConvolutionForwardGetWorkSpaceSize: "
        "the ROC signature differs; miopenConvolutionForwardGetWorkSpaceSize takes (handle, "
        "wDesc, xDesc, convDesc, yDesc, sizeInBytes): wDesc before xDesc and no algo",
        11: "cudnnFindConvolutionForwardAlgorithmEx -> miopenFindConvolutionForwardAlgorithm: the "
        "ROC signature differs; miopenFindConvolutionForwardAlgorithm takes a bool "
        "exhaustiveSearch after workSpaceSizeInBytes",
        # a moved argument that is not plain: the call is left, and reported
        12: "cudnnSoftmaxForward -> miopenSoftmaxForward_V2: the ROC signature differs; "
        "miopenSoftmaxForward_V2 takes the algorithm and mode last",
    }
    for line, text in expected.items():
        assert f"input.cu:{line}:3: warning: {text}" in errors, (line, errors)
    assert errors.count("[HPY109]") == len(expected)
    assert (
        b"miopenSoftmaxForward_V2(h, (miopenSoftmaxAlgorithm_t)(1), MIOPEN_SOFTMAX_MODE_CHANNEL, p,"
        in (done.stdout)
    )


def test_the_beta_api_macro_is_defined_once_and_only_where_a_beta_name_is_used() -> None:
    own = b"#define MIOPEN_BETA_API\n" + MIOPEN_CALLS
    done = translated(own, "--roc")
    assert done.stdout.count(b"MIOPEN_BETA_API") == 1
    assert b"MIOPEN_BETA_API" not in translated(MIOPEN_CALLS).stdout  # hipDNN
    assert b"MIOPEN_BETA_API" not in translated(ROC_CALLS, "--roc").stdout
    stable = MIOPEN_CALLS.split(b"  cudnnBackendDescriptor_t graph;")[0] + b"}\n"
    assert b"MIOPEN_BETA_API" not in translated(stable, "--roc").stdout


@pytest.mark.parametrize("release", ["7.2", "6.4"])
def test_the_beta_prefixes_cover_every_miopen_name_declared_only_for_the_beta_api(
    release: str,
) -> None:
    import re

    from hip_smoke.toolchain import complete_root
    from hipify_py.tables.cache import load_table

    amd_compiler(release)  # fails or skips as the toolchain tests do
    root = complete_root(f"amd-{release}")
    assert root is not None
    beta: list[str] = []
    stable: list[str] = []
    depth: list[bool] = []
    for line in (root / "usr/include/miopen/miopen.h").read_text().splitlines():
        text = line.strip()
        if re.match(r"#\s*if", text):
            depth.append(text.startswith("#ifdef MIOPEN_BETA_API"))
        elif re.match(r"#\s*endif", text):
            depth.pop()
        elif re.match(r"#\s*el", text):
            depth[-1] = False
        (beta if any(depth) else stable).append(line)
    names = re.compile(r"\b(?:miopen|MIOPEN_)\w+")
    only_beta = set(names.findall("\n".join(beta))) - set(names.findall("\n".join(stable)))
    table = load_table()
    prefixes = dict(table.providers["dnn"].roc_defines)["MIOPEN_BETA_API"]
    used = {row.roc for row in table.names.values() if row.library == "dnn" and row.roc}
    assert len(used & only_beta) > 300  # the backend API
    assert not {name for name in used & only_beta if not name.startswith(prefixes)}


# ------------------------------------------------------------ rocRAND device API

RAND_KERNEL = b"""#include <curand_kernel.h>
__global__ void init(curandState* states, unsigned long long seed, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curandState_t local;
    curand_init(seed, i, 0, &local);
    out[i] = curand_uniform(&local) + curand_normal(&local);
    states[i] = local;
}
"""


@pytest.mark.parametrize("release", ["7.2", "5.7"])
def test_a_curand_kernel_becomes_rocrand_and_compiles(release: str) -> None:
    # curandState is rocRAND's rocrand_state_xorwow (hipRAND wraps it on AMD)
    compiler = amd_compiler(release)
    done = translated(RAND_KERNEL, "--roc", "--hip-version", release)
    assert done.returncode == 0 and b"HPY108" not in done.stderr
    assert b"#include <rocrand/rocrand_kernel.h>" in done.stdout
    assert b"__global__ void init(rocrand_state_xorwow* states," in done.stdout
    assert b"rocrand_state_xorwow local;\n    rocrand_init(seed, i, 0, &local);" in done.stdout
    assert b"hiprand" not in done.stdout
    with compiler.workspace() as work:
        (work / "unit.hip").write_bytes(done.stdout)
        built = compiler.run(
            ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
        )
        assert built.returncode == 0, built.stderr + built.stdout


# ------------------------------------------------------------ the casts' generator


def test_gen_roc_casts_keys_a_rewritten_calls_casts_by_cudas_argument() -> None:
    # hipcc numbers the arguments of the ROC call roc_args wrote: roc-casts.yaml
    # keys them by CUDA's, and text the template writes in gets none
    import sys

    sys.path.insert(0, str(REPO / "tools"))
    from gen_roc_casts import Failure, roc_value_casts

    def note(number: str, source: str, target: str) -> str:
        return (
            f"candidate function not viable: no known conversion from '{source} *' (aka 'x') "
            f"to '{target} *' (aka 'y') for {number} argument"
        )

    potrf = Failure(
        "cusolverDnCpotrf", "", [], [note("4th", "hipComplex", "rocblas_float_complex")]
    )
    assert roc_value_casts(potrf, 8) == {3: "rocblas_float_complex*"}
    # rocsparse_cbsrmv(..., nullptr, x, beta, y): its 14th argument is CUDA's 13th
    bsrmv = Failure(
        "cusparseCbsrmv",
        "",
        [],
        [note("14th", "const hipComplex", "const rocsparse_float_complex")],
    )
    assert roc_value_casts(bsrmv, 15) == {12: "const rocsparse_float_complex*"}
    # the same call with another number of arguments is not rewritten: hipcc's index stays
    assert roc_value_casts(bsrmv, 14) == {13: "const rocsparse_float_complex*"}
