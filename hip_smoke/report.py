"""Printing smoke results: a rich table, JSON or markdown (docs/smoke.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

STEPS = ("translate", "compile", "run", "match")


def _status(result: dict[str, Any], step: str) -> tuple[str, str]:
    value = result.get(step)
    if isinstance(value, dict):  # from the harness: {"status": ..., "detail": ...}
        return str(value.get("status", "")), str(value.get("detail", ""))
    if value is None:
        return "", ""
    return str(value), str(result.get("detail", "")) if step in ("run", "match") else ""


def failed(results: list[dict[str, Any]]) -> bool:
    return any(_status(r, step)[0] == "failed" for r in results for step in STEPS)


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| sample | platform | translate | compile | run | match | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for result in results:
        cells = [_status(result, step) for step in STEPS]
        notes = "; ".join(detail for _, detail in cells if detail)
        lines.append(
            f"| {result['sample']} | {result['platform']} | "
            + " | ".join(status or "-" for status, _ in cells)
            + f" | {notes.replace('|', '/')} |"
        )
    return "\n".join(lines)


def emit(results: list[dict[str, Any]], form: str, results_file: Path | None, *, ran: bool) -> int:
    if results_file is not None:
        results_file.write_text(json.dumps({"results": results}, indent=2) + "\n", encoding="utf-8")
    if form == "json":
        sys.stdout.write(json.dumps({"results": results}, indent=2) + "\n")
    elif form == "md":
        sys.stdout.write(markdown(results) + "\n")
    else:
        _table(results)
    if not ran:
        print(
            "note: nothing was run; only translation and compilation were checked", file=sys.stderr
        )
    return 1 if failed(results) else 0


def _table(results: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    colours = {"ok": "green", "failed": "bold red", "skipped": "yellow", "not run": "dim"}
    table = Table(title="hip_smoke", header_style="bold")
    for heading in ("sample", "platform", *STEPS, "note"):
        table.add_column(heading, overflow="fold")
    for result in results:
        cells = [_status(result, step) for step in STEPS]
        note = "; ".join(detail for _, detail in cells if detail)
        table.add_row(
            result["sample"],
            result["platform"],
            *(
                f"[{colours.get(s, '')}]{s or '-'}[/]" if s in colours else (s or "-")
                for s, _ in cells
            ),
            note,
        )
    Console(file=sys.stderr, soft_wrap=True).print(table)
