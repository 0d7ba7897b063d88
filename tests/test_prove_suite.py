"""examples/prove-suite: the self-checking programs for `hipify-py prove`
stay consistent with their configurations (every program listed once, its
sources present, its seed passed on), follow the output protocol the
configurations' masks rely on, and translate with only the error-level
diagnostics the suite's README documents - through the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO, run_cli

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

SUITE = REPO / "examples" / "prove-suite"
CONFIGS = ("smoke.toml", "smoke-sparse-solver.toml")
# error-level diagnostics the README explains (gfx942 has no texture units;
# __dp4a has no HIP name); anything else is a regression in the translator
# or a new program that needs its finding written down
KNOWN_ERRORS = {("texture_objects.cu", "HPY441"), ("int8_quant_gemv.cu", "HPY101")}


def _programs() -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for name in CONFIGS:
        with open(SUITE / name, "rb") as handle:
            found += tomllib.load(handle)["program"]
    return found


def test_every_program_with_a_main_is_listed_once_with_existing_sources() -> None:
    programs = _programs()
    names = [str(p["name"]) for p in programs]
    assert len(names) == len(set(names)) and len(names) >= 40
    listed = {src for p in programs for src in p["sources"]}  # type: ignore[attr-defined]
    for source in listed:
        assert (SUITE / source).is_file(), source
    mains = {
        path.relative_to(SUITE).as_posix()
        for path in SUITE.rglob("*.cu")
        if re.search(r"^int main\(", path.read_text(encoding="utf-8"), re.M)
    }
    assert mains <= listed, mains - listed


@pytest.mark.parametrize("program", _programs(), ids=lambda p: str(p["name"]))
def test_program_follows_the_protocol(program: dict[str, object]) -> None:
    sources = [SUITE / str(s) for s in program["sources"]]  # type: ignore[attr-defined]
    text = "\n".join(s.read_text(encoding="utf-8") for s in sources)
    if '#include "check.cuh"' in text:  # the shared report functions
        text += (SUITE / "check.cuh").read_text(encoding="utf-8")
    # a seed in the configuration reaches the program's arguments
    if "seed" in program:
        assert "{seed}" in program.get("args", []), program["name"]  # type: ignore[operator]
    # the final verdict line and the masked error values
    assert f'"{program["name"]}' in text or f'finish("{program["name"]}")' in text
    assert "max_err" in text


def test_translation_reports_only_the_documented_errors() -> None:
    result = run_cli(str(SUITE), "--check", "--format", "json", "--hip-version", "7.2", "-j", "1")
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    errors = {
        (Path(f["path"]).name, d["code"])
        for f in report["files"]
        for d in f["diagnostics"]
        if d["severity"] == "error"
    }
    assert errors == KNOWN_ERRORS
