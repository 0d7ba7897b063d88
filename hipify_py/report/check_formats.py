"""``hipify-py check``'s output formats: text, JSON, SARIF 2.1.0, GitHub
workflow commands and JUnit XML, all rendered from one CheckResult."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hipify_py import __version__
from hipify_py.engine.diagnostics import Severity
from hipify_py.report.check import REFERENCE_CODE, CheckResult, Finding

FORMATS = ("text", "json", "sarif", "github", "junit")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


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
    from hipify_py.rules.catalogue import CATALOGUE  # every rule: only for SARIF

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
