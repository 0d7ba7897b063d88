"""What the Python bindings of libclang do not wrap, called through ctypes:
the preprocessor branches clang skipped (clang_getSkippedRanges), the file
location of a source location (clang_getFileLocation) and whether it is in
the main file (clang_Location_isFromMainFile)."""

from __future__ import annotations

import ctypes
from typing import Any

_BOUND: dict[str, Any] = {}


class _RangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.c_void_p)]


def _lib() -> Any:
    import clang.cindex as cindex

    lib = cindex.conf.lib
    if "bound" not in _BOUND:
        lib.clang_getSkippedRanges.restype = ctypes.POINTER(_RangeList)
        lib.clang_getSkippedRanges.argtypes = [cindex.TranslationUnit, cindex.File]
        lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_RangeList)]
        lib.clang_disposeSourceRangeList.restype = None
        lib.clang_getFileLocation.argtypes = [
            cindex.SourceLocation,
            ctypes.POINTER(cindex.c_object_p),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint),
        ]
        lib.clang_getFileLocation.restype = None
        lib.clang_Location_isFromMainFile.argtypes = [cindex.SourceLocation]
        lib.clang_Location_isFromMainFile.restype = ctypes.c_int
        _BOUND["bound"] = True
    return lib


def skipped_lines(tu: Any, path: str) -> set[int]:
    """Lines of ``path`` inside skipped branches (the directives themselves,
    which the preprocessor did read, excluded)."""
    import clang.cindex as cindex

    lib = _lib()
    try:
        file = cindex.File.from_name(tu, path)
    except Exception:  # not part of this translation unit
        return set()
    if file is None:
        return set()
    listed = lib.clang_getSkippedRanges(tu, file)
    lines: set[int] = set()
    if not listed:
        return lines
    try:
        count = listed.contents.count
        ranges = ctypes.cast(listed.contents.ranges, ctypes.POINTER(cindex.SourceRange))
        for index in range(count):
            area = ranges[index]
            # a skipped range runs from the directive that opens it to the one
            # that closes it: the lines between are the code nobody compiled
            lines.update(range(area.start.line + 1, area.end.line))
    finally:
        lib.clang_disposeSourceRangeList(listed)
    return lines


def file_location(location: Any) -> tuple[str | None, int]:
    """(file name, offset) in the file: for a token from a macro argument, where
    the argument is written; for a token from a macro body, where the
    (outermost, in this file) macro was used.  (libclang's spelling location is
    the same: it calls SourceManager::getFileLoc.)"""
    import clang.cindex as cindex

    lib = _lib()
    file = cindex.c_object_p()
    line, column, offset = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    lib.clang_getFileLocation(
        location, ctypes.byref(file), ctypes.byref(line), ctypes.byref(column), ctypes.byref(offset)
    )
    if not file:
        return None, offset.value
    return str(cindex.File(file).name), offset.value


def in_main_file(location: Any) -> bool:
    """Is the location (a macro's: where it was used) in the main file?  One
    call, where ``location.file.name`` makes a File and a string."""
    return bool(_lib().clang_Location_isFromMainFile(location))
