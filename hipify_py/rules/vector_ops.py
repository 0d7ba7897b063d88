"""Compound assignment operators a project defines for CUDA's vector types.

cuda-samples' helper_math.h (and many projects that copied it) defines
``operator+=(float2&, float2)``, ``operator*=(float4&, float)`` ... as free
functions: CUDA's vector types are plain structs.  HIP's AMD vector types
(``HIP_vector_type``) have these operators as members, component-wise like
the project's, so a call becomes ambiguous under hipcc ("use of overloaded
operator '+=' is ambiguous"; HIP 5.7.1 and 7.2.4).  Each such definition is
wrapped in ``#if !defined(__HIP_PLATFORM_AMD__)``: HIP's own operator does the
same on AMD, and on HIP's NVIDIA backend (CUDA's structs) the project's stays.
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.rules.rule import Example, Rule, alongside

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
VECTOR_OPERATOR = D.Code(
    "HPY803",
    "vector-compound-operator",
    D.Severity.WARNING,
    "a compound assignment operator (+=, *=, ...) defined for a CUDA vector type, which HIP's "
    "vector types have as a member",
    why="CUDA's float2, int4, ... are plain structs, so helper_math.h-style code defines "
    "operator+= for them; HIP's AMD vector types define the same operators as members, so "
    "every call is ambiguous under hipcc.",
    example="inline __host__ __device__ void operator+=(float2 &a, float2 b) { a.x += b.x; "
    "a.y += b.y; }",
    fix="Wrapped in #if !defined(__HIP_PLATFORM_AMD__) (HIP's member does the same on AMD); "
    "a definition that shares its lines with other code is only reported: guard it by hand.",
)

GUARD = "#if !defined(__HIP_PLATFORM_AMD__)"
_COMPOUND = re.compile(r"operator\s*(\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<=|>>=)")
_VECTOR = re.compile(r"\b(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\b")


def run(ctx: Context) -> None:
    if "operator" not in ctx.text or not _COMPOUND.search(ctx.text):
        return
    nl = "\r\n" if ctx.info.newline == b"\r\n" else "\n"
    for function in _definitions(ctx):
        declarator = function.child_by_field_name("declarator")
        if declarator is None or declarator.type != "function_declarator":
            continue
        name = declarator.child_by_field_name("declarator")
        parameters = declarator.child_by_field_name("parameters")
        if name is None or parameters is None or not _COMPOUND.fullmatch(ctx.node_text(name)):
            continue
        first = next(iter(parameters.named_children), None)
        first_text = ctx.node_text(first) if first is not None else ""
        if first is None or not _VECTOR.search(first_text) or "&" not in first_text:
            continue
        start, end = _line_span(ctx, function)
        operator = " ".join(ctx.node_text(name).split())
        fixed = start is not None and end is not None and not _guarded(ctx, start)
        if fixed:
            assert start is not None and end is not None
            ctx.edit(start, start, GUARD + nl, "vector_ops")
            ctx.edit(end, end, "#endif" + nl, "vector_ops")
        elif start is not None and _guarded(ctx, start):
            continue  # wrapped by an earlier run
        ctx.report(
            VECTOR_OPERATOR,
            name.start_byte,
            f"{operator}({ctx.node_text(first)}, ...) duplicates the member operator of HIP's "
            "vector types: calls would be ambiguous under hipcc"
            + ("; wrapped in #if !defined(__HIP_PLATFORM_AMD__)" if fixed else ""),
            hint="HIP's own operator is component-wise like this one"
            + ("" if fixed else "; remove this definition or guard it for AMD by hand"),
            name=operator,
            end=name.end_byte,
        )


def _definitions(ctx: Context) -> list[tree_sitter.Node]:
    found: list[tree_sitter.Node] = []
    stack = [ctx.root]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            found.append(node)
            continue
        if node.type in ("compound_statement", "field_declaration_list"):
            continue
        stack.extend(reversed(node.children))
    return found


def _line_span(ctx: Context, node: tree_sitter.Node) -> tuple[int | None, int | None]:
    """Whole lines holding just the definition: where to put the guard lines."""
    text = ctx.text
    line_start = max(text.rfind("\n", 0, node.start_byte), text.rfind("\r", 0, node.start_byte))
    line_start += 1
    if text[line_start : node.start_byte].strip():
        return None, None
    line_end = node.end_byte
    while line_end < len(text) and text[line_end] in " \t":
        line_end += 1
    if line_end < len(text) and text[line_end] == "\r":
        line_end += 1
    if line_end < len(text) and text[line_end] == "\n":
        line_end += 1
    elif line_end < len(text):
        return None, None
    return line_start, line_end


def _guarded(ctx: Context, start: int) -> bool:
    before = ctx.text[:start].rstrip("\r\n")
    return before[before.rfind("\n") + 1 :].strip() == GUARD


RULE = Rule(
    id="vector_ops",
    run=run,
    codes=(VECTOR_OPERATOR.code,),
    needs=(),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "inline __host__ __device__ void operator+=(float2& a, float2 b) "
                "{ a.x += b.x; a.y += b.y; }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "#if !defined(__HIP_PLATFORM_AMD__)\n"
                "inline __host__ __device__ void operator+=(float2& a, float2 b) "
                "{ a.x += b.x; a.y += b.y; }\n"
                "#endif\n"
            ),
            frozenset({"HPY803"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "#if !defined(__HIP_PLATFORM_AMD__)\n"
            "inline __host__ __device__ void operator+=(float2& a, float2 b) "
            "{ a.x += b.x; a.y += b.y; }\n"
            "#endif\n"
        ),
    ),
)
