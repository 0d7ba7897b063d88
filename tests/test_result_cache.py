"""The content-hash result cache, through the real CLI: corrupt or edited
entries are never served (nor unpickled), and a change to hipify-py's own code
under the same version never reuses a stale result."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

from conftest import REPO, run_cli

SOURCE = b"int main() {\n  float* d;\n  cudaMalloc(&d, 16);\n  return 0;\n}\n"


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "results").rglob("*.pickle"))


def _translate(folder: Path, cache: Path, **env: str) -> bytes:
    done = run_cli(
        "k.cu",
        "--stdout",
        "--no-runtime-include",
        cwd=folder,
        env={"HIPIFY_PY_CACHE_DIR": str(cache), **env},
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def test_an_entry_edited_in_place_is_not_served(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_bytes(SOURCE)
    cache = tmp_path / "cache"
    assert b"hipMalloc(&d, 16);" in _translate(tmp_path, cache)
    edited = 0
    for entry in _entries(cache):
        data = entry.read_bytes()
        if b"hipMalloc" in data:  # a same-length edit inside the pickled output
            entry.write_bytes(data.replace(b"hipMalloc", b"hipMallXc"))
            edited += 1
    assert edited
    output = _translate(tmp_path, cache)
    assert b"hipMalloc(&d, 16);" in output and b"hipMallXc" not in output


class _Marker:
    """Unpickling this creates a file: proof that an entry was unpickled."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.path, "w"))


def test_a_tampered_entry_is_never_unpickled(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_bytes(SOURCE)
    cache = tmp_path / "cache"
    _translate(tmp_path, cache)
    marker = tmp_path / "unpickled"
    entries = _entries(cache)
    assert entries
    for entry in entries:
        data = entry.read_bytes()
        payload = pickle.dumps(_Marker(str(marker)))
        # keep whatever header the entry has, replace what follows it
        start = data.find(b"\x80")  # a pickle (protocol >= 2) starts with PROTO
        entry.write_bytes(data[: max(start, 0)] + payload)
    output = _translate(tmp_path, cache)
    assert b"hipMalloc(&d, 16);" in output
    assert not marker.exists()


def test_a_code_change_under_the_same_version_misses_the_cache(tmp_path: Path) -> None:
    """A copy of the package whose code changes (same __version__): the second
    run does not reuse the first run's entry."""
    copy = tmp_path / "copy"
    shutil.copytree(
        REPO / "hipify_py", copy / "hipify_py", ignore=shutil.ignore_patterns("__pycache__")
    )
    work = tmp_path / "work"
    work.mkdir()
    (work / "k.cu").write_bytes(SOURCE)
    cache = tmp_path / "cache"
    env = {"PYTHONPATH": str(copy), "HIPIFY_PY_MAPPINGS": str(REPO / "mappings")}
    first = _translate(work, cache, **env)
    before = _entries(cache)
    assert before
    assert _translate(work, cache, **env) == first
    assert _entries(cache) == before  # unchanged code: a hit, nothing new stored
    rule = copy / "hipify_py" / "rules" / "identifiers.py"
    rule.write_text(rule.read_text() + "\n# a change to the translator's code\n")
    assert _translate(work, cache, **env) == first
    assert len(_entries(cache)) > len(before)  # a miss: translated again and stored
