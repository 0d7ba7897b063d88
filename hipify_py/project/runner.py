"""Translate many files: read, translate, write (atomically) or diff, in a
process pool when there is more than one file.  Never prints: it returns
FileReports and the CLI renders them."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from traceback import format_exc
from typing import Any

from hipify_py.atomic import FileChanged, atomic_write, stat_key
from hipify_py.engine import compat
from hipify_py.engine.diagnostics import Diagnostic, Severity
from hipify_py.engine.options import Options
from hipify_py.engine.stats import Stats
from hipify_py.engine.translate import FileResult, may_suppress, translate_bytes
from hipify_py.project.files import Target
from hipify_py.project.names import digest, scan_file, scan_project
from hipify_py.project.result_cache import ResultCache
from hipify_py.tables.table import MappingTable


class Mode(str, Enum):
    IN_PLACE = "in-place"
    OUTPUT_DIR = "output-dir"
    STDOUT = "stdout"
    DIFF = "diff"
    CHECK = "check"

    @property
    def writes(self) -> bool:
        return self in (Mode.IN_PLACE, Mode.OUTPUT_DIR)


class Status(str, Enum):
    CHANGED = "changed"  # written (or, for diff/check, would change)
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"  # not source text
    ERROR = "error"  # could not be read or written


@dataclass
class FileReport:
    display: str
    status: Status
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    error: str = ""  # the I/O problem, for Status.ERROR
    diff: str = ""  # for Mode.DIFF
    output: bytes | None = None  # for Mode.STDOUT
    written: str = ""  # the path written, when one was
    # with Job.references: (line, column, CUDA name, what it becomes, library)
    references: list[tuple[int, int, str, str, str]] = field(default_factory=list)
    # with Job.references: what the translation actually changes, one entry per
    # applied edit: (line, column, the CUDA name or the original text, what it
    # becomes, library, rule - "" when it is a CUDA reference the rules recorded);
    # what `hipify-py check` reports as HPY100
    changes: list[tuple[int, int, str, str, str, str]] = field(default_factory=list)
    compat: bool = False  # --compat: the result includes hipify_py_compat.h
    # an internal error (the engine's HPY001 "internal error: ...", or an
    # unexpected exception here): its traceback, for a bug report (-v prints it)
    traceback: str = ""

    @property
    def unsupported(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)


@dataclass(frozen=True)
class Job:
    mode: Mode
    options: Options
    backup: bool = False
    context_lines: int = 3
    references: bool = False  # report every translatable CUDA reference with its position
    use_cache: bool = True  # reuse (and store) results by content hash: result_cache
    # --engine clang: a semantic.ClangSetup, resolved once by the caller (plain data,
    # so it crosses into the worker processes); None: the default engine
    clang: Any = None
    # a file larger than this is skipped and reported, unread (0: no limit);
    # translating takes about 75 MB of memory per MB of source
    max_bytes: int = 0
    # --compat: the folder hipify_py_compat.h is written to (the output root, or
    # the root of the paths in place); None: included by its plain name (--stdout)
    compat_dir: Path | None = None


DEFAULT_MAX_BYTES = 16 * 1024 * 1024


def remove_leftovers(paths: list[Path]) -> list[Path]:
    """Delete the temporary files of an interrupted run (only while holding the
    tree's lock: no other run is writing them); the ones removed."""
    removed = []
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed.append(path)
    return removed


# --------------------------------------------------------------- stopping early
# request_stop() (the CLI calls it on SIGINT): every process finishes the file
# in hand - its write is atomic - and starts no other; run() then returns the
# reports of the files done.

_stop_requested = False
_stop_shared: Any = None  # a multiprocessing RawValue the pool's workers read


def request_stop() -> None:
    global _stop_requested
    _stop_requested = True
    if _stop_shared is not None:
        _stop_shared.value = 1


def stop_requested() -> bool:
    return _stop_requested


def reset_stop() -> None:
    global _stop_requested
    _stop_requested = False


def process(
    target: Target, job: Job, table: MappingTable, cache: ResultCache | None = None
) -> FileReport:
    """Everything for one file.  Any I/O failure leaves the file as it was; an
    unexpected exception is the file's error (with its traceback), not the run's."""
    try:
        return _process(target, job, table, cache)
    except Exception as exc:
        return FileReport(
            target.display,
            Status.ERROR,
            error=f"internal error: {type(exc).__name__}: {exc} (please report it as a bug)",
            traceback=format_exc(),
        )


def _process(
    target: Target, job: Job, table: MappingTable, cache: ResultCache | None
) -> FileReport:
    try:
        with open(target.real, "rb") as handle:
            before = os.fstat(handle.fileno())
            if job.max_bytes and before.st_size > job.max_bytes:
                report = too_large(target, before.st_size, job.max_bytes)
                if job.mode in (Mode.STDOUT, Mode.OUTPUT_DIR):  # copied, not translated
                    _pass_through(target, job, handle.read(), report)
                return report
            data = handle.read()
        after = os.stat(target.real)
    except OSError as exc:
        return FileReport(target.display, Status.ERROR, error=f"cannot read: {_reason(exc)}")
    if stat_key(before) != stat_key(after) or len(data) != after.st_size:
        return FileReport(
            target.display,
            Status.ERROR,
            error="changed while being read; left as it is (run again)",
        )
    if target.real.name == compat.HEADER and data == compat.header_text():
        # --compat wrote it (a run before, in place): HIP already, never translated
        result = FileResult(data=data, original=data)
    elif target.translate and job.clang is not None:
        from hipify_py.semantic.translate import translate_file

        result = translate_file(target.real, data, table, job.options, job.clang, cache)
    elif target.translate:
        result = _translate(data, job.options, table, cache)
    else:  # --rename: a file outside the paths that includes a renamed one
        result = FileResult(data=data, original=data)
    if target.include_renames:
        # after the engine, which skips files without CUDA in them
        renamed = rename_includes(result.data, target.include_renames)
        if renamed != result.data:
            result = replace(result, data=renamed)
    if job.options.compat and target.translate:
        result = _point_compat_include(result, data, target, job)
    report = FileReport(target.display, Status.UNCHANGED, result.diagnostics, result.stats)
    report.traceback = result.traceback
    report.compat = job.options.compat and compat.includes_header(result.data)
    if job.references and (result.references or result.edits):
        from hipify_py.engine.source import LineIndex

        lines = LineIndex(data)
        report.references = [
            (*lines.position(offset), name, target_name, library)
            for offset, name, target_name, library in result.references
        ]
        report.changes = [
            (*lines.position(offset), name, hip, library, rule)
            for offset, name, hip, library, rule in applied_changes(result)
        ]
    if result.skipped is not None:
        report.status = Status.SKIPPED
        _pass_through(target, job, data, report)
        return report
    if result.changed:
        report.status = Status.CHANGED
    if job.mode is Mode.STDOUT:
        report.output = result.data
    elif job.mode is Mode.DIFF and result.changed:
        report.diff = unified_diff(data, result.data, target.display, job.context_lines)
    elif job.mode is Mode.IN_PLACE and target.rename_to is not None:
        _rename_in_place(target, data, result.data, job, after, report)
    elif job.mode is Mode.IN_PLACE and result.changed:
        try:
            if job.backup:
                backup = target.real.with_name(target.real.name + ".orig")
                atomic_write(backup, data, like=target.real)
            atomic_write(target.real, result.data, like=target.real, expect=stat_key(after))
            report.written = target.display
        except OSError as exc:
            report.status = Status.ERROR
            report.error = f"cannot write: {_reason(exc)}; the file was left as it was"
    elif job.mode is Mode.OUTPUT_DIR and target.output is not None:
        _write_output(target, target.output, result.data, report)
    if cache is not None and report.written and job.mode is Mode.IN_PLACE:
        _record_output(target, result.data, job, table, cache)
    return report


def _point_compat_include(result: FileResult, data: bytes, target: Target, job: Job) -> FileResult:
    """The engine includes hipify_py_compat.h by its plain name; make the path
    relative to where the file is written (the header sits in job.compat_dir)."""
    if job.compat_dir is None or compat.PLAIN_INCLUDE.encode() in data:
        return result  # --stdout, or the file had this include already
    written = target.output if job.mode is Mode.OUTPUT_DIR and target.output else target.real
    pointed = compat.point_include(result.data, compat.relative_include(job.compat_dir, written))
    return result if pointed == result.data else replace(result, data=pointed)


def _write_output(target: Target, output: Path, data: bytes, report: FileReport) -> None:
    """-o: write ``data`` to the file's place in the output folder, unless it
    already holds exactly that."""
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        if _read_or_none(output) != data:
            atomic_write(output, data, like=target.real, durable=False)
        report.written = str(output)
    except OSError as exc:
        report.status = Status.ERROR
        report.error = f"cannot write {output}: {_reason(exc)}"


def _pass_through(target: Target, job: Job, data: bytes, report: FileReport) -> None:
    """A skipped file (not source text) still comes out as it is: --stdout
    prints its bytes (`--stdout > out.cu` never makes an empty file) and an
    output folder gets a copy (the tree there stays whole)."""
    if job.mode is Mode.STDOUT:
        report.output = data
    elif job.mode is Mode.OUTPUT_DIR and target.output is not None:
        _write_output(target, target.output, data, report)


def too_large(target: Target, size: int, limit: int) -> FileReport:
    from hipify_py.engine import diagnostics as D

    why = (
        f"skipped: {size / 1048576:.1f} MB is larger than the {limit / 1048576:.3g} MB limit "
        "(--max-file-size; 0 lifts it)"
    )
    return FileReport(target.display, Status.SKIPPED, [D.BINARY_FILE.at(why, 1, 1)])


_INCLUDE_LINE = re.compile(rb'^([ \t]*#[ \t]*include[ \t]*)("[^"\n]+"|<[^>\n]+>)', re.MULTILINE)


def rename_includes(data: bytes, renames: tuple[tuple[str, str], ...]) -> bytes:
    """Rewrite ``#include "old"`` / ``#include <old>`` lines to the new names
    (delimiters are part of the names); nothing else changes."""
    table = {
        old.encode("utf-8", "surrogateescape"): new.encode("utf-8", "surrogateescape")
        for old, new in renames
    }

    def swap(match: re.Match[bytes]) -> bytes:
        return match.group(1) + table.get(match.group(2), match.group(2))

    return _INCLUDE_LINE.sub(swap, data)


def applied_changes(result: FileResult) -> list[tuple[int, str, str, str, str]]:
    """What the translation of ``result`` changes, from the edits it applied:
    (offset, name, what it becomes, library, rule); rule is "" for a reference.

    An edit over a CUDA reference the rules recorded (a renamed API, a mapped
    header) is named by that reference; any other edit (a widened warp mask, a
    rewritten launch, ``__CUDA_ARCH__``, an inserted define) by its original
    text.  A reference no edit touches (a name HIP shares, a ``_sync`` warp
    function kept for HIP >= 6.2) is not a change.
    """
    import bisect

    references = sorted(result.references)
    starts = [offset for offset, *_ in references]
    out: list[tuple[int, str, str, str, str]] = []
    covered: set[int] = set()

    for start, end, text, rule in result.edits:
        # references whose span [offset, offset + len(name)) the edit touches
        first = bisect.bisect_left(starts, start - 256)
        hits = []
        for index in range(first, len(references)):
            offset, name, target, library = references[index]
            if offset >= max(end, start + 1):
                break
            stop = offset + len(name)
            if (offset < end and start < stop) if start < end else offset < start < stop:
                hits.append(index)
        if hits and all(
            start <= references[i][0]
            and references[i][0] + len(references[i][1]) <= end
            and end - start > len(references[i][1])
            for i in hits
        ):
            # an edit over a whole call whose name is a reference (half2_minmax's
            # __hmax2(a, b) -> __halves2half2(...)): the change is the edit's
            covered.update(hits)
            before = result.original[start:end].decode("utf-8", "replace")
            out.append((start, before, text.decode("utf-8", "replace"), "", rule))
            continue
        if hits:
            for index in hits:
                if index in covered:
                    continue
                covered.add(index)
                offset, name, target, library = references[index]
                replacement = text.decode("utf-8", "replace")
                if (start, end) == (offset, offset + len(name)):
                    target = replacement
                out.append((offset, name, target, library, ""))
            continue
        before = result.original[start:end].decode("utf-8", "replace")
        out.append((start, before, text.decode("utf-8", "replace"), "", rule))
    out.sort()
    return out


def _rename_in_place(
    target: Target, data: bytes, output: bytes, job: Job, after: os.stat_result, report: FileReport
) -> None:
    """--rename: write the translation under the new name, then remove the old file."""
    new = target.rename_to
    assert new is not None
    if new.exists():
        report.status = Status.ERROR
        report.error = f"cannot rename to {new.name}: it exists; the file was left as it was"
        return
    try:
        if job.backup:
            atomic_write(target.real.with_name(target.real.name + ".orig"), data, like=target.real)
        now = os.stat(target.real)
        if stat_key(now) != stat_key(after):
            raise FileChanged(16, "file changed since it was read")
        atomic_write(new, output, like=target.real)
        os.unlink(target.real)
        report.status = Status.CHANGED
        report.written = str(new)
    except OSError as exc:
        report.status = Status.ERROR
        report.error = f"cannot rename to {new.name}: {_reason(exc)}"


def _translate(
    data: bytes, options: Options, table: MappingTable, cache: ResultCache | None
) -> FileResult:
    if cache is None:
        return translate_bytes(data, table, options)
    data_hash = digest(data)
    found = cache.result(data_hash, options)
    if found is not None:
        found.original = data
        if not found.data:
            found.data = data
        return found
    return _translate_and_store(data, data_hash, options, table, cache)


def _translate_and_store(
    data: bytes, data_hash: str, options: Options, table: MappingTable, cache: ResultCache
) -> FileResult:
    result = translate_bytes(data, table, options)
    # stored without the input (and without the output when it is the input)
    stored = replace(result, original=b"", data=result.data if result.changed else b"")
    cache.store_result(data_hash, options, stored)
    if options.insert_runtime_include and _inserted_no_runtime_include(data, result, options):
        # what `hipify-py check` (which writes nothing, so inserts no include)
        # looks up: the same result, proven, not translated again
        quiet = options.with_changes(insert_runtime_include=False)
        cache.store_result(data_hash, quiet, stored)
    return result


def _inserted_no_runtime_include(data: bytes, result: FileResult, options: Options) -> bool:
    """Whether ``result`` is also the translation of ``data`` without
    insert_runtime_include.  That option is read at one place only (the
    includes rule), where it decides whether the runtime include is inserted;
    an insertion is always reported (HPY202, unless --select/--ignore drop it
    or a ``hipify-py: ignore`` comment hides it) and either changes the
    output or, overlapping another edit, is dropped and reported (HPY004, never
    hidden by a comment).  A translation that failed part way (HPY001) may have
    lost that report: never."""
    from hipify_py.engine import diagnostics as D

    if result.changed or may_suppress(data.decode("latin-1"), D.RUNTIME_INCLUDE_ADDED.code):
        return False
    if not (options.wants(D.RUNTIME_INCLUDE_ADDED.code) and options.wants(D.EDIT_CONFLICT.code)):
        return False
    codes = {d.code for d in result.diagnostics}
    return not codes & {D.RUNTIME_INCLUDE_ADDED.code, D.EDIT_CONFLICT.code, D.PARSE_REGRESSION.code}


def _record_output(
    target: Target, output: bytes, job: Job, table: MappingTable, cache: ResultCache
) -> None:
    """A file translated in place is the next run's input (pre-commit on every
    commit, CI on every push), and a new one to the cache: translate the output
    now, once, and cache its own result (as a rule "unchanged", with the
    diagnostics that remain) and its project-name scan, so that a rerun over
    the translated tree parses nothing.  What is cached is the output's real
    translation, under the same options and tables, never an assumption that
    it is a fixed point; a rerun whose options differ (the project's own
    CUDA-like names, scanned from the translated files, are part of them)
    misses and translates as usual."""
    if not target.translate or job.clang is not None:
        return  # not translated by the engine: nothing of its to cache
    if job.max_bytes and len(output) > job.max_bytes:
        return  # the next run skips it unread
    output_hash = digest(output)
    if not cache.has(cache.key("result", output_hash, job.options)):
        _translate_and_store(output, output_hash, job.options, table, cache)
    # reads the file as written: keyed by what it holds
    scan_file(target.rename_to or target.real, table.names, cache)


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def unified_diff(before: bytes, after: bytes, name: str, context: int = 3) -> str:
    import difflib

    a = before.decode("utf-8", errors="replace").splitlines(keepends=True)
    b = after.decode("utf-8", errors="replace").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, f"a/{name}", f"b/{name}", n=context)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc) or type(exc).__name__).lower()


