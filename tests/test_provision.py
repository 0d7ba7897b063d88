"""hip_smoke/toolchain/provision.sh and include_paths.sh, the real scripts:
the Debian mirror comes from this machine's apt sources, one root per ROCm
release is reused once complete, and each release's header list names what
that release ships."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TOOLCHAIN = REPO / "hip_smoke" / "toolchain"
CACHE = Path(os.environ.get("HIPIFY_PY_TOOLCHAIN_CACHE", "/var/cache/hipify-py"))
ROOTS = {"amd-5.7": "trixie-amd", "amd-6.4": "rocm-6.4", "amd-7.2": "rocm-7.2"}


def _script(
    name: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "HIPIFY_PY_DEBIAN_MIRROR"}
    full.update(env or {})
    return subprocess.run(
        ["bash", str(TOOLCHAIN / name), *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=600,
    )


def _apt_mirrors() -> list[str]:
    """The Debian archives of this machine's apt sources, read independently."""
    found: list[str] = []
    sources = Path("/etc/apt/sources.list.d")
    for path in sorted(sources.glob("*.sources")) if sources.is_dir() else []:
        for line in path.read_text().splitlines():
            if line.startswith("URIs:"):
                found += line.split()[1:]
    for path in [Path("/etc/apt/sources.list"), *sorted(sources.glob("*.list"))]:
        if path.is_file():
            for line in path.read_text().splitlines():
                found += [w for w in line.split()[1:] if line.startswith("deb ") and "://" in w][:1]
    return [m for m in found if "-security" not in m]


def test_the_mirror_is_the_machines_own() -> None:
    mirrors = _apt_mirrors()
    if not mirrors:
        pytest.skip("this machine has no apt sources")
    done = _script("provision.sh", "mirror")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == mirrors[0]
    assert "deb.debian.org" not in (TOOLCHAIN / "provision.sh").read_text()  # no address of ours


def test_an_explicit_mirror_wins() -> None:
    done = _script(
        "provision.sh", "mirror", env={"HIPIFY_PY_DEBIAN_MIRROR": "http://mirror.example/debian"}
    )
    assert (done.returncode, done.stdout.strip()) == (0, "http://mirror.example/debian")


def test_an_unknown_release_is_a_usage_error() -> None:
    done = _script("provision.sh", "amd-9.9")
    assert done.returncode == 2 and "amd-7.2" in done.stderr
    done = _script("include_paths.sh", "amd-9.9", "/")
    assert done.returncode == 2


def _root(release: str) -> Path:
    root = CACHE / ROOTS[release]
    if not (root / ".hipify-py-complete").is_file():
        message = f"no {release} root (hip_smoke/toolchain/provision.sh {release})"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return root


@pytest.mark.parametrize("release", sorted(ROOTS))
def test_a_complete_root_is_reused_and_is_the_release_it_says(release: str) -> None:
    root = _root(release)
    done = _script("provision.sh", release)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(root) and "reusing complete" in done.stderr
    version = (root / "usr/include/hip/hip_version.h").read_text()
    major, minor = (
        re.search(rf"#define HIP_VERSION_{p}\s+(\d+)", version).group(1) for p in ("MAJOR", "MINOR")
    )  # type: ignore[union-attr]
    assert f"amd-{major}.{minor}" == release


@pytest.mark.parametrize("release", sorted(ROOTS))
def test_header_lists_name_the_libraries_each_release_has(release: str) -> None:
    root = _root(release)
    done = _script("include_paths.sh", release, str(root))
    assert done.returncode == 0, done.stderr
    paths = done.stdout.strip().split(":")
    assert all(Path(p).exists() for p in paths)
    names = {Path(p).name for p in paths}
    assert {"hipblas", "hipfft", "hipsparse", "rocprim"} <= names
    assert "__clang_hip_math.h" in names  # device math lives there from HIP 6 on
    later = {"hipblaslt", "miopen", "rocblas", "roctracer", "amd_smi"}
    if release == "amd-5.7":
        assert not later & names  # Debian 13 packages none of them
    else:
        assert later <= names
    assert ("rocwmma" in names) == (release == "amd-7.2")


def test_package_lists_per_release() -> None:
    """What `hipify-py smoke --provision` installs with apt on a Debian 13 host
    comes from the script itself: one list per release."""
    lists = {}
    for platform in ("amd", "amd-5.7", "amd-6.4", "amd-7.2", "nvidia"):
        done = _script("provision.sh", "packages", platform)
        assert done.returncode == 0, done.stderr
        lists[platform] = done.stdout.split()
    assert lists["amd"] == lists["amd-5.7"] and "clang-17" in lists["amd"]
    assert "librccl-dev" in lists["amd-7.2"] and "librccl-dev" not in lists["amd-6.4"]
    assert "librocwmma-dev" in lists["amd-7.2"] and "nvidia-cuda-toolkit" in lists["nvidia"]
    assert all("$" not in name for names in lists.values() for name in names)
    assert _script("provision.sh", "packages", "amd-9.9").returncode == 2
