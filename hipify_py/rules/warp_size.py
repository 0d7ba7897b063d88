"""Warp-size hazards: code that assumes 32 lanes where gfx942 has 64.

Such code compiles and then computes wrong answers, so each pattern is
reported with the exact expression, in function bodies and in ``#define``
bodies.  ``--fix-warp-size`` (unsafe, opt-in) rewrites only what is provably
a lane count: ``% 32``, ``/ 32``, ``& 31`` and ``>> 5`` applied to threadIdx in
device code whose value is only compared, stored or used as a shuffle lane
(never a shift amount or bit index into a 32-bit word, never an index, stride
or offset into memory), and a ``#define WARP_SIZE 32`` whose every use is such
a lane count, a shuffle width or the start of a halving reduction loop.

Code working on a 32-wide cooperative-groups tile (``tiled_partition<32>``)
is left alone: offsets from 16 and ``/ 32`` are right there.

What it follows (rules/values.py): a launch's block size, a reduction's
first offset, a scan's bound, a shuffle's source lane, a shared array's size
and the right operand of lane math are resolved through ``#define``s,
``const``/``constexpr`` constants, enumerators, arithmetic and template
parameters (each instantiation in the file with explicit template
arguments, through outer templates too).  Except for the block size (any
instantiation with a bad one is a bad launch), a name is reported only where
every value the file gives it is the 32-lane one: code instantiated for
several widths (CUB's LOGICAL_WARP_THREADS) is written for any width.  A
named operand of lane math is reported only where the result is provably a
lane count (a named 32 is as often a tile's size), and a constant named like
the warp size is HPY422's, reported where it is defined.
"""

from __future__ import annotations

import bisect
import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.lexer import matches_at, offsets_of
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import (
    device_bodies,
    function_name,
    in_device_code,
    macro_at,
    macro_definitions,
    visible,
)
from hipify_py.rules.identifiers import scanner_of
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.rules.values import int_values, template_parameter

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
WARP_SIZE_LANE_MATH = D.Code(
    "HPY420",
    "lane-math-32",
    D.Severity.WARNING,
    "lane or warp index computed with 32 (`% 32`, `& 31`, `>> 5`, `/ 32`)",
    why="A gfx942 wavefront has 64 lanes: threadIdx.x % 32 gives two lanes the same id and "
    "threadIdx.x / 32 puts one wavefront in two warps.  The code compiles and computes wrong "
    "answers.  A named operand (`threadIdx.x % LANES`, a template parameter W instantiated "
    "with 32) is followed to its values (#defines, constants, enumerators, template "
    "instantiations: rules/values.py) and reported where the result is provably a lane count.",
    example="int lane = threadIdx.x % 32;\ntemplate <int W> __global__ void k() { int lane = "
    "threadIdx.x % W; if (lane == 0) ... }  // k<32><<<...>>>",
    fix="Use warpSize (threadIdx.x % warpSize); --fix-warp-size rewrites it when the operand is "
    "threadIdx and the value is only compared, stored or used as a shuffle lane: never a "
    "shift amount or bit index (1u << (threadIdx.x % 32) indexes the bits of a 32-bit word), "
    "never an index, stride or offset into memory (whose layout would change).",
)
WARP_SIZE_REDUCTION = D.Code(
    "HPY421",
    "reduction-from-16",
    D.Severity.WARNING,
    "a warp reduction that starts at offset 16 (covers 32 lanes)",
    why="With 64 lanes the step at offset 32 is missing, so the two halves of the wavefront "
    "are never combined.  A start (or a scan's bound) written as a name is followed to its "
    "values: #defines, constants, enumerators, template parameters through their "
    "instantiations (rules/values.py).",
    example="for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(~0u, v, offset);",
    fix="Start at warpSize / 2.  Loops over a 32-wide cooperative-groups tile "
    "(tiled_partition<32>) are right and not reported.",
)
WARP_SIZE_CONSTANT = D.Code(
    "HPY422",
    "warp-size-constant-32",
    D.Severity.WARNING,
    "a constant named like the warp size defined as 32",
    why="Everything sized or indexed with it assumes 32 lanes; gfx942 has 64.",
    example="#define WARP_SIZE 32\nconstexpr int kWarpSize{32};\ntemplate <int kNumThreadsPerWarp "
    "= 32> ...",
    fix="Use warpSize in device code; --fix-warp-size redefines the macro as warpSize only when "
    "every use is a lane count (lane math on threadIdx whose value is a lane count, a shuffle "
    "width, the start of a halving loop): not an array size, template argument, case label, "
    "stride or bit index.",
)
WARP_SIZE_SHARED_ARRAY = D.Code(
    "HPY423",
    "per-warp-shared-array-32",
    D.Severity.WARNING,
    "a one-dimensional __shared__ array of 32 elements (one slot per 32-lane warp)",
    why="Indexed by warp (threadIdx.x / 32) or by lane, it no longer matches 64-lane wavefronts. "
    "A size written as a name is followed to its values (#defines, constants, enumerators, "
    "template parameters through their instantiations: rules/values.py).",
    example="__shared__ float warp_sums[32];",
    fix="Size it by blockDim.x / warpSize and index it with threadIdx.x / warpSize.",
)
WARP_SIZE_COMPARE = D.Code(
    "HPY424",
    "warpsize-compared-with-32",
    D.Severity.WARNING,
    "warpSize compared with 32",
    why="It is 64 on gfx942, so the 32-lane branch is never taken (or always taken with !=).",
    example="if (warpSize == 32) { ... }",
    fix="Handle both wavefront sizes, or write the code for any warpSize.",
)
WARP_SIZE_BLOCK = D.Code(
    "HPY425",
    "block-size-not-multiple-of-64",
    D.Severity.WARNING,
    "a kernel that uses warp intrinsics launched with a block size that is not a multiple of 64",
    why="The last wavefront of each block is partly empty, so full-mask shuffles and votes read "
    "lanes that do not exist.  Kernels that call a __device__ helper (or a macro) using warp "
    "functions count too.  The block size is followed through dim3 variables, #defines, "
    "constants, enumerators, arithmetic and template parameters (a launch inside "
    "template <int B> void launch() reached by launch<96>(): rules/values.py).",
    example="reduce<<<grid, 96>>>(...);\ndim3 block(48, 2);\nreduce<<<grid, block>>>(...);",
    fix="Launch a multiple of 64 threads per block.",
)

