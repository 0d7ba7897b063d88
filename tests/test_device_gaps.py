"""HPY120/HPY121: calls of CUDA device overloads that HIP lacks, found by the
argument types the file declares, with the real gaps data that
tools/device_surface.py generated (hipify_py/data/device_gaps.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from hipify_py import translate
from hipify_py.rules.device_gaps import DATA, gaps, normalized, read_gaps

CG = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"


def codes(src: str, **options: Any) -> list[tuple[str, str, int]]:
    found = translate(src, insert_runtime_include=False, **options).diagnostics
    return [(d.code, d.severity.value, d.line) for d in found if d.code in ("HPY120", "HPY121")]


def test_the_fast_reading_is_pyyaml_s() -> None:
    text = DATA.read_text()
    assert read_gaps(text) == yaml.safe_load(text)
    with pytest.raises(ValueError, match="unexpected line"):
        read_gaps(text + "stray: line\n")


def test_the_data_is_the_generated_file() -> None:
    releases, callees = gaps()
    assert releases == ((5, 7), (6, 4), (7, 2))
    assert "__ldcs" in callees and callees["__ldcs"].overloads > 20


@pytest.mark.parametrize(
    "spelled, expected",
    [
        ("const long *const", "long *"),
        ("const __nv_bfloat16 &", "__nv_bfloat16"),
        ("nv_bfloat16*", "__nv_bfloat16 *"),
        ("__hip_bfloat162 *", "__nv_bfloat162 *"),
        ("unsigned", "unsigned int"),
        ("const half2 * __restrict__", "__half2 *"),
        ("float4*", "float4 *"),
    ],
)
def test_one_spelling_per_type(spelled: str, expected: str) -> None:
    assert normalized(spelled) == expected


# Every way the argument's type can arrive: a parameter, a local, an array
# element's address, pointer arithmetic, a cast, a typedef spelling.
ARRIVALS = [
    "__device__ long f(const long* p) { return __ldcs(p); }",
    "__device__ long f(long* q) { const long* p = q; return __ldcs(p); }",
    "__device__ long f(int i) { __shared__ long s[32]; return __ldcs(&s[i]); }",
    "__device__ long f(const long* p, int i) { return __ldcs(p + i); }",
    "__device__ long f(const void* v) { return __ldcs((const long*)v); }",
    "__device__ long f(const void* v) { return __ldcs(reinterpret_cast<const long*>(v)); }",
    "__device__ long f(const void* v) { return __ldcs(static_cast<const long*>(v)); }",
    "__device__ long f(const long* p[], int i) { return __ldcs(p[i]); }",
]


@pytest.mark.parametrize("src", ARRIVALS)
def test_a_known_type_that_hip_lacks_is_an_error_at_the_call(src: str) -> None:
    assert codes(src + "\n") == [("HPY120", "error", 1)]


def test_a_typedef_spelling_of_bf16_is_the_same_type() -> None:
    src = "#include <cuda_bf16.h>\n__device__ float f(const nv_bfloat16* p) { return __ldg(p); }\n"
    assert codes(src) == [("HPY120", "error", 2)]


def test_types_hip_has_are_not_reported() -> None:
    src = "__device__ float f(const float* p, float4* q, int i) { return __ldg(p) + __ldg(&q[i]).x; }\n"
    assert codes(src) == []


def test_an_unknown_type_that_may_reach_a_gap_is_a_warning() -> None:
    src = "struct S { const long* p; };\n__device__ long f(S* s) { return __ldcs(s->p); }\n"
    assert codes(src) == [("HPY121", "warning", 2)]


def test_a_template_parameter_is_not_a_known_type() -> None:
    src = "template <typename T> __device__ T f(const T* p) { return __ldg(p); }\n"
    assert codes(src) == [("HPY121", "warning", 1)]


def test_known_arguments_that_rule_out_every_gap_say_nothing() -> None:
    # atomicAdd lacks float2/float4/__half forms; a float value rules them out
    src = "struct S { float x; };\n__device__ void f(S* s) { atomicAdd(&s->x, 1.0f); }\n"
    assert codes(src) == []


def test_vector_atomic_add_is_reported() -> None:
    src = "__device__ void f(float2* p, float2 v) { atomicAdd(p, v); }\n"
    assert codes(src) == [("HPY120", "error", 1)]


def test_the_release_decides() -> None:
    # __nv_bfloat16(int) is ambiguous in HIP 5.7.1's bf16 header only
    src = "#include <cuda_bf16.h>\n__device__ __nv_bfloat16 f(int i) { return __nv_bfloat16(i); }\n"
    assert codes(src, hip_version="5.7") == [("HPY120", "error", 2)]
    assert codes(src, hip_version="7.2") == []
    # a target between two checked releases takes the older one's facts
    assert codes(src, hip_version="6.0") == [("HPY120", "error", 2)]


def test_float_sincos_has_no_hip_overload() -> None:
    src = "__device__ void f(float x, float* s, float* c) { sincos(x, s, c); }\n"
    assert codes(src) == [("HPY120", "error", 1)]
    src = "__device__ void f(double x, double* s, double* c) { sincos(x, s, c); }\n"
    assert codes(src) == []


def test_cooperative_reduce_without_compat_points_at_compat() -> None:
    src = (
        CG + "#include <cooperative_groups/reduce.h>\n"
        "__device__ float f(float v) {\n"
        "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "  return cg::reduce(tile, v, cg::plus<float>());\n}\n"
    )
    result = translate(src, insert_runtime_include=False)
    found = [d for d in result.diagnostics if d.code == "HPY120"]
    assert [d.line for d in found] == [6]
    assert "--compat" in found[0].hint
    assert codes(src, compat=True) == []


def test_group_members_hip_lacks_follow_the_group_kind() -> None:
    src = CG + (
        "__device__ unsigned f() {\n"
        "  cg::grid_group grid = cg::this_grid();\n"
        "  auto block = cg::this_thread_block();\n"
        "  return grid.num_blocks() + block.dim_threads().x + block.size();\n}\n"
    )
    assert codes(src) == [("HPY120", "error", 6), ("HPY120", "error", 6)]


def test_a_member_of_an_unrelated_object_is_not_a_group_member() -> None:
    src = (
        "struct Q { int num_blocks() const; };\n__device__ int f(Q q) { return q.num_blocks(); }\n"
    )
    assert codes(src) == []


def test_compat_mode_uses_the_compat_facts() -> None:
    # HIP has __ldca for __half only: a long load is an error that points at
    # --compat, and with --compat hipify_py_compat.h provides it
    src = "__device__ long f(const long* p) { return __ldca(p); }\n"
    result = translate(src, insert_runtime_include=False)
    found = [d for d in result.diagnostics if d.code == "HPY120"]
    assert [d.line for d in found] == [1] and "--compat" in found[0].hint
    assert codes(src, compat=True) == []
    # a float2 atomicAdd is missing with and without it
    src = "__device__ void f(float2* p, float2 v) { atomicAdd(p, v); }\n"
    assert codes(src, compat=True) == [("HPY120", "error", 1)]


def test_a_comparison_is_a_bool_that_an_int_parameter_takes() -> None:
    # HIP 5.7.1's coalesced_group has no ballot: a bool predicate reaches CUDA's ballot(int)
    src = (
        CG
        + "__device__ unsigned f(int x) { auto g = cg::coalesced_threads(); return g.ballot(x > 0); }\n"
    )
    assert codes(src, hip_version="5.7") == [("HPY120", "error", 3)]
    assert codes(src, hip_version="7.2") == []


def test_arithmetic_and_conditional_values_have_their_type() -> None:
    # with --compat, a float scan compiles; only a user struct's does not
    src = CG + (
        "#include <cooperative_groups/scan.h>\n"
        "__device__ float f(float x, int i, int n) {\n"
        "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "  return cg::exclusive_scan(tile, i < n ? x * 2.0f : 0.0f) + cg::inclusive_scan(tile, x + i);\n}\n"
    )
    assert codes(src, compat=True) == []


# A template parameter is followed to the instantiations the file makes.
TEMPLATE = (
    "#include <cuda_bf16.h>\n"
    "template <typename Ti, typename To>\n"
    "__global__ void pool(const Ti* src, To* dst, int n) {\n"
    "  const Ti* p = src + n;\n"
    "  dst[0] = (To)__ldg(p + 1);\n"
    "}\n"
)


def test_a_template_parameter_deduced_from_a_launch_with_a_type_hip_has() -> None:
    src = TEMPLATE + "void run(const float* s, float* d) { pool<<<1, 64>>>(s, d, 0); }\n"
    assert codes(src) == []


def test_a_template_parameter_deduced_from_a_launch_with_a_type_hip_lacks() -> None:
    src = TEMPLATE + "void run(const nv_bfloat16* s, float* d) { pool<<<1, 64>>>(s, d, 0); }\n"
    assert codes(src) == [("HPY120", "error", 5)]


def test_a_template_parameter_given_explicitly_at_a_call() -> None:
    src = TEMPLATE + (
        "void run(const void* s, float* d) {\n"
        "  pool<float, float><<<1, 64>>>((const float*)s, d, 0);\n"
        "  pool<__nv_bfloat16, float><<<1, 64>>>((const __nv_bfloat16*)s, d, 0);\n}\n"
    )
    assert codes(src) == [("HPY120", "error", 5)]


def test_a_template_never_instantiated_here_stays_a_warning() -> None:
    assert codes(TEMPLATE) == [("HPY121", "warning", 5)]
