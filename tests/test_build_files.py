"""CMake and Makefile lines that need changes for HIP: reported, and rewritten
with --fix-build."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

from hipify_py.project.build_files import analyze

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


def _fixed(line: str, kind: str = "cmake") -> tuple[str, list[str]]:
    out, diagnostics = analyze(line.encode() + b"\n", kind, fix=True)
    return out.decode().rstrip("\n"), [d.name for d in diagnostics]


def test_architecture_lists_become_gfx942_alone_or_are_reported_not_fixed() -> None:
    rewritten = {
        "set(CMAKE_CUDA_ARCHITECTURES 80 86)": "set(CMAKE_HIP_ARCHITECTURES gfx942)",
        'set(CMAKE_CUDA_ARCHITECTURES "80;86" CACHE STRING "GPUs")': (
            'set(CMAKE_HIP_ARCHITECTURES gfx942 CACHE STRING "GPUs")'
        ),
        "set(CMAKE_CUDA_ARCHITECTURES native)": "set(CMAKE_HIP_ARCHITECTURES gfx942)",
        "set_property(TARGET app PROPERTY CUDA_ARCHITECTURES 80 86)": (
            "set_property(TARGET app PROPERTY HIP_ARCHITECTURES gfx942)"
        ),
        "set_target_properties(app PROPERTIES CUDA_ARCHITECTURES 80 POSITION_INDEPENDENT_CODE ON)": (
            "set_target_properties(app PROPERTIES HIP_ARCHITECTURES gfx942"
            " POSITION_INDEPENDENT_CODE ON)"
        ),
    }
    for before, after in rewritten.items():
        fixed, names = _fixed(before)
        assert fixed == after, before
        assert len(names) == 1, (before, names)
        assert _fixed(fixed) == (fixed, []), fixed  # nothing left to report
    # values hipify-py cannot rewrite: reported, the line left as it is
    for line in (
        "set_target_properties(app PROPERTIES CUDA_ARCHITECTURES ${ARCHS})",
        "set(CMAKE_CUDA_ARCHITECTURES ${GPU_TARGETS})",
        "set(CMAKE_CUDA_ARCHITECTURES",  # the list goes on on the next lines
        "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)",
    ):
        fixed, names = _fixed(line)
        assert fixed == line and len(names) == 1, (line, names)
        _, (diagnostic,) = analyze(line.encode(), "cmake", fix=True)
        assert "rewritten" not in diagnostic.message and diagnostic.hint == "change this by hand"


def test_cuda_languages_in_project_and_enable_language() -> None:
    for before, after in {
        "project(x CXX CUDA)": "project(x CXX HIP)",
        "project(x LANGUAGES CXX CUDA)": "project(x LANGUAGES CXX HIP)",
        "project(CUDA_demo VERSION 1.0 LANGUAGES CUDA CXX)": (
            "project(CUDA_demo VERSION 1.0 LANGUAGES HIP CXX)"
        ),
        "enable_language(CXX CUDA)": "enable_language(CXX HIP)",
        "enable_language(CUDA)": "enable_language(HIP)",
        "check_language(CUDA)": "check_language(HIP)",
    }.items():
        fixed, names = _fixed(before)
        assert fixed == after and len(names) == 1, (before, fixed, names)
    assert _fixed("project(cuda_tools CXX)") == ("project(cuda_tools CXX)", [])
    assert _fixed('message("CUDA # not a comment") # CUDA') == (
        'message("CUDA # not a comment") # CUDA',
        [],
    )


def test_makefile_forms() -> None:
    cases = {
        "NVCC ?= nvcc": ("NVCC ?= hipcc", ["NVCC", "nvcc"]),
        "FLAGS = -arch=sm_80": ("FLAGS = --offload-arch=gfx942", ["-arch=sm_80"]),
        "FLAGS = -arch sm_90a": ("FLAGS = --offload-arch=gfx942", ["-arch sm_90a"]),
        "FLAGS = --use_fast_math -use_fast_math": (
            "FLAGS = -ffast-math -ffast-math",
            ["--use_fast_math", "-use_fast_math"],
        ),
        "FLAGS = -rdc=true": ("FLAGS = -fgpu-rdc", ["-rdc=true"]),
    }
    for before, (after, names) in cases.items():
        assert _fixed(before, "make") == (after, names), before
    # reported, not rewritten
    for line, name in (
        ("GENCODE = -gencode arch=compute_80,code=sm_80", "-gencode arch=compute_80,code=sm_80"),
        ("GENCODE = -gencode=arch=compute_90,code=sm_90", "-gencode=arch=compute_90,code=sm_90"),
        ("FLAGS = -Xcompiler -fopenmp", "-Xcompiler"),
        ("FLAGS = --expt-relaxed-constexpr", "--expt-relaxed-constexpr"),
        ("NVCCFLAGS = -O3", "NVCCFLAGS"),
        ("FLAGS = -arch=native", "-arch=native"),
    ):
        assert _fixed(line, "make") == (line, [name]), line
    assert _fixed("FLAGS = -O3 # -arch=sm_80 in a comment", "make")[1] == []
