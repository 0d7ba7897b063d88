"""``hipify-py prove`` results as JSON, Markdown or a JUnit XML file (pure:
each function returns the text; the command line writes it)."""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree

from .prove_compare import DIFFERENT, FAILED, SAME, UNSTABLE

COLUMNS = ("program", "platform", "original", "translation", "verdict", "detail")


def note(result: dict[str, Any]) -> str:
    """The detail, and how the libraries were linked, in one cell."""
    parts = [str(result.get("detail", "")), str(result.get("linking", ""))]
    return "; ".join(p for p in parts if p)


def summary(results: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for result in results:
        counts[result["verdict"]] = counts.get(result["verdict"], 0) + 1
    return counts


def to_json(results: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    return json.dumps({**meta, "summary": summary(results), "results": results}, indent=2) + "\n"


def to_markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| program | platform | original | translation | verdict | note |",
        "|---|---|---|---|---|---|",
    ]
    for result in results:
        cells = [str(result.get(c, "")) for c in COLUMNS[:-1]] + [note(result)]
        lines.append(
            "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"
        )
    counts = summary(results)
    lines.append("")
    lines.append(", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no programs")
    return "\n".join(lines) + "\n"


def to_junit(results: list[dict[str, Any]]) -> str:
    """One test case per program and platform: failures for different,
    unstable and failed, skipped for skipped; built-only and same pass."""
    suite = ElementTree.Element(
        "testsuite",
        name="hipify-py prove",
        tests=str(len(results)),
        failures=str(sum(r["verdict"] in (DIFFERENT, UNSTABLE) for r in results)),
        errors=str(sum(r["verdict"] == FAILED for r in results)),
        skipped=str(sum(r["verdict"] == "skipped" for r in results)),
    )
    for result in results:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname=f"prove.{result['platform']}",
            name=str(result["program"]),
        )
        verdict, detail = result["verdict"], note(result)
        if verdict in (DIFFERENT, UNSTABLE):
            element = ElementTree.SubElement(case, "failure", message=f"{verdict}: {detail}")
            element.text = json.dumps(result.get("difference", {}), indent=2)
        elif verdict == FAILED:
            ElementTree.SubElement(case, "error", message=detail or "failed")
        elif verdict == "skipped":
            ElementTree.SubElement(case, "skipped", message=detail)
        elif verdict != SAME:
            out = ElementTree.SubElement(case, "system-out")
            out.text = f"{verdict}: {detail}"
    ElementTree.indent(suite)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(suite, encoding="unicode")
        + "\n"
    )
