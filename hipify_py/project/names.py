"""Names a project defines itself that look like CUDA API (CUDA_CHECK, cudaCheck...).

Real projects wrap the runtime in macros and helpers named after it, usually
in a shared header.  Reporting each use as an unknown CUDA API would bury
the real findings, so before translating we scan the files of the run, and the
local headers they include, for definitions of such names.  The scan is a
cheap regular-expression pass over bytes (no parsing); the engine then treats
the names as known project names.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from hipify_py.engine.definitions import is_defined
from hipify_py.rules.identifiers import CUDA_LIKE

if TYPE_CHECKING:
    from hipify_py.project.result_cache import ResultCache


def digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


_WORD = re.compile(rb"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]*")
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
_MAX_HEADERS = 2000


def defined_names(data: bytes, known: Container[str] = ()) -> set[str]:
    """Names ``data`` defines as a macro, function, type or variable that would
    otherwise read as CUDA API: CUDA-like names not in ``known`` (the table),
    and the table's common words (``umin``, ``saturate``), which are reported
    only where the project does not define them.  (A name the table translates,
    such as ``nv_bfloat16``, stays translated even where a project's own HIP
    compatibility header defines it.)"""
    found: set[str] = set()
    for word in set(_WORD.findall(data)):
        name = word.decode("ascii")
        row = known.get(name) if isinstance(known, Mapping) else None
        unsupported = row is not None and getattr(row, "hip", "") is None
        if CUDA_LIKE.match(name):
            wanted = name not in known
        else:
            wanted = unsupported and not name.startswith("__")
        if wanted and is_defined(data, word):
            found.add(name)
    return found


def scan_file(
    path: Path, known: Container[str] = (), cache: ResultCache | None = None
) -> tuple[set[str], list[Path]]:
    """Defined CUDA-like names of one file, and the local headers it includes
    (from the result cache when the file's bytes were scanned before)."""
    try:
        data = path.read_bytes()
    except OSError:
        return set(), []
    if cache is None:
        return scan_data(path, data, known)
    key = cache.key("names", digest(data))
    found = cache.get(key, tuple)
    if found is not None and len(found) == 2:
        names, relative = found
        return set(names), [path.parent / r for r in relative]
    names, headers = scan_data(path, data, known)
    cache.put(key, (sorted(names), [str(h.relative_to(path.parent)) for h in headers]))
    return names, headers


def scan_data(path: Path, data: bytes, known: Container[str]) -> tuple[set[str], list[Path]]:
    headers = []
    for match in _LOCAL_INCLUDE.finditer(data):
        header = path.parent / match.group(1).decode("utf-8", errors="surrogateescape")
        if header.is_file():
            headers.append(header)
    return defined_names(data, known), headers


def scan_project(
    files: Iterable[Path],
    known: Container[str] = (),
    first: Iterable[tuple[set[str], list[Path]]] | None = None,
    cache: ResultCache | None = None,
) -> frozenset[str]:
    """Defined CUDA-like names in ``files`` and the local headers they include.

    ``first``: the scan_file results of ``files`` when a process pool already
    computed them; the headers they lead to are then scanned here.
    """
    files = [Path(f) for f in files]
    names: set[str] = set()
    seen: set[Path] = set()
    queue: list[Path] = []
    # What a source file (.cu, .cpp) defines is its own: another file sees it
    # only through a header that declares it, and a file-local host `umin`
    # must not hide the device-side `umin` another file calls.  A source file
    # that some file #includes counts as a header.
    private = {_resolved(f) for f in files if f.suffix.lower() not in HEADER_SUFFIXES}
    held: dict[Path, set[str]] = {}  # what each private file defines
    included: set[Path] = set()
    if first is None:
        queue = list(reversed(files))
    else:
        for path, (found, headers) in zip(files, first, strict=True):
            real = _resolved(path)
            seen.add(real)
            if real in private:
                held[real] = found
            else:
                names |= found
            queue.extend(headers)
            included.update(_resolved(h) for h in headers)
    budget = _MAX_HEADERS
    while queue:
        real = _resolved(queue.pop())
        if real in seen:
            continue
        seen.add(real)
        found, headers = scan_file(real, known, cache)
        if real in private:
            held[real] = found
        else:
            names |= found
        included.update(_resolved(h) for h in headers)
        if budget > 0:
            budget -= len(headers)
            queue.extend(headers)
    for real in private & included:
        names |= held.get(real, set())
    return frozenset(names)


HEADER_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc"})


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path
