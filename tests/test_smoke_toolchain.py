"""hip_smoke's toolchain handling, with real compilers and real mounts: an
explicit hipcc that does not work is an error, the GPU's devices are
bind-mounted into the root for a run, the machine's own nvcc 12.x with HIP's
headers is found, and a library header that is not installed skips the sample."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import run_cli

from hip_smoke.harness import SKIPPED, Settings, load_platforms, smoke_sample
from hip_smoke.samples_index import select
from hip_smoke.toolchain import (
    DEFAULT_CACHE,
    ToolchainError,
    bind_mounted,
    complete_root,
    find_amd,
    host_nvidia,
)


def _script(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_an_explicit_hipcc_that_rejects_the_target_is_an_error(tmp_path: Path) -> None:
    fake = _script(tmp_path / "hipcc", '#!/bin/sh\necho "invalid target ID: gfx942" >&2\nexit 1\n')
    done = run_cli("smoke", "vector_add", "--hipcc", str(fake), "--compile-only", cwd=tmp_path)
    message = done.stderr.decode()
    assert done.returncode == 2, message
    assert f"--hipcc {fake} does not work" in message and "invalid target ID" in message
    done = run_cli("smoke", "vector_add", "--compile-only", env={"HIPCC": str(fake)})
    assert done.returncode == 2 and "$HIPCC" in done.stderr.decode(), done.stderr.decode()
    with pytest.raises(ToolchainError, match="no such executable"):
        find_amd(str(tmp_path / "missing-hipcc"))


@pytest.mark.skipif(os.geteuid() != 0, reason="bind mounts need root")
def test_gpu_devices_are_bind_mounted_into_the_root_for_a_run(tmp_path: Path) -> None:
    """What run_program does for /dev/kfd, /dev/dri and /sys, shown with stand-in
    host paths (this machine has no AMD GPU): visible inside the root (through a
    real chroot when the AMD root is there) during the run, gone afterwards."""
    device = tmp_path / "host" / "kfd"
    device.parent.mkdir()
    device.write_text("kfd\n")
    folder = tmp_path / "host" / "dri"
    folder.mkdir()
    (folder / "renderD128").write_text("render\n")
    missing = tmp_path / "host" / "absent"
    amd_root = complete_root("amd", DEFAULT_CACHE)
    root = amd_root or tmp_path / "root"
    root.mkdir(exist_ok=True)
    inside = root / device.relative_to("/")
    with bind_mounted(root, [device, folder, missing]) as mounted:
        assert inside.read_text() == "kfd\n"
        assert (root / folder.relative_to("/") / "renderD128").read_text() == "render\n"
        assert root / missing.relative_to("/") not in mounted and len(mounted) == 2
        if amd_root is not None:
            seen = subprocess.run(
                ["chroot", str(root), "/bin/cat", str(folder / "renderD128")],
                capture_output=True,
                text=True,
            )
            assert seen.stdout == "render\n", seen.stderr
    assert not inside.exists() and not (root / folder.relative_to("/")).exists()
    assert not os.path.ismount(root / folder.relative_to("/"))


def test_the_machines_own_nvcc_12_with_hip_headers_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Debian 13 host after `--provision nvidia` (apt): its nvcc 12.x and
    /usr/include/hip.  Shown with the Debian 13 root's nvcc behind a wrapper,
    as a host would have it, which then compiles a translated sample."""
    root = complete_root("nvidia", DEFAULT_CACHE)
    if root is None:
        pytest.skip("no Debian 13 NVIDIA root (hipify-py smoke --provision nvidia)")
    wrapper = _script(
        tmp_path / "nvcc",
        "#!/bin/sh\n"
        f"R={root}\n"
        'exec chroot "$R" /bin/sh -c \'cd "$0" 2>/dev/null; exec nvcc "$@"\' "${PWD#$R}" "$@"\n',
    )
    include = root / "usr" / "include"
    compiler, tried = host_nvidia((str(wrapper),), include)
    assert compiler is not None, tried
    assert compiler.root is None and compiler.platform == "nvidia"
    assert "CUDA 12.4" in compiler.description
    # CUDA 13 (HIP's NVIDIA headers do not compile with it) or no HIP headers: not taken
    cuda13 = _script(
        tmp_path / "nvcc13", "#!/bin/sh\necho 'Cuda compilation tools, release 13.0, V13.0.88'\n"
    )
    assert host_nvidia((str(cuda13),), include)[0] is None
    assert "CUDA 13.0" in host_nvidia((str(cuda13),), include)[1][0]
    assert host_nvidia((str(wrapper),), tmp_path)[0] is None
    # it builds (the wrapper needs the workspace inside the root)
    monkeypatch.setattr(tempfile, "tempdir", str(root / "tmp"))
    (sample,) = select(["vector_add"])
    result = smoke_sample(
        sample,
        compiler,
        Settings(platform="nvidia", compile_only=True, hip_version=compiler.hip_version),
        run_it=False,
        platforms=load_platforms(),
    )
    assert result.compile.status == "ok", result.compile.detail + "\n".join(result.commands)


