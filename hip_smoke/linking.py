"""How a CUDA original is linked so that a binary built here runs on a GPU
machine without the CUDA toolkit (``--build-dir`` here, ``--run-prebuilt``
there).

The CUDA libraries (cuBLAS, cuFFT, cuRAND) are linked statically when the
toolkit has their static archives (``cuda_static`` in platforms.yaml: Debian's
nvidia-cuda-dev ships libcublas_static.a, libcublasLt_static.a,
libcufft_static.a, libcurand_static.a and libculibos.a); otherwise the shared
libraries are linked with an rpath of ``$ORIGIN`` and copied beside the binary.
Either way the report says which.  The CUDA runtime is static (nvcc's
default); the driver (libcuda.so.1) and the C and C++ runtimes come from the
machine that runs it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .toolchain import Compiler

# provided by the machine that runs the program: glibc, the GCC runtime, the
# NVIDIA driver (and the dynamic loader's own entries)
SYSTEM = re.compile(
    r"^(linux-vdso|linux-gate|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so"
    r"|libutil\.so|libresolv\.so|libgcc_s\.so|libstdc\+\+\.so|libcuda\.so|libnvidia-)"
)
# nvcc: DT_RPATH (not RUNPATH), so that a carried library's own dependencies
# (libcublas.so.12 -> libcublasLt.so.12) are found beside the binary too
RPATH_NVCC = ["-Xlinker", "--disable-new-dtags", "-Xlinker", "-rpath", "-Xlinker", "$ORIGIN"]


@dataclass
class Linking:
    flags: list[str] = field(default_factory=list)
    carry: bool = False  # copy the shared libraries beside the binary after linking
    note: str = ""


def library_dirs(compiler: Compiler) -> list[Path]:
    """Where the toolkit's libraries are (as seen from this machine)."""
    if compiler.root is not None:
        usr = compiler.root / "usr"
        return [usr / "lib" / "x86_64-linux-gnu", usr / "lib" / "cuda" / "lib64", usr / "lib64"]
    # beside the toolkit's include folders (CUDA_HOME/include, .../targets/x86_64-linux/include)
    dirs = [d.parent / name for d in compiler.include_dirs for name in ("lib64", "lib")]
    return [*dirs, Path("/usr/lib/x86_64-linux-gnu")]


def cuda_linking(
    libraries: tuple[str, ...], compiler: Compiler, platforms: dict[str, Any]
) -> Linking:
    """The link flags of a CUDA original using ``libraries``."""
    shared: list[str] = []
    static: list[str] = []
    every_static = True  # each library that links something has a static form
    for library in libraries:
        info = platforms["libraries"][library]
        shared.extend(info.get("cuda_link", []))
        static.extend(info.get("cuda_static", []))
        every_static = every_static and bool(info.get("cuda_static") or not info.get("cuda_link"))
    if not shared:
        return Linking()
    dirs = library_dirs(compiler)
    have = all(any((d / f"lib{name}.a").is_file() for d in dirs) for name in static)
    names = ", ".join(libraries)
    if every_static and have:
        unique = list(dict.fromkeys(static))
        return Linking(
            [f"-l{n}" for n in unique],
            note=f"original: {names} linked statically ({' '.join('-l' + n for n in unique)})",
        )
    why = "no static archive in the toolkit" if every_static else "no static form"
    return Linking(
        [f"-l{n}" for n in dict.fromkeys(shared)] + RPATH_NVCC,
        carry=True,
        note=f"original: {names} linked shared ({why})",
    )


def dynamic_needs(binary: Path, compiler: Compiler) -> tuple[dict[str, str | None], str]:
    """``ldd`` of ``binary`` where the compiler is: soname -> resolved path
    (None: not found), and ldd's complaint if it failed."""
    done = compiler.shell("ldd " + _quote(compiler.inner(binary)), binary.parent)
    found: dict[str, str | None] = {}
    for line in done.stdout.splitlines():
        match = re.match(r"\s*(\S+)\s+=>\s+(not found|\S+)", line)
        if match:
            found[match.group(1)] = None if match.group(2) == "not found" else match.group(2)
    return found, "" if done.returncode == 0 else (done.stderr or done.stdout).strip()[:300]


def carry_libraries(binary: Path, compiler: Compiler) -> tuple[list[str], str]:
    """Copy every shared library ``binary`` needs that the GPU machine is not
    expected to have (all but glibc, the GCC runtime and the driver) beside it.
    Returns the names copied, and an error ("" when none)."""
    needs, error = dynamic_needs(binary, compiler)
    if error:
        return [], f"ldd failed: {error}"
    copied: list[str] = []
    for name, where in sorted(needs.items()):
        if SYSTEM.match(name):
            continue
        if where is None:
            return copied, f"{name}: not found by the dynamic loader"
        source = Path(where) if compiler.root is None else compiler.root / where.lstrip("/")
        shutil.copy2(source.resolve(), binary.parent / name)
        copied.append(name)
    return copied, ""


def elf_dynamic(path: Path) -> tuple[list[str], list[str]]:
    """(NEEDED, RPATH + RUNPATH entries) of an ELF file, read with readelf."""
    done = subprocess.run(
        ["readelf", "-d", "-W", str(path)], capture_output=True, text=True, check=False
    )
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", done.stdout)
    paths = re.findall(
        r"\((?:RPATH|RUNPATH)\)\s+Library (?:rpath|runpath): \[([^\]]+)\]", done.stdout
    )
    return needed, [p for entry in paths for p in entry.split(":")]


def unsatisfied(binary: Path) -> list[str]:
    """What ``binary`` (and the libraries beside it) need that is neither a
    system library nor beside it, or beside it without ``$ORIGIN`` in the
    rpath: empty when the folder runs on any machine with the driver."""
    missing: list[str] = []
    folder = binary.parent
    needed, paths = elf_dynamic(binary)
    todo = [(binary.name, n) for n in needed]
    seen: set[str] = set()
    while todo:
        owner, name = todo.pop()
        if name in seen or SYSTEM.match(name):
            continue
        seen.add(name)
        if not (folder / name).is_file():
            missing.append(f"{name} (needed by {owner}): not beside the binary")
            continue
        if "$ORIGIN" not in paths:
            missing.append(f"{name}: beside the binary, but its rpath has no $ORIGIN")
        todo.extend((name, n) for n in elf_dynamic(folder / name)[0])
    return missing


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)
