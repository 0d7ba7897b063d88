"""A statement HIP spells differently per platform: for AMD a clang builtin
(``__builtin_trap()`` for CUDA's ``__trap()`` or PTX ``trap``), while on HIP's
NVIDIA platform nvcc takes no such builtin in device code and CUDA's own
spelling is right.  A statement alone on its line becomes

    #if defined(__HIP_PLATFORM_NVIDIA__)
        <the CUDA statement>
    #else
        <the AMD statement>
    #endif

Anywhere else (``if (x) __trap();``, ``{ __trap(); }`` on one line, a
ternary or comma expression, a lambda, a ``#define`` body) no ``#if`` can
stand, so the name becomes a helper macro defined once after the file's
runtime include (``hipify_py_trap``: ``__trap`` on HIP's NVIDIA platform,
``__builtin_trap`` for AMD).  An object-like macro: it stands wherever the
name did, called or not.
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine.context import Context

NVIDIA_TEST = "#if defined(__HIP_PLATFORM_NVIDIA__)"


def alone_statement(ctx: Context, node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The expression statement whose whole expression is ``node``, when it
    sits alone on its line (nothing else before or after it there)."""
    statement = node.parent
    if statement is None or statement.type != "expression_statement":
        return None
    if statement.named_child_count != 1 or statement.named_children[0] != node:
        return None
    return statement if alone_on_line(ctx, statement) else None


def alone_on_line(ctx: Context, statement: tree_sitter.Node) -> bool:
    """Nothing but ``statement`` on its line(s)."""
    text = ctx.text
    start = text.rfind("\n", 0, statement.start_byte) + 1
    end = text.find("\n", statement.end_byte)
    return not (
        end < 0
        or text[start : statement.start_byte].strip()
        or text[statement.end_byte : end].strip()
    )


def split_for_nvidia(ctx: Context, statement: tree_sitter.Node, amd: str, rule: str) -> None:
    """Replace ``statement`` (alone on its line) by the #if above; ``amd`` is
    the statement for AMD, without its indentation."""
    text = ctx.text
    start = text.rfind("\n", 0, statement.start_byte) + 1
    indent = text[start : statement.start_byte]
    newline = ctx.info.newline.decode("latin-1")
    lines = [NVIDIA_TEST, text[start : statement.end_byte], "#else", indent + amd, "#endif"]
    ctx.edit(start, statement.end_byte, newline.join(lines), rule)


# AMD builtins that nvcc does not take in device code: the helper macro that
# stands for each on both platforms, and CUDA's own name for HIP's NVIDIA platform
PLATFORM_HELPERS = {
    "__builtin_trap": ("hipify_py_trap", "__trap"),
    "__builtin_debugtrap": ("hipify_py_brkpt", "__brkpt"),
}


def platform_helper(ctx: Context, amd: str) -> str | None:
    """The helper macro that stands for the AMD builtin ``amd`` on both HIP
    platforms, its definition queued (once) for after the runtime include;
    None where ``amd`` has none."""
    found = PLATFORM_HELPERS.get(amd)
    if found is None:
        return None
    name, nvidia = found
    guard = name.upper()
    newline = ctx.info.newline.decode("latin-1")
    block = newline.join(
        [
            f"#ifndef {guard}",
            f"#define {guard}",
            f"/* hipify-py: {nvidia} on HIP's NVIDIA platform (nvcc takes no {amd} in",
            "   device code), the clang builtin for AMD */",
            NVIDIA_TEST,
            f"#define {name} {nvidia}",
            "#else",
            f"#define {name} {amd}",
            "#endif",
            "#endif",
            "",
        ]
    )
    if not re.search(rf"#[ \t]*define[ \t]+{guard}\b", ctx.text) and block not in ctx.after_runtime:
        ctx.after_runtime.append(block)
    return name


_NVIDIA_TEST = re.compile(r"\s*defined\s*\(?\s*__HIP_PLATFORM_NVIDIA__\b")


def on_nvidia_side(ctx: Context, offset: int) -> bool:
    """Is ``offset`` in the branch an ``#if defined(__HIP_PLATFORM_NVIDIA__)``
    / ``#ifdef __HIP_PLATFORM_NVIDIA__`` selects (not its #else): code for HIP's
    NVIDIA platform, where CUDA's own spelling is right."""
    node = ctx.root.descendant_for_byte_range(offset, offset)
    while node is not None:
        if node.type in ("preproc_else", "preproc_elif", "preproc_elifdef"):
            return False
        if node.type in ("preproc_if", "preproc_ifdef"):
            if node.type == "preproc_ifdef":
                name = node.child_by_field_name("name")
                return (
                    name is not None
                    and ctx.node_text(name) == "__HIP_PLATFORM_NVIDIA__"
                    and ctx.node_text(node).lstrip("#").lstrip().startswith("ifdef")
                )
            condition = node.child_by_field_name("condition")
            return condition is not None and (
                _NVIDIA_TEST.match(ctx.node_text(condition)) is not None
            )
        node = node.parent
    return False