# --------------------------------------------------------------------------- pool

_WORKER: tuple[Job, MappingTable, ResultCache | None] | None = None
_PARENT = 0  # the pid of the process that started this worker
_BUSY: Any = None  # a threading.Lock held while a worker handles a file


def _init_worker(job: Job, table: MappingTable, stop: Any = None, parent: int = 0) -> None:
    """In each worker: ignore SIGINT (a Ctrl-C reaches the whole process group;
    the main process decides, through ``stop``), and exit when the main process
    is gone (killed): after the file in hand, never in the middle of one."""
    global _WORKER, _stop_shared, _PARENT, _BUSY
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = (job, table, ResultCache(table) if job.use_cache else None)
    _stop_shared = stop
    _PARENT = parent
    _BUSY = threading.Lock()
    if parent:
        threading.Thread(target=_watch_parent, daemon=True).start()


def _orphaned() -> bool:
    return bool(_PARENT) and os.getppid() != _PARENT


def _watch_parent() -> None:
    import time

    while True:
        time.sleep(0.2)
        if _orphaned():
            with _BUSY:  # wait for the file in hand to be written (or not at all)
                os._exit(1)


def _stopping() -> bool:
    return bool(_stop_shared is not None and _stop_shared.value) or _orphaned()


def _work(task: tuple[Job, list[Target]]) -> list[FileReport]:
    assert _WORKER is not None
    job, targets = task
    reports = []
    for target in targets:
        with _BUSY:
            if _stopping():
                break  # the main process counts what is missing as not done
            reports.append(process(target, job, _WORKER[1], _WORKER[2]))
    return reports


