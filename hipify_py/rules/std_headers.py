"""Standard headers CUDA's runtime header brings in and HIP >= 7.0's does not
(``data/runtime_std_headers.yaml``): a translated file that calls memcpy or
assert with only the runtime header included gets the header it relied on."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import call_naming
from hipify_py.rules.identifiers import scanner_of
from hipify_py.tables.versions import Version, format_version, parse_version

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
STD_HEADER_ADDED = D.Code(
    "HPY203",
    "std-header-added",
    D.Severity.INFO,
    "inserted #include <string.h> (or <cstring>): CUDA's runtime header brings it in, HIP >= "
    "7.0's does not",
    why="CUDA's runtime header includes string.h (crt/common_functions.h), so CUDA code calls "
    "memcpy or strlen with only the runtime included; HIP 7.0 trimmed the headers "
    "hip_runtime.h includes, and with HIP 7.2 such a call is an undeclared identifier.",
    example="#include <cuda_runtime.h>\nvoid f(char* a, const char* b) { memcpy(a, b, 4); }",
    fix="Nothing: the include is what HIP >= 7.0 needs (<cstring> where the calls are "
    "std::memcpy, else the C header, valid in C and C++).",
)

DATA = Path(__file__).resolve().parent.parent / "data" / "runtime_std_headers.yaml"


class Dropped(NamedTuple):
    header: str  # the C header, valid in C and C++ files
    cxx: str  # its C++ form, which also counts as included
    names: frozenset[str]


@cache
def _facts() -> tuple[Version, tuple[Dropped, ...]]:
    import yaml  # once a process, and only for files that include the runtime

    doc = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    headers = tuple(
        Dropped(header, str(row["cxx"]), frozenset(row["names"]))
        for header, row in doc["headers"].items()
    )
    return parse_version(str(doc["dropped_from"])), headers


def run(ctx: Context, resulting: set[str]) -> None:
    """Add what the file needs to ``ctx.needed_headers``.  ``resulting``: the
    headers the file includes after translation (it includes the runtime)."""
    dropped_from, headers = _facts()
    if ctx.target_hip < dropped_from:
        return
    for row in headers:
        if row.header in resulting or row.cxx in resulting:
            continue
        call = _first_call(ctx, sorted(row.names & ctx.present))
        if call is None:
            continue
        offset, name = call
        # std::memcpy needs <cstring>; plain calls take the C header, valid in C too
        qualified = re.search(rf"\bstd\s*::\s*(?:{'|'.join(sorted(row.names))})\s*\(", ctx.text)
        header = row.cxx if qualified else row.header
        ctx.needed_headers.add(header)
        ctx.report(
            STD_HEADER_ADDED,
            offset,
            f"inserted #include <{header}> for {name}: CUDA's runtime header includes it, "
            f"HIP >= {format_version(dropped_from)}'s <hip/hip_runtime.h> does not",
            name=name,
        )


def _first_call(ctx: Context, names: list[str]) -> tuple[int, str] | None:
    """The first call of one of ``names``: in code a call expression (``memcpy(``
    or ``std::memcpy(``, not ``x.memcpy(`` nor a declaration of a function of
    that name); in a ``#define`` body the name followed by ``(``."""
    scanner = scanner_of(ctx)
    text = ctx.text
    found: list[tuple[int, str]] = []
    for name in names:
        for start in occurrences(text, name):
            where = scanner.classify(start, start + len(name))[0]
            if where == "code" and _called(ctx, start, len(name)):
                found.append((start, name))
                break
            member = text[max(0, start - 2) : start].rstrip().endswith((".", "->"))
            if where == "macro" and not member and text[start + len(name) :].lstrip()[:1] == "(":
                found.append((start, name))
                break
    return min(found) if found else None


def _called(ctx: Context, start: int, size: int) -> bool:
    node = ctx.root.descendant_for_byte_range(start, start + size)
    if node is None or node.type != "identifier":
        return False
    callee = node
    if node.parent is not None and node.parent.type == "qualified_identifier":
        callee = node.parent
    return call_naming(callee) is not None
