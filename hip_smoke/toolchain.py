"""Finding (and, through toolchain/provision.sh, making) the compilers.

AMD: a user's ROCm first (``--hipcc``, ``$HIPCC``, ``/opt/rocm/bin/hipcc``,
``hipcc`` on PATH when it accepts gfx942), else the Debian 13 root made by
``toolchain/provision.sh amd`` (HIP 5.7.1), used through chroot.  With a
release (``--rocm 5.7|6.4|7.2``) the root of that release made by
``provision.sh amd-X.Y`` is used, or a user's hipcc of that very release.

NVIDIA: nvcc 12.x with HIP's NVIDIA headers (they do not compile against
CUDA 13): the machine's own (Debian 13's packages, as ``--provision nvidia``
installs them there), else the root made by ``provision.sh nvidia``; plus the
host's own nvcc for the CUDA originals.

Programs built for AMD inside the root run there with the GPU's devices
(/dev/kfd, /dev/dri) and /sys bind-mounted for the run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

PROVISION = Path(__file__).resolve().parent / "toolchain" / "provision.sh"
DEFAULT_CACHE = Path(os.environ.get("HIPIFY_PY_TOOLCHAIN_CACHE", "/var/cache/hipify-py"))
MARKER = ".hipify-py-complete"


class ToolchainError(Exception):
    """No usable compiler; the message says what was tried and how to get one."""


@dataclass
class Compiler:
    """One way to run a compiler: directly, or inside a chroot."""

    platform: str  # "amd" or "nvidia" (HIP sources), or "cuda" (CUDA originals)
    command: list[str]  # the compiler and fixed flags
    root: Path | None = None  # run inside this chroot, with files staged in it
    description: str = ""
    include_dirs: list[Path] = field(default_factory=list)  # where library headers live
    # the HIP version the translation targets for this compiler: the HIP it has
    # (AMD); on HIP's NVIDIA backend the _sync warp functions are CUDA's own, so
    # the translation keeps them (the HIP >= 6.2 form)
    hip_version: str = "5.7"
    # the ROCm release asked for (``--rocm``), which names its gaps in
    # platforms.yaml; None when any HIP would do
    release: str | None = None

    def has_header(self, header: str) -> bool:
        return any((d / header).is_file() for d in self.include_dirs)

    @contextlib.contextmanager
    def workspace(self) -> Iterator[Path]:
        """A scratch folder the compiler can see (inside the chroot if there is one)."""
        base = self.root / "tmp" if self.root is not None else None
        folder = Path(tempfile.mkdtemp(prefix="hip-smoke-", dir=base))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def run(
        self, args: list[str], cwd: Path, timeout: int = 600
    ) -> subprocess.CompletedProcess[str]:
        """Run the compiler with ``args`` (paths inside ``cwd``, given relative to it)."""
        if self.root is None:
            argv = [*self.command, *args]
            return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        inner = "/" + str(cwd.relative_to(self.root))
        script = (
            "cd "
            + _quote(inner)
            + " && exec "
            + " ".join(_quote(a) for a in [*self.command, *args])
        )
        with _proc_mounted(self.root):
            return subprocess.run(
                ["chroot", str(self.root), "/bin/sh", "-c", script],
                capture_output=True,
                text=True,
                timeout=timeout,
            )

    def inner(self, path: Path) -> str:
        """``path`` (on this machine) as the compiler sees it."""
        return str(path) if self.root is None else "/" + str(path.relative_to(self.root))

    def shell(self, script: str, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
        """Run a shell command line in ``cwd`` where the compiler is (inside the
        chroot if there is one); ``self.command`` is what it calls the compiler."""
        full = "cd " + _quote(self.inner(cwd)) + " && " + script
        if self.root is None:
            return subprocess.run(
                ["/bin/sh", "-c", full], capture_output=True, text=True, timeout=timeout
            )
        with _proc_mounted(self.root):
            return subprocess.run(
                ["chroot", str(self.root), "/bin/sh", "-c", full],
                capture_output=True,
                text=True,
                timeout=timeout,
            )


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


@contextlib.contextmanager
def _proc_mounted(root: Path) -> Iterator[None]:
    """clang needs /proc inside the root.  Compiles run side by side (pytest
    workers, a benchmark's jobs), so the mount is shared: a count of users in
    ``ROOT/.hipify-py-proc`` (under an flock) says when the last one leaves,
    and only a mount made here is undone, by the last user.  A /proc mounted
    by someone else is used as it is and left."""
    import fcntl

    proc = root / "proc"
    state = root / ".hipify-py-proc"
    with open(state, "a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        users, ours = _proc_state(handle)
        if users == 0:
            ours = False
            if not (proc / "self").exists():
                done = subprocess.run(["mount", "--bind", "/proc", str(proc)], capture_output=True)
                ours = done.returncode == 0
        _write_proc_state(handle, users + 1, ours)
    try:
        yield
    finally:
        with open(state, "a+", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            users, ours = _proc_state(handle)
            users = max(0, users - 1)
            if users == 0 and ours:
                subprocess.run(["umount", str(proc)], capture_output=True)
                ours = False
            _write_proc_state(handle, users, ours)


def _proc_state(handle: IO[str]) -> tuple[int, bool]:
    """(users, whether the mount is ours) from the state file ("3 1")."""
    handle.seek(0)
    words = handle.read().split()
    try:
        return int(words[0]), words[1] == "1"
    except (IndexError, ValueError):
        return 0, False


def _write_proc_state(handle: IO[str], users: int, ours: bool) -> None:
    handle.seek(0)
    handle.truncate()
    handle.write(f"{users} {int(ours)}\n")
    handle.flush()


# what a program needs to reach an AMD GPU from inside the root: the kernel
# driver's devices, and the topology the ROCm runtime reads from /sys
GPU_PATHS = (Path("/dev/kfd"), Path("/dev/dri"), Path("/sys"))


@contextlib.contextmanager
def bind_mounted(root: Path, sources: tuple[Path, ...] | list[Path]) -> Iterator[list[Path]]:
    """Bind-mount each existing host path in ``sources`` at the same place
    inside ``root`` for the duration; those missing on the host are skipped,
    those already mounted there are left alone.  Everything mounted is
    unmounted afterwards, and mount points this made are removed.  Yields what
    was mounted."""
    mounted: list[Path] = []
    made: list[Path] = []
    try:
        for source in sources:
            if not source.exists():
                continue
            target = root / source.relative_to(source.anchor)
            if os.path.ismount(target):
                continue
            if not target.exists():
                # remember every folder made on the way, to remove them after
                missing = [target, *(p for p in target.parents if not p.exists())]
                made.extend(reversed(missing))
                if source.is_dir():
                    target.mkdir(parents=True)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.touch()
            done = subprocess.run(
                ["mount", "--rbind", str(source), str(target)], capture_output=True
            )
            if done.returncode == 0:
                mounted.append(target)
        yield mounted
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", "-R", str(target)], capture_output=True)
        for target in reversed(made):
            with contextlib.suppress(OSError):
                target.rmdir() if target.is_dir() else target.unlink()


# the ROCm releases provision.sh makes a root for (``amd-X.Y``), oldest first
RELEASES = ("5.7", "6.4", "7.2")
# the 5.7 and NVIDIA roots keep their first names (provision.sh names them so)
_ROOT_NAMES = {"amd": "trixie-amd", "amd-5.7": "trixie-amd", "nvidia": "trixie-nvidia"}


def root_for(platform: str, cache: Path = DEFAULT_CACHE) -> Path:
    """The root provision.sh makes for ``amd``, ``amd-X.Y`` or ``nvidia``."""
    return cache / _ROOT_NAMES.get(platform, "rocm-" + platform.removeprefix("amd-"))


def root_hip_version(root: Path) -> str | None:
    """ "7.2" from the root's ``hip/hip_version.h``; None if it has none."""
    from hipify_py.engine.hip_target import header_version

    found = header_version(root / "usr" / "include" / "hip" / "hip_version.h")
    return None if found is None else f"{found[0]}.{found[1]}"


def complete_root(platform: str, cache: Path = DEFAULT_CACHE) -> Path | None:
    root = root_for(platform, cache)
    return root if (root / MARKER).is_file() else None


def provision(platform: str, cache: Path = DEFAULT_CACHE) -> tuple[int, str]:
    """Find or make the toolchain; returns (exit code, a report of what was done).

    ``platform``: ``amd`` (any HIP), ``amd-X.Y`` (that ROCm release) or
    ``nvidia``.  AMD: a working hipcc of the user's (ROCm, of the release asked
    for) is used as it is.  Otherwise, on Debian 13 its own packages (HIP 5.7,
    nvcc 12.4) are installed directly; anything else is a root that
    provision.sh makes (or reuses).
    """
    if platform.startswith("amd"):
        release = platform.removeprefix("amd-") if platform != "amd" else None
        try:
            found = find_amd(allow_root=False, release=release)
            return 0, f"provision: using the existing hipcc {found.description}; nothing to do"
        except ToolchainError:
            pass
    if _debian_codename() == "trixie" and platform in ("amd", "amd-5.7", "nvidia"):
        return _apt_install(platform)
    env = dict(os.environ, HIPIFY_PY_TOOLCHAIN_CACHE=str(cache))
    done = subprocess.run(
        ["bash", str(PROVISION), platform], capture_output=True, text=True, env=env
    )
    return done.returncode, done.stderr + done.stdout


def _debian_codename() -> str:
    try:
        text = Path("/etc/os-release").read_text(encoding="utf-8")
    except OSError:
        return ""
    for line in text.splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip().strip('"')
    return ""


def _apt_install(platform: str) -> tuple[int, str]:
    """Debian 13 ships the packages itself: no root filesystem needed."""
    listed = subprocess.run(
        ["bash", str(PROVISION), "packages", platform], capture_output=True, text=True
    )
    if listed.returncode != 0 or not listed.stdout.split():
        return 2, f"provision: no package list for {platform} in {PROVISION}"
    packages = listed.stdout.split()
    if os.geteuid() != 0:
        return 3, f"provision: must run as root to apt-get install {' '.join(packages)}"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for argv in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
    ):
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            return 3, f"provision: {' '.join(argv[:2])} failed: {done.stderr.strip()[-500:]}"
    return 0, f"provision: Debian 13 host: installed {' '.join(packages)} with apt-get"


