"""Project mode: local headers outside the paths, --rename with #include rewrites."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import run_cli

from hipify_py.project import renamed


def make_project(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "include").mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "src" / "main.cu").write_bytes(
        b'#include "../include/common_cuda.cuh"\n#include "kernel_cuda.cuh"\n'
        b"__global__ void k() { CHECK(cudaFree(0)); }\n"
    )
    (root / "include" / "common_cuda.cuh").write_bytes(
        b"#pragma once\n#define CHECK(x) x\ninline void g() { cudaDeviceSynchronize(); }\n"
    )
    (root / "src" / "kernel_cuda.cuh").write_bytes(b"#pragma once\n__device__ int h();\n")
    (root / "unrelated.cu").write_bytes(b"void u() { cudaFree(0); }\n")


def test_local_headers_outside_the_paths_are_translated_and_reported(tmp_path: Path) -> None:
    make_project(tmp_path)
    result = run_cli(str(tmp_path / "src"))
    assert result.returncode == 0, result.stderr
    assert b"also translating the local header" in result.stderr
    assert b"common_cuda.cuh (included by" in result.stderr
    assert b"hipDeviceSynchronize" in (tmp_path / "include" / "common_cuda.cuh").read_bytes()
    assert b"cudaFree" in (tmp_path / "unrelated.cu").read_bytes()  # not included: untouched


def test_headers_outside_the_project_are_not_touched(tmp_path: Path) -> None:
    outside = tmp_path / "outside.cuh"
    outside.write_bytes(b"inline void o() { cudaFree(0); }\n")
    project = tmp_path / "proj"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "a.cu").write_bytes(b'#include "../outside.cuh"\nvoid f() { cudaFree(0); }\n')
    assert run_cli(str(project)).returncode == 0
    assert b"cudaFree" in outside.read_bytes()


def test_rename_moves_files_and_rewrites_their_includes(tmp_path: Path) -> None:
    make_project(tmp_path)
    assert run_cli(str(tmp_path / "src"), "--rename").returncode == 0
    main = tmp_path / "src" / "main.hip"
    assert main.is_file() and not (tmp_path / "src" / "main.cu").exists()
    text = main.read_bytes()
    assert b'#include "../include/common_hip.cuh"' in text
    assert b'#include "kernel_hip.cuh"' in text
    assert (tmp_path / "src" / "kernel_hip.cuh").is_file()
    assert (tmp_path / "include" / "common_hip.cuh").is_file()


def test_rename_into_an_output_folder_leaves_the_input(tmp_path: Path) -> None:
    make_project(tmp_path / "p")
    out = tmp_path / "out"
    assert run_cli(str(tmp_path / "p" / "src"), "--rename", "-o", str(out)).returncode == 0
    assert (tmp_path / "p" / "src" / "main.cu").is_file()
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert names == ["include/common_hip.cuh", "src/kernel_hip.cuh", "src/main.hip"]


def test_renamed_names() -> None:
    assert renamed("kernel_cuda.cu") == "kernel_hip.hip"
    assert renamed("CudaHelpers.cuh") == "HipHelpers.cuh"
    assert renamed("plain.cpp") == "plain.cpp"
    assert renamed("Makefile") == "Makefile"
