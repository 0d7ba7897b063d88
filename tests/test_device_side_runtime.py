"""CUDA dynamic parallelism (HPY302, rules/launch.py): a kernel launch or a
runtime API call made in device code is an error at the call; the same calls
in host code, and in the host half of a ``__host__ __device__`` function, are
not reported."""

from __future__ import annotations

from typing import Any

import pytest

from hipify_py import translate


def reported(src: str, **options: Any) -> list[tuple[int, int, str]]:
    """(line, column, name) of each HPY302."""
    found = translate("#include <cuda_runtime.h>\n" + src, **options).diagnostics
    return [(d.line - 1, d.column, d.name) for d in found if d.code == "HPY302"]


def severity(src: str) -> set[str]:
    found = translate("#include <cuda_runtime.h>\n" + src).diagnostics
    return {d.severity.value for d in found if d.code == "HPY302"}


CHILD = "__global__ void child(int* p) { p[0] = 1; }\n"


@pytest.mark.parametrize("qualifier", ["__global__", "__device__", "__host__ __device__"])
@pytest.mark.parametrize(
    ("call", "name"),
    [
        ("child<<<1, 32>>>(p);", "child"),
        ("child<<<dim3(1), dim3(32), 0, 0>>>(p);", "child"),
        (
            "void* a[] = {&p}; cudaLaunchKernel((void*)child, dim3(1), dim3(1), a, 0, 0);",
            "cudaLaunchKernel",
        ),
        ("int* q; cudaMalloc(&q, 16);", "cudaMalloc"),
        ("cudaFree(p);", "cudaFree"),
        (
            "cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);",
            "cudaStreamCreateWithFlags",
        ),
        ("cudaDeviceSynchronize();", "cudaDeviceSynchronize"),
        ("cudaMemcpyAsync(p, p + 1, 4, cudaMemcpyDeviceToDevice, 0);", "cudaMemcpyAsync"),
        ("if (cudaGetLastError() != cudaSuccess) return;", "cudaGetLastError"),
    ],
)
def test_a_launch_or_runtime_call_in_device_code_is_an_error_at_the_call(
    qualifier: str, call: str, name: str
) -> None:
    src = CHILD + f"{qualifier} void parent(int* p) {{\n    {call}\n}}\n"
    found = reported(src)
    assert [(line, n) for line, _, n in found] == [(3, name)]
    column = call.index(name) + 5  # 4 spaces of indent, columns from 1
    assert found[0][1] == column
    assert severity(src) == {"error"}


@pytest.mark.parametrize(
    "call",
    [
        "child<<<1, 32>>>(p);",
        "int* q; cudaMalloc(&q, 16); cudaFree(q);",
        "cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);",
        "cudaDeviceSynchronize();",
        "void* a[] = {&p}; cudaLaunchKernel((void*)child, dim3(1), dim3(1), a, 0, 0);",
    ],
)
@pytest.mark.parametrize("host", ["void host(int* p) {", "__host__ void host(int* p) {"])
def test_host_code_is_not_reported(call: str, host: str) -> None:
    assert reported(CHILD + f"{host}\n    {call}\n}}\n") == []


def test_a_host_lambda_and_a_device_lambda() -> None:
    src = CHILD + (
        "void host(int* p) {\n"
        "    auto h = [=] () { child<<<1, 1>>>(p); cudaDeviceSynchronize(); };\n"
        "    auto d = [=] __device__ () { child<<<1, 1>>>(p); };\n"
        "}\n"
    )
    assert [(line, name) for line, _, name in reported(src)] == [(4, "child")]


def test_a_template_kernel_and_a_device_function_of_a_class() -> None:
    src = CHILD + (
        "template <typename T> __global__ void t(T* p) { child<<<1, 1>>>(p); }\n"
        "struct S { __device__ void go(int* p) { cudaDeviceSynchronize(); } };\n"
    )
    assert [(line, name) for line, _, name in reported(src)] == [
        (2, "child"),
        (3, "cudaDeviceSynchronize"),
    ]


