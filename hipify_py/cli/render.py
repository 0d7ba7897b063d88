"""Turning FileReports into text for people (rich) and JSON for machines."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

from hipify_py.engine.diagnostics import Diagnostic, Severity
from hipify_py.engine.stats import Stats
from hipify_py.project.runner import FileReport, Status


@dataclass
class Summary:
    files: int = 0
    by_status: Counter[str] = field(default_factory=Counter)
    by_severity: Counter[str] = field(default_factory=Counter)
    stats: Stats = field(default_factory=Stats)
    problems: list[str] = field(default_factory=list)  # discovery problems and I/O errors
    not_found: int = 0  # paths named that are not there (or not files or folders)
    copied: int = 0  # --copy-all: the other files copied as they are
    linked: int = 0  # -o: symbolic links recreated as links
    copy_errors: int = 0  # copies and links that failed
    not_copied: list[tuple[str, str]] = field(default_factory=list)  # --copy-all: (path, why)

    def add(self, report: FileReport) -> None:
        self.files += 1
        self.by_status[report.status.value] += 1
        self.stats.merge(report.stats)
        for diagnostic in report.diagnostics:
            self.by_severity[diagnostic.severity.value] += 1
        if report.status is Status.ERROR:
            self.problems.append(f"{report.display}: {report.error}")

    @property
    def unsupported(self) -> int:
        return self.by_severity[Severity.ERROR.value]

    @property
    def errors(self) -> int:
        """What went wrong in the run: paths not found, reads, writes, copies."""
        return self.by_status[Status.ERROR.value] + self.not_found + self.copy_errors

    def left_out(self) -> dict[str, str]:
        """--copy-all: why -> "N files, M folders" left out of the mirror."""
        counts: dict[str, Counter[str]] = {}
        for path, why in self.not_copied:
            counts.setdefault(why, Counter())["folder" if path.endswith("/") else "file"] += 1
        return {
            why: ", ".join(f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in sorted(c.items()))
            for why, c in counts.items()
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "status": dict(sorted(self.by_status.items())),
            "diagnostics": dict(sorted(self.by_severity.items())),
            "stats": self.stats.to_dict(),
            "problems": list(self.problems),
            "errors": self.errors,
            "not_found": self.not_found,
            "copied": self.copied,
            "links": self.linked,
            "not_copied": [{"path": path, "reason": why} for path, why in self.not_copied],
        }


def format_diagnostic(path: str, d: Diagnostic) -> str:
    text = f"{path}:{d.line}:{d.column}: {d.severity.value}: {d.message} [{d.code}]"
    if d.hint:
        text += f"\n    hint: {d.hint}"
    return text


def visible(d: Diagnostic, verbosity: int) -> bool:
    """quiet (-1): errors only; default (0): errors and warnings; verbose (1): all."""
    if verbosity < 0:
        return d.severity is Severity.ERROR
    if verbosity == 0:
        return d.severity is not Severity.INFO
    return True


def _count(n: int, what: str, plural: str = "") -> str:
    return f"{n} {what if n == 1 else plural or what + 's'}"


def changed_line(verb: str, report: FileReport, verbosity: int) -> str:
    """One line for a changed file: `translated src/k.cu`; under --quiet with
    the count of the warnings it hides: `translated src/k.cu (2 warnings)`."""
    line = f"{verb} {report.display}"
    if verbosity < 0:
        hidden = sum(d.severity is Severity.WARNING for d in report.diagnostics)
        if hidden:
            line += f" ({_count(hidden, 'warning')})"
    return line


def summary_line(summary: Summary, *, mode: str) -> str:
    """The one-line summary of --quiet (and of the pre-commit hook), as ruff and
    black print theirs: `translated 3 files, 2 unchanged; 1 error, 4 warnings`.
    Zero counts are left out, but the changed count is always there when
    nothing else is."""
    s, d = summary.by_status, summary.by_severity
    verb = "would translate" if mode in ("diff", "check") else "translated"
    parts: list[str] = []
    if s["changed"]:
        parts.append(f"{verb} {_count(s['changed'], 'file')}")
    for status, word in (
        ("unchanged", "unchanged"),
        ("skipped", "skipped (not source text)"),
        ("error", "failed"),
    ):
        if s[status]:  # the first part says "files": `2 files unchanged`
            parts.append(f"{s[status] if parts else _count(s[status], 'file')} {word}")
    if not parts:
        parts.append(f"{verb} 0 files")
    if summary.not_found:
        parts.append(f"{_count(summary.not_found, 'path')} not found")
    if summary.copy_errors:
        parts.append(f"{_count(summary.copy_errors, 'copy', 'copies')} failed")
    line = ", ".join(parts)
    found = [_count(d[level], level) for level in ("error", "warning") if d[level]]
    if found:
        line += "; " + ", ".join(found)
    return line


def report_json(reports: list[FileReport], summary: Summary) -> str:
    files = []
    for report in reports:
        entry: dict[str, Any] = {"path": report.display, "status": report.status.value}
        if report.error:
            entry["error"] = report.error
        if report.traceback:  # an internal error's, for a bug report
            entry["traceback"] = report.traceback
        if report.written:
            entry["written"] = report.written
        if report.diff:  # --diff: the unified diff, which plain output prints
            entry["diff"] = report.diff
        entry["diagnostics"] = [d.to_dict() for d in report.diagnostics]
        entry["stats"] = report.stats.to_dict()
        files.append(entry)
    return json.dumps({"files": files, "summary": summary.to_dict()}, indent=2) + "\n"


def print_summary(summary: Summary, stream: IO[str], *, mode: str, stats: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=stream, highlight=False, soft_wrap=True)
    s, d = summary.by_status, summary.by_severity
    table = Table(title=f"hipify-py summary ({mode})", show_header=False, title_justify="left")
    table.add_column("what")
    table.add_column("count", justify="right")
    rows = [
        ("files", summary.files),
        ("changed" if mode not in ("diff", "check") else "would change", s["changed"]),
        ("unchanged", s["unchanged"]),
        ("skipped (not source text)", s["skipped"]),
        ("errors (paths not found, I/O)", summary.errors),
        ("CUDA references converted", summary.stats.converted_total),
        ("CUDA references left unconverted", summary.stats.unconverted_total),
        ("diagnostics: errors / warnings / notes", f"{d['error']} / {d['warning']} / {d['info']}"),
    ]
    if summary.copied:
        rows.append(("other files copied as they are", summary.copied))
    if summary.linked:
        rows.append(("symbolic links recreated", summary.linked))
    rows += [(f"not copied: {why}", count) for why, count in summary.left_out().items()]
    for what, count in rows:
        table.add_row(what, str(count))
    console.print(table)
    if stats:
        print_stats(summary.stats, console)


def print_stats(stats: Stats, console: Any) -> None:
    from rich.table import Table

    libraries = Table(title="references by library", header_style="bold")
    libraries.add_column("library")
    libraries.add_column("converted", justify="right")
    libraries.add_column("unconverted", justify="right")
    for library, (converted, unconverted) in stats.by_library().items():
        libraries.add_row(library, str(converted), str(unconverted))
    console.print(libraries)
    kinds = Table(title="converted references by kind", header_style="bold")
    kinds.add_column("kind")
    kinds.add_column("references", justify="right")
    by_kind: Counter[str] = Counter()
    for (_, kind), count in stats.converted.items():
        by_kind[kind] += count
    for kind, count in sorted(by_kind.items()):
        kinds.add_row(kind, str(count))
    console.print(kinds)
    if stats.unconverted:
        names = Table(title="unconverted names", header_style="bold")
        names.add_column("name")
        names.add_column("references", justify="right")
        for name, count in stats.unconverted.most_common():
            names.add_row(name, str(count))
        console.print(names)
    console.print(f"lines changed: {stats.lines_changed} of {stats.lines_total}")