_LANE_MATH = {("%", 32), ("/", 32), ("&", 31), (">>", 5)}
_PRIMARY = frozenset(
    {
        "identifier",
        "field_expression",
        "parenthesized_expression",
        "call_expression",
        "subscript_expression",
        "number_literal",
    }
)
_LANE_FIX = {"%": "% warpSize", "/": "/ warpSize", "&": "& (warpSize - 1)", ">>": "/ warpSize"}
_NUMBER = r"(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*"
_OPERATOR = re.compile(rf"(%|&|>>|/)\s*({_NUMBER})(?![\w.])")
# a name, or a parenthesised expression without calls, as the right operand
_NAMED_OPERATOR = re.compile(
    r"(%|&|>>|/)(?![=&/])\s*([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*(?![\w(<.\[])|\([^()]*\))"
)
_MACRO_LANE_MATH = re.compile(
    rf"\(?\s*\bthreadIdx\s*\.\s*[xyz]\s*\)?\s*(%|&|>>|/)\s*({_NUMBER})(?![\w.])"
)
_WARP_NAME = r"\w*[Ww][Aa][Rr][Pp]\w*"
_WARP_CONSTANT = re.compile(
    rf"^[ \t]*#[ \t]*define[ \t]+({_WARP_NAME})[ \t]+\(?\s*32[uU]?\s*\)?[ \t]*"
    r"(?://.*|/\*.*\*/[ \t]*)?$"
    rf"|\b(?:const|constexpr)\b[^;=(){{}}]*?\b({_WARP_NAME})\s*(?:=\s*32[uU]?|\{{\s*32[uU]?\s*\}})\s*;"
    rf"|\benum\b[^{{;]*\{{[^}}]*?\b({_WARP_NAME})\s*=\s*32\b"
    rf"|\btemplate\s*<[^<>;]*?\b({_WARP_NAME})\s*=\s*32[uU]?\s*[,>]",
    re.MULTILINE,
)
_COMPARE = re.compile(r"\bwarpSize\s*[!=]=\s*32\b|\b32\s*[!=]=\s*warpSize\b")
_WARP_CALLS = re.compile(
    r"\b(?:__shfl\w*|__ballot\w*|__any\w*|__all\w*|__activemask|__syncwarp|tiled_partition)\s*\("
)
# a word every _WARP_CALLS match holds: without one no function uses warp intrinsics
_WARP_WORDS = (
    "__shfl",
    "__ballot",
    "__any",
    "__all",
    "__activemask",
    "__syncwarp",
    "tiled_partition",
)
_SHFL_OFFSET = re.compile(r"\b__shfl_(?:down|xor)(?:_sync)?\s*\(")
_TILE_32 = re.compile(
    r"\b(?:tiled_partition|thread_block_tile)\s*<\s*32[uU]?\s*>|\btiled_partition\s*\([^;()]*,\s*32[uU]?\s*\)"
)
_MACRO_REDUCTION = re.compile(
    r"\bfor\s*\(\s*(?:(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:int|unsigned|auto|long)\s+)?"
    r"(\w+)\s*=\s*16[uU]?\s*;[^;]*;\s*(?:\1\s*/=\s*2|\1\s*>>=\s*1|\1\s*=\s*\1\s*(?:/\s*2|>>\s*1))"
)
_BAD_USE_PARENTS = frozenset(
    {
        "array_declarator",
        "template_argument_list",
        "case_statement",
        "enumerator",
        "static_assert_declaration",
        "preproc_if",
        "preproc_elif",
        "bitfield_clause",
    }
)
_CANDIDATE = re.compile(r"32|16|31|0[xX]1[fF]|>>\s*5")  # nothing to find without one
_COMPARISONS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
_CONDITIONS = frozenset(
    {"if_statement", "while_statement", "do_statement", "condition_clause", "switch_statement"}
)


_GROWING = re.compile(r"\*=\s*2\b|<<=\s*1\b|=\s*\w+\s*\*\s*2\b|=\s*\w+\s*<<\s*1\b")
_BOUND_32 = re.compile(r"<\s*32[uU]?\s*;?$|<=\s*16[uU]?\s*;?$")
_LANE_31 = re.compile(r"\b__shfl(?:_sync)?\s*\(")
_CLAMP_32 = re.compile(
    rf"\b({_WARP_NAME})\s*=\s*(?:\w+\s*<\s*32[uU]?\s*\?\s*\w+\s*:\s*32[uU]?"
    r"|(?:std\s*::\s*)?min\s*\(\s*\w+\s*,\s*32[uU]?\s*\)"
    r"|(?:std\s*::\s*)?min\s*\(\s*32[uU]?\s*,\s*\w+\s*\))"
)


