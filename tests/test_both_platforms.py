"""Translations that must build on both HIP platforms (hipcc for gfx942 and
HIP's NVIDIA backend, nvcc 12.4 with HIP's NVIDIA headers):

* ``__trap()`` (and PTX ``trap``) in every shape it takes: alone on its line
  (an ``#if`` per platform), else the ``hipify_py_trap`` helper macro (nvcc
  takes no ``__builtin_trap`` in device code);
* value tests (``#if __HIPCC__``) of the platform macros HIP's headers define
  empty: ``defined(...)`` tests.

The shapes are checked as text without a toolchain, and compiled (or
preprocessed) with the real compilers where the roots are provisioned:
skipped without them, failed in CI (HIPIFY_PY_REQUIRE_TOOLCHAIN=1)."""

from __future__ import annotations

import os
import re

import pytest
from toolchain_support import CI_RELEASES, amd_compiler

from hip_smoke.toolchain import Compiler, ToolchainError, find_nvidia
from hipify_py import translate


def out(src: str, **options: str) -> str:
    result = translate(src, **options)
    assert isinstance(result.text, str)
    return result.text


def nvidia() -> Compiler:
    try:
        return find_nvidia()
    except ToolchainError as exc:
        if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
            pytest.fail(str(exc))
        pytest.skip(str(exc))


def compiler_for(platform: str) -> Compiler:
    return nvidia() if platform.startswith("nvidia") else amd_compiler(platform)


# nvidia: -D__HIP_PLATFORM_NVIDIA__ (1) as the toolchain passes it;
# nvidia-header: left to hip/hip_common.h, which defines it empty
PLATFORMS = [*CI_RELEASES, "nvidia", "nvidia-header"]


def build(
    compiler: Compiler, source: str, preprocess_only: bool = False, platform: str = ""
) -> tuple[int, str]:
    """Compile ``source`` as HIP for gfx942 (AMD) or as HIP on NVIDIA."""
    if compiler.platform == "nvidia":
        # (a `[] __device__ () {}` lambda needs --extended-lambda, in CUDA too)
        args = ["-x", "cu", "--extended-lambda"]
        args.append(
            "-U__HIP_PLATFORM_NVIDIA__"
            if platform == "nvidia-header"
            else "-D__HIP_PLATFORM_NVIDIA__"
        )
    else:
        args = ["--offload-arch=gfx942", "-x", "hip"]
    args += ["-E", "unit.hip", "-o", "unit.i"] if preprocess_only else ["-c", "unit.hip"]
    if not preprocess_only:
        args += ["-o", "unit.o"]
    with compiler.workspace() as work:
        (work / "unit.hip").write_text(source, encoding="utf-8")
        done = compiler.run(args, cwd=work)
    return done.returncode, done.stdout + done.stderr


# ------------------------------------------------------------------ __trap()

# every way __trap() can appear: (name, CUDA code inside the file)
TRAP_SHAPES = {
    "alone": "__global__ void alone(int* p) {\n    __trap();\n}\n",
    "if-without-braces": "__global__ void in_if(int* p) {\n    if (!p) __trap();\n}\n",
    "braces-on-one-line": "__global__ void braces(int* p) {\n    if (p[0] < 0) { __trap(); }\n}\n",
    "macro-body": (
        "#define CHECK(x) if(!(x)) __trap()\n"
        "__global__ void via_macro(int* p) {\n    CHECK(p[1]);\n}\n"
    ),
    "ternary-and-comma": (
        "__device__ int positive(int x) { return x > 0 ? x : (__trap(), 0); }\n"
        "__global__ void ternary(int* p) {\n    p[0] = positive(p[1]);\n}\n"
    ),
    "lambda": (
        "__global__ void in_lambda(int* p) {\n"
        "    auto fail = [] __device__ () { __trap(); };\n"
        "    auto plain = [] () { __trap(); };\n"
        "    if (!p) fail();\n    if (p[0]) plain();\n}\n"
    ),
    "ptx-alone": '__global__ void ptx_alone(int* p) {\n    asm volatile("trap;");\n}\n',
    "ptx-in-if": '__global__ void ptx_if(int* p) {\n    if (!p) asm volatile("trap;");\n}\n',
}
ALL_TRAPS = "#include <cuda_runtime.h>\n" + "".join(TRAP_SHAPES.values())


