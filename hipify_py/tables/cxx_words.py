"""Words of C++ and CUDA C++ (data/cxx_words.yaml), read once: the words no
header declares (the translator never renames an identifier to one of them,
and ``hipify-py mappings verify`` skips the keywords), the kernel words that
need the HIP runtime header, and the integer types by width."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hipify_py.tables.flow_lists import flow_lists

WORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "cxx_words.yaml"


@cache
def _groups() -> dict[str, frozenset[str]]:
    """The file's ``name: [word, ...]`` lists."""
    return {name: frozenset(words) for name, words in flow_lists(WORDS_FILE).items()}


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
