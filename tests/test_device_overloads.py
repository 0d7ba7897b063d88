"""Device min/max (and the other overload sets CUDA and HIP both declare)
keep CUDA's result type after translation: the device_overloads rule casts
the arguments where HIP's overload would differ, reports the calls whose
argument types it cannot know (HPY462).  The data comes from tools/semantic_check.py;
tests/test_semantic_check.py compiles every call with the real compilers."""

from __future__ import annotations

import pytest
import yaml

from hipify_py import translate
from hipify_py.rules import device_overloads as rule


def out(src: str, **options: object) -> str:
    text = translate(src, **options).text
    assert isinstance(text, str)
    return text


def codes(src: str) -> list[str]:
    return [d.code for d in translate(src).diagnostics]


KERNEL = "#include <cuda_runtime.h>\n__global__ void k(float* x, int C, unsigned u, const int* idx) {{\n  int i = threadIdx.x;\n  {body}\n}}\n"


def kernel(body: str) -> str:
    return KERNEL.format(body=body)


def test_the_known_case_keeps_cudas_unsigned_min() -> None:
    """min(int, unsigned) is CUDA's unsigned int; HIP's is a double ("array
    subscript is not an integer" with hipcc 7.2.4)."""
    src = kernel("x[min(C - 1, i + u * blockDim.x)] = 0;")
    text = out(src)
    assert "x[min((unsigned int)(C - 1), i + u * blockDim.x)] = 0;" in text
    assert "HPY462" not in codes(src)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("min(i, u)", "min((unsigned int)(i), u)"),
        ("max(u, 0)", "max(u, (unsigned int)(0))"),  # 0 is an int
        ("min(i, 7u)", "min((unsigned int)(i), 7u)"),
        # HIP 5.7's threadIdx.x is an object that converts to unsigned: cast too
        ("min(i, threadIdx.x)", "min((unsigned int)(i), (unsigned int)(threadIdx.x))"),
        ("min(threadIdx.x, u)", "min((unsigned int)(threadIdx.x), u)"),
        ("max(idx[i], u)", "max((unsigned int)(idx[i]), u)"),  # const int* element
        ("min((unsigned)C, i)", "min((unsigned)C, (unsigned int)(i))"),
        ("min(s, c)", "min((int)(s), (int)(c))"),  # CUDA: int; HIP: short / double
        ("max(s, s)", "max((int)(s), (int)(s))"),
        ("min(n, m)", "min((unsigned long)(n), m)"),  # long and size_t
        ("min(ll, ull)", "min((unsigned long long)(ll), ull)"),
        ("min(-i, u)", "min((unsigned int)(-i), u)"),
        ("min(i > 0 ? i : C, u)", "min((unsigned int)(i > 0 ? i : C), u)"),
        ("min(i << 2, u)", "min((unsigned int)(i << 2), u)"),
        ("max(min(i, C), u)", "max((unsigned int)(min(i, C)), u)"),  # nested: CUDA's int
        ("::min(i, u)", "::min((unsigned int)(i), u)"),  # the global overloads, qualified
    ],
)
def test_arguments_of_known_types_are_cast_to_cudas_type(call: str, expected: str) -> None:
    body = (
        "short s = 1; char c = 2; long n = 3; size_t m = 4; long long ll = 5;\n"
        "  unsigned long long ull = 6;\n"
        f"  x[0] = {call};"
    )
    src = kernel(body)
    assert f"x[0] = {expected};" in out(src)
    assert "HPY462" not in codes(src)


@pytest.mark.parametrize(
    "call",
    [
        "min(i, C)",
        "max(u, 3u)",
        "min(x[0], 1.0f)",
        "fminf(x[0], 2.0f)",
        "min(i, (int)blockDim.x)",
        "abs(i)",
        "std::min(i, u)",  # std's, not the device overload set
    ],
)
def test_calls_hip_types_as_cuda_does_are_left_alone(call: str) -> None:
    src = kernel(f"x[0] = {call};")
    assert f"x[0] = {call};" in out(src)
    assert "HPY462" not in codes(src)


def test_a_type_the_tree_cannot_tell_is_reported() -> None:
    src = (
        "#include <cuda_runtime.h>\n"
        "template <class T> __device__ T f(T a, unsigned b) { return min(a, b); }\n"
        "struct S;  // defined elsewhere: its members' types are not known here\n"
        "__device__ int g(const S& s, int z) { return max(s.v, z); }\n"
    )
    result = translate(src)
    found = [d for d in result.diagnostics if d.code == "HPY462"]
    assert [d.line for d in found] == [2, 4]
    assert "the type of a is not known" in found[0].message
    assert "(int, unsigned int)" in found[0].message
    assert str(result.text).count("min(a, b)") == 1  # left as it is


def test_no_report_where_no_type_could_make_hip_differ() -> None:
    """min(unknown, 1.0f): whatever the unknown is, CUDA and HIP agree (or
    CUDA rejects the call)."""
    src = (
        "#include <cuda_runtime.h>\n"
        "struct S { float v; };\n"
        "__device__ float g(S s) { return min(s.v, 1.0f) + fminf(s.v, 2.0f); }\n"
    )
    assert "HPY462" not in codes(src)


