"""What a command writes to stdout does not depend on stderr being a terminal
(issue 13, items 1 and 9): with a real pty on stderr and a tree large enough
for the progress bar, translate, check and report draw the bar on the terminal
and write to stdout exactly the bytes they write without one (the bar once
sent `--diff > x.diff` to the terminal, leaving an empty file)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from hipify_py.progress import MIN_FILES

SOURCE = """\
#include <cuda_runtime.h>
__global__ void k%d(int* lane) { asm volatile("mov.u32 %%0, %%%%laneid;" : "=r"(*lane)); }
void run%d(float* d) {
  cudaMalloc((void**)&d, 64);
  cudaFooBarNotAnApi%d();
  cudaFree(d);
}
"""
FILES = MIN_FILES + 10

_ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("streams") / "src"
    root.mkdir()
    for i in range(FILES):
        (root / f"k{i:03d}.cu").write_text(SOURCE % (i, i, i))
    return root


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="100", TERM="xterm")


def _read_all(leader: int) -> bytes:
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def _run(args: list[str], tmp_path: Path, *, tty: bool) -> tuple[int, bytes, bytes]:
    """(exit code, stdout as written to a file, stderr as the terminal or a pipe got it)."""
    out = tmp_path / f"stdout-{'tty' if tty else 'pipe'}"
    with out.open("wb") as stdout:
        if not tty:
            done = subprocess.run(
                [sys.executable, "-m", "hipify_py", *args],
                stdout=stdout,
                stderr=subprocess.PIPE,
                env=_env(),
                timeout=300,
            )
            return done.returncode, out.read_bytes(), done.stderr
        leader, follower = pty.openpty()
        proc = subprocess.Popen(
            [sys.executable, "-m", "hipify_py", *args],
            stdout=stdout,
            stderr=follower,
            env=_env(),
        )
        os.close(follower)
        seen = _read_all(leader)
        os.close(leader)
        return proc.wait(timeout=300), out.read_bytes(), seen


def _screen_lines(seen: bytes) -> set[str]:
    """The lines a terminal received, without escape sequences and bar redraws."""
    text = _ANSI.sub(b"", seen).decode("utf-8", "replace")
    return {line.strip() for line in re.split(r"[\r\n]", text) if line.strip()}


MODES = {
    "diff": ([], "--diff", "translating"),
    "json": ([], "--diff --report-format json", "translating"),
    "list-asm": ([], "--list-asm", "scanning"),
    "check-text": (["check"], "--format text", "checking"),
    "check-json": (["check"], "--format json", "checking"),
    "check-sarif": (["check"], "--format sarif", "checking"),
    "check-github": (["check"], "--format github", "checking"),
    "check-junit": (["check"], "--format junit", "checking"),
    "report-md": (["report"], "--format md", "analysing"),
    "report-json": (["report"], "--format json", "analysing"),
    "report-html": (["report"], "--format html", "analysing"),
}


@pytest.mark.parametrize("mode", list(MODES))
def test_stdout_is_the_same_with_a_terminal_on_stderr(
    mode: str, tree: Path, tmp_path: Path
) -> None:
    command, flags, label = MODES[mode]
    args = [*command, str(tree), *flags.split(), "-j", "1"]
    code, piped, errors = _run(args, tmp_path, tty=False)
    tty_code, on_tty, screen = _run(args, tmp_path, tty=True)
    assert piped, errors.decode()
    assert on_tty == piped, screen[-3000:].decode("utf-8", "replace")
    assert tty_code == code
    # the bar was drawn on the terminal, and never without one
    assert re.search(rf"{label}.*\d+/{FILES}".encode(), _ANSI.sub(b"", screen)), screen[-2000:]
    assert label.encode() not in errors
    # every line the command wrote to stderr meanwhile reached the terminal whole
    lines = _screen_lines(screen)
    lost = [line for line in errors.decode().splitlines() if line.strip() not in lines]
    assert not [line for line in lost if line.strip()], lost[:5]


def test_diagnostics_printed_during_the_bar_reach_the_terminal(tree: Path, tmp_path: Path) -> None:
    """`hipify-py --diff TREE > x.diff` on a terminal: the diagnostics of every
    file are shown above the bar, each on a line of its own (the first one
    printed once ran into the bar's line)."""
    _, _, screen = _run([str(tree), "--diff", "-j", "1"], tmp_path, tty=True)
    lines = _screen_lines(screen)
    for i in range(FILES):
        for whole in (
            rf"\S*/k{i:03d}\.cu:2:\d+: error: inline PTX .*\[HPY501\]",
            rf"\S*/k{i:03d}\.cu:5:3: warning: cudaFooBarNotAnApi.*\[HPY102\]",
        ):
            assert any(re.fullmatch(whole, line) for line in lines), (i, whole)
    assert any(line.startswith("hipify-py summary (diff)") for line in lines)


def test_stdout_on_the_same_terminal_is_shown_above_the_bar(tree: Path) -> None:
    """stdout and stderr on one terminal (`hipify-py --diff TREE` typed at a
    prompt): the diff is printed above the bar, not erased by its redraws."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hipify_py", str(tree), "--diff", "-j", "1"],
        stdout=follower,
        stderr=follower,
        env=_env(),
    )
    os.close(follower)
    seen = _read_all(leader)
    os.close(leader)
    assert proc.wait(timeout=300) == 0
    assert b"translating" in seen
    lines = _screen_lines(seen)
    for i in range(FILES):
        for header in (rf"--- a/\S*/k{i:03d}\.cu", rf"\+\+\+ b/\S*/k{i:03d}\.cu"):
            assert any(re.fullmatch(header, line) for line in lines), (i, header)
    assert "+  hipMalloc((void**)&d, 64);" in lines


def test_check_and_report_show_no_bar_below_the_threshold(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    for i in range(3):
        (small / f"k{i}.cu").write_text(SOURCE % (i, i, i))
    for command, label in (("check", b"checking"), ("report", b"analysing")):
        _, out, screen = _run([command, str(small), "-j", "1"], tmp_path, tty=True)
        assert out and label not in screen
