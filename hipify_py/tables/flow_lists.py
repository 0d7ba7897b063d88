"""The ``name: [a, b, ...]`` lists of a small package data file, read without
PyYAML: a run whose table comes from the cache never imports it.  (The files
read this way hold nothing else but comments; tests compare the reading with
PyYAML's.)"""

from __future__ import annotations

import re
from pathlib import Path

_LIST = re.compile(r"^(\w+):\s*\[([^\]]*)\]", re.MULTILINE)


def flow_lists(path: Path) -> dict[str, list[str]]:
    """Each top-level ``name: [...]`` of ``path`` (a list may span lines)."""
    text = "\n".join(
        line
        for line in path.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("#")
    )
    return {
        match.group(1): [
            word.strip().strip("\"'") for word in match.group(2).split(",") if word.strip()
        ]
        for match in _LIST.finditer(text)
    }
