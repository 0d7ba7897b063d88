"""The real-code benchmark's CI slice (benchmarks/realcode, docs/realcode.md):
about 20 units of real CUDA projects (small pinned PyPI sdists), translated
and compiled for gfx942 with ROCm 7.2 and 5.7.1 and as CUDA originals with
nvcc 12.4, inside the toolchain roots.  A unit pinned in projects.yaml as
compiling must still compile: a translation regression fails here.

Needs the roots (hip_smoke/toolchain/provision.sh amd-7.2, amd-5.7, nvidia):
skipped without them, failed without them when HIPIFY_PY_REQUIRE_TOOLCHAIN=1
(CI).  The sdists (a few MB, fetched by name with pip: PyPI must be
reachable the first time) and compile results are cached in
$HIPIFY_PY_REALCODE_CACHE, else ~/.cache/hipify-py/realcode.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO

RUN = REPO / "benchmarks" / "realcode" / "run.py"
PROJECTS = REPO / "benchmarks" / "realcode" / "projects.yaml"
RELEASES = ("7.2", "5.7")


def _slice() -> list[dict[str, Any]]:
    data = yaml.safe_load(PROJECTS.read_text(encoding="utf-8"))
    return list(data["ci_slice"])


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RUN), *args], capture_output=True, text=True, timeout=3600
    )


def test_the_ci_slice_is_pinned_with_an_outcome_per_release() -> None:
    pinned = _slice()
    assert 15 <= len(pinned) <= 30
    projects = {p["name"] for p in yaml.safe_load(PROJECTS.read_text())["projects"]}
    for unit in pinned:
        assert unit["project"] in projects, unit
        assert set(unit["expect"]) == {"cuda", *RELEASES}, unit
        assert set(unit["expect"].values()) <= {"compiled", "failed"}, unit
    # the slice guards something: units that build today, on each side
    for target in ("cuda", *RELEASES):
        assert any(u["expect"][target] == "compiled" for u in pinned), target


def test_an_unknown_project_is_refused_with_its_name() -> None:
    done = _run("--projects", "no-such-project", "--json", os.devnull, "--md", os.devnull)
    assert done.returncode == 2
    assert "no-such-project" in done.stderr


def test_ci_slice_units_that_compiled_still_compile(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    done = _run(
        "--slice", "ci", "--releases", ",".join(RELEASES), "--jobs", "2",
        "--md", str(tmp_path / "realcode.md"), "--json", str(results),
    )  # fmt: skip
    if done.returncode == 2 and "toolchain roots missing" in done.stderr:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(done.stderr)
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr[-4000:]
    document = json.loads(results.read_text(encoding="utf-8"))
    rows = {
        (project["name"], row["unit"]): row
        for project in document["projects"]
        for row in project["units"]
    }
    regressions = []
    for pinned in _slice():
        row = rows[(pinned["project"], pinned["unit"])]
        for target, want in pinned["expect"].items():
            entry = row[target]
            if want == "compiled" and not entry["compiled"]:
                error = entry["first_error"] or {}
                regressions.append(
                    f"{pinned['project']} {pinned['unit']} ({target}): no longer compiles: "
                    f"{error.get('file')}:{error.get('line')}: {error.get('message')}"
                )
    assert not regressions, "\n".join(regressions)
    assert (tmp_path / "realcode.md").read_text(encoding="utf-8").startswith("# Real-code")


def test_an_error_directive_is_predicted_by_a_diagnostic_on_the_condition_selecting_it() -> None:
    """CuPy's vendored CCCL: `#if !_CCCL_CUDACC_EQUAL(CUDART_VERSION ...)` /
    `#error "... incompatible"`: hipify-py reports CUDART_VERSION on the #if
    line, which is the construct that causes the #error one line below."""
    sys.path.insert(0, str(REPO / "benchmarks" / "realcode"))
    from classify import Diagnostic, FirstError, controlling_lines, predicted_by

    lines = [
        "#if _CCCL_CUDA_COMPILATION()",  # 1
        "#  if defined(UNRELATED)",  # 2
        "#  endif",  # 3
        "#  if !EQUAL(CUDART_VERSION / 1000, \\",  # 4
        "              CUDART_VERSION % 1000)",  # 5
        '#    error "incompatible"',  # 6
        "#  endif",  # 7
        "#endif",  # 8
    ]
    assert controlling_lines(lines, 6) == {1, 4, 5}
    error = FirstError(file="t.h", line=6, message='"incompatible"', label="#error")
    on_condition = [Diagnostic(file="t.h", line=5, code="HPY101", severity="error", message="")]
    elsewhere = [Diagnostic(file="t.h", line=2, code="HPY101", severity="error", message="")]
    assert predicted_by(error, on_condition, controlling_lines(lines, 6)) == "condition: HPY101"
    assert predicted_by(error, elsewhere, controlling_lines(lines, 6)) is None
    other = FirstError(file="t.h", line=6, message="x", label="undeclared identifier")
    assert predicted_by(other, on_condition, controlling_lines(lines, 6)) is None


