"""Preprocessor branches clang skipped: clang_getSkippedRanges, which the
Python bindings do not wrap, called through ctypes."""

from __future__ import annotations

import ctypes
from typing import Any

_BOUND = False


def _bind() -> Any:
    global _BOUND
    import clang.cindex as cindex

    lib = cindex.conf.lib
    if not _BOUND:

        class RangeList(ctypes.Structure):
            _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(cindex.SourceRange))]

        lib.clang_getSkippedRanges.restype = ctypes.POINTER(RangeList)
        lib.clang_getSkippedRanges.argtypes = [cindex.TranslationUnit, cindex.File]
        lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(RangeList)]
        lib.clang_disposeSourceRangeList.restype = None
        _BOUND = True
    return lib


def skipped_lines(tu: Any, path: str) -> set[int]:
    """Lines of ``path`` inside skipped branches (the directives themselves,
    which the preprocessor did read, excluded)."""
    import clang.cindex as cindex

    lib = _bind()
    try:
        file = cindex.File.from_name(tu, path)
    except Exception:  # not part of this translation unit
        return set()
    if file is None:
        return set()
    listed = lib.clang_getSkippedRanges(tu, file)
    lines: set[int] = set()
    try:
        for index in range(listed.contents.count):
            area = listed.contents.ranges[index]
            first, last = area.start.line, area.end.line
            # a skipped range runs from the directive that opens it to the one
            # that closes it: the lines between are the code nobody compiled
            lines.update(range(first + 1, last))
    finally:
        lib.clang_disposeSourceRangeList(listed)
    return lines


_SPELLING_BOUND = False


def spelling_of(location: Any) -> tuple[str | None, int]:
    """(file name, offset) where the token was written: inside a macro
    argument or a #define body, not where the macro was expanded (which is
    all that SourceLocation.offset gives)."""
    global _SPELLING_BOUND
    import clang.cindex as cindex

    lib = cindex.conf.lib
    if not _SPELLING_BOUND:
        lib.clang_getSpellingLocation.argtypes = [
            cindex.SourceLocation,
            ctypes.POINTER(cindex.c_object_p),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
        ]
        lib.clang_getSpellingLocation.restype = None
        _SPELLING_BOUND = True
    file = cindex.c_object_p()
    line, column, offset = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    lib.clang_getSpellingLocation(
        location, ctypes.byref(file), ctypes.byref(line), ctypes.byref(column), ctypes.byref(offset)
    )
    if not file:
        return None, offset.value
    return str(cindex.File(file).name), offset.value
