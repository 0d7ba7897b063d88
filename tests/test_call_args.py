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