def _probe(hipcc: str, arch: str) -> str | None:
    """None when ``hipcc`` compiles a kernel for ``arch``, else why not."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.hip"
        src.write_text("__global__ void k() {}\n")
        try:
            done = subprocess.run(
                [hipcc, f"--offload-arch={arch}", "-c", str(src), "-o", str(Path(tmp) / "probe.o")],
                capture_output=True,
                text=True,
                timeout=300,
            )
        except subprocess.TimeoutExpired:
            return "timed out compiling a probe kernel"
        except OSError as exc:
            return f"cannot run it ({exc.strerror or exc})"
        if done.returncode == 0:
            return None
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        errors = [line for line in lines if "error" in line.lower()] or lines[-1:]
        detail = errors[0] if errors else ""
        return f"rejects --offload-arch={arch} (exit {done.returncode}" + (
            f": {detail.strip()[:200]})" if detail else ")"
        )


def _accepts_gfx942(hipcc: str, arch: str) -> bool:
    return _probe(hipcc, arch) is None


def _hip_version_of(hipcc: str) -> str:
    """ "HIP version: 6.2.41133-..." from hipcc --version, as "6.2" (5.7 if unknown)."""
    import re

    try:
        done = subprocess.run([hipcc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "5.7"
    found = re.search(r"HIP version:\s*(\d+)\.(\d+)", done.stdout + done.stderr)
    return f"{found.group(1)}.{found.group(2)}" if found else "5.7"


def find_amd(
    hipcc: str | None = None,
    arch: str = "gfx942",
    cache: Path = DEFAULT_CACHE,
    allow_root: bool = True,
    release: str | None = None,
) -> Compiler:
    """The first usable hipcc, in the documented order; with ``release``
    ("7.2"), one of that HIP release only."""
    tried: list[str] = []
    candidates: list[tuple[str, str]] = []
    if hipcc:
        candidates.append((hipcc, "--hipcc"))
    if os.environ.get("HIPCC"):
        candidates.append((os.environ["HIPCC"], "$HIPCC"))
    candidates.append(("/opt/rocm/bin/hipcc", "ROCm"))
    on_path = shutil.which("hipcc")
    if on_path:
        candidates.append((on_path, "PATH"))
    for path, origin in candidates:
        explicit = origin in ("--hipcc", "$HIPCC")
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            tried.append(f"{path} ({origin}): not found")
            if explicit:
                raise ToolchainError(f"{origin} {path}: no such executable")
            continue
        version = _hip_version_of(path)
        if release is not None and version != release:
            why: str | None = f"is HIP {version}, not {release}"
        else:
            why = _probe(path, arch)
        if why is not None and explicit:
            # asked for by name: never fall back to another compiler silently
            raise ToolchainError(f"{origin} {path} does not work: {why}")
        if why is None:
            include = Path(path).resolve().parent.parent / "include"
            return Compiler(
                "amd",
                [path],
                description=f"{path} ({origin}), HIP {version}",
                include_dirs=[include],
                hip_version=version,
                release=release,
            )
        tried.append(f"{path} ({origin}): {why}")
    platform = "amd" if release is None else f"amd-{release}"
    root = complete_root(platform, cache) if allow_root else None
    if root is not None:
        version = root_hip_version(root) or release or "5.7"
        return Compiler(
            "amd",
            ["hipcc"],
            root=root,
            description=f"hipcc (HIP {version}) in the ROCm {version} root {root}",
            include_dirs=[root / "usr" / "include"],
            hip_version=version,
            release=release or version,
        )
    tried.append(f"{root_for(platform, cache)}: no complete root of ROCm {release or '5.7'}")
    raise ToolchainError(
        "no hipcc for "
        + arch
        + (f" of HIP {release}" if release else "")
        + " found; tried: "
        + "; ".join(tried)
        + f". Install ROCm, pass --hipcc, or run: hipify-py smoke --provision {platform}"
    )


_NVIDIA_FLAGS = [
    "-arch=sm_90",
    "-D__HIP_PLATFORM_NVIDIA__",
    "-Xcompiler",
    "-static-libstdc++,-static-libgcc",
]
HOST_NVCC = ("/usr/bin/nvcc", "/usr/lib/nvidia-cuda-toolkit/bin/nvcc")
HOST_INCLUDE = Path("/usr/include")


def nvcc_release(nvcc: str) -> str | None:
    """ "12.4" from ``nvcc --version`` ("Cuda compilation tools, release 12.4, ..")."""
    import re

    try:
        done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"release (\d+)\.(\d+)", done.stdout + done.stderr)
    return f"{found.group(1)}.{found.group(2)}" if found else None


def host_nvidia(
    candidates: tuple[str, ...] | None = None, include: Path = HOST_INCLUDE
) -> tuple[Compiler | None, list[str]]:
    """The machine's own nvcc 12.x with HIP's headers (Debian 13's
    nvidia-cuda-toolkit and libamdhip64-dev, as ``--provision nvidia``
    installs them on a Debian 13 host), or None and what was tried."""
    tried: list[str] = []
    if not (include / "hip" / "hip_runtime.h").is_file():
        return None, [f"{include}/hip/hip_runtime.h: not found (HIP headers: libamdhip64-dev)"]
    found = [] if candidates is None else list(candidates)
    if candidates is None:
        on_path = shutil.which("nvcc")
        found = [p for p in (on_path, *HOST_NVCC) if p]
    for nvcc in dict.fromkeys(found):
        if not (os.path.isfile(nvcc) and os.access(nvcc, os.X_OK)):
            continue
        release = nvcc_release(nvcc)
        if release is None or not release.startswith("12."):
            tried.append(
                f"{nvcc}: CUDA {release or 'of unknown version'} "
                "(HIP's NVIDIA headers need nvcc 12.x)"
            )
            continue
        # nvcc 12.4 supports GCC up to 13; Debian 13's default g++ is 14
        host_compiler = ["-ccbin", "g++-13"] if shutil.which("g++-13") else []
        return (
            Compiler(
                "nvidia",
                [nvcc, *host_compiler, *_NVIDIA_FLAGS],
                description=f"{nvcc} (CUDA {release}) + HIP headers in {include}",
                include_dirs=[include],
                hip_version="6.2",
            ),
            tried,
        )
    if not found:
        tried.append("no nvcc on PATH or in " + ", ".join(HOST_NVCC))
    return None, tried


NVIDIA_RUNTIME = Path("hip") / "nvidia_detail" / "nvidia_hip_runtime.h"


def nvidia_gap(release: str, cache: Path = DEFAULT_CACHE) -> str:
    """Why HIP ``release``'s NVIDIA backend cannot be built here."""
    root = complete_root(f"amd-{release}", cache)
    if root is None:
        return f"no ROCm {release} root (hipify-py smoke --provision amd-{release})"
    if not (root / "usr" / "include" / NVIDIA_RUNTIME).is_file():
        return (
            f"HIP {release}'s <hip/hip_runtime.h> includes <{NVIDIA_RUNTIME.as_posix()}> for "
            f"__HIP_PLATFORM_NVIDIA__, and the ROCm {release} root has no hip/nvidia_detail: "
            f"Debian's libamdhip64-dev {release} ships the AMD backend only (HIP 5.7.1's NVIDIA "
            "headers are the newest packaged: --platform nvidia without --rocm)"
        )
    return (
        f"HIP {release}'s NVIDIA headers are in {root}, but hip_smoke builds HIP's "
        "NVIDIA backend with HIP 5.7.1's headers only"
    )


