"""Device rules on wave64 (rules/warp.py, warp_size.py, asm.py, device_hazards.py,
arch.py): the behaviours the golden fixtures show, checked one at a time, plus
the messages and hints that fixtures do not compare."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import run_cli

from hipify_py import translate
from hipify_py.engine.diagnostics import Severity
from hipify_py.report.diagnostics_doc import _group, markdown
from hipify_py.rules.catalogue import CATALOGUE


def out(src: str, **options: Any) -> str:
    result = translate(src, insert_runtime_include=False, **options)
    assert isinstance(result.text, str)
    return result.text


def diagnostics(src: str, **options: Any) -> list[Any]:
    return list(translate(src, insert_runtime_include=False, **options).diagnostics)


def only(src: str, code: str, **options: Any) -> list[Any]:
    return [d for d in diagnostics(src, **options) if d.code == code]


# --- masks resolved where they are used ----------------------------------------

SHADOW = (
    "__device__ float a(float v){ const unsigned mask = 0xffffffff; return __shfl_sync(mask, v, 0); }\n"
    "__device__ unsigned b(unsigned mask, bool p){ return __ballot_sync(mask, p); }\n"
)


def test_a_parameter_shadows_a_constant_of_another_function_hip62() -> None:
    text = out(SHADOW, hip_version="6.2")
    assert "__shfl_sync(0xffffffffffffffffULL, v, 0)" in text
    assert "__ballot_sync((unsigned long long)(mask), p)" in text
    assert [d.line for d in only(SHADOW, "HPY401", hip_version="6.2")] == [2]


def test_a_parameter_shadows_a_constant_of_another_function_hip57() -> None:
    text = out(SHADOW, hip_version="5.7")
    assert "return __shfl(v, 0);" in text
    assert "__ballot_sync(mask, p)" in text  # left unchanged, not __ballot(p)
    assert [d.line for d in only(SHADOW, "HPY402", hip_version="5.7")] == [2]


def test_a_macro_parameter_shadows_a_define() -> None:
    src = (
        "#define FULL 0xffffffff\n"
        "#define VOTE(FULL, p) __ballot_sync(FULL, p)\n"
        "__device__ unsigned long long f(unsigned m, bool p) { return VOTE(m, p); }\n"
    )
    assert "__ballot_sync(FULL, p)" in out(src, hip_version="5.7")
    assert [d.code for d in diagnostics(src, hip_version="5.7")] == ["HPY402"]


def test_a_local_declared_after_the_use_or_in_another_block_does_not_count() -> None:
    src = (
        "__device__ float f(float v, unsigned m) {\n"
        "  { const unsigned m2 = 0xffffffff; v += 1.0f; }\n"
        "  v += __shfl_sync(m2, v, 0);\n"
        "  const unsigned m2b = 0xffffffff;\n"
        "  return v;\n"
        "}\n"
    )
    assert "__shfl_sync(m2, v, 0)" in out(src, hip_version="5.7")


def test_a_variable_used_only_as_a_mask_keeps_its_full_initial_value() -> None:
    src = (
        "__device__ float f(float v) { unsigned mask = 0xffffffff;"
        " return __shfl_down_sync(mask, v, 1); }\n"
        "__device__ float g(float v, int n) { unsigned mask = 0xffffffff; if (n) mask = 1;"
        " return __shfl_sync(mask, v, 0); }\n"
    )
    text = out(src, hip_version="5.7")
    assert "return __shfl_down(v, 1);" in text
    assert "return __shfl_sync(mask, v, 0);" in text  # reassigned: not known
    assert "__shfl_down_sync(0xffffffffffffffffULL, v, 1)" in out(src, hip_version="6.2")
    (found,) = only(src, "HPY401", hip_version="6.2")
    assert "initial value 0xffffffff" in found.message


# --- HIP < 6.2: partial and computed masks left, with the rewrite as hint ---------


@pytest.mark.parametrize(
    ("call", "rewrite"),
    [
        ("__ballot_sync(m, p)", "(__ballot(p) & (m))"),
        ("__any_sync(m, p)", "((__ballot(p) & (m)) != 0)"),
        ("__all_sync(m, p)", "((__ballot(p) & (m)) == (m))"),
        ("__shfl_xor_sync(m, v, 1, 16)", "__shfl_xor(v, 1, 16)"),
    ],
)
def test_partial_mask_hip57_is_an_error_with_the_exact_rewrite(call: str, rewrite: str) -> None:
    src = f"__device__ int f(unsigned m, bool p, int v) {{ return (int){call}; }}\n"
    assert call in out(src, hip_version="5.7")
    (found,) = only(src, "HPY402", hip_version="5.7")
    assert found.severity is Severity.ERROR
    assert rewrite in found.hint
    assert "left unchanged" in found.message


def test_partial_mask_hip62_explains_the_lane_numbers() -> None:
    src = "__device__ float f(float v) { return __shfl_xor_sync(0x0000ffff, v, 1, 16); }\n"
    assert "__shfl_xor_sync(0x0000ffffULL, v, 1, 16)" in out(src, hip_version="6.2")
    (found,) = only(src, "HPY401", hip_version="6.2")
    assert "0-63" in found.message and "first half" in found.message


# --- full masks through parameters ----------------------------------------------

PYTORCH = (
    "template <typename T>\n"
    "__device__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = warpSize, "
    "unsigned int mask = 0xffffffff)\n"
    "{ return __shfl_down_sync(mask, value, delta, width); }\n"
    "__device__ float g(float v, unsigned lanes) {\n"
    "  return WARP_SHFL_DOWN(v, 1) + WARP_SHFL_DOWN(v, 1, 32, 0xffffffff) "
    "+ WARP_SHFL_DOWN(v, 1, 32, lanes);\n"
    "}\n"
)


def test_full_default_mask_parameter_is_widened_hip62() -> None:
    text = out(PYTORCH, hip_version="6.2")
    assert "unsigned long long mask = 0xffffffffffffffffULL)" in text
    assert "__shfl_down_sync(mask, value, delta, width)" in text
    assert "WARP_SHFL_DOWN(v, 1, 32, 0xffffffffffffffffULL)" in text
    found = diagnostics(PYTORCH, hip_version="6.2")
    assert [d.code for d in found if d.code in ("HPY406", "HPY401")] == ["HPY406", "HPY401"]
    assert "lanes" in next(d for d in found if d.code == "HPY401").message


def test_full_default_mask_parameter_hip57_drops_the_mask() -> None:
    text = out(PYTORCH, hip_version="5.7")
    assert "return __shfl_down(value, delta, width);" in text
    assert "unsigned int mask = 0xffffffff" in text


def test_a_mask_parameter_also_used_as_data_is_not_widened() -> None:
    src = (
        "__device__ unsigned f(bool p, unsigned mask = 0xffffffff)"
        "{ return __any_sync(mask, p) ? mask : 0u; }\n"
    )
    text = out(src, hip_version="6.2")
    assert "unsigned mask = 0xffffffff)" in text
    (found,) = only(src, "HPY401", hip_version="6.2")
    assert "lanes 0-31 only" in found.message


@pytest.mark.parametrize(
    "mask",
    [
        "FULL_MASK",
        "uint32_t(-1)",
        "static_cast<unsigned>(-1)",
        "(unsigned)-1",
        "~0u",
        "0xFFFFFFFFu",
    ],
)
def test_full_mask_spellings(mask: str) -> None:
    src = (
        "#define FULL_MASK 0xffffffff /* all lanes */\n"
        f"__device__ float f(float v) {{ return __shfl_xor_sync({mask}, v, 1); }}\n"
    )
    assert "return __shfl_xor(v, 1);" in out(src, hip_version="5.7")
    assert "__shfl_xor_sync(0xffffffffffffffffULL, v, 1)" in out(src, hip_version="6.2")


def test_full_masks_through_macro_arguments() -> None:
    src = (
        "#define SHFL_XOR(mask, v, o) __shfl_xor_sync(mask, v, o)\n"
        "__device__ float f(float v) { return SHFL_XOR(0xffffffff, v, 1) + SHFL_XOR(~0u, v, 2); }\n"
    )
    assert "#define SHFL_XOR(mask, v, o) __shfl_xor(v, o)" in out(src, hip_version="5.7")
    text = out(src, hip_version="7.2")
    assert "#define SHFL_XOR(mask, v, o) __shfl_xor_sync(mask, v, o)" in text
    assert "SHFL_XOR(0xffffffffffffffffULL, v, 1) + SHFL_XOR(0xffffffffffffffffULL, v, 2)" in text


def test_a_macro_argument_that_is_not_full_keeps_the_macro_computed() -> None:
    src = (
        "#define SHFL_XOR(mask, v, o) __shfl_xor_sync(mask, v, o)\n"
        "__device__ float f(float v, unsigned m) { return SHFL_XOR(0xffffffff, v, 1) + SHFL_XOR(m, v, 2); }\n"
    )
    assert "__shfl_xor_sync(mask, v, o)" in out(src, hip_version="5.7")
    assert [d.code for d in diagnostics(src, hip_version="5.7")] == ["HPY402"]


# --- ballot width -----------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "unsigned f(bool p) { return __ballot_sync(~0u, p); }",
        "int f(bool p) { unsigned b; b = __ballot_sync(~0u, p); return b; }",
        "int f(bool p) { uint32_t m(__activemask()); return m; }",
        "int f(bool p) { unsigned m{__ballot_sync(~0u, p)}; return m; }",
        "int f(bool p) { return (int)(unsigned)__ballot_sync(~0u, p); }",
        "int f(bool p) { auto b = __ballot_sync(~0u, p); return __clz(b); }",
        "int f(bool p) { unsigned long long b = __ballot_sync(~0u, p); return __clz(b); }",
    ],
)
def test_narrow_ballot_results_are_reported(body: str) -> None:
    src = f"__device__ {body}\n"
    assert [d.code for d in diagnostics(src, hip_version="7.2")] == ["HPY403"]


def test_a_32_bit_field_is_reported_a_64_bit_one_not() -> None:
    src = (
        "struct S { unsigned mask; unsigned long long wide; };\n"
        "__device__ void f(S& s, bool p) { s.mask = __ballot_sync(~0u, p); "
        "s.wide = __ballot_sync(~0u, p); }\n"
    )
    (found,) = only(src, "HPY403", hip_version="7.2")
    assert "field mask" in found.message


@pytest.mark.parametrize("type_name", ["unsigned long", "unsigned long long", "uint64_t", "auto"])
def test_64_bit_variables_are_not_reported(type_name: str) -> None:
    src = f"__device__ long f(bool p) {{ {type_name} b = __ballot_sync(~0u, p); return b; }}\n"
    assert only(src, "HPY403", hip_version="7.2") == []


def test_popc_and_ffs_of_a_64_bit_ballot_variable_become_the_ll_forms() -> None:
    src = "__device__ int f(bool p) { auto b = __ballot_sync(~0u, p); return __popc(b) + __ffs(b); }\n"
    assert "return __popcll(b) + __ffsll(b);" in out(src, hip_version="5.7")


def test_popc_of_another_variable_of_the_same_name_is_left() -> None:
    src = (
        "__device__ int f(bool p) { { auto b = __ballot_sync(~0u, p); } unsigned b = 3u;"
        " return __popc(b); }\n"
    )
    assert "return __popc(b);" in out(src, hip_version="5.7")


# --- bf16 shuffles before HIP 6.2 -----------------------------------------------------


def test_bf16_shuffle_hip57_is_an_error_with_a_bit_shuffle_hint() -> None:
    src = (
        "__device__ void f(__nv_bfloat16* p) { __nv_bfloat16 b = p[0];"
        " b = __shfl_xor_sync(0xffffffff, b, 1); p[0] = b; }\n"
    )
    (found,) = only(src, "HPY407", hip_version="5.7")
    assert found.severity is Severity.ERROR
    assert "__ushort_as_bfloat16(__shfl_xor(__bfloat16_as_ushort(b), 1))" in found.hint
    assert only(src, "HPY407", hip_version="6.2") == []


def test_half_shuffles_are_fine_on_hip57() -> None:
    src = "__device__ __half f(__half h, half2 g) { g = __shfl_xor_sync(~0u, g, 1); return __shfl_sync(~0u, h, 0); }\n"
    assert only(src, "HPY407", hip_version="5.7") == []


# --- inline PTX in #define bodies -----------------------------------------------------

PTX_MACRO = '#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))\n'


def test_ptx_in_a_define_body_is_reported() -> None:
    (found,) = only(PTX_MACRO, "HPY501")
    assert "mov.u32 %0, %%laneid" in found.message
    assert (found.line, found.column) == (1, 20)


def test_host_asm_in_a_define_body_is_not() -> None:
    assert only('#define PAUSE() asm volatile("pause" ::: "memory")\n', "HPY501") == []


def test_list_asm_lists_ptx_in_define_bodies(tmp_path: Any) -> None:
    (tmp_path / "lane.cu").write_text(PTX_MACRO)
    done = run_cli("--list-asm", "--no-cache", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert b"lane.cu:1:20: mov.u32 %0, %%laneid" in done.stdout


# --- fp8 ------------------------------------------------------------------------------

FP8 = "__global__ void k(__nv_fp8_e4m3* o) { o[0] = __nv_fp8_e4m3(1.0f); }\n"


def test_ocp_fp8_needs_hip63() -> None:
    text = out(FP8, fp8="ocp", hip_version="6.2")
    assert "__hip_fp8_e4m3" not in text
    assert [d.code for d in diagnostics(FP8, fp8="ocp", hip_version="6.2")] == [
        "HPY103",
        "HPY430",
        "HPY103",
    ]
    assert "__hip_fp8_e4m3* o" in out(FP8, fp8="ocp", hip_version="6.3")


def test_fp8_message_says_left_unchanged_when_it_is() -> None:
    (found,) = only(FP8, "HPY430", hip_version="5.7")
    assert "left unchanged" in found.message and "translated to" not in found.message
    assert "__nv_fp8_e4m3" in out(FP8, hip_version="5.7")


@pytest.mark.parametrize(
    ("arch", "fp8", "says"),
    [
        ("gfx950", None, "which gfx950 implements"),
        ("gfx942", "ocp", "which gfx942 lacks in hardware"),
        ("gfx950", "fnuz", "which gfx950 lacks in hardware (it implements OCP)"),
        ("gfx90a", None, "gfx90a has no fp8 instructions"),
    ],
)
def test_fp8_message_names_the_target(arch: str, fp8: str | None, says: str) -> None:
    (found,) = only(FP8, "HPY430", offload_arch=arch, fp8=fp8, hip_version="7.2")
    assert says in found.message
    assert "gfx942" not in found.message or arch == "gfx942"


# --- --fix-warp-size only on provable lane counts ----------------------------------------


def test_fix_warp_size_leaves_bit_indexes_and_word_indexes() -> None:
    src = (
        "__global__ void k(unsigned* w) {\n"
        "  atomicOr(&w[(blockIdx.x*blockDim.x+threadIdx.x) >> 5], 1u << (threadIdx.x % 32));\n"
        "}\n"
    )
    assert out(src, fix_warp_size=True) == src
    assert [d.code for d in diagnostics(src, fix_warp_size=True)] == ["HPY420", "HPY420"]


def test_fix_warp_size_leaves_a_define_that_is_also_a_stride() -> None:
    src = (
        "#define WARP_SIZE 32\n"
        "__global__ void k(float* o) { int lane = threadIdx.x % WARP_SIZE;"
        " if (lane == 0) o[blockIdx.x * WARP_SIZE * 4] = 1.0f; }\n"
    )
    assert "#define WARP_SIZE 32\n" in out(src, fix_warp_size=True)


def test_fix_warp_size_rewrites_a_lane_id_that_is_only_compared() -> None:
    src = (
        "__global__ void k(float* o) { int lane = threadIdx.x % 32; if (lane == 0) o[0] = 1.0f; }\n"
    )
    assert "threadIdx.x % warpSize" in out(src, fix_warp_size=True)


# --- warp-size lint ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "code"),
    [
        ("#define LANE_ID (threadIdx.x & 31)\n", "HPY420"),
        ("#define WARP_ID (threadIdx.x >> 5)\n", "HPY420"),
        (
            "#define REDUCE(v) for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(~0u, v, o)\n",
            "HPY421",
        ),
        ("__global__ void k(int* o) { o[0] = threadIdx.x % 32u; }\n", "HPY420"),
        ("__global__ void k(int* o) { o[0] = threadIdx.x & 0x1f; }\n", "HPY420"),
        ("constexpr int kWarpSize{32};\n__global__ void k() {}\n", "HPY422"),
        ("template <int kNumThreadsPerWarp = 32> __device__ void f() {}\n", "HPY422"),
        ("__global__ void k() { __shared__ __align__(16) float s[32]; s[0] = 0; }\n", "HPY423"),
    ],
)
def test_warp_size_lint_spellings(src: str, code: str) -> None:
    assert code in [d.code for d in diagnostics(src)]


def test_32_wide_tiles_are_not_reported() -> None:
    src = (
        "__global__ void k(float* o) {\n"
        "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "  float v = o[threadIdx.x];\n"
        "  for (int d = 16; d > 0; d /= 2) v += tile.shfl_down(v, d);\n"
        "  o[threadIdx.x / 32] = v;\n"
        "}\n"
    )
    assert diagnostics(src) == []


@pytest.mark.parametrize(
    ("launch", "threads"),
    [
        ("dim3 block(48, 2); k<<<1, block>>>(o);", 96),
        ("k<<<1, WARP_SIZE * 3>>>(o);", 96),
        ("k<<<1, dim3(WARP_SIZE, 5)>>>(o);", 160),
        ("k<<<1, (WARP_SIZE + 16) * 2>>>(o);", 96),
    ],
)
def test_block_sizes_through_helpers_dim3_and_arithmetic(launch: str, threads: int) -> None:
    src = (
        "#define WARP_SIZE 32\n"
        "__device__ float h(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n"
        "__global__ void k(float* o) { o[0] = h(o[0]); }\n"
        f"void go(float* o) {{ {launch} }}\n"
    )
    (found,) = only(src, "HPY425")
    assert f"{threads} threads" in found.message


def test_block_size_multiple_of_64_is_not_reported() -> None:
    src = (
        "__device__ float h(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n"
        "__global__ void k(float* o) { o[0] = h(o[0]); }\n"
        "void go(float* o) { dim3 block(32, 4); k<<<1, block>>>(o); }\n"
    )
    assert only(src, "HPY425") == []


# --- __CUDA_ARCH__, textures, device properties ---------------------------------------------


@pytest.mark.parametrize(
    "condition",
    [
        "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 530",
        "#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)",
        "#define OLD_ARCH (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700)",
    ],
)
def test_mixed_cuda_arch_conditions_stay_whole(condition: str) -> None:
    src = condition + "\nint x;\n" + ("#endif\n" if condition.startswith("#if") else "")
    assert out(src) == src
    found = only(src, "HPY410")
    assert len(found) == 1 and "whole condition" in found[0].message


def test_texture_and_surface_diagnostics_are_errors() -> None:
    assert CATALOGUE["HPY440"].severity is Severity.ERROR
    assert CATALOGUE["HPY441"].severity is Severity.ERROR
    src = "surface<void, 2> s;\n__global__ void k(cudaSurfaceObject_t o) { float v; surf2Dread(&v, o, 0, 0); }\n"
    assert [d.code for d in diagnostics(src)] == ["HPY440", "HPY441"]


@pytest.mark.parametrize(
    "expression",
    [
        "props[i].warpSize",
        "getCurrentDeviceProperties()->warpSize",
        "cudaDevAttrWarpSize",
    ],
)
def test_warp_size_queries_are_warnings(expression: str) -> None:
    src = (
        "cudaDeviceProp* getCurrentDeviceProperties();\n"
        f"int f(int i) {{ cudaDeviceProp props[2]; int a; return {expression} + a; }}\n"
    )
    (found,) = only(src, "HPY451")
    assert found.severity is Severity.WARNING


def test_device_attributes_are_reported_like_the_fields_they_read() -> None:
    """device_prop_fields.yaml's ``attribute``: each is a CUDA enumerator of the
    tables, and a use is reported with its field's fact (HPY450/HPY451)."""
    from hipify_py.rules.device_hazards import prop_fields
    from hipify_py.tables.cache import load_table

    table = load_table()
    attributes = {f.attribute: name for name, f in prop_fields().items() if f.attribute}
    assert len(attributes) >= 10
    for attribute, field in attributes.items():
        row = table.lookup(attribute)
        assert row is not None and row.kind == "enum", attribute
        src = f"int f(int d) {{ int v; cudaDeviceGetAttribute(&v, {attribute}, d); return v; }}\n"
        codes = [d.code for d in diagnostics(src) if d.code in ("HPY450", "HPY451")]
        assert codes == (["HPY451"] if field == "warpSize" else ["HPY450"]), attribute


