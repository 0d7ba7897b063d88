"""Argument-level fixes (casts, HIP_SYMBOL, defaults HIP lacks), in code and in
``#define`` bodies, and the scanner that splits calls inside macro bodies."""

from __future__ import annotations

import pytest

from hipify_py import translate
from hipify_py.rules.call_args import call_in_text


def out(src: str, **options: object) -> str:
    text = translate(src, **options).text
    assert isinstance(text, str)
    return text


def test_default_argument_hip_lacks_is_spelled_out() -> None:
    src = "void f(cudaStream_t s, cudaEvent_t e) { cudaStreamWaitEvent(s, e); }\n"
    assert "hipStreamWaitEvent(s, e, 0);" in out(src)


def test_given_argument_is_not_doubled() -> None:
    src = "void f(cudaStream_t s, cudaEvent_t e) { cudaStreamWaitEvent(s, e, 0); }\n"
    assert "hipStreamWaitEvent(s, e, 0);" in out(src)


def test_default_argument_inside_macro_body() -> None:
    src = "#define WAIT(s, e) CHECK(cudaStreamWaitEvent(s, e))\n"
    assert "#define WAIT(s, e) CHECK(hipStreamWaitEvent(s, e, 0))" in out(src)


def test_kernel_cast_inside_macro_body_with_continuations() -> None:
    src = (
        "#define SET_LIMIT(kernel, nbytes) \\\n"
        "    CHECK(cudaFuncSetAttribute(kernel, \\\n"
        "        cudaFuncAttributeMaxDynamicSharedMemorySize, nbytes))\n"
    )
    assert (
        "CHECK(hipFuncSetAttribute((const void*)(kernel), \\\n"
        "        hipFuncAttributeMaxDynamicSharedMemorySize, nbytes))"
    ) in out(src)


def test_symbol_wrap_inside_macro_body() -> None:
    src = "#define COPY(sym, src) cudaMemcpyToSymbol(sym, src, sizeof(sym))\n"
    assert "hipMemcpyToSymbol(HIP_SYMBOL(sym), src, sizeof(sym))" in out(src)


def test_template_kernel_argument_in_code_and_macro() -> None:
    code = "void f() { cudaFuncSetAttribute(k<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 9); }\n"
    assert "hipFuncSetAttribute((const void*)(k<float, 4>), " in out(code)
    macro = "#define S cudaFuncSetAttribute(k<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 9)\n"
    assert "hipFuncSetAttribute((const void*)(k<float, 4>), " in out(macro)


def test_macro_call_cut_by_the_end_of_the_body_gets_no_fix() -> None:
    src = "#define OPEN cudaStreamWaitEvent(s,\n"
    result = out(src)
    assert "hipStreamWaitEvent(s," in result and ", 0" not in result


def test_trap_not_alone_on_its_line_becomes_the_platform_helper() -> None:
    src = "__global__ void k(int* p) { if (!p) __trap(); }\n"
    result = out(src)
    assert "if (!p) hipify_py_trap(); }" in result
    assert "#define hipify_py_trap __builtin_trap" in result


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f(a, b)", ["a", "b"]),
        ("f()", []),
        ("f( x )", ["x"]),
        ("f(g(a, b), c[1, 2], {d, e})", ["g(a, b)", "c[1, 2]", "{d, e}"]),
        ("f(k<T, 4>, n)", ["k<T, 4>", "n"]),
        ("f(a < b, c)", ["a < b", "c"]),
        ("f(n > 0 ? a : b, c)", ["n > 0 ? a : b", "c"]),
        # as in C++ itself, `name<` with a `>` later reads as template arguments
        ("f(a < b, c > d)", ["a < b, c > d"]),
        ("f(\"a, b\", ',')", ['"a, b"', "','"]),
        ("f(a, \\\n  b)", ["a", "b"]),
    ],
)
def test_call_in_text_splits_top_level_commas(text: str, expected: list[str]) -> None:
    call = call_in_text(text, 1, len(text))
    assert call is not None
    assert [text[a.start : a.end] for a in call.args] == expected
    assert text[call.close] == ")"


