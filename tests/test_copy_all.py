"""--copy-all makes a complete mirror; a missing path counts as an error;
extensions match whatever their case.  All through the real CLI, with real git."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

if shutil.which("git") is None:  # pragma: no cover
    pytest.skip("git is not installed", allow_module_level=True)

KERNEL = b"void f(float* d) { cudaMalloc((void**)&d, 4); cudaFree(d); }\n"
HEADER = b"#pragma once\ninline void g() { cudaDeviceSynchronize(); }\n"
MAKEFILE = b"all:\n\tnvcc -o app src/k.cu\n"
CMAKE = b"project(app LANGUAGES CXX CUDA)\n"
NO_INCLUDE = ("--no-runtime-include",)


def _git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
    )
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def _write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project with what a real one has: build files, links in the tree
    (ggml's spm-headers), a link out of it, ignored files, and a file git
    tracks although .gitignore matches it."""
    root = tmp_path / "proj"
    root.mkdir()
    _git(root, "init", "-q")
    _write(
        root,
        {
            "src/k.cu": KERNEL,
            "include/lib.h": HEADER,
            "Makefile": MAKEFILE,
            "CMakeLists.txt": CMAKE,
            "cmake/FindThing.cmake": b"# find a thing\n",
            "README.md": b"# readme\n",
            "scripts/run.sh": b"#!/bin/sh\necho run\n",
            ".gitignore": b"build/\n*.log\nthird_party/\n",
            "keep.log": b"tracked although *.log is ignored\n",
            "third_party/vendored.h": HEADER,
            "build/gen.o": b"\x00object\x00",
            "debug.log": b"not tracked, ignored\n",
        },
    )
    (root / "scripts" / "run.sh").chmod(0o755)
    (root / "spm-headers").mkdir()
    (root / "spm-headers" / "lib.h").symlink_to("../include/lib.h")
    (root / "spm-headers" / "inc").symlink_to("../include")  # a link to a folder
    outside = tmp_path / "outside.h"
    outside.write_bytes(b"#define OUTSIDE 1\n")
    (root / "outside.h").symlink_to(outside)
    (root / "dangling.txt").symlink_to("nowhere.txt")
    _git(root, "add", ".")
    _git(root, "add", "-f", "keep.log", "third_party/vendored.h")
    _git(root, "commit", "-q", "-m", "init")
    return root


def _tracked(repo: Path) -> list[str]:
    return [p for p in _git(repo, "ls-files", "-z").split("\0") if p]