def _scans_and_lanes(ctx: Context) -> None:
    """Other 32-lane shapes: a scan whose offset doubles up to 32
    (``for (d = 1; d < 32; d *= 2) ... __shfl_up(v, d)``), a shuffle from lane
    31 (the last lane of a 32-wide warp), and a warp size clamped to 32
    (``kWarpSize = n < 32 ? n : 32``)."""
    text = ctx.text
    for start, end, _ in device_bodies(ctx):
        if "__shfl" not in text[start:end]:
            continue
        tile = _in_tile_function(ctx, start)
        for for_at in occurrences(text[start:end], "for"):
            node = ctx.root.descendant_for_byte_range(start + for_at, start + for_at + 3)
            loop = node.parent if node is not None else None
            if loop is None or loop.type != "for_statement" or tile:
                continue
            condition = loop.child_by_field_name("condition")
            update = loop.child_by_field_name("update")
            body = loop.child_by_field_name("body")
            if condition is None or update is None or body is None:
                continue
            bound = " ".join(ctx.node_text(condition).split())
            if not _GROWING.search(ctx.node_text(update)):
                continue
            if not _BOUND_32.search(bound):
                limit = re.fullmatch(r"\w+\s*(<=?)\s*([^<>=]+?)\s*;?", bound)
                if limit is None or _followed(ctx, limit.group(2), condition.start_byte) != {
                    32 if limit.group(1) == "<" else 16
                }:
                    continue
            if "__shfl" not in ctx.node_text(body):
                continue
            ctx.report(
                WARP_SIZE_REDUCTION,
                loop.start_byte,
                f"a warp scan or reduction whose offset doubles while `{bound}` covers 32 lanes; "
                "a gfx942 wavefront has 64, so lanes 32-63 are never combined",
                hint="loop while the offset is below warpSize: for (int d = 1; d < warpSize; "
                "d *= 2)",
                end=loop.end_byte,
            )
    for match in matches_at(_LANE_31, text, offsets_of(text, "__shfl")):
        node = ctx.root.descendant_for_byte_range(match.start(), match.start() + 2)
        call = node.parent if node is not None else None
        if call is None or call.type != "call_expression" or _in_tile_function(ctx, match.start()):
            continue
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        lane = 2 if "_sync" in match.group() else 1
        if len(args) > lane and _is_value(ctx, args[lane], 31):
            ctx.report(
                WARP_SIZE_LANE_MATH,
                call.start_byte,
                f"`{' '.join(ctx.node_text(call).split())}` reads lane 31, the last lane of a "
                "32-wide warp; a gfx942 wavefront's last lane is 63",
                hint="read lane warpSize - 1",
                end=call.end_byte,
            )
    for match in _CLAMP_32.finditer(text):
        if not _number_in_code(ctx, match.start(), match.end()):
            continue
        ctx.report(
            WARP_SIZE_CONSTANT,
            match.start(),
            f"`{' '.join(match.group().split())}` caps a warp size at 32; a gfx942 wavefront "
            "has 64 lanes",
            hint="cap it at warpSize (or the wavefront width as a constant, 64 on gfx942)",
            end=match.end(),
        )


def run(ctx: Context) -> None:
    if not device_bodies(ctx) and _CANDIDATE.search(ctx.text) is None:
        return
    _lane_math(ctx)
    _reductions(ctx)
    _scans_and_lanes(ctx)
    _in_macros(ctx)
    _constants(ctx)
    _shared_arrays(ctx)
    for match in matches_at(_COMPARE, ctx.text, _compare_starts(ctx.text)):
        if _number_in_code(ctx, match.start(), match.end()):
            ctx.report(
                WARP_SIZE_COMPARE,
                match.start(),
                f"`{match.group()}` is "
                + ("always" if "!=" in match.group() else "never")
                + " true on gfx942, whose wavefronts have 64 lanes",
                hint="handle warpSize 64 (and 32 on other AMD GPUs), or write the code for any "
                "warpSize",
            )
    _launch_block_sizes(ctx)


def _compare_starts(text: str) -> list[int]:
    """Where a _COMPARE match can start: at ``warpSize``, or at the ``32`` of
    ``32 == warpSize`` (found leftwards from warpSize: spaces, the operator,
    spaces; \\s is what str.isspace says)."""
    starts = []
    for pos in offsets_of(text, "warpSize"):
        starts.append(pos)
        at = pos
        while at > 0 and text[at - 1].isspace():
            at -= 1
        if at < 2 or text[at - 1] != "=" or text[at - 2] not in "!=":
            continue
        at -= 2
        while at > 0 and text[at - 1].isspace():
            at -= 1
        if at >= 2 and text[at - 2 : at] == "32":
            starts.append(at - 2)
    return starts


def _followed(ctx: Context, text: str, at: int) -> frozenset[int]:
    """The values the file gives ``text`` (rules/values.py), none where it
    names a warp-size constant: HPY422 reports that where it is defined (and
    --fix-warp-size may redefine it).  The checks that read intent from a
    number (lane math, a reduction's start, ...) report only where every
    value is the 32-lane one: code a template instantiates for several
    widths (CUB's LOGICAL_WARP_THREADS) is written for any width."""
    for name in re.findall(r"[A-Za-z_]\w*", text):
        if re.fullmatch(_WARP_NAME, name) and template_parameter(ctx, name, at) is None:
            return frozenset()
    return int_values(ctx, text, at)


