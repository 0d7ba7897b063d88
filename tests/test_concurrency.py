"""Issue 8, item 4: two real hipify-py processes on one tree, and --jobs N
against --jobs 1 on a real tree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO, run_cli

SOURCE = b"""#include <cuda_runtime.h>
__global__ void scale%d(float* x) { x[threadIdx.x] *= 2.0f; }
void run%d(float* d) { cudaMalloc((void**)&d, 64); scale%d<<<1, 64>>>(d); cudaFree(d); }
"""


def _tree(root: Path, files: int) -> Path:
    (root / "sub").mkdir(parents=True)
    for i in range(files):
        folder = root / "sub" if i % 2 else root
        (folder / f"k{i:03d}.cu").write_bytes(SOURCE.replace(b"%d", b"%d" % i))
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _start(tree: Path, *args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="120")
    return subprocess.Popen(
        [sys.executable, "-m", "hipify_py", str(tree), "--no-cache", "-q", *args],
        env=env,
        stderr=subprocess.PIPE,
    )


def _wait_until_writing(
    tree: Path, before: dict[str, bytes], proc: subprocess.Popen[bytes]
) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if any((tree / n).read_bytes() != data for n, data in list(before.items())[:40]):
            return
        time.sleep(0.005)
    raise AssertionError("the first run never started writing")


def test_a_second_run_on_the_same_tree_is_refused(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "src", 1200)  # about 10 s of work for the first run
    reference = tmp_path / "reference"
    shutil.copytree(tree, reference)
    assert run_cli(str(reference), "--no-cache", "-q").returncode == 0
    before = _snapshot(tree)

    first = _start(tree, "-j", "1")
    _wait_until_writing(tree, before, first)
    others = {
        "same": _start(tree),
        "inner": _start(tree / "sub"),
        "outer": _start(tmp_path),
        "check": _start(tree, "--check"),  # writes nothing: not locked
    }
    # communicate, not wait: --quiet prints a line per file, more than a pipe holds
    results = {}
    for name, run in others.items():
        _, errors = run.communicate(timeout=300)
        results[name] = (run.returncode, errors)
    assert first.poll() is None, "the first run should still be writing (make the tree larger)"
    _, first_errors = first.communicate(timeout=300)
    assert first.returncode == 0, first_errors
    same, inner, outer, check = (
        subprocess.CompletedProcess([], code, b"", err) for code, err in results.values()
    )
    pid = f"(pid {first.pid})".encode()
    assert same.returncode == 2
    assert b"another hipify-py run " + pid + b" is writing to it" in same.stderr
    assert inner.returncode == 2
    assert b"another hipify-py run " + pid + b" is writing to " + str(tree).encode() in (
        inner.stderr
    )
    assert outer.returncode == 2
    assert b"another hipify-py run is writing to a folder inside it" in outer.stderr
    # --check reads while the first run writes: a file replaced under it is reported
    errors = [line for line in check.stderr.splitlines() if b": error: " in line]
    assert all(b"changed while being read" in line for line in errors), check.stderr
    assert check.returncode in (0, 1) or errors
    assert _snapshot(tree) == _snapshot(reference)
    # the lock went with the first run: the tree can be translated (nothing left to do)
    assert run_cli(str(tree), "--no-cache", "-q").returncode == 0


def test_two_runs_started_together_never_corrupt(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "src", 200)
    reference = tmp_path / "reference"
    shutil.copytree(tree, reference)
    assert run_cli(str(reference), "--no-cache", "-q").returncode == 0
    original = _snapshot(tree)
    outcomes = set()
    for _ in range(3):
        runs = [_start(tree, "-j", "2"), _start(tree, "-j", "2")]
        for run in runs:
            run.communicate(timeout=300)
        codes = sorted(run.returncode for run in runs)
        outcomes.add(tuple(codes))
        assert codes in ([0, 0], [0, 2]), codes  # one refused, or one came after the other
        assert _snapshot(tree) == _snapshot(reference)
        for name, data in original.items():
            (tree / name).write_bytes(data)
    assert (0, 2) in outcomes


def test_jobs_n_is_byte_identical_to_jobs_1(tmp_path: Path) -> None:
    """A real tree: the repository's fixtures and hip_smoke samples (CUDA
    projects with headers, macros, templates, launches), in folders."""
    tree = tmp_path / "real"
    for folder in sorted((REPO / "fixtures").iterdir()):
        for file in folder.glob("input.*"):
            target = tree / "fixtures" / f"{folder.name}{file.suffix}"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(file, target)
    shutil.copytree(REPO / "hip_smoke" / "samples", tree / "samples")
    outputs = {}
    for jobs in ("1", "2", "4"):
        out = tmp_path / f"out{jobs}"
        done = run_cli(
            str(tree), "-o", str(out), "-j", jobs, "--no-cache", "--report-format", "json"
        )
        assert done.returncode in (0, 2), done.stderr
        report = json.loads(done.stdout)
        for entry in report["files"]:
            entry.pop("written", None)  # the output folder's name
        outputs[jobs] = (_snapshot(out), report["files"], report["summary"])
    assert len(outputs["1"][0]) > 150
    assert outputs["2"] == outputs["1"]
    assert outputs["4"] == outputs["1"]