def test_trap_alone_on_its_line_is_split_per_platform() -> None:
    result = out("#include <cuda_runtime.h>\n" + TRAP_SHAPES["alone"])
    assert (
        "#if defined(__HIP_PLATFORM_NVIDIA__)\n    __trap();\n#else\n    __builtin_trap();\n#endif"
        in result
    )
    assert "hipify_py_trap" not in result  # no helper where none is used


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ("if-without-braces", "    if (!p) hipify_py_trap();\n"),
        ("braces-on-one-line", "    if (p[0] < 0) { hipify_py_trap(); }\n"),
        ("macro-body", "#define CHECK(x) if(!(x)) hipify_py_trap()\n"),
        ("ternary-and-comma", "return x > 0 ? x : (hipify_py_trap(), 0); }"),
        ("lambda", "auto fail = [] __device__ () { hipify_py_trap(); };"),
        ("ptx-in-if", "    if (!p) hipify_py_trap();\n"),
    ],
)
def test_trap_anywhere_else_becomes_the_helper(shape: str, expected: str) -> None:
    result = out("#include <cuda_runtime.h>\n" + TRAP_SHAPES[shape])
    assert expected in result
    assert "__builtin_trap()" not in result  # no bare builtin: nvcc rejects it
    helper = (
        "#include <hip/hip_runtime.h>\n"
        "#ifndef HIPIFY_PY_TRAP\n#define HIPIFY_PY_TRAP\n"
        "/* hipify-py: __trap on HIP's NVIDIA platform (nvcc takes no __builtin_trap in\n"
        "   device code), the clang builtin for AMD */\n"
        "#if defined(__HIP_PLATFORM_NVIDIA__)\n#define hipify_py_trap __trap\n"
        "#else\n#define hipify_py_trap __builtin_trap\n#endif\n#endif\n"
    )
    assert result.startswith(helper)


def test_the_helper_is_defined_once_and_a_second_run_changes_nothing() -> None:
    once = out(ALL_TRAPS)
    assert once.count("#define HIPIFY_PY_TRAP") == 1
    assert once.count("hipify_py_trap();") == 5  # if, braces, 2 lambdas, PTX in an if
    assert out(once) == once


def test_ptx_brkpt_not_alone_gets_its_helper_too() -> None:
    result = out(
        '#include <cuda_runtime.h>\n__global__ void k(int* p) { if (!p) asm("brkpt;"); }\n'
    )
    assert "if (!p) hipify_py_brkpt(); }" in result
    assert (
        "#define hipify_py_brkpt __brkpt\n#else\n#define hipify_py_brkpt __builtin_debugtrap"
        in result
    )


def test_a_header_without_the_runtime_include_gets_the_helper_at_the_top() -> None:
    result = out(
        "#pragma once\n__device__ void fail(bool p) { if (p) __trap(); }\n",
        insert_runtime_include=False,  # type: ignore[arg-type]
    )
    assert result.index("#define hipify_py_trap") < result.index("__device__ void fail")


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_trap_shape_builds(platform: str) -> None:
    compiler = compiler_for(platform)
    source = out(ALL_TRAPS, hip_version=compiler.hip_version)
    code, log = build(compiler, source, platform=platform)
    assert code == 0, log[-4000:]


def test_the_bare_builtin_is_what_nvcc_rejects() -> None:
    """Why the helper exists: the old translation of ``if (!p) __trap();``."""
    compiler = nvidia()
    old = out("#include <cuda_runtime.h>\n" + TRAP_SHAPES["if-without-braces"]).replace(
        "hipify_py_trap()", "__builtin_trap()"
    )
    code, log = build(compiler, old)
    assert code != 0 and "__builtin_trap" in log, log[-4000:]


# ------------------------------------------------------------------ value tests

# (CUDA condition, its translation)
VALUE_TESTS = [
    ("#if __CUDACC__", "#if defined(__HIPCC__)"),
    ("#elif __CUDACC__", "#elif defined(__HIPCC__)"),
    ("#if __HIPCC__", "#if defined(__HIPCC__)"),
    ("#elif __HIP_PLATFORM_AMD__", "#elif defined(__HIP_PLATFORM_AMD__)"),
    ("#if !__CUDACC__", "#if !defined(__HIPCC__)"),
    ("#if !(__HIP_PLATFORM_NVIDIA__)", "#if !(defined(__HIP_PLATFORM_NVIDIA__))"),
    ("#if __HIPCC__ && X", "#if defined(__HIPCC__) && X"),
    ("#if X || __HIP_PLATFORM_HCC__", "#if X || defined(__HIP_PLATFORM_HCC__)"),
    (
        "#if (defined(FOO) || __CUDACC__) && !__HIP_PLATFORM_NVCC__",
        "#if (defined(FOO) || defined(__HIPCC__)) && !defined(__HIP_PLATFORM_NVCC__)",
    ),
    ("#if __CUDACC__ == 1", "#if defined(__HIPCC__) == 1"),
    # already defined(): left alone (a second run too)
    ("#if defined(__CUDACC__)", "#if defined(__HIPCC__)"),
    ("#if defined __HIPCC__ && X", "#if defined __HIPCC__ && X"),
    ("#if defined(__HIPCC__) || !defined(__HIP_PLATFORM_AMD__)", None),
    # clang defines __HIP__ 1; HIP's NVIDIA platform leaves it undefined (0)
    ("#if __CUDA__ && X", "#if __HIP__ && X"),
    ("#if __HIP__", None),
    ("#ifdef __CUDACC__", "#ifdef __HIPCC__"),
]


