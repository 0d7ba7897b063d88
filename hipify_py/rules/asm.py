"""Inline PTX: ``asm`` / ``asm volatile`` in device code.

PTX is NVIDIA's virtual ISA; hipcc cannot assemble it for gfx942, and no
translation exists in general.  Every site is an error-level diagnostic that
quotes the instructions; the rest of the file is still translated.  Host-side
``asm`` (x86) is left alone unless its text looks like PTX.
"""

from __future__ import annotations

import re

import tree_sitter

from .. import diagnostics as D
from ..context import Context
from .device_code import in_device_code

_ASM = re.compile(r"(?<![\w])(?:asm|__asm__|__asm)(?![\w])")
# PTX giveaways: %% registers, .u32/.f32 type suffixes, PTX-only opcodes
_PTX = re.compile(
    r"%%\w|\.(?:[usbf](?:8|16|32|64)|pred|shared|global|sync|aligned)\b|\b(?:mov|ld|st|cvt|mma|shfl|bar|vote|prmt|lop3)\."
)


def run(ctx: Context) -> None:
    if "asm" not in ctx.text:
        return
    seen: set[int] = set()
    for match in _ASM.finditer(ctx.text):
        node = ctx.root.descendant_for_byte_range(match.start(), match.end())
        while node is not None and node.type not in ("gnu_asm_expression", "translation_unit"):
            node = node.parent
        if node is None or node.type != "gnu_asm_expression" or node.id in seen:
            continue
        seen.add(node.id)
        code = _instructions(ctx, node)
        if not in_device_code(ctx, node.start_byte) and not _PTX.search(code):
            continue
        ctx.stats.unconverted["asm"] += 1
        ctx.stats.unconverted_library["device"] += 1
        ctx.report(
            D.INLINE_PTX,
            node.start_byte,
            f"inline PTX cannot be compiled for AMD GPUs: {code}",
            hint="rewrite it with HIP intrinsics or builtins (e.g. __lane_id(), __shfl_*, "
            "__builtin_amdgcn_*), or in AMD GCN assembly; list every site with --list-asm",
            name="asm",
            end=node.end_byte,
        )


def _instructions(ctx: Context, node: tree_sitter.Node) -> str:
    """The assembly text, its string pieces joined and whitespace folded."""
    code = node.child_by_field_name("assembly_code")
    if code is None:
        return " ".join(ctx.node_text(node).split())
    pieces = [ctx.node_text(c) for c in _string_contents(code)]
    text = "".join(pieces) if pieces else ctx.node_text(code)
    text = text.replace("\\n", "; ").replace("\\t", " ")
    return " ".join(text.split()).strip("; ")


def _string_contents(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    if node.type in ("string_content", "escape_sequence"):
        return [node]
    found: list[tree_sitter.Node] = []
    for child in node.children:
        found.extend(_string_contents(child))
    return found
