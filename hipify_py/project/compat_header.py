"""--compat's header file on disk: written once into the output root (or the
root of the paths translated in place), whole or not at all."""

from __future__ import annotations

from pathlib import Path

from hipify_py.atomic import atomic_write
from hipify_py.engine.compat import HEADER, header_text


def write_header(folder: Path) -> bool:
    """Write the header into ``folder`` unless it holds exactly that; True if written."""
    target = folder / HEADER
    text = header_text()
    try:
        if target.read_bytes() == text:
            return False
    except OSError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(target, text, like=None)
    return True
