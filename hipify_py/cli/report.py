"""`hipify-py report PATHS`: the migration report (see docs/report.md).

Translates in check mode (writes no source file), then renders the report as
Markdown, JSON or one self-contained HTML page.  Exit 0: it reports, it does
not judge; 2 on a usage error, a missing path or an I/O error (the report is
still written, listing the problem).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from hipify_py.cli.options import explicit_flags, shared_options
from hipify_py.engine.hip_target import default_version

EXIT_OK, EXIT_ERROR = 0, 2


@click.command(
    "report",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "json", "html", "csv", "api-csv"]),
    default="md",
    show_default=True,
    help="md: Markdown; json: stable keys (docs/report.md); html: one self-contained page; "
    "csv: one row per file, most effort first; api-csv: every CUDA API found and what it became.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the report to FILE [default: stdout].",
)
@shared_options("report")
def report_command(paths: tuple[Path, ...], **flags: Any) -> None:
    """Migration report: how much of PATHS translates automatically, what blocks the rest.

    \b
    Shows references converted vs unconverted (by library and file), device
    hazards to review, inline PTX sites, the unsupported APIs ranked by the
    number of files they block, and an effort estimate (docs/report.md).
    Writes no source file.  Exit 0 (it reports, it does not judge); 2 on a
    usage error, a missing path or an I/O error.
    """
    sys.exit(run_report(list(paths), flags, explicit_flags(click.get_current_context(), flags)))


def fail(message: str) -> int:
    click.echo(f"hipify-py report: error: {message}", err=True)
    return EXIT_ERROR


def run_report(paths: list[Path], flags: dict[str, Any], explicit: set[str]) -> int:
    from hipify_py.cli.analysis import plan_check, settle
    from hipify_py.report.migration import build_report, render
    from hipify_py.tables.versions import format_version

    settled = settle("report", paths, flags, explicit)
    if isinstance(settled, str):
        return fail(settled)
    merged, paths, options = settled.flags, settled.paths, settled.options
    planned = plan_check(settled)
    if isinstance(planned, str):
        return fail(planned)
    table = planned.table
    discovery = planned.discovery
    for problem in discovery.missing:
        click.echo(f"hipify-py report: error: {problem}", err=True)
    for problem in discovery.problems:
        click.echo(f"hipify-py report: warning: {problem}", err=True)
    hip = options.hip_version or default_version()
    from hipify_py.cli.progress import with_progress

    report = build_report(
        with_progress(planned.reports(), len(discovery.targets), "analysing"),
        table,
        hip_version=format_version(hip),
        inputs=[str(p) for p in paths],
        problems=[*discovery.missing, *discovery.problems],
    )
    text = render(report, merged["fmt"])
    failed = bool(discovery.missing) or any(f.status == "error" for f in report.files)
    if merged["output"] is None:
        sys.stdout.buffer.write(text.encode("utf-8", errors="replace"))
        sys.stdout.buffer.flush()
    else:
        from hipify_py.atomic import atomic_write

        try:
            atomic_write(merged["output"], text.encode("utf-8", errors="replace"), durable=False)
        except OSError as exc:
            return fail(f"cannot write {merged['output']}: {exc.strerror or exc}")
        click.echo(f"wrote {merged['output']}", err=True)
    return EXIT_ERROR if failed else EXIT_OK
