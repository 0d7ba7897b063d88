"""--compat through the real CLI: which names hipify_py_compat.h provides
(data/compat.yaml), the include and its relative path from each file (in
place, -o, nested folders, --stdout), the header written once, idempotence,
and the hint to pass --compat when it is not given."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from conftest import run_cli

from hipify_py import load_table
from hipify_py.engine.compat import HEADER, HEADER_FILE, NAMES_FILE, data

KERNEL = b"""#include <cuda_runtime.h>
__global__ void k(unsigned int* u, float4* f) {
    u[0] = __vsub4(u[1], u[2]) + umin(u[3], u[4]);
    __stcs(f, __ldcs(f + 1));
}
"""
HELPER = b"""#pragma once
__device__ inline unsigned int ne(unsigned int a, unsigned int b) { return __vcmpne4(a, b); }
"""
TILES = b"""#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void r(float* x) {
    auto t = cg::tiled_partition<32>(cg::this_thread_block());
    x[0] = cg::reduce(t, x[threadIdx.x], cg::plus<float>());
}
"""


def make_tree(root: Path) -> None:
    (root / "deep" / "er").mkdir(parents=True)
    (root / "top.cu").write_bytes(KERNEL)
    (root / "deep" / "er" / "helper.cuh").write_bytes(HELPER)
    (root / "deep" / "tiles.cu").write_bytes(TILES)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_every_compat_name_is_one_the_tables_call_unsupported() -> None:
    names = load_table().names
    for name in data().names:
        assert name in names, name
        assert names[name].hip is None, f"{name}: the tables map it; the header must not"
    for name in data().also_for_types:
        assert names[name].hip == name, name


def test_every_compat_name_is_exported_by_the_header() -> None:
    text = HEADER_FILE.read_text(encoding="utf-8")
    exported = set(re.findall(r"^HIPIFY_PY_COMPAT_EXPORT_\w+\((\w+)", text, re.MULTILINE))
    for pair in re.findall(r"^HIPIFY_PY_COMPAT_EXPORT[12]\((\w+)\)", text, re.MULTILINE):
        exported |= {pair + "2", pair + "4"}
    assert set(data().names) | set(data().also_for_types) <= exported


def test_in_place_nested_tree_includes_by_relative_paths_and_writes_the_header_once(
    tmp_path: Path,
) -> None:
    make_tree(tmp_path)
    done = run_cli("--compat", "--hip-version", "7.2", str(tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / HEADER).read_bytes() == HEADER_FILE.read_bytes()
    assert f"wrote {tmp_path / HEADER}".encode() in done.stderr
    top = (tmp_path / "top.cu").read_text()
    assert '#include "hipify_py_compat.h"' in top
    assert "__vsub4(u[1], u[2]) + umin(u[3], u[4])" in top
    helper = (tmp_path / "deep" / "er" / "helper.cuh").read_text()
    assert '#include "../../hipify_py_compat.h"' in helper
    tiles = (tmp_path / "deep" / "tiles.cu").read_text()
    assert "cooperative_groups/reduce.h" not in tiles
    assert tiles.count('#include "../hipify_py_compat.h"') == 1
    assert b"HPY101" not in done.stderr and b"HPY201" not in done.stderr
    # a second run (with or without --compat) changes nothing: the header is
    # not translated, the includes are there already
    before = snapshot(tmp_path)
    for extra in (["--compat"], []):
        again = run_cli(*extra, "--hip-version", "7.2", str(tmp_path))
        assert again.returncode == 0, again.stderr.decode()
        assert snapshot(tmp_path) == before
        assert b"HPY101" not in again.stderr
        assert b"wrote" not in again.stderr


def test_output_dir_gets_the_header_at_its_root(tmp_path: Path) -> None:
    source = tmp_path / "src"
    make_tree(source)
    original = snapshot(source)
    out = tmp_path / "out"
    done = run_cli("--compat", "--hip-version", "5.7", str(source), "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    assert snapshot(source) == original  # the input is never written
    assert (out / HEADER).read_bytes() == HEADER_FILE.read_bytes()
    assert '#include "../../hipify_py_compat.h"' in (out / "deep/er/helper.cuh").read_text()
    assert '#include "../hipify_py_compat.h"' in (out / "deep/tiles.cu").read_text()
    assert '#include "hipify_py_compat.h"' in (out / "top.cu").read_text()
    translated = snapshot(out)
    again = run_cli("--compat", "--hip-version", "5.7", str(source), "-o", str(out))
    assert again.returncode == 0 and snapshot(out) == translated


def test_one_file_in_place_puts_the_header_next_to_it(tmp_path: Path) -> None:
    make_tree(tmp_path)
    helper = tmp_path / "deep" / "er" / "helper.cuh"
    done = run_cli("--compat", str(helper))
    assert done.returncode == 0, done.stderr.decode()
    assert (helper.parent / HEADER).is_file()
    assert not (tmp_path / HEADER).exists()
    assert '#include "hipify_py_compat.h"' in helper.read_text()


def test_a_file_without_compat_names_gets_no_include_and_no_header(tmp_path: Path) -> None:
    (tmp_path / "plain.cu").write_bytes(b"__global__ void k(int* p) { p[0] = 1; }\n")
    done = run_cli("--compat", str(tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert HEADER not in (tmp_path / "plain.cu").read_text()
    assert not (tmp_path / HEADER).exists()


def test_stdout_includes_the_plain_name_and_says_how_to_get_the_header(tmp_path: Path) -> None:
    make_tree(tmp_path)
    done = run_cli("--compat", "--stdout", str(tmp_path / "deep" / "er" / "helper.cuh"))
    assert done.returncode == 0, done.stderr.decode()
    assert b'#include "hipify_py_compat.h"' in done.stdout
    assert b"hipify-py compat-header > hipify_py_compat.h" in done.stderr
    assert not (tmp_path / HEADER).exists()


def test_compat_header_command_prints_the_shipped_header() -> None:
    done = run_cli("compat-header")
    assert done.returncode == 0
    assert done.stdout == HEADER_FILE.read_bytes()


def test_without_compat_the_sites_stay_errors_with_the_hint(tmp_path: Path) -> None:
    make_tree(tmp_path)
    done = run_cli("--hip-version", "7.2", str(tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    text = done.stderr.decode()
    hint = yaml.safe_load(NAMES_FILE.read_text(encoding="utf-8"))["hint"]
    for name in ("__vsub4", "umin", "__vcmpne4", "__stcs"):
        line = next(ln for ln in text.splitlines() if f" {name} has no HIP equivalent" in ln)
        assert "[HPY101]" in line
    assert "<cooperative_groups/reduce.h> has no HIP counterpart" in text
    assert text.count(f"hint: {hint}") == 5  # 4 names and the header
    assert not (tmp_path / HEADER).exists()


def test_check_and_the_config_key(tmp_path: Path) -> None:
    make_tree(tmp_path)
    plain = run_cli("check", str(tmp_path))
    assert b"HPY101" in plain.stdout + plain.stderr
    with_flag = run_cli("check", "--compat", str(tmp_path))
    assert b"HPY101" not in with_flag.stdout + with_flag.stderr
    assert b"HPY201" not in with_flag.stdout + with_flag.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.hipify-py]\ncompat = true\n")
    configured = run_cli("check", str(tmp_path))
    assert b"HPY101" not in configured.stdout + configured.stderr
    report = json.loads(run_cli("report", "--format", "json", str(tmp_path)).stdout)
    assert report["totals"]["unsupported_apis"] == 0
    assert report["blockers"] == []
    (tmp_path / "pyproject.toml").unlink()
    report = json.loads(run_cli("report", "--format", "json", str(tmp_path)).stdout)
    blockers = {b["name"]: b["hint"] for b in report["blockers"]}
    assert set(blockers) == {
        "__vsub4",
        "umin",
        "__vcmpne4",
        "__stcs",
        "<cooperative_groups/reduce.h>",
    }
    assert all(hint.startswith("pass --compat") for hint in blockers.values()), blockers


def test_stdin_gets_the_plain_include_and_the_note() -> None:
    source = b"__global__ void k(unsigned int* u) { u[0] = __vsub4(u[1], u[2]); }\n"
    done = run_cli("--compat", "-", input=source)
    assert done.returncode == 0, done.stderr.decode()
    assert b'#include "hipify_py_compat.h"\n' in done.stdout
    assert b"hipify-py compat-header > hipify_py_compat.h" in done.stderr
    plain = run_cli("-", input=source)
    assert b"hipify_py_compat.h" not in plain.stdout
    assert b"[HPY101]" in plain.stderr


def test_diff_writes_nothing_and_names_where_the_header_belongs(tmp_path: Path) -> None:
    make_tree(tmp_path)
    before = snapshot(tmp_path)
    done = run_cli("--compat", "--diff", str(tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert snapshot(tmp_path) == before
    assert b'+#include "../../hipify_py_compat.h"' in done.stdout
    assert f"hipify-py compat-header > {tmp_path / HEADER}".encode() in done.stderr