def _scan(path: Path) -> tuple[set[str], list[Path]]:
    assert _WORKER is not None
    if _stopping():
        return set(), []
    return scan_file(path, _WORKER[1].names, _WORKER[2])


def _with_project_names(job: Job, names: frozenset[str]) -> Job:
    options = job.options.with_changes(known_names=job.options.known_names | names)
    return replace(job, options=options)


# uncached bytes a warm run translates in the main process rather than start
# worker processes for (about a tenth of a second of translation)
_SERIAL_BYTES = 256 * 1024


def _all_cached(
    targets: list[Target], job: Job, table: MappingTable, cache: ResultCache
) -> Job | None:
    """The job (with project names) when every file's scan and (all but a few
    small files') results are cached: then (nearly) nothing needs parsing and
    no worker process is worth starting."""
    first = []
    digests = []
    for target in targets:
        try:
            data = target.real.read_bytes()
        except OSError:
            return None
        data_hash = digest(data)
        found = cache.get(cache.key("names", data_hash), tuple)
        if found is None:
            return None
        digests.append((data_hash, len(data)))
        first.append((set(found[0]), [target.real.parent / r for r in found[1]]))
    paths = [t.real for t in targets]
    names = scan_project(paths, table.names, first, cache)
    warm = _with_project_names(job, names)
    # stored is enough here: process() loads each entry once, and translates a
    # file whose entry turns out unsound (or that changed meanwhile)
    uncached = 0
    for data_hash, size in digests:
        if not cache.has(cache.key("result", data_hash, warm.options)):
            uncached += size
            if uncached > _SERIAL_BYTES:
                return None
    return warm


