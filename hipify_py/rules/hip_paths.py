"""A project's own HIP path in CUDA code: ``#ifdef __HIP_PLATFORM_AMD__`` (or
``__HIPCC__``, ``__HIP__``, ``__HIP_PLATFORM_HCC__``).  nvcc never took that
branch; hipcc for AMD defines those macros, so the translation compiles it.
It was written for the project's own HIP build, whose headers and defines
(ctransformers' ``#if defined(GGML_USE_HIPBLAS)`` shim includes
``rocblas.h``) the translated build may not have: ``rocblas_initialize()``
then is an undeclared identifier that no other rule explains.  Reported once
per branch (HPY113, a warning), at its first line, naming the functions it
calls, so the failure is not silent.

HIP's headers define some of these platform macros empty (hip/hip_common.h,
HIP 5.7.1 to 7.2.4): ``__HIP_PLATFORM_AMD__`` for AMD, ``__HIP_PLATFORM_NVIDIA__``
and ``__HIPCC__`` on HIP's NVIDIA platform, ``__HIP_PLATFORM_HCC__`` /
``__HIP_PLATFORM_NVCC__`` (HIP 5.7.1).  A value test of one in ``#if`` /
``#elif`` (``#if __HIPCC__``, ``#elif !__HIP_PLATFORM_AMD__ && X``, also
``#if __CUDACC__``, which becomes ``__HIPCC__``) then reads ``#if`` with no
expression there, which the preprocessor rejects: the name becomes
``defined(NAME)``, which is what the test meant (each is 1 where it is not
empty).  A name already inside ``defined`` is left alone, and so is
``__HIP__`` (clang defines it 1, HIP's NVIDIA platform not at all).
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.rules.rule import Example, Rule, alongside

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
PROJECT_HIP_PATH = D.Code(
    "HPY113",
    "project-hip-path",
    D.Severity.WARNING,
    "a branch of the project's own HIP path (#ifdef __HIP_PLATFORM_AMD__) that hipcc compiles",
    why="nvcc never took a branch that tests __HIP_PLATFORM_AMD__, __HIPCC__ or __HIP__; "
    "hipcc for AMD defines them, so the translation compiles it. It was written for the "
    "project's own HIP build, whose headers and defines the translated build may lack "
    "(ctransformers calls rocblas_initialize() there; its rocblas.h include sits in a "
    "GGML_USE_HIPBLAS shim branch that the CUDA build does not take).",
    example="#ifdef __HIP_PLATFORM_AMD__\n    rocblas_initialize();\n#endif",
    fix="Make what the branch uses available in the translated build (the header, or the "
    "project's own HIP build macro), or guard the branch with the project's HIP macro.",
)

_MACROS = ("__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "__HIP__")
_POSITIVE = re.compile(
    r"(?<![!\w])\s*defined\s*\(?\s*(" + "|".join(_MACROS) + r")\b"
    r"|^\s*(" + "|".join(_MACROS) + r")\s*$"
)
# defined empty by HIP's headers on a platform (hip/hip_common.h, HIP 5.7.1 to
# 7.2.4; `hipcc -dM -E` / `nvcc -dM -E` of <hip/hip_runtime.h>): a value test
# of one is `#if` with no expression there
EMPTY_ON_A_PLATFORM = frozenset(
    (
        "__HIP_PLATFORM_AMD__",
        "__HIP_PLATFORM_HCC__",
        "__HIP_PLATFORM_NVIDIA__",
        "__HIP_PLATFORM_NVCC__",
        "__HIPCC__",
    )
)
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_COMMENTS_AND_STRINGS = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"", re.S)
_KEYWORDS = frozenset(
    (
        "if",
        "for",
        "while",
        "switch",
        "return",
        "sizeof",
        "defined",
        "static_assert",
        "alignof",
        "alignas",
        "decltype",
        "noexcept",
        "catch",
    )
)


def run(ctx: Context) -> None:
    conditionals: list[tree_sitter.Node] | None = None
    if _value_tests_possible(ctx):
        conditionals = _conditionals(ctx.root)
        for node in conditionals:
            _value_tests(ctx, node)
    if not any(m in ctx.text for m in _MACROS):
        return
    for node in conditionals if conditionals is not None else _conditionals(ctx.root):
        body = _taken_body(ctx, node)
        if body is None:
            continue
        start, end = body
        text = ctx.text[start:end]
        if "hipify_py" in text or "HIPIFY_PY" in text:
            continue  # hipify-py's own helpers (the __syncwarp helper)
        code = _COMMENTS_AND_STRINGS.sub(" ", text)
        called = sorted({m.group(1) for m in _CALL.finditer(code)} - _KEYWORDS)
        if not called:
            continue
        first = start + len(text) - len(text.lstrip())
        ctx.report(
            PROJECT_HIP_PATH,
            first,
            "this branch is the project's own HIP path (it tests a HIP platform macro): nvcc "
            "never compiled it, hipcc for AMD does; it calls "
            + ", ".join(called[:8])
            + (" ..." if len(called) > 8 else ""),
            hint="check that what it uses is declared in the translated build (the project's "
            "own HIP build may include other headers or define other macros, such as a "
            "GGML_USE_HIPBLAS shim)",
        )


def _empty_name(ctx: Context, name: str) -> bool:
    """Is ``name`` (or what the translation renames it to) a macro HIP
    defines empty on a platform?"""
    if name in EMPTY_ON_A_PLATFORM:
        return True
    row = ctx.table.names.get(name)
    return row is not None and row.hip in EMPTY_ON_A_PLATFORM


def _value_tests_possible(ctx: Context) -> bool:
    return "#" in ctx.text and any(_empty_name(ctx, word) for word in ctx.present)


def _value_tests(ctx: Context, node: tree_sitter.Node) -> None:
    """``#if NAME`` / ``#elif !NAME && X`` of a macro HIP defines empty on a
    platform: ``defined(NAME)`` (the rename, if any, is the identifiers
    rule's edit between the two insertions)."""
    if node.type == "preproc_ifdef":
        return
    condition = node.child_by_field_name("condition")
    if condition is None:
        return
    stack = [condition]
    while stack:
        current = stack.pop()
        if current.type == "preproc_defined":
            continue  # already a defined() test
        if current.type == "identifier":
            if _empty_name(ctx, ctx.node_text(current)):
                ctx.edit(current.start_byte, current.start_byte, "defined(", "hip_paths")
                ctx.edit(current.end_byte, current.end_byte, ")", "hip_paths")
            continue
        stack.extend(current.children)


def _conditionals(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    found: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("preproc_if", "preproc_ifdef", "preproc_elif"):
            found.append(node)
        stack.extend(reversed(node.children))
    return found


def _taken_body(ctx: Context, node: tree_sitter.Node) -> tuple[int, int] | None:
    """The text of the branch that a HIP platform test selects (from the end of
    the condition's line to the next #elif/#else/#endif), else None."""
    if node.type == "preproc_ifdef":
        directive = ctx.node_text(node).split(None, 1)[0]
        name = node.child_by_field_name("name")
        if directive.endswith("ifndef") or name is None or ctx.node_text(name) not in _MACROS:
            return None
        head_end = name.end_byte
    else:
        condition = node.child_by_field_name("condition")
        if condition is None or not _POSITIVE.search(ctx.node_text(condition)):
            return None
        head_end = condition.end_byte
    start = ctx.text.find("\n", head_end)
    if start < 0:
        return None
    end = node.end_byte
    alternative = node.child_by_field_name("alternative")
    if alternative is not None:
        end = alternative.start_byte
    return start + 1, end


RULE = Rule(
    id="hip_paths",
    run=run,
    codes=(PROJECT_HIP_PATH.code,),
    needs=("table.names",),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "#ifdef __HIP_PLATFORM_AMD__\n"
                "void g() { rocblas_initialize(); }\n"
                "#endif\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "#ifdef __HIP_PLATFORM_AMD__\n"
                "void g() { rocblas_initialize(); }\n"
                "#endif\n"
            ),
            frozenset({"HPY113"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n#ifdef __HIP_PLATFORM_AMD__\n#define ON_AMD 1\n#endif\n"
        ),
        Example(
            "#include <cuda_runtime.h>\n#if 0\n#elif __CUDACC__ && !__HIP_PLATFORM_AMD__\n"
            "#define ON_NVIDIA 1\n#endif\n",
            "#include <hip/hip_runtime.h>\n#if 0\n#elif defined(__HIPCC__) && "
            "!defined(__HIP_PLATFORM_AMD__)\n#define ON_NVIDIA 1\n#endif\n",
        ),
    ),
)
