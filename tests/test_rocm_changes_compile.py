"""The ROCm 6 / 7 source-level changes hipify-py handles, proven with the real
hipcc of each release (roots made by hip_smoke/toolchain/provision.sh amd-5.7,
amd-6.4, amd-7.2): what breaks with which release, and that the translation
for that release compiles with it.  Skipped without the roots, failed in CI
(HIPIFY_PY_REQUIRE_TOOLCHAIN=1)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli
from toolchain_support import amd_compiler

from hip_smoke.toolchain import Compiler, ToolchainError, find_cuda

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
RELEASES = ("5.7", "6.4", "7.2")


def compiler(release: str) -> Compiler:
    """hipcc of ROCm ``release`` (the user's, or the root provision.sh makes)."""
    return amd_compiler(release)


def compile_hip(release: str, source: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """Compile ``source`` for gfx942 (host and device) with HIP ``release``."""
    found = compiler(release)
    with found.workspace() as work:
        (work / "unit.hip").write_text(source)
        return found.run(
            ["--offload-arch=gfx942", *flags, "-x", "hip", "-c", "unit.hip", "-o", "unit.o"],
            cwd=work,
        )


def translated(source: str, release: str, *options: str) -> str:
    done = run_cli("--hip-version", release, *options, "-", input=source.encode())
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def expected(fixture: str) -> str:
    folder = FIXTURES / fixture
    return next(folder.glob("expected.*")).read_text()


# ------------------------------------------------------------ e) string.h

STRING_CALLS = """#include <hip/hip_runtime.h>
int main() {
    char a[8], b[8] = "abc";
    memcpy(a, b, 4);
    memset(b, 0, 4);
    return (int)strlen(a) + strcmp(a, b);
}
"""
ASSERT_CALL = """#include <hip/hip_runtime.h>
__global__ void k(int* p) { assert(p != 0); }
"""


def nvcc_run(source: str) -> subprocess.CompletedProcess[str]:
    """Compile ``source`` (CUDA) with nvcc 12.x (the NVIDIA root's, or the machine's)."""
    try:
        nvcc = find_cuda()
    except ToolchainError as exc:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    with nvcc.workspace() as work:
        (work / "unit.cu").write_text(source.replace("hip/hip_runtime.h", "cuda_runtime.h"))
        return nvcc.run(["-c", "unit.cu", "-o", "unit.o"], cwd=work)


def test_cuda_runtime_header_brings_in_string_h_not_assert_h() -> None:
    """What CUDA code relies on: nvcc 12.4 compiles the string.h calls with
    only <cuda_runtime.h>, and rejects assert (so no assert.h is added)."""
    done = nvcc_run(STRING_CALLS)
    assert done.returncode == 0, done.stderr[-2000:]
    done = nvcc_run(ASSERT_CALL)
    assert 'identifier "assert" is undefined' in done.stdout + done.stderr
    # (HIP 7.2.4 drops it as well, 5.7.1 and 6.4.3 gave it: no CUDA code relies on that)
    assert "undeclared identifier 'assert'" in compile_hip("7.2", ASSERT_CALL).stderr


@pytest.mark.parametrize("release", ["5.7", "6.4"])
def test_hip_runtime_brings_in_string_h_up_to_6_4(release: str) -> None:
    done = compile_hip(release, STRING_CALLS)
    assert done.returncode == 0, done.stderr[-2000:]


def test_hip_7_2_runtime_header_lacks_string_h() -> None:
    done = compile_hip("7.2", STRING_CALLS)
    assert done.returncode != 0
    for name in ("strlen", "strcmp"):
        assert f"undeclared identifier '{name}'" in done.stderr, done.stderr[-2000:]
    assert "no matching function for call to 'memcpy'" in done.stderr


@pytest.mark.parametrize("release", ["5.7", "7.2"])
def test_the_translation_for_7_2_adds_the_header_and_compiles(release: str) -> None:
    for fixture in ("180-std-headers-hip72", "182-std-headers-already-included-hip72"):
        done = compile_hip(release, expected(fixture))
        assert done.returncode == 0, (fixture, done.stderr[-2000:])


def test_the_translation_for_6_4_needs_no_header_there() -> None:
    done = compile_hip("6.4", expected("181-std-headers-hip64"))
    assert done.returncode == 0, done.stderr[-2000:]


def test_cuda_runtime_header_gives_no_std_memcpy() -> None:
    """nvcc 12.4 rejects std::memcpy with only <cuda_runtime.h> (it brings in
    string.h, not cstring): no header is added for it (data/host_surface.yaml)."""
    done = nvcc_run("#include <cuda_runtime.h>\nvoid f(char* a) { std::memcpy(a, a + 1, 1); }\n")
    assert done.returncode != 0
    source = "#include <cuda_runtime.h>\nvoid f(char* a) { std::memcpy(a, a + 1, 1); }\n"
    assert "#include <cstring>" not in translated(source, "7.2")


# ------------------------------------------------------------ c) [[nodiscard]] hipError_t


@pytest.mark.parametrize("release", ["5.7", "7.2"])
def test_every_release_warns_at_a_dropped_hip_error_and_the_note_matches(release: str) -> None:
    """hipError_t is [[nodiscard]] in 5.7.1 as in 7.2.4: hipcc warns at exactly
    the three statements HPY110 counts in fixture 183, and at none with (void)."""
    source = expected("183-unchecked-hip-errors")
    done = compile_hip(release, source)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = sorted(
        {
            int(line.split(":")[1])
            for line in done.stderr.splitlines()
            if "ignoring return value" in line and line.startswith("unit.hip:")
        }
    )
    assert lines == [15, 20, 22], done.stderr[-2000:]
    voided = "\n".join(
        "    (void)" + line.strip() if number in lines else line
        for number, line in enumerate(source.splitlines(), 1)
    )
    done = compile_hip(release, voided)
    assert done.returncode == 0 and "ignoring return value" not in done.stderr, done.stderr


# ------------------------------------------------------------ b) hipDeviceProp_t fields


def test_hip_5_7_lacks_exactly_the_fields_hpy452_reports() -> None:
    """hipcc 5.7.1 rejects fixture 184's translation at the five fields it
    reports (and nowhere else)."""
    done = compile_hip("5.7", expected("184-device-prop-fields-added-in-hip6-hip57"))
    assert done.returncode != 0
    rejected = sorted(
        {
            tuple(map(int, line.split(":")[1:3]))
            for line in done.stderr.splitlines()
            if line.startswith("unit.hip:") and "no member named" in line
        }
    )
    assert rejected == [(8, 36), (8, 60), (9, 22), (10, 34), (11, 17)], done.stderr[-2000:]


@pytest.mark.parametrize("release", ["6.4", "7.2"])
def test_the_renamed_fields_compile_from_hip_6(release: str) -> None:
    done = compile_hip(release, expected("185-device-prop-fields-renamed-hip72"))
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("release", ["6.4", "7.2"])
def test_gcn_arch_is_gone_from_hip_6(release: str) -> None:
    source = "#include <hip/hip_runtime.h>\nint f(hipDeviceProp_t& p) { return p.gcnArch; }\n"
    assert "no member named 'gcnArch'" in compile_hip(release, source).stderr
    assert compile_hip("5.7", source).returncode == 0


# ------------------------------------------------------------ a) warpSize


def _error_lines(stderr: str) -> set[int]:
    return {
        int(line.split(":")[1])
        for line in stderr.splitlines()
        if line.startswith("unit.hip:") and ": error:" in line
    }


def test_hip_7_2_rejects_warp_size_where_hpy426_reports_it() -> None:
    """Lines 7, 8, 15, 16 are the four HPY426 sites of fixture 186; line 19
    only follows from line 7 (kWarp is then not a constant either)."""
    done = compile_hip("7.2", expected("186-warp-size-constant-expressions-hip72"))
    assert _error_lines(done.stderr) == {7, 8, 15, 16, 19}, done.stderr[-3000:]
    assert "reference to __host__ variable 'kWarp'" in done.stderr


@pytest.mark.parametrize("release", ["5.7", "6.4"])
def test_warp_size_is_a_constant_up_to_hip_6_4(release: str) -> None:
    done = compile_hip(release, expected("187-warp-size-constant-expressions-hip64"))
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("release", ["5.7", "7.2"])
def test_the_hpy426_fix_compiles_with_every_release(release: str) -> None:
    """The hint's fix: a constant of gfx942's width where a constant is needed,
    warpSize at run time (__AMDGCN_WAVEFRONT_SIZE is gone in clang 22)."""
    lines = expected("186-warp-size-constant-expressions-hip72").splitlines()
    for number in (7, 8, 15, 16):
        lines[number - 1] = lines[number - 1].replace("warpSize", "kWavefront")
    lines.insert(4, "constexpr int kWavefront = 64;  // gfx942")
    done = compile_hip(release, "\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr[-2000:]


def test_no_wavefront_size_macro_in_clang_22() -> None:
    source = "#if defined(__AMDGCN_WAVEFRONT_SIZE)\n#error defined\n#endif\n"
    assert compile_hip("7.2", source).returncode == 0
    assert "defined" in compile_hip("5.7", source).stderr


@pytest.mark.parametrize(
    "fixture",
    [
        "126-fix-warp-size-lane-math",
        "127-fix-warp-size-shift-precedence",
        "130-fix-warp-size-define-used-as-array-size",
        "158-fix-warp-size-not-bit-index-or-stride",
    ],
)
def test_fix_warp_size_rewrites_compile_with_hip_7_2(fixture: str) -> None:
    """--fix-warp-size writes warpSize only where a run-time value is right,
    so its output compiles where warpSize is no constant."""
    done = compile_hip("7.2", expected(fixture))
    assert done.returncode == 0, done.stderr[-2000:]


def test_fix_warp_size_define_compiles_with_hip_7_2() -> None:
    source = next((FIXTURES / "129-fix-warp-size-define-lane-count").glob("input.*")).read_text()
    done = compile_hip("7.2", translated(source, "7.2", "--fix-warp-size"))
    assert done.returncode == 0, done.stderr[-2000:]


# ------------------------------------------------------------ d) roctx


@pytest.mark.parametrize("release", ["6.4", "7.2"])
def test_translated_nvtx_compiles_with_roctracer_roctx(release: str) -> None:
    """<roctracer/roctx.h> (libroctx-dev) is where ROCm 6.4.3 and 7.2.4 have
    roctx; the translated NVTX ranges and marks compile against it."""
    done = compile_hip(release, expected("068-nvtx-ranges"))
    assert done.returncode == 0, done.stderr[-2000:]


def test_debian_13_has_no_roctx() -> None:
    """Why fixture 068 does not compile with HIP 5.7.1 (compile: none)."""
    done = compile_hip("5.7", expected("068-nvtx-ranges"))
    assert "'roctracer/roctx.h' file not found" in done.stderr, done.stderr[-2000:]


def _struct_fields(header: Path, end: str) -> set[str]:
    """The member names of the struct whose declaration ends with ``end``."""
    text = header.read_text(errors="replace")
    stop = text.index(end)
    body = text[text.rfind("typedef struct", 0, stop) : stop]
    body = re.sub(r"//[^\n]*|/\*.*?\*/", "", body, flags=re.S)
    body = body[body.find("{") + 1 : body.rfind("}")]
    names = (re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", d.strip()) for d in body.split(";"))
    return {m.group(1) for m in names if m is not None}


def test_device_prop_facts_match_the_headers_of_each_release() -> None:
    """device_prop_fields.yaml against hipDeviceProp_t of 5.7.1, 6.4.3, 7.2.4:
    a field is in a release's struct exactly when the facts say so."""
    from hipify_py.rules.device_hazards import prop_fields

    structs = {
        release: _struct_fields(
            compiler(release).include_dirs[0] / "hip" / "hip_runtime_api.h", "} hipDeviceProp_t;"
        )
        for release in RELEASES
    }
    for release, version in (("5.7", (5, 7, 1)), ("6.4", (6, 4, 3)), ("7.2", (7, 2, 4))):
        for name, field in prop_fields().items():
            present = (field.hip_added is None or version >= field.hip_added) and (
                field.hip_removed is None or version < field.hip_removed
            )
            assert (field.hip in structs[release]) == present, (release, name)
    # and the facts are complete: every field that came or went has one
    by_hip = {field.hip: field for field in prop_fields().values()}
    changed = (structs["7.2"] ^ structs["5.7"]) - {"reserved", "hipReserved"}
    assert {name for name in changed if name not in by_hip} == set()


def test_hip_error_functions_are_those_the_headers_declare() -> None:
    """data/hip_error_functions.yaml is what tools/gen_hip_error_functions.py
    reads from the three releases' headers (regenerate it when they change)."""
    from hipify_py.rules.unchecked_errors import hip_error_functions

    sys.path.insert(0, str(REPO / "tools"))
    import gen_hip_error_functions as gen

    declared: set[str] = set()
    for release in RELEASES:
        for header in sorted((compiler(release).include_dirs[0] / "hip").rglob("*.h")):
            declared.update(gen.DECLARATION.findall(header.read_text(errors="replace")))
    assert hip_error_functions() == declared
    assert {"hipMalloc", "hipMemcpy", "hipModuleLaunchKernel"} <= declared
