"""The translate command: options from flags, discovery, the run, the output."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

import click

from .api import translate_paths
from .config import ConfigError, configured_paths, merge, project_config
from .files import DEFAULT_EXTENSIONS, Discovery, DiscoveryError
from .hip_target import Target
from .options import Options
from .progress import echo_err, with_progress
from .render import (
    Summary,
    changed_line,
    format_diagnostic,
    print_summary,
    report_json,
    summary_line,
    visible,
)
from .runner import FileReport, Mode, Status
from .table import TableError
from .table_cache import load_table
from .versions import parse_version

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def _fail(message: str) -> int:
    click.echo(f"hipify-py: error: {message}", err=True)
    return EXIT_ERROR


def _codes(value: str | None) -> frozenset[str]:
    return frozenset(c.strip().upper() for c in (value or "").split(",") if c.strip())


def unknown_codes(codes: frozenset[str]) -> list[str]:
    """Codes (or prefixes such as HPY4) that name no diagnostic in the catalogue."""
    from .diagnostics import CATALOGUE

    return sorted(c for c in codes if not any(known.startswith(c) for known in CATALOGUE))


def _mode(flags: dict[str, Any]) -> Mode | str:
    chosen = [
        name
        for name, on in (
            ("--stdout", flags["to_stdout"]),
            ("--diff", flags["show_diff"]),
            ("--output-dir", flags["output_dir"] is not None),
        )
        if on
    ]
    if len(chosen) > 1:
        return f"{' and '.join(chosen)} cannot be combined"
    if flags["check"] and (flags["to_stdout"] or flags["output_dir"] is not None):
        return "--check cannot be combined with --stdout or --output-dir"
    if flags["show_diff"]:
        return Mode.DIFF  # --diff --check: show the diff and exit 1 if there is one
    if flags["check"]:
        return Mode.CHECK
    if flags["to_stdout"]:
        return Mode.STDOUT
    if flags["output_dir"] is not None:
        return Mode.OUTPUT_DIR
    return Mode.IN_PLACE


def resolve_target(flags: dict[str, Any], explicit: set[str] | None = None) -> Target | str:
    """The HIP release to target: --hip-version, the configuration's
    hip-version, else the user's toolchain (hip_target.detect)."""
    if flags["hip_version"]:
        try:
            version = parse_version(flags["hip_version"])
        except ValueError as exc:
            return f"--hip-version: {exc}"
        typed = explicit is None or "hip_version" in explicit
        return Target(version, "--hip-version" if typed else "hip-version in the configuration")
    from .hip_target import detect

    return detect()


def build_options(flags: dict[str, Any], target: Target | None = None) -> Options | str:
    if target is None:
        resolved = resolve_target(flags)
        if isinstance(resolved, str):
            return resolved
        target = resolved
    hip_version = target.version
    for option in ("select", "ignore"):
        unknown = unknown_codes(_codes(flags[option]))
        if unknown:
            return (
                f"--{option}: unknown diagnostic code{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(unknown)} (hipify-py diagnostics lists them)"
            )
    return Options(
        hip_version=hip_version,
        roc=flags["roc"],
        launch_syntax=flags["launch_syntax"],
        rewrite_strings=flags["rewrite_strings"],
        insert_runtime_include=not flags["no_runtime_include"],
        select=_codes(flags["select"]),
        ignore=_codes(flags["ignore"]),
        fix_warp_size=flags["fix_warp_size"],
        offload_arch=flags["offload_arch"],
        fp8=flags["fp8"],
        annotate=flags["annotate"],
        compat=bool(flags.get("compat")),
    )


_CLANG_FLAGS = {
    "build_path": "-p/--build-path",
    "defines": "-D/--define",
    "std": "--std",
    "cuda_path": "--cuda-path",
    "clang_resource_dir": "--clang-resource-dir",
}


