"""Inline PTX: ``asm`` / ``asm volatile`` in device code.

PTX is NVIDIA's virtual ISA; hipcc cannot assemble it for gfx942, and no
translation exists in general.  Every site is an error-level diagnostic that
quotes the instructions; the rest of the file is still translated.  ``trap`` and
``brkpt`` without operands become clang builtins (for AMD; the PTX stays for
HIP's NVIDIA platform, and PTX in such a branch is not reported); a statement
not alone on its line (``if (x) asm("trap;");``) becomes the helper macro
``hipify_py_trap()`` / ``hipify_py_brkpt()`` instead (rules/platform_split.py:
``__trap`` / ``__brkpt`` on NVIDIA, where nvcc takes no ``__builtin_trap``).  Host-side
``asm`` (x86) is left alone unless its text looks like PTX.  Inside a
``#define`` body (opaque text to the parser) an ``asm`` statement is reported
when its text looks like PTX: where the macro expands is not known.  AMD GCN
assembly (``v_dot2_f32_f16``, ``s_waitcnt``, ...: a project's own HIP path,
as ggml's) is not PTX: left alone.
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.rules.device_code import in_device_code
from hipify_py.rules.identifiers import scanner_of
from hipify_py.rules.platform_split import (
    alone_statement,
    on_nvidia_side,
    platform_helper,
    split_for_nvidia,
)
from hipify_py.rules.rule import Example, Rule
from hipify_py.tables.table import MappingTable

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
INLINE_PTX = D.Code(
    "HPY501",
    "inline-ptx",
    D.Severity.ERROR,
    "inline PTX assembly (asm / asm volatile) in device code or a #define body",
    why="PTX is NVIDIA's virtual instruction set; hipcc cannot assemble it for AMD GPUs.",
    example='asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n#define LANE_ID(r) asm '
    'volatile("mov.u32 %0, %%laneid;" : "=r"(r))',
    fix="Rewrite it with HIP intrinsics (__lane_id(), __builtin_amdgcn_*) or AMD GCN assembly.",
)

_ASM = re.compile(r"(?<![\w])(?:asm|__asm__|__asm)(?![\w])")
# PTX giveaways: %% registers, .u32/.f32 type suffixes, PTX-only opcodes
_PTX = re.compile(
    r"%%\w|\.(?:[usbf](?:8|16|32|64)|pred|shared|global|sync|aligned)\b|\b(?:mov|ld|st|cvt|mma|shfl|bar|vote|prmt|lop3)\."
)

# AMD GCN giveaways: each instruction starts with a GCN opcode prefix
_GCN_OPCODE = re.compile(
    r"^(?:v|s|ds|buffer|global|flat|scratch|exp|image|tbuffer)_[a-z0-9_]+(?:\s|$)"
)


def is_amd_gcn(code: str) -> bool:
    """Is every instruction of ``code`` (instructions joined by ';') AMD GCN
    assembly rather than PTX?"""
    instructions = [i.strip() for i in code.split(";") if i.strip()]
    return (
        bool(instructions)
        and not _PTX.search(code)
        and all(_GCN_OPCODE.match(i) for i in instructions)
    )


def may_apply(present: set[str], text: str, table: MappingTable) -> bool:
    """PTX, also in a header of macros only (which no other rule admits)."""
    return not present.isdisjoint(("asm", "__asm__", "__asm"))


def run(ctx: Context) -> None:
    if "asm" not in ctx.text:
        return
    seen: set[int] = set()
    scanner = scanner_of(ctx)
    for match in _ASM.finditer(ctx.text):
        where, _ = scanner.classify(match.start(), match.end())
        if where == "macro":
            _in_macro(ctx, match.start(), match.end())
            continue
        node = ctx.root.descendant_for_byte_range(match.start(), match.end())
        while node is not None and node.type not in ("gnu_asm_expression", "translation_unit"):
            node = node.parent
        if node is None or node.type != "gnu_asm_expression" or node.id in seen:
            continue
        seen.add(node.id)
        code = _instructions(ctx, node)
        if not in_device_code(ctx, node.start_byte) and not _PTX.search(code):
            continue
        if is_amd_gcn(code):
            continue  # already AMD assembly (a project's own HIP path)
        if on_nvidia_side(ctx, node.start_byte):
            continue  # PTX is right on HIP's NVIDIA platform
        builtin = _BUILTINS.get(code)
        if builtin is not None and not _has_operands(node):
            _to_builtin(ctx, node, builtin)
            continue
        _report(ctx, node.start_byte, node.end_byte, code)


# PTX instructions without operands that a clang builtin does for AMD GPUs:
# `trap` aborts the kernel (clang lowers __builtin_trap to s_trap on gfx942),
# `brkpt` stops in the debugger
_BUILTINS = {"trap": "__builtin_trap()", "brkpt": "__builtin_debugtrap()"}


def _to_builtin(ctx: Context, node: tree_sitter.Node, builtin: str) -> None:
    """The builtin for AMD; a statement alone on its line keeps the PTX for
    HIP's NVIDIA platform (nvcc takes no __builtin_trap in device code)."""
    ctx.stats.converted[("device", "asm")] += 1
    statement = alone_statement(ctx, node)
    if statement is None:
        # not alone on its line: a helper macro right on both platforms
        helper = platform_helper(ctx, builtin.removesuffix("()"))
        ctx.edit(node.start_byte, node.end_byte, f"{helper}()" if helper else builtin, "asm")
    else:
        split_for_nvidia(ctx, statement, builtin + ";", "asm")


