"""Calls whose HIP or ROC function takes other arguments than CUDA's (issue 16,
items 4 and 5), through the real CLI: the mechanical differences are rewritten
(``arg_inserts``, ``roc_args``) and the rewritten calls compile with the real
hipcc for gfx942; the others are reported at the call (HPY109) with the change;
legacy cuBLAS (``cublas.h``) calls are reported (HPY112) and not renamed."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import run_cli
from toolchain_support import amd_compiler

from hipify_py.tables.table import TableError, load_directory


def cli(source: str, *options: str) -> tuple[str, str]:
    done = run_cli(*options, "-", input=source.encode())
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode(), done.stderr.decode()


def codes(notes: str) -> list[str]:
    return re.findall(r"\[(HPY\d+)\]", notes)


def compile_hip(release: str, source: str) -> subprocess.CompletedProcess[str]:
    found = amd_compiler(release)
    with found.workspace() as work:
        (work / "unit.hip").write_text(source)
        return found.run(
            ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
        )


# ------------------------------------------------------- HIP: hipGetProcAddress

ENTRY_POINT = """#include <cuda_runtime.h>
#include <cuda.h>
void f(unsigned long long flags) {
    void* fn;
    cudaDriverEntryPointQueryResult status;
    cudaGetDriverEntryPoint("cuMemAlloc", &fn, flags, &status);
    cudaGetDriverEntryPoint("cuMemAlloc", &fn, flags);
    CUdriverProcAddressQueryResult found;
    cuGetProcAddress("cuMemAlloc", &fn, 12000, 0, &found);
    cuGetProcAddress("cuMemAlloc", &fn, 12000, 0);
}
"""


def test_driver_entry_point_gets_hips_version_and_a_null_status() -> None:
    """HIP 6.2 to 7.1: hipGetProcAddress, with the HIP version written in."""
    out, notes = cli(ENTRY_POINT, "--hip-version", "6.4")
    version = "HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR"
    assert f'hipGetProcAddress("cuMemAlloc", &fn, {version}, flags, &status);' in out
    assert f'hipGetProcAddress("cuMemAlloc", &fn, {version}, flags, nullptr);' in out
    assert "hipDriverProcAddressQueryResult status;" in out
    assert "cudaGetDriverEntryPoint -> hipGetProcAddress" not in notes
    # cuGetProcAddress passes a CUDA version: reported with the HIP one to pass
    assert 'hipGetProcAddress("cuMemAlloc", &fn, 12000, 0, &found);' in out
    assert 'hipGetProcAddress("cuMemAlloc", &fn, 12000, 0, nullptr);' in out
    (caution,) = [line for line in notes.splitlines() if "[HPY109]" in line]
    assert "cuGetProcAddress -> hipGetProcAddress" in caution and "100 * major + minor" in caution
    assert f"hint: pass {version} as the third argument" in notes


def test_driver_entry_point_has_cudas_shape_from_hip_7_2() -> None:
    """HIP 7.2 has hipGetDriverEntryPoint: CUDA's arguments, no version."""
    out, _ = cli(ENTRY_POINT, "--hip-version", "7.2")
    assert 'hipGetDriverEntryPoint("cuMemAlloc", &fn, flags, &status);' in out
    assert 'hipGetDriverEntryPoint("cuMemAlloc", &fn, flags, nullptr);' in out
    assert "hipDriverEntryPointQueryResult status;" in out and "HIP_VERSION_MAJOR" not in out


@pytest.mark.parametrize("release", ["6.4", "7.2"])
def test_driver_entry_point_compiles_from_hip_6_2(release: str) -> None:
    """hipGetProcAddress is HIP 6.2's, hipGetDriverEntryPoint 7.2's: each
    release that has one compiles the translation for it."""
    out, _ = cli(ENTRY_POINT, "--hip-version", release)
    done = compile_hip(release, out)
    assert done.returncode == 0, done.stderr[-3000:]


def test_driver_entry_point_needs_hip_6_2() -> None:
    out, notes = cli(ENTRY_POINT, "--hip-version", "5.7")
    assert 'cudaGetDriverEntryPoint("cuMemAlloc", &fn, flags, &status);' in out
    assert "HIP_VERSION_MAJOR" not in out and "HPY103" in codes(notes)


# ----------------------------------------------------------- --roc: rewritten

