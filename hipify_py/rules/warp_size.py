"""Warp-size hazards: code that assumes 32 lanes where gfx942 has 64.

Such code compiles and then computes wrong answers, so each pattern is
reported with the exact expression.  ``--fix-warp-size`` (unsafe, opt-in)
rewrites only what is provably a lane count: ``% 32``, ``/ 32``, ``& 31`` and
``>> 5`` applied to threadIdx in device code, and a ``#define WARP_SIZE 32``
whose every use is such a lane count.
"""

from __future__ import annotations

import re

import tree_sitter

from .. import diagnostics as D
from ..context import Context
from .device_code import device_bodies, function_name, in_device_code
from .identifiers import occurrences
from .warp import _definition_of

_LANE_MATH = {("%", "32"), ("/", "32"), ("&", "31"), (">>", "5")}
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
_OPERATOR = re.compile(r"(%|&|>>|/)\s*(32|31|5)\b")
_WARP_CONSTANT = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+(\w*[Ww][Aa][Rr][Pp]\w*)[ \t]+\(?\s*32[uU]?\s*\)?[ \t]*(?://.*)?$"
    r"|\b(?:const|constexpr)\b[^;=(){}]*?\b(\w*[Ww][Aa][Rr][Pp]\w*)\s*=\s*32[uU]?\s*;"
    r"|\benum\b[^{;]*\{[^}]*?\b(\w*[Ww][Aa][Rr][Pp]\w*)\s*=\s*32\b",
    re.MULTILINE,
)
_COMPARE = re.compile(r"\bwarpSize\s*[!=]=\s*32\b|\b32\s*[!=]=\s*warpSize\b")
_WARP_CALLS = re.compile(
    r"\b(?:__shfl\w*|__ballot\w*|__any\w*|__all\w*|__activemask|__syncwarp|tiled_partition)\s*\("
)
_SHFL_OFFSET = re.compile(r"\b__shfl_(?:down|xor)(?:_sync)?\s*\(")
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


def run(ctx: Context) -> None:
    if not device_bodies(ctx) and "32" not in ctx.text:
        return
    _lane_math(ctx)
    _reductions(ctx)
    _constants(ctx)
    _shared_arrays(ctx)
    for match in _COMPARE.finditer(ctx.text) if "warpSize" in ctx.text else ():
        if _number_in_code(ctx, match.start(), match.end()):
            ctx.report(
                D.WARP_SIZE_COMPARE,
                match.start(),
                f"`{match.group()}` is "
                + ("always" if "!=" in match.group() else "never")
                + " true on gfx942, whose wavefronts have 64 lanes",
                hint="handle warpSize 64 (and 32 on other AMD GPUs), or write the code for any "
                "warpSize",
            )
    _launch_block_sizes(ctx)


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


def _left_has_thread_index(ctx: Context, expression: tree_sitter.Node) -> bool:
    left = expression.child_by_field_name("left")
    return left is not None and "threadIdx" in ctx.node_text(left)


def _lane_math(ctx: Context) -> None:
    for start, end, _ in device_bodies(ctx):
        for match in _OPERATOR.finditer(ctx.text, start, end):
            op, number = match.group(1), match.group(2)
            if (op, number) not in _LANE_MATH:
                continue
            node = ctx.root.descendant_for_byte_range(match.start(2), match.end(2))
            if node is None or node.type != "number_literal":
                continue
            expression = node.parent
            if expression is None or expression.type != "binary_expression":
                continue
            operator = expression.child_by_field_name("operator")
            if (
                operator is None
                or operator.type != op
                or expression.child_by_field_name("right") != node
            ):
                continue
            text = " ".join(ctx.node_text(expression).split())
            fixable = _left_has_thread_index(ctx, expression)
            fixed = ctx.options.fix_warp_size and fixable
            if fixed:
                assert operator is not None
                left = expression.child_by_field_name("left")
                if op == ">>" and left is not None and left.type not in _PRIMARY:
                    # / binds tighter than >>: keep the old left operand whole
                    ctx.edit(left.start_byte, left.start_byte, "(", "warp-size", safe=False)
                    ctx.edit(left.end_byte, left.end_byte, ")", "warp-size", safe=False)
                ctx.edit(operator.start_byte, node.end_byte, _LANE_FIX[op], "warp-size", safe=False)
            ctx.report(
                D.WARP_SIZE_LANE_MATH,
                expression.start_byte,
                f"`{text}` assumes 32-lane warps; a gfx942 wavefront has 64 lanes"
                + ("; rewritten with warpSize (--fix-warp-size)" if fixed else ""),
                hint="use warpSize (lane = threadIdx.x % warpSize)"
                + ("" if not fixable or fixed else "; --fix-warp-size rewrites this one"),
                end=expression.end_byte,
            )