def clang_setup(flags: dict[str, Any], explicit: set[str]) -> Any:
    """--engine clang: the resolved setup (a semantic.ClangSetup), made once
    here and passed to every worker; None for the default engine; a string
    says why the clang engine cannot run (a usage error)."""
    if (flags.get("engine") or "default") != "clang":
        given = [f for name, f in _CLANG_FLAGS.items() if name in explicit and flags.get(name)]
        if given:
            return f"{', '.join(given)} only apply with --engine clang"
        return None
    from .semantic import ClangSettings, SetupError, prepare
    from .table_cache import cache_dir

    def folder(name: str) -> Path | None:
        value = flags.get(name)
        return Path(value).resolve() if value else None

    settings = ClangSettings(
        build_path=folder("build_path"),
        include_dirs=tuple(str(Path(d).resolve()) for d in flags.get("include_dir") or ()),
        defines=tuple(flags.get("defines") or ()),
        std=flags.get("std") or None,
        cuda_path=folder("cuda_path"),
        resource_dir=folder("clang_resource_dir"),
    )
    try:
        return prepare(settings, cache_dir())
    except SetupError as exc:
        return f"--engine clang: {exc}"


def run_translate(
    paths: list[Path], flags: dict[str, Any], explicit: set[str] | None = None
) -> int:
    """The translate command; the tree's lock and the Ctrl-C handler are held
    for the run and given back when it ends."""
    from . import runner

    runner.reset_stop()
    with contextlib.ExitStack() as stack:
        _on_interrupt(stack)
        return _run_translate(paths, flags, explicit, stack)


def _on_interrupt(stack: contextlib.ExitStack) -> None:
    """The first Ctrl-C (SIGINT) asks the run to stop: every process finishes the
    file in hand (writes are atomic) and takes no other, then the summary says
    what was done and the exit code is 130.  A second Ctrl-C aborts at once."""
    from . import runner

    def handler(signum: int, frame: Any) -> None:
        if runner.stop_requested():
            from .cli import interruption

            raise interruption()
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
    from .cli import PROCESS_ENTRY

    stack.callback(signal.signal, signal.SIGINT, signal.SIG_IGN if PROCESS_ENTRY else previous)


