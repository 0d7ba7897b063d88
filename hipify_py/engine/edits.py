"""Edits on byte ranges and applying them in one pass."""

from __future__ import annotations

from typing import NamedTuple


class Edit(NamedTuple):
    """One replacement.  A NamedTuple: a file can have tens of thousands."""

    start: int
    end: int
    text: bytes
    rule: str
    safe: bool = True  # unsafe edits are applied only when the user opts in
    # False when the edit provably cannot change how the file parses (an
    # identifier renamed to another plain identifier, a header name inside
    # <...>): the self-check re-parse is needed only after structural edits.
    structural: bool = True
    group: int = 0  # structural edits of one site (a launch) share a group: all or none


def _order(edit: Edit) -> tuple[int, bool]:
    return edit.start, edit.start != edit.end


def plan(edits: list[Edit]) -> tuple[list[Edit], list[Edit]]:
    """Sort edits and drop those that overlap an earlier accepted one.

    Insertions at the same point keep their creation order; an insertion at
    the start of a replacement goes before it.  Exact duplicates are dropped
    silently.  Returns (accepted, rejected).
    """
    # (sorted is stable: edits with the same key keep their creation order)
    ordered = sorted(edits, key=_order)
    accepted: list[Edit] = []
    rejected: list[Edit] = []
    seen: set[Edit] = set()
    last_start, last_end = -1, -1
    for edit in ordered:
        if edit in seen and edit.start != edit.end:
            continue
        if edit.start == edit.end:
            if last_start < edit.start < last_end:
                rejected.append(edit)
                continue
        elif edit.start < last_end:
            rejected.append(edit)
            continue
        else:
            last_start, last_end = edit.start, edit.end
        accepted.append(edit)
        seen.add(edit)
    return accepted, rejected


def apply(data: bytes, accepted: list[Edit]) -> bytes:
    """Apply sorted, non-overlapping edits."""
    out: list[bytes] = []
    pos = 0
    for edit in accepted:
        out.append(data[pos : edit.start])
        out.append(edit.text)
        pos = max(pos, edit.end)
    out.append(data[pos:])
    return b"".join(out)