def _is_value(ctx: Context, argument: tree_sitter.Node, value: int) -> bool:
    """Is ``argument`` the literal ``value``, or a name (an expression of
    names) that the file gives that value (rules/values.py)?"""
    text = ctx.node_text(argument).strip()
    if text.rstrip("uU") == str(value):
        return True
    return not re.fullmatch(_NUMBER, text) and _followed(ctx, text, argument.start_byte) == {value}


def _number_in_code(ctx: Context, start: int, end: int) -> bool:
    node = ctx.root.descendant_for_byte_range(start, end)
    while node is not None and node.type not in (
        "comment",
        "string_literal",
        "char_literal",
        "translation_unit",
    ):
        node = node.parent
    return node is not None and node.type == "translation_unit"


def _value(number: str) -> int:
    return int(number.rstrip("uUlL"), 0) if not re.match(r"0\d", number) else -1


def _left_has_thread_index(ctx: Context, expression: tree_sitter.Node) -> bool:
    left = expression.child_by_field_name("left")
    return left is not None and "threadIdx" in ctx.node_text(left)


def _tile_functions(ctx: Context) -> list[tuple[int, int]]:
    """Spans of the device functions that work on a 32-wide tile."""
    cached = ctx.facts.warp_size_tiles
    if cached is not None:
        return cached
    # tried only at the words every match starts with (a \\b-led search tried
    # every offset of every body)
    text = ctx.text
    words = sorted(offsets_of(text, "tiled_partition") + offsets_of(text, "thread_block_tile"))
    spans = []
    for start, end, _ in device_bodies(ctx) if words else ():
        index = bisect.bisect_left(words, start)
        while index < len(words) and words[index] < end:
            if _TILE_32.match(text, words[index], end) is not None:
                spans.append((start, end))
                break
            index += 1
    ctx.facts.warp_size_tiles = spans
    return spans


def _in_tile_function(ctx: Context, offset: int) -> bool:
    return any(start <= offset < end for start, end in _tile_functions(ctx))


def _lane_math(ctx: Context) -> None:
    for start, end, _ in device_bodies(ctx):
        if _in_tile_function(ctx, start):
            continue  # / 32 and % 32 over a 32-wide tile are right
        _named_lane_math(ctx, start, end)
        for match in _OPERATOR.finditer(ctx.text, start, end):
            op, number = match.group(1), match.group(2)
            if (op, _value(number)) not in _LANE_MATH:
                continue
            node = ctx.root.descendant_for_byte_range(match.start(2), match.end(2))
            if node is None or node.type != "number_literal":
                continue
            expression = _right_operand_of(node, op)
            if expression is None:
                continue
            text = " ".join(ctx.node_text(expression).split())
            on_thread_index = _left_has_thread_index(ctx, expression)
            fixable = on_thread_index and lane_count_use(ctx, expression)
            fixed = ctx.options.fix_warp_size and fixable
            if fixed:
                operator = expression.child_by_field_name("operator")
                assert operator is not None
                left = expression.child_by_field_name("left")
                if op == ">>" and left is not None and left.type not in _PRIMARY:
                    # / binds tighter than >>: keep the old left operand whole
                    ctx.edit(left.start_byte, left.start_byte, "(", "warp-size", safe=False)
                    ctx.edit(left.end_byte, left.end_byte, ")", "warp-size", safe=False)
                ctx.edit(operator.start_byte, node.end_byte, _LANE_FIX[op], "warp-size", safe=False)
            hint = "use warpSize (lane = threadIdx.x % warpSize)"
            if fixable and not fixed:
                hint += "; --fix-warp-size rewrites this one"
            elif on_thread_index and not fixable:
                hint += (
                    "; --fix-warp-size leaves it: the value is a shift amount or bit index, or "
                    "indexes, strides or offsets memory, whose layout the change would alter"
                )
            ctx.report(
                WARP_SIZE_LANE_MATH,
                expression.start_byte,
                f"`{text}` assumes 32-lane warps; a gfx942 wavefront has 64 lanes"
                + ("; rewritten with warpSize (--fix-warp-size)" if fixed else ""),
                hint=hint,
                end=expression.end_byte,
            )


def _right_operand_of(node: tree_sitter.Node, op: str) -> tree_sitter.Node | None:
    """The ``x OP node`` binary expression whose right operand is ``node``, else None."""
    expression = node.parent
    if expression is None or expression.type != "binary_expression":
        return None
    operator = expression.child_by_field_name("operator")
    if operator is None or operator.type != op or expression.child_by_field_name("right") != node:
        return None
    return expression


def _named_lane_math(ctx: Context, start: int, end: int) -> None:
    """``threadIdx.x % LANES``, ``threadIdx.x & (W - 1)``, ``threadIdx.x >> SHIFT``
    where the file gives the name 32 (31, 5; rules/values.py): a constant,
    #define or enumerator not named like the warp size (HPY422 reports those
    where they are defined), or a template parameter that an instantiation
    gives 32.  Only where the result is provably a lane count
    (``lane_count_use``): a named 32 is as often a tile's or a block's size."""
    for match in _NAMED_OPERATOR.finditer(ctx.text, start, end):
        op, operand = match.group(1), match.group(2)
        node = ctx.root.descendant_for_byte_range(match.start(2), match.end(2))
        if node is None or node.start_byte != match.start(2) or node.end_byte != match.end(2):
            continue
        expression = _right_operand_of(node, op)
        if expression is None:
            continue
        if not _left_has_thread_index(ctx, expression) or not lane_count_use(ctx, expression):
            continue  # (a named 32 is also a tile's or a block's size: a lane count only)
        values = _followed(ctx, operand, node.start_byte)
        lane = sorted(v for v in values if (op, v) in _LANE_MATH)
        if not lane or len(lane) != len(values):
            continue  # (some instantiation gives it another width: generic code)
        text = " ".join(ctx.node_text(expression).split())
        ctx.report(
            WARP_SIZE_LANE_MATH,
            expression.start_byte,
            f"`{text}` assumes 32-lane warps ({' '.join(operand.split())} is {lane[0]} here); a "
            "gfx942 wavefront has 64 lanes",
            hint="use warpSize (lane = threadIdx.x % warpSize), or give the template or "
            "constant the wavefront width",
            end=expression.end_byte,
        )


