"""NVML -> AMD SMI through the real CLI: the names AMD SMI has with NVML's shape
are translated (mappings/nvml.yaml), the monitoring calls of another shape
become, with --compat, the hipify_nvml_* functions hipify_py_compat.h
implements over AMD SMI (data/compat.yaml `renames`), everything else is
reported with the AMD SMI call to use; below HIP 6.4 (no AMD SMI checked) all
of it is reported.  The translated monitoring program (fixture 270) compiles
for gfx942 and links against libamd_smi with HIP 6.4.3 and ROCm 7.2.4; the
AMD SMI names the tables, hints and header use are declared by those
releases' amdsmi.h, and every name of CUDA 12.4's nvml.h has a row."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml
from conftest import REPO, run_cli
from toolchain_support import amd_compiler

from hip_smoke.toolchain import ToolchainError, find_cuda
from hipify_py import load_table
from hipify_py.engine.compat import HEADER, HEADER_FILE, NAMES_FILE, data

FIXTURE = REPO / "fixtures" / "270-nvml-monitoring-to-amd-smi"
PROGRAM = FIXTURE / "input.cpp"
NVML_TABLE = REPO / "mappings" / "nvml.yaml"
TOOLCHAINS = Path(os.environ.get("HIPIFY_PY_TOOLCHAIN_CACHE", "/var/cache/hipify-py"))
SMI_RELEASES = ("6.4", "7.2")


def translate(tmp_path: Path, source: str | bytes, *options: str) -> tuple[str, str]:
    """Translate ``source`` as unit.cpp into tmp_path/out: (output, stderr)."""
    (tmp_path / "in").mkdir(parents=True, exist_ok=True)
    unit = tmp_path / "in" / "unit.cpp"
    unit.write_bytes(source.encode() if isinstance(source, str) else source)
    done = run_cli(*options, str(unit), "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr.decode()
    return (tmp_path / "out" / "unit.cpp").read_text(), done.stderr.decode()


def codes(stderr: str) -> list[str]:
    return re.findall(r"\[(HPY\d{3})\]", stderr)


# ------------------------------------------------------------------ the data


def test_every_renamed_name_is_an_unsupported_nvml_row_with_an_amd_smi_hint() -> None:
    names = load_table().names
    assert data().renames, "compat.yaml has no renames"
    for name in data().renames:
        row = names[name]
        assert row.library == "nvml" and row.hip is None, name
        assert "amdsmi_" in row.hint, f"{name}: the hint names no AMD SMI call"


def test_the_header_defines_every_rename_target_in_its_nvml_part() -> None:
    text = HEADER_FILE.read_text(encoding="utf-8")
    part = text[text.index("#if defined(__AMDSMI_H__)") :]
    assert part.index("#endif  // NVML over AMD SMI") > 0
    for rename in data().renames.values():
        declared = rf"\b{rename.to}\s*\(|\}}\s*{rename.to}\s*;|struct\s+{rename.to}\s*\{{"
        assert re.search(declared, part), rename.to
    # after the include guard of the rest, so that an earlier include does not hide it
    assert text.index("#endif  // HIPIFY_PY_COMPAT_H") < text.index("#if defined(__AMDSMI_H__)")


def test_nvml_rows_name_amd_smi_or_nothing() -> None:
    raw = yaml.safe_load(NAMES_FILE.read_text(encoding="utf-8"))
    assert raw["renames"]["header"] == "amd_smi/amdsmi.h"
    # one release for all of it: the header, the mapped names and the renames
    table = load_table()
    header = table.headers["nvml.h"]
    assert (header.hip, header.hip_added, data().rename_since) == (
        "amd_smi/amdsmi.h",
        "6.4.0",
        "6.4.0",
    )
    for row in load_table().names.values():
        if row.library != "nvml":
            continue
        assert row.hip is None or re.match(r"(amdsmi_|AMDSMI_)", row.hip), row.cuda
        if row.hip:
            assert row.hip_added == "6.4.0", row.cuda
        else:
            assert row.hint, f"{row.cuda}: an unsupported NVML row says what to use"


# ------------------------------------------------------------------- the CLI


def test_the_monitoring_program_becomes_amd_smi_with_compat(tmp_path: Path) -> None:
    out, stderr = translate(tmp_path, PROGRAM.read_bytes(), "--compat", "--hip-version", "7.2")
    assert codes(stderr) == [], stderr
    assert out == (FIXTURE / "expected.cpp").read_text()
    assert '#include <amd_smi/amdsmi.h>\n#include "hipify_py_compat.h"\n' in out
    assert "nvml" not in re.sub(r"hipify_nvml_\w+", "", out).replace("NVML_CHECK", "")
    assert "amdsmi_init(AMDSMI_INIT_AMD_GPUS)" in out and "amdsmi_shut_down()" in out
    assert (tmp_path / "out" / HEADER).read_bytes() == HEADER_FILE.read_bytes()
    # translating the output again changes nothing
    again, _ = translate(tmp_path / "again", out, "--compat", "--hip-version", "7.2")
    assert again == out


def test_the_compat_include_follows_amdsmi_wherever_the_runtime_include_is(
    tmp_path: Path,
) -> None:
    """The NVML part of the header needs <amd_smi/amdsmi.h> first: a file whose
    runtime include comes before <nvml.h> (where --compat would otherwise put
    the header) gets it after the AMD SMI include instead."""
    source = (
        "#include <cuda_runtime.h>\n#include <cooperative_groups/reduce.h>\n#include <nvml.h>\n"
        "unsigned int n() { unsigned int c = 0; nvmlDeviceGetCount(&c); return c; }\n"
    )
    out, stderr = translate(tmp_path, source, "--compat", "--hip-version", "7.2")
    assert codes(stderr) == [], stderr
    lines = out.splitlines()
    smi = lines.index("#include <amd_smi/amdsmi.h>")
    assert lines[smi + 1] == '#include "hipify_py_compat.h"'
    # the earlier include (for cooperative_groups/reduce.h) stays; the second adds the NVML part
    assert out.count('#include "hipify_py_compat.h"') == 2
    assert "hipify_nvml_device_get_count(&c)" in out


def test_one_include_when_the_header_already_follows_amdsmi(tmp_path: Path) -> None:
    """<cooperative_groups/reduce.h> after <nvml.h> becomes the compat include,
    already after the AMD SMI one: no second include."""
    source = (
        "#include <nvml.h>\n#include <cooperative_groups/reduce.h>\n"
        "unsigned int n() { unsigned int c = 0; nvmlDeviceGetCount(&c); return c; }\n"
    )
    out, stderr = translate(tmp_path, source, "--compat", "--hip-version", "7.2")
    assert codes(stderr) == [], stderr
    assert out.startswith('#include <amd_smi/amdsmi.h>\n#include "hipify_py_compat.h"\n'), out
    assert out.count("hipify_py_compat.h") == 1


def test_a_file_using_nvml_without_including_it_gets_amdsmi_then_the_header(
    tmp_path: Path,
) -> None:
    source = (
        '#include "gpu_list.h"\nvoid f(nvmlDevice_t* d) { nvmlDeviceGetHandleByIndex(0, d); }\n'
        "struct nvmlMemory_st last;\n"
    )
    out, stderr = translate(tmp_path, source, "--compat", "--hip-version", "7.2")
    assert codes(stderr) == [], stderr
    assert out.index("#include <amd_smi/amdsmi.h>") < out.index('#include "hipify_py_compat.h"')
    assert (
        "void f(amdsmi_processor_handle* d) { hipify_nvml_device_get_handle_by_index(0, d); }"
        in out
    )
    assert "struct hipify_nvml_memory_st last;" in out  # the struct tag too


def test_without_compat_the_other_calls_are_reported_with_the_amd_smi_call(
    tmp_path: Path,
) -> None:
    out, stderr = translate(tmp_path, PROGRAM.read_bytes(), "--hip-version", "7.2")
    assert "#include <amd_smi/amdsmi.h>" in out and HEADER not in out
    assert "amdsmi_status_t status_ = (call);" in out  # mapped names still are
    assert "nvmlDeviceGetCount(&count)" in out
    assert set(codes(stderr)) == {"HPY101"}
    count = re.search(r"nvmlDeviceGetCount has no HIP equivalent.*\n\s+hint: (.*)", stderr)
    assert count is not None, stderr
    assert "pass --compat" in count.group(1)
    assert "amdsmi_get_socket_handles + amdsmi_get_processor_handles" in count.group(1)


def test_other_nvml_calls_name_the_amd_smi_call_and_unknown_names_are_reported(
    tmp_path: Path,
) -> None:
    source = (
        "#include <nvml.h>\n"
        "void f(nvmlDevice_t d, unsigned int* s, unsigned int* t) {\n"
        "    nvmlDeviceGetFanSpeed(d, s);\n"
        "    nvmlDeviceGetTemperatureThreshold(d, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, t);\n"
        "    nvmlDeviceGetSomethingNewer(d, NVML_NEWER_THAN_12_4);\n"
        "}\n"
    )
    out, stderr = translate(tmp_path, source, "--compat", "--hip-version", "7.2")
    assert "void f(amdsmi_processor_handle d" in out
    assert re.search(
        r"nvmlDeviceGetFanSpeed .*\[HPY101\]\n\s+hint: AMD SMI: amdsmi_get_gpu_fan_speed", stderr
    )
    assert re.search(
        r"nvmlDeviceGetTemperatureThreshold .*\[HPY101\]\n\s+hint: AMD SMI: amdsmi_get_temp_metric",
        stderr,
    )
    assert re.search(
        r"NVML_TEMPERATURE_THRESHOLD_SHUTDOWN .*\[HPY101\]\n\s+hint: AMD SMI: .*AMDSMI_TEMP_EMERGENCY",
        stderr,
    )
    # NVML names the tables do not list (newer than CUDA 12.4's nvml.h) are still reported
    for name in ("nvmlDeviceGetSomethingNewer", "NVML_NEWER_THAN_12_4"):
        assert re.search(rf"{name} looks like CUDA API.*\[HPY102\]", stderr), name


def test_below_hip_6_4_nvml_is_reported_with_the_rocm_smi_route(tmp_path: Path) -> None:
    out, stderr = translate(tmp_path, PROGRAM.read_bytes(), "--compat", "--hip-version", "5.7")
    assert out == PROGRAM.read_text()
    assert HEADER not in out
    assert set(codes(stderr)) == {"HPY103"}
    assert "<nvml.h> -> <amd_smi/amdsmi.h> needs HIP >= 6.4" in stderr
    assert re.search(r"nvmlDeviceGetCount -> hipify_nvml_device_get_count needs HIP >= 6.4", stderr)
    assert "ROCm SMI: rsmi_num_monitor_devices" in stderr
    assert "ROCm SMI (<rocm_smi/rocm_smi.h>): rsmi_init(0)" in stderr


def test_the_migration_report_says_to_pass_compat_for_the_reshaped_calls() -> None:
    import json

    done = run_cli("report", "--hip-version", "7.2", "--format", "json", str(PROGRAM))
    assert done.returncode in (0, 1), done.stderr.decode()
    blockers = {b["name"]: b for b in json.loads(done.stdout)["blockers"]}
    count = blockers["nvmlDeviceGetCount"]
    assert count["library"] == "nvml" and count["code"] == "HPY101"
    assert count["hint"].startswith("pass --compat")
    assert "amdsmi_get_socket_handles" in count["hint"]
    # with --compat nothing of NVML blocks
    done = run_cli("report", "--compat", "--hip-version", "7.2", "--format", "json", str(PROGRAM))
    assert [b for b in json.loads(done.stdout)["blockers"] if b["library"] == "nvml"] == []


# ----------------------------------------------------------- the real headers


def _amdsmi_header(release: str) -> Path:
    compiler = amd_compiler(release)
    found = [d / "amd_smi" / "amdsmi.h" for d in compiler.include_dirs]
    header = next((h for h in found if h.is_file()), None)
    assert header is not None, f"ROCm {release}: no amd_smi/amdsmi.h in {compiler.include_dirs}"
    return header


@pytest.mark.parametrize("release", SMI_RELEASES)
def test_every_amd_smi_name_used_is_declared_by_the_release(release: str) -> None:
    """The hints, the compat data and the header's NVML part name only what
    this release's amdsmi.h declares."""
    declared = set(re.findall(r"\b(?:amdsmi|AMDSMI)_\w+", _amdsmi_header(release).read_text()))
    header = HEADER_FILE.read_text(encoding="utf-8")
    used = set(re.findall(r"\b(?:amdsmi|AMDSMI)_\w+", NVML_TABLE.read_text()))
    used |= set(re.findall(r"\b(?:amdsmi|AMDSMI)_\w+", NAMES_FILE.read_text()))
    used |= set(re.findall(r"\b(?:amdsmi|AMDSMI)_\w+", header[header.index("__AMDSMI_H__") :]))
    assert used - declared == set()
    # the header's own guard turns the NVML part on
    assert "#define __AMDSMI_H__" in _amdsmi_header(release).read_text()