_FOR = re.compile(r"\bfor\s*\(")
_HALVING = re.compile(r"(?:/=\s*2|>>=\s*1|=\s*\w+\s*/\s*2|=\s*\w+\s*>>\s*1)\b")


def _reductions(ctx: Context) -> None:
    text = ctx.text
    for start, end, _ in device_bodies(ctx):
        pos = text.find("16", start, end)  # a reduction from 16 mentions 16: skip the rest
        if pos == -1:
            continue
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
            if not re.search(r"=\s*16[uU]?\s*;?$", init_text) or not _HALVING.search(
                ctx.node_text(update)
            ):
                continue
            ctx.report(
                D.WARP_SIZE_REDUCTION,
                loop.start_byte,
                f"a warp reduction starting at offset 16 (`for ({init_text} ...`) covers 32 lanes; "
                "a gfx942 wavefront has 64, so lanes 32-63 are never combined",
                hint="start at warpSize / 2: for (int offset = warpSize / 2; offset > 0; "
                "offset /= 2)",
                end=loop.end_byte,
            )
    # unrolled: __shfl_down_sync(mask, v, 16) as the first step
    for match in _SHFL_OFFSET.finditer(ctx.text) if "__shfl_" in ctx.text else ():
        node = ctx.root.descendant_for_byte_range(match.start(), match.start() + 2)
        call = node.parent if node is not None else None
        if call is None or call.type != "call_expression":
            continue
        arguments = call.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        offset_index = (
            2 if "_sync" in ctx.node_text(call.child_by_field_name("function") or call) else 1
        )
        if len(args) > offset_index and ctx.node_text(args[offset_index]).strip() == "16":
            ctx.report(
                D.WARP_SIZE_REDUCTION,
                call.start_byte,
                f"`{' '.join(ctx.node_text(call).split())}` starts a 32-lane reduction at "
                "offset 16; "
                "a gfx942 wavefront needs a step at offset 32 too",
                hint="add the offset-32 step when warpSize is 64, or loop from warpSize / 2",
                end=call.end_byte,
            )


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
            # an enum's braces may open lines above: look back a little
            back = text.rfind("enum", max(0, line_start - 2000), line_start)
            _constants_in(ctx, back if back != -1 else line_start, line_end, seen)
        pos = text.find("32", line_end)


def _constants_in(ctx: Context, start: int, end: int, seen: set[int]) -> None:
    for match in _WARP_CONSTANT.finditer(ctx.text, start, end):
        if match.start() in seen:
            continue
        seen.add(match.start())
        name = match.group(1) or match.group(2) or match.group(3)
        where = match.start(1) if match.group(1) else match.start()
        if not _number_in_code(ctx, where, where + 1):
            continue  # in a comment or string
        fixed = False
        if (
            ctx.options.fix_warp_size
            and match.group(1)
            and _only_lane_counts(ctx, name, match.end())
        ):
            value = re.search(r"(?:\(\s*)?32[uU]?(?:\s*\))?", ctx.text[match.end(1) : match.end()])
            if value is not None:
                begin = match.end(1) + value.start()
                ctx.edit(begin, match.end(1) + value.end(), "warpSize", "warp-size", safe=False)
                fixed = True
        ctx.report(
            D.WARP_SIZE_CONSTANT,
            where,
            f"{name} is defined as 32, but a gfx942 wavefront has 64 lanes"
            + (
                "; redefined as warpSize (--fix-warp-size: it is used only as a lane count)"
                if fixed
                else ""
            ),
            hint="use warpSize in device code (a constant 64 on gfx942 with HIP 5.7, but not "
            "every HIP version and target makes it one, so array sizes and template arguments "
            "are better sized for 64 explicitly)",
            name=name,
        )


