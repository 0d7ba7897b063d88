"""Which files to translate, and where each one's output goes."""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .gitignore import Ignorer, Pattern, compile_pattern, ignorer_for


def build_kind(path: Path) -> str | None:
    """ "cmake", "make", or None: a build file hipify-py reports on (HPY6xx)."""
    name = path.name
    if name == "CMakeLists.txt" or name.endswith(".cmake"):
        return "cmake"
    if name in ("Makefile", "makefile", "GNUmakefile") or name.endswith(".mk"):
        return "make"
    return None


DEFAULT_EXTENSIONS = (
    ".cu",
    ".cuh",
    ".cpp",
    ".cc",
    ".cxx",
    ".c",
    ".h",
    ".hpp",
    ".hh",
    ".inl",
    ".inc",
)
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__"})


class DiscoveryError(Exception):
    """A path given on the command line cannot be used (message names the path)."""


@dataclass(frozen=True)
class Target:
    source: Path  # the file to read (as given / found)
    real: Path  # its resolved path: what is written in place, and the identity
    output: Path | None  # where the result goes; None for modes that write nothing
    display: str  # how messages name it
    explicit: bool = False  # named on the command line (not found by walking)
    rename_to: Path | None = None  # --rename: the file's new path (in place)
    # --rename: #include "old" -> "new" (delimiters included: '"a_cuda.h"', '<x/b_cuda.h>')
    include_renames: tuple[tuple[str, str], ...] = ()
    translate: bool = True  # False: only its includes of renamed files are rewritten


@dataclass
class Discovery:
    targets: list[Target] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "path: why", for paths we skipped
    # "path: why", for paths named on the command line that are not there or
    # not files or folders (broken links, devices): an error, exit 2
    missing: list[str] = field(default_factory=list)
    extra_copies: list[tuple[Path, Path]] = field(default_factory=list)  # (from, to) non-source
    build_files: list[Target] = field(default_factory=list)  # CMakeLists.txt, *.cmake, Makefile
    added_headers: list[str] = field(default_factory=list)  # local headers pulled in (project mode)
    # --rename: files outside the paths whose includes of renamed files are rewritten
    added_includers: list[str] = field(default_factory=list)
    # temporary files of an interrupted run (.NAME.XXXXXXXX.hipify-tmp): never
    # sources; a writing run removes them once it holds the tree's lock
    leftovers: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class Excludes:
    """Exclude globs (gitignore syntax) with the folder each is relative to:
    ``--exclude`` is relative to the folders given (and, for files named on
    the command line, to the current folder); the configuration's ``exclude``
    to the configuration file's folder, wherever hipify-py runs from."""

    entries: tuple[tuple[Path, tuple[str, ...]], ...] = ()

    def __bool__(self) -> bool:
        return any(globs for _, globs in self.entries)

    def plus(self, base: Path, globs: Iterable[str]) -> Excludes:
        globs = tuple(globs)
        if not globs:
            return self
        return Excludes((*self.entries, (Path(os.path.abspath(base)), globs)))

    def matches(self, path: Path, is_dir: bool = False) -> bool:
        candidates = {Path(os.path.abspath(path))}
        with contextlib.suppress(OSError, RuntimeError):
            candidates.add(path.resolve())
        for base, globs in self.entries:
            bases = {base}
            with contextlib.suppress(OSError, RuntimeError):
                bases.add(base.resolve())
            for folder in bases:
                for candidate in candidates:
                    try:
                        rel = candidate.relative_to(folder).as_posix()
                    except ValueError:
                        continue
                    if rel == ".":
                        continue
                    if _excluded(rel, globs) or (is_dir and _excluded(rel + "/", globs)):
                        return True
        return False


NO_EXCLUDES = Excludes()


def _excluded(rel: str, excludes: Iterable[str]) -> bool:
    for glob in excludes:
        pattern = _compiled(glob)
        if pattern is not None and pattern.regex.match(rel):
            return True
    return False


