from __future__ import annotations

from pathlib import Path

from conftest import run_cli

from hipify_py.engine.definitions import is_defined
from hipify_py.project.names import defined_names, scan_project


def test_definitions_are_found_and_uses_are_not() -> None:
    data = (
        b"#define CUDA_CHECK(x) x\n"
        b"inline void cudaCheck(cudaError_t e) {}\n"
        b"struct cudaThing {};\n"
        b"static __host__ cudaError_t cudaWrap(int);\n"
        b"void f() {\n  return cudaFoo(1);\n  x = cudaBar(2);\n  CUDA_CHECK(cudaZap(x));\n}\n"
    )
    assert defined_names(data) == {"CUDA_CHECK", "cudaCheck", "cudaThing", "cudaWrap"}


def test_known_table_names_are_not_candidates() -> None:
    assert defined_names(b"#define cudaMalloc myMalloc\n", known={"cudaMalloc"}) == set()


def test_scan_follows_local_includes(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "check.cuh").write_bytes(b"#define CUDA_SAFE_CALL(x) x\n")
    main = tmp_path / "main.cu"
    main.write_bytes(b'#include "inc/check.cuh"\nvoid f() { CUDA_SAFE_CALL(g()); }\n')
    assert scan_project([main]) == frozenset({"CUDA_SAFE_CALL"})


def test_single_file_run_knows_macros_of_its_headers(tmp_path: Path) -> None:
    (tmp_path / "check.cuh").write_bytes(b"#pragma once\n#define CUDA_CHECK(x) x\n")
    main = tmp_path / "main.cu"
    main.write_bytes(b'#include "check.cuh"\nvoid f() { CUDA_CHECK(cudaFree(0)); cudaFrob(); }\n')
    result = run_cli(str(main), "--diff")
    assert b"CUDA_CHECK looks like CUDA API" not in result.stderr
    assert b"cudaFrob looks like CUDA API" in result.stderr


def test_variables_parameters_and_longer_names() -> None:
    assert is_defined(b"void f(int cudaCount, float x);\n", b"cudaCount")
    assert is_defined(b"  const size_t cudaBytes = 4;\n", b"cudaBytes")
    assert not is_defined(b"  x = a * cudaBytes;\n  return cudaBytes;\n", b"cudaBytes")
    assert not is_defined(b"#define mycudaThing 1\n", b"cudaThing")


def test_common_table_words_count_only_when_unsupported() -> None:
    from hipify_py.tables.cache import load_table

    names = load_table().names
    header = (
        b"int umin(int a, int b);\n#define nv_bfloat16 __hip_bfloat16\n"
        b"typedef float half;\n#define cudaMyCheck(x) x\n"
    )
    # umin is unsupported CUDA API: the project's own definition silences it;
    # nv_bfloat16 is translated, whatever a project's HIP compatibility header says
    assert defined_names(header, names) == {"umin", "cudaMyCheck"}


def test_a_source_files_own_definition_does_not_hide_a_report_in_another_file(
    tmp_path: Path,
) -> None:
    """Tree mode reports what one-file mode reports: a file-local host `umin` in
    host.cpp is not the device-side `umin` kern.cu calls (only a header shares
    definitions between files)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "host.cpp").write_text(
        "static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }\n"
        "int host_side() { return umin(1u, 2u); }\n"
    )
    (src / "kern.cu").write_text(
        "__global__ void k(unsigned* o, unsigned a, unsigned b) { o[0] = umin(a, b); }\n"
    )
    one = run_cli(str(src / "kern.cu"), "--check", "--no-cache")
    tree = run_cli(str(src), "--check", "--no-cache")
    report = "kern.cu:1:65: error: umin has no HIP equivalent"
    assert report in one.stderr.decode() and report in tree.stderr.decode(), tree.stderr
    # the host file's own use stays its own (no report there)
    assert "host.cpp:2" not in tree.stderr.decode()
    # a header does share its definitions
    (src / "util.cuh").write_text("__device__ unsigned umin(unsigned a, unsigned b);\n")
    (src / "kern.cu").write_text('#include "util.cuh"\n' + (src / "kern.cu").read_text())
    shared = run_cli(str(src), "--check", "--no-cache")
    assert "umin has no HIP equivalent" not in shared.stderr.decode(), shared.stderr
