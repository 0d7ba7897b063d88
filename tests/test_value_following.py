"""Value following (rules/values.py): the rules whose verdict depends on a
number (a CUB block size, a launch's block size, lane math, a reduction's
first offset, a shared array of one slot per warp) follow the number through
what the file says: literals, #defines, const / constexpr constants,
enumerators, typedefs and aliases of the block type, and template parameters
through every explicit instantiation (also through a second template).
Each arrival path is checked per rule, with its 64-lane negative."""

from __future__ import annotations

import time
from typing import Any

import pytest
from toolchain_support import amd_compiler

from hipify_py import load_table, translate
from hipify_py.engine.context import Context
from hipify_py.engine.hip_target import default_version
from hipify_py.engine.options import Options
from hipify_py.engine.parse import parse
from hipify_py.engine.source import LineIndex, inspect
from hipify_py.rules.values import int_values, leaf_texts


def context_of(src: str) -> Context:
    data = src.encode("latin-1")
    return Context(
        data=data,
        text=src,
        tree=parse(data),
        table=load_table(),
        options=Options(),
        info=inspect(data),
        lines=LineIndex(data),
        target_hip=default_version(),
    )


def values(src: str, marker: str, expression: str) -> set[int]:
    """The values of ``expression`` written where ``marker`` is in ``src``."""
    return set(int_values(context_of(src), expression, src.index(marker)))


def codes(src: str, code: str, **options: Any) -> list[tuple[int, str]]:
    found = translate(src, insert_runtime_include=False, **options).diagnostics
    return [(d.line, d.message) for d in found if d.code == code]


# ------------------------------------------------------------------ the helper

FILE = """#define THREADS 32
#define TWICE (THREADS * 2)
#define LOOP_A LOOP_B
#define LOOP_B LOOP_A
constexpr int kBlock = 32;
const unsigned kHex = 0x20u;
enum E { FIRST, SECOND = 5, THIRD };
enum class F : int { X = 96 };
struct Config { static constexpr int N = 48; };
template <typename T, int BLOCK_THREADS, int ITEMS = 4>
__global__ void k(T* p) { int in_k = BLOCK_THREADS + ITEMS; }
template <int B, int I> void Test() { k<float, B, I><<<1, B>>>(nullptr); }
template <int N> struct Holder { static constexpr int V = N; void f() { int in_holder = V; } };
template <int N> using Alias = Holder<N>;
#define USE(m) (m)
void h(int param) {
    const int local = 40;
    int here = local + param;
    k<float, 32, 8><<<1, 32>>>(nullptr);
    k<double, 128><<<1, 128>>>(nullptr);
    Test<64, 2>();
    Test<THREADS, 3>();
    Holder<256> x;
    Alias<512> y;
}
"""


@pytest.mark.parametrize(
    ("marker", "expression", "expected"),
    [
        ("int here", "32", {32}),
        ("int here", "0x20u", {32}),
        ("int here", "(unsigned)(1 << 5)", {32}),
        ("int here", "static_cast<int>(64) / 2 - 1", {31}),
        ("int here", "THREADS", {32}),  # a #define
        ("int here", "TWICE", {64}),  # a #define of a #define
        ("int here", "kBlock", {32}),  # constexpr
        ("int here", "kHex", {32}),  # const, hex
        ("int here", "local", {40}),  # a local constant
        ("int here", "FIRST", {0}),  # enumerators: counted
        ("int here", "THIRD", {6}),
        ("int here", "SECOND * 2", {10}),
        ("int here", "F::X", {96}),  # enum class, qualified
        ("int here", "Config::N", {48}),  # a static constexpr member
        # a template parameter: each explicit instantiation; through Test<B, I>
        # (a second template) to Test<64, 2> and Test<THREADS, 3>
        ("int in_k", "BLOCK_THREADS", {32, 64, 128}),
        ("int in_k", "ITEMS", {8, 4, 2, 3}),  # 4: k<double, 128>'s default
        ("int in_holder", "V", {256, 512}),  # Holder<256>, and through the alias
        # what the file does not fix
        ("int here", "param", set()),
        ("int here", "LOOP_A", set()),
        ("int here", "undeclared", set()),
        ("int here", "local < 3", set()),
        ("int here", "f(3)", set()),
    ],
)
def test_values_follow_every_arrival_path(marker: str, expression: str, expected: set[int]) -> None:
    assert values(FILE, marker, expression) == expected


