"""hipify-py prove, end to end without a GPU: the example project
(examples/prove) translated and built for real with hipcc of ROCm 5.7 for
gfx942, nvcc 12.4 for HIP's NVIDIA backend, and nvcc for the CUDA originals,
whose CUDA libraries must not need the toolkit where the binary runs."""

from __future__ import annotations

import copy
import json
import os
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from hip_smoke.harness import load_platforms
from hip_smoke.linking import elf_dynamic, unsatisfied
from hip_smoke.prove_build import build_program
from hip_smoke.prove_config import Program
from hip_smoke.toolchain import Compiler, ToolchainError, find_amd, find_cuda, find_nvidia

EXAMPLE = REPO / "examples" / "prove"


def _need(find: object) -> Compiler:
    try:
        return find()  # type: ignore[operator, no-any-return]
    except ToolchainError as exc:
        message = f"{exc} (provision: sudo python -m hip_smoke --provision amd-5.7 / nvidia)"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)


def test_example_project_builds_every_side_compile_only(tmp_path: Path) -> None:
    _need(lambda: find_amd(release="5.7"))
    _need(find_nvidia)
    _need(find_cuda)
    build, junit, report = tmp_path / "build", tmp_path / "j.xml", tmp_path / "r.json"
    markdown = tmp_path / "r.md"
    done = run_cli(
        "prove",
        "--compile-only",
        "--markdown",
        str(markdown),
        "--rocm",
        "5.7",
        "--build-dir",
        str(build),
        "--junit",
        str(junit),
        "--json",
        str(report),
        cwd=EXAMPLE,
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    data = json.loads(report.read_text())
    assert data["translations"] == {
        "amd": "translated for HIP 5.7",
        "nvidia": "translated for HIP 6.2",
    }
    verdicts = {(r["program"], r["platform"]): r for r in data["results"]}
    assert len(verdicts) == 6
    for (program, platform), result in verdicts.items():
        if (program, platform) == ("gemm_cublas", "nvidia"):
            assert result["verdict"] == "skipped"
            assert "hipBLAS built for NVIDIA is not packaged by Debian" in result["detail"]
            continue
        assert (result["original"], result["translation"]) == ("built", "built"), result
        assert (result["verdict"], result["detail"]) == ("not run", "--compile-only")
    # the CUDA original's cuBLAS is linked statically, and the report says so
    assert "cublas linked statically" in verdicts[("gemm_cublas", "amd")]["linking"]
    needed, _ = elf_dynamic(build / "cuda" / "gemm_cublas" / "prog")
    assert needed and not [n for n in needed if "cublas" in n], needed
    # everything the originals and the NVIDIA translations need is on any
    # machine with the driver: they run where they are carried
    for side in ("cuda", "nvidia"):
        for program in ("saxpy", "histogram", "gemm_cublas"):
            binary = build / side / program / "prog"
            if binary.is_file():
                assert unsatisfied(binary) == [], binary
    # the AMD translations with kernels hold gfx942 code (gemm_cublas has none)
    for program in ("saxpy", "histogram"):
        assert b"gfx942" in (build / "amd" / program / "prog").read_bytes()
    # the manifest carries what a GPU machine needs to run and compare
    manifest = json.loads((build / "prove.json").read_text())
    histogram = next(p for p in manifest["programs"] if p["name"] == "histogram")
    assert histogram["env"] == {"HIST_SEED": "7"}
    assert histogram["rules"]["files"] == ["histogram.txt"]
    assert (build / histogram["inputs"] / "data" / "bins.txt").read_text() == "16\n"
    saxpy = next(p for p in manifest["programs"] if p["name"] == "saxpy")
    assert saxpy["args"] == ["--seed", "2024", "--n", "100000"]
    # docs/smoke.md shows this very table
    table = markdown.read_text().split("\n\n")[0]
    assert table in (REPO / "docs" / "smoke.md").read_text(encoding="utf-8")
    suite = ElementTree.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("6", "0", "0")
    assert suite.get("skipped") == "1"


CURAND = """#include <cstdio>
#include <curand.h>
int main() {
  curandGenerator_t g;
  if (curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 1;
  curandDestroyGenerator(g);
  std::printf("PASS\\n");
  return 0;
}
"""


def test_without_a_static_archive_the_shared_library_is_carried_beside_the_binary(
    tmp_path: Path,
) -> None:
    compiler = _need(find_cuda)
    if not compiler.has_header("curand.h"):
        pytest.skip(f"{compiler.description} has no curand.h")
    platforms = copy.deepcopy(load_platforms())
    del platforms["libraries"]["curand"]["cuda_static"]  # as if the toolkit had none
    program = Program(name="rng", sources=("rng.cu",), libraries=("curand",))
    with compiler.workspace() as work:
        (work / "src").mkdir()
        (work / "src" / "rng.cu").write_text(CURAND)
        side = build_program(program, "cuda", compiler, work / "src", work / "out", "", platforms)
        assert side["built"] == "ok", side
        assert "curand linked shared (no static form)" in side["linking"]
        assert "carried beside the binary (rpath $ORIGIN): libcurand.so.10" in side["linking"]
        binary = work / "out" / "rng" / "prog"
        needed, paths = elf_dynamic(binary)
        assert "libcurand.so.10" in needed and paths == ["$ORIGIN"]
        assert (binary.parent / "libcurand.so.10").is_file()
        assert unsatisfied(binary) == []
        (binary.parent / "libcurand.so.10").unlink()
        assert unsatisfied(binary) == ["libcurand.so.10 (needed by prog): not beside the binary"]


SUITE = REPO / "examples" / "prove-suite"


@pytest.mark.parametrize("name", ["cub_block", "curand_device_pi"])
def test_header_only_hip_libraries_build_for_hips_nvidia_backend(name: str, tmp_path: Path) -> None:
    """hipCUB's CUB backend and hipRAND's device API are header-only: the
    prove-suite programs that use them build as HIP on NVIDIA (the nvidia
    root carries Debian's hipCUB / hipRAND headers), where before they were
    skipped as needing a HIP library built for NVIDIA."""
    _need(find_nvidia)
    build = tmp_path / "build"
    done = run_cli(
        "prove",
        name,
        "-p",
        "nvidia",
        "--compile-only",
        "--build-dir",
        str(build),
        "--json",
        str(tmp_path / "r.json"),
        cwd=SUITE,
    )
    report = json.loads((tmp_path / "r.json").read_text())
    (side,) = [r for r in report["results"] if r["platform"] == "nvidia"]
    assert side["translation"] == "built", (side, done.stdout.decode()[-2000:])
    assert (build / "nvidia" / name / "prog").is_file()


def test_the_cuda_header_check_finds_cuda_13s_cccl_folder() -> None:
    """CUDA 13 keeps Thrust and CUB under include/cccl (its nvcc.profile adds
    it): a Thrust program's original was skipped on the H200 as "<thrust/
    device_vector.h> not found" although nvcc found it."""
    from hip_smoke.toolchain import _host_cuda, _nvcc_home  # the machine's own nvcc

    compiler = _host_cuda()
    if compiler is None:
        pytest.skip("no nvcc on this machine")
    nvcc = compiler.command[0]
    home = _nvcc_home(nvcc)
    if not (home / "include" / "cccl" / "thrust" / "device_vector.h").is_file():
        pytest.skip(f"{nvcc} keeps Thrust outside include/cccl (CUDA before 13)")
    assert compiler.has_header("thrust/device_vector.h")
    assert compiler.has_header("cub/cub.cuh")
