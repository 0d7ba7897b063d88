"""CUDA library headers no Debian package ships (cuDNN, NCCL), from the
NVIDIA wheels on PyPI pinned with their sha256 in toolchain/cuda-wheels.txt.

``include_dir("cudnn")`` downloads the wheel once with pip (``pip download
--require-hashes``), unpacks its ``nvidia/cudnn/include`` under
``$HIPIFY_PY_TOOLCHAIN_CACHE/cuda-wheels/<package>-<version>/include`` and
deletes the wheel; later calls reuse the folder.

    python -m hip_smoke.cuda_wheels cudnn nccl     # fetch, print the folders
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from .toolchain import DEFAULT_CACHE, ToolchainError

PINS = Path(__file__).resolve().parent / "toolchain" / "cuda-wheels.txt"
MARKER = ".hipify-py-complete"
_PIN = re.compile(r"^nvidia-(\w+)-cu\d+==(\S+)\s+--hash=sha256:([0-9a-f]{64})\s*$")


def pins() -> dict[str, tuple[str, str, str]]:
    """ "cudnn" -> (the requirement line, the package name, its version)."""
    found: dict[str, tuple[str, str, str]] = {}
    for line in PINS.read_text().splitlines():
        match = _PIN.match(line)
        if match is not None:
            name = match.group(1)
            package = line.split("==", 1)[0]
            found[name] = (line, package, match.group(2))
    return found


def include_dir(name: str, cache: Path = DEFAULT_CACHE, fetch: bool = True) -> Path:
    """The include folder of the pinned wheel of ``name`` ("cudnn", "nccl"),
    fetched first when ``fetch``; ToolchainError when it cannot be had."""
    known = pins()
    if name not in known:
        raise ToolchainError(f"no pinned wheel for {name!r} in {PINS}")
    line, package, version = known[name]
    folder = cache / "cuda-wheels" / f"{package}-{version}"
    include = folder / "include"
    if (folder / MARKER).is_file():
        return include
    if not fetch:
        raise ToolchainError(f"{package} {version} headers not fetched ({folder})")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        requirements = Path(scratch) / "requirements.txt"
        requirements.write_text(line + "\n")
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--require-hashes",
                "--only-binary=:all:",
                "--platform",
                "manylinux2014_x86_64",
                "-r",
                str(requirements),
                "-d",
                scratch,
            ],
            capture_output=True,
            text=True,
            env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"),
        )
        wheels = sorted(Path(scratch).glob("*.whl"))
        if done.returncode != 0 or not wheels:
            raise ToolchainError(
                f"pip download {package}=={version} failed: {done.stderr.strip()[-800:]}"
            )
        shutil.rmtree(include, ignore_errors=True)
        prefix = f"nvidia/{name}/include/"
        with zipfile.ZipFile(wheels[0]) as wheel:
            for member in wheel.namelist():
                if member.startswith(prefix) and member.endswith((".h", ".hpp")):
                    target = include / member[len(prefix) :]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(wheel.read(member))
    if not any(include.glob("*.h")):
        raise ToolchainError(f"{package} {version}: no headers under {prefix} in the wheel")
    (folder / MARKER).write_text(line + "\n")
    return include


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or list(pins())
    for name in names:
        try:
            print(include_dir(name))
        except ToolchainError as exc:
            print(f"cuda_wheels: {exc}", file=sys.stderr)
            return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
