"""Real CUDA headers for clang, wherever they live.

clang accepts ``--cuda-path DIR`` only when DIR looks like a CUDA install
(``include/`` and ``bin/``), and it puts ``DIR/include`` before the system
headers.  Debian's CUDA packages put their headers straight into
``/usr/include`` next to glibc's, so pointing clang there would also put a
second libc in front of the system one.  For such a mixed folder (and for
header-only folders such as the ``nvidia-*`` wheels) we build a *view*: a
small folder in the cache whose ``include/`` holds symbolic links to the CUDA
headers only.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

# Top-level entries of a CUDA include folder, by name, for folders that no
# package database describes.  (Names from CUDA 12.4's nvidia-cuda-dev,
# libcub-dev, libthrust-dev, libcu++-dev and libcupti-dev file lists.)
_CUDA_ENTRY = re.compile(
    r"(cuda.*|cu[A-Z].*|cu(blas|fft|rand|sparse|solver|dnn|tensor|pti|dla|file).*"
    r"|crt|cub|thrust|nv.*|Nv.*|npp.*|sm_\d+_.*|vector_.*|device_.*|host_.*|driver_.*"
    r"|surface_.*|texture_.*|math_.*|builtin_types\.h|channel_descriptor\.h"
    r"|common_functions\.h|library_types\.h|mma\.h|fatbinary.*|cooperative_groups.*"
    r"|cudalibxt\.h|generated_.*|Openacc|Openmp|curand.*|cudnn.*|nccl.*)\Z"
)
_DPKG_PACKAGE = re.compile(r"(nvidia-cuda-dev|libcu.*-dev|libnv.*-dev|libthrust-dev|libcub-dev)")
_CUDA_VERSION = re.compile(rb"#define\s+CUDA_VERSION\s+(\d+)")


@dataclass(frozen=True)
class CudaHeaders:
    install: str  # what clang gets as --cuda-path
    include_dirs: tuple[str, ...]  # where the headers really are
    version: str  # "12.4"


def _version_of(include: Path) -> str | None:
    try:
        found = _CUDA_VERSION.search((include / "cuda.h").read_bytes())
    except OSError:
        return None
    if found is None:
        return None
    number = int(found.group(1))
    return f"{number // 1000}.{number % 1000 // 10}"


def _include_of(path: Path) -> Path:
    """A CUDA folder (``.../cuda`` or ``.../cuda/include``), a header in it, or
    the include folder itself, as the include folder."""
    if path.is_file():
        return path.parent
    return path / "include" if (path / "include" / "cuda_runtime.h").is_file() else path


def _candidates(explicit: Path | None) -> list[tuple[Path, bool]]:
    """(include folder, named by the user) in the order they are tried."""
    if explicit is not None:
        return [(_include_of(explicit), True)]
    found: list[tuple[Path, bool]] = []
    for variable in ("CUDA_PATH", "CUDA_HOME"):
        value = os.environ.get(variable)
        if value:
            found.append((_include_of(Path(value)), True))
    # CI exports the CUDA 12.4 headers of the NVIDIA root as a list of files and folders
    for entry in os.environ.get("HIPIFY_PY_CUDA_INCLUDE", "").split(os.pathsep):
        if entry:
            found.append((_include_of(Path(entry)), False))
    cache = Path(os.environ.get("HIPIFY_PY_TOOLCHAIN_CACHE", "/var/cache/hipify-py"))
    for folder in (
        Path("/usr/local/cuda/include"),
        Path("/opt/cuda/include"),
        cache / "trixie-nvidia/usr/include",  # hipify-py smoke --provision nvidia
        Path("/usr/include"),
    ):
        found.append((folder, False))
    return list(dict.fromkeys(found))


def _wrapper_needs(wrapper: Path | None) -> list[str]:
    """CUDA headers clang's CUDA wrapper includes by name (CUDA 13 dropped some)."""
    if wrapper is None:
        return []
    try:
        text = wrapper.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return sorted(set(re.findall(r'#include "(texture_\w+\.h)"', text)))