def test_host_code_and_the_projects_own_min_are_left_alone() -> None:
    host = "#include <cuda_runtime.h>\nint h(int a, unsigned b) { return min(a, b); }\n"
    assert "return min(a, b);" in out(host)
    own = (
        "#include <cuda_runtime.h>\n"
        "__device__ unsigned min(int a, unsigned b) { return a < b ? a : b; }\n"
        "__global__ void k(unsigned* o, int a, unsigned b) { o[0] = min(a, b); }\n"
    )
    assert "o[0] = min(a, b);" in out(own)


def test_a_comment_never_gives_an_argument_its_type() -> None:
    src = kernel("// unsigned q;\n  int q = 1;\n  x[0] = min(q, u);")
    assert "x[0] = min((unsigned int)(q), u);" in out(src)


def test_the_umin_family_is_left_to_compat() -> None:
    """HIP has no umin/umax/llmin/...: they stay and are reported (HPY101),
    and --compat's hipify_py_compat.h provides them; the rule leaves them."""
    src = kernel("x[0] = umin(i, C) + ullmax(i, u);")
    assert "x[0] = umin(i, C) + ullmax(i, u);" in out(src)
    assert "HPY101" in codes(src) and "HPY462" not in codes(src)


def test_data_file_reads_as_pyyaml_reads_it() -> None:
    found = rule.overloads()
    loaded = yaml.safe_load(rule.DATA_FILE.read_text())
    cuda = {f: {args: str(v["cuda"]) for args, v in rows.items()} for f, rows in loaded.items()}
    differs = {
        f: {
            args: ", ".join(str(r) for r in v["differs"])
            for args, v in rows.items()
            if "differs" in v
        }
        for f, rows in loaded.items()
    }
    assert found.cuda == cuda
    assert found.differs == {f: rows for f, rows in differs.items() if rows}
    # what the check measured: mixed signedness differs, CUDA's unsigned wins
    assert found.cuda["min"]["int, unsigned int"] == "unsigned int"
    assert "int, unsigned int" in found.differs["min"]
    assert "int, int" not in found.differs["min"]
    assert found.cuda["max"]["short, short"] == "int"


def test_a_malformed_data_line_is_an_error(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    bad = tmp_path / "d.yaml"
    bad.write_text('min:\n  "int, int": int\n')
    with pytest.raises(ValueError, match="unexpected line"):
        rule.overloads.__wrapped__(bad)


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("int", "unsigned int", "unsigned int"),
        ("short", "char", "int"),
        ("long", "unsigned int", "long"),
        ("long long", "unsigned long", "unsigned long long"),
        ("unsigned long", "long long", "unsigned long long"),
        ("int", "long", "long"),
        ("float", "long", "float"),
        ("double", "float", "double"),
        ("__half", "int", None),
    ],
)
def test_usual_arithmetic_conversions(left: str, right: str, expected: str | None) -> None:
    assert rule.common(left, right) == expected
    assert rule.common(right, left) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", "int"),
        ("7u", "unsigned int"),
        ("0x10", "int"),
        ("0xFFFFFFFF", "unsigned int"),
        ("4294967295", "long"),
        ("3000000000u", "unsigned int"),
        ("010", "int"),
        ("5l", "long"),
        ("5ull", "unsigned long long"),
        ("1.0", "double"),
        ("1.0f", "float"),
        ("1e3", "double"),
        ("1.0L", None),
    ],
)
def test_literal_types(text: str, expected: str | None) -> None:
    assert rule.literal_type(text) == expected


def test_a_very_deep_argument_is_not_typed_and_nothing_breaks() -> None:
    """Generated code may nest thousands of operators: the typing stops at a
    depth (the call is then of unknown type, reported), never at Python's
    recursion limit."""
    deep = " + ".join(["i"] * 3000)
    src = kernel(f"x[0] = min({deep}, u);")
    result = translate(src)
    assert [d.code for d in result.diagnostics if d.code.startswith("HPY00")] == []
    assert "HPY462" in [d.code for d in result.diagnostics]


def test_members_of_the_files_own_structs_and_auto_locals_have_their_types() -> None:
    src = (
        "#include <cuda_runtime.h>\n"
        "struct Params { int n; unsigned m, *q; };\n"
        "typedef struct { long k; } Sizes;\n"
        "__global__ void k(Params p, const Params* pp, Sizes z, unsigned u, size_t w) {\n"
        "  auto t = blockDim.x;\n"
        "  const auto c = p.n - 1;\n"
        "  unsigned r = min(p.n, u) + min(pp->n, pp->m) + max(t, p.n) + min(c, u);\n"
        "  r += min(z.k, w);\n"
        "}\n"
    )
    result = translate(src)
    text = str(result.text)
    assert (
        "unsigned r = min((unsigned int)(p.n), u) + min((unsigned int)(pp->n), pp->m) + "
        "max((unsigned int)(t), (unsigned int)(p.n)) + min((unsigned int)(c), u);" in text
    )
    assert "r += min((unsigned long)(z.k), w);" in text
    assert "HPY462" not in [d.code for d in result.diagnostics]


def test_a_struct_name_defined_twice_is_not_guessed() -> None:
    src = (
        "#include <cuda_runtime.h>\n"
        "namespace a { struct P { int n; }; }\n"
        "namespace b { struct P { unsigned n; }; }\n"
        "__device__ unsigned f(a::P p, unsigned u) { return min(p.n, u); }\n"
        "__device__ unsigned g(P p, unsigned u) { return min(p.n, u); }\n"
    )
    result = translate(src)
    assert str(result.text).count("min(p.n, u)") == 2
    assert [d.code for d in result.diagnostics].count("HPY462") == 2
