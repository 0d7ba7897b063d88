"""Every CUDA function the tables translate, called with CUDA's own argument
types, either compiles for gfx942 with the real hipcc of ROCm 7.2.4 and of
5.7.1 after translation for that release's HIP, or is reported by hipify-py:
no silent misses at the level of signatures (tools/signature_check.py; CUDA
12.4 headers and libclang as in CI)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.toolchain import complete_root

REPO = Path(__file__).resolve().parent.parent


def _require(what: str) -> None:
    if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
        pytest.fail(f"{what} (CI provisions it: .ci/run)")
    pytest.skip(what)


@pytest.mark.parametrize("release", CI_RELEASES)
def test_translated_calls_compile_or_are_reported(release: str) -> None:
    compiler = amd_compiler(release)
    cuda_root = complete_root("nvidia")
    if cuda_root is None:
        _require("no CUDA 12.4 root (hip_smoke/toolchain/provision.sh nvidia)")
    if importlib.util.find_spec("clang") is None:
        _require("the libclang wheel is not installed")
    sys.path.insert(0, str(REPO / "tools"))
    import signature_check

    assert cuda_root is not None
    report = signature_check.run(
        list(signature_check.HEADERS), signature_check.root_includes(cuda_root), release=release
    )
    assert report["hip_version"] == compiler.hip_version == release
    libraries = report["libraries"]
    # the tool really called something in every library
    assert libraries["runtime"]["calls"] > 200 and libraries["blas"]["calls"] > 300
    assert all(result["calls"] > 10 for result in libraries.values())
    silent = {
        name: [f"{f['function']}: {f['error']}" for f in result["silent"]]
        for name, result in libraries.items()
        if result["silent"]
    }
    assert silent == {}


# rocBLAS / rocSPARSE / rocSOLVER headers: ROCm 6.4.3 and 7.2.4 (Debian 13's
# 5.7.1 packages rocRAND only)
ROC_LIBRARIES = {"7.2": ["blas", "sparse", "solver", "rand"], "5.7": ["rand"]}


@pytest.mark.parametrize("release", CI_RELEASES)
def test_roc_translated_calls_compile_or_are_reported(release: str) -> None:
    """With --roc: every call of cuBLAS, cuSPARSE, cuSOLVER and cuRAND, with CUDA's
    argument types, compiles against the ROC library or is reported on its line
    (HPY108, HPY109, HPY103): mappings/roc-casts.yaml is complete."""
    compiler = amd_compiler(release)
    cuda_root = complete_root("nvidia")
    if cuda_root is None:
        _require("no CUDA 12.4 root (hip_smoke/toolchain/provision.sh nvidia)")
    if importlib.util.find_spec("clang") is None:
        _require("the libclang wheel is not installed")
    sys.path.insert(0, str(REPO / "tools"))
    import signature_check

    assert cuda_root is not None
    report = signature_check.run(
        ROC_LIBRARIES[compiler.hip_version],
        signature_check.root_includes(cuda_root),
        release=release,
        roc=True,
    )
    libraries = report["libraries"]
    assert all(result["calls"] > 20 for result in libraries.values())
    silent = {
        name: [f"{f['function']}: {f['error']}" for f in result["silent"]]
        for name, result in libraries.items()
        if result["silent"]
    }
    assert silent == {}