def test_a_macro_parameter_has_no_value() -> None:
    src = "#define SIZE 32\n#define USE(SIZE) k<SIZE>()\n"
    assert values(src, "k<", "SIZE") == set()


def test_many_layers_of_many_instantiations_stay_fast() -> None:
    """Every layer instantiates the one below six times with its own
    parameter: 6**12 paths, each expression's values found once (a memo per
    file; found on CUB's own tests, which took minutes before it)."""
    layers = 12
    lines = ["template <int N> __global__ void k0() { int here = N; }"]
    for layer in range(1, layers + 1):
        calls = " ".join(f"k{layer - 1}<N + {i}>();" for i in range(6))
        lines.append(f"template <int N> void k{layer}() {{ {calls} }}")
    lines.append(f"void h() {{ k{layers}<32>(); }}")
    src = "\n".join(lines) + "\n"
    started = time.monotonic()
    found = values(src, "int here", "N")
    assert time.monotonic() - started < 10
    assert 32 in found and 32 + 5 * layers in found


def test_a_template_that_instantiates_itself_ends() -> None:
    src = (
        "template <int N> struct F { static constexpr int V = N * F<N - 1>::V; int here; };\n"
        "template <> struct F<0> { static constexpr int V = 1; };\n"
        "F<5> f;\n"
    )
    assert 5 in values(src, "int here", "N")


def test_a_template_parameter_shadows_a_constant_of_the_same_name() -> None:
    src = (
        "constexpr int BLOCK = 32;\n"
        "template <int BLOCK> __global__ void k() { int here = BLOCK; }\n"
        "void h() { k<128><<<1, 128>>>(); }\n"
    )
    assert values(src, "int here", "BLOCK") == {128}


def test_leaf_texts_follow_names_to_what_they_stand_for() -> None:
    src = (
        "constexpr auto ALGO = cub::BLOCK_LOAD_WARP_TRANSPOSE;\n"
        "template <cub::BlockLoadAlgorithm A> void f() { int here; }\n"
        "void h() { f<ALGO>(); f<cub::BLOCK_LOAD_DIRECT>(); }\n"
    )
    ctx = context_of(src)
    assert leaf_texts(ctx, "A", src.index("int here")) == {
        "cub::BLOCK_LOAD_WARP_TRANSPOSE",
        "cub::BLOCK_LOAD_DIRECT",
    }


# ------------------------------------------------------------------ cub_blocks (HPY427)

CUB_HEAD = "#include <cub/cub.cuh>\n"
WT = "cub::BLOCK_LOAD_WARP_TRANSPOSE"


def cub_case(size_decl: str, size: str, use: str = "") -> str:
    return (
        CUB_HEAD
        + size_decl
        + (
            f"__global__ void k(int* p) {{ typedef cub::BlockLoad<int, {size}, 4, {WT}> L; }}\n"
            + use
        )
    )