@pytest.mark.parametrize("text", ["f(a, b", "f(a; b)", "f(a /* x */)", "f)", "g", 'f("a)'])
def test_call_in_text_gives_up_when_unsure(text: str) -> None:
    assert call_in_text(text, 1, len(text)) is None


def test_cuda12_graph_instantiate_forms() -> None:
    src = (
        "void f(cudaGraphExec_t* e, cudaGraph_t g) {\n"
        "  cudaGraphInstantiate(e, g, 0);\n"
        "  cudaGraphInstantiate(e, g);\n"
        "  cudaGraphInstantiate(e, g, nullptr, nullptr, 0);\n"
        "}\n"
    )
    text = out(src, hip_version="5.7")
    assert (
        "hipGraphInstantiateWithFlags(e, g, 0);\n  hipGraphInstantiateWithFlags(e, g, 0);" in text
    )
    assert "hipGraphInstantiate(e, g, nullptr, nullptr, 0);" in text


def test_cuda12_capture_info_uses_the_v2_function() -> None:
    src = "void f(cudaStream_t s) { cudaStreamGetCaptureInfo(s, &st, &id, &g, &d, &n); }\n"
    assert "hipStreamGetCaptureInfo_v2(s, &st, &id, &g, &d, &n);" in out(src, hip_version="5.7")
    three = "void f(cudaStream_t s) { cudaStreamGetCaptureInfo(s, &st, &id); }\n"
    assert "hipStreamGetCaptureInfo(s, &st, &id);" in out(three, hip_version="5.7")


def test_arity_hip_lacks_is_reported_and_left_alone() -> None:
    src = "void f(cudaGraphExec_t e, cudaGraph_t g) { cudaGraphExecUpdate(e, g, &info); }\n"
    result = translate(src, hip_version="5.7")
    assert "cudaGraphExecUpdate(e, g, &info);" in str(result.text)
    found = [d for d in result.diagnostics if d.code == "HPY101"]
    assert found and "with 3 arguments" in found[0].message
    four = "void f(cudaGraphExec_t e, cudaGraph_t g) { cudaGraphExecUpdate(e, g, &n, &r); }\n"
    assert "hipGraphExecUpdate(e, g, &n, &r);" in out(four, hip_version="5.7")


def test_macro_parameter_is_cast_even_if_the_file_declares_the_name_elsewhere() -> None:
    src = (
        "void g(const void* kernel);\n"
        "#define SET(kernel) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0)\n"
    )
    assert "hipFuncSetAttribute((const void*)(kernel), " in out(src)


def test_declared_type_counts_only_in_the_calling_function() -> None:
    src = (
        "void a(const void* kernel) { cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }\n"
        "__global__ void kernel() {}\n"
        "void b() { cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0); }\n"
    )
    lines = out(src).splitlines()[1:]  # after the inserted runtime include
    assert "hipFuncSetAttribute(kernel, " in lines[0]
    assert "hipFuncSetAttribute((const void*)(kernel), " in lines[2]


def test_hip_header_of_a_name_is_included_once() -> None:
    src = (
        "#include <cuda.h>\n"
        "void f(CUlinkState* s) { cuLinkCreate(0, nullptr, nullptr, s); cuLinkDestroy(*s); }\n"
    )
    text = out(src, hip_version="5.7")
    assert text.startswith("#include <hip/hip_runtime.h>\n#include <hip/hiprtc.h>\n")
    assert text.count("hip/hiprtc.h") == 1
    assert out(text, hip_version="5.7") == text  # translating twice changes nothing


def test_signature_caution_is_reported_once_per_name() -> None:
    src = (
        "void f(cusparseHandle_t h) { int n;\n"
        "  cusparseScsr2gebsr_bufferSize(h, d, t, m, n, a, v, r, c, 2, 2, &n);\n"
        "  cusparseScsr2gebsr_bufferSize(h, d, t, m, n, a, v, r, c, 2, 2, &n); }\n"
    )
    result = translate(src)
    cautions = [d for d in result.diagnostics if d.code == "HPY109"]
    assert len(cautions) == 1 and "size_t" in cautions[0].message
    assert cautions[0].severity.value == "warning"
    assert str(result.text).count("hipsparseScsr2gebsr_bufferSize(") == 2


