"""The words of C++ and CUDA C++ that no header declares (data/cxx_words.yaml),
read once: the translator never renames an identifier to one of them, and
``hipify-py mappings verify`` skips the keywords in what it checks."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

WORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "cxx_words.yaml"
_GROUP = re.compile(r"^(\w+):\s*\[([^\]]*)\]", re.MULTILINE)


@cache
def _groups() -> dict[str, frozenset[str]]:
    """The file's ``name: [word, ...]`` lists.  Read without PyYAML, like
    engine/hip_target.py's releases: a run whose table comes from the cache
    never imports it (tests/test_table.py checks this reading against PyYAML's)."""
    text = "\n".join(
        line
        for line in WORDS_FILE.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("#")
    )
    return {
        match.group(1): frozenset(
            word.strip().strip("\"'") for word in match.group(2).split(",") if word.strip()
        )
        for match in _GROUP.finditer(text)
    }


def keywords() -> frozenset[str]:
    """The C++20 keywords."""
    return _groups()["keywords"]


@cache
def reserved() -> frozenset[str]:
    """Keywords, the typedefs the grammar reads as primitive types and the CUDA
    specifiers: renaming an identifier to one of them could change the parse."""
    groups = _groups()
    return groups["keywords"] | groups["types"] | groups["cuda"]