@functools.lru_cache(maxsize=256)
def _compiled(glob: str) -> Pattern | None:
    return compile_pattern(glob)


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def discover(
    paths: Iterable[str | Path],
    *,
    extensions: Iterable[str] = DEFAULT_EXTENSIONS,
    excludes: Iterable[str] = (),
    use_gitignore: bool = True,
    output_dir: Path | None = None,
    copy_other: bool = False,
    anchored: Excludes = NO_EXCLUDES,
) -> Discovery:
    """Expand files and folders into translation targets.

    Folders are walked recursively (honouring .gitignore and ``excludes``,
    relative to each folder, not following symbolic links to folders).  A file
    named explicitly is taken whatever its extension, unless ``excludes``
    (relative to the current folder) match it.  ``anchored``: excludes with
    their own base folder (the configuration's), applied to every file.  With
    ``output_dir`` every target gets an output path mirroring its place under
    the common base of the inputs.
    """
    exts = tuple(e if e.startswith(".") else "." + e for e in extensions)
    exclude_list = list(excludes)
    explicit_excludes = anchored.plus(Path.cwd(), exclude_list)
    given = [Path(p) for p in paths]
    result = Discovery()
    for path in given:
        if not os.path.lexists(path):
            result.missing.append(f"{path}: no such file or folder")
    given = [p for p in given if os.path.lexists(p)]
    if not given:
        return result
    base = _common_base(given)
    if output_dir is not None:
        _check_output_dir(output_dir, given)
    seen: set[Path] = set()

    def add(file: Path, explicit: bool) -> None:
        try:
            real = file.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            result.problems.append(f"{_display(file)}: cannot resolve ({_reason(exc)})")
            return
        if real in seen:
            return
        seen.add(real)
        output = None
        if output_dir is not None:
            output = output_dir / os.path.relpath(file.absolute(), base)
            if Path(os.path.realpath(output)) == real:
                raise DiscoveryError(
                    f"{output_dir}: the translation of {_display(file)} would overwrite it; "
                    "choose an output folder that is not the input's (or omit --output-dir)"
                )
        result.targets.append(Target(file, real, output, _display(file), explicit))

    def add_build(file: Path) -> None:
        output = output_dir / os.path.relpath(file.absolute(), base) if output_dir else None
        result.build_files.append(Target(file, file.resolve(), output, _display(file)))

    for path in given:
        if path.is_dir():
            top = path.resolve()
            root_ignorer = ignorer_for(path) if use_gitignore else Ignorer()
            for file, is_source in _walk(
                path, root_ignorer, exts, exclude_list, use_gitignore, result, anchored
            ):
                if os.path.islink(file) and not _inside(file, top):
                    if is_source:  # in place, it would rewrite a file outside the tree
                        result.problems.append(
                            f"{_display(file)}: skipped symbolic link to a file outside "
                            f"{path} ({os.path.realpath(file)}); name it to translate it"
                        )
                    continue
                if is_source:
                    add(file, explicit=False)
                elif build_kind(file) is not None:
                    add_build(file)
                elif copy_other and output_dir is not None:
                    result.extra_copies.append(
                        (file, output_dir / os.path.relpath(file.absolute(), base))
                    )
        elif path.is_file() and explicit_excludes.matches(path):
            continue  # excluded (pre-commit passes every staged file)
        elif path.is_file() and build_kind(path) is not None:
            add_build(path)
        elif path.is_file():
            add(path, explicit=True)
        # named on the command line: as much an error as a path that is not there
        elif path.is_symlink():
            result.missing.append(f"{path}: {_bad_link(path)}")
        else:
            result.missing.append(f"{path}: not a regular file or folder")
    return result


def _walk(
    top: Path,
    ignorer: Ignorer,
    exts: tuple[str, ...],
    excludes: list[str],
    use_gitignore: bool,
    result: Discovery,
    anchored: Excludes = NO_EXCLUDES,
) -> Iterator[tuple[Path, bool]]:
    stack: list[tuple[Path, Ignorer]] = [(top, ignorer)]
    while stack:
        folder, ign = stack.pop()
        if use_gitignore:
            ign = ign.child(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            result.problems.append(f"{_display(folder)}: cannot list folder ({_reason(exc)})")
            continue
        subfolders: list[tuple[Path, Ignorer]] = []
        for entry in entries:
            path = Path(entry.path)
            rel = path.relative_to(top).as_posix()
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = entry.is_file(follow_symlinks=True)
            except OSError:  # a symbolic link loop, or a file that vanished
                is_dir = is_file = False
            if is_dir:
                if (
                    entry.name in _SKIP_DIRS
                    or _excluded(rel + "/", excludes)
                    or _excluded(rel, excludes)
                    or (anchored and anchored.matches(path, is_dir=True))
                ):
                    continue
                if use_gitignore and ign.ignored(path, True):
                    continue
                subfolders.append((path, ign))
                continue
            if entry.is_symlink() and not is_file:
                if entry.name.endswith(exts):
                    result.problems.append(f"{_display(path)}: skipped {_bad_link(path)}")
                continue
            if not entry.name.endswith(exts) and is_leftover(entry.name):
                result.leftovers.append(path)
                continue
            if not is_file or _excluded(rel, excludes):
                continue
            if anchored and anchored.matches(path):
                continue
            if use_gitignore and ign.ignored(path, False):
                continue
            yield path, entry.name.endswith(exts)
        stack.extend(reversed(subfolders))


def _inside(link: Path, top: Path) -> bool:
    """Does the symbolic link ``link`` lead to a file inside the folder ``top``?"""
    try:
        Path(os.path.realpath(link)).relative_to(top)
    except ValueError:
        return False
    return True


def _bad_link(path: Path) -> str:
    """Why a symbolic link that is not a file is skipped."""
    import errno

    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
        if exc.errno == errno.ENOENT:
            return f"broken symbolic link (to {os.readlink(path)}, which does not exist)"
        return f"symbolic link that cannot be followed ({_reason(exc)})"
    return "symbolic link to a folder (not followed)"


TEMP_SUFFIX = ".hipify-tmp"  # runner.atomic_write's temporary files: .NAME.XXXXXXXX.hipify-tmp
_LEFTOVER = re.compile(r"\..+\.[A-Za-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def is_leftover(name: str) -> bool:
    """A temporary file of atomic_write, left when its run was killed mid-write."""
    return _LEFTOVER.fullmatch(name) is not None


def _common_base(paths: list[Path]) -> Path:
    absolute = [p.absolute() for p in paths]
    if len(absolute) == 1:
        only = absolute[0]
        return only if only.is_dir() else only.parent
    parents = [p if p.is_dir() else p.parent for p in absolute]
    return Path(os.path.commonpath([str(p) for p in parents]))


def _check_output_dir(output_dir: Path, given: list[Path]) -> None:
    out = output_dir.resolve()
    for path in given:
        real = path.resolve()
        if not real.is_dir():
            continue
        if out == real:
            raise DiscoveryError(
                f"{output_dir}: the output folder is the input folder; "
                "omit --output-dir to translate in place"
            )
        if real in out.parents:
            raise DiscoveryError(
                f"{output_dir}: the output folder is inside the input folder {path}; "
                "choose a folder outside it (or exclude it and translate in place)"
            )


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__
