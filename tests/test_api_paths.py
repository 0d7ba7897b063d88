"""The path-level API and the runner's write safety, on a real filesystem."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import hipify_py.project.runner as runner
from hipify_py import Options, translate_paths
from hipify_py.project.files import DiscoveryError
from hipify_py.project.runner import Status

SRC = b"void f() { cudaFree(0); }\n"


def test_translate_paths_in_place_and_reports(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    (tmp_path / "b.cpp").write_bytes(b"int x;\n")
    planned = translate_paths([tmp_path], options=Options(insert_runtime_include=False), jobs=1)
    reports = {Path(r.display).name: r for r in planned.reports()}
    assert reports["a.cu"].status is Status.CHANGED
    assert reports["b.cpp"].status is Status.UNCHANGED
    assert (tmp_path / "a.cu").read_bytes() == b"void f() { hipFree(0); }\n"


def test_translate_paths_check_mode_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    planned = translate_paths([tmp_path / "a.cu"], mode="check")
    (report,) = list(planned.reports())
    assert report.status is Status.CHANGED
    assert (tmp_path / "a.cu").read_bytes() == SRC


def test_output_dir_inside_input_raises(tmp_path: Path) -> None:
    with pytest.raises(DiscoveryError, match="inside the input"):
        translate_paths([tmp_path], mode="output-dir", output_dir=tmp_path / "out")


def test_two_paths_naming_the_same_file_are_processed_once(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_bytes(SRC)
    os.symlink(tmp_path / "a.cu", tmp_path / "link.cu")
    planned = translate_paths([tmp_path / "a.cu", tmp_path / "link.cu", tmp_path], mode="check")
    assert len(planned.discovery.targets) == 1


def test_file_changed_between_read_and_write_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a.cu"
    target.write_bytes(SRC)
    real_translate = runner.translate_bytes

    def translate_while_someone_edits(data: bytes, *args: object) -> object:
        target.write_bytes(b"// edited by someone else meanwhile\n" + SRC)
        return real_translate(data, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "translate_bytes", translate_while_someone_edits)
    (report,) = list(translate_paths([target], jobs=1, use_cache=False).reports())
    assert report.status is Status.ERROR
    assert "changed since it was read" in report.error
    assert target.read_bytes().startswith(b"// edited by someone else")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".hipify-tmp")]


def test_permissions_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "a.cu"
    target.write_bytes(SRC)
    target.chmod(0o640)
    list(translate_paths([target]).reports())
    assert target.stat().st_mode & 0o777 == 0o640
    assert b"hipFree" in target.read_bytes()


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    for i in range(60):
        (tmp_path / f"k{i}.cu").write_bytes(SRC)
    leader, follower = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="100", TERM="xterm")
    proc = subprocess.Popen(
        [sys.executable, "-m", "hipify_py", str(tmp_path), "--check", "-j", "1"],
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert proc.wait(timeout=120) == 1
    seen = b"".join(chunks)
    assert b"translating" in seen
    assert b"summary" in seen


def test_second_run_over_an_unchanged_tree_parses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    tree = tmp_path / "src"
    tree.mkdir()
    for i in range(4):
        (tree / f"k{i}.cu").write_bytes(SRC.replace(b"f()", f"f{i}()".encode()))
    first = [r.diagnostics for r in translate_paths([tree], mode="check", jobs=1).reports()]
    import hipify_py.engine.translate as engine

    calls = []
    real_parse = engine.parse
    monkeypatch.setattr(engine, "parse", lambda data: calls.append(data) or real_parse(data))
    second = [r.diagnostics for r in translate_paths([tree], mode="check", jobs=2).reports()]
    assert second == first
    assert calls == []
    (tree / "k0.cu").write_bytes(SRC + b"// changed\n")
    list(translate_paths([tree], mode="check", jobs=1).reports())
    assert len(calls) == 1  # only the changed file


def test_corrupt_cache_entries_are_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "a.cu").write_bytes(SRC)
    list(translate_paths([tmp_path / "a.cu"], mode="check").reports())
    entries = list((tmp_path / "cache" / "results").rglob("*.pickle"))
    assert entries
    for entry in entries:
        entry.write_bytes(b"garbage")
    (report,) = list(translate_paths([tmp_path / "a.cu"], mode="check").reports())
    assert report.status is Status.CHANGED


def test_cache_key_does_not_depend_on_the_hash_seed() -> None:
    code = "from hipify_py import Options; print(Options(known_names=frozenset({'cudaA', 'cudaB', 'cudaC', 'cudaD'})).cache_key())"
    keys = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(REPO)),
        )
        keys.add(done.stdout)
    assert len(keys) == 1
