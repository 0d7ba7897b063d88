"""One writing run per tree at a time.

A run that writes (in place, or into an output folder) takes an exclusive
``flock`` on the folder it writes under (the project root, or the output
folder) and a shared one on each of that folder's ancestors.  So a second run
on the same tree, on a folder inside it, or on a folder that holds it, finds
one of its locks taken and is refused (LockHeld; the CLI exits 2), while runs
on unrelated trees, or on sibling folders, go on side by side.

The lock files live in the system's temporary folder
(``<tmp>/hipify-py-locks/<sha256 of the folder's path>.lock``), not in the
user's tree: nothing is left behind in it, and a read-only tree can be locked
too.  flock locks go away with the process that holds them (and with its
worker processes, which inherit them), so a run killed with SIGKILL leaves no
stale lock.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_FOLDER = "hipify-py-locks"


class LockHeld(Exception):
    """Another run holds a lock this run needs (the message says which)."""


def lock_folder() -> Path:
    return Path(tempfile.gettempdir()) / LOCK_FOLDER


def _lock_file(folder: Path) -> Path:
    key = hashlib.sha256(os.fsencode(folder)).hexdigest()[:32]
    return lock_folder() / f"{key}.lock"


def _open(path: Path) -> int | None:
    base = path.parent
    try:
        base.mkdir(mode=0o777, exist_ok=True)
        if base.stat().st_uid == os.geteuid():
            os.chmod(base, 0o1777)  # shared by every user, like /tmp itself
    except OSError:
        pass
    for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
        try:
            return os.open(path, flags | os.O_CLOEXEC, 0o666)
        except OSError:
            continue
    return None


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        if text.isdigit():
            return f" (pid {int(text)})"
    return ""


@contextlib.contextmanager
def tree_lock(folder: Path) -> Iterator[None]:
    """Hold the run's lock on ``folder`` (see the module docstring).

    Raises LockHeld at once when another run holds a conflicting lock.  Where
    no lock file can be made (no writable temporary folder) the run goes on
    unlocked: the writes stay atomic and refuse files changed since they were
    read, so a concurrent run can cost a refused file, never a corrupt one.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX: no flock; the checked atomic writes remain
        yield
        return
    folder = Path(os.path.abspath(folder))
    with contextlib.suppress(OSError, RuntimeError):
        folder = folder.resolve()
    held: list[int] = []
    owner = False  # holds the exclusive lock (held[0])
    try:
        chain = [folder, *folder.parents]
        for index, path in enumerate(chain):
            exclusive = index == 0
            fd = _open(_lock_file(path))
            if fd is None:
                continue
            held.append(fd)
            try:
                fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    continue  # a filesystem without flock: go on unlocked
                who = _holder(fd)
                if not exclusive:
                    where = f"run{who} is writing to {path}, which holds it"
                elif who:
                    where = f"run{who} is writing to it"
                else:
                    where = "run is writing to a folder inside it"
                raise LockHeld(
                    f"{folder}: another hipify-py {where}; wait for it to finish, then run again"
                ) from None
            if exclusive:
                owner = True
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        for index, fd in enumerate(reversed(held)):
            with contextlib.suppress(OSError):
                if index == len(held) - 1 and owner:
                    os.ftruncate(fd, 0)  # no stale pid for the next run's message
                os.close(fd)