@pytest.mark.parametrize("release", SMI_RELEASES)
def test_the_translated_program_compiles_and_links_with_amd_smi(
    release: str, tmp_path: Path
) -> None:
    """Fixture 270 translated through the CLI for the release, compiled for
    gfx942 with its hipcc and linked with -lamd_smi."""
    compiler = amd_compiler(release)
    out, stderr = translate(tmp_path, PROGRAM.read_bytes(), "--compat", "--hip-version", release)
    assert codes(stderr) == [], stderr
    with compiler.workspace() as work:
        (work / HEADER).write_bytes((tmp_path / "out" / HEADER).read_bytes())
        (work / "monitor.cpp").write_text(out)
        done = compiler.run(
            ["--offload-arch=gfx942", "-x", "hip", "monitor.cpp", "-o", "monitor", "-lamd_smi"],
            cwd=work,
        )
        assert done.returncode == 0, done.stderr[-4000:]
        assert (work / "monitor").is_file()


def test_the_nvml_original_builds_with_nvcc_and_libnvidia_ml() -> None:
    """Fixture 270's input is real NVML code: nvcc 12.4 compiles it and links it
    against libnvidia-ml (CUDA 12.4's nvml.h and libnvidia-ml-dev)."""
    try:
        nvcc = find_cuda()
    except ToolchainError as exc:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    with nvcc.workspace() as work:
        (work / "monitor.cpp").write_bytes(PROGRAM.read_bytes())
        done = nvcc.run(["monitor.cpp", "-o", "monitor", "-lnvidia-ml"], cwd=work)
        assert done.returncode == 0, done.stderr[-4000:]
        assert (work / "monitor").is_file()


