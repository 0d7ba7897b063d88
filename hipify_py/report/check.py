"""The CI migration check (``hipify-py check``): findings, baselines, shards and
the report formats.  Pure functions over FileReports; the command itself is in
cli/check.py.

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
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py import __version__
from hipify_py.engine.diagnostics import CATALOGUE, TRANSLATABLE_REFERENCE, Diagnostic, Severity
from hipify_py.engine.options import Options
from hipify_py.engine.source import UTF8_BOM, LineIndex
from hipify_py.project.runner import FileReport, Status
from hipify_py.tables.table import MappingTable

REFERENCE_CODE = TRANSLATABLE_REFERENCE.code
FAIL_ON = ("error", "warning", "never")
FORMATS = ("text", "json", "sarif", "github", "junit")
BASELINE_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
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


# --------------------------------------------------------------------------- shards


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` -> (I, N), 1 <= I <= N; CheckError otherwise."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if match is None:
        raise CheckError(f"expected I/N (for example 2/4), got {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1:
        raise CheckError(f"the number of shards must be at least 1, got {text!r}")
    if not 1 <= index <= count:
        raise CheckError(f"the shard number must be between 1 and {count}, got {text!r}")
    return index, count


def shard_of(paths: Sequence[str], index: int, count: int) -> list[int]:
    """Positions (into ``paths``) of shard ``index`` of ``count``: the sorted
    paths dealt out in turn, so every file is in exactly one shard and the
    shards differ in size by at most one file."""
    order = sorted(range(len(paths)), key=lambda i: paths[i])
    return sorted(order[i] for i in range(index - 1, len(order), count))


# --------------------------------------------------------------------------- baselines


def baseline_json(findings: Iterable[Finding]) -> str:
    entries = sorted(
        {(f.path, f.code, f.name, f.fingerprint) for f in findings},
    )
    document = {
        "version": BASELINE_VERSION,
        "tool": "hipify-py",
        "findings": [
            {"path": path, "code": code, "name": name, "fingerprint": fp}
            for path, code, name, fp in entries
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def read_baseline(path: Path) -> set[str]:
    """The fingerprints of a baseline file; CheckError if it is missing or malformed."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CheckError(f"cannot read baseline {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CheckError(f"baseline {path} is not valid JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("version") != BASELINE_VERSION:
        raise CheckError(
            f"baseline {path}: not a hipify-py baseline of version {BASELINE_VERSION} "
            "(write one with --write-baseline)"
        )
    entries = document.get("findings")
    if not isinstance(entries, list):
        raise CheckError(f"baseline {path}: 'findings' must be a list")
    fingerprints = set()
    for entry in entries:
        value = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(value, str):
            raise CheckError(f"baseline {path}: every finding needs a 'fingerprint' string")
        fingerprints.add(value)
    return fingerprints


def apply_baseline(result: CheckResult, fingerprints: set[str], source: str) -> None:
    """Mark the findings the baseline knows; count the entries no longer found."""
    result.baseline = source
    seen = set()
    for finding in result.findings:
        if finding.fingerprint in fingerprints:
            finding.baselined = True
            seen.add(finding.fingerprint)
    if result.shard is None:
        result.stale_baseline = len(fingerprints - seen)


# --------------------------------------------------------------------------- rendering


def _severity_counts(findings: Iterable[Finding]) -> Counter[str]:
    return Counter(f.severity.value for f in findings)


def by_library(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """library -> {translatable, unsupported, other}: what is left, per library."""
    table: dict[str, dict[str, int]] = {}
    for f in findings:
        row = table.setdefault(f.library or "-", {"translatable": 0, "unsupported": 0, "other": 0})
        if f.code == REFERENCE_CODE:
            row["translatable"] += 1
        elif f.severity is Severity.ERROR:
            row["unsupported"] += 1
        else:
            row["other"] += 1
    return dict(sorted(table.items(), key=lambda item: (item[0] == "-", item[0])))


def summary(result: CheckResult) -> dict[str, Any]:
    findings = result.findings
    data: dict[str, Any] = {
        "files": len(result.files),
        "clean_files": sum(1 for c in result.files if not c.findings and not c.error),
        "findings": len(findings),
        "failing": len(result.failing),
        "baselined": sum(1 for f in findings if f.baselined),
        "by_severity": dict(sorted(_severity_counts(findings).items())),
        "by_code": dict(sorted(Counter(f.code for f in findings).items())),
        "by_library": by_library(findings),
    }
    if result.baseline is not None and result.shard is None:
        data["stale_baseline"] = result.stale_baseline
    return data


_PLURAL = {"error": "errors", "warning": "warnings", "info": "notes"}


def render_text(result: CheckResult, quiet: bool = False) -> str:
    """Findings grouped by file with their hints, the table of what is left by
    library, and a summary line; ``quiet`` (the pre-commit hook): one line per
    finding and the summary line, nothing else."""
    out: list[str] = []
    fail_on = result.fail_on
    for checked in result.files:
        if not checked.findings:
            continue
        if not quiet:
            out.append(checked.path)
        for f in checked.findings:
            mark = ""
            if f.baselined:
                mark = " (baselined)"
            elif not f.fails(fail_on) and f.severity is not Severity.INFO:
                mark = " (not failing)"
            indent = "" if quiet else "  "
            out.append(f"{indent}{f.location()}: {f.severity.value}: {f.message} [{f.code}]{mark}")
            if f.hint and not quiet:
                out.append(f"      hint: {f.hint}")
    data = summary(result)
    libraries = data["by_library"]
    if libraries and not quiet:
        out += ["", "Left to migrate, by library:"]
        width = max(7, *(len(name) for name in libraries))
        out.append(f"  {'library':<{width}}  translatable  unsupported  other")
        for name, row in libraries.items():
            out.append(
                f"  {name:<{width}}  {row['translatable']:>12}  {row['unsupported']:>11}"
                f"  {row['other']:>5}"
            )
    severities = data["by_severity"]
    counts = ", ".join(
        f"{severities[s]} {_PLURAL[s] if severities[s] != 1 else s}"
        for s in ("error", "warning", "info")
        if s in severities
    )
    files = data["files"]
    line = (
        f"hipify-py check: {files} file{'s' if files != 1 else ''} ({data['clean_files']} clean), "
    )
    line += f"{data['findings']} finding{'s' if data['findings'] != 1 else ''}"
    if counts:
        line += f" ({counts})"
    line += f"; {data['failing']} failing (--fail-on {fail_on})"
    if result.baseline is not None:
        line += f", {data['baselined']} baselined"
        if data.get("stale_baseline"):
            line += (
                f", {data['stale_baseline']} baseline entries fixed "
                "(--write-baseline tightens the baseline)"
            )
    if result.errors:
        line += f"; {len(result.errors)} path(s) could not be checked"
    if result.shard is not None:
        line += f" [shard {result.shard[0]}/{result.shard[1]}]"
    if out and not quiet:
        out.append("")
    out.append(line)
    return "\n".join(out) + "\n"


def render_json(result: CheckResult) -> str:
    document: dict[str, Any] = {
        "version": 1,
        "tool": {"name": "hipify-py", "version": __version__},
        "fail_on": result.fail_on,
        "baseline": result.baseline,
        "shard": list(result.shard) if result.shard else None,
        "files": [
            {
                "path": c.path,
                "findings": [f.to_dict(result.fail_on) for f in c.findings],
                **({"error": c.error} if c.error else {}),
            }
            for c in result.files
        ],
        "errors": result.errors,
        "summary": summary(result),
        "exit_code": result.exit_code,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _anchor(heading: str) -> str:
    """GitHub's anchor for a markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


_REPOSITORY_KEYS = ("repository", "source", "sourcecode", "code", "homepage", "home")


def project_url() -> str | None:
    """The project's repository, from this installation's package metadata
    (a Project-URL named Repository, Source, Homepage..., else Home-page); None
    when the metadata names none, or is another version's."""
    from importlib import metadata

    try:
        dist = metadata.distribution("hipify-py")
    except metadata.PackageNotFoundError:
        return None
    if dist.version != __version__:
        return None
    urls: dict[str, str] = {}
    for entry in dist.metadata.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        key = re.sub(r"[\s_.-]", "", label).lower()
        urls.setdefault(key, url.strip())
    home = " ".join(dist.metadata.get_all("Home-page") or []).strip()
    if home and home.upper() != "UNKNOWN":
        urls.setdefault("home", home)
    for key in _REPOSITORY_KEYS:
        url = urls.get(key, "")
        if re.match(r"https?://[^\s/]+/\S", url):
            return url.rstrip("/").removesuffix(".git")
    return None


def docs_url(repository: str | None) -> str | None:
    """docs/diagnostics.md of this version (the tag v<version>) in the
    repository, where its host has a known file-URL form (GitHub, GitLab,
    Codeberg, Bitbucket); None otherwise."""
    if repository is None:
        return None
    host = repository.split("/")[2].lower()
    ref = f"v{__version__}"
    if host == "github.com" or host == "codeberg.org":
        form = "src/tag" if host == "codeberg.org" else "blob"
        return f"{repository}/{form}/{ref}/docs/diagnostics.md"
    if host == "gitlab.com" or host.startswith("gitlab."):
        return f"{repository}/-/blob/{ref}/docs/diagnostics.md"
    if host == "bitbucket.org":
        return f"{repository}/src/{ref}/docs/diagnostics.md"
    return None


def sarif_rules(docs: str | None = None) -> list[dict[str, Any]]:
    """The catalogue as SARIF rules; ``docs``: the URL of docs/diagnostics.md
    for helpUri (left out without one)."""
    from hipify_py.report.diagnostics_doc import explain

    rules = []
    for entry in CATALOGUE.values():
        heading = f"{entry.code} `{entry.name}` ({entry.severity.value})"
        full = entry.summary[:1].upper() + entry.summary[1:] + "."
        if entry.why:
            full += " " + entry.why
        markdown = explain(entry)
        rule: dict[str, Any] = {
            "id": entry.code,
            "name": entry.name,
            "shortDescription": {"text": entry.summary},
            "fullDescription": {"text": full},
            "help": {
                "text": full + (f" Fix: {entry.fix}" if entry.fix else ""),
                "markdown": markdown,
            },
        }
        if docs is not None:
            rule["helpUri"] = f"{docs}#{_anchor(heading)}"
        rule["defaultConfiguration"] = {"level": _SARIF_LEVEL[entry.severity]}
        rule["properties"] = {"tags": ["hipify-py", "cuda-to-hip"]}
        rules.append(rule)
    return rules


def _region(line: int, column: int, end_line: int = 0, end_column: int = 0) -> dict[str, int]:
    region = {"startLine": max(1, line), "startColumn": max(1, column)}
    if end_line:
        region["endLine"] = end_line
        region["endColumn"] = end_column
    return region


def _fix(finding: Finding, location: dict[str, Any]) -> dict[str, Any]:
    """A SARIF fix: the replacements hipify-py's translation makes here (an
    insertion is an empty deleted region)."""
    return {
        "description": {"text": f"Apply hipify-py's translation ({finding.message})"},
        "artifactChanges": [
            {
                "artifactLocation": location,
                "replacements": [
                    {
                        "deletedRegion": _region(e.line, e.column, e.end_line, e.end_column),
                        "insertedContent": {"text": e.text},
                    }
                    for e in finding.edits
                ],
            }
        ],
    }


def render_sarif(result: CheckResult, root: Path | None = None) -> str:
    repository = project_url()
    rules = sarif_rules(docs_url(repository))
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for f in result.findings:
        location: dict[str, Any] = {"uri": f.path}
        if os.path.isabs(f.path) or re.match(r"^[A-Za-z]:/", f.path):
            location = {"uri": Path(f.path).as_uri()}
        else:
            location["uriBaseId"] = "%SRCROOT%"
        entry: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index.get(f.code, -1),
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f.message + (f" ({f.hint})" if f.hint else "")},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": location,
                        "region": _region(f.line, f.column, f.end_line, f.end_column),
                    }
                }
            ],
            "partialFingerprints": {"hipifyPy/v1": f.fingerprint},
        }
        if entry["ruleIndex"] < 0:
            del entry["ruleIndex"]
        if f.edits:
            entry["fixes"] = [_fix(f, location)]
        if result.baseline is not None:
            entry["baselineState"] = "unchanged" if f.baselined else "new"
        properties: dict[str, Any] = {}
        if f.name:
            properties["cudaName"] = f.name
        if f.library:
            properties["library"] = f.library
        if f.hip:
            properties["hip"] = f.hip
        if properties:
            entry["properties"] = properties
        results.append(entry)
    notifications = [{"level": "error", "message": {"text": problem}} for problem in result.errors]
    driver: dict[str, Any] = {"name": "hipify-py"}
    if repository is not None:
        driver["informationUri"] = repository
    driver.update({"version": __version__, "semanticVersion": __version__, "rules": rules})
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "results": results,
        "invocations": [
            {
                "executionSuccessful": not result.errors,
                "toolExecutionNotifications": notifications,
            }
        ],
    }
    if root is not None:
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": root.as_uri().rstrip("/") + "/"}}
    if result.shard is not None:
        run["automationDetails"] = {
            "id": f"hipify-py/shard-{result.shard[0]}-of-{result.shard[1]}/"
        }
    document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(result: CheckResult) -> str:
    """GitHub Actions workflow commands: ::error for failing findings, ::warning
    for the others (::notice for notes); baselined findings are left out."""
    out = []
    for f in result.findings:
        if f.baselined:
            continue
        if f.fails(result.fail_on):
            command = "error"
        else:
            command = "notice" if f.severity is Severity.INFO else "warning"
        props = (
            f"file={_escape_property(f.path)},line={f.line},col={f.column},"
            f"title={_escape_property(f'{f.code} {f.rule}')}"
        )
        message = f.message + (f" (hint: {f.hint})" if f.hint else "")
        out.append(f"::{command} {props}::{_escape_data(message)}")
    for problem in result.errors:
        out.append(f"::error title=hipify-py check::{_escape_data(problem)}")
    data = summary(result)
    line = (
        f"hipify-py check: {data['findings']} findings in {data['files']} files, "
        f"{data['failing']} failing (--fail-on {result.fail_on})"
    )
    if result.baseline is not None:
        line += f", {data['baselined']} baselined"
    out.append(line)
    return "\n".join(out) + "\n"


