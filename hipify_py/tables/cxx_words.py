"""Words of C++ and CUDA C++ (data/cxx_words.yaml), read once: the words no
header declares (the translator never renames an identifier to one of them,
and ``hipify-py mappings verify`` skips the keywords), the kernel words that
need the HIP runtime header, and the integer types by width."""

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


def kernel_words() -> frozenset[str]:
    """Words that make a file need <hip/hip_runtime.h>."""
    return _groups()["kernel"]


def narrow_integers() -> frozenset[str]:
    """Integer type spellings of 32 bits or fewer."""
    return _groups()["narrow_integers"]


def wide_integers() -> frozenset[str]:
    """Integer type spellings of 64 bits on LP64 Linux."""
    return _groups()["wide_integers"]
