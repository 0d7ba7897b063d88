"""The one way hipify-py writes a file: whole or not at all.

Every write goes to a temporary file beside the target and is renamed over it,
so a failure or a kill at any point leaves the target as it was; the user's own
files are also flushed to disk first (``durable``).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

# the temporary files' names: .NAME.XXXXXXXX.hipify-tmp (a killed run's leftovers
# are recognized by it, project/files.py)
TEMP_SUFFIX = ".hipify-tmp"


class FileChanged(OSError):
    """The file changed on disk between our read and our write."""


def stat_key(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def atomic_write(
    path: Path,
    data: bytes,
    *,
    like: Path | None = None,
    expect: tuple[int, int, int] | None = None,
    durable: bool = True,
) -> None:
    """Write via a temporary file in the same folder and os.replace.

    ``like``: copy its permission bits (without it: keep those of the file
    replaced, or give a new file 0666 less the umask).  ``expect``: refuse (FileChanged) if
    the file at ``path`` no longer has this (size, mtime, inode) - someone
    changed it since we read it.
    """
    if like is not None and like == path and not _writable(path):
        raise PermissionError(13, "file is read-only")

    def fill(handle: BinaryIO) -> None:
        handle.write(data)

    _replace(path, fill, _mode_of(like, path), expect=expect, durable=durable)


def atomic_copy(source: Path, path: Path) -> bool:
    """Copy the file ``source`` (its bytes, permission bits and times; a
    symbolic link is followed) to ``path`` as atomic_write writes: whole or not
    at all.  False when ``path`` already holds it (same size and time)."""
    import shutil

    st = os.stat(source)
    with contextlib.suppress(OSError):
        now = os.lstat(path)
        if stat.S_ISREG(now.st_mode) and (now.st_size, now.st_mtime_ns) == (
            st.st_size,
            st.st_mtime_ns,
        ):
            return False

    def fill(handle: BinaryIO) -> None:
        with open(source, "rb") as original:
            shutil.copyfileobj(original, handle, 1024 * 1024)

    _replace(path, fill, stat.S_IMODE(st.st_mode), durable=False, times=st)
    return True


def atomic_link(path: Path, text: str) -> bool:
    """Make ``path`` a symbolic link to ``text`` (replacing what is there, never
    leaving it missing); False when it already is that link."""
    with contextlib.suppress(OSError):
        if os.readlink(path) == text:
            return False
    if not _writable(path.parent):
        raise PermissionError(13, "folder is read-only")
    import secrets

    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    os.symlink(text, tmp)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


def _mode_of(like: Path | None, path: Path) -> int:
    """The model's permissions, else those of the file replaced, else (a new
    file) the usual 0666 less the umask (mkstemp makes 0600)."""
    for model in (like, path):
        if model is not None:
            with contextlib.suppress(OSError):
                return stat.S_IMODE(os.stat(model).st_mode)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _replace(
    path: Path,
    fill: Callable[[BinaryIO], None],
    mode: int,
    *,
    expect: tuple[int, int, int] | None = None,
    durable: bool = True,
    times: os.stat_result | None = None,
) -> None:
    """Write a temporary file beside ``path`` with ``fill``, then rename it over
    ``path``; a failure (or a kill) at any point leaves ``path`` as it was."""
    if not _writable(path.parent):
        raise PermissionError(13, "folder is read-only")
    import tempfile  # imported here: a pre-commit run that writes nothing never pays for it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            fill(handle)
            handle.flush()
            if durable:  # the user's only copy: make it reach the disk before the rename
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if times is not None:
            os.utime(tmp, ns=(times.st_atime_ns, times.st_mtime_ns))
        if expect is not None:
            try:
                now = stat_key(os.stat(path))
            except FileNotFoundError:
                raise FileChanged(2, "file was deleted since it was read") from None
            if now != expect:
                raise FileChanged(16, "file changed since it was read")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _writable(path: Path) -> bool:
    """May we write ``path`` (a file, or a folder to create files in)?  Root may
    write anything, so for root a file or folder with no write bit at all counts
    as read-only too: ``chmod a-w`` protects it from hipify-py as from a user."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return True  # a new file (or folder made later): the write itself decides
    except OSError:
        return False
    if not os.access(path, os.W_OK):
        return False
    return os.geteuid() != 0 or bool(mode & 0o222)