def test_copy_all_leaves_nothing_git_tracks_behind(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli(str(project), "-o", str(out), "--copy-all", *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    missing = [p for p in _tracked(project) if not os.path.lexists(out / p)]
    assert missing == []
    # sources translated, the rest as it was (permissions too)
    assert b"hipMalloc" in (out / "src" / "k.cu").read_bytes()
    assert b"hipDeviceSynchronize" in (out / "third_party" / "vendored.h").read_bytes()
    assert (out / "README.md").read_bytes() == b"# readme\n"
    assert (out / "keep.log").is_file()
    assert os.access(out / "scripts" / "run.sh", os.X_OK)
    # build files: copied as they are, and reported
    assert (out / "Makefile").read_bytes() == MAKEFILE
    assert (out / "CMakeLists.txt").read_bytes() == CMAKE
    assert (out / "cmake" / "FindThing.cmake").read_bytes() == b"# find a thing\n"
    assert b"Makefile:2:2: warning: calls nvcc" in result.stderr
    # links in the tree are links, with their own (relative) text
    assert os.readlink(out / "spm-headers" / "lib.h") == "../include/lib.h"
    assert (out / "spm-headers" / "lib.h").read_bytes() == (out / "include" / "lib.h").read_bytes()
    assert os.readlink(out / "spm-headers" / "inc") == "../include"
    assert os.readlink(out / "dangling.txt") == "nowhere.txt"  # as broken as in the tree
    # a link out of the tree: the mirror gets the file it leads to
    assert not (out / "outside.h").is_symlink()
    assert (out / "outside.h").read_bytes() == b"#define OUTSIDE 1\n"
    # ignored and untracked: left out, and the summary says so
    assert not (out / "build").exists() and not (out / "debug.log").exists()
    err = result.stderr.decode()
    assert "not copied: ignored by .gitignore" in err and "1 file, 1 folder" in err
    assert "symbolic links recreated" in err
    assert not list(out.rglob("*.hipify-tmp"))


def test_copy_all_lists_what_it_leaves_out(project: Path, tmp_path: Path) -> None:
    flags = ("proj", "-o", "out", "--copy-all", *NO_INCLUDE)
    verbose = run_cli(*flags, "-v", cwd=tmp_path)
    err = verbose.stderr.decode()
    assert "note: not copied (ignored by .gitignore): proj/build/\n" in err
    assert "note: not copied (ignored by .gitignore): proj/debug.log\n" in err
    data = run_cli(*flags, "--report-format", "json", cwd=tmp_path)
    summary = json.loads(data.stdout)["summary"]
    assert summary["not_copied"] == [
        {"path": "proj/build/", "reason": "ignored by .gitignore"},
        {"path": "proj/debug.log", "reason": "ignored by .gitignore"},
    ]
    assert summary["links"] == 3 and summary["errors"] == 0
    # what --exclude leaves out, and what is not a file, is counted too
    os.mkfifo(project / "pipe")
    narrowed = run_cli(*flags, "--exclude", "scripts/", "--report-format", "json", cwd=tmp_path)
    assert narrowed.returncode == 0, narrowed.stderr
    left = json.loads(narrowed.stdout)["summary"]["not_copied"]
    assert {"path": "proj/scripts/", "reason": "excluded (--exclude / exclude)"} in left
    assert {"path": "proj/pipe", "reason": "not a regular file"} in left
    # --no-gitignore: everything
    full = tmp_path / "full"
    everything = run_cli(str(project), "-o", str(full), "--copy-all", "--no-gitignore")
    assert everything.returncode == 0, everything.stderr
    assert (full / "build" / "gen.o").read_bytes() == b"\x00object\x00"
    assert (full / "debug.log").is_file()
    assert b"not copied: ignored" not in everything.stderr


def test_copy_all_with_fix_build_translates_the_build_files(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli(str(project), "-o", str(out), "--copy-all", "--fix-build", *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert b"hipcc" in (out / "Makefile").read_bytes()
    assert b"HIP" in (out / "CMakeLists.txt").read_bytes()
    assert (project / "Makefile").read_bytes() == MAKEFILE  # the input is left alone


def test_copy_all_again_keeps_the_mirror(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_cli(str(project), "-o", str(out), "--copy-all").returncode == 0
    before = {p: (p.is_symlink(), p.lstat().st_ino) for p in out.rglob("*")}
    again = run_cli(str(project), "-o", str(out), "--copy-all")
    assert again.returncode == 0, again.stderr
    after = {p: (p.is_symlink(), p.lstat().st_ino) for p in out.rglob("*")}
    assert after == before  # nothing replaced (same inodes): every copy and link was already there


def test_a_copy_that_fails_is_an_error_and_leaves_the_old_file(
    project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    (out / "scripts").mkdir(parents=True)
    (out / "scripts" / "run.sh").write_bytes(b"old\n")
    (out / "scripts").chmod(0o555)
    try:
        result = run_cli(str(project), "-o", str(out), "--copy-all")
    finally:
        (out / "scripts").chmod(0o755)
    assert result.returncode == 2
    assert b"run.sh: error: cannot copy to" in result.stderr
    assert b"errors (paths not found, I/O)" in result.stderr
    assert (out / "scripts" / "run.sh").read_bytes() == b"old\n"
    assert (out / "README.md").is_file()  # the rest goes on


def test_output_dir_recreates_links_to_translated_sources(tmp_path: Path) -> None:
    # the link sorts before the file it leads to: the file still gets its place
    tree = tmp_path / "src"
    _write(tree, {"zeta/real.cu": KERNEL})
    (tree / "alpha.cu").symlink_to("zeta/real.cu")
    out = tmp_path / "out"
    result = run_cli(str(tree), "-o", str(out), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert b"hipMalloc" in (out / "zeta" / "real.cu").read_bytes()
    assert os.readlink(out / "alpha.cu") == "zeta/real.cu"
    # an absolute link into the tree becomes relative: it must lead into the copy
    (tree / "abs.cu").symlink_to(tree / "zeta" / "real.cu")
    assert run_cli(str(tree), "-o", str(out), *NO_INCLUDE).returncode == 0
    assert os.readlink(out / "abs.cu") == "zeta/real.cu"


def test_tracked_files_are_never_ignored(project: Path) -> None:
    # as in git: .gitignore only applies to untracked files, in place too
    result = run_cli(str(project), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert b"hipDeviceSynchronize" in (project / "third_party" / "vendored.h").read_bytes()


def test_help_says_what_copy_all_leaves_out() -> None:
    text = run_cli("--help").stdout.decode()
    flat = " ".join(text.split())
    assert "--copy-all" in flat and "recreate symbolic links" in flat
    assert ".gitignore matches (and git does not track) are not copied" in flat


# ------------------------------------------------------------------ missing paths


def test_a_missing_path_is_counted_as_an_error(tmp_path: Path) -> None:
    result = run_cli(str(tmp_path / "nope.cu"))
    assert result.returncode == 2
    err = result.stderr.decode()
    assert "hipify-py: error: " in err and "nope.cu: no such file or folder" in err
    (row,) = [line for line in err.splitlines() if "errors (paths not found, I/O)" in line]
    assert row.split()[-2] == "1"
    as_json = run_cli(str(tmp_path / "nope.cu"), "--report-format", "json")
    assert as_json.returncode == 2
    summary = json.loads(as_json.stdout)["summary"]
    assert summary["errors"] == 1 and summary["not_found"] == 1 and summary["files"] == 0


def test_a_missing_path_beside_good_ones(tmp_path: Path) -> None:
    _write(tmp_path, {"a.cu": KERNEL})
    result = run_cli(str(tmp_path / "a.cu"), str(tmp_path / "gone"), "--report-format", "json")
    assert result.returncode == 2
    summary = json.loads(result.stdout)["summary"]
    assert summary["files"] == 1 and summary["status"] == {"changed": 1}
    assert summary["errors"] == 1 and summary["not_found"] == 1


# ---------------------------------------------------------------- extension case


def test_extensions_match_whatever_their_case(tmp_path: Path) -> None:
    tree = tmp_path / "src"
    _write(tree, {"K.CU": KERNEL, "H.CUH": HEADER, "x.Cpp": KERNEL, "notes.TXT": KERNEL})
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    for name in ("K.CU", "H.CUH", "x.Cpp"):
        assert b"hip" in (tree / name).read_bytes(), name
    assert (tree / "notes.TXT").read_bytes() == KERNEL
    # --extensions in any case
    _write(tree, {"only.CU": KERNEL, "other.cpp": KERNEL})
    picked = run_cli(str(tree), "--extensions", ".cu", "--diff", *NO_INCLUDE)
    assert b"only.CU" in picked.stdout and b"other.cpp" not in picked.stdout
    upper = run_cli(str(tree), "--extensions", "CPP", "--diff", *NO_INCLUDE)
    assert b"other.cpp" in upper.stdout and b"only.CU" not in upper.stdout


def test_rename_takes_an_upper_case_cu_to_hip(tmp_path: Path) -> None:
    tree = tmp_path / "src"
    _write(tree, {"kernel_cuda.CU": KERNEL, "Build.CMAKE": CMAKE})
    out = tmp_path / "out"
    result = run_cli(str(tree), "--rename", "-o", str(out), "--copy-all", *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert b"hipMalloc" in (out / "kernel_hip.hip").read_bytes()
    assert b"Build.CMAKE:1:1: warning: project() enables the CUDA language" in result.stderr


def test_headers_from_outside_the_input_widen_the_whole_mirror(tmp_path: Path) -> None:
    # project mode translates a header outside src/: the mirror then holds the
    # project's folder, and the copies, build files and links move with src/
    root = tmp_path / "proj"
    _write(
        root,
        {
            "src/a/k.cu": b'#include "b/x.hxx"\n#include "../../include/y.hxx"\n' + KERNEL,
            "src/a/b/x.hxx": HEADER,
            "include/y.hxx": HEADER,
            "src/notes.txt": b"notes\n",
            "src/CMakeLists.txt": CMAKE,
        },
    )
    (root / "src" / "k_link.cu").symlink_to("a/k.cu")
    _git(root, "init", "-q")
    out = tmp_path / "out"
    result = run_cli(str(root / "src"), "-o", str(out), "--copy-all", *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if not p.is_dir())
    assert files == [
        "include/y.hxx",
        "src/CMakeLists.txt",
        "src/a/b/x.hxx",
        "src/a/k.cu",
        "src/k_link.cu",
        "src/notes.txt",
    ]
    assert b"hipDeviceSynchronize" in (out / "include" / "y.hxx").read_bytes()
    assert os.readlink(out / "src" / "k_link.cu") == "a/k.cu"


def test_rename_keeps_links_leading_to_the_renamed_file(tmp_path: Path) -> None:
    tree = tmp_path / "src"
    _write(tree, {"lib/kernel_cuda.cu": KERNEL})
    (tree / "alias.cu").symlink_to("lib/kernel_cuda.cu")
    out = tmp_path / "out"
    result = run_cli(str(tree), "--rename", "-o", str(out), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert os.readlink(out / "alias.cu") == "lib/kernel_hip.hip"
    assert b"hipMalloc" in (out / "alias.cu").read_bytes()


@pytest.mark.parametrize("mode", ["output-dir", "in-place"])
def test_a_header_without_a_source_extension_that_a_source_includes_is_translated(
    tmp_path: Path, mode: str
) -> None:
    """LightGBM includes <LightGBM/cuda/cuda_utils.hu>: the walk takes only
    source extensions, but an included file is part of the unit; left as it
    was, the unit keeps <cuda.h> and cudaMalloc silently."""
    tree = tmp_path / "tree"
    _write(
        tree,
        {
            "include/pkg/util.hu": b"#pragma once\n#include <cuda.h>\n" + HEADER,
            "src/k.cu": b"#include <pkg/util.hu>\n" + KERNEL,
            "docs/notes.txt": b"cudaMalloc is called in src/k.cu\n",  # not included: as is
        },
    )
    args = [str(tree), *NO_INCLUDE]
    out = tmp_path / "out"
    if mode == "output-dir":
        args += ["-o", str(out), "--copy-all"]
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    where = out if mode == "output-dir" else tree
    header = (where / "include/pkg/util.hu").read_text()
    assert "hipDeviceSynchronize" in header and "<cuda.h>" not in header
    assert b"also translating the local header" in done.stderr and b"util.hu" in done.stderr
    notes = (where / "docs/notes.txt").read_text() if mode == "output-dir" else None
    assert notes in (None, "cudaMalloc is called in src/k.cu\n")
    if mode == "in-place":
        assert (tree / "docs/notes.txt").read_text() == "cudaMalloc is called in src/k.cu\n"
