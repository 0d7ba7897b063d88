"""Golden fixtures: every folder under fixtures/ is one CUDA input, the exact
HIP output it must translate to, and the diagnostics it must report.

    fixtures/NNN-short-name/input.<cu|cuh|cpp|h>
    fixtures/NNN-short-name/expected.<hip|cuh|cpp|h>   (.cu -> .hip, else the same)
    fixtures/NNN-short-name/meta.yaml                  description, options, diagnostics, compile

The expected outputs are reviewed by hand: they say what a correct CUDA -> HIP
translation is, not what the engine happens to print.  ``tools/update_fixture.py``
shows the engine's current output for a fixture (and writes it only with --write).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from hipify_py import Options, load_table, translate_bytes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MIN_FIXTURES = 40
INPUT_EXTENSIONS = {".cu": ".hip", ".cuh": ".cuh", ".cpp": ".cpp", ".h": ".h"}
COMPILE_KINDS = {"tu", "header", "none"}
FOLDER_NAME = re.compile(r"\d{3}-[a-z0-9]+(?:-[a-z0-9]+)*\Z")
DIAGNOSTIC = re.compile(r"HPY\d{3} (\d+):(\d+)\Z")


def fixture_dirs() -> list[Path]:
    if not FIXTURES.is_dir():
        return []
    return sorted(p for p in FIXTURES.iterdir() if p.is_dir() and not p.name.startswith("."))


def input_file(folder: Path) -> Path:
    found = sorted(folder.glob("input.*"))
    assert len(found) == 1, f"{folder.name}: expected exactly one input.* file, found {found}"
    return found[0]


def expected_file(folder: Path) -> Path:
    source = input_file(folder)
    return folder / ("expected" + INPUT_EXTENSIONS[source.suffix])


def read_meta(folder: Path) -> dict[str, Any]:
    meta = yaml.safe_load((folder / "meta.yaml").read_text(encoding="utf-8"))
    assert isinstance(meta, dict), f"{folder.name}/meta.yaml is not a mapping"
    return meta


def options_of(meta: dict[str, Any]) -> Options:
    return Options.from_kwargs(**(meta.get("options") or {}))


def diagnostics_of(result: Any) -> list[str]:
    ordered = sorted(result.diagnostics, key=lambda d: (d.line, d.column, d.code))
    return [f"{d.code} {d.line}:{d.column}" for d in ordered]


def _visible(line: str) -> str:
    """A line as the diff shows it: line endings and odd bytes made visible."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    shown = body.encode("unicode_escape").decode("ascii") if not body.isprintable() else body
    return shown + {"\r\n": "\\r\\n", "\n": "", "\r": "\\r", "": "\\ no newline at end"}.get(
        ending, ending.encode("unicode_escape").decode("ascii")
    )


def byte_diff(expected: bytes, actual: bytes, name: str) -> str:
    # latin-1 keeps one character per byte, so nothing is hidden or merged
    want = expected.decode("latin-1").splitlines(keepends=True)
    got = actual.decode("latin-1").splitlines(keepends=True)
    lines = difflib.unified_diff(
        [_visible(x) for x in want],
        [_visible(x) for x in got],
        fromfile=f"{name} (expected)",
        tofile=f"{name} (actual)",
        lineterm="",
    )
    return "\n".join(lines)


def list_diff(expected: list[str], actual: list[str]) -> str:
    return "\n".join(
        difflib.unified_diff(
            expected, actual, "diagnostics (expected)", "diagnostics (actual)", lineterm=""
        )
    )


DIRS = fixture_dirs()


@pytest.mark.parametrize("folder", DIRS, ids=[d.name for d in DIRS])
def test_golden(folder: Path) -> None:
    meta = read_meta(folder)
    options = options_of(meta)
    table = load_table()
    source = input_file(folder)
    target = expected_file(folder)
    data = source.read_bytes()
    expected = target.read_bytes()
    problems: list[str] = []

    result = translate_bytes(data, table, options)
    if result.data != expected:
        problems.append(
            "output differs from "
            + target.name
            + ":\n"
            + byte_diff(expected, result.data, target.name)
        )
    got = diagnostics_of(result)
    want = list(meta.get("diagnostics") or [])
    if got != want:
        messages = "\n".join(
            f"  {d.code} {d.line}:{d.column} {d.message}"
            for d in sorted(result.diagnostics, key=lambda d: (d.line, d.column))
        )
        problems.append(
            "diagnostics differ:\n"
            + list_diff(want, got)
            + ("\nreported:\n" + messages if messages else "")
        )

    again = translate_bytes(expected, table, options)
    if again.data != expected:
        problems.append(
            "not idempotent: translating "
            + target.name
            + " again changes it:\n"
            + byte_diff(expected, again.data, target.name)
        )

    if problems:
        pytest.fail(
            f"{folder.name}: {meta.get('description', '')}\n\n" + "\n\n".join(problems),
            pytrace=False,
        )


def test_fixture_layout() -> None:
    assert len(DIRS) >= MIN_FIXTURES, (
        f"only {len(DIRS)} fixtures in {FIXTURES}; want {MIN_FIXTURES}+"
    )
    numbers: set[str] = set()
    for folder in DIRS:
        name = folder.name
        assert FOLDER_NAME.match(name), f"{name}: folder names are NNN-short-name"
        assert name[:3] not in numbers, f"{name}: number {name[:3]} used twice"
        numbers.add(name[:3])
        files = {p.name for p in folder.iterdir()}
        source = input_file(folder)
        assert source.suffix in INPUT_EXTENSIONS, f"{name}: unexpected input type {source.name}"
        target = expected_file(folder)
        assert target.name in files, f"{name}: missing {target.name}"
        assert "meta.yaml" in files, f"{name}: missing meta.yaml"
        extra = files - {source.name, target.name, "meta.yaml"}
        assert not extra, f"{name}: unexpected files {sorted(extra)}"

        meta = read_meta(folder)
        assert set(meta) == {"description", "options", "diagnostics", "compile"}, (
            f"{name}/meta.yaml keys: {sorted(meta)}"
        )
        description = meta["description"]
        assert isinstance(description, str) and description.strip(), f"{name}: empty description"
        assert "\n" not in description.strip(), f"{name}: description must be one line"
        assert isinstance(meta["options"], dict), f"{name}: options must be a mapping"
        options_of(meta)  # valid Options keywords
        diagnostics = meta["diagnostics"]
        assert isinstance(diagnostics, list), f"{name}: diagnostics must be a list"
        positions = []
        for entry in diagnostics:
            match = DIAGNOSTIC.match(entry) if isinstance(entry, str) else None
            assert match, f"{name}: diagnostic {entry!r} is not 'CODE line:col'"
            positions.append((int(match.group(1)), int(match.group(2)), entry.split()[0]))
        assert positions == sorted(positions), (
            f"{name}: diagnostics must be ordered by line, column"
        )
        assert meta["compile"] in COMPILE_KINDS, f"{name}: compile must be one of {COMPILE_KINDS}"
