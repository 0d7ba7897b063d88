"""The migration report: FileReports -> a Report -> Markdown, JSON or HTML.

Pure: no I/O.  ``build_report`` summarises a ``check`` run (with references)
over a tree: how much translates automatically (references converted vs left
unconverted, by library and by file), the hazards to review, the inline PTX
sites, the unsupported APIs ranked by how many files they block, and an effort
estimate from a transparent per-item model (``EFFORT_MODEL``), in the spirit of
SYCLomatic's analysis mode, which reports the lines that migrate automatically
and those that need manual work.  docs/report.md documents the output.
Markdown and HTML are one document (``report_document``, report/document.py's
blocks) written by two renderers.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py import __version__
from hipify_py.engine.diagnostics import Diagnostic, Severity
from hipify_py.project.runner import FileReport, Status
from hipify_py.report import document
from hipify_py.report.document import (
    BulletList,
    Cards,
    Column,
    Details,
    Document,
    Heading,
    Inline,
    Paragraph,
    Raw,
    Span,
    Table,
    code,
    cuda_name,
    file_path,
    html_escape,
    joined,
    lit,
    md_table,
    md_text,
    plain,
    prose,
    words,
)
from hipify_py.rules.catalogue import CATALOGUE
from hipify_py.tables.table import MappingTable

SCHEMA_VERSION = 1
FORMATS = ("md", "json", "html", "csv", "api-csv")

# diagnostic codes that leave a CUDA API in the code, and the reason they name
BLOCKER_REASONS = {
    "HPY101": "unsupported",
    "HPY103": "needs-newer-hip",
    "HPY201": "unsupported-header",
}
UNKNOWN_CODE = "HPY102"
PTX_CODE = "HPY501"
_PTX_PREFIX = "inline PTX cannot be compiled for AMD GPUs: "


def is_hazard(code: str) -> bool:
    """Device-code hazards: HPY4xx (wavefront size, arch gates, fp8, textures...) and
    HPY5xx (inline assembly)."""
    return code.startswith(("HPY4", "HPY5"))


# --------------------------------------------------------------------------- hints

ACTIONS_FILE = Path(__file__).resolve().parent.parent / "data" / "blocker_actions.yaml"
# a hint that only says what is missing ("libcu++ has no HIP counterpart") gets
# the action of its section appended
_MISSING_ONLY = re.compile(
    r"\bno (?:[\w+.-]+ )?(?:counterpart|equivalent|header)\.?$", re.IGNORECASE
)
_GENERIC_HINT = "port this use by hand"  # the rules' hint when a row has none


@dataclass(frozen=True)
class Actions:
    """What to do about a name HIP lacks, by library and mapping-table section
    (hipify_py/data/blocker_actions.yaml)."""

    headers: str
    unknown: str
    defaults: dict[str, str]
    sections: dict[tuple[str, str], str]

    def for_row(self, library: str, section: str) -> str:
        return self.sections.get((library, section)) or self.defaults.get(library) or self.unknown


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{ACTIONS_FILE}: {where} must be a non-empty string")
    return " ".join(value.split())


@functools.lru_cache(maxsize=1)
def blocker_actions() -> Actions:
    import yaml

    data = yaml.safe_load(ACTIONS_FILE.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != 1:
        raise ValueError(f"{ACTIONS_FILE}: expected a mapping with schema: 1")
    libraries = data.get("libraries")
    if not isinstance(libraries, dict):
        raise ValueError(f"{ACTIONS_FILE}: 'libraries' must be a mapping")
    defaults: dict[str, str] = {}
    sections: dict[tuple[str, str], str] = {}
    for library, entry in libraries.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{ACTIONS_FILE}: libraries.{library} must be a mapping")
        defaults[str(library)] = _text(entry.get("default"), f"libraries.{library}.default")
        for section, text in (entry.get("sections") or {}).items():
            where = f"libraries.{library}.sections.{section}"
            sections[(str(library), str(section))] = _text(text, where)
    headers = _text(data.get("headers"), "headers")
    return Actions(headers, _text(data.get("unknown"), "unknown"), defaults, sections)


def with_action(specific: str, action: str) -> str:
    """``specific`` (a row's hint), completed by ``action`` when it is empty or
    only says what is missing."""
    specific = " ".join(specific.split())
    if not specific:
        return action
    if _MISSING_ONLY.search(specific):
        return f"{specific.rstrip('.')}. {action}"
    return specific


# --------------------------------------------------------------------------- effort model


@dataclass(frozen=True)
class Cost:
    key: str  # stable id (JSON)
    label: str  # what is counted
    low: float  # minutes per item, optimistic
    high: float  # minutes per item, pessimistic


def _c(key: str, label: str, low: float, high: float) -> Cost:
    return Cost(key, label, float(low), float(high))


# Minutes per counted item.  Every diagnostic is one item of its code; HPY101
# is split by the kind of the name and adds, once per distinct API, the time to
# work out its replacement.  Codes not listed cost by severity (_SEVERITY_COST).
EFFORT_MODEL: tuple[Cost, ...] = (
    _c("file-review", "file with CUDA: review the diff, build, run its tests", 5, 15),
    _c("api-replacement", "distinct unsupported API: design its replacement once", 30, 120),
    _c("HPY101:function", "use of an unsupported function", 10, 30),
    _c("HPY101:type", "use of an unsupported type", 10, 30),
    _c("HPY101:other", "use of an unsupported enum, macro or variable", 2, 10),
    _c("HPY201", "include of a header with no HIP counterpart", 15, 60),
    _c("HPY103", "use needing a newer HIP than the target (raise it, or port)", 2, 15),
    _c("HPY102", "CUDA-like name not in the tables (the project's own, or newer CUDA)", 5, 30),
    _c(PTX_CODE, "inline PTX site (rewrite with HIP intrinsics or GCN assembly)", 60, 240),
    _c("HPY001", "site the self-check left unchanged", 15, 60),
    _c("HPY003", "file with syntax the parser could not read", 5, 15),
    _c("HPY004", "overlapping edits (one dropped)", 10, 30),
    _c("HPY105", "use of a CUDA API removed from newer CUDA", 5, 15),
    _c("HPY112", "legacy cuBLAS call (write the v2 call the hint gives)", 2, 10),
    _c("HPY301", "launch kept as <<<...>>>", 0, 5),
    _c("HPY401", "warp function with a partial mask", 15, 60),
    _c("HPY402", "masked warp function before HIP 6.2", 15, 60),
    _c("HPY403", "ballot result kept in 32 bits", 5, 15),
    _c("HPY410", "__CUDA_ARCH__ version gate", 10, 30),
    _c("HPY420", "lane math with 32", 5, 15),
    _c("HPY421", "warp reduction from offset 16", 5, 15),
    _c("HPY422", "warp-size constant 32", 10, 30),
    _c("HPY423", "per-warp __shared__ array of 32", 15, 45),
    _c("HPY424", "warpSize compared with 32", 10, 30),
    _c("HPY425", "block size not a multiple of 64", 10, 30),
    _c("HPY430", "fp8 use (format differs)", 30, 120),
    _c("HPY440", "texture reference", 30, 90),
    _c("HPY441", "texture fetch", 30, 120),
    _c("HPY450", "cudaDeviceProp field whose value differs", 5, 15),
    _c("HPY460", "half2 .x / .y access", 5, 20),
    _c("HPY462", "device min/max whose argument types are not known (cast them)", 2, 10),
    _c("HPY601", "CMake line enabling or configuring the CUDA language", 5, 20),
    _c("HPY602", "CMake line finding or linking CUDA packages", 5, 20),
    _c("HPY603", "Makefile line calling nvcc or passing its flags", 5, 20),
)
_COSTS = {cost.key: cost for cost in EFFORT_MODEL}
# any other diagnostic: by severity (notes describe what was done: no work)
_SEVERITY_COST = {
    Severity.ERROR: _c("other-error", "other error-level diagnostic", 30, 120),
    Severity.WARNING: _c("other-warning", "other warning", 10, 30),
    Severity.INFO: _c("other-note", "note", 0, 0),
}

EFFORT_MODEL_TEXT = (
    "Minutes per item, summed: each diagnostic costs its code's range (HPY101 by the kind "
    "of the name, plus one 'design its replacement' per distinct unsupported API), each "
    "file that uses CUDA adds a review constant, notes cost nothing. Converted references "
    "cost nothing beyond the file review. The range is low (everything is as simple as it "
    "looks) to high (every site needs investigation); it is an order of magnitude for "
    "planning, not a quote."
)


def _cost_of(diagnostic: Diagnostic, table: MappingTable) -> Cost:
    if diagnostic.code == "HPY101":
        row = table.names.get(diagnostic.name)
        kind = row.kind if row is not None else "function"
        if kind not in ("function", "type"):
            kind = "other"
        return _COSTS[f"HPY101:{kind}"]
    return _COSTS.get(diagnostic.code) or _SEVERITY_COST[diagnostic.severity]


# --------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    column: int
    text: str = ""  # the diagnostic message, or the PTX instructions

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "column": self.column, "text": self.text}


@dataclass
class Range:
    low: float = 0.0  # minutes
    high: float = 0.0

    def add(self, cost: Cost, count: int = 1) -> None:
        self.low += cost.low * count
        self.high += cost.high * count

    def to_dict(self) -> dict[str, float]:
        return {"low": float(round(self.low, 1)), "high": float(round(self.high, 1))}


def percent(converted: int, unconverted: int) -> float | None:
    total = converted + unconverted
    return round(100.0 * converted / total, 1) if total else None


@dataclass
class LibraryCoverage:
    library: str
    converted: int = 0
    unconverted: int = 0
    files: int = 0

    @property
    def automatic_percent(self) -> float | None:
        return percent(self.converted, self.unconverted)

    def to_dict(self) -> dict[str, Any]:
        return {
            "library": self.library,
            "converted": self.converted,
            "unconverted": self.unconverted,
            "automatic_percent": self.automatic_percent,
            "files": self.files,
        }


@dataclass
class FileCoverage:
    path: str
    status: str
    converted: int = 0
    unconverted: int = 0
    lines_total: int = 0
    lines_changed: int = 0
    lines_automatic: int = 0  # lines with a converted reference and no manual work
    lines_manual: int = 0  # lines with an error or warning
    errors: int = 0
    warnings: int = 0
    hazards: int = 0
    ptx_sites: int = 0
    blockers: list[str] = field(default_factory=list)  # distinct, in order of appearance
    effort: Range = field(default_factory=Range)
    problem: str = ""  # why the file could not be read, or was skipped

    @property
    def automatic_percent(self) -> float | None:
        return percent(self.converted, self.unconverted)

    @property
    def uses_cuda(self) -> bool:
        if self.status == Status.SKIPPED.value:
            return False
        return bool(self.converted or self.unconverted or self.errors or self.warnings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "status": self.status,
            "converted": self.converted,
            "unconverted": self.unconverted,
            "automatic_percent": self.automatic_percent,
            "lines": {
                "total": self.lines_total,
                "changed": self.lines_changed,
                "automatic": self.lines_automatic,
                "manual": self.lines_manual,
            },
            "errors": self.errors,
            "warnings": self.warnings,
            "hazards": self.hazards,
            "ptx_sites": self.ptx_sites,
            "blockers": list(self.blockers),
            "effort_minutes": self.effort.to_dict(),
            "problem": self.problem,
        }


@dataclass
class Blocker:
    """A CUDA name left in the code (unsupported, or needing a newer HIP)."""

    name: str  # as it appears: cudaFoo, <mma.h>
    library: str
    kind: str
    reason: str  # see BLOCKER_REASONS (or "unknown" for HPY102)
    code: str
    hint: str = ""
    files: list[str] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)

    @property
    def uses(self) -> int:
        return len(self.sites)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "library": self.library,
            "kind": self.kind,
            "reason": self.reason,
            "code": self.code,
            "files": len(self.files),
            "uses": self.uses,
            "hint": self.hint,
            "file_list": list(self.files),
            "sites": [s.to_dict() for s in self.sites],
        }


@dataclass
class ApiUse:
    """One line of the API inventory: a CUDA name (or header) found, and what
    became of it."""

    name: str
    library: str
    kind: str
    status: str  # converted, or a blocker reason (unsupported, needs-newer-hip, ...)
    hip: str = ""  # what it became; for needs-newer-hip the HIP name it needs
    uses: int = 0
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "library": self.library,
            "kind": self.kind,
            "status": self.status,
            "hip": self.hip,
            "uses": self.uses,
            "files": len(self.files),
        }


def became(api: ApiUse) -> str:
    """What became of the name, in words (with `code` spans)."""
    if api.status == "converted":
        return f"`{api.hip}`" + (" (same name)" if api.hip == api.name else "")
    if api.status == "needs-newer-hip":
        return f"left unchanged: `{api.hip}` needs a newer HIP" if api.hip else "left unchanged"
    if api.status == "unknown":
        return "left unchanged: not in the mapping tables"
    return "left unchanged: HIP has no counterpart"


@dataclass
class CodeGroup:
    """All diagnostics of one code."""

    code: str
    rule: str
    severity: str
    summary: str
    fix: str = ""
    sites: list[Site] = field(default_factory=list)

    @property
    def files(self) -> int:
        return len({s.path for s in self.sites})

    def to_dict(self, with_sites: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "summary": self.summary,
            "fix": self.fix,
            "count": len(self.sites),
            "files": self.files,
        }
        if with_sites:
            data["sites"] = [s.to_dict() for s in self.sites]
        return data


@dataclass
class EffortItem:
    cost: Cost
    count: int = 0

    @property
    def low(self) -> float:
        return self.cost.low * self.count

    @property
    def high(self) -> float:
        return self.cost.high * self.count

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.cost.key,
            "item": self.cost.label,
            "count": self.count,
            "minutes_each": {"low": self.cost.low, "high": self.cost.high},
            "minutes": {"low": float(round(self.low, 1)), "high": float(round(self.high, 1))},
        }


@dataclass
class Effort:
    items: list[EffortItem] = field(default_factory=list)  # only items that cost something

    @property
    def low_minutes(self) -> float:
        return sum(i.low for i in self.items)

    @property
    def high_minutes(self) -> float:
        return sum(i.high for i in self.items)

    @property
    def low_hours(self) -> float:
        return round(self.low_minutes / 60, 1)

    @property
    def high_hours(self) -> float:
        return round(self.high_minutes / 60, 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hours": {"low": self.low_hours, "high": self.high_hours},
            "minutes": {
                "low": float(round(self.low_minutes, 1)),
                "high": float(round(self.high_minutes, 1)),
            },
            "items": [i.to_dict() for i in self.items],
            "model": EFFORT_MODEL_TEXT,
        }


@dataclass
class Report:
    hip_version: str
    inputs: list[str] = field(default_factory=list)
    files: list[FileCoverage] = field(default_factory=list)
    libraries: list[LibraryCoverage] = field(default_factory=list)
    blockers: list[Blocker] = field(default_factory=list)  # ranked
    unknown_names: list[Blocker] = field(default_factory=list)  # ranked the same way
    hazards: list[CodeGroup] = field(default_factory=list)  # by code
    ptx: list[Site] = field(default_factory=list)
    other: list[CodeGroup] = field(default_factory=list)  # every other code, without sites
    apis: list[ApiUse] = field(default_factory=list)  # the inventory, most used first
    effort: Effort = field(default_factory=Effort)
    problems: list[str] = field(default_factory=list)

    @property
    def converted(self) -> int:
        return sum(f.converted for f in self.files)

    @property
    def unconverted(self) -> int:
        return sum(f.unconverted for f in self.files)

    @property
    def automatic_percent(self) -> float | None:
        return percent(self.converted, self.unconverted)

    def totals(self) -> dict[str, Any]:
        with_cuda = [f for f in self.files if f.uses_cuda]
        return {
            "files": len(self.files),
            "files_with_cuda": len(with_cuda),
            "files_automatic": sum(1 for f in with_cuda if not f.errors),
            "files_blocked": sum(1 for f in self.files if f.errors),
            "files_skipped": sum(1 for f in self.files if f.status == Status.SKIPPED.value),
            "files_failed": sum(1 for f in self.files if f.status == Status.ERROR.value),
            "converted": self.converted,
            "unconverted": self.unconverted,
            "automatic_percent": self.automatic_percent,
            "lines": {
                "total": sum(f.lines_total for f in self.files),
                "changed": sum(f.lines_changed for f in self.files),
                "automatic": sum(f.lines_automatic for f in self.files),
                "manual": sum(f.lines_manual for f in self.files),
            },
            "hazards": sum(len(g.sites) for g in self.hazards),
            "ptx_sites": len(self.ptx),
            "unsupported_apis": len(self.blockers),
            "apis": len(self.apis),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "tool": {"name": "hipify-py", "version": __version__},
            "target": {"hip_version": self.hip_version},
            "inputs": list(self.inputs),
            "totals": self.totals(),
            "libraries": [lib.to_dict() for lib in self.libraries],
            "files": [f.to_dict() for f in self.files],
            "blockers": [b.to_dict() for b in self.blockers],
            "unknown_names": [b.to_dict() for b in self.unknown_names],
            "hazards": [g.to_dict() for g in self.hazards],
            "ptx": [s.to_dict() for s in self.ptx],
            "other_diagnostics": [g.to_dict(with_sites=False) for g in self.other],
            "apis": [a.to_dict() for a in self.apis],
            "effort": self.effort.to_dict(),
            "problems": list(self.problems),
        }


def _group(code: str, severity: Severity) -> CodeGroup:
    entry = CATALOGUE.get(code)
    if entry is None:
        return CodeGroup(code, code, severity.value, "")
    return CodeGroup(code, entry.name, severity.value, entry.summary, entry.fix)


def _is_header(d: Diagnostic) -> bool:
    return d.code == "HPY201" or (d.code == "HPY103" and d.message.startswith("<"))


def _blocker(d: Diagnostic, reason: str, table: MappingTable) -> Blocker:
    from hipify_py.engine.compat import data as compat_data

    """The Blocker of ``d``, with a hint that says what to do: the mapping row's
    own hint (the diagnostic's for HPY103, which names the HIP version), else
    the action of the row's table section (blocker_actions.yaml)."""
    actions = blocker_actions()
    if _is_header(d):
        header = table.headers.get(d.name)
        specific = (header.hint or header.note) if header is not None else d.hint
        if d.code == "HPY103" or d.name in compat_data().includes:
            specific = d.hint  # the version it needs, or: pass --compat
        return Blocker(
            f"<{d.name}>",
            (header.library if header is not None else "") or "headers",
            "header",
            reason,
            d.code,
            with_action(specific, actions.headers),
        )
    row = table.names.get(d.name)
    if row is None:
        specific = "" if d.hint == _GENERIC_HINT else d.hint
        hint = with_action(specific, actions.unknown)
        return Blocker(d.name, "unknown", "", reason, d.code, hint)
    compat = compat_data()
    given = d.code == "HPY103" or d.name in compat.names or d.name in compat.renames
    specific = d.hint if given else row.hint  # the version, or: pass --compat
    hint = with_action(specific, actions.for_row(row.library, row.section))
    return Blocker(d.name, row.library, row.kind, reason, d.code, hint)


def _kind_of(name: str, table: MappingTable) -> str:
    if name[:1] in '<"':
        return "header"
    row = table.names.get(name)
    return row.kind if row is not None else ""


def _rank(blockers: dict[str, Blocker]) -> list[Blocker]:
    return sorted(blockers.values(), key=lambda b: (-len(b.files), -b.uses, b.name))


def build_report(
    reports: Iterable[FileReport],
    table: MappingTable,
    *,
    hip_version: str = "",
    inputs: Iterable[str] = (),
    problems: Iterable[str] = (),
) -> Report:
    """Summarise the FileReports of a run (``translate_paths(..., mode="check",
    references=True)``) into a Report."""
    report = Report(hip_version=hip_version, inputs=list(inputs), problems=list(problems))
    libraries: dict[str, LibraryCoverage] = {}
    blockers: dict[str, Blocker] = {}
    unknown: dict[str, Blocker] = {}
    groups: dict[str, CodeGroup] = {}
    items: dict[str, EffortItem] = {}
    apis: dict[tuple[str, str, str], ApiUse] = {}
    review = _COSTS["file-review"]

    def inventory(name: str, library: str, kind: str, status: str, hip: str, path: str) -> None:
        use = apis.get((name, status, hip))
        if use is None:
            use = apis[(name, status, hip)] = ApiUse(name, library, kind, status, hip)
        use.uses += 1
        if path not in use.files:
            use.files.append(path)

    def charge(cost: Cost, file: FileCoverage) -> None:
        items.setdefault(cost.key, EffortItem(cost)).count += 1
        file.effort.add(cost)

    for fr in reports:
        stats = fr.stats
        file = FileCoverage(
            fr.display,
            fr.status.value,
            stats.converted_total,
            stats.unconverted_total,
            stats.lines_total,
            stats.lines_changed,
        )
        if fr.status is Status.ERROR:
            file.problem = fr.error
            report.problems.append(f"{fr.display}: {fr.error}")
        for library, (converted, unconverted) in stats.by_library().items():
            entry = libraries.setdefault(library, LibraryCoverage(library))
            entry.converted += converted
            entry.unconverted += unconverted
            entry.files += 1
        for _line, _column, name, target, library in fr.references:
            inventory(name, library, _kind_of(name, table), "converted", target, fr.display)
        manual_lines: set[int] = set()
        for d in fr.diagnostics:
            if d.code == "HPY002":
                file.problem = d.message
            if d.severity is Severity.ERROR:
                file.errors += 1
            elif d.severity is Severity.WARNING:
                file.warnings += 1
            if d.severity is not Severity.INFO:
                manual_lines.add(d.line)
            site = Site(fr.display, d.line, d.column, d.message)
            if d.code == PTX_CODE:
                text = d.message[len(_PTX_PREFIX) :] if d.message.startswith(_PTX_PREFIX) else ""
                report.ptx.append(Site(fr.display, d.line, d.column, text or d.message))
                file.ptx_sites += 1
            if is_hazard(d.code):
                file.hazards += 1
            reason = BLOCKER_REASONS.get(d.code)
            if reason is not None or d.code == UNKNOWN_CODE:
                pool = blockers if reason is not None else unknown
                key = (f"<{d.name}>" if _is_header(d) else d.name) or d.message
                if key not in pool:
                    pool[key] = _blocker(d, reason or "unknown", table)
                    if d.code == "HPY101":  # worked out once, in the first file that needs it
                        charge(_COSTS["api-replacement"], file)
                blocker = pool[key]
                hip = ""
                if d.code == "HPY103" and not _is_header(d):
                    row = table.names.get(d.name)
                    hip = (row.hip or "") if row is not None else ""
                inventory(
                    blocker.name, blocker.library, blocker.kind, blocker.reason, hip, fr.display
                )
                blocker.sites.append(site)
                if fr.display not in blocker.files:
                    blocker.files.append(fr.display)
                if reason is not None and blocker.name not in file.blockers:
                    file.blockers.append(blocker.name)
            groups.setdefault(d.code, _group(d.code, d.severity)).sites.append(site)
            cost = _cost_of(d, table)
            if cost.high > 0:
                charge(cost, file)
        automatic_lines = {line for line, *_ in fr.references} - manual_lines
        file.lines_automatic = len(automatic_lines)
        file.lines_manual = len(manual_lines)
        if file.uses_cuda:
            charge(review, file)
        report.files.append(file)

    # most work first: where a migration starts, and what a plan lists first
    report.files.sort(key=lambda f: (-f.effort.high, -f.effort.low, f.path))
    report.apis = sorted(apis.values(), key=lambda a: (-a.uses, a.name, a.status, a.hip))
    report.libraries = sorted(libraries.values(), key=lambda lib: lib.library)
    report.blockers = _rank(blockers)
    report.unknown_names = _rank(unknown)
    ordered = sorted(groups.values(), key=lambda g: g.code)
    report.hazards = sorted(
        (g for g in ordered if is_hazard(g.code)),
        key=lambda g: (-Severity(g.severity).rank, g.code),
    )
    report.other = [g for g in ordered if not is_hazard(g.code)]
    order = {cost.key: i for i, cost in enumerate(EFFORT_MODEL)}
    report.effort = Effort(
        sorted(
            (i for i in items.values() if i.count and i.cost.high > 0),
            key=lambda i: (order.get(i.cost.key, len(order)), i.cost.key),
        )
    )
    return report


# --------------------------------------------------------------------------- JSON


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2) + "\n"


# --------------------------------------------------------------------------- CSV

FILE_COLUMNS = (
    "path",
    "status",
    "effort_hours_low",
    "effort_hours_high",
    "converted",
    "unconverted",
    "automatic_percent",
    "lines_total",
    "lines_changed",
    "lines_automatic",
    "lines_manual",
    "errors",
    "warnings",
    "hazards",
    "ptx_sites",
    "blockers",
    "problem",
)
API_COLUMNS = ("name", "library", "kind", "status", "hip", "uses", "files")


def csv_cell(value: object) -> str:
    """A CSV cell that a spreadsheet shows as text: a leading = + - @ (a formula
    to Excel and LibreOffice) gets a ' before it."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([csv_cell(c) for c in row] for row in rows)
    return buffer.getvalue()


def render_csv(report: Report) -> str:
    """One row per file, most effort first (the order of the report)."""
    return _csv(
        FILE_COLUMNS,
        (
            [
                f.path,
                f.status,
                f"{f.effort.low / 60:.1f}",
                f"{f.effort.high / 60:.1f}",
                f.converted,
                f.unconverted,
                "" if f.automatic_percent is None else f"{f.automatic_percent:.1f}",
                f.lines_total,
                f.lines_changed,
                f.lines_automatic,
                f.lines_manual,
                f.errors,
                f.warnings,
                f.hazards,
                f.ptx_sites,
                ";".join(f.blockers),
                f.problem,
            ]
            for f in report.files
        ),
    )


def render_api_csv(report: Report) -> str:
    """The API inventory: one row per CUDA name and what became of it."""
    return _csv(
        API_COLUMNS,
        ([a.name, a.library, a.kind, a.status, a.hip, a.uses, len(a.files)] for a in report.apis),
    )


# --------------------------------------------------------------------------- Markdown


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def _num(value: float) -> str:
    return f"{value:g}"


def effort_model_markdown() -> str:
    """The effort model as a Markdown table (docs/report.md holds the same table)."""
    rows = [[c.key, md_text(c.label), _num(c.low), _num(c.high)] for c in EFFORT_MODEL]
    rows += [
        [c.key, md_text(c.label), _num(c.low), _num(c.high)]
        for c in (_SEVERITY_COST[Severity.ERROR], _SEVERITY_COST[Severity.WARNING])
    ]
    rows.append([_SEVERITY_COST[Severity.INFO].key, "note (info diagnostic)", "0", "0"])
    return md_table(["item", "counted", "low (min)", "high (min)"], rows, {2, 3})


def report_document(report: Report, max_sites: int) -> Document:
    """The report as one document both renderers write (report/document.py):
    the Markdown summary table is the page's cards, chart and line counts;
    ``max_sites`` hazard sites are listed per code."""
    t = report.totals()
    low, high = _num(report.effort.low_hours), _num(report.effort.high_hours)
    doc = Document("hipify-py migration report", style=_CSS)
    add = doc.blocks.append
    add(Heading(1, (lit(doc.title),)))
    inputs = joined([code(p) for p in report.inputs])
    add(
        Paragraph(
            (
                lit("Target HIP "),
                words(report.hip_version),
                lit("; inputs: ", "md"),
                lit(" &middot; inputs: ", "html"),
                *inputs,
                lit(f"; hipify-py {__version__}.", "md"),
                lit(" &middot; hipify-py ", "html"),
                plain(__version__, "html"),
            ),
            css="meta",
        )
    )
    add(Heading(2, (lit("Summary"),), only="md"))
    lines = t["lines"]
    add(
        Table(
            (Column(""), Column("", numeric=True)),
            [
                ((lit(label),), (plain(value),))
                for label, value in [
                    ("files", t["files"]),
                    ("files using CUDA", t["files_with_cuda"]),
                    ("files that translate completely", t["files_automatic"]),
                    ("files blocked (error-level findings)", t["files_blocked"]),
                    ("references converted", t["converted"]),
                    ("references left unconverted", t["unconverted"]),
                    ("automatic", _pct(t["automatic_percent"])),
                    (
                        "lines: total / changed / automatic / manual",
                        "{total} / {changed} / {automatic} / {manual}".format(**lines),
                    ),
                    ("hazards to review", t["hazards"]),
                    ("inline PTX sites", t["ptx_sites"]),
                    ("distinct unsupported APIs", t["unsupported_apis"]),
                    ("estimated effort", f"{low} - {high} hours"),
                ]
            ],
            only="md",
        )
    )
    add(
        Cards(
            [
                (_pct(t["automatic_percent"]), "of references convert automatically", "ok"),
                (
                    f"{t['converted']} / {t['converted'] + t['unconverted']}",
                    "references converted",
                    "",
                ),
                (
                    f"{t['files_automatic']} / {t['files_with_cuda']}",
                    "files translate completely",
                    "",
                ),
                (
                    str(t["unsupported_apis"]),
                    "distinct unsupported APIs",
                    "bad" if t["unsupported_apis"] else "",
                ),
                (str(t["hazards"]), "hazards to review", "bad" if t["hazards"] else ""),
                (str(t["ptx_sites"]), "inline PTX sites", "bad" if t["ptx_sites"] else ""),
                (f"{low} - {high} h", "estimated manual effort", ""),
            ]
        )
    )
    add(
        Paragraph(
            (
                lit(
                    f"{t['files']} files, {t['files_with_cuda']} using CUDA, {t['files_blocked']} "
                    f"blocked by error-level findings. Lines: {lines['total']} total, "
                    f"{lines['changed']} changed, {lines['automatic']} migrated automatically, "
                    f"{lines['manual']} need manual work."
                ),
            ),
            only="html",
        )
    )
    add(Heading(2, (lit("Coverage by library"),), "coverage"))
    add(Raw(coverage_svg(report.libraries)))
    if report.libraries:
        add(
            Table(
                (
                    Column("library"),
                    Column("converted", True),
                    Column("unconverted", True),
                    Column("automatic", True),
                    Column("files", True),
                ),
                [
                    (
                        (words(lib.library),),
                        (plain(lib.converted),),
                        (plain(lib.unconverted),),
                        (plain(_pct(lib.automatic_percent)),),
                        (plain(lib.files),),
                    )
                    for lib in report.libraries
                ],
            )
        )
    else:
        add(Paragraph((lit("No CUDA references found."),), only="md"))
    add(Heading(2, (lit("Unsupported APIs, by files blocked"),), "blockers"))
    if report.blockers:
        add(
            Table(
                (
                    Column("#", True),
                    Column("API"),
                    Column("library"),
                    Column("reason"),
                    Column("files", True),
                    Column("uses", True),
                    Column("hint"),
                ),
                [
                    (
                        (plain(rank),),
                        (cuda_name(b.name),),
                        (words(b.library),),
                        (words(b.reason),),
                        (plain(len(b.files), title=", ".join(b.files)),),
                        (plain(b.uses),),
                        (prose(b.hint),),
                    )
                    for rank, b in enumerate(report.blockers, 1)
                ],
            )
        )
    else:
        add(Paragraph((lit("None: every CUDA API used has a HIP counterpart."),)))
    if report.unknown_names:
        add(Heading(2, (lit("CUDA-like names not in the tables"),), "unknown"))
        add(
            Paragraph(
                (
                    lit(
                        "Either the project's own names (suppress with `--ignore HPY102`) "
                        "or CUDA APIs newer than the tables."
                    ),
                )
            )
        )
        add(
            Table(
                (Column("name"), Column("files", True), Column("uses", True)),
                [
                    ((cuda_name(b.name),), (plain(len(b.files)),), (plain(b.uses),))
                    for b in report.unknown_names
                ],
            )
        )
    add(Heading(2, (lit("Hazards to review"),), "hazards"))
    if report.hazards:
        add(
            Table(
                (
                    Column("code"),
                    Column("rule"),
                    Column("severity"),
                    Column("sites", True),
                    Column("files", True),
                    Column("what"),
                    Column("fix", only="html"),
                ),
                [
                    (
                        (plain(g.code),),
                        (words(g.rule),),
                        (plain(g.severity),),
                        (plain(len(g.sites)),),
                        (plain(g.files),),
                        (prose(g.summary),),
                        (prose(g.fix),),
                    )
                    for g in report.hazards
                ],
            )
        )
        for g in report.hazards:
            if g.code == PTX_CODE:
                continue
            sites: list[Inline] = [
                (code(f"{s.path}:{s.line}:{s.column}"), lit(":", "md"), lit(" "), prose(s.text))
                for s in g.sites[:max_sites]
            ]
            if len(g.sites) > max_sites:
                sites.append(
                    (lit(f"... and {len(g.sites) - max_sites} more (see the JSON report)"),)
                )
            add(
                Details(
                    (
                        plain(g.code),
                        lit(" "),
                        words(g.rule),
                        lit(f": {len(g.sites)} site(s)", "html"),
                    ),
                    (BulletList(sites),),
                    opened=len(g.sites) <= 10,
                    md_level=3,
                )
            )
    else:
        add(Paragraph((lit("None found."),)))
    add(Heading(2, (lit("Inline PTX sites"),), "ptx"))
    if report.ptx:
        add(
            Table(
                (Column("site", css="path"), Column("PTX")),
                [
                    ((file_path(f"{s.path}:{s.line}:{s.column}"),), (code(s.text),))
                    for s in report.ptx
                ],
            )
        )
    else:
        add(Paragraph((lit("None found."),)))
    add(Heading(2, (lit("Files"),), "files"))
    add(Paragraph((lit("Most estimated effort first."),)))
    add(
        Table(
            (
                Column("file", css="path"),
                Column("effort (h)", True),
                Column("status", only="html"),
                Column("converted", True),
                Column("unconverted", True),
                Column("automatic", True),
                Column("manual lines", True),
                Column("blocked by", css="names"),
            ),
            [
                (
                    (
                        file_path(f.path),
                        *(
                            (
                                lit(" (", "md"),
                                words(f.status, "md"),
                                lit(")", "md"),
                                Span("", "break", "html"),
                                plain(f.problem, "html"),
                            )
                            if f.problem
                            else ()
                        ),
                    ),
                    (plain(_hours(f.effort)),),
                    (plain(f.status),),
                    (plain(f.converted),),
                    (plain(f.unconverted),),
                    (plain(_pct(f.automatic_percent)),),
                    (plain(f.lines_manual),),
                    joined([cuda_name(b) for b in f.blockers]),
                )
                for f in report.files
            ],
            table_id="files-table",
        )
    )
    add(Heading(2, (lit("Effort estimate"),), "effort"))
    add(Paragraph((Span(f"{low} - {high} hours", "strong"), lit(" of manual work."))))
    if report.effort.items:
        add(
            Table(
                (
                    Column("item"),
                    Column("count", True),
                    Column("minutes each", True),
                    Column("minutes", True),
                ),
                [
                    (
                        (words(i.cost.label),),
                        (plain(i.count),),
                        (plain(f"{_num(i.cost.low)} - {_num(i.cost.high)}"),),
                        (plain(f"{_num(round(i.low, 1))} - {_num(round(i.high, 1))}"),),
                    )
                    for i in report.effort.items
                ],
            )
        )
    add(Paragraph((lit("Model: "), plain(EFFORT_MODEL_TEXT), lit(" See docs/report.md."))))
    if report.other:
        add(Heading(2, (lit("Other diagnostics"),), "other"))
        add(
            Table(
                (Column("code"), Column("rule"), Column("severity"), Column("count", True)),
                [
                    (
                        (plain(g.code),),
                        (words(g.rule),),
                        (plain(g.severity),),
                        (plain(len(g.sites)),),
                    )
                    for g in report.other
                ],
            )
        )
    add(Heading(2, (lit("CUDA APIs found"),), "apis"))
    if report.apis:
        uses = sum(a.uses for a in report.apis)
        add(
            Details(
                (
                    lit(f"{len(report.apis)} distinct names, {uses} uses"),
                    lit(", most used first.", "md"),
                    lit(": what each became", "html"),
                ),
                (
                    Table(
                        (
                            Column("API"),
                            Column("library"),
                            Column("kind"),
                            Column("status"),
                            Column("became"),
                            Column("uses", True),
                            Column("files", True),
                        ),
                        [
                            (
                                (cuda_name(a.name),),
                                (words(a.library),),
                                (words(a.kind),),
                                (words(a.status),),
                                (prose(became(a)),),
                                (plain(a.uses),),
                                (plain(len(a.files), title=", ".join(a.files)),),
                            )
                            for a in report.apis
                        ],
                        table_id="api-table",
                    ),
                ),
                opened=len(report.apis) <= 30,
            )
        )
    else:
        add(Paragraph((lit("None found."),)))
    if report.problems:
        add(Heading(2, (lit("Problems"),), "problems"))
        add(BulletList([(words(p),) for p in report.problems]))
    return doc


def render_markdown(report: Report, max_sites: int = 20) -> str:
    return document.render_markdown(report_document(report, max_sites))


def _hours(effort: Range) -> str:
    if not effort.high:
        return "0"
    return f"{effort.low / 60:.1f} - {effort.high / 60:.1f}"


# --------------------------------------------------------------------------- HTML

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:1500px;padding:0 1em;color:#1d2330;background:#fff}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:1.8em;border-bottom:1px solid #dde;
padding-bottom:.2em}p.meta{color:#556}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.6em 0}
th,td{border:1px solid #d5d9e2;padding:.3em .55em;text-align:left;vertical-align:top}
th{background:#f1f3f8}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td.n{white-space:nowrap}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f4f5f8;
padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}code.name{white-space:nowrap}
td.path{min-width:24em;max-width:48em}
td.path code{overflow-wrap:normal;word-break:normal}
td.names{min-width:16em}
.cards{display:flex;flex-wrap:wrap;gap:.8em;margin:1em 0}
.card{border:1px solid #d5d9e2;border-radius:8px;padding:.6em 1em;min-width:10em}
.card b{display:block;font-size:1.5em}.card span{color:#556}
.ok{color:#1b7f3b}.bad{color:#b3261e}
details{margin:.3em 0}summary{cursor:pointer}
svg text{font-family:system-ui,sans-serif}
"""
# Layout: a path column keeps at least 24em and breaks only after a '/'
# (<wbr>), never inside a name; a list of CUDA names (a file's blockers) breaks
# between names only; a table still wider than the page scrolls sideways in its
# .scroll box instead of squeezing its columns.

_GREEN, _RED = "#2e9d50", "#d9534f"


def coverage_svg(libraries: list[LibraryCoverage]) -> str:
    """A horizontal 100%-stacked bar per library: converted (green) vs unconverted (red)."""
    label_w, bar_w, right_w, row_h, top = 130, 520, 190, 26, 34
    width = label_w + bar_w + right_w
    height = top + max(1, len(libraries)) * row_h + 34
    parts = [
        f'<svg id="coverage-chart" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="coverage-chart-title">',
        '<title id="coverage-chart-title">Coverage by library: CUDA references converted '
        "automatically vs left unconverted</title>",
        f'<rect x="{label_w}" y="6" width="12" height="12" fill="{_GREEN}"/>',
        f'<text x="{label_w + 18}" y="16" font-size="12">converted</text>',
        f'<rect x="{label_w + 100}" y="6" width="12" height="12" fill="{_RED}"/>',
        f'<text x="{label_w + 118}" y="16" font-size="12">unconverted</text>',
    ]
    if not libraries:
        parts.append(
            f'<text x="{label_w}" y="{top + 17}" font-size="13">no CUDA references found</text>'
        )
    for index, lib in enumerate(libraries):
        y = top + index * row_h
        total = lib.converted + lib.unconverted
        good = bar_w * lib.converted / total if total else 0.0
        name = html_escape(lib.library)
        parts.append(
            f'<text x="{label_w - 8}" y="{y + 15}" font-size="13" text-anchor="end">{name}</text>'
        )
        parts.append(
            f'<rect x="{label_w}" y="{y + 2}" width="{bar_w}" height="{row_h - 8}" fill="#eef0f4"/>'
        )
        if lib.converted:
            parts.append(
                f'<rect class="converted" x="{label_w}" y="{y + 2}" width="{good:.1f}" '
                f'height="{row_h - 8}" fill="{_GREEN}"><title>{name}: {lib.converted} '
                "converted</title></rect>"
            )
        if lib.unconverted:
            parts.append(
                f'<rect class="unconverted" x="{label_w + good:.1f}" y="{y + 2}" '
                f'width="{bar_w - good:.1f}" height="{row_h - 8}" fill="{_RED}"><title>{name}: '
                f"{lib.unconverted} unconverted</title></rect>"
            )
        parts.append(
            f'<text x="{label_w + bar_w + 8}" y="{y + 15}" font-size="12">'
            f"{html_escape(_pct(lib.automatic_percent))} ({lib.converted} / {total})</text>"
        )
    axis_y = top + max(1, len(libraries)) * row_h + 4
    for tick in range(0, 101, 25):
        x = label_w + bar_w * tick / 100
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{axis_y}" stroke="#9aa3b5" '
            'stroke-width="0.6" stroke-dasharray="3,3"/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{axis_y + 14}" font-size="11" text-anchor="middle">'
            f"{tick}%</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def render_html(report: Report, max_sites: int = 200) -> str:
    return document.render_html(report_document(report, max_sites))


def render(report: Report, fmt: str) -> str:
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        return render_html(report)
    if fmt == "md":
        return render_markdown(report)
    if fmt == "csv":
        return render_csv(report)
    if fmt == "api-csv":
        return render_api_csv(report)
    raise ValueError(f"unknown report format {fmt!r} (expected one of {', '.join(FORMATS)})")