def _run_translate(
    paths: list[Path],
    flags: dict[str, Any],
    explicit: set[str] | None,
    stack: contextlib.ExitStack,
) -> int:
    formatted = _with_format(flags, explicit)
    if isinstance(formatted, str):
        return _fail(formatted)
    flags = formatted
    from .cli_stdin import reads_stdin, run_stdin

    if reads_stdin(paths, flags):
        return run_stdin(flags, explicit if explicit is not None else set(flags))
    if any(str(p) == "-" for p in paths):
        return _fail("`-` (stdin) cannot be combined with other paths (name a file `-` as ./-)")
    if flags.get("stdin_filename") is not None:
        return _fail("--stdin-filename names stdin: give `-` as the only path")
    try:
        config = project_config(flags.get("config_path"), paths[0] if paths else Path.cwd())
    except ConfigError as exc:
        return _fail(str(exc))
    flags = merge(flags, explicit if explicit is not None else set(flags), config)
    if not paths:
        paths = configured_paths(config)
    if not paths:
        return _fail(
            "no paths given (try: hipify-py src/, set paths in [tool.hipify-py], "
            "or see hipify-py --help)"
        )
    mode = _mode(flags)
    if not isinstance(mode, Mode):
        return _fail(mode)
    if flags["list_asm"]:
        mode = Mode.CHECK
    target = resolve_target(flags, explicit)
    if isinstance(target, str):
        return _fail(target)
    options = build_options(flags, target)
    if isinstance(options, str):
        return _fail(options)
    if verbosity_of(flags) >= 0 and flags["form"] != "json" and not flags["list_asm"]:
        echo_err(f"hipify-py: {target.describe()}")
    clang = clang_setup(flags, explicit if explicit is not None else set(flags))
    if isinstance(clang, str):
        return _fail(clang)
    if flags["backup"] and mode is not Mode.IN_PLACE:
        return _fail("--backup only applies when translating in place")
    if flags["copy_all"] and mode is not Mode.OUTPUT_DIR:
        return _fail("--copy-all needs --output-dir")
    extensions = DEFAULT_EXTENSIONS
    if flags["extensions"]:
        extensions = tuple(e.strip() for e in flags["extensions"].split(",") if e.strip())
    try:
        table = load_table(flags["mappings_dir"])
        planned = translate_paths(
            paths,
            mode=mode,
            output_dir=flags["output_dir"],
            jobs=flags["jobs"],
            extensions=extensions,
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
        return _fail(str(exc))
    except (TableError, OSError) as exc:
        return _fail(f"mapping tables: {exc}")
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
        return _fail(f"--stdout needs exactly one file; {len(targets)} found")
    verbosity = -1 if flags["quiet"] else (1 if flags["verbose"] else 0)
    as_json = flags["form"] == "json"
    summary = Summary()
    summary.problems.extend(discovery.missing)
    summary.not_found = len(discovery.missing)
    reports: list[FileReport] = []
    if flags["list_asm"]:
        return _list_asm(with_progress(planned.reports(), len(targets), "scanning"))
    from .lock import LockHeld
    from .runner import stop_requested

    try:
        stack.enter_context(planned.locked())
    except LockHeld as exc:
        return _fail(str(exc))
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
        _emit(report, mode, verbosity, as_json)
    if stop_requested():
        return _interrupted(summary, reports, len(targets), mode, verbosity, as_json)
    if uses_compat:
        _compat_header(planned.job.compat_dir, mode, summary, verbosity)
    _copy_other(discovery, summary, verbosity)
    if discovery.build_files and mode is not Mode.STDOUT:
        from .build_files import process_build_file

        for build in discovery.build_files:
            report = process_build_file(build, planned.job, flags["fix_build"])
            summary.add(report)
            if as_json:
                reports.append(report)
            _emit(report, mode, verbosity, as_json)
    if as_json:
        stream = sys.stderr if mode is Mode.STDOUT else sys.stdout
        stream.write(report_json(reports, summary))
    elif flags["stats"] or (verbosity >= 0 and mode is not Mode.STDOUT):
        print_summary(summary, sys.stderr, mode=mode.value, stats=flags["stats"])
    elif mode is not Mode.STDOUT:  # --quiet: one line, as ruff and black print
        click.echo(summary_line(summary, mode=mode.value), err=True)
    return _exit_code(summary, mode, flags["check"], flags["strict"], bool(discovery.missing))


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


def _list_asm(reports: Any) -> int:
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


def verbosity_of(flags: dict[str, Any]) -> int:
    return -1 if flags["quiet"] else (1 if flags["verbose"] else 0)


def _emit(report: FileReport, mode: Mode, verbosity: int, as_json: bool) -> None:
    if report.status is Status.ERROR:
        echo_err(f"{report.display}: error: {report.error}")
    if not as_json:
        for diagnostic in report.diagnostics:
            if visible(diagnostic, verbosity):
                echo_err(format_diagnostic(report.display, diagnostic))
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


def _compat_header(folder: Path | None, mode: Mode, summary: Summary, verbosity: int) -> None:
    """--compat: write hipify_py_compat.h once into ``folder`` (in place, -o);
    the modes that write nothing say where to get it."""
    from .compat import HEADER, write_header

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


def _copy_other(discovery: Discovery, summary: Summary, verbosity: int) -> None:
    """-o: the links recreated; --copy-all: the other files copied (each
    whole or not at all), and what the walk left out counted."""
    from .runner import atomic_copy, atomic_link

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


def _exit_code(summary: Summary, mode: Mode, check: bool, strict: bool, missing: bool) -> int:
    if summary.errors or missing:  # a path not found, a read, write or copy that failed
        return EXIT_ERROR
    if check and (summary.by_status["changed"] or summary.unsupported):
        return EXIT_FINDINGS
    if strict and summary.unsupported:
        return EXIT_FINDINGS
    return EXIT_OK
