"""The code standards are part of the suite: ruff-clean, mypy-clean, and the
wheel ships the YAML tables."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO


def _tool(name: str) -> list[str]:
    return [sys.executable, "-m", name]


CODE = ["hipify_py", "tests", "tools", "benchmarks", "hip_smoke", "fuzz"]


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [*_tool("ruff"), "check", *CODE], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = subprocess.run(
        [*_tool("ruff"), "format", "--check", *CODE], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = subprocess.run([*_tool("mypy")], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_wheel_ships_the_tables(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(
        REPO, src, ignore=shutil.ignore_patterns(".git", "*.egg-info", "build", "__pycache__")
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(src),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = (tmp_path / "dist").glob("hipify_py-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names if n.startswith("hipify_py/mappings/")}
    expected = {p.name for p in (REPO / "mappings").glob("*.yaml")}
    assert expected and expected <= shipped
    assert "hipify_py/py.typed" in names
    # every subpackage ships (the clang engine lives in hipify_py.semantic)
    packages = {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "hipify_py").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert packages <= set(names), sorted(packages - set(names))
    # the data files the code reads (the mapping schema, the C++ word lists, ...)
    data = {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "hipify_py" / "data").glob("*")
        if p.is_file()
    }
    assert "hipify_py/data/mappings.schema.json" in data
    assert data <= set(names), sorted(data - set(names))
    assert any(n.endswith("entry_points.txt") for n in names)


def test_diagnostics_docs_are_up_to_date() -> None:
    from hipify_py.report.diagnostics_doc import markdown

    committed = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert committed == markdown(), "stale: run hipify-py diagnostics --write-docs"


def test_every_code_is_documented_with_a_summary() -> None:
    from hipify_py.rules.catalogue import CATALOGUE

    for entry in CATALOGUE.values():
        assert entry.summary and entry.name, entry.code
        if entry.severity.value != "info":
            assert entry.why or entry.fix, f"{entry.code} needs why/fix text"