def test_half2_members_through_an_array_element() -> None:
    src = "__device__ float f(const __half2* hp, int i) { return __half2float(hp[i].x); }\n"
    (found,) = only(src, "HPY460")
    assert "hp[i].x" in found.message


# --- catalogue, docs and the command line ---------------------------------------------------


def test_every_code_has_meaning_why_example_and_fix() -> None:
    for entry in CATALOGUE.values():
        missing = [k for k in ("summary", "why", "example", "fix") if not getattr(entry, k)]
        assert not missing, f"{entry.code} lacks {missing}"
        assert _group(entry.code) != "Other", entry.code
    assert "## Other" not in markdown()


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_codes_are_a_usage_error(option: str, tmp_path: Any) -> None:
    (tmp_path / "k.cu").write_text("__global__ void k() {}\n")
    done = run_cli(option, "HPY4,HPY999", "--stdout", str(tmp_path / "k.cu"))
    assert done.returncode == 2
    assert b"HPY999" in done.stderr and b"HPY4," not in done.stderr
    ok = run_cli(option, "hpy4", "--stdout", str(tmp_path / "k.cu"))
    assert ok.returncode == 0, ok.stderr


@pytest.mark.parametrize(
    "alias",
    [
        "typedef unsigned int uint;",
        "using uint = unsigned int;",
        "typedef uint32_t word;\ntypedef word uint;",
    ],
)
def test_a_ballot_kept_through_a_type_alias_is_reported(alias: str) -> None:
    src = f"#include <cstdint>\n{alias}\n__device__ int f(bool p) {{ uint m = __ballot_sync(0xffffffff, p); return m; }}\n"
    assert [d.code for d in only(src, "HPY403", hip_version="7.2")] == ["HPY403"]
    wide = src.replace("uint m", "unsigned long long m")
    assert only(wide, "HPY403", hip_version="7.2") == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            "for (int d = 1; d < 32; d *= 2) { int t = __shfl_up_sync(0xffffffff, v, d); if (lane >= d) v += t; }",
            "HPY421",
        ),
        ("for (int d = 1; d <= 16; d <<= 1) v += __shfl_xor_sync(0xffffffff, v, d);", "HPY421"),
        ("v = __shfl_sync(0xffffffff, v, 31);", "HPY420"),
        ("v = __shfl(v, 31);", "HPY420"),
    ],
)
def test_other_32_lane_shapes_are_reported(body: str, code: str) -> None:
    src = f"__device__ int f(int v, int lane) {{ {body} return v; }}\n"
    assert [d.code for d in only(src, code, hip_version="7.2")] == [code]
    # written for any warp size: nothing to report
    fixed = (
        body.replace("< 32", "< warpSize")
        .replace("<= 16", "< warpSize")
        .replace(", 31)", ", warpSize - 1)")
    )
    assert (
        only(
            fixed.join(["__device__ int f(int v, int lane) { ", " return v; }\n"]),
            code,
            hip_version="7.2",
        )
        == []
    )


@pytest.mark.parametrize(
    "decl",
    ["constexpr int kWarpSize = n < 32 ? n : 32;", "const int warp_size = std::min(n, 32);"],
)
def test_a_warp_size_capped_at_32_is_reported(decl: str) -> None:
    src = f"template <int n> __device__ int w() {{ {decl} return 0; }}\n"
    assert [d.code for d in only(src, "HPY422", hip_version="7.2")] == ["HPY422"]


def test_a_definition_of_cuda_arch_is_no_use() -> None:
    """ggml's HIP shim defines __CUDA_ARCH__ itself: neither a value use (HPY411)
    nor a gate (HPY410), and it is not renamed."""
    src = "#define __CUDA_ARCH__ 1300\n#undef __CUDA_ARCH__\n__device__ int f() { return 0; }\n"
    assert [d.code for d in diagnostics(src, hip_version="7.2") if d.code.startswith("HPY41")] == []
    assert "#define __CUDA_ARCH__ 1300" in str(translate(src).text)
