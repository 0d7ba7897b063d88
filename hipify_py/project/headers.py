"""Project mode: the local headers translated sources include, and renames.

* A header that a translated source includes is translated too, even outside
  the given paths, as long as it is inside the project (the enclosing git
  repository, else the folder of the configuration, else the common folder of
  the inputs) and not excluded.  Each one is reported.  ``#include "x.h"`` is
  looked up as a compiler does: next to the including file, then in the
  include folders (``-I``, ``include-dirs``), then - as a build with ``-I..``
  would find it - in the including file's ancestor folders up to the project
  root; ``#include <x.h>`` in the include folders only.
* ``--rename``: ``.cu`` becomes ``.hip`` and ``cuda`` becomes ``hip`` in file
  names (as PyTorch's hipify does), and every include of a renamed file is
  rewritten to the new name: in the files of the run and, when translating in
  place, in every other file of the project that includes one (those are
  reported; nothing else in them changes).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from hipify_py.project.config import start_folder
from hipify_py.project.files import (
    DEFAULT_EXTENSIONS,
    NO_EXCLUDES,
    Discovery,
    Excludes,
    Target,
    discover,
)

_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)', re.MULTILINE)
_MAX_HEADERS = 5000


def project_root(start: Path, config_root: Path | None = None) -> Path:
    folder = start_folder(start)
    for parent in [folder, *folder.parents]:
        if (parent / ".git").exists():
            return parent
    return config_root.resolve() if config_root is not None else folder


@dataclass(frozen=True)
class IncludeSearch:
    """Where ``#include`` names are looked up (see the module docstring)."""

    root: Path  # the project root: the ancestor search stops there
    include_dirs: tuple[Path, ...] = ()
    # (name, quoted, includer's folder) -> the file: a tree's files include the
    # same headers from the same folders (a run resolves each once)
    _memo: dict[tuple[str, bool, Path], Path | None] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @classmethod
    def make(cls, root: Path, include_dirs: Iterable[Path] = ()) -> IncludeSearch:
        return cls(root.resolve(), tuple(Path(d).resolve() for d in include_dirs))

    def resolve(self, name: str, quoted: bool, includer: Path) -> Path | None:
        memo_key = (name, quoted, includer.parent if quoted else self.root)
        if memo_key in self._memo:
            return self._memo[memo_key]
        found = self._memo[memo_key] = self._resolve(name, quoted, includer)
        return found

    def _resolve(self, name: str, quoted: bool, includer: Path) -> Path | None:
        folders: list[Path] = [includer.parent] if quoted else []
        folders += self.include_dirs
        if quoted:
            folders += [a for a in includer.parent.parents if _inside(a, self.root)]
        for folder in folders:
            candidate = folder / name
            if candidate.is_file():
                return candidate.resolve()
        return None


def includes_of(
    path: Path, search: IncludeSearch, data: bytes | None = None
) -> list[tuple[str, Path]]:
    """(include as written, with its delimiters; the file it names) for every
    ``#include`` of ``path`` that names an existing file."""
    if data is None:
        try:
            data = path.read_bytes()
        except OSError:
            return []
    found = []
    for match in _include_lines(data):
        quoted = match.group(1) is not None
        raw = match.group(1) if quoted else match.group(2)
        name = raw.decode("utf-8", errors="surrogateescape")
        resolved = search.resolve(name, quoted, path)
        if resolved is not None:
            found.append((f'"{name}"' if quoted else f"<{name}>", resolved))
    return found


def _include_lines(data: bytes) -> Iterator[re.Match[bytes]]:
    """_INCLUDE's matches, tried only at the starts of lines holding 'include'
    (finditer tries the ^-anchored regex at every offset of the file)."""
    pos = data.find(b"include")
    while pos != -1:
        match = _INCLUDE.match(data, data.rfind(b"\n", 0, pos) + 1)
        if match is not None:
            yield match
        end = data.find(b"\n", pos)
        if end == -1:
            return
        pos = data.find(b"include", end)


def add_local_headers(
    discovery: Discovery,
    root: Path,
    output_dir: Path | None,
    *,
    search: IncludeSearch | None = None,
    excludes: Excludes = NO_EXCLUDES,
) -> list[str]:
    """Add the local headers the targets include (recursively) that are inside
    ``root``, not excluded and not targets yet.  Returns "header (included by
    file)" lines."""
    search = search or IncludeSearch.make(root)
    known = {t.real for t in discovery.targets}
    queue = list(discovery.targets)
    added: list[str] = []
    while queue and len(added) < _MAX_HEADERS:
        target = queue.pop(0)
        for _, header in includes_of(target.real, search):
            if header in known or not _inside(header, root):
                continue
            known.add(header)
            if excludes.matches(header):
                continue
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
    """Headers from outside the inputs widen the mirrored tree: the output
    folder now mirrors the common folder of everything translated, and every
    output already planned (translations, build files, copies, links) moves
    with its folder, so the mirror stays one tree."""
    reals = [str(t.real.parent) for t in discovery.targets]
    old = discovery.base.resolve() if discovery.base is not None else None
    base = Path(os.path.commonpath([*reals, *([str(old)] if old else [])]))
    shift = os.path.relpath(old, base) if old is not None else "."

    def moved(output: Path) -> Path:
        return output_dir / shift / os.path.relpath(output, output_dir)

    def placed(target: Target) -> Path:
        if target.output is not None:
            return moved(target.output)
        return output_dir / os.path.relpath(target.real, base)  # a header just added

    discovery.targets[:] = [replace(t, output=placed(t)) for t in discovery.targets]
    discovery.build_files[:] = [
        replace(b, output=moved(b.output)) if b.output else b for b in discovery.build_files
    ]
    discovery.extra_copies[:] = [(src, moved(out)) for src, out in discovery.extra_copies]
    discovery.links[:] = [(link, moved(out), text) for link, out, text in discovery.links]
    discovery.base = base


