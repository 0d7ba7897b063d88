"""Project mode: the local headers translated sources include, and renames.

* A header that a translated source includes with ``#include "..."`` is
  translated too, even outside the given paths, as long as it is inside the
  project (the enclosing git repository, else the folder of the configuration,
  else the common folder of the inputs).  Each one is reported.
* ``--rename``: ``.cu`` becomes ``.hip`` and ``cuda`` becomes ``hip`` in file
  names (as PyTorch's hipify does), and every ``#include "..."`` of a renamed
  file is rewritten to the new name.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from .files import Discovery, Target

_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
_MAX_HEADERS = 5000


def project_root(start: Path, config_root: Path | None = None) -> Path:
    folder = start.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for parent in [folder, *folder.parents]:
        if (parent / ".git").exists():
            return parent
    return config_root.resolve() if config_root is not None else folder


def local_includes(path: Path) -> list[tuple[str, Path]]:
    """(include text, resolved file) for the ``#include "..."`` lines of a file
    that name an existing file next to it."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    found = []
    for match in _LOCAL_INCLUDE.finditer(data):
        text = match.group(1).decode("utf-8", errors="surrogateescape")
        candidate = path.parent / text
        if candidate.is_file():
            found.append((text, candidate.resolve()))
    return found


def add_local_headers(discovery: Discovery, root: Path, output_dir: Path | None) -> list[str]:
    """Add the local headers the targets include (recursively) that are inside
    ``root`` and not targets yet.  Returns "header (included by file)" lines."""
    known = {t.real for t in discovery.targets}
    queue = list(discovery.targets)
    added: list[str] = []
    while queue and len(added) < _MAX_HEADERS:
        target = queue.pop(0)
        for _, header in local_includes(target.real):
            if header in known or not _inside(header, root):
                continue
            known.add(header)
            display = _display(header)
            new = Target(header, header, None, display, explicit=False)
            discovery.targets.append(new)
            queue.append(new)
            added.append(f"{display} (included by {target.display})")
    if added and output_dir is not None:
        _remap_outputs(discovery, output_dir)
    return added


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _remap_outputs(discovery: Discovery, output_dir: Path) -> None:
    """Headers from outside the inputs widen the mirrored tree: outputs are
    placed relative to the common folder of everything translated."""
    base = Path(os.path.commonpath([str(t.real.parent) for t in discovery.targets]))
    discovery.targets[:] = [
        replace(t, output=output_dir / os.path.relpath(t.real, base)) for t in discovery.targets
    ]


def renamed(name: str) -> str:
    """PyTorch-style: kernel_cuda.cu -> kernel_hip.hip; CUDA -> HIP in names."""
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    stem = stem.replace("cuda", "hip").replace("CUDA", "HIP").replace("Cuda", "Hip")
    if suffix == "cu":
        suffix = "hip"
    return f"{stem}.{suffix}" if dot else stem


def plan_renames(discovery: Discovery) -> dict[Path, Path]:
    """Old path -> new path of every target whose name changes; the targets get
    their new output paths and the include rewrites their renamed headers need."""
    moves: dict[Path, Path] = {}
    for target in discovery.targets:
        new_name = renamed(target.real.name)
        if new_name != target.real.name:
            moves[target.real] = target.real.with_name(new_name)
    updated = []
    for target in discovery.targets:
        rewrites = []
        for text, header in local_includes(target.real):
            if header in moves:
                head, sep, tail = text.rpartition("/")
                rewrites.append((text, f"{head}{sep}{renamed(tail)}"))
        output = target.output
        if output is not None and target.real in moves:
            output = output.with_name(moves[target.real].name)
        updated.append(
            replace(
                target,
                output=output,
                rename_to=moves.get(target.real),
                include_renames=tuple(sorted(set(rewrites))),
            )
        )
    discovery.targets[:] = updated
    return moves
