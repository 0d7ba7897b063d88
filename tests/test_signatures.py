"""Every CUDA function the tables translate, called with CUDA 12.4's own
argument types, either compiles for gfx942 with the real hipcc of ROCm 7.2.4
and of 5.7.1 after translation for that release's HIP, or is reported by
hipify-py: no silent misses at the level of signatures
(tools/signature_check.py), with HIP names and with --roc, in every library:
the runtime, driver, cuBLAS, cuBLASLt, cuFFT, cuRAND, cuSPARSE, cuSOLVER,
NVRTC, cuDNN, NCCL and NVML.  cuDNN's and NCCL's headers come from the pinned
NVIDIA wheels (hip_smoke/cuda_wheels.py, fetched here once).  The only calls
tolerated to fail silently are those listed in tests/data/signature_silent.yaml.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.toolchain import complete_root

REPO = Path(__file__).resolve().parent.parent
KNOWN = REPO / "tests" / "data" / "signature_silent.yaml"
REQUIRED = os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1"


def _require(what: str) -> None:
    if REQUIRED:
        pytest.fail(f"{what} (CI provisions it: .ci/run)")
    pytest.skip(what)


def _tool() -> Any:
    sys.path.insert(0, str(REPO / "tools"))
    import signature_check

    return signature_check


def _provisioned(release: str) -> set[str]:
    """The packages hip_smoke/toolchain/provision.sh installs in that root."""
    done = subprocess.run(
        [
            "bash",
            str(REPO / "hip_smoke" / "toolchain" / "provision.sh"),
            "packages",
            f"amd-{release}",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(done.stdout.split())


@pytest.mark.parametrize("mode", ["hip", "roc"])
@pytest.mark.parametrize("release", CI_RELEASES)
def test_translated_calls_compile_or_are_reported(release: str, mode: str) -> None:
    compiler = amd_compiler(release)
    cuda_root = complete_root("nvidia")
    if cuda_root is None:
        _require("no CUDA 12.4 root (hip_smoke/toolchain/provision.sh nvidia)")
    if importlib.util.find_spec("clang") is None:
        _require("the libclang wheel is not installed")
    tool = _tool()
    assert cuda_root is not None
    report = tool.run(
        list(tool.LIBRARIES), tool.root_includes(cuda_root), release=release, roc=mode == "roc"
    )
    assert report["hip_version"] == compiler.hip_version == release
    assert report["mode"] == mode
    libraries: dict[str, dict[str, Any]] = report["libraries"]
    assert set(libraries) == set(tool.LIBRARIES)  # --roc: those without a ROC library too

    # a library is skipped only where this root was not meant to have it
    missing = tool.unprovisioned(libraries, _provisioned(release))
    if missing:
        message = f"ROCm {release} {mode}: " + "; ".join(missing)
        if REQUIRED:
            pytest.fail(message + ": CI provisions it (.ci/run, hip_smoke/toolchain)")
        warnings.warn(message, stacklevel=1)

    checked = {key: r for key, r in libraries.items() if not r["skipped"]}
    # the tool really called something in each library it checked, in every shape
    for key, result in checked.items():
        assert result["compile"] + result["reported"] + len(result["silent"]) == result["calls"]
        assert sum(result["shapes"].values()) == result["calls"]
        assert result["shapes"]["plain"] == result["functions"]
        assert 0 <= result["rewritten"] <= result["compile"]
        if key != "nvml":  # NVML -> AMD SMI: the rows may not be there yet
            assert result["calls"] > 5, (key, result)
    assert checked["runtime"]["functions"] > 200 and checked["runtime"]["rewritten"] > 0
    # pointers as addresses of locals, arrays, const and non-const: the
    # shapes real code writes, each one more call per function that takes one
    for shape in ("address", "array", "const-address", "mutable"):
        assert checked["runtime"]["shapes"][shape] > 20, shape
    assert "nccl" in checked and checked["nccl"]["functions"] > 40
    if mode == "hip":
        assert checked["blas"]["functions"] > 300
        assert checked["blas"]["rewritten"] > 0  # the hipBLAS casts show up as rewrites
    else:
        assert "rand" in checked and checked["rand"]["functions"] > 15
        if release == "7.2":
            assert {"blas", "sparse", "solver", "dnn"} <= set(checked)

    known = (yaml.safe_load(KNOWN.read_text()) or {}).get(release, {}).get(mode) or {}
    silent = {
        key: sorted(
            f"{tool.label(f)}: {f['error']}"
            for f in result["silent"]
            if tool.label(f) not in set(known.get(key, []))
        )
        for key, result in checked.items()
    }
    assert {key: calls for key, calls in silent.items() if calls} == {}
    fixed = {
        key: sorted(set(names) - {tool.label(f) for f in checked[key]["silent"]})
        for key, names in known.items()
        if key in checked
    }
    fixed = {key: names for key, names in fixed.items() if names}
    if fixed:
        warnings.warn(
            f"no longer silent with ROCm {release} {mode}, remove from {KNOWN.name}: {fixed}",
            stacklevel=1,
        )


def test_cuda_wheels_are_pinned_with_their_hashes() -> None:
    """The wheels the check takes cuDNN's and NCCL's headers from are pinned to
    one version with a sha256 that pip checks (--require-hashes)."""
    from hip_smoke.cuda_wheels import pins

    found = pins()
    assert set(found) >= {"cudnn", "nccl"}
    for line, package, version in found.values():
        assert "==" in line and "--hash=sha256:" in line
        assert package.startswith("nvidia-") and version[0].isdigit()


def test_markdown_table_counts_per_release() -> None:
    """--table's Markdown: one row per library and mode, skipped libraries say
    why, the last row adds up the silent failures."""
    tool = _tool()
    silent = {"function": "cublasCaxpy_v2", "error": "x", "suggested_casts": {}}
    shaped = dict(silent, function="cublasCdotu_v2", shape="address")
    # a library --roc leaves on HIP names: one row where both modes agree
    same = {"calls": 5, "compile": 5, "rewritten": 0, "reported": 0, "silent": [], "skipped": ""}
    reports = {
        "7.2": {
            "hip": {
                "libraries": {
                    "blas": {
                        "functions": 4,
                        "calls": 10,
                        "compile": 8,
                        "rewritten": 2,
                        "reported": 2,
                        "silent": [],
                        "skipped": "",
                    },
                    "dnn": {"skipped": "no hipdnn.h"},
                    "fft": dict(same),
                    "nccl": dict(same),
                }
            },
            "roc": {
                "libraries": {
                    "fft": dict(same),
                    "nccl": dict(same, compile=4, reported=1),
                    "blas": {
                        "calls": 11,
                        "compile": 9,
                        "rewritten": 0,
                        "reported": 1,
                        "silent": [silent, shaped],
                        "skipped": "",
                    },
                }
            },
        },
        "5.7": {
            "hip": {
                "libraries": {
                    "blas": {
                        "functions": 4,
                        "calls": 10,
                        "compile": 3,
                        "rewritten": 1,
                        "reported": 7,
                        "silent": [],
                        "skipped": "",
                    },
                    "dnn": {"skipped": "no hipdnn.h"},
                }
            },
            "roc": {"libraries": {"blas": {"skipped": "no rocblas/rocblas.h"}}},
        },
    }
    table = tool.markdown_table(reports).splitlines()
    assert table[0] == "| CUDA library | translated to | functions | calls | 7.2.4 | 5.7.1 |"
    assert "| cuBLAS | hipBLAS | 4 | 10 | 8 / 2 / 2 | 3 / 1 / 7 |" in table
    assert "| cuDNN | hipDNN | - | - | skipped: no hipdnn.h | skipped: no hipdnn.h |" in table
    assert (
        "| cuBLAS | rocBLAS (`--roc`) | 11 | 11 | 9 / 0 / 1 / **2 silent** "
        "| skipped: no rocblas/rocblas.h |" in table
    )
    assert "| cuFFT | hipFFT (also `--roc`) | 5 | 5 | 5 / 0 / 0 |  |" in table
    assert "| NCCL | RCCL | 5 | 5 | 5 / 0 / 0 |  |" in table
    assert "| NCCL | RCCL (`--roc`) | 5 | 5 | 4 / 0 / 1 |  |" in table
    assert not any("cuFFT | hipFFT (`--roc`)" in line for line in table)
    assert table[-1] == "| **failing silently** | | | | **2** | **0** |"
    known = yaml.safe_load(tool.known_yaml(reports))
    assert known == {
        "7.2": {"hip": {}, "roc": {"blas": ["cublasCaxpy_v2", "cublasCdotu_v2 [address]"]}},
        "5.7": {"hip": {}, "roc": {}},
    }


def test_a_library_is_skipped_only_where_provisioning_leaves_it_out() -> None:
    tool = _tool()
    libraries = {
        "blas": {"skipped": ""},
        "dnn": {"skipped": "no hipdnn.h", "absent": "hipdnn.h"},  # packaged nowhere
        "nccl": {"skipped": "no rccl/rccl.h", "absent": "rccl/rccl.h"},
        "blaslt": {"skipped": "no hipblaslt/hipblaslt.h", "absent": "hipblaslt/hipblaslt.h"},
        "nvml": {"skipped": "no CUDA header nvml.h"},  # the CUDA side is always required
    }
    assert tool.unprovisioned(libraries, {"libhipblas-dev", "librccl-dev"}) == [
        "nccl: no rccl/rccl.h (librccl-dev)",
        "nvml: no CUDA header nvml.h",
    ]
    assert tool.unprovisioned(libraries, set()) == ["nvml: no CUDA header nvml.h"]


def test_cuda_wheel_headers_are_reused_and_never_fetched_when_told_not_to(tmp_path: Path) -> None:
    from hip_smoke.cuda_wheels import MARKER, include_dir, pins
    from hip_smoke.toolchain import ToolchainError

    with pytest.raises(ToolchainError, match="not fetched"):
        include_dir("nccl", cache=tmp_path, fetch=False)
    with pytest.raises(ToolchainError, match="no pinned wheel"):
        include_dir("cufft", cache=tmp_path)
    line, package, version = pins()["nccl"]
    folder = tmp_path / "cuda-wheels" / f"{package}-{version}"
    (folder / "include").mkdir(parents=True)
    (folder / MARKER).write_text(line + "\n")
    assert include_dir("nccl", cache=tmp_path, fetch=False) == folder / "include"


def test_pointer_arguments_are_written_in_every_shape() -> None:
    """Besides plain variables of the parameter types, each pointer to a
    complete type is passed as the address of a local of the pointee type, as
    an array of it, as the address of a const local (const pointees) and as a
    pointer without the pointee's const; a shape that would write every
    argument as plain is no call."""
    tool = _tool()
    params = [
        tool.Param("cublasHandle_t"),
        tool.Param("const cuComplex *", "cuComplex", const=True),
        tool.Param("cuComplex *", "cuComplex"),
        tool.Param("double *const *", "double *", const=True),
        tool.Param("const void *"),  # void: no local of it
    ]
    assert tool.shaped_arguments(params, "plain") == (
        "cublasHandle_t a0; const cuComplex * a1; cuComplex * a2; double *const * a3; "
        "const void * a4;",
        "a0, a1, a2, a3, a4",
    )
    assert tool.shaped_arguments(params, "address") == (
        "cublasHandle_t a0; cuComplex a1{}; cuComplex a2{}; double * a3{}; const void * a4;",
        "a0, &a1, &a2, &a3, a4",
    )
    assert tool.shaped_arguments(params, "array") == (
        "cublasHandle_t a0; cuComplex a1[4]{}; cuComplex a2[4]{}; double * a3[4]{}; "
        "const void * a4;",
        "a0, a1, a2, a3, a4",
    )
    assert tool.shaped_arguments(params, "const-address") == (
        "cublasHandle_t a0; cuComplex const a1{}; cuComplex * a2; double * const a3{}; "
        "const void * a4;",
        "a0, &a1, a2, &a3, a4",
    )
    assert tool.shaped_arguments(params, "mutable") == (
        "cublasHandle_t a0; cuComplex* a1{}; cuComplex * a2; double ** a3{}; const void * a4;",
        "a0, a1, a2, a3, a4",
    )
    plain_only = [tool.Param("int"), tool.Param("const void *")]
    assert tool.shaped_arguments(plain_only, "address") is None
    made = tool.shaped_calls({"f": params, "g": plain_only}, ["f", "g"])
    assert [(name, shape) for name, shape, *_ in made] == [
        ("f", "plain"),
        ("g", "plain"),
        ("f", "address"),
        ("f", "array"),
        ("f", "const-address"),
        ("f", "mutable"),
    ]
    assert tool.label({"function": "f", "shape": "array"}) == "f [array]"
    assert tool.label({"function": "f"}) == "f"


def test_a_caution_said_once_explains_the_functions_other_calls() -> None:
    """HPY109 is reported at a function's first call only: its calls in the
    other shapes count as reported, and say so."""
    tool = _tool()
    source = (
        "#include <x.h>\n"
        "void call0() { int a0; (void)f(a0); } // call:0\n"
        "void call1() { int a0{}; (void)f(&a0); } // call:1\n"
    )
    output = source
    compiler = (
        "calls.hip:2:1: error: no matching function for call to 'f'\n"
        "calls.hip:3:1: error: no matching function for call to 'f'\n"
    )
    calls, absent = tool.assess(
        ["f", "f"], ["a0", "&a0"], source, output, {2: ["HPY109"]}, compiler, ["plain", "address"]
    )
    assert absent == ""
    assert [c.shape for c in calls] == ["plain", "address"]
    assert [c.compiles for c in calls] == [False, False]
    assert calls[0].reported == ["HPY109"] and not calls[0].reported_elsewhere
    assert calls[1].reported == ["HPY109"] and calls[1].reported_elsewhere
