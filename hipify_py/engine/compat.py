"""--compat: the compatibility header hipify_py_compat.h and what it provides.

The header is package data (data/compat/hipify_py_compat.h) and the names it
provides are table data (data/compat.yaml).  The engine includes it as
``#include "hipify_py_compat.h"``; the runner then makes that path relative to
where the header is written (``relative_include``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
HEADER_FILE = DATA / "compat" / "hipify_py_compat.h"
NAMES_FILE = DATA / "compat.yaml"
HEADER = "hipify_py_compat.h"
# the include the engine writes; the runner rewrites it to a relative path
PLAIN_INCLUDE = f'#include "{HEADER}"'
# any include of the header, at whatever relative path (a file translated
# before includes it already)
_ANY_INCLUDE_TEXT = re.compile(
    r'^[ \t]*#[ \t]*include[ \t]*["<](?:[^">\n]*/)?' + re.escape(HEADER) + '[">]', re.MULTILINE
)
_ANY_INCLUDE = re.compile(_ANY_INCLUDE_TEXT.pattern.encode(), re.MULTILINE)


@dataclass(frozen=True)
class CompatData:
    hint: str
    names: dict[str, str]  # CUDA name HIP lacks -> what the header gives
    also_for_types: dict[str, str]  # names HIP has for some types only
    includes: dict[str, str]  # CUDA header the compat header replaces -> what it gives
    renames: dict[str, Rename]  # CUDA name of another shape -> the header's name (NVML)
    rename_header: str  # what the header's renaming part needs included first
    rename_since: str  # the HIP version from which the renames apply


@dataclass(frozen=True)
class Rename:
    """A CUDA name the header provides under another name (NVML over AMD SMI)."""

    to: str
    gives: str  # its declaration, shown in the hint


@lru_cache(maxsize=1)
def data() -> CompatData:
    import yaml

    raw = yaml.safe_load(NAMES_FILE.read_text(encoding="utf-8"))
    return CompatData(
        hint=str(raw["hint"]),
        names={str(k): str(v) for k, v in raw["names"].items()},
        also_for_types={str(k): str(v) for k, v in raw["also_for_types"].items()},
        includes={str(k): str(v) for k, v in raw["includes"].items()},
        renames={
            str(k): Rename(to=str(v["to"]), gives=str(v["gives"]))
            for k, v in raw["renames"]["names"].items()
        },
        rename_header=str(raw["renames"]["header"]),
        rename_since=str(raw["renames"]["since"]),
    )


def header_text() -> bytes:
    return HEADER_FILE.read_bytes()


def includes_header(text: bytes) -> bool:
    """Does the file include hipify_py_compat.h already (at any path)?"""
    return HEADER.encode() in text and _ANY_INCLUDE.search(text) is not None


def text_includes_header(text: str) -> bool:
    """includes_header of decoded text."""
    return HEADER in text and _ANY_INCLUDE_TEXT.search(text) is not None


def relative_include(header_dir: Path, file: Path) -> str:
    """The path ``file`` includes the header by: relative to its folder, with /."""
    rel = os.path.relpath(header_dir / HEADER, file.parent)
    return rel.replace(os.sep, "/")


def point_include(data: bytes, include_path: str) -> bytes:
    """The engine's plain ``#include "hipify_py_compat.h"`` -> ``include_path``."""
    if include_path == HEADER:
        return data
    return data.replace(PLAIN_INCLUDE.encode(), f'#include "{include_path}"'.encode())