# ------------------------------------------------------------------ provable lane counts


def lane_count_use(ctx: Context, expression: tree_sitter.Node, depth: int = 0) -> bool:
    """Is the value of ``expression`` only compared, stored as a value, used as a
    shuffle's lane / width / offset, or kept in a variable used only so?  Never
    a shift operand (bit index into a 32-bit word), an index, a stride
    (multiplied) or a pointer offset, and never returned or passed on."""
    node = expression
    while True:
        parent = node.parent
        if parent is None:
            return False
        kind = parent.type
        if kind in ("parenthesized_expression", "cast_expression", "unary_expression"):
            node = parent
            continue
        if kind == "binary_expression":
            operator = parent.child_by_field_name("operator")
            op = operator.type if operator is not None else ""
            if op in _COMPARISONS:
                return True
            if op in ("<<", ">>", "*"):
                return False
            node = parent  # + - % / & | ^: still a lane-derived value
            continue
        if kind == "conditional_expression":
            if parent.child_by_field_name("condition") == node:
                return True
            node = parent
            continue
        if kind in _CONDITIONS or kind == "expression_statement":
            return True
        if kind == "for_statement":
            return parent.child_by_field_name("condition") == node
        if kind == "argument_list":
            call = parent.parent
            function = call.child_by_field_name("function") if call is not None else None
            return function is not None and ctx.node_text(function).startswith("__shfl")
        if kind == "init_declarator":
            return depth < 3 and _variable_uses_are_lane_counts(ctx, parent, depth)
        if kind == "assignment_expression":
            if parent.child_by_field_name("right") != node:
                return False
            left = parent.child_by_field_name("left")
            if left is None:
                return False
            if left.type == "identifier":
                found = visible(ctx, ctx.node_text(left), left.start_byte)
                return (
                    found is not None
                    and found.kind == "local"
                    and not found.indirect
                    and depth < 3
                    and _uses_after(ctx, found.name, found.start, left.start_byte, depth)
                )
            return left.type in ("subscript_expression", "field_expression")  # stored data
        return False


def _variable_uses_are_lane_counts(ctx: Context, declarator: tree_sitter.Node, depth: int) -> bool:
    name_node = declarator.child_by_field_name("declarator")
    if name_node is None or name_node.type != "identifier":
        return False  # a pointer, reference or array
    name = ctx.node_text(name_node)
    return _uses_after(ctx, name, name_node.start_byte, name_node.end_byte, depth)


def _uses_after(ctx: Context, name: str, declared_at: int, after: int, depth: int) -> bool:
    function = ctx.root.descendant_for_byte_range(declared_at, declared_at + len(name))
    while function is not None and function.type not in (
        "function_definition",
        "lambda_expression",
    ):
        function = function.parent
    if function is None:
        return False
    for offset in occurrences(ctx.text[after : function.end_byte], name):
        start = after + offset
        use = ctx.root.descendant_for_byte_range(start, start + len(name))
        if use is None or use.type != "identifier":
            continue
        found = visible(ctx, name, start)
        if found is None or found.start != declared_at:
            continue  # another variable of the same name
        parent = use.parent
        if (
            parent is not None
            and parent.type == "assignment_expression"
            and parent.child_by_field_name("left") == use
        ):
            continue  # overwritten: that value is checked where it is computed
        if not lane_count_use(ctx, use, depth + 1):
            return False
    return True


# ------------------------------------------------------------------ reductions


_FOR = re.compile(r"\bfor\s*\(")
_HALVING = re.compile(r"(?:/=\s*2|>>=\s*1|=\s*\w+\s*/\s*2|=\s*\w+\s*>>\s*1)\b")