def find_nvidia(cache: Path = DEFAULT_CACHE, release: str | None = None) -> Compiler:
    """nvcc 12.x + HIP headers for HIP's NVIDIA backend: the machine's own (a
    Debian 13 host with the packages), else the Debian 13 root.  Only HIP
    5.7's NVIDIA headers are packaged; another ``release`` is an error that
    says why."""
    if release is not None and release != "5.7":
        raise ToolchainError(f"--platform nvidia --rocm {release}: {nvidia_gap(release, cache)}")
    host, tried = host_nvidia()
    if host is not None:
        return host
    root = complete_root("nvidia", cache)
    if root is None:
        raise ToolchainError(
            "no NVIDIA HIP toolchain (HIP's NVIDIA headers need nvcc 12.x): tried "
            + "; ".join([*tried, f"{root_for('nvidia', cache)}: not a complete root"])
            + ". Run: hipify-py smoke --provision nvidia"
        )
    return Compiler(
        "nvidia",
        ["nvcc", "-ccbin", "g++-13", *_NVIDIA_FLAGS],
        root=root,
        description=f"nvcc 12.4 + HIP headers in the Debian 13 root {root}",
        include_dirs=[root / "usr" / "include"],
        hip_version="6.2",
    )


def find_cuda(cache: Path = DEFAULT_CACHE, prefer_host: bool = False) -> Compiler:
    """A compiler for the CUDA originals: nvcc 12.4 of the NVIDIA root (it has every
    library header), else the machine's nvcc; with ``prefer_host``, the
    machine's nvcc first (``hipify-py prove``: the user's own CUDA)."""
    host = _host_cuda() if prefer_host else None
    if host is not None:
        return host
    root = complete_root("nvidia", cache)
    if root is not None:
        return Compiler(
            "cuda",
            [
                "nvcc",
                "-ccbin",
                "g++-13",
                "-arch=sm_90",
                "-Xcompiler",
                "-static-libstdc++,-static-libgcc",
            ],
            root=root,
            description=f"nvcc 12.4 in {root}",
            include_dirs=[root / "usr" / "include"],
        )
    host = _host_cuda()
    if host is None:
        raise ToolchainError("no nvcc found for the CUDA originals")
    return host