def test_an_error_in_a_header_reported_as_having_no_hip_counterpart_is_predicted() -> None:
    """CuPy's vendored libcu++: the first error is inside cuda/std/__cccl/
    compiler.h, a header hipify-py reported (HPY201) where it is included."""
    sys.path.insert(0, str(REPO / "benchmarks" / "realcode"))
    from classify import Diagnostic, FirstError, predicted_by

    error = FirstError(
        file="include/_cccl/libcudacxx/cuda/std/__cccl/compiler.h",
        line=173,
        message='"CUDA versions below 12 are not supported."',
        label="#error",
    )
    reported = Diagnostic(
        file="include/_cccl/libcudacxx/cuda/std/__config",
        line=12,
        code="HPY201",
        severity="error",
        message="<cuda/std/__cccl/compiler.h> has no HIP counterpart; left unchanged",
    )
    assert predicted_by(error, [reported]) == "header: HPY201"
    other = Diagnostic(
        reported.file, 12, "HPY201", "error", "<cuda/std/atomic> has no HIP counterpart"
    )
    assert predicted_by(error, [other]) is None


def test_an_error_in_a_system_header_template_is_tied_to_the_line_that_instantiates_it() -> None:
    """xgboost on HIP's NVIDIA platform: the first error is in libstdc++'s
    make_unique; nvcc names the tree's line that instantiated it, where
    hipify-py's HPY428 stands."""
    sys.path.insert(0, str(REPO / "benchmarks" / "realcode"))
    from classify import Diagnostic, first_error, instantiated_from, predicted_by

    nvcc = "\n".join(
        [
            "/usr/include/c++/13/bits/unique_ptr.h(1070): error: no instance of constructor"
            ' "hipcub::CachingDeviceAllocator::CachingDeviceAllocator" matches the argument list',
            "          detected during:",
            '            instantiation of "std::make_unique<_Tp,_Args...>" at line 403 of'
            " src/tree/../common/device_vector.cuh",
        ]
    )
    error = first_error(nvcc, "/build/tree")
    assert error.file.startswith("/usr/include/")
    site = instantiated_from(nvcc, error)
    assert site is not None and (site.file, site.line) == ("src/common/device_vector.cuh", 403)
    warned = Diagnostic(
        "src/common/device_vector.cuh", 401, "HPY428", "warning", "CachingDeviceAllocator ..."
    )
    assert predicted_by(error, [warned]) is None  # the header itself has no diagnostic
    assert predicted_by(site, [warned]) == "construct: HPY428"
    clang = "\n".join(
        [
            "/usr/include/rocprim/x.hpp:10:5: error: no viable overloaded '='",
            "src/a.cu:7:3: note: in instantiation of function template specialization 'f<int>'"
            " requested here",
        ]
    )
    site = instantiated_from(clang, first_error(clang, "/build/tree"))
    assert site is not None and (site.file, site.line) == ("src/a.cu", 7)
    in_tree = "src/a.cu:3:1: error: use of undeclared identifier 'x'"
    assert instantiated_from(in_tree, first_error(in_tree, "/build/tree")) is None


def test_a_first_error_after_many_warnings_keeps_its_notes_in_the_stored_output() -> None:
    """xgboost's nvcc output: 40 lines of warnings, then the error whose
    'at line N of FILE' note is what ties it to the tree (instantiated_from)."""
    sys.path.insert(0, str(REPO / "benchmarks" / "realcode"))
    from compile_units import output_head

    warnings = [f"src/a.h({i}): warning #2810-D: ignoring return value" for i in range(60)]
    error = ["/usr/include/c++/13/bits/unique_ptr.h(1070): error: no instance of constructor"]
    note = ["  instantiation of make_unique at line 403 of src/common/device_vector.cuh"]
    head = output_head("\n".join([*warnings, *error, *note, "tail"]))
    assert head.splitlines()[:40] == warnings[:40]
    assert error[0] in head and note[0] in head
    short = "\n".join(["src/a.cu:1:1: error: x", "note"])
    assert output_head(short) == short
