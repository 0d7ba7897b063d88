"""C++ that nvcc accepts and clang (hipcc) rejects.

``register``: C++17 removed the storage class; nvcc still takes it with a
warning, hipcc's clang rejects it ("ISO C++17 does not allow 'register'
storage class specifier").  It never changed what a program means (compilers
ignore it), so it is removed.  A GNU explicit register variable
(``register int x asm("r1")``) keeps it: there the keyword is part of the
asm-label syntax.
"""

from __future__ import annotations

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.rules.rule import Example, Rule, alongside

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
REGISTER_REMOVED = D.Code(
    "HPY801",
    "register-removed",
    D.Severity.INFO,
    "removed the `register` storage class, which C++17 removed and hipcc's clang rejects",
    why="nvcc accepts `register` with a warning; clang in C++17 mode rejects it as an error. "
    "Compilers ignore the keyword, so removing it changes nothing.",
    example="register int i = 0;",
    fix="Nothing: it is removed.",
)

KEYWORD = "register"


def run(ctx: Context) -> None:
    if KEYWORD not in ctx.present:
        return
    cursor = ctx.root.walk()
    reported = False
    for node in sorted(_specifiers(cursor), key=lambda n: n.start_byte):
        if ctx.node_text(node) != KEYWORD or _asm_label(ctx, node):
            continue
        end = node.end_byte
        while end < len(ctx.text) and ctx.text[end] in " \t":
            end += 1
        ctx.edit(node.start_byte, end, "", "cxx17")
        if not reported:  # once per file: the fix is the same everywhere
            reported = True
            ctx.report(
                REGISTER_REMOVED,
                node.start_byte,
                "removed the `register` storage class (C++17 removed it; hipcc's clang rejects "
                "it, nvcc ignored it)",
                hint="nothing to do: the keyword never changed what the program does",
                name=KEYWORD,
                end=node.end_byte,
            )


def _specifiers(cursor: tree_sitter.TreeCursor) -> list[tree_sitter.Node]:
    found: list[tree_sitter.Node] = []
    stack = [cursor.node]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "storage_class_specifier":
            found.append(node)
            continue
        stack.extend(node.children)
    return found


def _asm_label(ctx: Context, node: tree_sitter.Node) -> bool:
    declaration = node.parent
    if declaration is None:
        return False
    return "asm" in ctx.node_text(declaration) or "__asm__" in ctx.node_text(declaration)


RULE = Rule(
    id="cxx17",
    run=run,
    codes=(REGISTER_REMOVED.code,),
    needs=(),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__global__ void k(int* o) { register int i = 0; o[i] = 0; }\n"
            ),
            ("#include <hip/hip_runtime.h>\n__global__ void k(int* o) { int i = 0; o[i] = 0; }\n"),
            frozenset({"HPY801"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n__global__ void k(int* o) { int i = 0; o[i] = 0; }\n"
        ),
    ),
)