@pytest.mark.parametrize(
    ("host_test", "device_test"),
    [
        ("#ifndef __CUDA_ARCH__", None),
        ("#if !defined(__CUDA_ARCH__)", None),
        ("#if !defined __CUDA_ARCH__", None),
        ("#ifdef __CUDA_ARCH__\n    p[0] = 0;\n#else", "ifdef"),
        ("#if defined(__CUDA_ARCH__)\n    p[0] = 0;\n#else", "if"),
        ("#if __CUDA_ARCH__\n    p[0] = 0;\n#elif defined(X)\n    p[0] = 1;\n#else", "elif"),
    ],
)
def test_the_host_half_of_a_host_device_function_is_host_code(
    host_test: str, device_test: str | None
) -> None:
    src = CHILD + (
        "__host__ __device__ void both(int* p) {\n"
        f"{host_test}\n"
        "    cudaDeviceSynchronize();\n"
        "    child<<<1, 1>>>(p);\n"
        "#endif\n"
        "}\n"
    )
    assert reported(src) == []


@pytest.mark.parametrize(
    "device_test",
    ["#ifdef __CUDA_ARCH__", "#if defined(__CUDA_ARCH__)", "#if __CUDA_ARCH__ >= 350"],
)
def test_the_device_half_is_still_reported(device_test: str) -> None:
    src = CHILD + (
        "__host__ __device__ void both(int* p) {\n"
        f"{device_test}\n"
        "    cudaDeviceSynchronize();\n"
        "#endif\n"
        "}\n"
    )
    assert [name for _, _, name in reported(src)] == ["cudaDeviceSynchronize"]


MACROS = (
    "#define SYNC() cudaDeviceSynchronize()\n"
    "#define LAUNCH_CHILD(p) child<<<1, 1>>>(p)\n"
    "#define OUTER(p) do { LAUNCH_CHILD(p); } while (0)\n"
    "#define HARMLESS(x) ((x) + 1)\n"
)


def test_a_macro_launching_or_calling_the_runtime_is_reported_where_device_code_uses_it() -> None:
    src = (
        CHILD
        + MACROS
        + (
            "__global__ void k(int* p) {\n"
            "    SYNC();\n"
            "    OUTER(p);\n"
            "    p[0] = HARMLESS(p[1]);\n"
            "}\n"
        )
    )
    found = translate("#include <cuda_runtime.h>\n" + src).diagnostics
    messages = [(d.line - 1, d.name, d.message) for d in found if d.code == "HPY302"]
    assert [(line, name) for line, name, _ in messages] == [(7, "SYNC"), (8, "OUTER")]
    assert "calls cudaDeviceSynchronize" in messages[0][2]
    assert "uses LAUNCH_CHILD, which launches a kernel" in messages[1][2]


def test_the_same_macros_in_host_code_are_not_reported() -> None:
    src = CHILD + MACROS + "void h(int* p) { SYNC(); OUTER(p); LAUNCH_CHILD(p); }\n"
    assert reported(src) == []


def test_device_code_in_a_string_or_comment_is_not_device_code() -> None:
    src = CHILD + (
        'const char* kernel = "__global__ void k() { cudaDeviceSynchronize(); }";\n'
        "// __global__ void k() { child<<<1, 1>>>(0); }\n"
        "void h() { cudaDeviceSynchronize(); }\n"
    )
    assert reported(src) == []


def test_a_macro_defined_for_the_host_pass_only_is_not_the_device_one() -> None:
    src = CHILD + (
        "#ifdef __CUDA_ARCH__\n"
        "#define CHECK(x) (x)\n"
        "#else\n"
        "#define CHECK(x) do { if ((x) != cudaSuccess) cudaDeviceReset(); } while (0)\n"
        "#endif\n"
        "__device__ int twice(int v) { CHECK(v); return 2 * v; }\n"
    )
    assert reported(src) == []
