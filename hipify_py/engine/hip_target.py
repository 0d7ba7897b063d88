"""Which HIP release a run targets when --hip-version is not given: the one the
user's toolchain has, so a translation never names what their ROCm lacks.

Looked for in this order (the first found wins):

1. ``$HIP_PATH``, ``$ROCM_PATH``, ``/opt/rocm``: ``include/hip/hip_version.h``;
2. ``hipcc`` or ``hipconfig`` on ``PATH``: the ``hip_version.h`` of the
   installation they belong to (``/usr/bin/hipcc`` -> ``/usr/include/hip``, as
   Debian and Ubuntu install it), else what ``hipconfig --version`` prints;
3. none: the newest release the tables are verified against
   (``data/hip_releases.yaml``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from hipify_py.tables.flow_lists import flow_lists
from hipify_py.tables.versions import Version, format_version, parse_version

_DEFINE = re.compile(rb"#\s*define\s+HIP_VERSION_(MAJOR|MINOR)\s+(\d+)")
_PRINTED = re.compile(r"(?:HIP version:\s*)?(\d+)\.(\d+)")


@dataclass(frozen=True)
class Target:
    """The HIP release to target and why: ``from /opt/rocm-7.2.0``."""

    version: Version
    reason: str

    def describe(self) -> str:
        return f"targeting HIP {format_version(self.version)} ({self.reason})"


@cache
def verified_releases() -> tuple[Version, ...]:
    """The HIP releases the tables are verified against, oldest first.  (Read
    without PyYAML: a run whose table comes from the cache never imports it.)"""
    path = Path(__file__).resolve().parent.parent / "data" / "hip_releases.yaml"
    verified = flow_lists(path).get("verified")
    if not verified:
        raise ValueError(f"{path}: no 'verified: [...]' line")
    return tuple(sorted(parse_version(v) for v in verified))


def default_version() -> Version:
    """What a translation targets when no HIP version is given or found."""
    return verified_releases()[-1]


def header_version(header: Path) -> Version | None:
    """HIP_VERSION_MAJOR.MINOR of a ``hip_version.h``; None if unreadable."""
    try:
        text = header.read_bytes()
    except OSError:
        return None
    found = {m.group(1).decode(): int(m.group(2)) for m in _DEFINE.finditer(text)}
    if "MAJOR" not in found or "MINOR" not in found:
        return None
    return (found["MAJOR"], found["MINOR"], 0)


def _printed_version(output: str) -> Version | None:
    match = _PRINTED.search(output)
    return (int(match.group(1)), int(match.group(2)), 0) if match else None


def _run_version(program: str) -> str:
    try:
        done = subprocess.run(
            [program, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def detect(
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    run_version: Callable[[str], str] = _run_version,
) -> Target:
    """The HIP release of the user's toolchain (see the module's docstring)."""
    env = os.environ if environ is None else environ
    roots: list[tuple[str, Path]] = []
    for variable in ("HIP_PATH", "ROCM_PATH"):
        if env.get(variable):
            roots.append((f"${variable}={env[variable]}", Path(env[variable])))
    roots.append(("/opt/rocm", Path("/opt/rocm")))
    for label, root in roots:
        version = header_version(root / "include" / "hip" / "hip_version.h")
        if version is not None:
            where = str(root.resolve()) if label == "/opt/rocm" else label
            return Target(version, f"from {where}")
    for program in ("hipcc", "hipconfig"):
        found = which(program)
        if not found:
            continue
        install = Path(found).resolve().parent.parent
        version = header_version(install / "include" / "hip" / "hip_version.h")
        if version is None:
            version = _printed_version(run_version(found))
        if version is not None:
            return Target(version, f"from {found}")
    return Target(default_version(), "no HIP installation found: the newest release verified")
