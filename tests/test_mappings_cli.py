"""`hipify-py mappings verify|query|stats|docs` through the real CLI (subprocesses),
the docs staleness check, and verify against the real HIP 5.7.1 / CUDA 12.4 headers."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_cli
from verify_tree import make_tree


def out(result: subprocess.CompletedProcess[bytes]) -> str:
    return result.stdout.decode()


def err(result: subprocess.CompletedProcess[bytes]) -> str:
    return result.stderr.decode()


# --------------------------------------------------------------------------- verify


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return make_tree(tmp_path_factory.mktemp("cli-verify"))


def test_verify_text_lists_failures_and_exits_1(tree: tuple[Path, Path, Path]) -> None:
    hip, cuda, mappings = tree
    result = run_cli(
        "mappings",
        "verify",
        "--hip-include",
        str(hip),
        "--cuda-include",
        str(cuda),
        "--mappings",
        str(mappings),
        cwd=mappings.parent,
    )
    assert result.returncode == 1, err(result)
    text = out(result)
    assert "HIP names (hip)" in text and "CUDA names" in text
    assert "mappings/runtime.yaml:24: cudaWrong -> hipWrong: not declared in HIP headers" in text
    assert "mappings/runtime.yaml:31: cudaNotInCuda: not declared in CUDA headers" in text
    assert "dnn: skipped: hipdnn headers not available (hipdnn.h): 1 rows" in text


def test_verify_json_and_library_filter(tree: tuple[Path, Path, Path]) -> None:
    hip, _, mappings = tree
    # one option value may hold several paths, as the environment variables do
    both = os.pathsep.join([str(hip / "hip"), str(hip / "hipblas")])
    result = run_cli(
        "mappings",
        "verify",
        "--hip-include",
        both,
        "--library",
        "blas",
        "--format",
        "json",
        "--mappings",
        str(mappings),
    )
    assert result.returncode == 0, out(result) + err(result)
    doc = json.loads(out(result))
    assert doc["ok"] is True
    assert doc["cuda_headers"] is None
    assert set(doc["summary"]["hip"]) == {"blas"}
    assert doc["summary"]["hip"]["blas"] == {
        "checked": 2,
        "ok": 1,
        "failed": 0,
        "newer": 1,
        "removed": 0,
        "skipped": 1,
    }
    assert doc["release_notes"] == ["hipblas 0.54.0 is ROCm 5.5.1"]


def test_verify_usage_errors_exit_2(tree: tuple[Path, Path, Path]) -> None:
    hip, _, mappings = tree
    missing = run_cli("mappings", "verify", "--hip-include", str(hip / "nope"))
    assert missing.returncode == 2
    assert "no such file or folder" in err(missing)
    assert run_cli("mappings", "verify").returncode == 2  # --hip-include is required
    unknown = run_cli(
        "mappings",
        "verify",
        "--hip-include",
        str(hip),
        "--library",
        "nope",
        "--mappings",
        str(mappings),
    )
    assert unknown.returncode == 2
    assert "unknown library: nope" in err(unknown)


# --------------------------------------------------------------------------- query


def test_query_supported_name() -> None:
    result = run_cli("mappings", "query", "cudaMalloc")
    assert result.returncode == 0, err(result)
    text = out(result)
    assert "CUDA API:      cudaMalloc" in text
    assert "Migrated to:   hipMalloc" in text
    assert "Status:        supported" in text
    assert "Defined at:    " in text and "runtime.yaml:" in text


def test_query_unsupported_name() -> None:
    result = run_cli("mappings", "query", "cudaInitDevice")
    assert result.returncode == 0, err(result)
    text = out(result)
    assert "Migrated to:   (nothing)" in text
    assert "unsupported: no HIP equivalent" in text
    assert "CUDA versions: added 12.0" in text


def test_query_unknown_name_suggests_and_exits_1() -> None:
    result = run_cli("mappings", "query", "cudaMallocc")
    assert result.returncode == 1
    assert out(result) == ""
    message = err(result)
    assert "cudaMallocc: not a CUDA, HIP or ROC name" in message
    assert "did you mean: cudaMalloc" in message
    bare = run_cli("mappings", "query", "zzzzqqqq")
    assert bare.returncode == 1
    assert "did you mean" not in err(bare)


def test_query_hip_name_header_and_json() -> None:
    reverse = run_cli("mappings", "query", "hipMalloc")
    assert reverse.returncode == 0
    assert "CUDA API:      cudaMalloc" in out(reverse)
    header = run_cli("mappings", "query", "cublas_v2.h")
    assert header.returncode == 0
    assert "HIP header:    hipblas/hipblas.h" in out(header)
    doc = json.loads(out(run_cli("mappings", "query", "cudaMalloc", "--json")))
    (row,) = doc["rows"]
    assert row["hip"] == "hipMalloc" and row["status"] == "supported"


# --------------------------------------------------------------------------- stats


def test_stats_text_and_json() -> None:
    from hipify_py.tables.cache import load_table

    table = load_table()
    text = run_cli("mappings", "stats")
    assert text.returncode == 0
    lines = out(text).splitlines()
    assert lines[0].split() == [
        "library",
        "rows",
        "supported",
        "deprecated",
        "removed",
        "experimental",
        "unsupported",
        "roc",
    ]
    total = next(line for line in lines if line.startswith("total")).split()
    assert int(total[1]) == len(table.names)
    doc = json.loads(out(run_cli("mappings", "stats", "--json")))
    assert doc["total"]["rows"] == len(table.names)
    runtime = doc["libraries"]["runtime"]
    assert runtime["rows"] == sum(1 for r in table.names.values() if r.library == "runtime")
    statuses = ("supported", "deprecated", "removed", "experimental", "unsupported")
    assert sum(runtime[s] for s in statuses) == runtime["rows"]


# --------------------------------------------------------------------------- docs


def test_docs_are_up_to_date(tmp_path: Path) -> None:
    """docs/supported-apis/ is what `hipify-py mappings docs` writes: regenerate it
    after changing mappings/*.yaml."""
    fresh = tmp_path / "docs"
    result = run_cli("mappings", "docs", "--out", str(fresh))
    assert result.returncode == 0, err(result)
    committed = REPO / "docs" / "supported-apis"
    want = {p.name: p.read_text() for p in fresh.glob("*.md")}
    have = {p.name: p.read_text() for p in committed.glob("*.md")}
    stale = sorted(n for n in want.keys() | have.keys() if want.get(n) != have.get(n))
    assert not stale, f"stale docs/supported-apis/ files {stale}: run `hipify-py mappings docs`"


def test_docs_check_mode(tmp_path: Path) -> None:
    target = tmp_path / "docs"
    assert run_cli("mappings", "docs", "--out", str(target), "--check").returncode == 1
    assert run_cli("mappings", "docs", "--out", str(target)).returncode == 0
    assert (target / "README.md").is_file() and (target / "runtime.md").is_file()
    assert run_cli("mappings", "docs", "--out", str(target), "--check").returncode == 0
    (target / "runtime.md").write_text("edited\n")
    (target / "stray.md").write_text("old page\n")
    stale = run_cli("mappings", "docs", "--out", str(target), "--check")
    assert stale.returncode == 1
    assert "runtime.md: stale" in err(stale) and "stray.md: stale" in err(stale)
    assert run_cli("mappings", "docs", "--out", str(target)).returncode == 0
    assert not (target / "stray.md").exists()


def test_docs_pages_list_every_row() -> None:
    from hipify_py.tables.cache import load_table
    from hipify_py.tables.docs import generate

    table = load_table()
    pages = generate(table)
    runtime = pages["runtime.md"]
    assert "| `cudaMalloc` | `hipMalloc` |" in runtime
    rows = sum(1 for line in runtime.splitlines() if line.startswith("| `"))
    assert rows == sum(1 for r in table.names.values() if r.library == "runtime")
    assert "cublas_v2.h" in pages["headers.md"]


# --------------------------------------------------------------------------- real headers

HIP_ENV, CUDA_ENV, REQUIRE_ENV = (
    "HIPIFY_PY_HIP_INCLUDE",
    "HIPIFY_PY_CUDA_INCLUDE",
    "HIPIFY_PY_REQUIRE_TOOLCHAIN",
)
PROVISION = (
    "provision them as root with hip_smoke/toolchain/provision.sh amd|nvidia, then export "
    f"{HIP_ENV}=$(hip_smoke/toolchain/include_paths.sh amd ROOT) and "
    f"{CUDA_ENV}=$(hip_smoke/toolchain/include_paths.sh nvidia ROOT)"
)


def _real_paths() -> tuple[str, str]:
    hip, cuda = os.environ.get(HIP_ENV, ""), os.environ.get(CUDA_ENV, "")
    if not (hip and cuda):
        message = f"{HIP_ENV} / {CUDA_ENV} not set: the real HIP 5.7.1 / CUDA 12.4 headers; "
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(message + PROVISION)
        pytest.skip(message + PROVISION)
    return hip, cuda


# The HIP releases the tables are verified against, each from its own root
# (hip_smoke/toolchain/provision.sh amd-X.Y): the variable holding its header
# paths (include_paths.sh amd-X.Y ROOT).
RELEASE_ENVS = {
    "5.7": HIP_ENV,
    "6.4": "HIPIFY_PY_HIP_INCLUDE_6_4",
    "7.2": "HIPIFY_PY_HIP_INCLUDE_7_2",
}


@pytest.mark.parametrize("release", sorted(RELEASE_ENVS))
def test_every_name_emitted_for_a_release_is_declared_by_it(release: str) -> None:
    """For each HIP release: every name the tables emit when targeting it (the
    newer_hip / older_hip of rows whose names changed) is declared by its headers."""
    hip, cuda = os.environ.get(RELEASE_ENVS[release], ""), os.environ.get(CUDA_ENV, "")
    if not (hip and cuda):
        message = (
            f"{RELEASE_ENVS[release]} / {CUDA_ENV} not set: the real HIP {release} / CUDA 12.4 "
            f"headers; provision them with hip_smoke/toolchain/provision.sh amd-{release}"
        )
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(message)
        pytest.skip(message)
    result = run_cli(
        "mappings", "verify", "--hip-include", hip, "--cuda-include", cuda, "--format", "json"
    )
    doc = json.loads(out(result))
    assert doc["hip_headers"]["version"].startswith(release + "."), doc["hip_headers"]["version"]
    assert doc["summary"]["hip"]["runtime"]["ok"] > 500  # the scan found the runtime
    failures = "\n".join(
        f"{f['origin']}: {f['cuda']} -> {f['name']} ({f['side']}): {f['detail']}"
        for f in doc["failures"]
    )
    assert result.returncode == 0 and not doc["failures"], (
        f"HIP {release}: {len(doc['failures'])} emitted names are not declared:\n{failures}"
    )


def test_tables_verify_against_the_real_headers() -> None:
    """A row naming something HIP 5.7.1 / CUDA 12.4 do not declare fails here."""
    hip, cuda = _real_paths()
    result = run_cli(
        "mappings", "verify", "--hip-include", hip, "--cuda-include", cuda, "--format", "json"
    )
    assert result.returncode in (0, 1), err(result)
    doc = json.loads(out(result))
    assert doc["hip_headers"]["version"].startswith("5.7.")
    assert doc["cuda_headers"]["version"] == "12.4"
    summary = doc["summary"]
    assert summary["hip"]["runtime"]["ok"] > 500  # the scan found the runtime
    assert summary["cuda"]["runtime"]["ok"] > 500
    assert summary["hip"]["dnn"]["checked"] == 0  # hipDNN is not packaged: skipped
    failures = "\n".join(
        f"{f['origin']}: {f['cuda']} -> {f['name']} ({f['side']}): {f['detail']}"
        for f in doc["failures"]
    )
    assert result.returncode == 0 and not doc["failures"], (
        f"{len(doc['failures'])} rows name what the real headers do not declare:\n{failures}"
    )
