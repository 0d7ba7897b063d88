"""An internal error keeps its traceback: on the file's result, printed by
`-v`, a field of `--format json`, and not printed without `-v`.  The CLI runs
in-process (click's runner) so that one rule can be made to raise."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hipify_py.cli.app import cli
from hipify_py.project import runner
from hipify_py.rules import cxx17

KERNEL = "__global__ void k(float* p) { register int i = 0; p[i] = 1; }\n"
OTHER = "void f() { cudaDeviceSynchronize(); }\n"


def _boom(*_: object) -> object:
    raise RuntimeError("boom in a rule")


@pytest.fixture
def broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    # the cxx17 rule's search for `register` raises, as a bug in a rule would
    monkeypatch.setattr(cxx17, "_specifiers", _boom)


def _run(tmp_path: Path, *args: str) -> Result:
    # run from the files' folder and name them relative to it: what the
    # messages print then does not depend on where the checkout lives (a
    # clone under the system's temporary folder shares a parent with
    # tmp_path, and hipify-py would print a relative path)
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "other.cu").write_text(OTHER)
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        return CliRunner().invoke(
            cli, ["k.cu", "other.cu", "--diff", "--no-cache", "-j", "1", *args]
        )
    finally:
        os.chdir(before)


@pytest.mark.usefixtures("broken_rule")
def test_verbose_prints_the_traceback(tmp_path: Path) -> None:
    result = _run(tmp_path, "-v")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    err = result.stderr
    assert "internal error: RuntimeError: boom in a rule; the file was left unchanged" in err
    assert "[HPY001]" in err
    assert "k.cu: the internal error's traceback (for a bug report):" in err
    assert "Traceback (most recent call last):" in err
    assert 'rules/cxx17.py", line' in err  # the frame of the rule that raised
    assert "RuntimeError: boom in a rule" in err.split("Traceback (most recent call last):")[1]
    # the other file is translated as usual, and without a traceback
    assert "hipDeviceSynchronize" in result.stdout
    assert err.count("Traceback (most recent call last):") == 1


@pytest.mark.usefixtures("broken_rule")
def test_without_verbose_no_traceback(tmp_path: Path) -> None:
    result = _run(tmp_path)
    err = result.stderr
    assert "internal error: RuntimeError: boom in a rule" in err
    assert "Traceback" not in err
    assert "k.cu: -v prints the internal error's traceback" in err


@pytest.mark.usefixtures("broken_rule")
def test_json_has_the_traceback_field(tmp_path: Path) -> None:
    result = _run(tmp_path, "--format", "json")
    report = json.loads(result.stdout)
    files = {Path(f["path"]).name: f for f in report["files"]}
    broken, other = files["k.cu"], files["other.cu"]
    assert broken["traceback"].startswith("Traceback (most recent call last):")
    assert broken["traceback"].rstrip().endswith("RuntimeError: boom in a rule")
    assert "rules/cxx17.py" in broken["traceback"]
    assert [d["code"] for d in broken["diagnostics"]] == ["HPY001"]
    assert "traceback" not in other
    assert "Traceback" not in result.stderr  # JSON mode prints no text diagnostics


def test_an_unexpected_failure_in_the_runner_is_the_files_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside the engine (here: making the diff) an exception fails that file,
    with its traceback, and the run goes on."""
    real = runner.unified_diff

    def diff(data: bytes, *args: object) -> str:
        if b"register" in data:
            raise ValueError("boom in the runner")
        return real(data, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "unified_diff", diff)
    result = _run(tmp_path, "-v", "--format", "json")
    assert result.exit_code == 2
    files = {Path(f["path"]).name: f for f in json.loads(result.stdout)["files"]}
    broken = files["k.cu"]
    assert broken["status"] == "error"
    assert broken["error"] == (
        "internal error: ValueError: boom in the runner (please report it as a bug)"
    )
    assert broken["traceback"].rstrip().endswith("ValueError: boom in the runner")
    assert "in diff" in broken["traceback"]
    assert files["other.cu"]["status"] == "changed"
    text = _run(tmp_path, "-v")
    assert "error: internal error: ValueError: boom in the runner" in text.stderr
    assert "Traceback (most recent call last):" in text.stderr
