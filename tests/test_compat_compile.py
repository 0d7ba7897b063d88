"""hipify_py_compat.h compiles with every release CI provisions, for gfx942,
and as HIP on NVIDIA (where CUDA's own functions are used and the namespace
bodies are compiled too), with a program that uses every function
(tests/data/compat/uses_every_function.hip).  The names it provides are
absent from each release's HIP headers (nothing collides).  Skipped without
the toolchains, failed in CI (HIPIFY_PY_REQUIRE_TOOLCHAIN=1)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import run_cli
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.toolchain import Compiler, ToolchainError, find_nvidia
from hipify_py.engine.compat import HEADER, HEADER_FILE, data

PROGRAM = Path(__file__).resolve().parent / "data" / "compat" / "uses_every_function.hip"
# the GPU equality program: plain CUDA that calls every provided function
EQUALITY = (
    Path(__file__).resolve().parent.parent / "benchmarks" / "compat_equality" / "compat_equality.cu"
)


def nvidia() -> Compiler:
    try:
        return find_nvidia()
    except ToolchainError as exc:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))


def build(compiler: Compiler, args: list[str], program: Path = PROGRAM) -> str:
    with compiler.workspace() as work:
        (work / HEADER).write_bytes(HEADER_FILE.read_bytes())
        (work / "unit.hip").write_bytes(program.read_bytes())
        done = compiler.run([*args, "unit.hip", "-o", "unit.o"], cwd=work)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stderr


@pytest.mark.parametrize("release", CI_RELEASES)
def test_every_function_compiles_for_gfx942(release: str) -> None:
    build(amd_compiler(release), ["--offload-arch=gfx942", "-x", "hip", "-c"])


@pytest.mark.parametrize("release", CI_RELEASES)
def test_a_ports_own_definitions_do_not_collide(release: str) -> None:
    """A project's own umin / __vsub4 / __vsubss4 (a HIP port's shim) next
    to the header: the header's exports are templates, the project's win."""
    build(
        amd_compiler(release),
        ["--offload-arch=gfx942", "-x", "hip", "-c"],
        PROGRAM.with_name("own_definitions.hip"),
    )


def test_every_function_compiles_as_hip_on_nvidia() -> None:
    build(nvidia(), ["-x", "cu", "-c"])


def test_the_program_uses_every_name_the_header_provides() -> None:
    program = PROGRAM.read_text(encoding="utf-8")
    used = set(re.findall(r"\bTWO\((\w+)\)", program))
    used |= {f"{n}{w}" for n in re.findall(r"\bONE\((\w+)\)", program) for w in "24"}
    used |= {f"{n}{w}" for n in set(re.findall(r"\bTWO\((\w+)\)", program)) for w in "24"}
    used |= set(re.findall(r"\b(\w+)\(", program))
    provided = set(data().names) | set(data().also_for_types)
    missing = sorted(provided - used)
    assert missing == []


@pytest.mark.parametrize("release", CI_RELEASES)
def test_no_provided_name_is_declared_by_hip(release: str) -> None:
    compiler = amd_compiler(release)
    hip = next(d / "hip" for d in compiler.include_dirs if (d / "hip").is_dir())
    text = "\n".join(
        p.read_text(encoding="utf-8", errors="replace") for p in hip.rglob("*.h*") if p.is_file()
    )
    declared = [n for n in data().names if re.search(rf"\b{re.escape(n)}\s*\(", text)]
    assert declared == []
    # the ones it has for some types: only __half / __half2 overloads
    for name in data().also_for_types:
        kinds = set(re.findall(rf"\b{name}\s*\(\s*const\s+(\w+)\s*\*", text))
        assert kinds <= {"__half", "__half2"}, (name, kinds)


@pytest.mark.parametrize("release", CI_RELEASES)
def test_the_translated_equality_program_compiles_for_gfx942(release: str, tmp_path: Path) -> None:
    """benchmarks/compat_equality's CUDA program, translated with --compat
    through the CLI, builds for gfx942: every call resolves to the header."""
    compiler = amd_compiler(release)
    done = run_cli("--compat", "--hip-version", release, str(EQUALITY), "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert b"HPY101" not in done.stderr and b"HPY201" not in done.stderr
    translated = (tmp_path / EQUALITY.name).read_bytes()
    assert b'#include "hipify_py_compat.h"' in translated
    with compiler.workspace() as work:
        (work / HEADER).write_bytes((tmp_path / HEADER).read_bytes())
        (work / "unit.hip").write_bytes(translated)
        built = compiler.run(
            ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
        )
    assert built.returncode == 0, built.stderr[-4000:]
