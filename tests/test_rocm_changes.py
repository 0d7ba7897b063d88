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


@pytest.mark.parametrize(
    ("release", "expected"), [("5.7", []), ("6.4", ["HPY452"]), ("7.2", ["HPY452"])]
)
def test_gcn_arch_is_reported_from_hip_6(release: str, expected: list[str]) -> None:
    found = [d for d in diagnostics(GCN_ARCH, release) if d[0] == "HPY452"]
    assert [d[0] for d in found] == expected
    if found:
        assert found[0][1:3] == (5, 14) and "HIP 6.0 removed it" in found[0][3]


# ------------------------------------------------------------ e) string.h

RUNTIME = "#include <cuda_runtime.h>\n"


@pytest.mark.parametrize(
    ("body", "header"),
    [
        ("void f(char* a) { memcpy(a, a + 1, 1); }\n", "string.h"),
        ("#define CLEAR(p) memset((p), 0, 4)\n", "string.h"),
    ],
)
def test_the_header_a_call_needs_is_added_from_hip_7(body: str, header: str) -> None:
    for release in ("5.7", "6.4"):
        assert f"<{header}>" not in output(RUNTIME + body, release)
        assert "HPY203" not in codes(RUNTIME + body, release)
    text = output(RUNTIME + body, "7.2")
    assert text.startswith(f"#include <hip/hip_runtime.h>\n#include <{header}>\n"), text
    (note,) = [d for d in diagnostics(RUNTIME + body, "7.2") if d[0] == "HPY203"]
    assert f"<{header}>" in note[3] and "HIP 7.2.4's" in note[3]


@pytest.mark.parametrize(
    "body",
    [
        "struct B { void memset(int v); };\nvoid f(B& b) { b.memset(0); }\n",  # members
        "struct B { void memcpy(); };\n",  # a declaration of that name
        '// memcpy(a, b, n) in a comment\nconst char* s = "strlen(x)";\n',
        "#include <cstring>\nvoid f(char* a) { memcpy(a, a + 1, 1); }\n",
        "#include <string.h>\nvoid f(char* a) { std::memcpy(a, a + 1, 1); }\n",
        # CUDA's runtime header gives ::memcpy, not std::memcpy (nvcc 12.4 rejects
        # this; data/host_surface.yaml): nothing the CUDA code relied on
        "void f(char* a) { std::memcpy(a, a + 1, 1); }\n",
        # HIP declares its own for device code
        "__global__ void k(char* a) { memcpy(a, a + 1, 1); }\n",
        "__global__ void k(int n) { assert(n > 0); }\n",  # nvcc has no assert without <cassert>
    ],
)
def test_no_header_without_a_call_that_needs_one(body: str) -> None:
    assert "HPY203" not in codes(RUNTIME + body, "7.2")


# ------------------------------------------------------------ c) [[nodiscard]] hipError_t


def test_dropped_hip_errors_are_one_note_per_file_for_every_release() -> None:
    source = RUNTIME + (
        "#define CHECK(x) do { if ((x) != cudaSuccess) return 1; } while (0)\n"
        "int f(float** p) {\n"
        "    cudaMalloc(p, 4);\n"
        "    CHECK(cudaMemset(*p, 0, 4));\n"
        "    (void)cudaDeviceSynchronize();\n"
        "    cudaError_t e = cudaGetLastError();\n"
        "    cudaFree(*p);\n"
        "    hipDeviceSynchronize();\n"  # already HIP: warns the same
        "    return e == cudaSuccess;\n"
        "}\n"
    )
    for release in ("5.7", "6.4", "7.2"):
        (note,) = [d for d in diagnostics(source, release) if d[0] == "HPY110"]
        assert note[1:3] == (4, 5)
        assert (
            note[3].startswith("hipMalloc(...) drops its hipError_t") and "2 more calls" in note[3]
        )


def test_calls_that_return_no_hip_error_are_not_noted() -> None:
    source = RUNTIME + 'void f(cudaError_t e) { cudaGetErrorString(e); printf("x"); }\n'
    assert "HPY110" not in codes(source, "7.2")


# ------------------------------------------------------------ a) warpSize

CONSTANT_USES = """template <int N> struct Tile { float v[N]; };
__global__ void k(float* out) {
    __shared__ float a[warpSize];
    Tile<(warpSize / 2)> t;
    switch (threadIdx.x) { case warpSize - 1: break; }
    enum { Lanes = warpSize };
    if constexpr (warpSize == 64) { out[0] = 1; }
    constexpr int w = warpSize;
    static_assert(warpSize % 32 == 0, "");
    const int runtime = warpSize;
    float b[4];
    b[threadIdx.x % warpSize] = runtime + t.v[0] + a[0];
    out[threadIdx.x % warpSize] = b[0];
}
"""


def test_warp_size_in_each_kind_of_constant_expression_is_an_error_from_hip_7() -> None:
    found = [
        (d[1], d[3].split(":")[0]) for d in diagnostics(CONSTANT_USES, "7.2") if d[0] == "HPY426"
    ]
    assert found == [
        (3, "warpSize in an array size"),
        (4, "warpSize in a template argument"),
        (5, "warpSize in a case label"),
        (6, "warpSize in an enumerator's value"),
        (7, "warpSize in an if constexpr condition"),
        (8, "warpSize in a constexpr initializer"),
        (9, "warpSize in a static_assert"),
    ]
    for release in ("5.7", "6.4"):
        assert "HPY426" not in codes(CONSTANT_USES, release)


# ------------------------------------------------------------ b) hipDeviceProp_t fields

RENAMED = RUNTIME + "int f(const cudaDeviceProp& p) { return p.sparseCudaArraySupported; }\n"


def test_a_field_cuda_names_otherwise_is_renamed_where_hip_has_it() -> None:
    assert "p.sparseHipArraySupported" in output(RENAMED, "6.4")
    assert "p.sparseHipArraySupported" in output(RENAMED, "7.2")
    assert "p.sparseCudaArraySupported" in output(RENAMED, "5.7")
    (missing,) = diagnostics(RENAMED, "5.7")
    assert missing[0] == "HPY452" and "sparseHipArraySupported from HIP 6.0" in missing[3]


def test_fields_every_release_has_are_not_reported() -> None:
    source = RUNTIME + (
        "int f(const cudaDeviceProp& p) { return p.multiProcessorCount + p.integrated "
        "+ p.clockRate + p.pciBusID; }\n"
    )
    for release in ("5.7", "6.4", "7.2"):
        assert codes(source, release) == []


def test_a_macro_defined_as_warp_size_is_followed() -> None:
    source = (
        "#if defined(__HIP_PLATFORM_AMD__)\n#define WARP_SIZE warpSize\n#else\n"
        "#define WARP_SIZE 32\n#endif\n"
        "__global__ void k(float* out) {\n"
        "    __shared__ float a[WARP_SIZE];\n"
        "    a[threadIdx.x % WARP_SIZE] = 1;\n"
        "    out[0] = a[0];\n"
        "}\n"
    )
    found = [d for d in diagnostics(source, "7.2") if d[0] == "HPY426"]
    assert [(d[1], d[2]) for d in found] == [(7, 24)]
    assert found[0][3].startswith("WARP_SIZE (defined as warpSize) in an array size")
    assert "HPY426" not in codes(source, "6.4")
