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
from collections.abc import Container, Iterable
from pathlib import Path

from .rules.identifiers import CUDA_LIKE

_WORD = re.compile(rb"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]*")
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
_MAX_HEADERS = 2000


_MACRO_LINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+$")
_TYPE_BEFORE = re.compile(rb"\b(?:struct|class|union|enum|using|typedef\b.*?)[ \t]+$")
_FUNCTION_BEFORE = re.compile(rb"^(?:[^;{}]*[;{}])?[ \t]*[A-Za-z_][\w:<>,*& \t]*[\s*&]$")
_WORD_CHAR = re.compile(rb"[A-Za-z0-9_$]")
# `static const int NAME`, `(float* NAME`, `, NAME =` (a later declarator of a list)
_DECLARATOR_BEFORE = re.compile(rb"(?:(?:^|[(,;{])[ \t]*(?:[A-Za-z_][\w:<>]*[ \t*&]+)+|,[ \t]*)$")
_NOT_A_TYPE = (b"return", b"else", b"case", b"goto", b"throw", b"new", b"delete", b"co_return")


def is_defined(data: bytes, name: bytes) -> bool:
    """Does some occurrence of ``name`` sit where a definition names its subject?"""
    size = len(name)
    pos = data.find(name)
    while pos != -1:
        if (pos and _WORD_CHAR.match(data, pos - 1)) or _WORD_CHAR.match(data, pos + size):
            pos = data.find(name, pos + size)
            continue  # part of a longer identifier
        line_start = data.rfind(b"\n", 0, pos) + 1
        before = data[line_start:pos]
        after = data[pos + size : pos + size + 200].lstrip(b" \t")
        if _MACRO_LINE.match(before) or _TYPE_BEFORE.search(before):
            return True
        words = before.split()
        if words and words[-1] not in _NOT_A_TYPE:
            if after.startswith(b"(") and _FUNCTION_BEFORE.match(before):
                return True  # a function declaration
            declarator = after[:1] in (b"=", b";", b",", b")", b"[") and bool(
                _DECLARATOR_BEFORE.search(before)
            )
            if declarator and (not before.rstrip().endswith(b",") or after.startswith(b"=")):
                return True  # a variable or parameter
        pos = data.find(name, pos + size)
    return False


def defined_names(data: bytes, known: Container[str] = ()) -> set[str]:
    """CUDA-like names not in ``known`` that ``data`` defines as a macro, function or type."""
    found: set[str] = set()
    for word in set(_WORD.findall(data)):
        name = word.decode("ascii")
        if name not in known and CUDA_LIKE.match(name) and is_defined(data, word):
            found.add(name)
    return found


def scan_project(files: Iterable[Path], known: Container[str] = ()) -> frozenset[str]:
    """Defined CUDA-like names in ``files`` and the "local" headers they include."""
    names: set[str] = set()
    queue = [Path(f) for f in files]
    seen: set[Path] = set()
    headers = 0
    while queue:
        path = queue.pop()
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            continue
        if real in seen:
            continue
        seen.add(real)
        try:
            data = real.read_bytes()
        except OSError:
            continue
        names |= defined_names(data, known)
        for match in _LOCAL_INCLUDE.finditer(data):
            header = real.parent / match.group(1).decode("utf-8", errors="surrogateescape")
            if headers < _MAX_HEADERS and header.is_file():
                headers += 1
                queue.append(header)
    return frozenset(names)