def _reductions(ctx: Context) -> None:
    text = ctx.text
    for start, end, _ in device_bodies(ctx):
        # a reduction from 16 mentions 16, or shuffles with an offset a name gives
        if text.find("16", start, end) == -1 and text.find("__shfl", start, end) == -1:
            continue
        tile = _in_tile_function(ctx, start)
        for for_at in occurrences(text[start:end], "for"):
            node = ctx.root.descendant_for_byte_range(start + for_at, start + for_at + 3)
            loop = node.parent if node is not None else None
            if loop is None or loop.type != "for_statement":
                continue
            init = loop.child_by_field_name("initializer")
            update = loop.child_by_field_name("update")
            if init is None or update is None:
                continue
            init_text = " ".join(ctx.node_text(init).split())
            if not _HALVING.search(ctx.node_text(update)):
                continue
            body = loop.child_by_field_name("body")
            if not re.search(r"=\s*16[uU]?\s*;?$", init_text):
                # a start a name gives (LANES / 2, a template parameter): where the
                # loop shuffles, the file's values of it (rules/values.py)
                start_value = re.search(r"=\s*([^=;]+?)\s*;?$", init_text)
                if (
                    start_value is None
                    or body is None
                    or "__shfl" not in ctx.node_text(body)
                    or _followed(ctx, start_value.group(1), init.start_byte) != {16}
                ):
                    continue
            if tile and (body is None or "__shfl" not in ctx.node_text(body)):
                continue  # tile.shfl_down over a 32-wide tile: right
            ctx.report(
                WARP_SIZE_REDUCTION,
                loop.start_byte,
                f"a warp reduction starting at offset 16 (`for ({init_text} ...`) covers 32 lanes; "
                "a gfx942 wavefront has 64, so lanes 32-63 are never combined",
                hint="start at warpSize / 2: for (int offset = warpSize / 2; offset > 0; "
                "offset /= 2)",
                end=loop.end_byte,
            )
    # unrolled: __shfl_down_sync(mask, v, 16) as the first step
    for match in matches_at(_SHFL_OFFSET, ctx.text, offsets_of(ctx.text, "__shfl_")):
        node = ctx.root.descendant_for_byte_range(match.start(), match.start() + 2)
        call = node.parent if node is not None else None
        if call is None or call.type != "call_expression":
            continue
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        offset_index = (
            2 if "_sync" in ctx.node_text(call.child_by_field_name("function") or call) else 1
        )
        if len(args) > offset_index and _is_value(ctx, args[offset_index], 16):
            ctx.report(
                WARP_SIZE_REDUCTION,
                call.start_byte,
                f"`{' '.join(ctx.node_text(call).split())}` starts a 32-lane reduction at "
                "offset 16; "
                "a gfx942 wavefront needs a step at offset 32 too",
                hint="add the offset-32 step when warpSize is 64, or loop from warpSize / 2",
                end=call.end_byte,
            )


def _in_macros(ctx: Context) -> None:
    """Lane math on threadIdx and reductions from 16 inside #define bodies."""
    scanner = scanner_of(ctx)
    bodies = set()
    # only a word inside a #define body can be in one (and classify costs a
    # tree look-up): the bodies' spans, merged, searched by bisection
    spans: list[list[int]] = []
    for definition in macro_definitions(ctx):
        body = definition.child_by_field_name("value")
        if body is not None:
            spans.append([body.start_byte, body.end_byte])
    spans.sort()
    merged: list[list[int]] = []
    for span in spans:
        if merged and span[0] <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span[1])
        else:
            merged.append(span)
    span_starts = [start for start, _ in merged]
    for word in ("threadIdx", "for"):
        for start in occurrences(ctx.text, word) if merged else ():
            index = bisect.bisect_right(span_starts, start) - 1
            if index < 0 or start >= merged[index][1]:
                continue
            if scanner.classify(start, start + len(word))[0] != "macro":
                continue
            macro = macro_at(ctx, start)
            value = macro.child_by_field_name("value") if macro is not None else None
            if value is not None:
                bodies.add((value.start_byte, value.end_byte))
    for start, end in sorted(bodies):
        for match in _MACRO_LANE_MATH.finditer(ctx.text, start, end):
            if (match.group(1), _value(match.group(2))) not in _LANE_MATH:
                continue
            if scanner.classify(match.end() - 1, match.end())[0] != "macro":
                continue
            text = " ".join(match.group().strip("( ").split())
            ctx.report(
                WARP_SIZE_LANE_MATH,
                match.start() + len(match.group()) - len(match.group().lstrip("( ")),
                f"`{text}` in a #define body assumes 32-lane warps; a gfx942 wavefront has "
                "64 lanes",
                hint="use warpSize (lane = threadIdx.x % warpSize)",
                end=match.end(),
            )
        for match in _MACRO_REDUCTION.finditer(ctx.text, start, end):
            if scanner.classify(match.start(), match.start() + 3)[0] != "macro":
                continue
            ctx.report(
                WARP_SIZE_REDUCTION,
                match.start(),
                f"a warp reduction in a #define body starting at offset 16 (`{match.group(1)} = "
                "16`) covers 32 lanes; a gfx942 wavefront has 64, so lanes 32-63 are never "
                "combined",
                hint=f"start at warpSize / 2: for (int {match.group(1)} = warpSize / 2; ...)",
                end=match.end(),
            )


# ------------------------------------------------------------------ constants


def _constants(ctx: Context) -> None:
    # cheap first pass: only lines with a warp-named word and a 32 can match
    seen: set[int] = set()
    lines_done: set[int] = set()
    text = ctx.text
    pos = text.find("32")
    while pos != -1:
        line_start = text.rfind("\n", 0, pos) + 1
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end == -1 else line_end
        if line_start not in lines_done and "warp" in text[line_start:line_end].lower():
            lines_done.add(line_start)
            # an enum's braces or a template's < may open lines above: look back a little
            back = max(
                text.rfind("enum", max(0, line_start - 2000), line_start),
                text.rfind("template", max(0, line_start - 500), line_start),
            )
            _constants_in(ctx, back if back != -1 else line_start, line_end, seen)
        pos = text.find("32", line_end)


def _constants_in(ctx: Context, start: int, end: int, seen: set[int]) -> None:
    for match in _WARP_CONSTANT.finditer(ctx.text, start, end):
        if match.start() in seen:
            continue
        seen.add(match.start())
        group = next(i for i in range(1, 5) if match.group(i))
        name = match.group(group)
        where = match.start(1) if group == 1 else match.start()
        if group == 4:
            where = match.start(4)
        if not _number_in_code(ctx, where, where + 1):
            continue  # in a comment or string
        fixed = False
        if ctx.options.fix_warp_size and group == 1 and _only_lane_counts(ctx, name, match.end()):
            value = re.search(r"(?:\(\s*)?32[uU]?(?:\s*\))?", ctx.text[match.end(1) : match.end()])
            if value is not None:
                begin = match.end(1) + value.start()
                ctx.edit(begin, match.end(1) + value.end(), "warpSize", "warp-size", safe=False)
                fixed = True
        ctx.report(
            WARP_SIZE_CONSTANT,
            where,
            f"{name} is defined as 32, but a gfx942 wavefront has 64 lanes"
            + (
                "; redefined as warpSize (--fix-warp-size: it is used only as a lane count)"
                if fixed
                else ""
            ),
            hint="use warpSize in device code for run-time lane arithmetic; size arrays and "
            "template arguments for 64 explicitly (warpSize is a constant expression only up "
            "to HIP 6.4: HPY426)",
            name=name,
        )


