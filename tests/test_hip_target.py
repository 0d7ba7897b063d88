"""Which HIP a run targets when --hip-version is not given (hipify_py/engine/hip_target.py),
through the real CLI: the user's toolchain, found from $HIP_PATH / $ROCM_PATH /
/opt/rocm or from hipcc on PATH, else the newest release verified; one line says
which and why."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli

from hipify_py.engine.hip_target import default_version, header_version, verified_releases
from hipify_py.tables.versions import format_version

CACHE = Path(os.environ.get("HIPIFY_PY_TOOLCHAIN_CACHE", "/var/cache/hipify-py"))
CUBLAS = (
    "#include <cublas_v2.h>\n"
    "void f(cublasHandle_t h, cuComplex* x) { cublasCaxpy(h, 4, x, x, 1, x, 1); }\n"
)


def _hip_install(root: Path, major: int, minor: int) -> Path:
    """A HIP installation's version header, as ROCm lays it out."""
    header = root / "include" / "hip" / "hip_version.h"
    header.parent.mkdir(parents=True)
    header.write_text(
        f"#define HIP_VERSION_MAJOR {major}\n#define HIP_VERSION_MINOR {minor}\n"
        "#define HIP_VERSION_PATCH 43484\n"
    )
    return root


def _bare_env(**extra: str) -> dict[str, str]:
    """No ROCm variables, and a PATH without hipcc / hipconfig."""
    env = {k: v for k, v in os.environ.items() if k not in ("HIP_PATH", "ROCM_PATH")}
    env["PATH"] = os.pathsep.join(
        p
        for p in env.get("PATH", "").split(os.pathsep)
        if p and not (Path(p) / "hipcc").exists() and not (Path(p) / "hipconfig").exists()
    )
    env.update(extra)
    return env


def _run(tree: Path, *args: str, env: dict[str, str]) -> tuple[str, str]:
    done = run_cli(str(tree / "k.cu"), "--stdout", *args, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode(), done.stderr.decode()


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(CUBLAS)
    return tmp_path / "src"


def test_hip_path_decides_the_target(tree: Path, tmp_path: Path) -> None:
    rocm = _hip_install(tmp_path / "rocm-6.4.3", 6, 4)
    out, err = _run(tree, env=_bare_env(HIP_PATH=str(rocm)))
    assert f"targeting HIP 6.4 (from $HIP_PATH={rocm})" in err
    assert "hipblasCaxpy_v2(h, 4" in out  # hipBLAS 2 of ROCm 6.4
    rocm7 = _hip_install(tmp_path / "rocm-7.1.0", 7, 1)
    out, err = _run(tree, env=_bare_env(ROCM_PATH=str(rocm7)))
    assert f"targeting HIP 7.1 (from $ROCM_PATH={rocm7})" in err
    assert "hipblasCaxpy(h, 4" in out  # hipBLAS 3 of ROCm 7
    # $HIP_PATH comes first
    _, err = _run(tree, env=_bare_env(HIP_PATH=str(rocm), ROCM_PATH=str(rocm7)))
    assert "targeting HIP 6.4" in err


def test_hipcc_on_path_decides_the_target(tree: Path) -> None:
    """The real hipcc of a provisioned root (Debian layout: /usr/bin/hipcc with
    /usr/include/hip/hip_version.h), found on PATH."""
    found = [(r, CACHE / r / "usr" / "bin") for r in ("trixie-amd", "rocm-7.2")]
    found = [(r, b) for r, b in found if (b / "hipcc").exists()]
    if not found:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail("no provisioned AMD root (hip_smoke/toolchain/provision.sh amd-7.2)")
        pytest.skip("no provisioned AMD root (hip_smoke/toolchain/provision.sh amd-7.2)")
    for root, bin_dir in found:
        want = header_version(bin_dir.parent / "include" / "hip" / "hip_version.h")
        assert want is not None
        env = _bare_env()
        env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
        out, err = _run(tree, env=env)
        assert f"targeting HIP {format_version(want)} (from {bin_dir / 'hipcc'})" in err, (
            root,
            err,
        )
        expected = "hipblasCaxpy(h, 4" if want >= (7, 0, 0) else "cublasCaxpy(h, 4"
        assert expected in out, (root, out)


def test_without_hip_the_newest_verified_release(tree: Path) -> None:
    if Path("/opt/rocm/include/hip/hip_version.h").exists():
        pytest.skip("this machine has a ROCm in /opt/rocm")
    out, err = _run(tree, env=_bare_env())
    newest = format_version(default_version())
    assert f"targeting HIP {newest} (no HIP installation found: the newest release verified)" in err
    assert verified_releases() == ((5, 7, 1), (6, 4, 3), (7, 2, 4))
    assert "hipblasCaxpy(h, 4" in out


def test_an_explicit_or_configured_version_wins(tree: Path, tmp_path: Path) -> None:
    rocm = _hip_install(tmp_path / "rocm", 7, 2)
    out, err = _run(tree, "--hip-version", "6.4", env=_bare_env(HIP_PATH=str(rocm)))
    assert "targeting HIP 6.4 (--hip-version)" in err and "hipblasCaxpy_v2" in out
    (tree.parent / "pyproject.toml").write_text('[tool.hipify-py]\nhip-version = "6.4"\n')
    out, err = _run(tree, env=_bare_env(HIP_PATH=str(rocm)))
    assert (
        "targeting HIP 6.4 (hip-version in the configuration)" in err and "hipblasCaxpy_v2" in out
    )


def test_the_target_line_is_one_line_and_quiet_drops_it(tree: Path, tmp_path: Path) -> None:
    rocm = _hip_install(tmp_path / "rocm", 6, 4)
    _, err = _run(tree, env=_bare_env(HIP_PATH=str(rocm)))
    assert sum("targeting HIP" in line for line in err.splitlines()) == 1
    _, err = _run(tree, "-q", env=_bare_env(HIP_PATH=str(rocm)))
    assert "targeting" not in err


def test_an_unreadable_version_header_is_passed_over(tree: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    (broken / "include" / "hip").mkdir(parents=True)
    (broken / "include" / "hip" / "hip_version.h").write_text("/* no version here */\n")
    rocm = _hip_install(tmp_path / "rocm", 6, 4)
    _, err = _run(tree, env=_bare_env(HIP_PATH=str(broken), ROCM_PATH=str(rocm)))
    assert f"targeting HIP 6.4 (from $ROCM_PATH={rocm})" in err
