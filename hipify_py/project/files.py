"""Which files to translate, and where each one's output goes."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hipify_py.atomic import TEMP_SUFFIX
from hipify_py.project.gitignore import Ignorer, Pattern, compile_pattern, ignorer_for
from hipify_py.project.tracked import Tracked


def build_kind(path: Path) -> str | None:
    """ "cmake", "make", or None: a build file hipify-py reports on (HPY6xx)."""
    name = path.name
    if name == "CMakeLists.txt" or name.lower().endswith(".cmake"):
        return "cmake"
    if name in ("Makefile", "makefile", "GNUmakefile") or name.lower().endswith(".mk"):
        return "make"
    return None


def has_extension(name: str, extensions: tuple[str, ...]) -> bool:
    """Does the file name end with one of ``extensions`` (lower case, with their
    dots)?  Case-insensitive: ``K.CU`` is as much CUDA as ``k.cu``."""
    return name.lower().endswith(extensions)


def normal_extensions(extensions: Iterable[str]) -> tuple[str, ...]:
    """``cu``, ``.CU`` -> ``.cu``: the form has_extension compares with."""
    return tuple((e if e.startswith(".") else "." + e).lower() for e in extensions)


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
    copy: bool = False  # a build file with --copy-all: written to ``output`` even unchanged


@dataclass
class Discovery:
    targets: list[Target] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "path: why", for paths we skipped
    # "path: why", for paths named on the command line that are not there or
    # not files or folders (broken links, devices): an error, exit 2
    missing: list[str] = field(default_factory=list)
    extra_copies: list[tuple[Path, Path]] = field(default_factory=list)  # (from, to) non-source
    # -o: symbolic links in the tree recreated in the output folder as links:
    # (the link, its place in the output, the link's target text there)
    links: list[tuple[Path, Path, str]] = field(default_factory=list)
    # --copy-all: what the walk left out, and why: (path, reason); folders end in "/"
    not_copied: list[tuple[str, str]] = field(default_factory=list)
    base: Path | None = None  # -o: the folder the output folder mirrors
    build_files: list[Target] = field(default_factory=list)  # CMakeLists.txt, *.cmake, Makefile
    added_headers: list[str] = field(default_factory=list)  # local headers pulled in (project mode)
    # files of a walked folder without a source extension (not build files):
    # translated after all when a source #includes them (LightGBM's .hu headers)
    others: list[Path] = field(default_factory=list)
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

    Folders are walked recursively (honouring .gitignore for the files git
    does not track, and ``excludes``, relative to each folder, not following
    symbolic links to folders; extensions match whatever their case).  A file
    named explicitly is taken whatever its extension, unless ``excludes``
    (relative to the current folder) match it.  ``anchored``: excludes with
    their own base folder (the configuration's), applied to every file.  With
    ``output_dir`` every target gets an output path mirroring its place under
    the common base of the inputs, and symbolic links in a folder that lead to
    a file written there are recreated as links.  ``copy_other`` (with
    ``output_dir``): a complete mirror: every other file is copied, every link
    in the tree recreated, and what the walk leaves out is listed.
    """
    exts = normal_extensions(extensions)
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
    base = result.base = _common_base(given)
    if output_dir is not None:
        _check_output_dir(output_dir, given)
    mirror = copy_other and output_dir is not None
    seen: set[Path] = set()
    seen_builds: set[Path] = set()

    def out_of(file: Path) -> Path | None:
        return output_dir / os.path.relpath(file.absolute(), base) if output_dir else None

    def add(file: Path, explicit: bool, dedup: bool = True) -> None:
        try:
            real = file.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            result.problems.append(f"{_display(file)}: cannot resolve ({_reason(exc)})")
            return
        if real in seen and dedup:
            return
        seen.add(real)
        output = out_of(file)
        if output is not None and Path(os.path.realpath(output)) == real:
            raise DiscoveryError(
                f"{output_dir}: the translation of {_display(file)} would overwrite it; "
                "choose an output folder that is not the input's (or omit --output-dir)"
            )
        result.targets.append(Target(file, real, output, _display(file), explicit))

    def add_build(file: Path) -> None:
        real = file.resolve()
        if real in seen_builds:
            return
        seen_builds.add(real)
        result.build_files.append(Target(file, real, out_of(file), _display(file), copy=mirror))

    def add_found(file: Path, source: bool, dedup: bool = True) -> None:
        """A file found walking: translated, a build file, or (--copy-all) copied."""
        if source:
            add(file, explicit=False, dedup=dedup)
        elif build_kind(file) is not None:
            add_build(file)
        else:
            result.others.append(file)
            if mirror:
                output = out_of(file)
                assert output is not None
                result.extra_copies.append((file, output))

    for path in given:
        if path.is_dir():
            root_ignorer = ignorer_for(path) if use_gitignore else Ignorer()
            walked: set[Path] = set()
            links: list[tuple[Path, bool]] = []
            for file, source, link in _walk(
                path,
                root_ignorer,
                exts,
                exclude_list,
                use_gitignore,
                result,
                anchored,
                walked=walked,
                record=mirror,
            ):
                if link:  # placed once the real files are known
                    links.append((file, source))
                else:
                    add_found(file, source)
            if links:
                _place_links(links, path, walked, result, out_of, add_found, mirror)
            _take_included_others(result, add)
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


