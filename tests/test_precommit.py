"""The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit
in a real git repository: pre-commit clones a snapshot of this working tree
(so uncommitted changes are tested too), pip installs it into its own
virtualenv once per session, and `git commit` runs the hooks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install '.[test]')")
if shutil.which("git") is None:  # pragma: no cover
    pytest.skip("git is not installed", allow_module_level=True)

CUDA = """\
#include <cuda_runtime.h>
int main() {
  float* d;
  cudaMalloc(&d, 16);
  cudaFree(d);
  return 0;
}
"""

HIP = """\
#include <hip/hip_runtime.h>
int main() {
  float* d;
  hipMalloc(&d, 16);
  return 0;
}
"""


def _git_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("GIT_") or key in ("PYTHONPATH", "VIRTUAL_ENV"):
            del env[key]  # the hooks' own virtualenv, not this checkout, must provide hipify-py
    (home / "gitconfig").touch()
    env.update(
        GIT_CONFIG_GLOBAL=str(home / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Test",
        GIT_AUTHOR_EMAIL="test@example.com",
        GIT_COMMITTER_NAME="Test",
        GIT_COMMITTER_EMAIL="test@example.com",
        PRE_COMMIT_HOME=str(home / "pre-commit"),
        PRE_COMMIT_COLOR="never",
        HIPIFY_PY_CACHE_DIR=str(home / "hipify-cache"),
    )
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, Path]]:
    """(snapshot repository, its commit, home of the session's caches)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout: no snapshot for pre-commit to clone")
    home = tmp_path_factory.mktemp("precommit-home")
    env = _git_env(home)
    snapshot = tmp_path_factory.mktemp("hook-repo")
    for name in listed.stdout.decode().split("\0"):
        source = REPO / name
        if name and source.is_file():
            target = snapshot / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    assert (snapshot / ".pre-commit-hooks.yaml").is_file()
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "snapshot"]):
        done = _git(snapshot, env, *args)
        assert done.returncode == 0, done.stderr
    rev = _git(snapshot, env, "rev-parse", "HEAD").stdout.strip()
    yield snapshot, rev, home


@pytest.fixture
def project(tmp_path: Path, hook_repo: tuple[Path, str, Path]) -> tuple[Path, dict[str, str]]:
    """A git repository whose .pre-commit-config.yaml uses both hooks, installed."""
    snapshot, rev, home = hook_repo
    env = _git_env(home)
    repo = tmp_path / "project"
    repo.mkdir()
    assert _git(repo, env, "init", "-q").returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {snapshot}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: hipify-py\n"
        "      - id: hipify-py-check\n"
    )
    installed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "--install-hooks"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    _git(repo, env, "add", ".pre-commit-config.yaml")
    first = _git(repo, env, "commit", "-q", "-m", "pre-commit configuration")
    assert first.returncode == 0, first.stdout + first.stderr
    return repo, env


def _commits(repo: Path, env: dict[str, str]) -> int:
    return int(_git(repo, env, "rev-list", "--count", "HEAD").stdout)


def test_check_hook_blocks_cuda_then_translate_hook_fixes_it(
    project: tuple[Path, dict[str, str]],
) -> None:
    repo, env = project
    (repo / "src").mkdir()
    (repo / "src" / "kernel.cu").write_text(CUDA)
    _git(repo, env, "add", "src/kernel.cu")

    # only the check: the commit is refused, naming file:line and the CUDA name
    checked = _git(repo, env | {"SKIP": "hipify-py"}, "commit", "-m", "cuda")
    output = checked.stdout + checked.stderr
    assert checked.returncode != 0, output
    assert "hipify-py-check" in output and "Failed" in output
    assert "src/kernel.cu:4:3" in output and "cudaMalloc" in output
    assert "src/kernel.cu:5:3" in output and "cudaFree" in output
    assert _commits(repo, env) == 1

    # both hooks: hipify-py rewrites the file, so pre-commit stops the commit
    translated = _git(repo, env, "commit", "-m", "cuda")
    output = translated.stdout + translated.stderr
    assert translated.returncode != 0, output
    assert "files were modified by this hook" in output
    text = (repo / "src" / "kernel.cu").read_text()
    assert "hipMalloc(&d, 16);" in text and "cudaMalloc" not in text
    assert _commits(repo, env) == 1

    # staged again, the commit goes through with the HIP source
    _git(repo, env, "add", "src/kernel.cu")
    committed = _git(repo, env, "commit", "-m", "hip")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert _commits(repo, env) == 2
    shown = _git(repo, env, "show", "HEAD:src/kernel.cu").stdout
    assert "hipMalloc" in shown and "cuda" not in shown


def test_hip_only_files_pass_both_hooks(project: tuple[Path, dict[str, str]]) -> None:
    repo, env = project
    (repo / "kernel.hip.cpp").write_text(HIP)
    (repo / "notes.txt").write_text("cudaMalloc in prose is not checked\n")
    _git(repo, env, "add", "kernel.hip.cpp", "notes.txt")
    committed = _git(repo, env, "commit", "-m", "hip")
    output = committed.stdout + committed.stderr
    assert committed.returncode == 0, output
    assert output.count("Passed") == 2, output
    assert _commits(repo, env) == 2


def test_unsupported_api_still_blocks_after_translation(
    project: tuple[Path, dict[str, str]],
) -> None:
    repo, env = project
    (repo / "init.cu").write_text("int main() {\n  cudaInitDevice(0, 0, 0);\n  return 0;\n}\n")
    _git(repo, env, "add", "init.cu")
    refused = _git(repo, env, "commit", "-m", "unsupported")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert "init.cu:2:3" in output and "cudaInitDevice" in output and "HPY101" in output
    _git(repo, env, "add", "init.cu")
    again = _git(repo, env, "commit", "-m", "unsupported")
    assert again.returncode != 0 and "cudaInitDevice" in again.stdout + again.stderr
    assert _commits(repo, env) == 1


