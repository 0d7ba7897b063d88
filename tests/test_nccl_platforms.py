"""NCCL code translated once builds on both HIP platforms: for AMD the include
is RCCL's (same nccl* names), on HIP's NVIDIA platform, where RCCL does not
exist, <nccl.h> stays (LightGBM's cuda_utils.hu).  Compiled with each release CI provisions for gfx942 and as HIP
on NVIDIA (nvcc 12.4, NCCL's headers from the pinned wheel).  Skipped without
the toolchains, failed in CI (HIPIFY_PY_REQUIRE_TOOLCHAIN=1)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.cuda_wheels import include_dir
from hip_smoke.toolchain import Compiler, ToolchainError, find_nvidia

SOURCE = """\
#include <cuda_runtime.h>
#include <nccl.h>
ncclResult_t sum(float* b, size_t n, ncclComm_t comm, cudaStream_t s) {
  ncclGroupStart();
  ncclResult_t r = ncclAllReduce(b, b, n, ncclFloat, ncclSum, comm, s);
  ncclGroupEnd();
  return r;
}
"""


def _required(exc: Exception) -> None:
    if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
        pytest.fail(str(exc))
    pytest.skip(str(exc))


def translated(tmp_path: Path) -> bytes:
    (tmp_path / "allreduce.cu").write_text(SOURCE)
    done = run_cli(str(tmp_path / "allreduce.cu"), "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr.decode()
    (written,) = (tmp_path / "out").iterdir()
    return written.read_bytes()


def build(compiler: Compiler, text: bytes, args: list[str], nccl: Path | None = None) -> None:
    with compiler.workspace() as work:
        (work / "unit.hip").write_bytes(text)
        if nccl is not None:
            shutil.copytree(nccl, work / "nccl-include")
            args = [*args, "-Inccl-include"]
        done = compiler.run([*args, "unit.hip", "-o", "unit.o"], cwd=work)
    assert done.returncode == 0, done.stderr[-4000:]


@pytest.mark.parametrize("release", CI_RELEASES)
def test_the_translation_compiles_with_rccl_for_gfx942(release: str, tmp_path: Path) -> None:
    text = translated(tmp_path)
    assert b"#include <rccl/rccl.h>" in text
    build(amd_compiler(release), text, ["--offload-arch=gfx942", "-x", "hip", "-c"])


def test_the_translation_compiles_with_nccl_as_hip_on_nvidia(tmp_path: Path) -> None:
    text = translated(tmp_path)
    try:
        compiler, nccl = find_nvidia(), include_dir("nccl")
    except ToolchainError as exc:
        _required(exc)
        return
    build(compiler, text, ["-x", "cu", "-c"], nccl)
