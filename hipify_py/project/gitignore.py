"""A small, exact-enough implementation of .gitignore pattern matching.

Supports comments, ``!`` negation, trailing-``/`` directory patterns, anchored
patterns (containing a ``/``), ``*``, ``?``, ``[...]`` and ``**``; the last
matching pattern wins, as in git.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    negated: bool
    directory_only: bool


def _translate(glob: str) -> str:
    """gitwildmatch -> regex body matching a '/'-separated relative path."""
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if c == "*":
            if glob[i : i + 2] == "**":
                # "**/" matches zero or more directories; a trailing "**" everything
                if glob[i : i + 3] == "**/":
                    out.append("(?:.*/)?")
                    i += 3
                    continue
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "]") else i + 1)
            if j == -1:
                out.append(re.escape(c))
            else:
                body = glob[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def compile_pattern(line: str) -> Pattern | None:
    line = line.rstrip("\n").rstrip("\r")
    if not line.strip() or line.startswith("#"):
        return None
    # trailing spaces are ignored unless escaped
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += " "
    line = stripped
    negated = line.startswith("!")
    if negated or line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    directory_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    line = line.lstrip("/")
    body = _translate(line)
    prefix = "" if anchored else "(?:.*/)?"
    # a pattern that matches a directory also matches everything below it
    regex = re.compile(f"^{prefix}{body}(?:/.*)?$", re.DOTALL)
    return Pattern(regex, negated, directory_only)


@dataclass
class IgnoreFile:
    base: Path  # the folder the patterns are relative to
    patterns: list[Pattern]

    @classmethod
    def read(cls, path: Path) -> IgnoreFile:
        try:
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            text = ""
        patterns = [p for p in (compile_pattern(line) for line in text.splitlines()) if p]
        return cls(path.parent, patterns)

    def match(self, path: Path, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included by '!', None: no pattern applies."""
        rel = _relative(path, self.base)
        if rel is None:
            return None
        result: bool | None = None
        for pattern in self.patterns:
            if pattern.directory_only and not is_dir and not _below_dir_match(pattern, rel):
                continue
            if pattern.regex.match(rel):
                result = not pattern.negated
        return result


def _relative(path: Path, base: Path) -> str | None:
    """``path`` relative to ``base`` (resolved, from ignorer_for), also when the
    walk's paths are relative (``hipify-py src``) or pass through a symlink."""
    for candidate in (path, Path(os.path.abspath(path))):
        try:
            return candidate.relative_to(base).as_posix()
        except ValueError:
            pass
    try:
        return path.resolve().relative_to(base).as_posix()
    except (ValueError, OSError, RuntimeError):
        return None


def _below_dir_match(pattern: Pattern, rel: str) -> bool:
    """'build/' ignores build/x.cu: a parent folder matches the pattern."""
    parts = rel.split("/")
    return any(pattern.regex.match("/".join(parts[:k])) for k in range(1, len(parts)))


class Ignorer:
    """The .gitignore files that apply to a tree, outermost first."""

    def __init__(self, files: list[IgnoreFile] | None = None) -> None:
        self.files = files or []

    def child(self, folder: Path) -> Ignorer:
        gitignore = folder / ".gitignore"
        if gitignore.is_file():
            return Ignorer([*self.files, IgnoreFile.read(gitignore)])
        return self

    def ignored(self, path: Path, is_dir: bool) -> bool:
        verdict = False
        for ignore_file in self.files:
            result = ignore_file.match(path, is_dir)
            if result is not None:
                verdict = result
        return verdict


def ignorer_for(folder: Path) -> Ignorer:
    """Ignore files of the enclosing git repository above ``folder`` (and its
    .git/info/exclude), so a walk that starts inside a repo honours them."""
    folder = folder.resolve()
    chain: list[Path] = []
    repo_root: Path | None = None
    for parent in [folder, *folder.parents]:
        chain.append(parent)
        if (parent / ".git").exists():
            repo_root = parent
            break
    if repo_root is None:
        chain = [folder]
    files: list[IgnoreFile] = []
    if repo_root is not None:
        exclude = repo_root / ".git" / "info" / "exclude"
        if exclude.is_file():
            info = IgnoreFile.read(exclude)
            files.append(IgnoreFile(repo_root, info.patterns))
    for parent in reversed(chain[1:]):
        gitignore = parent / ".gitignore"
        if gitignore.is_file():
            files.append(IgnoreFile.read(gitignore))
    return Ignorer(files)