WARP_SYNC = """\
__global__ void k(float* x) {
  unsigned long long m = __ballot_sync(0xffffffff, x[0] > 0);
  x[0] = m;
}
"""


def test_translate_hook_then_check_hook_pass_for_warp_sync_functions(
    project: tuple[Path, dict[str, str]],
) -> None:
    """The check hook reports what the translate hook changes: once hipify-py has
    translated a file using the _sync warp functions (kept for HIP >= 6.2, the
    default target), restaging it lets the commit through."""
    repo, env = project
    (repo / "k.cu").write_text(WARP_SYNC)
    _git(repo, env, "add", "k.cu")
    first = _git(repo, env, "commit", "-m", "warp")
    output = first.stdout + first.stderr
    assert first.returncode != 0 and "files were modified by this hook" in output, output
    text = (repo / "k.cu").read_text()
    assert "__ballot_sync(0xffffffffffffffffULL" in text
    _git(repo, env, "add", "k.cu")
    second = _git(repo, env, "commit", "-m", "warp")
    output = second.stdout + second.stderr
    assert second.returncode == 0, output
    assert output.count("Passed") == 2, output
    assert _commits(repo, env) == 2


def test_hooks_leave_unstaged_headers_and_configured_excludes_alone(
    project: tuple[Path, dict[str, str]],
) -> None:
    """The hooks act on staged files only: a header the staged source includes is
    not rewritten (--no-project-headers in the hook's entry), and the files the
    configuration excludes (relative to pyproject.toml) are skipped even though
    pre-commit passes them by name."""
    repo, env = project
    header = "inline void h() { cudaDeviceSynchronize(); }\n"
    (repo / "src").mkdir()
    (repo / "tp").mkdir()
    (repo / "src" / "h.cuh").write_text(header)
    (repo / "src" / "s.cu").write_text('#include "h.cuh"\n' + CUDA)
    (repo / "tp" / "t.cu").write_text(CUDA)
    (repo / "pyproject.toml").write_text('[tool.hipify-py]\nexclude = ["tp/"]\n')
    _git(repo, env, "add", "src/s.cu", "tp/t.cu", "pyproject.toml")
    first = _git(repo, env, "commit", "-m", "cuda")
    assert first.returncode != 0, first.stdout + first.stderr
    assert "hipMalloc" in (repo / "src" / "s.cu").read_text()
    assert (repo / "src" / "h.cuh").read_text() == header  # not staged: untouched
    assert (repo / "tp" / "t.cu").read_text() == CUDA  # excluded: untouched
    _git(repo, env, "add", "src/s.cu")
    second = _git(repo, env, "commit", "-m", "hip")
    assert second.returncode == 0, second.stdout + second.stderr
    assert (repo / "src" / "h.cuh").read_text() == header


def _hook_output(output: str, hook_id: str) -> list[str]:
    """The lines a hook printed, without pre-commit's own `- hook id:` lines."""
    lines = output.splitlines()
    start = lines.index(f"- hook id: {hook_id}") + 1
    printed = []
    for line in lines[start:]:
        if line.endswith(("Passed", "Failed", "Skipped")) and "..." in line:
            break  # the next hook's status line
        if line.strip() and not line.startswith("- "):
            printed.append(line)
    return printed


def test_translate_hook_prints_one_line_per_changed_file_and_a_summary(
    project: tuple[Path, dict[str, str]],
) -> None:
    """No summary box on every commit: the translate hook prints one line per file
    it rewrites (with the count of the warnings it does not show) and one
    summary line, as ruff's and black's hooks do."""
    repo, env = project
    (repo / "src").mkdir()
    for name in ("a.cu", "b.cu"):
        (repo / "src" / name).write_text(CUDA)
    (repo / "src" / "c.cu").write_text(CUDA.replace("cudaFree(d);", "cudaFree(d); cudaFooBar();"))
    (repo / "src" / "hip.cpp").write_text(HIP)
    _git(repo, env, "add", "src")
    refused = _git(repo, env, "commit", "-m", "cuda")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0 and "files were modified by this hook" in output, output
    assert _hook_output(output, "hipify-py") == [
        "translated src/a.cu",
        "translated src/b.cu",
        "translated src/c.cu (1 warning)",
        "translated 3 files, 1 unchanged; 1 warning",
    ], output
    assert "summary" not in output


def test_check_hook_prints_one_line_per_finding_and_a_summary(
    project: tuple[Path, dict[str, str]],
) -> None:
    """The check hook runs `check --quiet`: a finding is one `file:line:col` line,
    then one summary line; no per-file headings, hints or library table."""
    repo, env = project
    (repo / "src").mkdir()
    (repo / "src" / "kernel.cu").write_text(CUDA)
    (repo / "src" / "hip.cpp").write_text(HIP)
    _git(repo, env, "add", "src")
    refused = _git(repo, env | {"SKIP": "hipify-py"}, "commit", "-m", "cuda")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    lines = _hook_output(output, "hipify-py-check")
    assert lines and lines[-1].startswith("hipify-py check: 2 files (1 clean)"), output
    assert all(line.startswith("src/kernel.cu:") for line in lines[:-1]), output
    assert any("cudaMalloc" in line for line in lines) and any("cudaFree" in line for line in lines)
    assert "hint:" not in output and "Left to migrate" not in output