ROC_SPARSE = """#include <cusparse.h>
void f(cusparseHandle_t h, cusparseMatDescr_t d, int m, int n, int k, int nnz, const float* a,
       const float* v, const int* rp, const int* ci, const float* x, const float* b, float* y,
       float* c, int* crp, int* cci, void* buf) {
    cusparseScsrmv(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, a, d, v, rp, ci, x, b, y);
    cusparseScsrmm(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, k, nnz, a, d, v, rp, ci, x, k, b, c, m);
    cusparseScsrgeam2(h, m, n, a, d, nnz, v, rp, ci, b, d, nnz, v, rp, ci, d, c, crp, cci, buf);
    cusparseXcsrgeam2Nnz(h, m, n, d, nnz, rp, ci, d, nnz, rp, ci, d, crp, cci, buf);
}
"""
ROC_SPARSE_STAGES = """#include <cusparse.h>
void a(cusparseHandle_t h, cusparseMatDescr_t d, int m, int nnz, const float* v, const int* rp,
       const int* ci, csrilu02Info_t info, void* buf) {
    cusparseScsrilu02_analysis(h, m, nnz, d, v, rp, ci, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf);
}
void c(cusparseHandle_t h, cusparseMatDescr_t d, int m, int nnz, const float* a, const float* v,
       const int* rp, const int* ci, float* B, int ldb, csrsm2Info_t info, void* buf) {
    cusparseScsrsm2_analysis(h, 0, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                             m, 4, nnz, a, d, v, rp, ci, B, ldb, info,
                             CUSPARSE_SOLVE_POLICY_NO_LEVEL, buf);
}
void e(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B, size_t* size) {
    cusparseSparseToDense_bufferSize(h, A, B, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, size);
}
void g(cusparseHandle_t h, cusparseDnMatDescr_t A, cusparseSpMatDescr_t B, void* buf) {
    cusparseDenseToSparse_analysis(h, A, B, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buf);
}
"""
ROC_SOLVER = """#include <cusolverDn.h>
void f(cusolverDnHandle_t h, int n, float* A, float* work, int lwork, int* info) {
    cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
}
"""


def test_roc_sparse_arguments_are_rewritten() -> None:
    out, notes = cli(ROC_SPARSE, "--roc", "--hip-version", "7.2")
    # csrmv: rocSPARSE's info is optional (nullptr: no analysis)
    assert (
        "rocsparse_scsrmv(h, rocsparse_operation_none, m, n, nnz, a, d, v, rp, ci, nullptr, x, b, y);"
        in out
    )
    # csrmm: cuSPARSE's multiplies by B as it is
    assert "rocsparse_scsrmm(h, rocsparse_operation_none, rocsparse_operation_none, m, n, k," in out
    # csrgeam: no work buffer in rocSPARSE
    assert (
        "rocsparse_scsrgeam(h, m, n, a, d, nnz, v, rp, ci, b, d, nnz, v, rp, ci, d, c, crp, cci);"
        in out
    )
    assert "rocsparse_csrgeam_nnz(h, m, n, d, nnz, rp, ci, d, nnz, rp, ci, d, crp, cci);" in out
    assert "HPY109" not in codes(notes)


def test_roc_solver_workspace_is_dropped() -> None:
    out, notes = cli(ROC_SOLVER, "--roc", "--hip-version", "7.2")
    assert "rocsolver_spotrf(h, rocblas_fill_lower, n, A, n, info);" in out
    assert "HPY109" not in codes(notes)


@pytest.mark.parametrize("release", ["6.4", "7.2"])
@pytest.mark.parametrize(
    "source",
    [ROC_SPARSE, ROC_SPARSE_STAGES, ROC_SOLVER],
    ids=["rocsparse", "rocsparse-analysis-stages", "rocsolver"],
)
def test_roc_rewrites_compile(source: str, release: str) -> None:
    """With the ROC libraries of ROCm 6.4.3 and 7.2.4 (Debian 13's HIP 5.7.1 has none)."""
    out, _ = cli(source, "--roc", "--hip-version", release)
    done = compile_hip(release, out)
    assert done.returncode == 0, out + done.stderr[-3000:]


