"""CMake and Makefile lines that need changes for HIP: reported, and rewritten
with --fix-build."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

from hipify_py.build_files import analyze

CMAKE = b"""cmake_minimum_required(VERSION 3.21)
project(demo LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80)
find_package(CUDAToolkit REQUIRED)
add_executable(app main.cu)
set_target_properties(app PROPERTIES CUDA_ARCHITECTURES "80;90")
target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas)
# enable_language(CUDA) only in a comment
"""
MAKE = b"""NVCC ?= nvcc
FLAGS = -arch=sm_80 --use_fast_math
app: main.cu
\t$(NVCC) $(FLAGS) -o app main.cu -lcudart
"""


def test_cmake_lines_are_reported_with_the_hip_equivalent() -> None:
    _, diagnostics = analyze(CMAKE, "cmake", fix=False)
    found = {(d.code, d.line) for d in diagnostics}
    assert {("HPY601", 2), ("HPY601", 3), ("HPY602", 4), ("HPY601", 6), ("HPY602", 7)} <= found
    assert not any(d.line == 8 for d in diagnostics)  # comments are not build lines
    assert any("CMAKE_HIP_ARCHITECTURES gfx942" in d.message for d in diagnostics)


def test_fix_build_rewrites_the_simple_cases() -> None:
    fixed, _ = analyze(CMAKE, "cmake", fix=True)
    text = fixed.decode()
    assert "project(demo LANGUAGES CXX HIP)" in text
    assert "set(CMAKE_HIP_ARCHITECTURES gfx942)" in text
    assert "find_package(hip REQUIRED)" in text
    assert "HIP_ARCHITECTURES gfx942" in text
    assert "hip::host roc::hipblas" in text
    assert "# enable_language(CUDA) only in a comment" in text
    assert analyze(fixed, "cmake", fix=True)[0] == fixed


def test_makefile() -> None:
    fixed, diagnostics = analyze(MAKE, "make", fix=True)
    assert {d.line for d in diagnostics} == {1, 2, 4}
    assert b"NVCC ?= hipcc" in fixed and b"--offload-arch=gfx942 -ffast-math" in fixed


def test_cli_reports_build_files_and_fixes_in_place(tmp_path: Path) -> None:
    (tmp_path / "CMakeLists.txt").write_bytes(CMAKE)
    (tmp_path / "main.cu").write_bytes(b"void f() { cudaFree(0); }\n")
    check = run_cli(str(tmp_path), "--check")
    assert check.returncode == 1
    assert b"CMakeLists.txt:2:1: warning" in check.stderr
    assert run_cli(str(tmp_path)).returncode == 0
    assert (tmp_path / "CMakeLists.txt").read_bytes() == CMAKE  # reported, not changed
    assert run_cli(str(tmp_path), "--fix-build").returncode == 0
    assert b"LANGUAGES CXX HIP" in (tmp_path / "CMakeLists.txt").read_bytes()