def test_a_missing_library_header_skips_the_sample_with_its_reason() -> None:
    """nvcc 12.4 of the Debian 13 root has no NCCL: the CUDA original of the
    NCCL sample is skipped ("nccl not available"), not failed."""
    if complete_root("nvidia", DEFAULT_CACHE) is None:
        pytest.skip("no Debian 13 NVIDIA root (hipify-py smoke --provision nvidia)")
    done = run_cli(
        "smoke", "nccl_allreduce", "--platform", "cuda", "--compile-only", "--report", "json"
    )
    assert done.returncode == 0, done.stderr.decode()
    (result,) = json.loads(done.stdout)["results"]
    assert result["compile"]["status"] == SKIPPED
    assert result["compile"]["detail"] == "nccl not available (<nccl.h> not found)"


def _release_root(release: str) -> Path:
    root = complete_root(f"amd-{release}", DEFAULT_CACHE)
    if root is None:
        message = f"no ROCm {release} root (hipify-py smoke --provision amd-{release})"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return root


def test_rocm_takes_only_a_hipcc_of_that_release(tmp_path: Path) -> None:
    """--rocm 7.2 with a hipcc of HIP 5.7 named by --hipcc: an error, no fallback."""
    fake = _script(
        tmp_path / "hipcc",
        '#!/bin/sh\n[ "$1" = --version ] && echo "HIP version: 5.7.31921-d1770ee1b"\nexit 0\n',
    )
    done = run_cli("smoke", "vector_add", "--rocm", "7.2", "--hipcc", str(fake), "--compile-only")
    message = done.stderr.decode()
    assert done.returncode == 2, message
    assert f"--hipcc {fake} does not work: is HIP 5.7, not 7.2" in message


def test_provision_of_a_release_reuses_its_root() -> None:
    root = _release_root("7.2")
    for args in (("--provision", "amd-7.2"), ("--provision", "amd", "--rocm", "7.2")):
        done = run_cli("smoke", *args)
        assert done.returncode == 0, done.stderr.decode()
        assert f"reusing complete amd-7.2 root at {root}" in done.stderr.decode()


def test_a_library_the_release_lacks_skips_the_sample_saying_why() -> None:
    """ROCm 6.4 (Debian sid) has no RCCL for HIP 6: the NCCL sample is
    translated for HIP 6.4 and skipped with that reason, not failed."""
    root = _release_root("6.4")
    assert not (root / "usr/include/rccl/rccl.h").exists()
    done = run_cli("smoke", "nccl_allreduce", "--rocm", "6.4", "--compile-only", "--report", "json")
    assert done.returncode == 0, done.stderr.decode()
    assert "hipcc (HIP 6.4) in the ROCm 6.4 root" in done.stderr.decode()
    (result,) = json.loads(done.stdout)["results"]
    assert result["translate"]["status"] == "ok"
    assert result["compile"] == {
        "status": SKIPPED,
        "detail": "nccl not available on ROCm 6.4: sid's RCCL (5.4.3) is built for HIP 5 "
        "(libamdhip64-5) and cannot be installed beside HIP 6.4",
    }


def test_hip_7_2_on_nvidia_says_why_it_cannot_be_built() -> None:
    """HIP 7.2's hip_runtime.h includes the NVIDIA backend's headers, which the
    7.2 root does not have: the run stops (exit 2) and says so."""
    root = _release_root("7.2")
    include = root / "usr" / "include"
    assert (
        "#include <hip/nvidia_detail/nvidia_hip_runtime.h>"
        in (include / "hip" / "hip_runtime.h").read_text()
    )
    assert not (include / "hip" / "nvidia_detail").exists()
    done = run_cli("smoke", "vector_add", "--platform", "nvidia", "--rocm", "7.2")
    message = done.stderr.decode()
    assert done.returncode == 2, message
    assert "the ROCm 7.2 root has no hip/nvidia_detail" in message


@pytest.mark.skipif(os.geteuid() != 0, reason="bind-mounting /proc needs root")
def test_proc_mount_is_shared_by_concurrent_compiles_and_undone_by_the_last(
    tmp_path: Path,
) -> None:
    """pytest workers and benchmark jobs compile in the same root side by side:
    the first user mounts /proc, and one that leaves early must not unmount it
    under another's running compiler (clang then fails to read /proc/self)."""
    import threading
    import time

    from hip_smoke.toolchain import _proc_mounted

    (tmp_path / "proc").mkdir()
    seen: list[bool] = []

    def user(hold: float) -> None:
        with _proc_mounted(tmp_path):
            time.sleep(hold)
            seen.append((tmp_path / "proc" / "self").exists())

    threads = [threading.Thread(target=user, args=(h,)) for h in (0.2, 0.8, 0.5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [True, True, True]
    assert not (tmp_path / "proc" / "self").exists()  # the last one unmounted it