def test_roc_analysis_gets_the_forced_analysis_policy() -> None:
    src = (
        "#include <cusparse.h>\n"
        "void f(cusparseHandle_t h, cusparseMatDescr_t d, int m, int nnz, const float* v,\n"
        "       const int* rp, const int* ci, csrilu02Info_t info, void* buf) {\n"
        "    cusparseScsrilu02_analysis(h, m, nnz, d, v, rp, ci, info,"
        " CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf);\n}\n"
    )
    out, _ = cli(src, "--roc", "--hip-version", "7.2")
    assert (
        "rocsparse_scsrilu0_analysis(h, m, nnz, d, v, rp, ci, info,"
        " rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buf);" in out
    )


def test_roc_csrsm_loses_algo_and_buffer_size_gets_a_null_buffer() -> None:
    out, notes = cli(ROC_SPARSE_STAGES, "--roc", "--hip-version", "7.2")
    assert (
        "rocsparse_scsrsm_analysis(h, rocsparse_operation_none, rocsparse_operation_none,\n"
        "                             m, 4, nnz, a, d, v, rp, ci, B, ldb, info,\n"
        "                             rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buf);"
        in out
    )
    assert (
        "rocsparse_sparse_to_dense(h, A, B, rocsparse_sparse_to_dense_alg_default, size, nullptr);"
        in out
    )
    assert (
        "rocsparse_dense_to_sparse(h, A, B, rocsparse_dense_to_sparse_alg_default, nullptr, buf);"
        in out
    )
    assert "HPY109" not in codes(notes)


def test_roc_gemm_ex_writes_c_in_place() -> None:
    src = (
        "#include <cublas_v2.h>\n"
        "void f(cublasHandle_t h, int n, const float* al, const void* A, const void* B,"
        " const float* be, void* C) {\n"
        "    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, al, A, CUDA_R_32F, n, B,"
        " CUDA_R_32F, n, be, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n}\n"
    )
    out, notes = cli(src, "--roc", "--hip-version", "7.2")
    # D is C (its type translated as the original's), then solution index and flags
    assert "be, C, rocblas_datatype_f32_r, n, C, rocblas_datatype_f32_r, n, " in out
    assert ", rocblas_gemm_algo_standard, 0, 0);" in out
    assert "cublasGemmEx -> rocblas_gemm_ex" not in notes


# ------------------------------------------------------------ --roc: reported


def test_roc_staged_call_is_reported_with_the_change() -> None:
    src = (
        "#include <cusparse.h>\n"
        "void f(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnVecDescr_t X,\n"
        "       cusparseDnVecDescr_t Y, const float* a, const float* b, void* buf) {\n"
        "    cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, a, A, X, b, Y, CUDA_R_32F,"
        " CUSPARSE_SPMV_ALG_DEFAULT, buf);\n}\n"
    )
    out, notes = cli(src, "--roc", "--hip-version", "7.2")
    assert "rocsparse_spmv(h, rocsparse_operation_none, a, A, X, b, Y," in out
    (caution,) = [line for line in notes.splitlines() if "[HPY109]" in line]
    assert "cusparseSpMV -> rocsparse_spmv: the ROC signature differs" in caution
    assert "rocsparse_spmv_stage_compute, &bufferSize, externalBuffer" in caution


def test_roc_rewrite_refused_when_a_dropped_argument_has_effects() -> None:
    src = ROC_SOLVER.replace("work, lwork, info", "next(work), lwork, info")
    out, notes = cli(src, "--roc", "--hip-version", "7.2")
    assert "rocsolver_spotrf(h, rocblas_fill_lower, n, A, n, next(work), lwork, info);" in out
    assert "drop the Workspace and Lwork arguments" in notes and "HPY109" in codes(notes)


def test_hip_translation_keeps_cudas_arguments() -> None:
    out, _ = cli(ROC_SPARSE, "--hip-version", "7.2")
    assert (
        "hipsparseScsrmv(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, a, d, v, rp, ci, x, b, y);"
        in out
    )
    assert (
        "hipsparseScsrgeam2(h, m, n, a, d, nnz, v, rp, ci, b, d, nnz, v, rp, ci, d, c, crp, cci, buf);"
        in out
    )


# ---------------------------------------------------------------- legacy cuBLAS