def renamed(name: str) -> str:
    """PyTorch-style: kernel_cuda.cu -> kernel_hip.hip; CUDA -> HIP in names."""
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    stem = stem.replace("cuda", "hip").replace("CUDA", "HIP").replace("Cuda", "Hip")
    if suffix.lower() == "cu":  # K.CU too: clang knows .hip, not .HIP
        suffix = "hip"
    return f"{stem}.{suffix}" if dot else stem


def _renamed_link(link: Path, text: str, moves: dict[Path, Path]) -> str:
    real = Path(os.path.realpath(link))
    if real not in moves or os.path.basename(text) != real.name:
        return text
    return os.path.join(os.path.dirname(text), moves[real].name)


def _rewrites(
    path: Path, search: IncludeSearch, moves: dict[Path, Path]
) -> tuple[tuple[str, str], ...]:
    out = set()
    for written, header in includes_of(path, search):
        if header in moves:
            body = written[1:-1]
            head, sep, tail = body.rpartition("/")
            out.add((written, f"{written[0]}{head}{sep}{renamed(tail)}{written[-1]}"))
    return tuple(sorted(out))


def plan_renames(
    discovery: Discovery,
    *,
    search: IncludeSearch | None = None,
    scan_project: bool = False,
    extensions: Sequence[str] = DEFAULT_EXTENSIONS,
    use_gitignore: bool = True,
    excludes: Excludes = NO_EXCLUDES,
) -> dict[Path, Path]:
    """Old path -> new path of every target whose name changes; the targets get
    their new output paths and the include rewrites their renamed headers need.

    ``scan_project`` (in place): the other source files of the project (below
    ``search.root``) that include a renamed file are added as targets that are
    not translated, only their includes rewritten (``discovery.added_includers``);
    excluded ones are left alone and reported as problems."""
    moves: dict[Path, Path] = {}
    for target in discovery.targets:
        if not target.translate:
            continue
        new_name = renamed(target.real.name)
        if new_name != target.real.name:
            moves[target.real] = target.real.with_name(new_name)
    if search is None:
        roots = [t.real.parent for t in discovery.targets]
        search = IncludeSearch.make(Path(os.path.commonpath(roots)) if roots else Path.cwd())
    updated = []
    for target in discovery.targets:
        output = target.output
        if output is not None and target.real in moves:
            output = output.with_name(moves[target.real].name)
        updated.append(
            replace(
                target,
                output=output,
                rename_to=moves.get(target.real) if target.translate else None,
                include_renames=_rewrites(target.real, search, moves),
            )
        )
    discovery.targets[:] = updated
    if moves and discovery.links:  # -o: a link to a renamed file leads to its new name
        discovery.links[:] = [
            (link, out, _renamed_link(link, text, moves)) for link, out, text in discovery.links
        ]
    if moves and scan_project:
        _add_includers(discovery, search, moves, extensions, use_gitignore, excludes)
    return moves


def _add_includers(
    discovery: Discovery,
    search: IncludeSearch,
    moves: dict[Path, Path],
    extensions: Sequence[str],
    use_gitignore: bool,
    excludes: Excludes,
) -> None:
    known = {t.real for t in discovery.targets}
    names = {os.fsencode(p.name) for p in moves}
    tree = discover([search.root], extensions=extensions, use_gitignore=use_gitignore)
    for found in tree.targets:
        if found.real in known:
            continue
        try:
            data = found.real.read_bytes()
        except OSError:
            continue
        if not any(name in data for name in names):
            continue  # cannot include a renamed file: skip the include parsing
        rewrites = _rewrites(found.real, search, moves)
        if not rewrites:
            continue
        display = _display(found.real)
        if excludes.matches(found.real):
            discovery.problems.append(
                f"{display}: excluded, but includes a renamed file "
                f"({', '.join(old for old, _ in rewrites)}); its include is left as it is"
            )
            continue
        discovery.targets.append(
            Target(
                found.real,
                found.real,
                None,
                display,
                include_renames=rewrites,
                translate=False,
            )
        )
        discovery.added_includers.append(
            f"{display} ({', '.join(f'{old} -> {new}' for old, new in rewrites)})"
        )
