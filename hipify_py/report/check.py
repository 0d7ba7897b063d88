"""The CI migration check (``hipify-py check``): the findings of a run.  Pure
functions over FileReports; baselines and shards are in report/baseline.py, the
output formats in report/check_formats.py, the command in cli/check.py.

A finding is one thing that stands between a file and HIP: a CUDA name or header
hipify-py would translate (the pseudo-diagnostic ``HPY100``), an unsupported
CUDA API, or a hazard the device rules found (a diagnostic of the translation).
Each has a fingerprint that survives line moves - the path, the code, the CUDA
name, the hash of its source line with whitespace collapsed, and the
occurrence index among findings sharing those - so a baseline of fingerprints
lets a team fail CI only on findings that are new.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py.engine.diagnostics import TRANSLATABLE_REFERENCE, Diagnostic, Severity
from hipify_py.engine.options import Options
from hipify_py.engine.source import UTF8_BOM, LineIndex
from hipify_py.project.runner import FileReport, Status
from hipify_py.tables.table import MappingTable

REFERENCE_CODE = TRANSLATABLE_REFERENCE.code
FAIL_ON = ("error", "warning", "never")
_SUPPRESS = re.compile(rb"hipify-py:\s*ignore(?:\[([A-Za-z0-9_, ]*)\])?")


class CheckError(Exception):
    """A usage or input problem (bad --shard, unreadable baseline): exit 2."""


@dataclass(frozen=True)
class Edit:
    """One replacement the translation makes: the text from (line, column) up to
    (end_line, end_column), exclusive, becomes ``text``; 1-based, columns in
    characters as in the findings."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass
class Finding:
    path: str  # relative to the root, forward slashes (absolute when outside it)
    line: int
    column: int
    code: str
    severity: Severity
    message: str
    name: str = ""  # the CUDA name or header, when there is one
    library: str = ""  # its library in the tables, when known
    hip: str = ""  # what a translatable reference becomes
    hint: str = ""
    fingerprint: str = ""
    baselined: bool = False
    end_line: int = 0  # where the finding's text ends (exclusive), when known
    end_column: int = 0
    edits: tuple[Edit, ...] = ()  # what translating changes here, when known exactly

    @property
    def rule(self) -> str:
        # imported here: the catalogue imports every rule, which a check whose
        # results all come from the cache (a pre-commit run) never needs
        from hipify_py.rules.catalogue import CATALOGUE

        entry = CATALOGUE.get(self.code)
        return entry.name if entry is not None else self.code

    def fails(self, fail_on: str) -> bool:
        """Does this finding fail the check under ``--fail-on fail_on``?"""
        if self.baselined or fail_on == "never" or self.severity is Severity.INFO:
            return False
        return fail_on == "warning" or self.severity is Severity.ERROR

    def location(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def to_dict(self, fail_on: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
        }
        for key in ("name", "library", "hip", "hint"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        data["fingerprint"] = self.fingerprint
        data["baselined"] = self.baselined
        data["failing"] = self.fails(fail_on)
        return data


@dataclass
class CheckedFile:
    path: str
    findings: list[Finding] = field(default_factory=list)
    error: str = ""  # an I/O problem: the file could not be checked


@dataclass
class CheckResult:
    files: list[CheckedFile]
    fail_on: str = "warning"
    baseline: str | None = None  # the baseline file used, if any
    stale_baseline: int = 0  # baseline entries no longer found
    shard: tuple[int, int] | None = None
    problems: list[str] = field(default_factory=list)  # paths that do not exist, ...

    @property
    def findings(self) -> list[Finding]:
        return [f for file in self.files for f in file.findings]

    @property
    def failing(self) -> list[Finding]:
        return [f for f in self.findings if f.fails(self.fail_on)]

    @property
    def errors(self) -> list[str]:
        return [*self.problems, *(f"{c.path}: {c.error}" for c in self.files if c.error)]

    @property
    def exit_code(self) -> int:
        if self.errors:
            return 2
        return 1 if self.failing else 0


# --------------------------------------------------------------------------- findings


def root_of_inputs(paths: Sequence[Path], config_folder: Path | None = None) -> Path:
    """What finding paths are relative to, whatever the current folder: the git
    work tree of the first input, else the configuration's folder, else the
    common folder of the inputs."""
    absolute = [Path(os.path.abspath(p)) for p in paths] or [Path.cwd()]
    first = absolute[0] if absolute[0].is_dir() else absolute[0].parent
    for folder in [first, *first.parents]:
        if (folder / ".git").exists():
            return folder
    if config_folder is not None:
        return Path(os.path.abspath(config_folder))
    folders = [p if p.is_dir() else p.parent for p in absolute]
    return Path(os.path.commonpath([str(f) for f in folders]))


def relative_path(path: str | Path, root: Path) -> str:
    """``path`` relative to ``root`` with forward slashes; absolute if outside it."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, root)
    except ValueError:  # another drive (Windows)
        return Path(absolute).as_posix()
    if rel == ".." or rel.startswith(".." + os.sep):
        return Path(absolute).as_posix()
    return Path(rel).as_posix()


def _suppressed(line: bytes, code: str) -> bool:
    found = _SUPPRESS.search(line)
    if found is None:
        return False
    codes = found.group(1)
    if codes is None:
        return True
    return any(code.startswith(c.strip().upper()) for c in codes.decode().split(",") if c.strip())


def _library(name: str, table: MappingTable | None) -> str:
    if not name or table is None:
        return ""
    row = table.lookup(name)
    if row is not None:
        return row.library
    header = table.headers.get(name) or table.headers.get(name.strip('<>"'))
    return header.library if header is not None else ""


def _reference_message(name: str, hip: str, library: str) -> str:
    what = "CUDA header" if name[:1] in '<"' else "CUDA API"
    where = f" ({library})" if library else ""
    return f"{what} {name}{where} remains; hipify-py translates it to {hip}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _change_message(old: str, new: str, rule: str) -> str:
    who = f"hipify-py ({rule})" if rule else "hipify-py"
    if not old.strip():
        return f"{who} inserts `{_short(new)}` here"
    if not new.strip():
        return f"{who} removes `{_short(old)}`"
    return f"`{_short(old)}` remains; {who} rewrites it to `{_short(new)}`"


EditSpec = tuple[int, int, str, str]  # line, column, the original text, what it becomes


def _pending(report: FileReport) -> list[tuple[int, int, str, str, str, str, list[EditSpec]]]:
    """What translating the file (at the options of its run) would change, as
    (line, column, name, what it becomes, library, message, the edits it stands
    for): exactly the edits the translator applies (report.changes), so that a
    file hipify-py has translated has none.  An edit of a recorded CUDA
    reference is that name; other edits of one line (a widened warp mask, a
    launch rewrite) make one entry, folded into the line's reference when it
    has one."""
    out: list[tuple[int, int, str, str, str, str, list[EditSpec]]] = []
    others: dict[int, list[tuple[int, str, str, str]]] = {}
    first_reference: dict[int, int] = {}  # line -> index in out
    for line, column, name, hip, library, rule in report.changes:
        if not rule:  # a CUDA reference
            first_reference.setdefault(line, len(out))
            message = _reference_message(name, hip, library)
            out.append((line, column, name, hip, library, message, [(line, column, name, hip)]))
        else:
            others.setdefault(line, []).append((column, name, hip, rule))
    for line, edits in others.items():
        specs = [(line, column, old, new) for column, old, new, _ in edits]
        if line in first_reference:
            out[first_reference[line]][6].extend(specs)
            continue
        # name the line by a replacement rather than by an insertion
        column, old, new, rule = min(edits, key=lambda e: (not e[1].strip(), e[0]))
        message = _change_message(old, new, rule)
        if len(edits) > 1:
            more = len(edits) - 1
            message += f" (and {more} more change{'s' if more > 1 else ''} on this line)"
        out.append((line, column, _short(old) or _short(new), _short(new), "", message, specs))
    out.sort(key=lambda entry: entry[:6])
    return out


def _offset(lines: LineIndex, line: int, column: int) -> int | None:
    """The byte offset of a 1-based (line, column) as LineIndex.position counts
    it (characters of valid UTF-8, else bytes; a leading BOM is not counted)."""
    if not 1 <= line <= lines.line_of(len(lines.data)):
        return None
    base = lines.offset_of_line(line)
    text = lines.line_text(line)
    if line == 1 and text.startswith(UTF8_BOM):
        base += len(UTF8_BOM)
        text = text[len(UTF8_BOM) :]
    try:
        chars = text.decode("utf-8")
    except UnicodeDecodeError:
        return base + column - 1 if column - 1 <= len(text) else None
    if column - 1 > len(chars):
        return None  # past the end of the line
    return base + len(chars[: column - 1].encode("utf-8"))


def _edits(specs: list[EditSpec], lines: LineIndex) -> tuple[Edit, ...]:
    """The specs as Edits, each checked against the file's bytes; () when one
    does not match (the fix would not be the translation's)."""
    out = []
    for line, column, old, new in specs:
        start = _offset(lines, line, column)
        raw = old.encode("utf-8")
        if start is None or lines.data[start : start + len(raw)] != raw:
            return ()
        end_line, end_column = lines.position(start + len(raw))
        out.append(Edit(line, column, end_line, end_column, new))
    return tuple(out)


def _end(d: Diagnostic, lines: LineIndex) -> tuple[int, int]:
    """Where diagnostic ``d``'s text ends: its span when it knows one, else the
    end of its CUDA name when the name is at its position; (0, 0) when neither
    (or the position is not in this file)."""
    if not 0 <= d.offset < len(lines.data) or lines.position(d.offset) != (d.line, d.column):
        return 0, 0
    if d.offset < d.end_offset <= len(lines.data):
        return lines.position(d.end_offset)
    name = d.name.encode("utf-8")
    if name and lines.data.startswith(name, d.offset):
        return lines.position(d.offset + len(name))
    return 0, 0


def findings_for(
    report: FileReport,
    path: str,
    *,
    table: MappingTable | None = None,
    options: Options | None = None,
    notes: bool = False,
    data: bytes | None = None,
) -> list[Finding]:
    """The findings of one file's report (made with ``Job(references=True)``).

    ``path`` is the file as findings name it (relative to the root); ``data``
    its bytes, read from ``report.display`` when not given (needed for the
    fingerprints and the ``// hipify-py: ignore[HPY100]`` comments).
    """
    options = options or Options()
    wants_references = options.wants(REFERENCE_CODE)
    diagnostics = [d for d in report.diagnostics if notes or d.severity is not Severity.INFO]
    if not diagnostics and not (wants_references and report.changes):
        return []
    if data is None:
        try:
            data = Path(report.display).read_bytes()
        except OSError:
            data = b""
    lines = LineIndex(data)
    count = data.count(b"\n") + 1

    def text(line: int) -> bytes:
        return lines.line_text(line) if 1 <= line <= count else b""

    found: list[Finding] = []
    for d in diagnostics:
        end_line, end_column = _end(d, lines)
        found.append(
            Finding(
                path,
                d.line,
                d.column,
                d.code,
                d.severity,
                d.message,
                name=d.name,
                library=_library(d.name, table),
                hint=d.hint,
                end_line=end_line,
                end_column=end_column,
            )
        )
    if wants_references:
        for line, column, name, hip, library, message, specs in _pending(report):
            if b"hipify-py" in data and _suppressed(text(line), REFERENCE_CODE):
                continue
            edits = _edits(specs, lines)
            first = next((e for e in edits if (e.line, e.column) == (line, column)), None)
            found.append(
                Finding(
                    path,
                    line,
                    column,
                    REFERENCE_CODE,
                    TRANSLATABLE_REFERENCE.severity,
                    message,
                    name=name,
                    library=library,
                    hip=hip,
                    end_line=first.end_line if first else 0,
                    end_column=first.end_column if first else 0,
                    edits=edits,
                )
            )
    found.sort(key=lambda f: (f.line, f.column, f.code, f.name))
    seen: Counter[tuple[str, str, bytes]] = Counter()
    for finding in found:
        normal = b" ".join(text(finding.line).split())
        key = (finding.code, finding.name, normal)
        finding.fingerprint = fingerprint(path, finding.code, finding.name, normal, seen[key])
        seen[key] += 1
    return found


def fingerprint(path: str, code: str, name: str, line: bytes, occurrence: int) -> str:
    """Stable across line moves: no line number, only what the line says."""
    digest = hashlib.sha256()
    for part in (path.encode("utf-8", "surrogateescape"), code.encode(), name.encode(), line):
        digest.update(part + b"\0")
    digest.update(str(occurrence).encode())
    return digest.hexdigest()[:32]


def checked_file(
    report: FileReport,
    path: str,
    *,
    table: MappingTable | None = None,
    options: Options | None = None,
    notes: bool = False,
) -> CheckedFile:
    if report.status is Status.ERROR:
        return CheckedFile(path, error=report.error)
    return CheckedFile(path, findings_for(report, path, table=table, options=options, notes=notes))
