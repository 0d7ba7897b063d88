"""A CUDA header that includes another (cublas_api.h includes cuda_fp16.h and
cuda_bf16.h) where the HIP / ROC header does not (hipblas.h includes hip_fp16.h
only with HIPBLAS_USE_HIP_HALF, rocblas.h neither): a file that names __half
with only <cublas_v2.h> gets <hip/hip_fp16.h> (includes.yaml ``brings``), and
compiles for gfx942 with and without --roc.  Skipped without the toolchains,
failed in CI (HIPIFY_PY_REQUIRE_TOOLCHAIN=1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from toolchain_support import CI_RELEASES, amd_compiler

SOURCE = """\
#include <cublas_v2.h>
__half scale_of(float s) { return __float2half(s); }
cublasStatus_t scal(cublasHandle_t h, int n, float* x) {
  float a = __half2float(scale_of(2.0f));
  return cublasSscal(h, n, &a, x, 1);
}
"""


def translated(tmp_path: Path, *options: str) -> bytes:
    (tmp_path / "axpy.cu").write_text(SOURCE)
    done = run_cli(str(tmp_path / "axpy.cu"), "-o", str(tmp_path / "out"), *options)
    assert done.returncode == 0, done.stderr.decode()
    (written,) = (tmp_path / "out").iterdir()
    return written.read_bytes()


def compiles(release: str, text: bytes) -> None:
    compiler = amd_compiler(release)
    with compiler.workspace() as work:
        (work / "unit.hip").write_bytes(text)
        done = compiler.run(
            ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
        )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.parametrize("release", CI_RELEASES)
def test_half_through_cublas_v2_gets_hip_fp16(release: str, tmp_path: Path) -> None:
    text = translated(tmp_path, "--hip-version", release)
    assert b"#include <hip/hip_fp16.h>" in text and b"hipblas/hipblas.h" in text
    compiles(release, text)


def test_half_through_cublas_v2_gets_hip_fp16_with_roc(tmp_path: Path) -> None:
    text = translated(tmp_path, "--roc", "--hip-version", "7.2")
    assert b"#include <hip/hip_fp16.h>" in text and b"rocblas/rocblas.h" in text
    compiles("7.2", text)


def test_no_half_no_header(tmp_path: Path) -> None:
    (tmp_path / "plain.cu").write_text(
        "#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasDestroy(h); }\n"
    )
    done = run_cli(str(tmp_path / "plain.cu"), "-o", str(tmp_path / "out"))
    assert done.returncode == 0
    (written,) = (tmp_path / "out").iterdir()
    assert b"hip_fp16" not in written.read_bytes()
