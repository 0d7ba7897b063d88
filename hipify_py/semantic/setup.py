"""Find what the clang engine needs: libclang, a clang resource directory
(for the CUDA wrapper headers) and real CUDA headers.

Everything is resolved once, before any file is parsed, into a ``ClangSetup``
(plain strings and tuples, so it crosses into pool worker processes).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .compile_db import CompileDatabase, load_compile_database
from .cuda_view import CudaHeaders, find_cuda_headers


class SetupError(Exception):
    """The clang engine cannot start at all (the message says what to do)."""


@dataclass(frozen=True)
class ClangSettings:
    """What the user asked for (flags or configuration)."""

    build_path: Path | None = None  # folder with compile_commands.json (-p)
    include_dirs: tuple[str, ...] = ()  # -I
    defines: tuple[str, ...] = ()  # -D NAME[=VALUE]
    std: str | None = None  # --std c++17
    cuda_path: Path | None = None  # --cuda-path
    resource_dir: Path | None = None  # --clang-resource-dir
    cuda_arch: str = "sm_80"  # the device side is parsed for this GPU


@dataclass(frozen=True)
class ClangSetup:
    """Resolved and ready: the arguments every parse gets."""

    library_version: str
    resource_dir: str
    cuda: CudaHeaders
    base_args: tuple[str, ...]
    database: CompileDatabase | None = None
    settings: ClangSettings = field(default_factory=ClangSettings)

    def arguments_for(self, path: Path) -> list[str]:
        """Flags for one file: compile_commands.json entry, then -I/-D/--std."""
        args = list(self.base_args)
        if self.database is not None:
            args += self.database.flags_for(path)
        args += [f"-I{d}" for d in self.settings.include_dirs]
        args += [f"-D{d}" for d in self.settings.defines]
        if self.settings.std:
            args.append(f"-std={self.settings.std}")
        return args

    def describe(self) -> str:
        return (
            f"libclang {self.library_version}, CUDA {self.cuda.version} headers "
            f"from {', '.join(self.cuda.include_dirs)}, clang resources from {self.resource_dir}"
        )


def import_cindex() -> object:
    try:
        import clang.cindex as cindex
    except ImportError:
        raise SetupError(
            "--engine clang needs libclang: pip install 'hipify-py[clang]'"
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
    "/opt/rocm/llvm/lib/clang/*",
    "/opt/rocm/lib/llvm/lib/clang/*",
    "/usr/local/lib/clang/*",
)
_WRAPPER = "include/__clang_cuda_runtime_wrapper.h"


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path.name)) or (0,)


def find_resource_dir(explicit: Path | None) -> Path:
    """clang's own headers (stddef.h, the CUDA wrappers): the libclang wheel
    does not ship them, so take them from a clang installed on the machine."""
    if explicit is not None:
        if not (explicit / _WRAPPER).is_file():
            raise SetupError(f"--clang-resource-dir {explicit}: no {_WRAPPER} there")
        return explicit
    env = os.environ.get("HIPIFY_PY_CLANG_RESOURCE_DIR")
    if env:
        if not (Path(env) / _WRAPPER).is_file():
            raise SetupError(f"HIPIFY_PY_CLANG_RESOURCE_DIR={env}: no {_WRAPPER} there")
        return Path(env)
    import glob

    import clang

    candidates = [Path(p) for p in glob.glob(str(Path(clang.__file__).parent / "native/*/clang/*"))]
    for pattern in _RESOURCE_GLOBS:
        candidates += sorted((Path(p) for p in glob.glob(pattern)), key=_version_key, reverse=True)
    for candidate in candidates:
        if (candidate / _WRAPPER).is_file():
            return candidate
    raise SetupError(
        "no clang resource directory with the CUDA wrapper headers was found "
        "(install clang's headers, e.g. apt-get install libclang-common-16-dev, "
        "or pass --clang-resource-dir DIR / set HIPIFY_PY_CLANG_RESOURCE_DIR)"
    )


def prepare(settings: ClangSettings, cache_dir: Path | None = None) -> ClangSetup:
    """Resolve libclang, the resource directory, the CUDA headers and the
    compile database; SetupError says what is missing."""
    import_cindex()
    resource = find_resource_dir(settings.resource_dir)
    try:
        cuda = find_cuda_headers(settings.cuda_path, cache_dir)
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
        "-Wno-unknown-cuda-version",  # newer CUDA than clang knows still parses
        "-ferror-limit=20",
    )
    return ClangSetup(library_version(), str(resource), cuda, base, database, settings)