_INCLUDE_NAME = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]', re.MULTILINE)


def _take_included_others(result: Discovery, add: Callable[..., None]) -> None:
    """A file of the walk without a source extension that a source includes
    (``#include <LightGBM/cuda/cuda_utils.hu>``) is part of a compile unit:
    translate it, or the unit keeps its CUDA names.  An include names a file
    when the file's path ends with the include's path."""
    by_name: dict[str, list[Path]] = {}
    for other in result.others:
        by_name.setdefault(other.name, []).append(other)
    if not by_name:
        return
    taken: dict[Path, str] = {}
    queue = list(result.targets)
    while queue:
        target = queue.pop()
        try:
            data = target.real.read_bytes()
        except OSError:
            continue
        if b"include" not in data:
            continue
        for match in _INCLUDE_NAME.finditer(data):
            name = match.group(1).decode("utf-8", errors="replace").strip()
            parts = Path(name).parts
            for other in by_name.get(Path(name).name, ()):
                if other in taken or other.parts[-len(parts) :] != parts:
                    continue
                taken[other] = target.display
                before = len(result.targets)
                add(other, explicit=False)
                queue.extend(result.targets[before:])
    if not taken:
        return
    result.others = [o for o in result.others if o not in taken]
    result.extra_copies = [(f, o) for f, o in result.extra_copies if f not in taken]
    result.added_headers.extend(
        f"{_display(o)} (included by {by})" for o, by in sorted(taken.items())
    )


IGNORED = "ignored by .gitignore"
EXCLUDED = "excluded (--exclude / exclude)"


def _place_links(
    links: list[tuple[Path, bool]],
    top: Path,
    walked: set[Path],
    result: Discovery,
    out_of: Callable[[Path], Path | None],
    add_found: Callable[..., None],
    mirror: bool,
) -> None:
    """The symbolic links found walking ``top``.  With an output folder, a link
    to a file written there (with ``mirror``: to anything mirrored, folders
    too) is recreated as a link; otherwise a link in the tree is taken as the
    file it leads to, and (``mirror``) a link out of the tree is copied as the
    file it leads to.  In place, a link out of the tree is never followed."""
    real_top = top.resolve()
    written = {t.real for t in result.targets if t.output is not None}
    if mirror:
        written.update(b.real for b in result.build_files)
        written.update(Path(os.path.realpath(src)) for src, _ in result.extra_copies)
    for link, source in links:
        display = _display(link)
        output = out_of(link)
        try:
            st = os.stat(link)
        except OSError:  # broken, or a loop: mirrored as it is
            if source:
                what = "recreated as it is" if mirror else "skipped"
                result.problems.append(f"{display}: {what} {_bad_link(link)}")
            if mirror and output is not None:
                result.links.append((link, output, os.readlink(link)))
            continue
        real = Path(os.path.realpath(link))
        inside = real == real_top or real_top in real.parents
        if stat.S_ISDIR(st.st_mode):
            if mirror and output is not None and inside and real in walked:
                result.links.append((link, output, _link_text(link, top, real, real_top)))
            elif mirror:
                where = "a folder that is not copied" if inside else f"a folder outside {top}"
                result.not_copied.append((display, f"symbolic link to {where}"))
            elif source:
                result.problems.append(f"{display}: skipped {_bad_link(link)}")
            continue
        if not stat.S_ISREG(st.st_mode):
            if mirror:
                result.not_copied.append((display, "not a regular file"))
            continue
        if inside and output is not None and real in written:
            result.links.append((link, output, _link_text(link, top, real, real_top)))
        elif inside:
            add_found(link, source)  # its file is not written (or no output folder)
        elif mirror:
            add_found(link, source, dedup=False)  # the mirror gets what it leads to
        elif source:  # in place, it would rewrite a file outside the tree
            result.problems.append(
                f"{display}: skipped symbolic link to a file outside "
                f"{top} ({real}); name it to translate it"
            )


