"""The words of C++ and CUDA C++ that no header declares (data/cxx_words.yaml),
read once: the translator never renames an identifier to one of them, and
``hipify-py mappings verify`` skips the keywords in what it checks."""

from __future__ import annotations

from functools import cache
from pathlib import Path

WORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "cxx_words.yaml"


@cache
def _groups() -> dict[str, frozenset[str]]:
    import yaml

    doc = yaml.safe_load(WORDS_FILE.read_text(encoding="utf-8"))
    return {group: frozenset(str(word) for word in words) for group, words in doc.items()}


def keywords() -> frozenset[str]:
    """The C++20 keywords."""
    return _groups()["keywords"]


@cache
def reserved() -> frozenset[str]:
    """Keywords, the typedefs the grammar reads as primitive types and the CUDA
    specifiers: renaming an identifier to one of them could change the parse."""
    groups = _groups()
    return groups["keywords"] | groups["types"] | groups["cuda"]
