"""What the translate command prints per file and at the end, and its exit code
(shared by the path and stdin runs)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from hipify_py.cli.progress import echo_err
from hipify_py.cli.render import (
    Summary,
    changed_line,
    format_diagnostic,
    visible,
)
from hipify_py.cli.run_setup import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from hipify_py.project.runner import FileReport, Mode, Status


def list_asm(reports: Any) -> int:
    """--list-asm: one line per inline PTX site, then a count."""
    sites = 0
    for report in reports:
        for diagnostic in report.diagnostics:
            if diagnostic.code == "HPY501":
                sites += 1
                text = diagnostic.message.split(": ", 1)[-1]
                # sys.stdout at the time: above the bar when stdout is its terminal
                line = f"{report.display}:{diagnostic.line}:{diagnostic.column}: {text}"
                click.echo(line, file=sys.stdout)
    click.echo(f"{sites} inline PTX site(s)", err=True)
    return EXIT_OK


def emit(report: FileReport, mode: Mode, verbosity: int, as_json: bool) -> None:
    if report.status is Status.ERROR:
        echo_err(f"{report.display}: error: {report.error}")
    if not as_json:
        for diagnostic in report.diagnostics:
            if visible(diagnostic, verbosity):
                echo_err(format_diagnostic(report.display, diagnostic))
        if report.traceback and verbosity > 0:
            echo_err(f"{report.display}: the internal error's traceback (for a bug report):")
            echo_err(report.traceback.rstrip("\n"))
        elif report.traceback:
            echo_err(f"{report.display}: -v prints the internal error's traceback")
    if mode is Mode.STDOUT and report.output is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(report.output)
        sys.stdout.buffer.flush()
    elif mode is Mode.DIFF and report.diff and not as_json:
        sys.stdout.write(report.diff)
    elif report.status is Status.CHANGED and report.written and verbosity != 0:
        # -v, and --quiet's one line per changed file
        echo_err(changed_line("translated", report, verbosity))
    elif mode is Mode.CHECK and report.status is Status.CHANGED:
        echo_err(changed_line("would translate", report, verbosity))


def compat_header(folder: Path | None, mode: Mode, summary: Summary, verbosity: int) -> None:
    """--compat: write hipify_py_compat.h once into ``folder`` (in place, -o);
    the modes that write nothing say where to get it."""
    from hipify_py.engine.compat import HEADER
    from hipify_py.project.compat_header import write_header

    if folder is None or not mode.writes:
        where = " next to the file" if folder is None else ""
        target = HEADER if folder is None else str(folder / HEADER)
        if verbosity >= 0:
            click.echo(
                f"hipify-py: note: the translation includes {HEADER}; write it{where} with "
                f"`hipify-py compat-header > {target}`",
                err=True,
            )
        return
    try:
        written = write_header(folder)
    except OSError as exc:
        why = (exc.strerror or str(exc)).lower()
        summary.copy_errors += 1
        summary.problems.append(f"{folder / HEADER}: cannot write: {why}")
        click.echo(f"{folder / HEADER}: error: cannot write: {why}", err=True)
        return
    if written and verbosity >= 0:
        click.echo(f"hipify-py: note: wrote {folder / HEADER} (--compat)", err=True)


def exit_code(summary: Summary, mode: Mode, check: bool, strict: bool, missing: bool) -> int:
    if summary.errors or missing:  # a path not found, a read, write or copy that failed
        return EXIT_ERROR
    if check and (summary.by_status["changed"] or summary.unsupported):
        return EXIT_FINDINGS
    if strict and summary.unsupported:
        return EXIT_FINDINGS
    return EXIT_OK