def _link_text(link: Path, top: Path, real: Path, real_top: Path) -> str:
    """The target of ``link``'s copy in the output folder: its own text when
    that is relative and stays inside the tree (``../ggml/include/ggml.h``),
    else the relative path from its folder to where it leads (an absolute link,
    or one that leaves the tree and comes back, would not lead into the copy)."""
    text = os.readlink(link)
    folder = os.path.relpath(link.parent, top)
    if not os.path.isabs(text):
        lexical = os.path.normpath(os.path.join(folder, text))
        inside = lexical != ".." and not lexical.startswith("../")
        if inside and Path(os.path.realpath(top / lexical)) == real:
            return text
    return os.path.relpath(os.path.relpath(real, real_top), folder)


def _walk(
    top: Path,
    ignorer: Ignorer,
    exts: tuple[str, ...],
    excludes: list[str],
    use_gitignore: bool,
    result: Discovery,
    anchored: Excludes = NO_EXCLUDES,
    *,
    walked: set[Path] | None = None,
    record: bool = False,
) -> Iterator[tuple[Path, bool, bool]]:
    """(path, has a source extension, is a symbolic link) for the files below
    ``top``.  .gitignore applies to what git does not track (as in git): an
    ignored folder holding tracked files is entered for those only.
    ``walked`` collects the real paths of the folders entered; ``record``
    (--copy-all) lists what is left out in ``result.not_copied``."""
    tracked = Tracked(top) if use_gitignore else None

    def left_out(rel: str, why: str) -> None:
        if record:
            folder = "/" if rel.endswith("/") else ""
            result.not_copied.append((_display(top / rel) + folder, why))

    # (folder, its ignorer, ignored: only the files git tracks are taken)
    stack: list[tuple[Path, Ignorer, bool]] = [(top, ignorer, False)]
    while stack:
        folder, ign, ignored = stack.pop()
        if use_gitignore:
            ign = ign.child(folder)
        if walked is not None:
            walked.add(Path(os.path.realpath(folder)))
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            result.problems.append(f"{_display(folder)}: cannot list folder ({_reason(exc)})")
            continue
        subfolders: list[tuple[Path, Ignorer, bool]] = []
        for entry in entries:
            if entry.name in _SKIP_DIRS:  # (a worktree's .git is a file)
                continue
            path = Path(entry.path)
            rel = path.relative_to(top).as_posix()
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = entry.is_file(follow_symlinks=True)
            except OSError:  # a symbolic link loop, or a file that vanished
                is_dir = is_file = False
            if is_dir:
                if (
                    _excluded(rel + "/", excludes)
                    or _excluded(rel, excludes)
                    or (anchored and anchored.matches(path, is_dir=True))
                ):
                    left_out(rel + "/", EXCLUDED)
                elif ignored or (use_gitignore and ign.ignored(path, True)):
                    if tracked is not None and tracked.holds(rel):
                        subfolders.append((path, ign, True))
                    else:
                        left_out(rel + "/", IGNORED)
                else:
                    subfolders.append((path, ign, False))
                continue
            source = has_extension(entry.name, exts)
            if not source and is_leftover(entry.name):
                result.leftovers.append(path)
                continue
            if _excluded(rel, excludes) or (anchored and anchored.matches(path)):
                left_out(rel, EXCLUDED)
                continue
            if (ignored or (use_gitignore and ign.ignored(path, False))) and not (
                tracked is not None and tracked.file(rel)
            ):
                left_out(rel, IGNORED)
                continue
            if entry.is_symlink():
                yield path, source, True
            elif is_file:
                yield path, source, False
            else:
                left_out(rel, "not a regular file")  # a fifo, a socket, a device
        stack.extend(reversed(subfolders))


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
