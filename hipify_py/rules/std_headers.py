"""Standard headers CUDA's runtime header brings in and HIP >= 7.0's does not
(``data/runtime_std_headers.yaml``): a translated file that calls memcpy or
assert with only the runtime header included gets the header it relied on."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

from .. import diagnostics as D
from ..context import Context
from ..versions import Version, format_version, parse_version
from .identifiers import occurrences, scanner_of

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
        ctx.needed_headers.add(row.header)
        ctx.report(
            D.STD_HEADER_ADDED,
            offset,
            f"inserted #include <{row.header}> for {name}: CUDA's runtime header includes it, "
            f"HIP >= {format_version(dropped_from)}'s <hip/hip_runtime.h> does not",
            name=name,
        )


def _first_call(ctx: Context, names: list[str]) -> tuple[int, str] | None:
    """The first ``name(`` in code (not a member: ``x.memcpy(`` is another function)."""
    scanner = scanner_of(ctx)
    text = ctx.text
    found: list[tuple[int, str]] = []
    for name in names:
        for start in occurrences(text, name):
            after = text[start + len(name) : start + len(name) + 80].lstrip()
            before = text[max(0, start - 2) : start].rstrip()
            if not after.startswith("(") or before.endswith((".", "->")):
                continue
            if scanner.classify(start, start + len(name))[0] in ("code", "macro"):
                found.append((start, name))
                break
    return min(found) if found else None