def render_junit(result: CheckResult) -> str:
    """JUnit XML (GitLab, Jenkins): a testsuite per file, a testcase per finding
    (a failure when it fails the check, skipped when not), one passing testcase
    for a clean file."""
    from xml.etree import ElementTree as ET

    fail_on = result.fail_on
    suites = ET.Element("testsuites", name="hipify-py check")
    totals: Counter[str] = Counter()
    for checked in result.files:
        suite = ET.SubElement(suites, "testsuite", name=checked.path)
        counts: Counter[str] = Counter()
        if checked.error:
            case = ET.SubElement(
                suite, "testcase", classname=checked.path, name="hipify-py check", file=checked.path
            )
            ET.SubElement(
                case, "error", message=checked.error, type="io-error"
            ).text = f"{checked.path}: {checked.error}"
            counts["tests"] += 1
            counts["errors"] += 1
        elif not checked.findings:
            ET.SubElement(
                suite, "testcase", classname=checked.path, name="hipify-py check", file=checked.path
            )
            counts["tests"] += 1
        for f in checked.findings:
            label = f" {f.name}" if f.name else ""
            case = ET.SubElement(
                suite,
                "testcase",
                classname=checked.path,
                name=f"{f.code}{label} at {f.line}:{f.column}",
                file=checked.path,
                line=str(f.line),
            )
            counts["tests"] += 1
            detail = f"{f.location()}: {f.severity.value}: {f.message} [{f.code}]"
            if f.hint:
                detail += f"\nhint: {f.hint}"
            if f.fails(fail_on):
                failure = ET.SubElement(case, "failure", message=f.message, type=f.code)
                failure.text = detail
                counts["failures"] += 1
            else:
                why = "baselined" if f.baselined else f"not failing with --fail-on {fail_on}"
                ET.SubElement(case, "skipped", message=f"{why}: {f.message}")
                counts["skipped"] += 1
        for key in ("tests", "failures", "errors", "skipped"):
            suite.set(key, str(counts[key]))
            totals[key] += counts[key]
    for problem in result.problems:
        suite = ET.SubElement(suites, "testsuite", name="hipify-py", tests="1", errors="1")
        case = ET.SubElement(suite, "testcase", classname="hipify-py", name="paths")
        ET.SubElement(case, "error", message=problem, type="usage").text = problem
        totals["tests"] += 1
        totals["errors"] += 1
    for key in ("tests", "failures", "errors", "skipped"):
        suites.set(key, str(totals[key]))
    ET.indent(suites)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
    )


def render(result: CheckResult, form: str, root: Path | None = None, quiet: bool = False) -> str:
    if form == "text":
        return render_text(result, quiet)
    if form == "json":
        return render_json(result)
    if form == "sarif":
        return render_sarif(result, root)
    if form == "github":
        return render_github(result)
    if form == "junit":
        return render_junit(result)
    raise ValueError(f"unknown format {form!r}")
