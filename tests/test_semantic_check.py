"""tools/semantic_check.py: every device call of the overload sets CUDA and
HIP both declare (min/max, fmin/fmax, umin/umax, abs, ...), on every pair of
argument types, yields CUDA 12.4's type after translation, with the real
hipcc of ROCm 7.2.4 and 5.7.1 for gfx942, device and host side, with and
without --compat: none is silent (compiles with another type) or fails to
compile unreported.  And the
data the device_overloads rule reads (hipify_py/data/device_overloads.yaml)
is what the compilers say today.  Skipped without the roots (CI provisions
them, and HIPIFY_PY_REQUIRE_TOOLCHAIN=1 makes a missing one a failure)."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.toolchain import ToolchainError, complete_root, find_cuda
from hipify_py.rules import device_overloads

REPO = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1"


def _tool() -> Any:
    sys.path.insert(0, str(REPO / "tools"))
    return importlib.import_module("semantic_check")


_CUDA: dict[str, Any] = {}


def _cuda_types(tool: Any) -> dict[Any, str]:
    """CUDA's type of every probe (one nvcc compile, shared by the releases)."""
    if "types" not in _CUDA:
        if complete_root("nvidia") is None:
            message = "no CUDA 12.4 root (hip_smoke/toolchain/provision.sh nvidia)"
            if REQUIRED:
                pytest.fail(message)
            pytest.skip(message)
        try:
            _CUDA["types"] = tool.cuda_types(find_cuda(), tool.probes())
        except ToolchainError as exc:
            pytest.fail(str(exc)) if REQUIRED else pytest.skip(str(exc))
    types: dict[Any, str] = _CUDA["types"]
    return types


@pytest.mark.parametrize("compat", [False, True], ids=["plain", "compat"])
@pytest.mark.parametrize("release", CI_RELEASES)
def test_translated_device_calls_keep_cudas_types(release: str, compat: bool) -> None:
    compiler = amd_compiler(release)
    tool = _tool()
    cuda = _cuda_types(tool)
    # what CUDA says is what the rule's data says
    data = device_overloads.overloads()
    every = {p.label: kind for p, kind in cuda.items() if not kind.startswith("error")}
    valid = {
        p.label: kind
        for p, kind in cuda.items()
        if not kind.startswith("error") and not p.expressions
    }
    assert len(valid) > 2000 and len(every) - len(valid) > 500  # and the expressions
    assert {
        f"{f}({args})": kind for f, rows in data.cuda.items() for args, kind in rows.items()
    } == valid
    assert valid["min(int, unsigned int)"] == "unsigned int"

    report = tool.check_release(compiler, tool.probes(), cuda, compiler.hip_version, compat)
    counts = tool.summary(report)
    for side in tool.SIDES:
        assert counts[side]["calls"] == len(every)
        assert counts[side]["silent"] == 0, [
            (r["call"], r.get(f"{side}_error")) for r in report["calls"] if r[side] == "silent"
        ]
        assert counts[side]["error"] == 0, [
            (r["call"], r.get(f"{side}_error")) for r in report["calls"] if r[side] == "error"
        ]
        # HIP alone differs for mixed signedness, shorts and chars (min/max)
        # and lacks the umin family: the translation casts them, and reports
        # the umin family (HPY101) unless --compat's header provides it
        assert counts[side]["differ"] > 1200
        assert counts[side]["reported"] == (0 if compat else 1176)
    # the data's "differs" is this release's (a new release: --write-data)
    for row in report["calls"]:
        if row.get("expressions"):
            continue  # argument expressions: typed by the rule, not in its data
        function, args = row["call"].split("(", 1)
        listed = release in data.differs.get(function, {}).get(args[:-1], "").split(", ")
        assert tool.differing(row) == listed, row
    # the known case: HIP alone makes min(int, unsigned) a double
    known = next(r for r in report["calls"] if r["call"] == "min(int, unsigned int)")
    assert known["hip_device"] == "double" and known["device"] == "same"
    # an argument's type the rule reads from the tree: threadIdx.x is unsigned
    literal = next(r for r in report["calls"] if r["call"] == "min(0, threadIdx.x)")
    assert literal["cuda"] == "unsigned int" and literal["hip_device"] != "unsigned int"
    assert literal["device"] == literal["host"] == "same"


