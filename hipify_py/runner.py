"""Translate many files: read, translate, write (atomically) or diff, in a
process pool when there is more than one file.  Never prints: it returns
FileReports and the CLI renders them."""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, Severity
from .engine import FileResult, translate_bytes
from .files import Target
from .options import Options
from .project_names import digest, scan_file, scan_project
from .result_cache import ResultCache
from .stats import Stats
from .table import MappingTable


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


class FileChanged(OSError):
    pass


def _stat_key(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def process(
    target: Target, job: Job, table: MappingTable, cache: ResultCache | None = None
) -> FileReport:
    """Everything for one file.  Any I/O failure leaves the file as it was."""
    try:
        with open(target.real, "rb") as handle:
            before = os.fstat(handle.fileno())
            data = handle.read()
        after = os.stat(target.real)
    except OSError as exc:
        return FileReport(target.display, Status.ERROR, error=f"cannot read: {_reason(exc)}")
    if _stat_key(before) != _stat_key(after) or len(data) != after.st_size:
        return FileReport(
            target.display,
            Status.ERROR,
            error="changed while being read; left as it is (run again)",
        )
    if target.translate and job.clang is not None:
        from .semantic.translate import translate_file

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
    report = FileReport(target.display, Status.UNCHANGED, result.diagnostics, result.stats)
    if job.references and (result.references or result.edits):
        from .source import LineIndex

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
            atomic_write(target.real, result.data, like=target.real, expect=_stat_key(after))
            report.written = target.display
        except OSError as exc:
            report.status = Status.ERROR
            report.error = f"cannot write: {_reason(exc)}; the file was left as it was"
    elif job.mode is Mode.OUTPUT_DIR and target.output is not None:
        try:
            target.output.parent.mkdir(parents=True, exist_ok=True)
            current = _read_or_none(target.output)
            if current != result.data:
                atomic_write(target.output, result.data, like=target.real, durable=False)
            report.written = str(target.output)
        except OSError as exc:
            report.status = Status.ERROR
            report.error = f"cannot write {target.output}: {_reason(exc)}"
    return report


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
        if _stat_key(now) != _stat_key(after):
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
        # stored without the input (and without the output when it is the input)
        found.original = data
        if not found.data:
            found.data = data
        return found
    result = translate_bytes(data, table, options)
    stored = replace(result, original=b"", data=result.data if result.changed else b"")
    cache.store_result(data_hash, options, stored)
    return result


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def atomic_write(
    path: Path,
    data: bytes,
    *,
    like: Path | None = None,
    expect: tuple[int, int, int] | None = None,
    durable: bool = True,
) -> None:
    """Write via a temporary file in the same folder and os.replace.

    ``like``: copy its permission bits (without it: keep those of the file
    replaced, or give a new file 0666 less the umask).  ``expect``: refuse (FileChanged) if
    the file at ``path`` no longer has this (size, mtime, inode) - someone
    changed it since we read it.
    """
    mode = None
    for model in (like, path):  # the model's permissions, else those of the file replaced
        if model is not None and mode is None:
            try:
                mode = stat.S_IMODE(os.stat(model).st_mode)
            except OSError:
                mode = None
    if mode is None:  # a new file: the usual 0666 less the umask (mkstemp makes 0600)
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    if like is not None and not os.access(like, os.W_OK) and like == path:
        raise PermissionError(13, "file is read-only")
    import tempfile  # imported here: a pre-commit run that writes nothing never pays for it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".hipify-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:  # the user's only copy: make it reach the disk before the rename
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if expect is not None:
            try:
                now = _stat_key(os.stat(path))
            except FileNotFoundError:
                raise FileChanged(2, "file was deleted since it was read") from None
            if now != expect:
                raise FileChanged(16, "file changed since it was read")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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


def _init_worker(job: Job, table: MappingTable) -> None:
    global _WORKER
    _WORKER = (job, table, ResultCache(table) if job.use_cache else None)


def _work(task: tuple[Job, list[Target]]) -> list[FileReport]:
    assert _WORKER is not None
    job, targets = task
    return [process(target, job, _WORKER[1], _WORKER[2]) for target in targets]


def _scan(path: Path) -> tuple[set[str], list[Path]]:
    assert _WORKER is not None
    return scan_file(path, _WORKER[1].names, _WORKER[2])


def _with_project_names(job: Job, names: frozenset[str]) -> Job:
    options = job.options.with_changes(known_names=job.options.known_names | names)
    return replace(job, options=options)


def _all_cached(
    targets: list[Target], job: Job, table: MappingTable, cache: ResultCache
) -> Job | None:
    """The job (with project names) when every file's scan and result are cached:
    then nothing needs parsing and no worker process is worth starting."""
    first = []
    for target in targets:
        try:
            data = target.real.read_bytes()
        except OSError:
            return None
        found = cache.get(cache.key("names", digest(data)), tuple)
        if found is None:
            return None
        first.append((set(found[0]), [target.real.parent / r for r in found[1]]))
    paths = [t.real for t in targets]
    names = scan_project(paths, table.names, first, cache)
    warm = _with_project_names(job, names)
    for target in targets:
        try:
            data = target.real.read_bytes()
        except OSError:
            return None
        if cache.get(cache.key("result", digest(data), warm.options), FileResult) is None:
            return None
    return warm


def run(
    targets: list[Target],
    job: Job,
    table: MappingTable,
    jobs: int = 0,
    prescan: bool = True,
) -> Iterator[FileReport]:
    """Yield one FileReport per target, in the order of ``targets``.

    ``prescan``: first collect the CUDA-like names the project defines itself
    (project_names), in the pool too, so they are not reported as unknown API.
    """
    workers = jobs or os.cpu_count() or 1
    cache = ResultCache(table) if job.use_cache else None
    warm = None
    if cache is not None and prescan and workers > 1 and len(targets) > 1:
        warm = _all_cached(targets, job, table, cache)
    if warm is not None or workers <= 1 or len(targets) <= 1:
        if warm is not None:
            job = warm
        elif prescan:
            names = scan_project([t.real for t in targets], table.names, cache=cache)
            job = _with_project_names(job, names)
        for target in targets:
            yield process(target, job, table, cache)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    chunk = max(1, min(64, len(targets) // (workers * 8) or 1))
    with ProcessPoolExecutor(
        max_workers=min(workers, len(targets)),
        mp_context=context,
        initializer=_init_worker,
        initargs=(job, table),
    ) as pool:
        if prescan:
            paths = [t.real for t in targets]
            first = list(pool.map(_scan, paths, chunksize=chunk))
            job = _with_project_names(job, scan_project(paths, table.names, first, cache))
        tasks = [(job, targets[i : i + chunk]) for i in range(0, len(targets), chunk)]
        for reports in pool.map(_work, tasks):
            yield from reports
