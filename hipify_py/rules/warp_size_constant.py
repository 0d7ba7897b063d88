"""warpSize where C++ needs a constant expression.

Up to HIP 6.4 warpSize is ``static constexpr int warpSize =
__AMDGCN_WAVEFRONT_SIZE``; HIP 7.0 made it a non-constexpr object (as in
CUDA, so CUDA code never does this, but HIP branches and code written for
HIP 5 and 6 do), and clang 22 (ROCm 7.2) no longer defines
``__AMDGCN_WAVEFRONT_SIZE``.  With a target >= 7.0 each such use is an error
with the fix; nothing is rewritten (the wavefront width is a property of the
offload target, which one source may be compiled for several of).
"""

from __future__ import annotations

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.options import Options
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import macro_definitions
from hipify_py.rules.identifiers import scanner_of
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.tables.versions import Version, parse_version

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
WARP_SIZE_NOT_CONSTANT = D.Code(
    "HPY426",
    "warp-size-not-constant",
    D.Severity.ERROR,
    "warpSize in a constant expression (constexpr, template argument, array size, "
    "static_assert, case label): HIP >= 7.0 makes it a run-time value",
    why="Up to HIP 6.4 warpSize was a static constexpr int (__AMDGCN_WAVEFRONT_SIZE); HIP 7.0 "
    "made it a non-constexpr object, as in CUDA, and clang 22 (ROCm 7.2) no longer defines "
    "__AMDGCN_WAVEFRONT_SIZE (clang 21, ROCm 6.4, deprecates it), so such code stops compiling.",
    example="__shared__ float partial[warpSize];\ntemplate <int W> struct Tile;  Tile<warpSize> t;",
    fix="Use a constant of the target's wavefront width (constexpr int kWarpSize = 64; for "
    "gfx942) where a constant is needed, and warpSize for run-time arithmetic.",
)

NOT_CONSTANT_FROM: Version = (7, 0, 0)  # HIP 7.0 changelog: "warpSize ... no longer constexpr"
NAME = "warpSize"
# nodes an expression passes through on its way up to what uses its value
_EXPRESSION = frozenset(
    {
        "binary_expression",
        "parenthesized_expression",
        "unary_expression",
        "conditional_expression",
        "cast_expression",
        "type_descriptor",
        "sizeof_expression",
        "comma_expression",
    }
)


def run(ctx: Context) -> None:
    if ctx.target_hip < NOT_CONSTANT_FROM or NAME not in ctx.present:
        return
    scanner = scanner_of(ctx)
    for name in (NAME, *_aliases(ctx)):
        for start in occurrences(ctx.text, name):
            if scanner.classify(start, start + len(name))[0] != "code":
                continue
            node = ctx.root.descendant_for_byte_range(start, start + len(name))
            if node is None or node.type not in ("identifier", "type_identifier"):
                continue
            where = _constant_context(ctx, node)
            if where is not None:
                _report(ctx, start, name, where)


def _aliases(ctx: Context) -> list[str]:
    """Object-like macros defined as warpSize: ``#define WARP_SIZE warpSize``."""
    names = []
    for macro in macro_definitions(ctx):
        name, value = macro.child_by_field_name("name"), macro.child_by_field_name("value")
        if macro.type != "preproc_def" or name is None or value is None:
            continue
        if ctx.node_text(value).strip().strip("()").strip() == NAME:
            names.append(ctx.node_text(name))
    return names


def _report(ctx: Context, start: int, name: str, where: str) -> None:
    what = NAME if name == NAME else f"{name} (defined as warpSize)"
    ctx.report(
        WARP_SIZE_NOT_CONSTANT,
        start,
        f"{what} in {where}: from HIP 7.0 warpSize is not a constant expression (and "
        "clang 22 no longer defines __AMDGCN_WAVEFRONT_SIZE), so this does not compile",
        hint="where a constant is needed use the target's wavefront width "
        "(constexpr int kWarpSize = 64; on gfx942, 32 on wave32 RDNA), and warpSize in "
        "run-time arithmetic",
        name=name,
    )


def _constant_context(ctx: Context, node: tree_sitter.Node) -> str | None:
    """What needs ``node``'s value as a constant, or None."""
    child, parent = node, node.parent
    while parent is not None and parent.type in _EXPRESSION:
        child, parent = parent, parent.parent
    if parent is None:
        return None
    kind = parent.type
    if kind == "template_argument_list":
        return "a template argument"
    if kind == "array_declarator" and parent.child_by_field_name("size") == child:
        return "an array size"
    if kind == "static_assert_declaration":
        return "a static_assert"
    if kind == "case_statement":
        return "a case label"
    if kind == "enumerator":
        return "an enumerator's value"
    if kind == "bitfield_clause":
        return "a bit-field width"
    if kind == "condition_clause" and parent.parent is not None:
        statement = parent.parent
        if statement.type == "if_statement" and "constexpr" in ctx.node_text(statement)[:16]:
            return "an if constexpr condition"
        return None
    if kind == "init_declarator" and parent.child_by_field_name("value") == child:
        declaration = parent.parent
        if declaration is not None and any(
            c.type in ("type_qualifier", "storage_class_specifier")
            and ctx.node_text(c) in ("constexpr", "constinit")
            for c in declaration.children
        ):
            return "a constexpr initializer"
    return None


RULE = Rule(
    id="warp_size_constant",
    run=run,
    codes=(WARP_SIZE_NOT_CONSTANT.code,),
    needs=("options",),
    may_apply=alongside,
    examples=(
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(int* o) { constexpr int w = warpSize; o[0] = "
            "w; }\n",
            frozenset({"HPY426"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(int* o) { constexpr int w = warpSize; o[0] = "
            "w; }\n",
            frozenset(),
            Options(hip_version=parse_version("6.4")),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(int* o) { const int w = warpSize; o[0] = w; }\n"
        ),
    ),
)
