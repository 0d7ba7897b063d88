"""Project mode: local headers outside the paths, --rename with #include rewrites."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import run_cli

from hipify_py.project.headers import renamed


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


# --------------------------------------------------------------------------- --rename


def _git_project(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _dangling(root: Path) -> list[str]:
    """#include "..." lines of the tree that name no file (next to the includer
    or in one of its ancestor folders)."""
    import re

    out = []
    for path in root.rglob("*"):
        if ".git" in path.parts or not path.is_file():
            continue
        for name in re.findall(r'#include "([^"]+)"', path.read_text()):
            if not any((folder / name).is_file() for folder in [path.parent, *path.parents]):
                out.append(f"{path.relative_to(root)}: {name}")
    return out


def test_rename_rewrites_includes_in_files_without_cuda(tmp_path: Path) -> None:
    """util_cuda.h becomes util_hip.h: main.cpp (no CUDA in it), a.cu, and a file
    of the project outside the paths all include the new name; none dangles."""
    root = _git_project(
        tmp_path / "p",
        {
            "util_cuda.h": "#pragma once\ninline void f() { cudaDeviceSynchronize(); }\n",
            "main.cpp": '#include "util_cuda.h"\nint main() { f(); return 0; }\n',
            "a.cu": '#include "util_cuda.h"\n__global__ void k() {}\n',
            "tools/t.cpp": '#include "../util_cuda.h"\nint t();\n',
        },
    )
    result = run_cli(".", "--rename", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert sorted(p.name for p in root.iterdir() if p.name != ".git") == [
        "a.hip",
        "main.cpp",
        "tools",
        "util_hip.h",
    ]
    assert (root / "main.cpp").read_text().startswith('#include "util_hip.h"\n')
    assert '#include "util_hip.h"' in (root / "a.hip").read_text()
    assert (root / "tools" / "t.cpp").read_text().startswith('#include "../util_hip.h"\n')
    assert _dangling(root) == []

    # a run over some of the files: the project's other includers are found and reported
    other = _git_project(
        tmp_path / "q",
        {
            "src/util_cuda.h": "#pragma once\ninline void f() { cudaFree(0); }\n",
            "src/a.cu": '#include "util_cuda.h"\n',
            "app/main.cpp": '#include "../src/util_cuda.h"\nint main() { return 0; }\n',
        },
    )
    result = run_cli("src", "--rename", cwd=other)
    assert result.returncode == 0, result.stderr.decode()
    assert b"rewriting the includes of renamed files in app/main.cpp" in result.stderr
    assert (other / "app" / "main.cpp").read_text().startswith('#include "../src/util_hip.h"\n')
    assert _dangling(other) == []


def test_rename_follows_the_include_path(tmp_path: Path) -> None:
    root = _git_project(
        tmp_path,
        {
            "include/lib/ops_cuda.cuh": "#pragma once\n__device__ int op();\n",
            "src/k.cu": '#include "lib/ops_cuda.cuh"\n#include <lib/ops_cuda.cuh>\n',
        },
    )
    result = run_cli("src", "--rename", "-I", "include", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert (root / "include" / "lib" / "ops_hip.cuh").is_file()
    text = (root / "src" / "k.hip").read_text()
    assert '#include "lib/ops_hip.cuh"' in text and "#include <lib/ops_hip.cuh>" in text


# --------------------------------------------------------------- excludes, include path


def test_excluded_headers_are_not_followed(tmp_path: Path) -> None:
    files = {
        "src/s.cu": '#include "../tp/t.cuh"\nvoid s() { cudaFree(0); }\n',
        "tp/t.cuh": "inline void t() { cudaFree(0); }\n",
    }
    root = _git_project(tmp_path / "flag", files)
    result = run_cli(".", "--exclude", "tp/", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert "hipFree" in (root / "src" / "s.cu").read_text()
    assert "cudaFree" in (root / "tp" / "t.cuh").read_text()

    # [tool.hipify-py] exclude, relative to pyproject.toml's folder, from anywhere
    root = _git_project(tmp_path / "config", files)
    (root / "pyproject.toml").write_text('[tool.hipify-py]\nexclude = ["/tp/"]\n')
    result = run_cli("s.cu", cwd=root / "src")
    assert result.returncode == 0, result.stderr.decode()
    assert "hipFree" in (root / "src" / "s.cu").read_text()
    assert "cudaFree" in (root / "tp" / "t.cuh").read_text()
    # named files too (pre-commit passes file names): an excluded one is skipped
    result = run_cli("tp/t.cuh", "src/s.cu", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert "cudaFree" in (root / "tp" / "t.cuh").read_text()
    result = run_cli("check", "tp/t.cuh", cwd=root)
    assert result.returncode == 0, result.stdout.decode()
    assert b"0 files" in result.stdout


def test_headers_found_through_include_dirs_and_ancestor_folders(tmp_path: Path) -> None:
    """llama.cpp's layout: ggml/src/ggml-cuda/common.cuh includes "ggml-common.h",
    which lives in ggml/src/ (the build passes -I for it)."""
    root = _git_project(
        tmp_path,
        {
            "ggml/src/ggml-cuda/common.cuh": '#pragma once\n#include "ggml-common.h"\n'
            "inline void c() { cudaFree(0); }\n",
            "ggml/src/ggml-cuda/k.cu": '#include "common.cuh"\n__global__ void k() {}\n',
            "ggml/src/ggml-common.h": "#pragma once\ninline void g() { cudaDeviceReset(); }\n",
            "include/api/api.h": "#pragma once\ninline void a() { cudaDeviceReset(); }\n",
            "other/o.cu": "#include <api/api.h>\nvoid o() {}\n",
        },
    )
    result = run_cli("ggml/src/ggml-cuda", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert "hipDeviceReset" in (root / "ggml" / "src" / "ggml-common.h").read_text()
    assert b"ggml-common.h (included by" in result.stderr

    result = run_cli("other", "-I", "include", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert "hipDeviceReset" in (root / "include" / "api" / "api.h").read_text()


def test_include_dirs_from_the_configuration_and_no_project_headers(tmp_path: Path) -> None:
    files = {
        "include/api/api.h": "#pragma once\ninline void a() { cudaDeviceReset(); }\n",
        "src/o.cu": '#include "api/api.h"\nvoid o() { cudaFree(0); }\n',
    }
    root = _git_project(tmp_path / "cfg", files)
    (root / ".hipify-py.toml").write_text('include-dirs = ["include"]\n')
    result = run_cli("o.cu", cwd=root / "src")
    assert result.returncode == 0, result.stderr.decode()
    assert "hipDeviceReset" in (root / "include" / "api" / "api.h").read_text()

    root = _git_project(tmp_path / "off", files)
    (root / ".hipify-py.toml").write_text('include-dirs = ["include"]\n')
    result = run_cli("src/o.cu", "--no-project-headers", cwd=root)
    assert result.returncode == 0, result.stderr.decode()
    assert "hipFree" in (root / "src" / "o.cu").read_text()
    assert "cudaDeviceReset" in (root / "include" / "api" / "api.h").read_text()
    (root / ".hipify-py.toml").write_text('include-dirs = ["include"]\nproject-headers = false\n')
    (root / "src" / "o.cu").write_text(files["src/o.cu"])
    assert run_cli("src/o.cu", cwd=root).returncode == 0
    assert "cudaDeviceReset" in (root / "include" / "api" / "api.h").read_text()
    assert run_cli("src/o.cu", "--project-headers", cwd=root).returncode == 0
    assert "hipDeviceReset" in (root / "include" / "api" / "api.h").read_text()


def test_stdout_prints_the_one_file_even_when_it_includes_local_headers(tmp_path: Path) -> None:
    (tmp_path / "util.cuh").write_text("#pragma once\n#define CHECK(x) x\n")
    (tmp_path / "k.cu").write_text('#include "util.cuh"\nvoid f() { CHECK(cudaFree(0)); }\n')
    result = run_cli(str(tmp_path / "k.cu"), "--stdout", "--no-cache")
    assert result.returncode == 0, result.stderr
    assert (
        result.stdout
        == b'#include <hip/hip_runtime.h>\n#include "util.cuh"\nvoid f() { CHECK(hipFree(0)); }\n'
    )
    assert (tmp_path / "util.cuh").read_text() == "#pragma once\n#define CHECK(x) x\n"
