"""Shared test helpers: the real CLI, in a subprocess or in-process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every test session gets its own table cache, so tests never depend on a
    # cache left by an earlier run (and never write into the user's home)
    cache = tmp_path_factory.getbasetemp() / "hipify-cache"
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(cache))


def run_cli(
    *args: str,
    cwd: Path | None = None,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m hipify_py`` for real and capture its output."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.setdefault("COLUMNS", "120")
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "hipify_py", *args],
        cwd=cwd,
        input=input,
        capture_output=True,
        env=full_env,
        timeout=300,
    )
