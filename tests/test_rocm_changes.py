"""ROCm 6 / 7 source-level changes, per target release (the compile proofs
with each release's hipcc: test_rocm_changes_compile.py)."""

from __future__ import annotations

import pytest

from hipify_py import translate


def diagnostics(source: str, release: str) -> list[tuple[str, int, int, str]]:
    """(code, line, column, message) of what translating ``source`` reports."""
    result = translate(source, hip_version=release, insert_runtime_include=False)
    return [(d.code, d.line, d.column, d.message) for d in result.diagnostics]


def output(source: str, release: str) -> str:
    text = translate(source, hip_version=release, insert_runtime_include=False).text
    assert isinstance(text, str)
    return text


def codes(source: str, release: str) -> list[str]:
    return [d[0] for d in diagnostics(source, release)]


# a CUDA file with a HIP branch written for HIP 5 (gcnArch is HIP's only)
GCN_ARCH = """#include <cuda_runtime.h>
int arch(const cudaDeviceProp& p)
{
#if defined(__HIP_PLATFORM_AMD__)
    return p.gcnArch;
#else
    return p.major * 10 + p.minor;
#endif
}
"""


@pytest.mark.parametrize(("release", "expected"), [("5.7", []), ("6.4", ["HPY452"]), ("7.2", ["HPY452"])])
def test_gcn_arch_is_reported_from_hip_6(release: str, expected: list[str]) -> None:
    found = [d for d in diagnostics(GCN_ARCH, release) if d[0] == "HPY452"]
    assert [d[0] for d in found] == expected
    if found:
        assert found[0][1:3] == (5, 14) and "HIP 6.0 removed it" in found[0][3]
