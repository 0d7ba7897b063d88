"""`hipify-py diagnostics`: the catalogue of codes, and docs/diagnostics.md."""

from __future__ import annotations

from pathlib import Path

import click

from hipify_py.report.diagnostics_doc import explain, markdown
from hipify_py.rules.catalogue import CATALOGUE

DOCS = Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md"


def run_diagnostics(codes: list[str], write_docs: bool, check_docs: bool) -> int:
    if write_docs or check_docs:
        wanted = markdown()
        current = DOCS.read_text(encoding="utf-8") if DOCS.is_file() else None
        if check_docs:
            if current != wanted:
                click.echo(f"{DOCS}: stale; run hipify-py diagnostics --write-docs", err=True)
                return 1
            return 0
        DOCS.parent.mkdir(parents=True, exist_ok=True)
        DOCS.write_text(wanted, encoding="utf-8")
        click.echo(f"wrote {DOCS}", err=True)
        return 0
    if not codes:
        for entry in CATALOGUE.values():
            click.echo(
                f"{entry.code}  {entry.severity.value:<7}  {entry.name:<36}  {entry.summary}"
            )
        return 0
    status = 0
    for code in codes:
        found = CATALOGUE.get(code.upper())
        chosen = (
            found
            if found is not None
            else next((e for e in CATALOGUE.values() if e.name == code), None)
        )
        if chosen is None:
            click.echo(f"hipify-py: error: unknown diagnostic code {code!r}", err=True)
            status = 2
            continue
        click.echo(explain(chosen) + "\n")
    return status
