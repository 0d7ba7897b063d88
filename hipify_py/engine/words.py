"""Whole-identifier search in source text (the rules' most common question)."""

from __future__ import annotations


def occurrences(text: str, name: str) -> list[int]:
    """Start offsets of ``name`` as a whole identifier in ``text``."""
    found: list[int] = []
    size = len(name)
    find = text.find
    pos = find(name)
    while pos != -1:
        before = text[pos - 1] if pos else " "
        after = text[pos + size : pos + size + 1]
        if not (before.isalnum() or before in "_$") and not (
            after and (after.isalnum() or after in "_$")
        ):
            found.append(pos)
        pos = find(name, pos + size)
    return found
