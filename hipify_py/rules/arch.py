"""``__CUDA_ARCH__``: nvcc defines it in the device compilation pass only.

``#ifdef __CUDA_ARCH__`` / ``defined(__CUDA_ARCH__)`` asks "is this the device
pass?", which HIP spells ``__HIP_DEVICE_COMPILE__``: renamed.  hipcc never
defines ``__CUDA_ARCH__``, so leaving it would silently drop every device
branch on AMD (a kernel body that compiles to nothing).  A version gate such
as ``__CUDA_ARCH__ >= 800`` has no HIP meaning at all: reported (HPY410), and
a use as a value in code (or in a macro expanded in code) does not compile
under hipcc: reported as an error (HPY411).
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.lexer import opaque_spans, span_kind
from hipify_py.engine.words import occurrences
from hipify_py.rules.identifiers import defined_operand
from hipify_py.rules.rule import Example, Rule
from hipify_py.tables.table import MappingTable

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
CUDA_ARCH_GATE = D.Code(
    "HPY410",
    "cuda-arch-gate",
    D.Severity.WARNING,
    "a __CUDA_ARCH__ value test (a version gate) has no meaning under HIP",
    why="hipcc never defines __CUDA_ARCH__: `#if __CUDA_ARCH__ >= 800` is false in AMD device "
    "code, so the code behind it silently disappears.",
    example="#if __CUDA_ARCH__ >= 800",
    fix="Use __HIP_DEVICE_COMPILE__ for the device pass, or an AMD architecture macro "
    "(__gfx942__) or a feature test for a capability.",
)
CUDA_ARCH_VALUE = D.Code(
    "HPY411",
    "cuda-arch-value",
    D.Severity.WARNING,
    "__CUDA_ARCH__ used as a value in code: replaced by 0, as hipcc reads it in #if",
    why="nvcc defines __CUDA_ARCH__ (700, 800, ...) in its device pass; hipcc for AMD never "
    "does, so a use in code or in a macro expanded in code (even inside `#ifdef __CUDA_ARCH__`, "
    "translated to `#ifdef __HIP_DEVICE_COMPILE__`) would be an undeclared identifier. It "
    "becomes 0: hipcc reads the undefined name as 0 in every `#if __CUDA_ARCH__ ...` left in "
    "the file, so code and preprocessor agree (and `__CUDA_ARCH__ >= 800` is false in both).",
    example="#ifdef __CUDA_ARCH__\n#define WHERE() report(__CUDA_ARCH__)\n#endif",
    fix="Where the number matters (a message, a static_assert, a branch on the architecture), "
    "use a value that means something on AMD (a project constant) or an architecture test "
    "such as `__gfx942__`.",
)

NAME = "__CUDA_ARCH__"


def may_apply(present: set[str], text: str, table: MappingTable) -> bool:
    return NAME in present


DEVICE_PASS = "__HIP_DEVICE_COMPILE__"
_DEFINED_BEFORE = re.compile(r"defined\s*\(?\s*$")
# what hipcc reads for the undefined name in #if: the value code gets too
ARCH_VALUE = "0"
_STATIC_ASSERT = re.compile(r"\bstatic_assert\b")


def run(ctx: Context) -> None:
    if NAME not in ctx.present:
        return
    # each use: (start, the condition or macro body it is in, a defined() test?)
    uses: list[tuple[int, tuple[int, int], bool]] = []
    in_code: set[int] = set()  # uses that are values in code, not in #if
    for start in occurrences(ctx.text, NAME):
        end = start + len(NAME)
        node = ctx.root.descendant_for_byte_range(start, end)
        if node is None:
            continue
        parent = node.parent
        if (
            parent is not None
            and parent.type in ("preproc_def", "preproc_function_def", "preproc_undef")
            and parent.child_by_field_name("name") == node
        ):
            continue  # `#define __CUDA_ARCH__ 1300` (ggml's HIP shim) defines it: no use
        if node.type == "identifier" and parent is not None:
            uses.append(
                (start, _condition(node), parent.type in ("preproc_defined", "preproc_ifdef"))
            )
            if not _in_directive(node):
                in_code.add(start)
        elif node.type == "preproc_arg":
            if parent is not None and parent.type == "preproc_call":
                continue  # #undef __CUDA_ARCH__, #pragma ...: not a value
            body = ctx.node_text(node)
            inner = start - node.start_byte
            if span_kind(opaque_spans(body), inner, inner + len(NAME)) is not None:
                continue  # in a comment or string of the macro body
            # a macro body is one expression: the whole body is the condition
            if _expanded_in_code(ctx, node):
                in_code.add(start)
            uses.append(
                (
                    start,
                    (node.start_byte, node.end_byte),
                    _DEFINED_BEFORE.search(body[:inner]) is not None,
                )
            )
    # a condition that also tests the value (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800)
    # stays whole: renaming only its defined() part changes which branch HIP takes
    mixed = {where for _, where, defined in uses if not defined}
    for start, where, defined in uses:
        if defined and where not in mixed:
            _rename(ctx, start, start + len(NAME))
        elif not defined and start in in_code:
            if _ifdef_missed(ctx.text, start):
                _rename(ctx, start, start + len(NAME))  # an #ifdef the grammar missed
            elif not _under_gate(ctx, start, mixed):  # else dead on AMD: the gate is reported
                _replace_value(ctx, start)
        elif not defined:
            _report(ctx, start, mixed=any(d and w == where for _, w, d in uses))


_DIRECTIVES = ("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef")


def _in_directive(node: tree_sitter.Node) -> bool:
    """Is this identifier part of an #if / #elif / #ifdef condition?"""
    current: tree_sitter.Node | None = node
    while current is not None:
        parent = current.parent
        if parent is not None and parent.type in _DIRECTIVES:
            return (
                parent.child_by_field_name("condition") == current
                or parent.child_by_field_name("name") == current
            )
        current = parent
    return False