def _host_cuda() -> Compiler | None:
    nvcc = shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.path.isfile("/usr/local/cuda/bin/nvcc") else None
    )
    if nvcc is None:
        return None
    home = _nvcc_home(nvcc)
    include = [home / "include", home / "targets" / "x86_64-linux" / "include"]
    # CUDA 13 moved Thrust, CUB and libcu++ to include/cccl (nvcc.profile adds
    # it as a system include), so a header check looks there too
    include += [folder / "cccl" for folder in include]
    return Compiler("cuda", [nvcc, "-arch=sm_90"], description=nvcc, include_dirs=include)


def _nvcc_home(nvcc: str) -> Path:
    """The CUDA toolkit of ``nvcc`` (its TOP, which a wrapper script hides)."""
    import re

    try:
        done = subprocess.run(
            [nvcc, "--dryrun", "-x", "cu", "-c", os.devnull, "-o", os.devnull],
            capture_output=True,
            text=True,
            timeout=60,
        )
        found = re.search(r"TOP=(\S+)", done.stderr + done.stdout)
        if found:
            return Path(found.group(1).strip('"')).resolve()
    except (OSError, subprocess.TimeoutExpired):
        pass
    return Path(nvcc).resolve().parent.parent


def gpu_present(platform: str) -> bool:
    """Is there a GPU of this platform to run on?"""
    if platform == "amd":
        return os.path.exists("/dev/kfd")
    return (
        shutil.which("nvidia-smi") is not None
        and subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    )