# --- a local's type comes from its declaration in the tree, never from text ---

_DOT = "cublasCdotu(h, n, x, 1, y, 1, {arg});"
_CAST_OUT = "(rocblas_float_complex*)({arg})"


def _dot_file(body: str, arg: str) -> str:
    return (
        "#include <cublas_v2.h>\n"
        "void f(cublasHandle_t h, int n, const cuComplex* x, const cuComplex* y) {\n"
        f"{body}\n  {_DOT.format(arg=arg)}\n}}\n"
    )


@pytest.mark.parametrize(
    "body",
    [
        # the comment spells a declaration of the ROC type: the code's is cuComplex
        "  // was: rocblas_float_complex complex, ...\n  cuComplex complex, d;",
        "  /* rocblas_float_complex complex; */ cuComplex complex;",
        '  const char* s = "rocblas_float_complex complex";\n  cuComplex complex;',
        # a macro body is no declaration in this function
        "#define DECL rocblas_float_complex complex;\n  cuComplex complex;",
        # several declarators: each has its own type
        "  cuComplex a, *b, complex, c[3];",
        "  rocblas_float_complex* complex_ptr; cuComplex complex;",
    ],
)
def test_address_of_a_local_is_cast_whatever_text_says_about_it(body: str) -> None:
    text = out(_dot_file(body, "&complex"), roc=True)
    assert _CAST_OUT.format(arg="&complex") in text, text


def test_each_declarator_of_one_declaration_has_its_own_type() -> None:
    body = "  cuComplex a, *b, c[3];\n  cublasCdotu(h, n, b, 1, c, 1, b);"
    text = out(_dot_file(body, "&a"), roc=True)
    assert "rocblas_cdotu(h, n, (const rocblas_float_complex*)(b), 1, " in text
    assert "(const rocblas_float_complex*)(c), 1, (rocblas_float_complex*)(b));" in text
    assert _CAST_OUT.format(arg="&a") in text


def test_a_variable_declared_with_the_cast_type_is_not_cast() -> None:
    """Only a declaration in code, of exactly that type, saves the cast: a
    declarator of the ROC type, a pointer parameter, an array (decays to a
    pointer), a file-scope variable; ``&arr`` of an array is no pointer to its
    element, and a name in a comment or another function counts for nothing."""
    src = (
        "#include <cublas_v2.h>\n"
        "rocblas_float_complex g;\n"
        "void other(rocblas_float_complex w) {}\n"
        "void f(cublasHandle_t h, int n, rocblas_float_complex* r, const cuComplex* x) {\n"
        "  cuComplex z, rr; rocblas_float_complex v, arr[3];\n"
        "  // rocblas_float_complex z;\n"
        "  cublasCdotu(h, n, x, 1, x, 1, &v);\n"
        "  cublasCdotu(h, n, x, 1, x, 1, r);\n"
        "  cublasCdotu(h, n, x, 1, x, 1, arr);\n"
        "  cublasCdotu(h, n, x, 1, x, 1, &g);\n"
        "  cublasCdotu(h, n, x, 1, x, 1, &arr);\n"
        "  cublasCdotu(h, n, x, 1, x, 1, &z);\n"
        "  cublasCdotu(h, n, x, 1, x, 1, &w);\n"
        "}\n"
    )
    lines = out(src, roc=True).splitlines()
    calls = [line for line in lines if "rocblas_cdotu(" in line]
    assert [c.rsplit(", 1, ", 1)[1] for c in calls] == [
        "&v);",
        "r);",
        "arr);",
        "&g);",
        "(rocblas_float_complex*)(&arr));",
        "(rocblas_float_complex*)(&z));",
        "(rocblas_float_complex*)(&w));",
    ]


def test_a_parameter_of_the_macro_is_cast_though_a_local_has_the_type() -> None:
    src = (
        "#include <cublas_v2.h>\n"
        "void f() { rocblas_float_complex r; }\n"
        "#define DOT(h, n, x, y, r) cublasCdotu(h, n, x, 1, y, 1, r)\n"
    )
    assert "(rocblas_float_complex*)(r))" in out(src, roc=True)