def _under_gate(ctx: Context, start: int, gates: set[tuple[int, int]]) -> bool:
    """Is the use inside the branch of an #if whose __CUDA_ARCH__ value test stays
    (false under hipcc, so the branch never compiles on AMD)?"""
    node = ctx.root.descendant_for_byte_range(start, start + len(NAME))
    while node is not None:
        parent = node.parent
        if parent is not None and parent.type in ("preproc_if", "preproc_elif"):
            condition = parent.child_by_field_name("condition")
            if condition is not None and condition != node:
                spans = {(condition.start_byte, condition.end_byte)}
                inner = condition
                while inner.child_count == 1:
                    inner = inner.children[0]
                    spans.add((inner.start_byte, inner.end_byte))
                if spans & gates or any(
                    condition.start_byte <= a and b <= condition.end_byte for a, b in gates
                ):
                    return True
        node = parent
    return False


def _expanded_in_code(ctx: Context, body: tree_sitter.Node) -> bool:
    """A macro body holding __CUDA_ARCH__ is a value in code when the macro is
    function-like, or an object-like macro the file's #if lines never test."""
    definition = body.parent
    if definition is None:
        return False
    if definition.type == "preproc_function_def":
        return True
    name = definition.child_by_field_name("name")
    if definition.type != "preproc_def" or name is None:
        return False
    if re.search(r"\bdefined\b", ctx.node_text(body)):
        return False  # defined() only means something in #if
    macro = re.escape(ctx.node_text(name))
    tested = re.compile(rf"^[ \t]*#[ \t]*(?:el)?if\b[^\n]*\b{macro}\b", re.MULTILINE)
    return tested.search(ctx.text) is None


def _condition(node: tree_sitter.Node) -> tuple[int, int]:
    """The #if / #elif condition (or the expression) a use is part of."""
    current = node
    while current.parent is not None and current.parent.type not in (
        "preproc_if",
        "preproc_elif",
        "preproc_ifdef",
        "translation_unit",
        "expression_statement",
        "compound_statement",
    ):
        current = current.parent
    return current.start_byte, current.end_byte


def _rename(ctx: Context, start: int, end: int) -> None:
    ctx.edit(start, end, DEVICE_PASS, "arch", structural=False)
    ctx.stats.converted[("device", "macro")] += 1


def _replace_value(ctx: Context, start: int) -> None:
    ctx.edit(start, start + len(NAME), ARCH_VALUE, "arch", structural=False)
    ctx.stats.converted[("device", "macro")] += 1
    in_assert = _STATIC_ASSERT.search(ctx.text, _line_start(ctx.text, start), start) is not None
    ctx.report(
        CUDA_ARCH_VALUE,
        start,
        f"{NAME} is used as a value here, and hipcc never defines it: replaced by "
        f"{ARCH_VALUE}, the value every {NAME} test left in #if lines reads under hipcc"
        + (", so this static_assert fails on AMD" if in_assert else ""),
        hint="where the number matters, use a value that means something on AMD (a project "
        "constant; an architecture test is __gfx942__)",
        name=NAME,
        end=start + len(NAME),
    )


# `#ifdef NAME` the grammar did not read as a directive (broken input: a
# directive that does not start its line)
_IFDEF_INLINE = re.compile(r"#\s*(?:el)?ifn?def\s*\Z")


def _ifdef_missed(text: str, start: int) -> bool:
    before = text[_line_start(text, start) : start]
    return defined_operand(text, start) or _IFDEF_INLINE.search(before) is not None


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _report(ctx: Context, start: int, mixed: bool = False) -> None:
    ctx.stats.unconverted[NAME] += 1
    ctx.stats.unconverted_library["device"] += 1
    ctx.report(
        CUDA_ARCH_GATE,
        start,
        f"{NAME} is never defined by hipcc (it reads as 0 in #if), so this version test "
        "takes the wrong branch in HIP device code; left unchanged"
        + (
            f" with the whole condition (renaming only its defined({NAME}) part to "
            f"{DEVICE_PASS} would change which branch the AMD device pass takes)"
            if mixed
            else ""
        ),
        hint=f"test the device pass with {DEVICE_PASS}; for a feature gate use an AMD arch "
        "macro such as __gfx942__ or a feature test",
        name=NAME,
        end=start + len(NAME),
    )


RULE = Rule(
    id="arch",
    run=run,
    codes=(
        CUDA_ARCH_GATE.code,
        CUDA_ARCH_VALUE.code,
    ),
    needs=(),
    may_apply=may_apply,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__device__ int f() {\n"
                "#if __CUDA_ARCH__ >= 700\n"
                "  return 1;\n"
                "#else\n"
                "  return 0;\n"
                "#endif\n"
                "}\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__device__ int f() {\n"
                "#if __CUDA_ARCH__ >= 700\n"
                "  return 1;\n"
                "#else\n"
                "  return 0;\n"
                "#endif\n"
                "}\n"
            ),
            frozenset({"HPY410"}),
        ),
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__device__ int f() {\n"
                "#ifdef __CUDA_ARCH__\n"
                "  return 1;\n"
                "#else\n"
                "  return 0;\n"
                "#endif\n"
                "}\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__device__ int f() {\n"
                "#ifdef __HIP_DEVICE_COMPILE__\n"
                "  return 1;\n"
                "#else\n"
                "  return 0;\n"
                "#endif\n"
                "}\n"
            ),
        ),
        Example.unchanged("#define __CUDA_ARCH__ 1300\n"),
    ),
)