def _has_operands(node: tree_sitter.Node) -> bool:
    """Operands (a clobber list alone, "memory", is fine: the builtin does
    not return)."""
    return any(
        child.type in ("gnu_asm_output_operand_list", "gnu_asm_input_operand_list")
        and child.named_child_count > 0
        for child in node.children
    )


def _report(ctx: Context, start: int, end: int, code: str, in_macro: bool = False) -> None:
    ctx.stats.unconverted["asm"] += 1
    ctx.stats.unconverted_library["device"] += 1
    ctx.report(
        INLINE_PTX,
        start,
        f"inline PTX{' in a #define body' if in_macro else ''} cannot be compiled for AMD "
        f"GPUs: {code}",
        hint="rewrite it with HIP intrinsics or builtins (e.g. __lane_id(), __shfl_*, "
        "__builtin_amdgcn_*), or in AMD GCN assembly; list every site with --list-asm",
        name="asm",
        end=end,
    )


_SPLICE = re.compile(r"\\\r?\n")
_MACRO_ASM = re.compile(r"\s*(?:(?:volatile|__volatile__|inline|goto)\s*)*\(")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _in_macro(ctx: Context, start: int, end: int) -> None:
    """``asm`` in a #define body: its string pieces up to the first ':' or ')'."""
    text = ctx.text
    opening = _MACRO_ASM.match(text, end)
    if opening is None:
        return
    pos = opening.end()
    pieces = []
    while True:
        while pos < len(text) and text[pos] in " \t\\\r\n":
            if text[pos] == "\n" and text[pos - 1 : pos] != "\\" and text[pos - 2 : pos] != "\\\r":
                break
            pos += 1
        string = _STRING.match(text, pos)
        if string is None:
            break
        pieces.append(string.group(1))
        pos = string.end()
    code = " ".join("".join(pieces).replace("\\n", "; ").replace("\\t", " ").split()).strip("; ")
    if not code or not _PTX.search(code):
        return
    close = _closing(text, opening.end() - 1)
    _report(ctx, start, close, code, in_macro=True)


def _closing(text: str, open_paren: int) -> int:
    """Offset past the parenthesis closing the one at ``open_paren`` (same macro)."""
    depth = 0
    i = open_paren
    while i < len(text):
        ch = text[i]
        if ch == '"':
            string = _STRING.match(text, i)
            i = string.end() if string is not None else i + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch == "\n" and text[i - 1 : i] != "\\" and text[i - 2 : i] != "\\\r":
            return i
        i += 1
    return i


def _instructions(ctx: Context, node: tree_sitter.Node) -> str:
    """The assembly text, its string pieces joined and whitespace folded."""
    code = node.child_by_field_name("assembly_code")
    if code is None:
        return " ".join(ctx.node_text(node).split())
    pieces = [ctx.node_text(c) for c in _string_contents(code)]
    text = "".join(pieces) if pieces else ctx.node_text(code)
    text = _SPLICE.sub("", text)  # a backslash-newline inside the string joins lines
    text = text.replace("\\n", "; ").replace("\\t", " ")
    return " ".join(text.split()).strip("; ")


def _string_contents(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    if node.type in ("string_content", "escape_sequence"):
        return [node]
    found: list[tree_sitter.Node] = []
    for child in node.children:
        found.extend(_string_contents(child))
    return found


RULE = Rule(
    id="asm",
    run=run,
    codes=(INLINE_PTX.code,),
    needs=(),
    may_apply=may_apply,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                '__device__ unsigned lane() { unsigned r; asm("mov.u32 %0, '
                '%%laneid;" : "=r"(r)); return r; }\n'
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                '__device__ unsigned lane() { unsigned r; asm("mov.u32 %0, '
                '%%laneid;" : "=r"(r)); return r; }\n'
            ),
            frozenset({"HPY501"}),
        ),
        Example.unchanged(
            '#include <hip/hip_runtime.h>\n__device__ void f() { asm volatile("s_nop 0"); }\n'
        ),
    ),
)
