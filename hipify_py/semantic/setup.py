"""Find what the clang engine needs: libclang, a clang resource directory
(for the CUDA wrapper headers) and real CUDA headers.

Everything is resolved once, before any file is parsed, into a ``ClangSetup``
(plain strings and tuples, so it pickles into pool worker processes, which
then only load libclang and parse).
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py.semantic.compile_db import CompileDatabase, load_compile_database
from hipify_py.semantic.cuda_view import CudaHeaders, find_cuda_headers

DEFAULT_CUDA_ARCH = "sm_80"  # the GPU the device side is parsed for (__CUDA_ARCH__ 800)


class SetupError(Exception):
    """The clang engine cannot start at all (the message says what to do)."""


@dataclass(frozen=True)
class ClangSettings:
    """What the user asked for (flags or configuration)."""

    build_path: Path | None = None  # folder with compile_commands.json (-p), or the file
    include_dirs: tuple[str, ...] = ()  # -I (the same folders project mode searches)
    defines: tuple[str, ...] = ()  # -D NAME[=VALUE]
    std: str | None = None  # --std c++17
    cuda_path: Path | None = None  # --cuda-path
    resource_dir: Path | None = None  # --clang-resource-dir
    cuda_arch: str = DEFAULT_CUDA_ARCH


@dataclass(frozen=True)
class ClangSetup:
    """Resolved and ready: the arguments every parse gets."""

    library_version: str
    resource_dir: str
    cuda: CudaHeaders
    base_args: tuple[str, ...]
    database: CompileDatabase | None = None
    settings: ClangSettings = field(default_factory=ClangSettings)
    # where precompiled CUDA headers are kept (built on first use, per set of
    # flags); "" for none
    pch_dir: str = ""

    def arguments_for(self, path: Path) -> list[str]:
        """Flags for one file: its compile_commands.json entry, then -I/-D/--std
        (given last, so they win over the database's)."""
        args = list(self.base_args)
        if self.database is not None:
            args += self.database.flags_for(path)
        args += [f"-I{d}" for d in self.settings.include_dirs]
        args += [f"-D{d}" for d in self.settings.defines]
        if self.settings.std:
            args.append(f"-std={self.settings.std}")
        return args

    def describe(self) -> str:
        where = ", ".join(self.cuda.include_dirs)
        database = f", flags from {self.database.source}" if self.database is not None else ""
        return (
            f"libclang {self.library_version}, CUDA {self.cuda.version} headers from {where}, "
            f"clang resources from {self.resource_dir}{database}"
        )


def import_cindex() -> Any:
    """clang.cindex with its shared library loaded, or SetupError."""
    try:
        import clang.cindex as cindex
    except ImportError:
        raise SetupError(
            "--engine clang needs libclang: pip install 'hipify-py[clang]' (the libclang wheel)"
        ) from None
    try:
        _ = cindex.conf.lib  # loads the shared library (the wheel ships it)
    except Exception as exc:  # cindex raises LibclangError, a plain Exception
        raise SetupError(f"libclang could not be loaded: {exc}") from None
    return cindex


def library_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("libclang")
    except PackageNotFoundError:  # a libclang found some other way
        return "unknown"


_RESOURCE_GLOBS = (
    "/usr/lib/llvm-*/lib/clang/*",
    "/usr/lib/clang/*",
    "/usr/lib64/clang/*",
    "/usr/local/lib/clang/*",
    "/opt/rocm/llvm/lib/clang/*",
    "/opt/rocm/lib/llvm/lib/clang/*",
)
WRAPPER = "include/__clang_cuda_runtime_wrapper.h"


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path.name)) or (0,)


def _toolchain_cache() -> Path:
    """Where hip_smoke's provisioning keeps its Debian 13 roots (docs/smoke.md)."""
    return Path(os.environ.get("HIPIFY_PY_TOOLCHAIN_CACHE", "/var/cache/hipify-py"))


def resource_candidates(major: int | None) -> list[Path]:
    """clang resource folders on this machine: the installed clangs, ROCm's, and
    the clang of the AMD root that ``hipify-py smoke --provision amd`` makes;
    libclang's own major version first, then the newest."""
    found: list[Path] = []
    patterns = [*_RESOURCE_GLOBS, str(_toolchain_cache() / "trixie-amd/usr/lib/llvm-*/lib/clang/*")]
    for pattern in patterns:
        found += [Path(p) for p in glob.glob(pattern)]
    found = [p for p in dict.fromkeys(found) if (p / WRAPPER).is_file()]
    return sorted(found, key=lambda p: (_version_key(p)[0] != major, [-n for n in _version_key(p)]))


def find_resource_dir(explicit: Path | None, major: int | None = None) -> Path:
    """clang's own headers (stddef.h, the CUDA wrappers): the libclang wheel
    does not ship them, so they come from a clang installed on the machine."""
    if explicit is not None:
        if not (explicit / WRAPPER).is_file():
            raise SetupError(f"--clang-resource-dir {explicit}: no {WRAPPER} there")
        return explicit
    env = os.environ.get("HIPIFY_PY_CLANG_RESOURCE_DIR")
    if env:
        if not (Path(env) / WRAPPER).is_file():
            raise SetupError(f"HIPIFY_PY_CLANG_RESOURCE_DIR={env}: no {WRAPPER} there")
        return Path(env)
    candidates = resource_candidates(major)
    if candidates:
        return candidates[0]
    raise SetupError(
        "no clang resource directory with the CUDA wrapper headers was found (install "
        "clang's headers, e.g. apt-get install libclang-common-17-dev, provision the AMD "
        "toolchain with hipify-py smoke --provision amd, or pass --clang-resource-dir DIR / "
        "set HIPIFY_PY_CLANG_RESOURCE_DIR)"
    )


def _major(version: str) -> int | None:
    found = re.match(r"\d+", version)
    return int(found.group(0)) if found else None


def prepare(settings: ClangSettings, cache_dir: Path | None = None) -> ClangSetup:
    """Resolve libclang, the resource directory, the CUDA headers and the
    compile database; SetupError says what is missing."""
    import_cindex()
    version = library_version()
    resource = find_resource_dir(settings.resource_dir, _major(version))
    try:
        cuda = find_cuda_headers(settings.cuda_path, cache_dir, resource / WRAPPER)
    except (LookupError, OSError) as exc:
        raise SetupError(str(exc)) from None
    database = None
    if settings.build_path is not None:
        try:
            database = load_compile_database(settings.build_path)
        except (LookupError, OSError, ValueError) as exc:
            raise SetupError(str(exc)) from None
    base = (
        "-x",
        "cuda",
        f"--cuda-path={cuda.install}",
        "-nocudalib",  # no libdevice needed: nothing is compiled to code
        f"--cuda-gpu-arch={settings.cuda_arch}",
        "-resource-dir",
        str(resource),
        "-Wno-unknown-cuda-version",  # a newer CUDA than clang knows still parses
        "-w",  # warnings change nothing here; only errors make a file fall back
        "-ferror-limit=20",
    )
    pch_dir = str(cache_dir / "clang-pch") if cache_dir is not None else ""
    return ClangSetup(version, str(resource), cuda, base, database, settings, pch_dir)
