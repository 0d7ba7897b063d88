"""docs/realcode.md from a run's results."""

from __future__ import annotations

import subprocess
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

LABELS = {"5.7": "ROCm 5.7.1", "6.4": "ROCm 6.4", "7.2": "ROCm 7.2", "nvidia": "HIP on NVIDIA"}


def git_revision(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "describe", "--always", "--dirty"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def tally(project: dict[str, Any], target: str) -> dict[str, int]:
    """units, countable (the original builds), compiled, failed predicted, failed silent."""
    counts = Counter(units=len(project["units"]))
    for row in project["units"]:
        if not row["cuda"]["compiled"]:
            continue
        counts["countable"] += 1
        entry = row[target]
        if entry["compiled"]:
            counts["compiled"] += 1
        elif entry.get("predicted"):
            counts["predicted"] += 1
            if str(entry["predicted"]).startswith("construct"):
                counts["construct"] += 1
        else:
            counts["silent"] += 1
    keys = ("units", "countable", "compiled", "predicted", "construct", "silent")
    return {k: counts[k] for k in keys}


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _where(error: dict[str, Any] | None) -> str:
    if not error:
        return "(no error line)"
    place = f"{error['file']}:{error['line']}" if error["file"] else "(no file)"
    return f"{place}: {error['message']}"


SET_TITLES = {"dev": "Development set", "validation": "Validation set"}
SET_NOTES = {
    "dev": "The projects hipify-py is fixed against: their failures are itemized below.",
    "validation": "Held-out projects, measured but not looked into while fixing: only "
    "their counts are shown here (the results file has the rest), so that they stay a "
    "fair test of fixes made on the development set.",
}


def set_of(project: dict[str, Any]) -> str:
    """The project's set (results written before the sets existed: dev)."""
    return str(project.get("set") or "dev")


def _table(projects: list[dict[str, Any]], targets: list[str]) -> list[str]:
    out = [
        "| project | release | units | countable | compiled | % | failed, predicted "
        "(of which by construct) | failed, silent |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for project in projects:
        for target in targets:
            row = tally(project, target)
            totals[target].update(row)
            out.append(
                f"| {project['name']} {project['version']} | {LABELS.get(target, target)} "
                f"| {row['units']} | {row['countable']} | {row['compiled']} "
                f"| {_pct(row['compiled'], row['countable'])} | {row['predicted']} "
                f"({row['construct']}) | {row['silent']} |"
            )
    for target in targets:
        row = totals[target]
        out.append(
            f"| **all** | {LABELS.get(target, target)} | {row['units']} | {row['countable']} "
            f"| {row['compiled']} | {_pct(row['compiled'], row['countable'])} "
            f"| {row['predicted']} ({row['construct']}) | {row['silent']} |"
        )
    return out


def markdown(doc: dict[str, Any]) -> str:
    targets = [t for t in doc["targets"] if t != "cuda"]
    out = [
        "# Real-code benchmark",
        "",
        "Real CUDA projects (pinned PyPI sdists fetched by name with pip,",
        "`benchmarks/realcode/projects.yaml`) translated",
        "in tree mode and compiled unit by unit with `-c`: the translation with each ROCm",
        "release's hipcc for gfx942 (and, where asked, as HIP on NVIDIA: nvcc 12.4 with",
        "`-D__HIP_PLATFORM_NVIDIA__`), the CUDA original with nvcc 12.4 (device code to PTX). Only",
        "units whose original builds count. A unit that fails is *predicted* when hipify-py gave",
        "an error or warning at its first error's file and line, for an `#error` on a line of",
        "the `#if` conditions that select it, or in that file naming an identifier the error",
        "names (*by construct*), or when the failing file is a header it reported as having no",
        "HIP counterpart (a vendored libcu++); otherwise it is a *silent* failure.",
        "The projects are in two sets: the *development set*, whose failures guide the fixes,",
        "and the *validation set*, held out (`run.py --set validation`): its numbers show",
        "whether the fixes carry over to code no one looked at.",
        "Regenerate with the command below (see `benchmarks/realcode/run.py`).",
        "",
        f"- command: `{doc['command']}`",
        f"- run: {doc['started']}, {doc['minutes']} min (compile results cached from earlier "
        f"runs count as they were measured); hipify-py `{doc['hipify_py']}`",
    ]
    if doc.get("not_run"):
        out.append("- in projects.yaml but not in this run: " + ", ".join(doc["not_run"]))
    by_set: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for project in doc["projects"]:
        by_set[set_of(project)].append(project)
    for name in sorted(by_set, key=lambda n: (n != "dev", n)):
        out += ["", f"## {SET_TITLES.get(name, name)}", "", SET_NOTES.get(name, ""), ""]
        out += _table(by_set[name], targets)
    itemized = by_set.get("dev", [])
    out += [
        "",
        "## First-error classes",
        "",
        "Countable units of the development set that fail, by the class of their first",
        "error (classes.yaml).",
        "",
    ]
    for target in targets:
        classes: Counter[tuple[str, bool]] = Counter()
        for project in itemized:
            for row in project["units"]:
                entry = row[target]
                if row["cuda"]["compiled"] and not entry["compiled"]:
                    label = (entry["first_error"] or {}).get("label", "other")
                    classes[(label, bool(entry.get("predicted")))] += 1
        if not classes:
            continue
        out += [
            f"### {LABELS.get(target, target)}",
            "",
            "| class | predicted | silent |",
            "|---|---:|---:|",
        ]
        for label in sorted(
            {k[0] for k in classes}, key=lambda k: -(classes[(k, True)] + classes[(k, False)])
        ):
            out.append(f"| {label} | {classes[(label, True)]} | {classes[(label, False)]} |")
        out.append("")
    out += [
        "## Silent failures",
        "",
        "The development set's, grouped by first error; each with the units that stop there.",
        "",
    ]
    for target in targets:
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        labels: dict[tuple[str, str], str] = {}
        for project in itemized:
            for row in project["units"]:
                entry = row[target]
                if not row["cuda"]["compiled"] or entry["compiled"] or entry.get("predicted"):
                    continue
                key = (project["name"], _where(entry["first_error"]))
                groups[key].append(row["unit"])
                labels[key] = (entry["first_error"] or {}).get("label", "other")
        if not groups:
            continue
        out += [f"### {LABELS.get(target, target)}", ""]
        for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):
            units = groups[key]
            shown = ", ".join(f"`{u}`" for u in units[:4])
            more = f" and {len(units) - 4} more" if len(units) > 4 else ""
            out.append(
                f"- {key[0]}, {len(units)} unit(s), *{labels[key]}*: "
                f"`{key[1][:300]}` ({shown}{more})"
            )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def summary_lines(doc: dict[str, Any]) -> str:
    lines = []
    for project in doc["projects"]:
        for target in doc["targets"]:
            if target == "cuda":
                continue
            row = tally(project, target)
            lines.append(
                f"{project['name']} ({set_of(project)}) {LABELS.get(target, target)}: "
                f"{row['compiled']}/"
                f"{row['countable']} compiled ({row['units']} units), {row['predicted']} "
                f"predicted, {row['silent']} silent"
            )
    return "\n".join(lines)
