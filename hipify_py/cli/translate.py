"""The translate command: options from flags, discovery, the run, the output."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

import click

from hipify_py.api import translate_paths
from hipify_py.cli import interrupts
from hipify_py.cli.emit import compat_header, emit, exit_code, list_asm
from hipify_py.cli.progress import echo_err, with_progress
from hipify_py.cli.render import (
    Summary,
    print_summary,
    report_json,
    summary_line,
)
from hipify_py.cli.run_setup import (
    EXIT_INTERRUPTED,
    build_options,
    clang_setup,
    configured,
    extensions_of,
    fail,
    mode_of,
    resolve_target,
    verbosity_of,
)
from hipify_py.project.config import configured_paths
from hipify_py.project.files import Discovery, DiscoveryError
from hipify_py.project.runner import FileReport, Mode
from hipify_py.tables.cache import load_table
from hipify_py.tables.table import TableError


def run_translate(
    paths: list[Path], flags: dict[str, Any], explicit: set[str] | None = None
) -> int:
    """The translate command; the tree's lock and the Ctrl-C handler are held
    for the run and given back when it ends."""
    from hipify_py.project import runner

    runner.reset_stop()
    with contextlib.ExitStack() as stack:
        _on_interrupt(stack)
        return _run_translate(paths, flags, explicit, stack)


def _on_interrupt(stack: contextlib.ExitStack) -> None:
    """The first Ctrl-C (SIGINT) asks the run to stop: every process finishes the
    file in hand (writes are atomic) and takes no other, then the summary says
    what was done and the exit code is 130.  A second Ctrl-C aborts at once."""
    from hipify_py.project import runner

    def handler(signum: int, frame: Any) -> None:
        if runner.stop_requested():
            raise interrupts.interruption()
        runner.request_stop()
        with contextlib.suppress(OSError):
            os.write(2, b"\nhipify-py: stopping after the files in hand (Ctrl-C again to abort)\n")

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave Ctrl-C as it is
        return
    # In the hipify-py process itself the run is over when this unwinds: a
    # Ctrl-C now has nothing left to stop, and Python's own handler would turn
    # it into a traceback or a death by SIGINT while the interpreter shuts
    # down.  Called in process (tests, embedding), Ctrl-C is given back.
    ignore = interrupts.PROCESS_ENTRY
    stack.callback(signal.signal, signal.SIGINT, signal.SIG_IGN if ignore else previous)


def _run_translate(
    paths: list[Path],
    flags: dict[str, Any],
    explicit: set[str] | None,
    stack: contextlib.ExitStack,
) -> int:
    formatted = _with_format(flags, explicit)
    if isinstance(formatted, str):
        return fail(formatted)
    flags = formatted
    from hipify_py.cli.stdin import reads_stdin, run_stdin

    if reads_stdin(paths, flags):
        return run_stdin(flags, explicit if explicit is not None else set(flags))
    if any(str(p) == "-" for p in paths):
        return fail("`-` (stdin) cannot be combined with other paths (name a file `-` as ./-)")
    if flags.get("stdin_filename") is not None:
        return fail("--stdin-filename names stdin: give `-` as the only path")
    settled = configured(
        flags, explicit if explicit is not None else set(flags), paths[0] if paths else Path.cwd()
    )
    if isinstance(settled, str):
        return fail(settled)
    config, flags = settled
    if not paths:
        paths = configured_paths(config)
    if not paths:
        return fail(
            "no paths given (try: hipify-py src/, set paths in [tool.hipify-py], "
            "or see hipify-py --help)"
        )
    mode = mode_of(flags)
    if not isinstance(mode, Mode):
        return fail(mode)
    if flags["list_asm"]:
        mode = Mode.CHECK
    target = resolve_target(flags, explicit)
    if isinstance(target, str):
        return fail(target)
    options = build_options(flags, target)
    if isinstance(options, str):
        return fail(options)
    if verbosity_of(flags) >= 0 and flags["form"] != "json" and not flags["list_asm"]:
        echo_err(f"hipify-py: {target.describe()}")
    clang = clang_setup(flags, explicit if explicit is not None else set(flags))
    if isinstance(clang, str):
        return fail(clang)
    if flags["backup"] and mode is not Mode.IN_PLACE:
        return fail("--backup only applies when translating in place")
    if flags["copy_all"] and mode is not Mode.OUTPUT_DIR:
        return fail("--copy-all needs --output-dir")
    try:
        table = load_table(flags["mappings_dir"])
        planned = translate_paths(
            paths,
            mode=mode,
            output_dir=flags["output_dir"],
            jobs=flags["jobs"],
            extensions=extensions_of(flags),
            excludes=flags["exclude"],
            use_gitignore=not flags["no_gitignore"],
            backup=flags["backup"],
            copy_other=flags["copy_all"],
            table=table,
            options=options,
            use_cache=not flags["no_cache"],
            rename=flags["rename"],
            project_headers=flags["project_headers"],
            include_dirs=flags["include_dir"],
            config_excludes=flags["config_exclude"],
            max_bytes=int((flags.get("max_file_size") or 0) * 1024 * 1024),
            config=config,
        )
    except DiscoveryError as exc:
        return fail(str(exc))
    except (TableError, OSError) as exc:
        return fail(f"mapping tables: {exc}")
    if clang is not None:
        from dataclasses import replace

        planned.job = replace(planned.job, clang=clang)
        if verbosity_of(flags) > 0:
            click.echo(f"hipify-py: note: clang engine: {clang.describe()}", err=True)
    discovery = planned.discovery
    for problem in discovery.missing:
        click.echo(f"hipify-py: error: {problem}", err=True)
    for problem in discovery.problems:
        click.echo(f"hipify-py: warning: {problem}", err=True)
    if verbosity_of(flags) >= 0:
        for header in discovery.added_headers:
            click.echo(f"hipify-py: note: also translating the local header {header}", err=True)
        for includer in discovery.added_includers:
            click.echo(
                f"hipify-py: note: rewriting the includes of renamed files in {includer}", err=True
            )
    targets = discovery.targets
    if mode is Mode.STDOUT and len(targets) != 1:
        return fail(f"--stdout needs exactly one file; {len(targets)} found")
    verbosity = -1 if flags["quiet"] else (1 if flags["verbose"] else 0)
    as_json = flags["form"] == "json"
    summary = Summary()
    summary.problems.extend(discovery.missing)
    summary.not_found = len(discovery.missing)
    reports: list[FileReport] = []
    if flags["list_asm"]:
        return list_asm(with_progress(planned.reports(), len(targets), "scanning"))
    from hipify_py.project.lock import LockHeld
    from hipify_py.project.runner import stop_requested

    try:
        stack.enter_context(planned.locked())
    except LockHeld as exc:
        return fail(str(exc))
    if planned.removed and verbosity >= 0:
        click.echo(
            f"hipify-py: note: removed {len(planned.removed)} temporary file(s) left by an "
            "interrupted run",
            err=True,
        )
    progress = with_progress(planned.reports(), len(targets), "translating", quiet=verbosity < 0)
    uses_compat = False
    for report in progress:
        summary.add(report)
        uses_compat = uses_compat or report.compat
        if as_json:
            reports.append(report)
        emit(report, mode, verbosity, as_json)
    if stop_requested():
        return _interrupted(summary, reports, len(targets), mode, verbosity, as_json)
    if uses_compat:
        compat_header(planned.job.compat_dir, mode, summary, verbosity)
    _copy_other(discovery, summary, verbosity)
    if discovery.build_files and mode is not Mode.STDOUT:
        from hipify_py.project.build_files import process_build_file

        for build in discovery.build_files:
            report = process_build_file(build, planned.job, flags["fix_build"])
            summary.add(report)
            if as_json:
                reports.append(report)
            emit(report, mode, verbosity, as_json)
    if as_json:
        stream = sys.stderr if mode is Mode.STDOUT else sys.stdout
        stream.write(report_json(reports, summary))
    elif flags["stats"] or (verbosity >= 0 and mode is not Mode.STDOUT):
        print_summary(summary, sys.stderr, mode=mode.value, stats=flags["stats"])
    elif mode is not Mode.STDOUT:  # --quiet: one line, as ruff and black print
        click.echo(summary_line(summary, mode=mode.value), err=True)
    return exit_code(summary, mode, flags["check"], flags["strict"], bool(discovery.missing))


def _with_format(flags: dict[str, Any], explicit: set[str] | None) -> dict[str, Any] | str:
    """--report-format, the former name of --format, still works (hidden)."""
    former = flags.get("report_format")
    if former is None:
        return {"form": "text", **flags}
    if explicit is not None and "form" in explicit and flags.get("form") != former:
        return "--report-format is the former name of --format: give one of them"
    return {**flags, "form": former}


def _interrupted(
    summary: Summary,
    reports: list[FileReport],
    total: int,
    mode: Mode,
    verbosity: int,
    as_json: bool,
) -> int:
    """After Ctrl-C: the summary of the files done, what is left, exit 130."""
    if as_json:
        sys.stdout.write(report_json(reports, summary))
    elif verbosity >= 0:
        print_summary(summary, sys.stderr, mode=mode.value, stats=False)
    written = summary.by_status["changed"] if mode.writes else 0
    left = total - summary.files
    done = f"{summary.files} of {total} file(s) done"
    if mode.writes:
        done += f" ({written} written)"
    click.echo(
        f"hipify-py: interrupted: {done}, {left} not processed; every file is either as it "
        "was or completely translated: run the same command again to finish",
        err=True,
    )
    return EXIT_INTERRUPTED


def _copy_other(discovery: Discovery, summary: Summary, verbosity: int) -> None:
    """-o: the links recreated; --copy-all: the other files copied (each
    whole or not at all), and what the walk left out counted."""
    from hipify_py.atomic import atomic_copy, atomic_link

    def failed(source: Path, target: Path, exc: OSError) -> None:
        why = f"cannot copy to {target}: {(exc.strerror or str(exc)).lower()}"
        summary.copy_errors += 1
        summary.problems.append(f"{source}: {why}")
        click.echo(f"{source}: error: {why}", err=True)

    for source, target in discovery.extra_copies:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_copy(source, target)
            summary.copied += 1
        except OSError as exc:
            failed(source, target, exc)
    for link, target, text in discovery.links:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_link(target, text)
            summary.linked += 1
        except OSError as exc:
            failed(link, target, exc)
    summary.not_copied.extend(discovery.not_copied)
    if verbosity > 0:
        for path, why in discovery.not_copied:
            click.echo(f"hipify-py: note: not copied ({why}): {path}", err=True)