def test_hip_5_7_has_no_amd_smi() -> None:
    """Why HIP 5.7 reports NVML: Debian 13's HIP 5.7.1 root has no AMD SMI."""
    compiler = amd_compiler("5.7")
    assert not any((d / "amd_smi" / "amdsmi.h").is_file() for d in compiler.include_dirs)


def test_every_nvml_name_of_cuda_12_4_has_a_row() -> None:
    nvml = TOOLCHAINS / "trixie-nvidia" / "usr" / "include" / "nvml.h"
    cuda = os.environ.get("HIPIFY_PY_CUDA_INCLUDE", "")
    listed = [Path(p) for p in cuda.split(os.pathsep) if p.endswith("nvml.h")]
    nvml = listed[0] if listed else nvml
    if not nvml.is_file():
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(f"{nvml}: no CUDA 12.4 nvml.h (provision.sh nvidia)")
        pytest.skip(f"{nvml}: no CUDA 12.4 nvml.h (provision.sh nvidia)")
    text = nvml.read_text()
    functions = set(re.findall(r"DECLDIR\s+(?:char\s*\*\s*)?(nvml\w+)\s*\(", text))
    assert len(functions) > 300
    code = re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))
    declared = set(re.findall(r"\b(?:nvml|NVML_)\w+", code))
    assert len(declared) > 1200
    names = load_table().names
    # what the header spells but does not declare: the build switches a user
    # defines, token-pasting fragments, a struct member
    switches = {"NVML_NO_UNVERSIONED_FUNC_DEFS", "NVML_LIB_EXPORT", "NVML_STATIC_IMPORT"}
    switches |= {"NVML_GPU_FABRIC_HEALTH_MASK", "NVML_GPU_FABRIC_HEALTH_MASK_SHIFT"}
    switches |= {"NVML_GPU_FABRIC_HEALTH_MASK_WIDTH", "nvmlReturn"}
    missing = sorted(n for n in declared - switches if n not in names or names[n].library != "nvml")
    assert missing == []