@pytest.mark.parametrize(("cuda", "hip"), VALUE_TESTS)
def test_a_value_test_of_an_empty_platform_macro_becomes_defined(
    cuda: str, hip: str | None
) -> None:
    directive = cuda.split()[0]
    src = (
        "#include <cuda_runtime.h>\n"
        + ("#if 0\n" if directive == "#elif" else "")
        + f"{cuda}\nint x;\n#endif\n"
    )
    result = out(src)
    assert f"\n{hip or cuda}\nint x;\n#endif\n" in result
    assert out(result) == result


def test_only_conditions_are_rewritten() -> None:
    src = (
        "#include <cuda_runtime.h>\n"
        "#define ON_GPU __HIPCC__\n"  # a #define body: not a test
        'const char* s = "__HIPCC__";  // __HIPCC__\n'
    )
    assert "defined(" not in out(src)


# Each branch records which way it went; the expected way is what an #ifdef of
# the same macro says on that compiler.
PREPROCESS = """#include <cuda_runtime.h>
#if __CUDACC__
#define CUDACC_VALUE 1
#else
#define CUDACC_VALUE 0
#endif
#if 0
#elif __HIPCC__
#define HIPCC_ELIF 1
#else
#define HIPCC_ELIF 0
#endif
#if __HIP_PLATFORM_AMD__ && !__HIP_PLATFORM_NVIDIA__
#define AMD_VALUE 1
#else
#define AMD_VALUE 0
#endif
#if (__HIP_PLATFORM_NVIDIA__ || __HIP_PLATFORM_NVCC__) && __CUDACC__
#define NVIDIA_VALUE 1
#else
#define NVIDIA_VALUE 0
#endif
#if !(__HIP_PLATFORM_HCC__)
#define NOT_HCC 1
#else
#define NOT_HCC 0
#endif
#ifdef __HIP_PLATFORM_AMD__
#define ON_AMD 1
#else
#define ON_AMD 0
#endif
#ifdef __HIP_PLATFORM_HCC__
#define ON_HCC 1
#else
#define ON_HCC 0
#endif
static_assert(CUDACC_VALUE == 1, "__HIPCC__ is defined by both compilers");
static_assert(HIPCC_ELIF == 1, "__HIPCC__ is defined by both compilers");
static_assert(AMD_VALUE == ON_AMD, "the AMD test");
static_assert(NVIDIA_VALUE == 1 - ON_AMD, "the NVIDIA test");
static_assert(NOT_HCC == 1 - ON_HCC, "the HCC test");
"""


@pytest.mark.parametrize("platform", PLATFORMS)
def test_value_tests_take_the_right_branch_on_each_compiler(platform: str) -> None:
    compiler = compiler_for(platform)
    source = out(PREPROCESS, hip_version=compiler.hip_version)
    assert not re.search(r"#(?:el)?if\s+!?\(?__HIP", source), source
    code, log = build(compiler, source, platform=platform)
    assert code == 0, log[-4000:]


@pytest.mark.parametrize(
    ("platform", "test"),
    [
        ("nvidia", "__HIPCC__"),
        ("nvidia-header", "__HIP_PLATFORM_NVIDIA__"),
        ("nvidia-header", "__HIP_PLATFORM_NVCC__"),
        ("7.2", "__HIP_PLATFORM_AMD__"),
    ],
)
def test_the_value_test_itself_is_what_the_preprocessor_rejects(platform: str, test: str) -> None:
    """Why: the macro is defined empty there, so ``#if NAME`` has no expression."""
    compiler = compiler_for(platform)
    code, log = build(
        compiler,
        f"#include <hip/hip_runtime.h>\n#if {test}\n#endif\n",
        preprocess_only=True,
        platform=platform,
    )
    assert code != 0 and "expression" in log, log[-4000:]