def run(
    targets: list[Target],
    job: Job,
    table: MappingTable,
    jobs: int = 0,
    prescan: bool = True,
) -> Iterator[FileReport]:
    """Yield one FileReport per target, in the order of ``targets``; after
    request_stop() (or when a worker process dies) only those of the files done.

    ``prescan``: first collect the CUDA-like names the project defines itself
    (project_names), in the pool too, so they are not reported as unknown API.
    """
    global _stop_shared
    workers = jobs or os.cpu_count() or 1
    cache = ResultCache(table) if job.use_cache else None
    # files over the size limit are skipped unread: not scanned either
    limit = job.max_bytes
    scanned = [t for t in targets if _size(t.real) <= limit] if limit else targets
    warm = None
    if cache is not None and prescan and workers > 1 and len(targets) > 1:
        warm = _all_cached(targets, job, table, cache)
    if warm is not None or workers <= 1 or len(targets) <= 1:
        if warm is not None:
            job = warm
        elif prescan:
            names = scan_project([t.real for t in scanned], table.names, cache=cache)
            job = _with_project_names(job, names)
        for target in targets:
            if _stop_requested:
                return
            yield process(target, job, table, cache)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)

    # small chunks: a stop (or a dead worker) leaves little in flight
    chunk = max(1, min(16, len(targets) // (workers * 8) or 1))
    _stop_shared = stop = context.RawValue("b", 1 if _stop_requested else 0)
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(targets)),
        mp_context=context,
        initializer=_init_worker,
        initargs=(job, table, stop, os.getpid()),
    )
    reported: set[int] = set()  # indexes of the targets reported
    try:
        if prescan:
            paths = [t.real for t in scanned]
            first = list(pool.map(_scan, paths, chunksize=chunk))
            job = _with_project_names(job, scan_project(paths, table.names, first, cache))
            del first, paths  # not kept for the rest of the run (memory at scale)
        tasks = [(job, targets[i : i + chunk]) for i in range(0, len(targets), chunk)]
        for index, reports in enumerate(pool.map(_work, tasks)):
            reported.update(range(index * chunk, index * chunk + len(reports)))
            yield from reports
    except BrokenProcessPool:
        # a worker died (killed, out of memory): each file is written whole or
        # not at all, but which of the unreported ones were is unknown
        for index, target in enumerate(targets):
            if index not in reported and not _stop_requested:
                yield FileReport(
                    target.display,
                    Status.ERROR,
                    error="not finished: a worker process died (killed, or out of memory?); "
                    "the file is either as it was or fully translated: run again",
                )
    except BaseException:
        # KeyboardInterrupt without the CLI's handler, or the caller stopped
        # iterating: the workers finish the file in hand and take no other
        stop.value = 1
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _stop_shared = None
