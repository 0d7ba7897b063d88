"""Dotted version strings ("6.2", "5.7.1") as comparable tuples."""

from __future__ import annotations

import re

Version = tuple[int, ...]

_VERSION_RE = re.compile(r"^\d+(\.\d+){0,3}$")


def parse_version(text: str) -> Version:
    """Parse "X.Y[.Z]" into a tuple padded to three parts; raise ValueError if malformed."""
    text = text.strip()
    if not _VERSION_RE.match(text):
        raise ValueError(f"not a version: {text!r} (expected X.Y or X.Y.Z)")
    parts = tuple(int(p) for p in text.split("."))
    return (*parts, 0, 0, 0)[:3] if len(parts) < 3 else parts


def format_version(version: Version) -> str:
    """Shortest form: (6, 2, 0) -> "6.2"."""
    parts = list(version)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    return ".".join(str(p) for p in parts)