LEGACY = """#include <cublas.h>
void f(int n, float* x, float* y, float* A, float a) {
    cublasInit();
    cublasSscal(n, 2.0f, x, 1);
    cublasSaxpy(n, a, x, 1, y, 1);
    float r = cublasSnrm2(n, x, 1);
    cublasSgemm('N', 't', n, n, n, 1.0f, A, n, A, n, 0.0f, A, n);
    cublasSetVector(n, sizeof(float), x, 1, y, 1);
    cublasShutdown();
}
"""


def test_legacy_cublas_calls_are_reported_not_renamed() -> None:
    out, notes = cli(LEGACY, "--hip-version", "7.2")
    for call in (
        "cublasInit();",
        "cublasSscal(n, 2.0f, x, 1);",
        "cublasSaxpy(n, a, x, 1, y, 1);",
        "float r = cublasSnrm2(n, x, 1);",
        "cublasShutdown();",
    ):
        assert call in out
    assert "hipblasSscal" not in out and "hipblasSgemm" not in out
    # the API both share keeps being translated
    assert "hipblasSetVector(n, sizeof(float), x, 1, y, 1);" in out
    assert codes(notes).count("HPY112") == 6
    hints = [
        line.split("translate again: ", 1)[1]
        for line in notes.splitlines()
        if "translate again" in line
    ]
    assert "cublasCreate(&handle);" in hints
    assert "float alpha = 2.0f; cublasSscal(handle, n, &alpha, x, 1);" in hints
    assert "cublasSaxpy(handle, n, &a, x, 1, y, 1);" in hints
    # the value the legacy call returned goes to the same variable
    assert "float r; cublasSnrm2(handle, n, x, 1, &r);" in hints
    assert (
        "float alpha = 1.0f; float beta = 0.0f; cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T,"
        " n, n, n, &alpha, A, n, A, n, &beta, A, n);" in hints
    )
    assert "cublasDestroy(handle);" in hints


def test_v2_calls_are_renamed() -> None:
    src = (
        "#include <cublas_v2.h>\n"
        "void f(cublasHandle_t h, int n, float* x) { float a = 2; cublasSscal(h, n, &a, x, 1);"
        " auto p = &cublasSaxpy; }\n"
    )
    out, notes = cli(src, "--hip-version", "7.2")
    assert "hipblasSscal(h, n, &a, x, 1);" in out and "&hipblasSaxpy;" in out
    assert "HPY112" not in codes(notes)


def test_legacy_use_that_is_no_call_is_decided_by_the_include() -> None:
    out, notes = cli("#include <cublas.h>\nauto p = &cublasSaxpy;\n", "--hip-version", "7.2")
    assert "&cublasSaxpy;" in out and codes(notes) == ["HPY112"]
    assert "cublasSaxpy(handle, n, &alpha, x, incx, y, incy);" in notes


def test_legacy_call_in_a_macro_body() -> None:
    out, notes = cli("#define SCAL(n, x) cublasSscal(n, 3.0f, x, 1)\n", "--hip-version", "7.2")
    assert "cublasSscal(n, 3.0f, x, 1)" in out
    assert "float alpha = 3.0f; cublasSscal(handle, n, &alpha, x, 1);" in notes


# ------------------------------------------------------------------ the schema


def test_roc_args_must_keep_the_order(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "x.yaml").write_text(
        "schema: 1\nlibrary: sparse\ntitle: t\nsource: s\nsections:\n  S:\n"
        "    cusparseF: {hip: hipsparseF, roc: rocsparse_f, kind: function,"
        ' roc_args: {2: "{1}, {0}"}}\n'
    )
    with pytest.raises(TableError, match="must keep their order"):
        load_directory(folder)


# ------------------------------------------------- HIP: older releases' arity

OLDER = """#include <cublas_v2.h>
#include <cusparse.h>
void f(cublasHandle_t h, int m, int n, const float* a, const float* A, const float* B, float* C,
       cusparseHandle_t s, cusparseSpMatDescr_t M, cusparseDnVecDescr_t x,
       cusparseDnVecDescr_t y, cusparseSpSVDescr_t d) {
    cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                m, n, a, A, m, B, m, C, m);
    cusparseSpSV_solve(s, CUSPARSE_OPERATION_NON_TRANSPOSE, a, M, x, y, CUDA_R_32F,
                       CUSPARSE_SPSV_ALG_DEFAULT, d);
}
"""


