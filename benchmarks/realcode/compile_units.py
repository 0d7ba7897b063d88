"""Compiling one unit inside a toolchain root (chroot), with a result cache."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from classify import first_error

from hip_smoke.cuda_wheels import include_dir, pins
from hip_smoke.toolchain import DEFAULT_CACHE, MARKER

# the roots hip_smoke/toolchain/provision.sh makes, by target
ROOTS = {
    "5.7": "trixie-amd",
    "6.4": "rocm-6.4",
    "7.2": "rocm-7.2",
    "cuda": "trixie-nvidia",
    "nvidia": "trixie-nvidia",
}
PROVISION_NAME = {"5.7": "amd-5.7", "6.4": "amd-6.4", "7.2": "amd-7.2"}
# device code as PTX only (no ptxas): the front end and the device compiler
# decide whether a unit builds, SASS generation adds minutes and no verdict
NVCC = ["nvcc", "-ccbin", "g++-13", "-arch=compute_90", "-code=compute_90"]
HIPCC = ["hipcc", "--offload-arch=gfx942"]
TIMEOUT = 900


def root_of(target: str, cache: Path = DEFAULT_CACHE) -> Path:
    return cache / ROOTS[target]


def missing_roots(targets: list[str], cache: Path = DEFAULT_CACHE) -> list[str]:
    """What is missing, with how to make it, for each target whose root is incomplete."""
    missing = []
    for target in targets:
        root = root_of(target, cache)
        if not (root / MARKER).is_file():
            name = PROVISION_NAME.get(target, "nvidia")
            missing.append(f"{root} (make it: hip_smoke/toolchain/provision.sh {name})")
    return sorted(set(missing))


@contextlib.contextmanager
def proc_mounted(roots: list[Path]) -> Iterator[None]:
    """clang and nvcc need /proc inside the root: bind it once for the whole run
    (a mount per call would race between parallel compiles)."""
    mounted = []
    try:
        for root in dict.fromkeys(roots):
            if not (root / "proc" / "self").exists():
                done = subprocess.run(
                    ["mount", "--bind", "/proc", str(root / "proc")], capture_output=True
                )
                if done.returncode == 0:
                    mounted.append(root)
        yield
    finally:
        for root in mounted:
            subprocess.run(["umount", str(root / "proc")], capture_output=True)


def wheel_includes(root: Path, names: list[str]) -> list[str]:
    """The include folders (paths inside ``root``) of the pinned CUDA wheels
    ``names``, copied into the root once: a fixed path, so the compile cache
    keys stay the same from run to run."""
    inside = []
    for name in names:
        _, package, version = pins()[name]
        folder = f"opt/hipify-py-cuda-wheels/{package}-{version}/include"
        if not (root / folder).is_dir():
            staged = root / f"{folder}.{os.getpid()}"
            staged.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(include_dir(name), staged)
            staged.replace(root / folder)
        inside.append("/" + folder)
    return inside


def command_for(
    target: str, unit: str, include: list[str], defines: list[str], cuda_flags: list[str]
) -> list[str]:
    flags = ["-std=c++17", *(f"-I{i}" for i in include), *(f"-D{d}" for d in defines)]
    if target == "cuda":
        return [*NVCC, *cuda_flags, *flags, "-x", "cu", "-c", unit, "-o", "/dev/null"]
    if target == "nvidia":
        return [
            *NVCC,
            *cuda_flags,
            "-D__HIP_PLATFORM_NVIDIA__",
            *flags,
            "-x",
            "cu",
            "-c",
            unit,
            "-o",
            "/dev/null",
        ]
    return [*HIPCC, *flags, "-x", "hip", "-c", unit, "-o", "/dev/null"]


@dataclass
class Outcome:
    compiled: bool
    seconds: float
    first_error: dict[str, Any] | None
    output_head: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "compiled": self.compiled,
            "seconds": round(self.seconds, 1),
            "first_error": self.first_error,
            "output_head": self.output_head,
        }


HEAD_LINES = 40
ERROR_LINES = 30  # kept from the first error on: its notes (where a template was instantiated)


def output_head(output: str) -> str:
    """The output's first lines, and the first error with the lines after it
    when warnings push it further down."""
    lines = output.splitlines()
    first = next((i for i, line in enumerate(lines) if " error" in line or "error:" in line), None)
    if first is None or first + ERROR_LINES <= HEAD_LINES:
        return "\n".join(lines[:HEAD_LINES])
    start = max(first, HEAD_LINES)
    return "\n".join([*lines[:HEAD_LINES], "...", *lines[start : start + ERROR_LINES]])


def tree_digest(tree: Path) -> str:
    """Content digest of a tree: a compile's result depends on nothing else in it."""
    digest = hashlib.sha256()
    for path in sorted(tree.rglob("*")):
        if path.is_file() and not path.is_symlink():
            digest.update(path.relative_to(tree).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def compile_unit(
    root: Path, tree: Path, argv: list[str], cache: Path | None, key_parts: list[str]
) -> Outcome:
    """Compile in ``tree`` (a folder inside ``root``) with ``argv``; results
    are cached in ``cache`` under the tree's digest, the root and the command."""
    marker = root / MARKER
    made = f"{marker.read_text(encoding='utf-8')}{marker.stat().st_mtime}"  # re-provisioned?
    key = hashlib.sha256("\0".join([*key_parts, str(root), made, *argv]).encode()).hexdigest()
    stored = cache / f"{key}.json" if cache is not None else None
    if stored is not None and stored.is_file():
        data = json.loads(stored.read_text(encoding="utf-8"))
        return Outcome(data["compiled"], data["seconds"], data["first_error"], data["output_head"])
    inner = "/" + tree.relative_to(root).as_posix()
    script = f"cd {shlex.quote(inner)} && exec " + " ".join(shlex.quote(a) for a in argv)
    start = time.monotonic()
    for _attempt in range(2):
        try:
            done = subprocess.run(
                ["nice", "-n", "10", "chroot", str(root), "/bin/sh", "-c", script],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
            output, code = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired:
            output, code = f"timed out after {TIMEOUT} s", 124
        if "Error reading the exe path" not in output:
            break
        # another process unmounted the root's /proc under us: bind it again
        subprocess.run(["mount", "--bind", "/proc", str(root / "proc")], capture_output=True)
    seconds = time.monotonic() - start
    error = None if code == 0 else first_error(output, inner).as_dict()
    outcome = Outcome(code == 0, seconds, error, output_head(output))
    if stored is not None and code != 124:
        stored.parent.mkdir(parents=True, exist_ok=True)
        tmp = stored.with_name(f"{stored.name}.{os.getpid()}")
        tmp.write_text(json.dumps(outcome.as_dict()), encoding="utf-8")
        tmp.replace(stored)
    return outcome
