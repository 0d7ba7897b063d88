"""Issue 8, item 5: a long run shows progress on a terminal, and Ctrl-C stops
it promptly with a summary of what was done (real processes, a real pty; the
20,000-file memory numbers come from benchmarks/scale.py)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from conftest import REPO

SOURCE = b"""#include <cuda_runtime.h>
void run%d(float* d) { cudaMalloc((void**)&d, 64); cudaFree(d); }
"""
FILES = 1500


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "src"
    tree.mkdir()
    for i in range(FILES):
        (tree / f"k{i:04d}.cu").write_bytes(SOURCE.replace(b"%d", b"%d" % i))
    return tree


def _translated(tree: Path) -> int:
    count = 0
    for path in tree.iterdir():
        if path.name.endswith(".cu"):  # not a temporary file, which may vanish
            count += b"hipMalloc" in path.read_bytes()
    return count


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="100", TERM="xterm")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigint_stops_promptly_with_a_summary(big_tree: Path, jobs: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hipify_py", str(big_tree), "--no-cache", "-j", jobs],
        env=_env(),
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while _translated(big_tree) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert took < 5, f"stopping took {took:.1f} s"
    text = err.decode()
    assert "stopping after the files in hand" in text
    assert "hipify-py summary (in-place)" in text
    found = re.search(
        r"interrupted: (\d+) of (\d+) file\(s\) done \((\d+) written\), (\d+) not", text
    )
    assert found is not None, text
    done, total, written, left = map(int, found.groups())
    assert total == FILES and done + left == FILES and 0 < written < FILES
    assert _translated(big_tree) == written  # the summary tells the truth
    again = subprocess.run(
        [sys.executable, "-m", "hipify_py", str(big_tree), "-q", "-j", jobs],
        env=_env(),
        capture_output=True,
    )
    assert again.returncode == 0, again.stderr
    assert _translated(big_tree) == FILES


def test_ctrl_c_on_a_terminal_with_progress_bar(big_tree: Path) -> None:
    """The bar on a real pty, and a real Ctrl-C typed on it: the terminal sends
    SIGINT to the whole process group, workers included."""
    leader, follower = pty.openpty()

    def controlling_tty() -> None:
        os.setsid()
        fcntl.ioctl(follower, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [sys.executable, "-m", "hipify_py", str(big_tree), "--no-cache", "-j", "2"],
        stdin=follower,
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=_env(),
        preexec_fn=controlling_tty,
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 120
    typed = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        if typed is None and b"translating" in seen and _translated(big_tree) >= 20:
            os.write(leader, b"\x03")  # Ctrl-C, as typed
            typed = time.monotonic()
        if proc.poll() is not None and not ready:
            break
    code = proc.wait(timeout=60)
    os.close(leader)
    assert typed is not None, seen[-2000:]
    assert code == 130, seen[-2000:]
    text = seen.decode("utf-8", "replace")
    assert re.search(r"translating.*\d+/1500", text), "a progress bar with counts"
    assert "interrupted: " in text and "not processed" in text
    assert b"Traceback" not in seen, "workers ignore the terminal's SIGINT"


def test_no_progress_bar_when_stderr_is_not_a_terminal(big_tree: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hipify_py", str(big_tree), "--check", "-j", "2"],
        env=_env(),
        capture_output=True,
    )
    assert done.returncode == 1
    assert b"translating" not in done.stderr and b"summary" in done.stderr
