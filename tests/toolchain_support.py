"""The real hipcc for gfx942, for tests that compile (see docs/smoke.md).

In CI (.ci/run sets HIPIFY_PY_REQUIRE_TOOLCHAIN=1) a missing toolchain fails
the tests; on a developer machine without one they are skipped with the way to
provision it.
"""

from __future__ import annotations

import os

import pytest

from hip_smoke.toolchain import Compiler, ToolchainError, find_amd


def amd_compiler() -> Compiler:
    try:
        return find_amd()
    except ToolchainError as exc:
        message = f"{exc} (provision: sudo python -m hip_smoke --provision amd)"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)
