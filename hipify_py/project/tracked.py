"""The files git tracks below a folder: .gitignore only applies to untracked
files (as in git), so a walk that meets an ignored path asks git, once, which
files below the walked folder it tracks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


class Tracked:
    """Paths (relative to ``top``, '/'-separated) that git tracks, read on the
    first question: a walk that ignores nothing never runs git."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self._files: frozenset[str] | None = None
        self._folders: frozenset[str] = frozenset()

    def _load(self) -> None:
        if self._files is not None:
            return
        files = _ls_files(self.top)
        folders: set[str] = set()
        for rel in files:
            parts = rel.split("/")
            folders.update("/".join(parts[:k]) for k in range(1, len(parts)))
        self._files, self._folders = frozenset(files), frozenset(folders)

    def file(self, rel: str) -> bool:
        self._load()
        assert self._files is not None
        return rel in self._files

    def holds(self, rel: str) -> bool:
        """Does git track a file below the folder ``rel``?"""
        self._load()
        return rel in self._folders


def _ls_files(top: Path) -> list[str]:
    """``git ls-files`` run in ``top``: tracked paths relative to it (with those
    of checked-out submodules); none when ``top`` is not in a git work tree or
    git is not installed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--recurse-submodules"],
            cwd=top,
            env=env,
            capture_output=True,
            check=False,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    return [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]