def test_hip_5_arity_differences_are_reported_with_the_change() -> None:
    """hipBLAS 1.x's trmm works in place (12 arguments), hipSPARSE 5.7's
    SpSV_solve takes the analysis buffer (10): said at the call, up to HIP 6.0."""
    _, notes = cli(OLDER, "--hip-version", "5.7")
    cautions = [line for line in notes.splitlines() if "[HPY109]" in line]
    assert any(
        "cublasStrmm -> hipblasStrmm" in c and "overwrites B and has no C, ldc" in c
        for c in cautions
    )
    assert any(
        "cusparseSpSV_solve -> hipsparseSpSV_solve" in c and "tenth argument" in c for c in cautions
    )
    assert "hint: drop the last two arguments where C, ldc are B, ldb" in notes
    _, notes = cli(OLDER, "--hip-version", "6.4")
    assert "HPY109" not in codes(notes)


def test_legacy_table_is_what_the_cuda_headers_give() -> None:
    """mappings/blas-legacy.curated.yaml is tools/gen_legacy_cublas.py's output
    for CUDA 12.4's cublas.h (skipped without the root, failed in CI)."""
    import importlib.util
    import os
    import sys
    from pathlib import Path

    from hip_smoke.toolchain import complete_root

    root = complete_root("nvidia")
    if root is None or importlib.util.find_spec("clang") is None:
        message = "no CUDA 12.4 root (hip_smoke/toolchain/provision.sh nvidia) or no libclang"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)
    tool = Path(__file__).resolve().parent.parent / "tools" / "gen_legacy_cublas.py"
    done = subprocess.run(
        [sys.executable, str(tool), "--cuda-root", str(root), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# ------------------------------------- HIP: the solve's buffer from its analysis

SOLVES = """#include <cusparse.h>
void solve(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B, cusparseDnMatDescr_t C,
           cusparseSpSMDescr_t descr, const float* alpha, void* buffer) {
    cusparseSpSM_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                          A, B, C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, descr, buffer);
    cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                       A, B, C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, descr);
}
void sv(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
        cusparseSpSVDescr_t descr, const float* alpha, void* work) {
    cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, CUDA_R_32F,
                          CUSPARSE_SPSV_ALG_DEFAULT, descr, work);
    cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, CUDA_R_32F,
                       CUSPARSE_SPSV_ALG_DEFAULT, descr);
}
"""


@pytest.mark.parametrize("release", ["5.7", "7.2"])
def test_solve_gets_the_buffer_of_its_analysis(release: str) -> None:
    """hipsparseSpSM_solve (and, before HIP 6.0, hipsparseSpSV_solve) takes the
    buffer CUDA 12's solve uses implicitly: the one its analysis call with the
    same descriptor got.  Written in, and compiled with that release's hipcc."""
    out, notes = cli(SOLVES, "--hip-version", release)
    assert "CUSPARSE_SPSM_ALG_DEFAULT" not in out
    assert "HIPSPARSE_SPSM_ALG_DEFAULT, descr, buffer);" in out
    assert out.count("descr, buffer);") == 2  # the analysis and the solve
    spsv = (
        "HIPSPARSE_SPSV_ALG_DEFAULT, descr, work);"
        if release == "5.7"
        else "HIPSPARSE_SPSV_ALG_DEFAULT, descr);"
    )
    assert out.count(spsv) == (2 if release == "5.7" else 1)
    assert "_solve -> " not in notes
    done = compile_hip(release, out)
    assert done.returncode == 0, out + done.stderr[-3000:]


def test_solve_without_a_matching_analysis_is_reported() -> None:
    src = SOLVES.replace(
        "descr, buffer);\n    cusparseSpSM_solve", "other, buffer);\n    cusparseSpSM_solve"
    )
    out, notes = cli(src, "--hip-version", "7.2")
    assert "HIPSPARSE_SPSM_ALG_DEFAULT, descr);" in out
    assert "cusparseSpSM_solve -> hipsparseSpSM_solve" in notes and "eleventh argument" in notes
    # nor when the buffer changes in between
    src = SOLVES.replace(
        "descr, buffer);\n    cusparseSpSM_solve",
        "descr, buffer);\n    buffer = 0;\n    cusparseSpSM_solve",
    )
    out, notes = cli(src, "--hip-version", "7.2")
    assert "HIPSPARSE_SPSM_ALG_DEFAULT, descr);" in out and "eleventh argument" in notes


def test_roc_drops_runs_of_arguments_at_the_end(tmp_path: object) -> None:
    """Two dropped arguments in a row at the end: one deletion, no conflict."""
    from pathlib import Path

    folder = Path(str(tmp_path))
    mappings = Path(__file__).resolve().parent.parent / "mappings"
    for source in mappings.glob("*.yaml"):
        (folder / source.name).write_text(source.read_text())
    (folder / "zz-test.curated.yaml").write_text(
        "schema: 1\nlibrary: sparse\ntitle: t\nsource: s\nsections:\n  S:\n"
        "    cusparseTestOnly: {hip: hipsparseTestOnly, roc: rocsparse_test_only, kind: function,"
        ' roc_args: {5: "{0}, nullptr, {1}, {2}"}}\n'
    )
    src = "#include <cusparse.h>\nvoid f(cusparseHandle_t h) { cusparseTestOnly(h, a, b,\n  c, d); }\n"
    done = run_cli("--roc", "-", input=src.encode(), env={"HIPIFY_PY_MAPPINGS": str(folder)})
    out, notes = done.stdout.decode(), done.stderr.decode()
    assert "rocsparse_test_only(h, nullptr, a, b); }" in out, out + notes
    assert "HPY004" not in notes


def test_legacy_result_without_a_variable() -> None:
    src = "#include <cublas.h>\nfloat f(int n, float* x) { return 1 + cublasSasum(n, x, 1); }\n"
    _, notes = cli(src, "--hip-version", "7.2")
    assert (
        "float result; cublasSasum(handle, n, x, 1, &result); (result: the value the legacy call"
        " returned)" in notes
    )
    _, notes = cli(src.replace("return 1 + ", "int i; i = ").replace("cublasSasum", "cublasIsamax"))
    assert "cublasIsamax(handle, n, x, 1, &i);" in notes


# ------------------------------------------- the tables against the ROC headers


def test_roc_argument_lists_match_the_rocm_7_2_declarations() -> None:
    """Every ``roc_args`` list has as many arguments as the ROC function that
    ROCm 7.2.4's headers declare (libclang; skipped without the root and the
    wheel, failed in CI)."""
    import importlib.util
    import os
    import sys
    from pathlib import Path

    from hip_smoke.toolchain import complete_root
    from hipify_py.tables.cache import load_table
    from hipify_py.tables.table import split_template

    root = complete_root("amd-7.2")
    if root is None or importlib.util.find_spec("clang") is None:
        message = "no ROCm 7.2 root (hip_smoke/toolchain/provision.sh amd-7.2) or no libclang"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import signature_check

    headers = [
        "hip/hip_runtime.h",
        "rocblas/rocblas.h",
        "rocsparse/rocsparse.h",
        "rocsolver/rocsolver.h",
        "miopen/miopen.h",
    ]
    found = signature_check.cuda_signatures(
        headers,
        signature_check.root_includes(root),
        signature_check._resource_dir(root),
        defines=("__HIP_PLATFORM_AMD__", "MIOPEN_BETA_API"),
    )
    rows = [row for row in load_table().names.values() if row.roc_args]
    assert len(rows) > 50
    wrong = {
        row.cuda: (row.roc, len(split_template(template)), len(found.get(row.roc or "", [])))
        for row in rows
        for _, template in row.roc_args
        if len(split_template(template)) != len(found.get(row.roc or "", []))
    }
    assert wrong == {}


def test_roc_copy_with_a_cast() -> None:
    """rocsparse_spvv takes the result non-const: the argument is written
    again inside a cast (``{=4}``) and the original dropped."""
    src = (
        "#include <cusparse.h>\n"
        "void f(cusparseHandle_t h, cusparseSpVecDescr_t x, cusparseDnVecDescr_t y, const void* r,"
        " size_t* n) {\n"
        "    cusparseSpVV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, x, y, r, CUDA_R_32F, n);\n}\n"
    )
    out, notes = cli(src, "--roc", "--hip-version", "7.2")
    assert "rocsparse_spvv(h, rocsparse_operation_none, x, y, (void*)(r), " in out
    assert "_f32_r, n, nullptr);" in out  # the data type is the --roc type choice's
    assert "HPY109" not in codes(notes)