@pytest.mark.parametrize("threads", [32, 96, 64, 128])
@pytest.mark.parametrize(
    ("path", "declaration", "name"),
    [
        ("literal", "", "{n}"),
        ("define", "#define THREADS {n}\n", "THREADS"),
        ("constexpr", "constexpr int kThreads = {n};\n", "kThreads"),
        ("const", "static const int kThreads = {n};\n", "kThreads"),
        ("enum", "enum {{ ENUM_THREADS = {n} }};\n", "ENUM_THREADS"),
        ("enum-class", "enum class Size : int {{ Threads = {n} }};\n", "(int)Size::Threads"),
        ("arithmetic", "#define WARPS {w}\n", "WARPS * 32"),
    ],
)
def test_cub_block_size_follows_constants(
    threads: int, path: str, declaration: str, name: str
) -> None:
    if path == "arithmetic" and threads % 32:
        pytest.skip("a multiple of 32 only")
    src = cub_case(
        declaration.format(n=threads, w=threads // 32), name.format(n=threads, w=threads // 32)
    )
    found = codes(src, "HPY427")
    assert bool(found) == bool(threads % 64), found
    if found:
        assert f"and {threads} threads" in found[0][1]


TEMPLATE_KERNEL = (
    CUB_HEAD + "template <typename T, int BLOCK_THREADS, int ITEMS>\n"
    "__global__ void k(T* p) {\n"
    f"    typedef cub::BlockLoad<T, BLOCK_THREADS, ITEMS, {WT}> L;\n"
    "    __shared__ typename L::TempStorage s;\n"
    "}\n"
)


@pytest.mark.parametrize(("threads", "reported"), [(32, True), (96, True), (64, False)])
@pytest.mark.parametrize(
    "instantiation",
    [
        # explicit template arguments to a launch
        "void h() {{ k<float, {n}, 4><<<1, {n}>>>(nullptr); }}\n",
        # through a second template: Test<32, 32>() launches k<float, BLOCK, ITEMS>
        "template <int BLOCK, int ITEMS> void Test() {{ k<float, BLOCK, ITEMS><<<1, BLOCK>>>"
        "(nullptr); }}\nvoid h() {{ Test<{n}, 32>(); }}\n",
        # a second template whose argument is a constant
        "#define SIZE {n}\ntemplate <int BLOCK> void Test() {{ k<int, BLOCK, 2><<<1, BLOCK>>>"
        "(nullptr); }}\nvoid h() {{ Test<SIZE>(); }}\n",
        # a function pointer to an instantiation
        "void h() {{ auto f = &k<float, {n}, 4>; (void)f; }}\n",
    ],
)
def test_cub_block_size_follows_template_parameters(
    threads: int, reported: bool, instantiation: str
) -> None:
    found = codes(TEMPLATE_KERNEL + instantiation.format(n=threads), "HPY427")
    assert [line for line, _ in found] == ([4] if reported else [])
    if reported:
        assert f"{threads} threads (BLOCK_THREADS)" in found[0][1]


def test_cub_only_the_bad_instantiations_are_named() -> None:
    src = TEMPLATE_KERNEL + (
        "void h() { k<float, 64, 4><<<1, 64>>>(nullptr); k<float, 32, 4><<<1, 32>>>(nullptr);"
        " k<float, 256, 4><<<1, 256>>>(nullptr); k<float, 96, 4><<<1, 96>>>(nullptr); }\n"
    )
    (found,) = codes(src, "HPY427")
    assert "and 32 or 96 threads (BLOCK_THREADS)" in found[1]


JOINT_KERNEL = (
    CUB_HEAD + "template <int BLOCK_THREADS, cub::BlockLoadAlgorithm ALGORITHM>\n"
    "__global__ void k(int* p) {\n"
    "    typedef cub::BlockLoad<int, BLOCK_THREADS, 4, ALGORITHM> L;\n"
    "}\n"
)


@pytest.mark.parametrize(
    ("instantiations", "reported"),
    [
        # one instantiation's size and algorithm go together
        ("k<32, cub::BLOCK_LOAD_DIRECT><<<1, 32>>>(p); k<64, " + WT + "><<<1, 64>>>(p);", False),
        ("k<32, " + WT + "><<<1, 32>>>(p); k<64, cub::BLOCK_LOAD_DIRECT><<<1, 64>>>(p);", True),
    ],
)
def test_cub_size_and_algorithm_of_one_instantiation_go_together(
    instantiations: str, reported: bool
) -> None:
    direct = JOINT_KERNEL + f"void h(int* p) {{ {instantiations} }}\n"
    assert bool(codes(direct, "HPY427")) == reported
    # the same through a second template
    outer = JOINT_KERNEL + (
        "template <int B, cub::BlockLoadAlgorithm A> void run(int* p) { k<B, A><<<1, B>>>(p); }\n"
        + "void h(int* p) { "
        + instantiations.replace("<<<1, 32>>>", "").replace("<<<1, 64>>>", "").replace("k<", "run<")
        + " }\n"
    )
    assert bool(codes(outer, "HPY427")) == reported


def test_cub_an_uninstantiated_template_is_not_reported() -> None:
    assert codes(TEMPLATE_KERNEL, "HPY427") == []


@pytest.mark.parametrize(("threads", "reported"), [(32, True), (128, False)])
@pytest.mark.parametrize(
    "shape",
    [
        # a typedef and a using alias of the block type
        "__global__ void a() { typedef cub::BlockLoad<int, NN, 4, " + WT + "> Load; }\n",
        "__global__ void a() { using Store = cub::BlockStore<int, NN, 4, "
        "cub::BLOCK_STORE_WARP_TRANSPOSE>; }\n",
        # an alias template of the block type, instantiated
        "template <int N> using Loader = cub::BlockLoad<int, N, 4, " + WT + ">;\n"
        "__global__ void a() { Loader<NN>::TempStorage* s = nullptr; (void)s; }\n",
        # a class template holding the typedef
        "template <int BLOCK> struct Cfg { typedef cub::BlockLoad<float, BLOCK, 2, "
        + WT
        + "> Load; };\n__global__ void a() { Cfg<NN>::Load* l = nullptr; (void)l; }\n",
        # the algorithm through a constant
        "constexpr cub::BlockLoadAlgorithm ALGO = " + WT + ";\n"
        "__global__ void a() { typedef cub::BlockLoad<int, NN, 4, ALGO> L; }\n",
        # after using namespace cub, without the namespace
        "using namespace cub;\n__global__ void a() { typedef BlockLoad<int, NN, 4, "
        "BLOCK_LOAD_WARP_TRANSPOSE> L; }\n",
    ],
    ids=[
        "typedef",
        "using",
        "alias-template",
        "class-template",
        "algorithm-constant",
        "unqualified",
    ],
)
def test_cub_block_types_through_aliases(threads: int, reported: bool, shape: str) -> None:
    found = codes(CUB_HEAD + shape.replace("NN", str(threads)), "HPY427")
    assert bool(found) == reported, found


def test_cub_another_algorithm_is_not_reported() -> None:
    src = CUB_HEAD + "__global__ void a() { typedef cub::BlockLoad<int, 32, 4> L; }\n"
    assert codes(src, "HPY427") == []
    src = CUB_HEAD + (
        "constexpr cub::BlockLoadAlgorithm ALGO = cub::BLOCK_LOAD_DIRECT;\n"
        "__global__ void a() { typedef cub::BlockLoad<int, 32, 4, ALGO> L; }\n"
    )
    assert codes(src, "HPY427") == []


def test_cub_the_verdict_is_what_hipcc_says() -> None:
    """A template path (Test<32, 4>() -> k<float, 32, 4>): hipcc 7.2 rejects
    the translation (rocPRIM's warp-transpose load needs whole wavefronts) and
    HPY427 is reported; with 64 it compiles and nothing is reported."""
    compiler = amd_compiler("7.2")
    for threads, reported in ((32, True), (64, False)):
        src = (
            CUB_HEAD + "template <typename T, int BLOCK_THREADS, int ITEMS>\n"
            "__global__ void k(T* p) {\n"
            f"    typedef cub::BlockLoad<T, BLOCK_THREADS, ITEMS, {WT}> L;\n"
            "    __shared__ typename L::TempStorage s;\n"
            "    T items[ITEMS];\n"
            "    L(s).Load(p, items);\n"
            "}\n"
            "template <int BLOCK, int ITEMS> void Test() { k<float, BLOCK, ITEMS><<<1, BLOCK>>>"
            "(nullptr); }\n"
            f"int main() {{ Test<{threads}, 4>(); }}\n"
        )
        result = translate(src, hip_version=compiler.hip_version)
        assert isinstance(result.text, str)
        assert any(d.code == "HPY427" for d in result.diagnostics) == reported
        with compiler.workspace() as work:
            (work / "unit.hip").write_text(result.text, encoding="utf-8")
            done = compiler.run(
                ["--offload-arch=gfx942", "-x", "hip", "-c", "unit.hip", "-o", "unit.o"], cwd=work
            )
        assert (done.returncode != 0) == reported, done.stderr[-3000:]
        if reported:
            assert "block_load_warp_transpose" in done.stderr


# ------------------------------------------------------------------ launch block sizes (HPY425)

WARP_KERNEL = (
    "#include <cuda_runtime.h>\n"
    "__global__ void reduce(float* p) { p[0] = __shfl_down_sync(0xffffffff, p[0], 1); }\n"
)


@pytest.mark.parametrize(("threads", "reported"), [(96, True), (48, True), (128, False)])
@pytest.mark.parametrize(
    "launch",
    [
        "void h(float* p) {{ reduce<<<1, {n}>>>(p); }}\n",
        "#define BLOCK {n}\nvoid h(float* p) {{ reduce<<<1, BLOCK>>>(p); }}\n",
        "constexpr int kBlock = {n};\nvoid h(float* p) {{ reduce<<<1, kBlock>>>(p); }}\n",
        "enum {{ BLOCK = {n} }};\nvoid h(float* p) {{ reduce<<<1, BLOCK>>>(p); }}\n",
        "constexpr int kX = {n};\nvoid h(float* p) {{ dim3 block(kX, 1); reduce<<<1, block>>>(p); }}\n",
        "template <int B> void launch(float* p) {{ reduce<<<1, B>>>(p); }}\n"
        "void h(float* p) {{ launch<{n}>(p); }}\n",
        "template <int B> void launch(float* p) {{ reduce<<<1, B>>>(p); }}\n"
        "template <int N> void outer(float* p) {{ launch<N>(p); }}\n"
        "void h(float* p) {{ outer<{n}>(p); }}\n",
    ],
)
def test_launch_block_size_follows_values(threads: int, reported: bool, launch: str) -> None:
    found = codes(WARP_KERNEL + launch.format(n=threads), "HPY425")
    assert bool(found) == reported, found
    if reported:
        assert f"launched with {threads} threads" in found[0][1]


# ------------------------------------------------------------------ lane math (HPY420)


@pytest.mark.parametrize(("value", "reported"), [(32, True), (64, False)])
@pytest.mark.parametrize(
    ("declaration", "operand", "op"),
    [
        ("#define LANES {n}\n", "LANES", "%"),
        ("constexpr int kLanes = {n};\n", "kLanes", "%"),
        ("enum {{ LANES = {n} }};\n", "LANES", "/"),
        ("constexpr int kLanes = {n};\n", "(kLanes - 1)", "&"),
        ("", "W", "%"),  # a template parameter, instantiated below
    ],
)
def test_lane_math_follows_a_named_operand(
    value: int, reported: bool, declaration: str, operand: str, op: str
) -> None:
    src = (
        "#include <cuda_runtime.h>\n" + declaration.format(n=value) + "template <int W>\n"
        f"__global__ void k(int* o) {{ int lane = threadIdx.x {op} {operand}; if (lane == 0) "
        "o[0] = 1; }\n"
        f"void h(int* o) {{ k<{value}><<<1, 64>>>(o); }}\n"
    )
    found = codes(src, "HPY420")
    assert bool(found) == reported, found


@pytest.mark.parametrize(
    ("check", "kernel"),
    [
        ("HPY420", "int lane = threadIdx.x % W; if (lane == 0) p[0] = 1;"),
        ("HPY423", "__shared__ float s[W]; s[0] = p[0]; p[1] = s[0];"),
        (
            "HPY421",
            "float v = p[0]; for (int o = W / 2; o > 0; o /= 2) v += "
            "__shfl_down_sync(0xffffffff, v, o); p[0] = v;",
        ),
    ],
)
def test_code_instantiated_for_several_widths_is_written_for_any_width(
    check: str, kernel: str
) -> None:
    """A logical warp width (CUB's LOGICAL_WARP_THREADS) instantiated with 32
    and 16: generic code, not reported; with 32 alone it is."""
    head = (
        f"#include <cuda_runtime.h>\ntemplate <int W> __global__ void k(float* p) {{ {kernel} }}\n"
    )
    generic = head + "void h(float* p) { k<32><<<1, 64>>>(p); k<16><<<1, 64>>>(p); }\n"
    only_32 = head + "void h(float* p) { k<32><<<1, 64>>>(p); }\n"
    assert codes(generic, check) == []
    assert codes(only_32, check) != []


def test_lane_math_with_a_named_operand_only_where_it_is_a_lane_count() -> None:
    """A named 32 is as often a tile's size: an index is not reported
    (tile[threadIdx.y % TILE][threadIdx.x % TILE])."""
    src = (
        "#include <cuda_runtime.h>\n#define TILE 32\n"
        "__global__ void k(float* o) { __shared__ float t[32][33];\n"
        "    t[threadIdx.y % TILE][threadIdx.x % TILE] = 0; o[threadIdx.x % TILE] = 1; }\n"
    )
    assert codes(src, "HPY420") == []


def test_a_warp_named_constant_is_reported_where_it_is_defined_only() -> None:
    src = (
        "#include <cuda_runtime.h>\n#define WARP_SIZE 32\n"
        "__global__ void k(int* o) { int lane = threadIdx.x % WARP_SIZE; if (lane == 0) "
        "o[0] = 1; }\n"
    )
    assert codes(src, "HPY420") == []
    assert [line for line, _ in codes(src, "HPY422")] == [2]


# ------------------------------------------------------------------ reductions, scans, lane 31


@pytest.mark.parametrize(("value", "reported"), [(16, True), (32, False)])
@pytest.mark.parametrize(
    ("declaration", "start"),
    [
        ("#define HALF {n}\n", "HALF"),
        ("constexpr int kHalf = {n};\n", "kHalf"),
        ("enum {{ HALF = {n} }};\n", "HALF"),
        ("", "START"),  # a template parameter
    ],
)
def test_a_reduction_start_follows_values(
    value: int, reported: bool, declaration: str, start: str
) -> None:
    src = (
        "#include <cuda_runtime.h>\n" + declaration.format(n=value) + "template <int START>\n"
        "__device__ float red(float v) {\n"
        f"    for (int o = {start}; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
        "    return v;\n}\n"
        f"__global__ void k(float* p) {{ p[0] = red<{value}>(p[0]); }}\n"
    )
    found = codes(src, "HPY421")
    assert bool(found) == reported, found


@pytest.mark.parametrize(("value", "reported"), [(16, True), (32, False)])
def test_an_unrolled_first_step_follows_a_constant(value: int, reported: bool) -> None:
    src = (
        f"#include <cuda_runtime.h>\nconstexpr int kFirst = {value};\n"
        "__global__ void k(float* p) { p[0] += __shfl_down_sync(0xffffffff, p[0], kFirst); }\n"
    )
    assert bool(codes(src, "HPY421")) == reported


@pytest.mark.parametrize(("value", "reported"), [(32, True), (64, False)])
def test_a_scan_bound_follows_a_template_parameter(value: int, reported: bool) -> None:
    src = (
        "#include <cuda_runtime.h>\ntemplate <int LIMIT> __device__ float scan(float v) {\n"
        "    for (int d = 1; d < LIMIT; d *= 2) v += __shfl_up_sync(0xffffffff, v, d);\n"
        "    return v;\n}\n"
        f"__global__ void k(float* p) {{ p[0] = scan<{value}>(p[0]); }}\n"
    )
    assert bool(codes(src, "HPY421")) == reported


@pytest.mark.parametrize(("value", "reported"), [(31, True), (63, False)])
def test_a_shuffle_from_the_last_lane_follows_a_constant(value: int, reported: bool) -> None:
    src = (
        f"#include <cuda_runtime.h>\n#define LAST {value}\n"
        "__global__ void k(float* p) { p[0] = __shfl_sync(0xffffffff, p[0], LAST); }\n"
    )
    found = [m for _, m in codes(src, "HPY420") if "lane 31" in m]
    assert bool(found) == reported


# ------------------------------------------------------------------ shared arrays (HPY423)


@pytest.mark.parametrize(("value", "reported"), [(32, True), (16, False)])
@pytest.mark.parametrize(
    ("declaration", "size"),
    [
        ("constexpr int kSlots = {n};\n", "kSlots"),
        ("enum {{ SLOTS = {n} }};\n", "SLOTS"),
        ("#define SLOTS ({n})\n", "SLOTS"),
        ("", "N"),  # a template parameter
    ],
)
def test_a_shared_array_size_follows_values(
    value: int, reported: bool, declaration: str, size: str
) -> None:
    src = (
        "#include <cuda_runtime.h>\n" + declaration.format(n=value) + "template <int N>\n"
        f"__global__ void k(float* p) {{ __shared__ float sums[{size}]; sums[0] = p[0]; "
        "p[1] = sums[0]; }\n"
        f"void h(float* p) {{ k<{value}><<<1, 64>>>(p); }}\n"
    )
    assert bool(codes(src, "HPY423")) == reported


# ------------------------------------------------------------------ masks (HPY401)


@pytest.mark.parametrize(
    ("mask", "noted"), [("0xffffffff", True), ("~0u", True), ("0xffff", False)]
)
def test_a_template_parameter_mask_names_the_full_mask_an_instantiation_gives(
    mask: str, noted: bool
) -> None:
    src = (
        "#include <cuda_runtime.h>\n"
        "template <unsigned MASK> __device__ float red(float v) "
        "{ return __shfl_down_sync(MASK, v, 1); }\n"
        f"__global__ void k(float* p) {{ p[0] = red<{mask}>(p[0]); }}\n"
    )
    (found,) = codes(src, "HPY401", hip_version="7.2")
    assert ("an instantiation in this file gives it" in found[1]) == noted
    if noted:
        assert f"gives it {mask}, CUDA's full mask" in found[1]