def _only_lane_counts(ctx: Context, name: str, after: int) -> bool:
    """Every use of ``name`` after its definition is in device code and provably
    a lane count: the divisor of lane math on threadIdx / blockDim whose value
    is a lane count (``lane_count_use``), ``(name - 1)`` as a lane mask, a
    shuffle's width, or ``name / 2`` starting a halving loop."""
    uses = [
        m.start() for m in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", ctx.text[after:])
    ]
    if not uses:
        return False
    for offset in uses:
        start = after + offset
        node = ctx.root.descendant_for_byte_range(start, start + len(name))
        if node is None or node.type not in ("identifier", "type_identifier"):
            return False
        if not in_device_code(ctx, start):
            return False
        parent: tree_sitter.Node | None = node.parent
        while parent is not None and parent.type not in ("compound_statement", "translation_unit"):
            if parent.type in _BAD_USE_PARENTS:
                return False
            parent = parent.parent
        if not _lane_count_constant_use(ctx, node):
            return False
    return True


def _lane_count_constant_use(ctx: Context, node: tree_sitter.Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        node, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "argument_list":
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None else None
        return function is not None and ctx.node_text(function).startswith("__shfl")
    if parent.type != "binary_expression":
        return False
    operator = parent.child_by_field_name("operator")
    op = operator.type if operator is not None else ""
    left = parent.child_by_field_name("left")
    right = parent.child_by_field_name("right")
    if right == node and op in ("%", "/") and left is not None:
        if not re.search(r"\b(?:threadIdx|blockDim)\b", ctx.node_text(left)):
            return False
        return lane_count_use(ctx, parent)
    if left == node and op == "-" and right is not None and ctx.node_text(right).strip() == "1":
        outer = parent.parent
        while outer is not None and outer.type == "parenthesized_expression":
            outer = outer.parent
        if outer is None or outer.type != "binary_expression":
            return False
        outer_op = outer.child_by_field_name("operator")
        outer_left = outer.child_by_field_name("left")
        return (
            outer_op is not None
            and outer_op.type == "&"
            and outer_left is not None
            and "threadIdx" in ctx.node_text(outer_left)
            and lane_count_use(ctx, outer)
        )
    if left == node and op in ("/", ">>") and right is not None:
        halves = ctx.node_text(right).strip() == ("2" if op == "/" else "1")
        declarator = parent.parent
        declaration = declarator.parent if declarator is not None else None
        loop = declaration.parent if declaration is not None else None
        return (
            halves
            and declarator is not None
            and declarator.type == "init_declarator"
            and loop is not None
            and loop.type == "for_statement"
            and loop.child_by_field_name("initializer") == declaration
            and _HALVING.search(ctx.node_text(loop.child_by_field_name("update") or loop))
            is not None
        )
    return False


# ------------------------------------------------------------------ shared arrays


_ALIGN = re.compile(r"\b(?:__align__|alignas)\s*\([^()]*\)")
_SHARED_ARRAY = re.compile(r"(?<![\w\]])([A-Za-z_]\w*)\s*\[\s*([^\[\]]*?)\s*\](?!\s*\[)")
_OPENS_DIMENSION = re.compile(r"\s*\[")  # (\s is what str.lstrip strips)


def _shared_arrays(ctx: Context) -> None:
    text = ctx.text
    for start in occurrences(text, "__shared__"):
        if not _number_in_code(ctx, start, start + len("__shared__")):
            continue
        if macro_at(ctx, start) is not None:
            continue
        end = text.find(";", start)
        if end == -1:
            continue
        # __align__(16) / alignas(16) blanked out (same length), then no call may remain
        statement = _ALIGN.sub(lambda m: " " * len(m.group()), text[start:end])
        if "(" in statement:
            continue  # a function or an initializer call: not a plain array
        for match in _SHARED_ARRAY.finditer(statement):
            name_start = start + match.start(1)
            before = text[start:name_start].rstrip()
            if before.endswith("[") or re.search(r"\]\s*$", before):
                continue  # a second dimension
            if _OPENS_DIMENSION.match(text, start + match.end()) is not None:
                continue
            size_text = match.group(2).strip()
            if not size_text:
                continue
            if int_values(ctx, size_text, name_start) != {32}:
                continue  # (every value the file gives it: constants, template arguments)
            declared = " ".join(match.group().split())
            ctx.report(
                WARP_SIZE_SHARED_ARRAY,
                name_start,
                f"`__shared__ ... {declared}` looks like one slot per warp of 32 lanes: indexed "
                "by threadIdx.x / 32 it mixes two wave64 wavefronts into a slot, and by lane it "
                "leaves half a wavefront out",
                hint="size it by blockDim.x / warpSize (at most 1024 / 64 = 16 wavefronts) and "
                "index it with threadIdx.x / warpSize",
                end=start + match.end(),
            )


# ------------------------------------------------------------------ launches


def _function_name(ctx: Context, function: tree_sitter.Node) -> str:
    """function_name, once per function and file."""
    names = ctx.facts.warp_size_function_names
    name = names.get(function.id)
    if name is None:
        name = names[function.id] = function_name(ctx, function)
    assert isinstance(name, str)
    return name


def _warp_users(ctx: Context) -> set[str]:
    """Names of the device functions (and macros) that use warp intrinsics,
    directly or through a function or macro of this file that does."""
    bodies: dict[str, list[str]] = {}
    for _, _, function in device_bodies(ctx):
        if function.type != "function_definition":
            continue
        body = function.child_by_field_name("body")
        name = _function_name(ctx, function)
        if body is not None and name:
            bodies.setdefault(name, []).append(ctx.node_text(body))
    for macro in macro_definitions(ctx):
        name_node = macro.child_by_field_name("name")
        value = macro.child_by_field_name("value")
        if name_node is not None and value is not None:
            bodies.setdefault(ctx.node_text(name_node), []).append(ctx.node_text(value))
    # (each regex runs only on texts holding a word its matches start with: a
    # leading \b makes re try every offset)
    users = {
        name
        for name, texts in bodies.items()
        if any(any(word in t for word in _WARP_WORDS) and _WARP_CALLS.search(t) for t in texts)
    }
    while True:
        if not users:
            return users
        calls = re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(users)))})\s*[(<]")
        more = {
            name
            for name, texts in bodies.items()
            if name not in users
            and any(any(user in t for user in users) and calls.search(t) for t in texts)
        }
        if not more:
            return users
        users |= more


def _launch_block_sizes(ctx: Context) -> None:
    text = ctx.text
    if "<<<" not in text:
        return
    # the launches first: the warp users (a walk over every #define and device
    # body) are needed only where a device function of this file is launched
    launches: list[tuple[str, tree_sitter.Node]] = []
    pos = text.find("<<<")
    while pos != -1:
        node = ctx.root.descendant_for_byte_range(pos, pos + 3)
        config = node.parent if node is not None else None
        call = config.parent if config is not None else None
        if config is not None and call is not None and config.type == "kernel_call_syntax":
            function = call.child_by_field_name("function")
            name = ctx.node_text(function).split("<")[0].split("::")[-1].strip() if function else ""
            parts = [c for c in config.children if c.is_named]
            if len(parts) >= 2:
                launches.append((name, parts[1]))
        pos = text.find("<<<", pos + 3)
    if not launches:
        return
    # the device functions a launch may name: a function's name is in its text
    # before the body, so the others need no look at their declarators
    launched = {name for name, _ in launches}
    device = {
        _function_name(ctx, function)
        for body, _, function in device_bodies(ctx)
        if function.type == "function_definition"
        and any(name in text[function.start_byte : body] for name in launched)
    }
    if not any(name in device for name, _ in launches) or not any(
        word in text for word in _WARP_WORDS
    ):
        return
    kernels = device & _warp_users(ctx)
    for name, block in launches:
        if name not in kernels:
            continue
        bad = sorted(
            v for v in block_threads(ctx, ctx.node_text(block), block.start_byte) if v % 64
        )
        if bad:
            threads = " or ".join(str(v) for v in bad)
            ctx.report(
                WARP_SIZE_BLOCK,
                block.start_byte,
                f"{name} uses warp intrinsics but is launched with {threads} threads per "
                "block, not a multiple of 64: its last gfx942 wavefront is partly empty",
                hint="use a block size that is a multiple of 64 (or of warpSize)",
                end=block.end_byte,
            )


def block_threads(ctx: Context, text: str, at: int, depth: int = 0) -> frozenset[int]:
    """Threads per block of a launch's block argument: each value this file
    gives it (rules/values.py: constants, #defines, enumerators, template
    parameters through their instantiations; a dim3's product)."""
    text = text.strip()
    dim3 = re.fullmatch(r"dim3\s*[({]\s*([^(){}]+)\s*[)}]", text)
    if dim3:
        totals = frozenset({1})
        for part in dim3.group(1).split(","):
            values = block_threads(ctx, part, at, depth + 1)
            if not values:
                return frozenset()
            totals = frozenset(t * v for t in totals for v in values)
        return totals
    if depth < 4 and re.fullmatch(r"[A-Za-z_]\w*", text):
        found = visible(ctx, text, at)
        if (
            found is not None
            and found.type_text.split()[-1:] == ["dim3"]
            and found.value_node is not None
        ):
            value_text = ctx.node_text(found.value_node)
            if not value_text.startswith("dim3"):
                value_text = "dim3" + value_text  # dim3 block(48, 2) / block{48, 2}
            return block_threads(ctx, value_text, found.value_node.start_byte, depth + 1)
    return int_values(ctx, text, at)


RULE = Rule(
    id="warp_size",
    run=run,
    codes=(
        WARP_SIZE_BLOCK.code,
        WARP_SIZE_COMPARE.code,
        WARP_SIZE_CONSTANT.code,
        WARP_SIZE_LANE_MATH.code,
        WARP_SIZE_REDUCTION.code,
        WARP_SIZE_SHARED_ARRAY.code,
    ),
    needs=("options",),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__global__ void k(int* o) { int lane = threadIdx.x % 32; "
                "o[lane] = 0; }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__global__ void k(int* o) { int lane = threadIdx.x % 32; "
                "o[lane] = 0; }\n"
            ),
            frozenset({"HPY420"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(int* o) { int lane = threadIdx.x % warpSize; "
            "o[lane] = 0; }\n"
        ),
    ),
)
