"""The compiled-table cache is shared by every installation that uses the same
cache folder; what it serves must still name this installation's files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO, run_cli


def _install(where: Path) -> Path:
    """A copy of the package and its mappings folder (a second virtualenv)."""
    shutil.copytree(
        REPO / "hipify_py", where / "hipify_py", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(REPO / "mappings", where / "mappings")
    return where


def _defined_at(done_stdout: bytes) -> str:
    lines = [line for line in done_stdout.decode().splitlines() if line.startswith("Defined at:")]
    assert lines, done_stdout.decode()
    return lines[0].split(":", 1)[1].strip()


def test_query_names_this_installations_file_not_the_one_that_built_the_cache(
    tmp_path: Path,
) -> None:
    first, second = _install(tmp_path / "first"), _install(tmp_path / "second")
    cache = tmp_path / "cache"
    elsewhere = tmp_path / "cwd"  # below neither copy: paths are printed whole
    elsewhere.mkdir()
    for install in (first, second):
        env = {"PYTHONPATH": str(install), "HIPIFY_PY_CACHE_DIR": str(cache)}
        done = run_cli("mappings", "query", "cudaMalloc", cwd=elsewhere, env=env)
        assert done.returncode == 0, done.stderr.decode()
        where = _defined_at(done.stdout)
        assert where.startswith(str(install / "mappings") + "/"), where
        assert Path(where.rpartition(":")[0]).is_file()
        as_json = run_cli("mappings", "query", "cudaMalloc", "--json", cwd=elsewhere, env=env)
        origin = json.loads(as_json.stdout)["rows"][0]["origin"]
        assert origin.startswith(str(install / "mappings") + "/"), origin
    assert list(cache.glob("table-*.pickle"))  # the cache was there to be (mis)used


def test_query_names_the_mappings_dir_given(tmp_path: Path) -> None:
    """--mappings-dir: two copies of one folder, one cache."""
    cache = tmp_path / "cache"
    for name in ("a", "b"):
        copy = tmp_path / name
        shutil.copytree(REPO / "mappings", copy)
        done = run_cli(
            "mappings",
            "query",
            "cudaMalloc",
            "--mappings",
            str(copy),
            cwd=tmp_path,
            env={"HIPIFY_PY_CACHE_DIR": str(cache)},
        )
        assert done.returncode == 0, done.stderr.decode()
        # below the current folder: shown relative to it
        where = _defined_at(done.stdout)
        assert where.startswith(f"{name}/runtime"), where
