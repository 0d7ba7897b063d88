"""The real hipcc for gfx942, for tests that compile (see docs/smoke.md).

In CI (.ci/run sets HIPIFY_PY_REQUIRE_TOOLCHAIN=1) a missing toolchain fails
the tests; on a developer machine without one they are skipped with the way to
provision it.
"""

from __future__ import annotations

import os

import pytest

from hip_smoke.toolchain import Compiler, ToolchainError, find_amd

# the ROCm releases CI provisions and compiles with (.ci/run); 6.4 is
# provisioned for `mappings verify` only, its smoke table is in docs/smoke.md
CI_RELEASES = ("7.2", "5.7")


def amd_compiler(release: str | None = None) -> Compiler:
    """The first hipcc found, or (``release``) the one of that ROCm release."""
    try:
        return find_amd(release=release)
    except ToolchainError as exc:
        platform = "amd" if release is None else f"amd-{release}"
        message = f"{exc} (provision: sudo python -m hip_smoke --provision {platform})"
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(message)
        pytest.skip(message)
