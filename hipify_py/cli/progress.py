"""The progress bar of the long commands (translate, check, report).

Drawn on stderr, and only when stderr is a terminal, the run is not quiet
and has at least MIN_FILES files: below that it only flickers.  What the
command writes to stdout meanwhile is never touched when stdout is a file or
a pipe (`--diff > x.diff`), so stdout is byte-identical with or without a
terminal on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

import click

MIN_FILES = 50

T = TypeVar("T")


def with_progress(
    items: Iterable[T], total: int, label: str, *, quiet: bool = False
) -> Iterator[T]:
    """Yield ``items`` (``total`` of them), advancing a bar labelled ``label``."""
    if total < MIN_FILES or quiet or not sys.stderr.isatty():
        yield from items
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    # Lines written to sys.stderr meanwhile (diagnostics) are printed above
    # the bar (redirect_stderr).  stdout is redirected above the bar too only
    # when it is a terminal: then it is the screen the bar is drawn on, and
    # text written to it directly would be erased by the bar's next redraw.
    # A redirected stdout is left alone: rich's default would send it to the
    # terminal instead (`--diff > x.diff` made an empty file).
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True, soft_wrap=True, highlight=False),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=True,
    ) as progress:
        task = progress.add_task(label, total=total)
        for item in items:
            progress.advance(task)
            yield item


def echo_err(message: str) -> None:
    """Print a line on stderr, above the bar while one is drawn.

    click.echo(err=True) would not do: it writes to the buffer under
    sys.stderr, past rich's redirection, and the line runs into the bar."""
    click.echo(message, file=sys.stderr)
