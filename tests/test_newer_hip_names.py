"""The tables must not call a name unsupported that the ROCm headers CI
provisions declare under its HIP spelling (HIPIFY's tables are of the HIP 6.3
era; ROCm 6.4 and 7.2 added hipEventWaitDefault, hipStreamGetAttribute, the
launch attributes, ...): tools/find_newer_hip_names.py over real headers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from hip_smoke.toolchain import RELEASES, complete_root

# every library but the driver API, whose HIP spellings often name another
# API (cuMemcpy(CUdeviceptr, ...) is not hipMemcpy(void*, ..., kind))
LIBRARIES = "runtime,device,complex,rtc,blas,rand,fft,sparse,solver,dnn,cub,thrust"


def test_no_unsupported_row_has_a_hip_name_the_headers_declare() -> None:
    missing = [r for r in RELEASES if complete_root(f"amd-{r}") is None]
    if missing:
        reason = f"no ROCm root for {', '.join(missing)}: run hip_smoke/toolchain/provision.sh"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "find_newer_hip_names.py"),
            "--check",
            "--library",
            LIBRARIES,
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# 0 unsupported rows" in done.stdout
    # the driver's enumerators HIP names like their runtime twins
    twins = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "find_newer_hip_names.py"),
            "--check",
            "--driver-twins",
        ],
        capture_output=True,
        text=True,
    )
    assert twins.returncode == 0, twins.stdout + twins.stderr


def test_the_tool_finds_a_row_the_curated_file_fixes_when_that_file_is_left_out(
    tmp_path: Path,
) -> None:
    """The check can fail: without runtime-newer-rocm.curated.yaml,
    cudaEventWaitDefault (hipEventWaitDefault since ROCm 6.4) is found."""
    if complete_root("amd-7.2") is None:
        pytest.skip("no ROCm 7.2 root")
    mappings = tmp_path / "mappings"
    shutil.copytree(REPO / "mappings", mappings)
    (mappings / "runtime-newer-rocm.curated.yaml").unlink()
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "find_newer_hip_names.py"),
            "--check",
            "--library",
            "runtime",
            "--releases",
            "7.2",
            "--mappings",
            str(mappings),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cudaEventWaitDefault: {hip: hipEventWaitDefault" in done.stdout
