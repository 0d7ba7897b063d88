"""``hipify-py -``: translate standard input, as editors and formatters call
black and ruff.  ``--stdin-filename PATH`` names the buffer: the
configuration is looked up from PATH, and messages and diffs say PATH; without
it they say ``-`` and the configuration is the current folder's.  The bytes
are read and written as they are (sys.stdin.buffer).  Writes to stdout unless
--diff or --check is given; nothing is ever written to PATH.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hipify_py.cli.emit import compat_header, emit, exit_code, list_asm
from hipify_py.cli.render import Summary, print_summary, report_json
from hipify_py.cli.run_setup import (
    build_options,
    clang_setup,
    configured,
    fail,
    mode_of,
    verbosity_of,
)
from hipify_py.engine.options import Options
from hipify_py.project.files import Excludes, Target, build_kind
from hipify_py.project.runner import FileReport, Mode, Status, unified_diff
from hipify_py.tables.cache import load_table
from hipify_py.tables.table import MappingTable, TableError

STDIN_NAME = "-"  # how messages name stdin without --stdin-filename

# write modes and options about files on disk, which stdin has not
_NOT_FOR_STDIN = {
    "output_dir": "--output-dir",
    "backup": "--backup",
    "copy_all": "--copy-all",
    "rename": "--rename",
}


def reads_stdin(paths: list[Path], flags: dict[str, Any]) -> bool:
    """``-`` is the only path, or no path and --stdin-filename (as ruff)."""
    named = [str(p) for p in paths]
    return named == ["-"] or (not named and flags.get("stdin_filename") is not None)


def run_stdin(flags: dict[str, Any], explicit: set[str]) -> int:
    name: Path | None = flags.get("stdin_filename")
    settled = configured(flags, explicit, name if name else Path.cwd())
    if isinstance(settled, str):
        return fail(settled)
    config, flags = settled
    for key, flag in _NOT_FOR_STDIN.items():
        if flags.get(key):
            return fail(f"{flag} does not apply to `-` (stdin)")
    if name is not None and build_kind(name) is not None:
        return fail(f"{name}: build files are not read from stdin; name the file instead")
    if not (flags["show_diff"] or flags["check"]):
        flags = {**flags, "to_stdout": True}  # `hipify-py -` implies --stdout, as black
    mode = mode_of(flags)
    if not isinstance(mode, Mode):
        return fail(mode)
    if flags["list_asm"]:
        mode = Mode.CHECK
    options = build_options(flags)
    if isinstance(options, str):
        return fail(options)
    clang = clang_setup(flags, explicit)
    if isinstance(clang, str):
        return fail(clang)
    try:
        table = load_table(flags["mappings_dir"])
    except (TableError, OSError) as exc:
        return fail(f"mapping tables: {exc}")
    excluded = name is not None and (
        Excludes()
        .plus(config.root, flags.get("config_exclude", ()))
        .plus(Path.cwd(), flags["exclude"])
        .matches(name)
    )
    report = translate_stdin(
        sys.stdin.buffer.read(),
        name,
        mode,
        options,
        table,
        max_bytes=int((flags.get("max_file_size") or 0) * 1024 * 1024),
        excluded=excluded,
        use_cache=not flags["no_cache"],
        clang=clang,
    )
    if flags["list_asm"]:
        return list_asm([report])
    verbosity = verbosity_of(flags)
    as_json = flags["form"] == "json"
    emit(report, mode, verbosity, as_json)
    if report.compat:  # nothing is written from stdin: say where the header comes from
        compat_header(None, mode, Summary(), verbosity)
    summary = Summary()
    summary.add(report)
    if as_json:
        stream = sys.stderr if mode is Mode.STDOUT else sys.stdout
        stream.write(report_json([report], summary))
    elif (verbosity >= 0 and mode is not Mode.STDOUT) or flags["stats"]:
        print_summary(summary, sys.stderr, mode=mode.value, stats=flags["stats"])
    return exit_code(summary, mode, flags["check"], flags["strict"], False)


def translate_stdin(
    data: bytes,
    name: Path | None,
    mode: Mode,
    options: Options,
    table: MappingTable,
    *,
    max_bytes: int = 0,
    excluded: bool = False,
    use_cache: bool = True,
    clang: Any = None,
) -> FileReport:
    """One report for the bytes of stdin, as runner.process makes for a file.
    ``clang``: the semantic.ClangSetup of --engine clang, which parses the
    bytes as the file ``name`` (its compile_commands.json entry; unnamed, a
    .cu file in the current folder)."""
    from hipify_py.engine.compat import includes_header
    from hipify_py.engine.translate import translate_bytes
    from hipify_py.project.names import defined_names, scan_data, scan_project
    from hipify_py.project.result_cache import ResultCache
    from hipify_py.project.runner import too_large

    display = str(name) if name is not None else STDIN_NAME
    if excluded:  # as black --force-exclude: the buffer comes back as it was
        return FileReport(display, Status.UNCHANGED, output=data if mode is Mode.STDOUT else None)
    if max_bytes and len(data) > max_bytes:
        stdin = Target(Path(display), Path(display), None, display)
        report = too_large(stdin, len(data), max_bytes)
        report.output = data if mode is Mode.STDOUT else None
        return report
    # the project's own CUDA-like helpers (CUDA_CHECK...) are not unknown API:
    # those of the buffer and, when it is named, of the local headers it includes
    cache = ResultCache(table) if use_cache else None
    if name is not None:
        known = scan_project([name], table.names, [scan_data(name, data, table.names)], cache)
    else:
        known = frozenset(defined_names(data, table.names))
    options = options.with_changes(known_names=options.known_names | known)
    if clang is not None:
        from hipify_py.semantic.translate import translate_file

        path = name.absolute() if name is not None else Path.cwd() / "stdin.cu"
        result = translate_file(path, data, table, options, clang, cache)
    else:
        result = translate_bytes(data, table, options)
    report = FileReport(display, Status.UNCHANGED, result.diagnostics, result.stats)
    report.traceback = result.traceback
    report.compat = options.compat and includes_header(result.data)
    if result.skipped is not None:  # not source text: passed through
        report.status = Status.SKIPPED
        report.output = data if mode is Mode.STDOUT else None
        return report
    if result.changed:
        report.status = Status.CHANGED
    if mode is Mode.STDOUT:
        report.output = result.data
    elif mode is Mode.DIFF and result.changed:
        report.diff = unified_diff(data, result.data, display)
    return report
