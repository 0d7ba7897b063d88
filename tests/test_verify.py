"""The header scanner and the row checks of `hipify-py mappings verify`, on real
(small, synthetic) header folders and mapping tables: see verify_tree.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from verify_tree import make_tree

from hipify_py.tables.table import load_directory
from hipify_py.tables.verify import (
    Check,
    VerifyResult,
    declarations,
    expand,
    format_text,
    header_files,
    identifiers,
    macro_definitions,
    scan_headers,
    split_paths,
    to_json,
    verify,
)


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> VerifyResult:
    hip, cuda, mappings = make_tree(tmp_path_factory.mktemp("verify"))
    table = load_directory(mappings)
    return verify(table, scan_headers([hip], "hip"), scan_headers([cuda], "cuda"))


def outcome(result: VerifyResult, side: str, cuda: str) -> Check:
    (check,) = [c for c in result.checks if c.side == side and c.cuda == cuda]
    return check


# --------------------------------------------------------------------------- scanner


def kinds(source: str, name: str) -> set[str]:
    return declarations(source.encode()).get(name, set())


@pytest.mark.parametrize(
    ("source", "name", "kind"),
    [
        ("#define hipFoo 1\n", "hipFoo", "macro"),
        ("#define hipFoo(x) (x)\n", "hipFoo", "macro"),
        ("int hipFoo(int);\n", "hipFoo", "function"),
        ("static inline int hipFoo(void) { return 0; }\n", "hipFoo", "function"),
        ("void* hipFoo(void);\n", "hipFoo", "function"),
        ("typedef struct s* hipFoo;\n", "hipFoo", "type"),
        ("typedef void (*hipFoo)(int);\n", "hipFoo", "type"),
        ("struct hipFoo { int x; };\n", "hipFoo", "type"),
        ("class hipFoo;\n", "hipFoo", "type"),
        ("union hipFoo { int a; };\n", "hipFoo", "type"),
        ("enum hipFoo { hipA };\n", "hipFoo", "type"),
        ("enum hipFoo { hipA, hipB = 2 };\n", "hipB", "enum"),
        ("typedef enum { hipA,\n#ifdef X\n hipB,\n#endif\n} hipE;\n", "hipB", "enum"),
        ("using hipFoo = int;\n", "hipFoo", "type"),
        ("namespace hipcub { int x; }\n", "hipcub", "namespace"),
        ("namespace a::hipcub { }\n", "hipcub", "namespace"),
        ("namespace hipcub { int hipFoo(int); }\n", "hipFoo", "function"),
        ("namespace n { template <typename T> class hipFoo { }; }\n", "hipFoo", "type"),
        ("#define BEGIN namespace hipcub {\n", "hipcub", "namespace"),
        ("extern const int hipFoo;\n", "hipFoo", "variable"),
        ("int hipFoo = 3, *hipBar;\n", "hipBar", "variable"),
        ("using std::hipFoo;\n", "hipFoo", "variable"),
        ("struct S { int hipFoo(int); };\n", "hipFoo", "function"),
        ("#if 0\nint hipFoo(int);\n#else\nint hipBar(int);\n#endif\n", "hipFoo", "function"),
        ('extern "C" hipFoo @;\n', "hipFoo", "error"),
        # an enum tag macro tree-sitter does not know: the rest is still read
        (
            "typedef enum UNKNOWN hipE { hipA = 0 } hipE;\nint hipAfter(int);\n",
            "hipAfter",
            "function",
        ),
        ("typedef enum UNKNOWN hipE { hipA = 0 } hipE;\n", "hipA", "error"),
        ("#ifndef HIP_SWITCH\n#endif\n", "HIP_SWITCH", "tested"),
        ("#if defined(HIP_SWITCH) && 1\n#endif\n", "HIP_SWITCH", "tested"),
    ],
)
def test_each_declaration_kind(source: str, name: str, kind: str) -> None:
    assert kind in kinds(source, name)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("static int f(void) { int hipLocal = 0; return hipLocal; }\n", "hipLocal"),
        ("struct S { int hipField; };\n", "hipField"),
        ("int f(void) { return hipCalled(); }\n", "hipCalled"),
        ("// int hipInComment(void);\n", "hipInComment"),
        ('const char* s = "hipInString";\n', "hipInString"),
    ],
)
def test_uses_are_not_declarations(source: str, name: str) -> None:
    assert kinds(source, name) == set()


def test_macros_that_expand_to_nothing_are_blanked_before_parsing() -> None:
    # `enum X cudaError {` reads as a variable `cudaError` unless X is removed first
    source = "#define __device_builtin__\nenum __device_builtin__ cudaError { cudaSuccess = 0 };\n"
    assert kinds(source, "cudaSuccess") == {"enum"}
    assert "type" in kinds(source, "cudaError")
    calls = '#define DEPRECATED(m)\nDEPRECATED("old") typedef int hipOld_t;\n'
    assert kinds(calls, "hipOld_t") == {"type"}


def test_declaring_macros_are_expanded() -> None:
    source = (
        "#define DEFINE_STATE(name, base) \\\n"
        "    struct name : public base {}; \\\n"
        "    typedef struct name name ## _t;\n"
        "DEFINE_STATE(hiprandState, rocrand_state)\n"
        "namespace n {\nDEFINE_STATE(hiprandOther, rocrand_state)\n}\n"
    )
    names = declarations(source.encode())
    assert "type" in names["hiprandState"]
    assert "type" in names["hiprandState_t"]
    assert "hiprandOther_t" in names


def test_expand_handles_paste_stringize_and_variadic() -> None:
    macros = macro_definitions(
        b"#define M(a, b) a ## _x #b\n#define V(fmt, ...) f(fmt, __VA_ARGS__)\n"
    )
    (paste,) = macros.functions["M"]
    assert expand(paste, ["foo", "bar"]) == 'foo_x "bar"'
    (variadic,) = macros.functions["V"]
    assert expand(variadic, ["x", "1", "2"]) == "f(x, 1, 2)"


def test_alias_macros_pass_the_declaration_on(tmp_path: Path) -> None:
    _, cuda, _ = make_tree(tmp_path)
    scan = scan_headers([cuda], "cuda")
    assert "function" in scan.kinds("cuMemAlloc_v2")  # #define cuMemAlloc cuMemAlloc_v2


def test_versions_and_files(tmp_path: Path) -> None:
    hip, cuda, _ = make_tree(tmp_path)
    hip_scan = scan_headers([hip], "hip")
    assert hip_scan.version == (5, 7, 31921)
    assert hip_scan.values["hipblasVersionMinor"] == 54
    assert hip_scan.provides("hipblas/hipblas.h")
    assert not hip_scan.provides("hipblaslt/hipblaslt.h")
    assert scan_headers([cuda], "cuda").version == (12, 4, 0)
    # files count as well as folders, and os.pathsep lists split
    only = scan_headers(split_paths([f"{cuda / 'cuda.h'}"]), "cuda")
    assert only.version == (12, 4, 0)
    assert len(only.files) == 1
    with pytest.raises(FileNotFoundError, match="no such file"):
        header_files([tmp_path / "missing"])


@pytest.mark.parametrize(
    ("emitted", "expected"),
    [
        ("hipMalloc", [("hipMalloc", False)]),
        ("void*", []),
        (
            "rocrand_device::sobol32_engine<false>",
            [("rocrand_device", True), ("sobol32_engine", False)],
        ),
        ("const unsigned int", []),
        ("a :: b :: c", [("a", True), ("b", True), ("c", False)]),
    ],
)
def test_emitted_names_split_into_identifiers(
    emitted: str, expected: list[tuple[str, bool]]
) -> None:
    assert identifiers(emitted) == expected


# --------------------------------------------------------------------------- row outcomes


@pytest.mark.parametrize(
    ("side", "cuda", "expected"),
    [
        ("hip", "cudaMalloc", "ok"),  # function behind an empty function-like macro call
        ("hip", "cudaStream_t", "ok"),
        ("hip", "cudaHostFn_t", "ok"),
        ("hip", "cudaSuccess", "ok"),  # `enum __HIP_NODISCARD hipError_t {`
        ("hip", "cudaUnion", "ok"),
        ("hip", "cudaClass", "ok"),
        ("hip", "cudaAlias_t", "ok"),
        ("hip", "CUDA_MACRO", "ok"),
        ("hip", "cudaStreamPerThread", "ok"),
        ("hip", "cudaMethod", "ok"),
        ("hip", "cudaNamespaceMember", "ok"),
        ("hip", "cudaRegion", "ok"),  # only inside an ERROR region
        ("hip", "cudaVoidPtr", "ok"),  # "void*": nothing to declare
        ("hip", "cudaNewer", "newer"),
        ("hip", "cudaWrong", "failed"),
        ("hip", "cudaField", "failed"),  # a data member is not an API name
        ("hip", "cudaLocal", "failed"),  # nor a local variable
        ("hip", "cudaGone", "removed"),
        ("hip", "curandStateSobol32", "ok"),  # declared by a macro call
        ("hip", "curandStateSobol32_t", "ok"),  # ... with ## pasting
        ("roc", "curandStateSobol32", "ok"),  # rocrand_device::sobol32_engine<false>
        ("roc", "curandCreateGenerator", "failed"),
        ("roc", "curandQualified", "failed"),  # rocrand_fn is a function, not a namespace
        ("hip", "cublasCreate", "ok"),
        ("roc", "cublasCreate", "skipped"),  # no rocblas/ folder
        ("hip", "cublasLtCreate", "skipped"),  # hipBLASLt: a prefix in providers.yaml
        ("hip", "cublasNewer", "newer"),  # 5.6 > hipBLAS 0.54 = ROCm 5.5.1, though HIP is 5.7
        ("hip", "cudnnCreate", "skipped"),
        ("roc", "cudnnCreate", "skipped"),
        ("cuda", "cudnnCreate", "skipped"),
        ("cuda", "cudaMalloc", "ok"),
        ("cuda", "cudaSuccess", "ok"),  # `enum __device_builtin__ cudaError {`
        ("cuda", "cudaErrorApiFailureBase", "ok"),  # enumerator inside #ifdef
        ("cuda", "cuMemAlloc_v2", "ok"),  # #define cuMemAlloc cuMemAlloc_v2
        ("cuda", "CUdevResource", "ok"),  # typedef CONCAT(a, b) CUdevResource;
        ("cuda", "CUDA_USER_SWITCH", "ok"),  # a macro the headers only test
        ("cuda", "cublasLtCreate", "ok"),
        ("cuda", "cudaBrandNew", "newer"),
        ("cuda", "cudaRemovedLongAgo", "removed"),
        ("cuda", "cudaNotInCuda", "failed"),
    ],
)
def test_row_outcomes(result: VerifyResult, side: str, cuda: str, expected: str) -> None:
    check = outcome(result, side, cuda)
    assert check.outcome == expected, check


def test_skip_and_newer_details(result: VerifyResult) -> None:
    assert outcome(result, "hip", "cublasLtCreate").detail == (
        "skipped: hipblaslt headers not available (hipblaslt/hipblaslt.h)"
    )
    assert (
        outcome(result, "cuda", "cudnnCreate").detail
        == "skipped: cudnn headers not available (cudnn.h)"
    )
    assert "headers are 5.5.1" in outcome(result, "hip", "cublasNewer").detail
    assert outcome(result, "roc", "curandCreateGenerator").missing == ("missing_engine",)
    assert "hipblas 0.54.0 is ROCm 5.5.1" in result.notes


def test_library_filter(tmp_path: Path) -> None:
    hip, _, mappings = make_tree(tmp_path)
    only = verify(load_directory(mappings), scan_headers([hip], "hip"), None, ["blas"])
    assert {c.library for c in only.checks} == {"blas"}
    assert {c.side for c in only.checks} == {"hip", "roc"}
    assert only.ok


def test_text_output(result: VerifyResult) -> None:
    text = format_text(result)
    assert "HIP headers: 5.7.31921" in text
    assert "CUDA headers: 12.4" in text
    assert "newer than headers" in text
    assert "blas: skipped: hipblaslt headers not available (hipblaslt/hipblaslt.h): 1 rows" in text
    failures = [line for line in text.splitlines() if "not declared" in line]
    assert len(failures) == len(result.failures()) == 6
    assert any(
        line.endswith("runtime.yaml:24: cudaWrong -> hipWrong: not declared in HIP headers")
        for line in failures
    )
    assert any(
        "curandQualified -> rocrand_fn::x (roc): not declared in HIP headers (missing: rocrand_fn, x)"
        in line
        for line in failures
    )
    assert any(line.endswith("cudaNotInCuda: not declared in CUDA headers") for line in failures)


def test_json_output(result: VerifyResult) -> None:
    doc = json.loads(to_json(result))
    assert doc["ok"] is False
    assert doc["hip_headers"]["version"] == "5.7.31921"
    assert doc["cuda_headers"]["version"] == "12.4"
    assert doc["summary"]["hip"]["runtime"] == {
        "checked": 22,
        "ok": 17,
        "failed": 3,
        "newer": 1,
        "removed": 1,
        "skipped": 0,
    }
    assert doc["summary"]["cuda"]["dnn"]["skipped"] == 1
    assert {f["cuda"] for f in doc["failures"]} == {
        "cudaWrong",
        "cudaField",
        "cudaLocal",
        "curandCreateGenerator",
        "curandQualified",
        "cudaNotInCuda",
    }
    assert any(n["cuda"] == "cudaNewer" for n in doc["newer"])


def test_names_the_argument_fixes_write_are_checked(tmp_path: Path) -> None:
    """The HIP names an ``arg_inserts`` / ``arg_defaults`` text writes are
    checked like the row's own (a name the headers lack fails)."""
    hip, _, mappings = make_tree(tmp_path)
    (mappings / "runtime-writes.curated.yaml").write_text(
        "schema: 1\nlibrary: runtime\ntitle: t\nsource: s\nsections:\n  S:\n"
        "    cudaWrites: {hip: hipFree, kind: function,"
        ' arg_inserts: {0: "hipNotDeclared"}, arg_defaults: {1: "hipSuccess"}}\n'
    )
    found = verify(load_directory(mappings), scan_headers([hip], "hip"))
    written = {c.name: c.outcome for c in found.checks if c.cuda == "cudaWrites"}
    assert written == {"hipFree": "ok", "hipSuccess": "ok", "hipNotDeclared": "failed"}
