"""What a command writes to stdout does not depend on stderr being a terminal
(issue 13, items 1 and 9): with a real pty on stderr and a tree large enough
for the progress bar, translate, check and report draw the bar on the terminal
and write to stdout exactly the bytes they write without one (the bar once
sent `--diff > x.diff` to the terminal, leaving an empty file).  And what
--quiet leaves on stderr (item 12): one line per changed file, one summary
line, errors in full."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from hipify_py.cli.progress import MIN_FILES

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


# --quiet (issue 13, item 12): one line per changed file and one summary line,
# as ruff and black print; error diagnostics are still printed in full.

QUIET_TREE = {
    # translated, with an unsupported API (error) and an unknown CUDA-like name (warning)
    "a.cu": "#include <cuda_runtime.h>\n"
    "void f() { cudaFree(0); cudaInitDevice(0, 0, 0); cudaFooBarNotAnApi(); }\n",
    "b.cu": "int unchanged;\n",
    "c.cu": "#include <cuda_runtime.h>\nvoid g() { cudaFree(0); }\n",
}
ERROR_LINES = [
    "src/a.cu:2:25: error: cudaInitDevice has no HIP equivalent (runtime, Device Management); "
    "left unchanged [HPY101]",
    "    hint: port this use by hand",
]


@pytest.fixture
def quiet_tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    for name, text in QUIET_TREE.items():
        (tmp_path / "src" / name).write_text(text)
    return tmp_path


def _lines(data: bytes) -> list[str]:
    return data.decode().splitlines()


def test_quiet_prints_one_line_per_changed_file_and_one_summary_line(quiet_tree: Path) -> None:
    checked = run_cli("src", "--check", "-q", cwd=quiet_tree)
    assert checked.returncode == 1
    assert _lines(checked.stderr) == [
        *ERROR_LINES,
        "would translate src/a.cu (1 warning)",  # the warning --quiet hides is counted
        "would translate src/c.cu",
        "would translate 2 files, 1 unchanged; 1 error, 1 warning",
    ]
    assert checked.stdout == b""
    translated = run_cli("src", "-q", cwd=quiet_tree)
    assert translated.returncode == 0
    assert _lines(translated.stderr) == [
        *ERROR_LINES,
        "translated src/a.cu (1 warning)",
        "translated src/c.cu",
        "translated 2 files, 1 unchanged; 1 error, 1 warning",
    ]
    assert "hipFree(0)" in (quiet_tree / "src" / "c.cu").read_text()
    again = run_cli("src", "-q", cwd=quiet_tree)  # the error is at 2:24 in the HIP source
    assert _lines(again.stderr) == [
        ERROR_LINES[0].replace(":2:25:", ":2:24:"),
        ERROR_LINES[1],
        "3 files unchanged; 1 error, 1 warning",
    ]


def test_quiet_diff_keeps_the_diff_on_stdout_and_one_summary_line(quiet_tree: Path) -> None:
    loud = run_cli("src", "--diff", cwd=quiet_tree)
    quiet = run_cli("src", "--diff", "-q", cwd=quiet_tree)
    assert quiet.returncode == loud.returncode == 0
    assert quiet.stdout == loud.stdout and b"+void g() { hipFree(0); }" in quiet.stdout
    assert _lines(quiet.stderr) == [
        *ERROR_LINES,
        "would translate 2 files, 1 unchanged; 1 error, 1 warning",
    ]


def test_quiet_summary_counts_skipped_and_failed_files(quiet_tree: Path) -> None:
    (quiet_tree / "src" / "d.cu").write_bytes(b"\x00\x01binary\x00")
    (quiet_tree / "src" / "c.cu").chmod(0o444)  # read-only: left as it is, an error
    done = run_cli("src", "-q", "--ignore", "HPY101,HPY102", cwd=quiet_tree)
    assert done.returncode == 2
    assert _lines(done.stderr) == [
        "translated src/a.cu",
        "src/c.cu: error: cannot write: file is read-only; the file was left as it was",
        "translated 1 file, 1 unchanged, 1 skipped (not source text), 1 failed; 1 warning",
    ]


def test_quiet_with_stats_prints_the_full_tables(quiet_tree: Path) -> None:
    done = run_cli("src", "--check", "-q", "--stats", cwd=quiet_tree)
    err = done.stderr.decode()
    assert "hipify-py summary (check)" in err and "references by library" in err


def test_quiet_stdout_prints_only_errors(quiet_tree: Path) -> None:
    done = run_cli("src/a.cu", "--stdout", "-q", cwd=quiet_tree)
    assert _lines(done.stderr) == ERROR_LINES
    assert b"hipFree(0)" in done.stdout


def test_quiet_summary_counts_a_missing_path(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_text("void f() { cudaDeviceSynchronize(); }\n")
    done = run_cli("-q", str(tmp_path / "k.cu"), str(tmp_path / "gone.cu"), "--no-cache")
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert "gone.cu" in lines[0] and "error" in lines[0]
    assert lines[-1].startswith("translated 1 file, 1 path not found"), lines
