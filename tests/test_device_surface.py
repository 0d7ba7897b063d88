"""The device API surface (tools/device_surface.py): every device-callable
function and operator of CUDA 12.4's own headers, with every type a template
takes, translated (default and --compat) and compiled for gfx942 with each
provisioned ROCm release: each call compiles, is provided by the compat
header, or is reported at the call.  Silent: 0 on every release; the gaps
data the rules read (hipify_py/data/device_gaps.yaml) and the README's table
are what the tool generates now."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hip_smoke.toolchain import RELEASES, complete_root

REPO = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1"


def _tool() -> Any:
    sys.path.insert(0, str(REPO / "tools"))
    import device_surface

    return device_surface


# --- reading the compilers' output (no toolchain needed) ---------------------


def test_a_header_error_belongs_to_the_call_that_instantiated_it() -> None:
    tool = _tool()
    output = (
        "calls.hip:12:5: error: no matching function for call to '__ldcs'\n"
        "/usr/include/hip/amd_detail/amd_hip_cooperative_groups.h:551:14: error: "
        "no matching function for call to '__shfl_up'\n"
        "./hipify_py_compat.h:283:14: note: in instantiation of function template "
        "specialization 'x' requested here\n"
        "calls.hip:14:104: note: in instantiation of function template specialization 'y' "
        "requested here\n"
        "/usr/include/hip/x.h:1:1: error: an error no call line explains\n"
    )
    failures, stray = tool.clang_failures(output, "calls.hip", {12: 0, 13: 1, 14: 2})
    assert failures == {
        0: "no matching function for call to '__ldcs'",
        2: ("no matching function for call to '__shfl_up'"),
    }
    assert stray == ["/usr/include/hip/x.h:1:1: error: an error no call line explains"]


def test_nvcc_errors_in_a_template_belong_to_the_line_that_instantiated_it() -> None:
    tool = _tool()
    output = (
        'calls.cu(7): error: no instance of overloaded function "tex2D" matches\n'
        "/usr/include/texture_indirect_functions.h(99): error: static assertion failed\n"
        '          detected during instantiation of "T tex1D<T>(...)" at line 9 of calls.cu\n'
    )
    failures, stray = tool.nvcc_failures(output, "calls.cu", {7: 3, 9: 4})
    assert failures == {
        3: 'no instance of overloaded function "tex2D" matches',
        4: "static assertion failed",
    }
    assert stray == []


def test_an_operator_call_and_a_template_are_rendered_as_real_code_writes_them() -> None:
    tool = _tool()
    assert tool._operator_expr("+", 2) == "a0 + a1"
    assert tool._operator_expr("-", 1) == "-a0"
    assert tool._operator_expr("()", 2) is None
    config = tool.load_config()
    shapes = tool.group_calls(config)
    reduce = [c for c in shapes if c.key == "cg::reduce" and c.params == ["float"]]
    assert reduce and all("cg::reduce(" in c.line for c in reduce)
    members = [c for c in shapes if c.key == "thread_block_tile.shfl_xor"]
    assert members and all(c.group == "thread_block_tile" for c in members)


def test_every_exemption_says_why() -> None:
    config = _tool().load_config()
    for section in ("exempt", "group_exempt"):
        for name, reason in config[section].items():
            assert isinstance(reason, str) and len(reason) > 20, (section, name)


# --- the check itself, with the real toolchains --------------------------------


def _releases() -> list[str]:
    found = [r for r in reversed(RELEASES) if complete_root(f"amd-{r}") is not None]
    if complete_root("nvidia") is None or not {"7.2", "5.7"} <= set(found):
        message = "needs the nvidia, amd-7.2 and amd-5.7 roots of hip_smoke/toolchain/provision.sh"
        if REQUIRED:
            pytest.fail(message + " (CI provisions them: .ci/run)")
        pytest.skip(message)
    return found


def test_no_device_call_fails_silently_on_any_release(tmp_path: Path) -> None:
    releases = _releases()
    tool = _tool()
    gaps = tmp_path / "gaps.yaml"
    table = tmp_path / "table.md"
    argv = ["--table", "--write-gaps", str(gaps), "--silent", "--markdown", str(table)]
    code = tool.main(argv)
    assert code == 0, "device calls fail silently (run tools/device_surface.py --table --silent)"
    assert gaps.read_text() == (REPO / "hipify_py" / "data" / "device_gaps.yaml").read_text(), (
        "hipify_py/data/device_gaps.yaml is stale: python tools/device_surface.py --table "
        "--write-gaps hipify_py/data/device_gaps.yaml"
    )
    if releases == [r for r in reversed(RELEASES)]:
        readme = (REPO / "README.md").read_text()
        assert table.read_text() in readme, (
            "the README's device surface table is stale: python tools/device_surface.py --table"
        )