def find_cuda_headers(
    explicit: Path | None, cache_dir: Path | None = None, wrapper: Path | None = None
) -> CudaHeaders:
    """The first candidate folder with ``cuda_runtime.h`` and ``cuda.h``.

    Found automatically (not named by the user), a CUDA that clang's wrapper
    headers cannot include (CUDA 13 has no texture_fetch_functions.h) is passed
    over for the next one.
    """
    tried = []
    needs = _wrapper_needs(wrapper)
    for include, named in _candidates(explicit):
        if not (include / "cuda_runtime.h").is_file():
            tried.append(f"{include}: no cuda_runtime.h")
            continue
        version = _version_of(include)
        if version is None:
            tried.append(f"{include}: no CUDA_VERSION in cuda.h")
            continue
        missing = [n for n in needs if not (include / n).is_file()]
        if missing and not named:
            tried.append(
                f"{include}: CUDA {version} lacks {', '.join(missing)}, which this clang's "
                "CUDA wrapper includes"
            )
            continue
        if _is_cuda_install(include):
            return CudaHeaders(str(include.parent), (str(include),), version)
        view = _make_view(include, cache_dir or _default_cache())
        return CudaHeaders(str(view), (str(include),), version)
    where = "--cuda-path" if explicit is not None else "the usual places"
    raise LookupError(
        f"no usable CUDA headers (cuda_runtime.h and cuda.h) in {where}: {'; '.join(tried)} "
        "(pass --cuda-path DIR, or set CUDA_PATH)"
    )


def _is_cuda_install(include: Path) -> bool:
    """A real CUDA install: its own folder with bin/, no libc headers in include/."""
    return (include.parent / "bin").is_dir() and not (include / "stdio.h").exists()


def _default_cache() -> Path:
    from hipify_py.tables.cache import cache_dir

    return cache_dir()


def _cuda_entries(include: Path) -> list[str]:
    """The top-level names under ``include`` that belong to CUDA."""
    names = sorted(os.listdir(include))
    if not (include / "stdio.h").exists():
        return names  # a CUDA-only folder: everything
    owned = _dpkg_entries(include)
    if owned:
        return [n for n in names if n in owned]
    return [n for n in names if _CUDA_ENTRY.match(n)]


def _dpkg_entries(include: Path) -> set[str]:
    """Names that the CUDA packages own, from the package database of the
    system (or debootstrap root) that this /usr/include belongs to."""
    if include.name != "include" or include.parent.name != "usr":
        return set()
    info = include.parent.parent / "var/lib/dpkg/info"
    prefix = "/usr/include/"
    owned: set[str] = set()
    try:
        lists = [p for p in info.iterdir() if p.suffix == ".list"]
    except OSError:
        return owned
    for listing in lists:
        if not _DPKG_PACKAGE.match(listing.stem.split(":")[0]):
            continue
        for line in listing.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(prefix) and "/" not in line[len(prefix) :]:
                owned.add(line[len(prefix) :])
    return owned


def _make_view(include: Path, cache: Path) -> Path:
    """A CUDA-install-shaped folder of links; built once, then reused."""
    entries = _cuda_entries(include)
    key = hashlib.sha256("\0".join([str(include), *entries]).encode()).hexdigest()[:16]
    view = cache / "cuda-view" / key
    if (view / "include" / "cuda_runtime.h").exists():
        return view
    view.parent.mkdir(parents=True, exist_ok=True)
    # built beside its final place and renamed in: a concurrent run sees all or nothing
    building = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=view.parent))
    try:
        (building / "bin").mkdir()
        (building / "include").mkdir()
        for name in entries:
            os.symlink(include / name, building / "include" / name)
        try:
            os.rename(building, view)
        except OSError:
            if not (view / "include" / "cuda_runtime.h").exists():
                raise
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return view