def _only_lane_counts(ctx: Context, name: str, after: int) -> bool:
    """Every use of ``name`` after its definition is in device code, and none
    needs a compile-time constant (array sizes, template arguments, case labels)."""
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
    return True


def _shared_arrays(ctx: Context) -> None:
    for start in occurrences(ctx.text, "__shared__"):
        node = ctx.root.descendant_for_byte_range(start, start + len("__shared__"))
        while node is not None and node.type not in ("declaration", "translation_unit"):
            node = node.parent
        if node is None or node.type != "declaration":
            continue
        for declarator in node.children_by_field_name("declarator"):
            if declarator.type != "array_declarator":
                continue
            inner = declarator.child_by_field_name("declarator")
            if inner is not None and inner.type == "array_declarator":
                continue  # a 2-D tile ([32][33]) is a tile, not one slot per warp
            size = declarator.child_by_field_name("size")
            if size is None:
                continue
            size_text = ctx.node_text(size).strip()
            value = size_text if size_text.isdigit() else (_definition_of(ctx, size_text) or "")
            if value.strip().rstrip("uU") != "32":
                continue
            ctx.report(
                D.WARP_SIZE_SHARED_ARRAY,
                declarator.start_byte,
                f"`__shared__ ... {' '.join(ctx.node_text(declarator).split())}` looks like one "
                "slot "
                "per warp of 32 lanes: indexed by threadIdx.x / 32 it mixes two wave64 wavefronts "
                "into a slot, and by lane it leaves half a wavefront out",
                hint="size it by blockDim.x / warpSize (at most 1024 / 64 = 16 wavefronts) and "
                "index it with threadIdx.x / warpSize",
                end=declarator.end_byte,
            )


def _launch_block_sizes(ctx: Context) -> None:
    kernels = {
        function_name(ctx, function): function
        for _, _, function in device_bodies(ctx)
        if function.type == "function_definition"
        and _WARP_CALLS.search(ctx.node_text(function.child_by_field_name("body") or function))
    }
    if not kernels or "<<<" not in ctx.text:
        return
    pos = ctx.text.find("<<<")
    while pos != -1:
        node = ctx.root.descendant_for_byte_range(pos, pos + 3)
        config = node.parent if node is not None else None
        call = config.parent if config is not None else None
        if config is not None and call is not None and config.type == "kernel_call_syntax":
            function = call.child_by_field_name("function")
            name = ctx.node_text(function).split("<")[0].split("::")[-1].strip() if function else ""
            parts = [c for c in config.children if c.is_named]
            if name in kernels and len(parts) >= 2:
                threads = _block_threads(ctx, ctx.node_text(parts[1]))
                if threads is not None and threads % 64:
                    ctx.report(
                        D.WARP_SIZE_BLOCK,
                        parts[1].start_byte,
                        f"{name} uses warp intrinsics but is launched with {threads} threads per "
                        "block, not a multiple of 64: its last gfx942 wavefront is partly empty",
                        hint="use a block size that is a multiple of 64 (or of warpSize)",
                        end=parts[1].end_byte,
                    )
        pos = ctx.text.find("<<<", pos + 3)


def _block_threads(ctx: Context, text: str, depth: int = 0) -> int | None:
    text = text.strip()
    if text.isdigit():
        return int(text)
    dim3 = re.fullmatch(
        r"dim3\s*[({]\s*([^,(){}]+)(?:,\s*([^,(){}]+))?(?:,\s*([^,(){}]+))?\s*[)}]", text
    )
    if dim3:
        total = 1
        for part in dim3.groups():
            if part is None:
                continue
            value = _block_threads(ctx, part, depth + 1)
            if value is None:
                return None
            total *= value
        return total
    if re.fullmatch(r"[A-Za-z_]\w*", text) and depth < 3:
        definition = _definition_of(ctx, text)
        return _block_threads(ctx, definition, depth + 1) if definition else None
    return None
