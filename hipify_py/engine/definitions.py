"""Does a file define a name itself (as a macro, type, function or variable)?

A cheap test on bytes, no parsing: the engine asks it of the file in hand, and
the project scan (project/names.py) of every file of a run.
"""

from __future__ import annotations

import re

_MACRO_LINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+$")
_TYPE_BEFORE = re.compile(rb"\b(?:struct|class|union|enum|using|typedef\b.*?)[ \t]+$")
_FUNCTION_BEFORE = re.compile(rb"^(?:[^;{}]*[;{}])?[ \t]*[A-Za-z_][\w:<>,*& \t]*[\s*&]$")
_WORD_CHAR = re.compile(rb"[A-Za-z0-9_$]")
# `static const int NAME`, `(float* NAME`, `, NAME =` (a later declarator of a list)
_DECLARATOR_BEFORE = re.compile(rb"(?:(?:^|[(,;{])[ \t]*(?:[A-Za-z_][\w:<>]*[ \t*&]+)+|,[ \t]*)$")
_CONVERSION_BEFORE = re.compile(rb"(?<![A-Za-z0-9_$])operator[ \t]*(?:::[ \t]*)?$")
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
        if _MACRO_LINE.match(before):
            return True
        if after.startswith((b"::", b"<")):
            # `typedef cub::BlockScan<...> Scan;`, `texture<float> t;`: a
            # qualifier or a template in use, not what is being defined
            pos = data.find(name, pos + size)
            continue
        if _CONVERSION_BEFORE.search(before):
            # `operator ::cudaAccessProperty()`: a conversion to the type, used
            pos = data.find(name, pos + size)
            continue
        if _TYPE_BEFORE.search(before):
            return True
        words = before.split()
        if words and words[-1] not in _NOT_A_TYPE and words[-2:] != [b"using", b"namespace"]:
            if after.startswith(b"(") and _FUNCTION_BEFORE.match(before):
                return True  # a function declaration
            declarator = after[:1] in (b"=", b";", b",", b")", b"[") and bool(
                _DECLARATOR_BEFORE.search(before)
            )
            if declarator and (not before.rstrip().endswith(b",") or after.startswith(b"=")):
                return True  # a variable or parameter
        pos = data.find(name, pos + size)
    return False
