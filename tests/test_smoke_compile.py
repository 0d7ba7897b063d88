"""Every sample, translated for each ROCm release CI provisions and compiled
with that release's real hipcc for gfx942 (or skipped for a library the
release lacks, with the reason), and every complete-translation-unit fixture."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import REPO
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.harness import OK, SKIPPED, Settings, load_platforms, smoke_sample
from hip_smoke.samples_index import all_samples
from hipify_py.engine.compat import HEADER, header_text

SAMPLES = all_samples()
FIXTURES = sorted(
    p
    for p in (REPO / "fixtures").iterdir()
    if (p / "meta.yaml").is_file()
    and yaml.safe_load((p / "meta.yaml").read_text(encoding="utf-8")).get("compile") == "tu"
)


def test_there_are_at_least_twenty_samples() -> None:
    assert len(SAMPLES) >= 20


@pytest.mark.parametrize("release", CI_RELEASES)
@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_sample_translates_compiles_and_links_for_gfx942(sample: object, release: str) -> None:
    compiler = amd_compiler(release)
    assert compiler.hip_version == release  # the translation targets the release's HIP
    settings = Settings(platform="amd", compile_only=True, hip_version=compiler.hip_version)
    platforms = load_platforms()
    result = smoke_sample(sample, compiler, settings, run_it=False, platforms=platforms)  # type: ignore[arg-type]
    assert result.translate.status == OK, result.translate.detail
    missing = {
        library: info["amd"]["missing"][release]
        for library, info in platforms["libraries"].items()
        if release in info["amd"].get("missing", {})
    }
    gaps = [library for library in sample.libraries if library in missing]  # type: ignore[attr-defined]
    if gaps:  # a library the release does not package: skipped, saying why
        assert result.compile.status == SKIPPED, result.compile.detail
        assert missing[gaps[0]] in result.compile.detail
        return
    assert result.compile.status == OK, result.compile.detail + "\n" + "\n".join(result.commands)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_fixture_expected_output_compiles_for_gfx942(fixture: Path) -> None:
    compiler = amd_compiler()
    expected = next(p for p in fixture.iterdir() if p.name.startswith("expected."))
    with compiler.workspace() as work:
        (work / "unit.hip").write_bytes(expected.read_bytes())
        (work / HEADER).write_bytes(header_text())  # what --compat fixtures include
        done = compiler.run(
            ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
        )
    assert done.returncode == 0, done.stderr[-3000:]


# Fixtures whose translation must build on HIP's NVIDIA backend as well (a test
# that holds on one platform only drops code on the other).
BOTH_PLATFORMS = [
    "166-include-guard-tests-both-platforms",
    "172-vector-compound-operators",
    # the CUDA version tests keep CUDA's own value on NVIDIA
    "282-cuda-version-value-assumed",
    # --compat: on NVIDIA the header leaves CUDA's own functions in place
    "240-compat-video-intrinsics-umin-umax",
    "241-compat-cooperative-groups-reduce-scan",
    "242-compat-cache-hint-loads-stores",
    # PTX trap stays PTX on NVIDIA (nvcc has no device __builtin_trap)
    "288-ptx-trap-builtin",
    "290-trap-both-platforms",
    # ... and in every other shape, through the hipify_py_trap helper macro
    "298-trap-every-shape-both-platforms",
    # value tests of the platform macros HIP defines empty: defined() tests
    "297-empty-platform-macro-value-tests",
    # CUDA's Thrust on NVIDIA: its thrust/system/cuda headers, thrust::hip an alias
    "291-thrust-cuda-policy-both-platforms",
    # HIP 5.7.1's NVIDIA headers have no hipMallocAsync template either
    "292-malloc-async-typed-pointer",
    # hipCUB for NVIDIA puts cub's names into hipcub: the directive keeps cub
    "293-using-namespace-cub-both-platforms",
    # the casts that keep CUDA's min/max types are CUDA's own overloads there
    "296-device-min-max-cuda-types",
]


def _compile_fixture_for_nvidia(name: str) -> subprocess.CompletedProcess[str]:
    """nvcc (HIP's NVIDIA backend) on a fixture's expected output; skips, or
    fails under HIPIFY_PY_REQUIRE_TOOLCHAIN=1, where there is no such toolchain."""
    from hip_smoke.toolchain import ToolchainError, find_nvidia

    try:
        compiler = find_nvidia()
    except ToolchainError as exc:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    fixture = REPO / "fixtures" / name
    expected = next(p for p in fixture.iterdir() if p.name.startswith("expected."))
    with compiler.workspace() as work:
        (work / "unit.hip").write_bytes(expected.read_bytes())
        (work / HEADER).write_bytes(header_text())
        return compiler.run(["-x", "cu", "-c", "unit.hip", "-o", "unit.o"], cwd=work)


@pytest.mark.parametrize("name", BOTH_PLATFORMS)
def test_fixture_expected_output_compiles_on_hips_nvidia_backend(name: str) -> None:
    done = _compile_fixture_for_nvidia(name)
    assert done.returncode == 0, done.stderr[-3000:]


# Fixtures whose diagnostic says the translation builds on AMD only: it must
# fail on HIP's NVIDIA backend for the reason the diagnostic gives (the AMD
# side is test_fixture_expected_output_compiles_for_gfx942).
AMD_ONLY = {
    # hipCUB's CUB backend forwards no CachingDeviceAllocator constructor (HPY428)
    "295-cub-allocator-constructor-arguments": "CachingDeviceAllocator",
}


@pytest.mark.parametrize("name", sorted(AMD_ONLY))
def test_fixture_reported_as_amd_only_fails_on_hips_nvidia_backend_as_said(name: str) -> None:
    done = _compile_fixture_for_nvidia(name)
    assert done.returncode != 0
    errors = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line]
    assert errors and AMD_ONLY[name] in errors[0], "\n".join(errors[:5])


LIBRARY_SAMPLES = ["cublas_sgemm", "cufft_1d", "curand_host"]


@pytest.mark.parametrize("name", LIBRARY_SAMPLES)
def test_cuda_original_with_a_library_kept_for_another_machine_needs_no_toolkit(
    name: str, tmp_path: Path
) -> None:
    """--build-dir binaries of the CUDA originals run where the CUDA toolkit
    is not installed (an H200 could not load libcublas.so.12 / libcufft.so.11):
    the libraries are linked statically, or carried beside the binary."""
    from hip_smoke.linking import elf_dynamic, unsatisfied
    from hip_smoke.samples_index import select
    from hip_smoke.toolchain import ToolchainError, find_cuda

    try:
        compiler = find_cuda()
    except ToolchainError as exc:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    (sample,) = select([name])
    settings = Settings(platform="cuda", compile_only=True, build_dir=tmp_path)
    result = smoke_sample(sample, compiler, settings, run_it=False, platforms=load_platforms())
    assert result.compile.status == OK, result.compile.detail + "\n" + "\n".join(result.commands)
    library = sample.libraries[0]
    assert f"{library} linked" in result.compile.detail
    kept = tmp_path / "cuda" / name / "prog"
    needed, _ = elf_dynamic(kept)
    assert unsatisfied(kept) == [], needed
    if "statically" in result.compile.detail:
        assert not [n for n in needed if n.startswith(f"lib{library}")], needed
