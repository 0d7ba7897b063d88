"""CMake and Makefile lines that need changes for HIP (reported as HPY601-603),
and the simple ones rewritten with --fix-build.  The rules are data:
hipify_py/data/build_rules.yaml."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hipify_py.atomic import atomic_copy, atomic_write
from hipify_py.engine import diagnostics as D
from hipify_py.engine.diagnostics import Diagnostic
from hipify_py.project.files import Target, build_kind
from hipify_py.project.runner import (
    FileReport,
    Job,
    Mode,
    Status,
    unified_diff,
)

RULES_FILE = Path(__file__).resolve().parent.parent / "data" / "build_rules.yaml"


@dataclass(frozen=True)
class BuildRule:
    files: str  # "cmake" or "make"
    code: str
    pattern: re.Pattern[str]
    message: str
    suggest: str
    replace: str | None


@lru_cache(maxsize=1)
def rules() -> tuple[BuildRule, ...]:
    import yaml

    data = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    out = []
    for entry in data["rules"]:
        out.append(
            BuildRule(
                files=entry["files"],
                code=entry["code"],
                pattern=re.compile(entry["pattern"]),
                message=entry["message"],
                suggest=entry["suggest"],
                replace=entry.get("replace"),
            )
        )
    return tuple(out)


_CODES = {
    "HPY601": D.BUILD_CMAKE_LANGUAGE,
    "HPY602": D.BUILD_CMAKE_PACKAGE,
    "HPY603": D.BUILD_MAKE_NVCC,
}


def analyze(data: bytes, kind: str, fix: bool) -> tuple[bytes, list[Diagnostic]]:
    """Findings for one build file, and its text with --fix-build's rewrites.

    Rules are tried in the order of build_rules.yaml; a match that overlaps
    the match of an earlier rule on the same line is not reported again (so a
    specific, rewritable form comes first and a report-only catch-all after it).
    """
    text = data.decode("utf-8", errors="surrogateescape")
    lines = text.splitlines(keepends=True)
    diagnostics: list[Diagnostic] = []
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        code_part = _code_of(line, kind)
        claimed: list[tuple[int, int]] = []
        rewrites: list[tuple[int, int, str]] = []
        for rule in rules():
            if rule.files != kind:
                continue
            for match in rule.pattern.finditer(code_part):
                start, end = match.span()
                if any(start < e and s < end for s, e in claimed) or start == end:
                    continue
                claimed.append((start, end))
                fixed = fix and rule.replace is not None
                if fixed:
                    assert rule.replace is not None
                    rewrites.append((start, end, match.expand(rule.replace)))
                entry = _CODES[rule.code]
                diagnostics.append(
                    entry.at(
                        f"{rule.message}; for HIP: {rule.suggest}"
                        + (" (rewritten: --fix-build)" if fixed else ""),
                        number,
                        start + 1,
                        hint=""
                        if fixed
                        else (
                            "--fix-build rewrites this line"
                            if rule.replace is not None
                            else "change this by hand"
                        ),
                        name=match.group(0),
                    )
                )
        for start, end, replacement in sorted(rewrites, reverse=True):
            line = line[:start] + replacement + line[end:]
        out.append(line)
    diagnostics.sort(key=lambda d: (d.line, d.column))
    return "".join(out).encode("utf-8", errors="surrogateescape"), diagnostics


def _code_of(line: str, kind: str) -> str:
    """The line up to its comment: ``#`` (in CMake not inside a quoted
    argument, in make not escaped as ``\\#``)."""
    quoted = False
    for index, char in enumerate(line):
        escaped = index > 0 and line[index - 1] == "\\"
        if char == '"' and kind == "cmake" and not escaped:
            quoted = not quoted
        elif char == "#" and not quoted and not (kind == "make" and escaped):
            return line[:index]
    return line


def process_build_file(target: Target, job: Job, fix: bool) -> FileReport:
    kind = build_kind(target.source)
    assert kind is not None
    try:
        data = target.real.read_bytes()
    except OSError as exc:
        return FileReport(target.display, Status.ERROR, error=f"cannot read: {exc.strerror or exc}")
    output, diagnostics = analyze(data, kind, fix)
    report = FileReport(target.display, Status.UNCHANGED, diagnostics)
    if output == data:
        if job.mode is Mode.OUTPUT_DIR and target.copy and target.output is not None:
            _copy(target, target.output, report)  # --copy-all: the mirror has it as it is
        return report
    report.status = Status.CHANGED
    try:
        if job.mode is Mode.IN_PLACE:
            atomic_write(target.real, output, like=target.real)
            report.written = target.display
        elif job.mode is Mode.OUTPUT_DIR and target.output is not None:
            target.output.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target.output, output, like=target.real, durable=False)
            report.written = str(target.output)
        elif job.mode is Mode.DIFF:
            report.diff = unified_diff(data, output, target.display)
    except OSError as exc:
        report.status = Status.ERROR
        report.error = f"cannot write: {exc.strerror or exc}; the file was left as it was"
    return report


def _copy(target: Target, output: Path, report: FileReport) -> None:
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        atomic_copy(target.real, output)
        report.written = str(output)
    except OSError as exc:
        report.status = Status.ERROR
        report.error = f"cannot copy to {output}: {exc.strerror or exc}"