EDG = """\
probes.cu(6): error: a value of type "unsigned int *" cannot be used to initialize an entity of type "Tag *"
            void p0(int a, unsigned int b) { Tag* t = (decltype(min(a, b))*)0; (void)t; } // probe:0

probes.cu(7): error: more than one instance of overloaded function "min" matches the argument list:
            function "min(int, int)"
probes.cu(7): error: a value of type "<error-type> *" cannot be used to initialize an entity of type "Tag *"
probes.cu(8): error: a value of type "long *" cannot be used to initialize an entity of type "Tag *"
"""
CLANG = """\
probes.hip:6:43: error: cannot initialize a variable of type 'Tag *' with an rvalue of type 'decltype(min(a, b)) *' (aka 'double *')
probes.hip:7:43: error: call to 'min' is ambiguous
probes.hip:8:43: error: cannot initialize a variable of type 'Tag *' with an rvalue of type 'short *'
"""


def test_types_are_read_from_the_compilers_messages() -> None:
    tool = _tool()
    chosen = [tool.Probe("min", ("int", "unsigned int")), tool.Probe("min", ("int", "long"))]
    chosen.append(tool.Probe("max", ("long", "long")))
    cuda_source = tool.type_source(tool.HEADER_CUDA, chosen)
    assert cuda_source.splitlines()[5].endswith("// probe:0")  # line 6
    found = tool.read_types(cuda_source, EDG, tool._EDG_ERROR, tool._EDG_TYPE)
    assert found[0] == "unsigned int" and found[2] == "long"
    assert found[1].startswith("error: more than one instance")
    hip_source = tool.type_source(tool.HEADER_HIP, chosen)
    found = tool.read_types(hip_source, CLANG, tool._CLANG_ERROR, tool._CLANG_TYPE)
    assert found == {0: "double", 1: "error: call to 'min' is ambiguous", 2: "short"}
    with pytest.raises(RuntimeError, match="outside the probes"):
        tool.read_types(cuda_source, "probes.cu(1): error: x", tool._EDG_ERROR, tool._EDG_TYPE)


def test_the_data_written_is_what_the_rule_reads(tmp_path: Path) -> None:
    tool = _tool()

    def row(call: str, cuda: str, device: str, host: str) -> dict[str, str]:
        return {"call": call, "cuda": cuda, "hip_device": device, "hip_host": host}

    reports = {
        "7.2": {
            "calls": [
                row("min(int, unsigned int)", "unsigned int", "double", "double"),
                row("min(int, int)", "int", "int", "int"),
                row("abs(long)", "long", "long", "long"),
            ]
        },
        "5.7": {
            "calls": [
                row("min(int, unsigned int)", "unsigned int", "unsigned int", "double"),
                row("min(int, int)", "int", "int", "int"),
                row("abs(long)", "long", "long", "long"),
            ]
        },
    }
    path = tmp_path / "device_overloads.yaml"
    path.write_text(tool.data_yaml(reports))
    read = device_overloads.overloads.__wrapped__(path)
    assert read.cuda == {
        "abs": {"long": "long"},
        "min": {"int, unsigned int": "unsigned int", "int, int": "int"},
    }
    assert read.differs == {"min": {"int, unsigned int": "5.7, 7.2"}}


def test_the_table_counts_per_release_side_and_function() -> None:
    tool = _tool()
    base = {"cuda": "unsigned int", "hip_device": "double", "hip_host": "double", "codes": []}
    reports = {
        "7.2": {
            "calls": [
                dict(base, call="min(int, unsigned int)", device="same", host="silent"),
                dict(base, call="min(int, int)", cuda="int", hip_device="int", hip_host="int")
                | {"device": "same", "host": "same"},
            ]
        }
    }
    text = tool.table(reports)
    assert "| 7.2 | device | 2 | 1 | 2 | 0 | 0 | **0** |" in text
    assert "| 7.2 | host | 2 | 1 | 1 | 0 | 0 | **1** |" in text
    assert "| min | 2 | 1 / 1, 0, 0, 1 |" in text
    assert "| `min(int, unsigned int)` | unsigned int | double / double -> silent |" in text
    assert "`min(int, int)`" not in text
