"""Overloads that CUDA tells apart and HIP does not.

HIP has one type where CUDA has two: ``cudaError_t`` and ``CUresult`` both
become ``hipError_t``, ``cudaStream_t`` and ``CUstream`` both ``hipStream_t``.
A project that overloads a helper on both (``errName(cudaError_t)`` and
``errName(CUresult)``, common in code that uses the runtime and the driver
API) gets a redefinition after translation.  Each such pair is an error at
the later declaration, naming the earlier one, since which to keep is the
author's call (the bodies usually say the same thing).
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.rules.rule import Example, Rule, alongside

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
OVERLOAD_COLLISION = D.Code(
    "HPY802",
    "overload-collision",
    D.Severity.ERROR,
    "two overloads whose CUDA parameter types become the same HIP type: a redefinition",
    why="HIP has one type where CUDA has two (cudaError_t and CUresult both become hipError_t; "
    "cudaStream_t and CUstream both hipStream_t), so overloads that differ only there "
    "collide after translation.",
    example="const char* name(cudaError_t e);\nconst char* name(CUresult e);",
    fix="Delete the overload the message names (its body usually duplicates the other's), or "
    "rename one of them.",
)

_PARAMETERS = ("parameter_declaration", "optional_parameter_declaration")
_SCOPES = ("namespace_definition", "class_specifier", "struct_specifier")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def run(ctx: Context) -> None:
    if not _two_types_merge(ctx):
        return
    seen: dict[tuple[str, str, str], tuple[str, int]] = {}
    reported: set[tuple[str, str]] = set()
    for declarator in _function_declarators(ctx.root):
        name_node = declarator.child_by_field_name("declarator")
        parameters = declarator.child_by_field_name("parameters")
        if name_node is None or parameters is None:
            continue
        name = ctx.node_text(name_node)
        original = _signature(ctx, parameters)
        translated = _translate(ctx, original)
        if translated == original:
            continue  # nothing CUDA-specific: no collision can come from us
        key = (_scope(ctx, declarator), name, translated)
        first = seen.get(key)
        if first is None:
            seen[key] = (original, declarator.start_byte)
            continue
        if first[0] == original or (name, original) in reported:
            continue  # a declaration and its definition
        reported.add((name, original))
        where = f" (line {ctx.lines.line_of(first[1])})"
        ctx.report(
            OVERLOAD_COLLISION,
            name_node.start_byte,
            f"{name}({original}) and {name}({first[0]}){where} both become "
            f"{name}({translated}) in HIP: a redefinition",
            hint=f"delete this {name}({original}) overload (HIP has one type for both), or "
            "rename it",
            name=name,
            end=name_node.end_byte,
        )


def _two_types_merge(ctx: Context) -> bool:
    """Does the file name two CUDA types that become one HIP type?  (Cheap: the
    words of the file are known; only then is the tree walked.)"""
    names = ctx.table.names
    targets: set[str] = set()
    for word in ctx.present:
        row = names.get(word)
        if row is None or row.kind != "type" or not row.hip or row.hip == word:
            continue
        if row.hip in targets:
            return True
        targets.add(row.hip)
    return False


def _function_declarators(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    found: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_declarator":
            parent = node.parent
            while parent is not None and parent.type in (
                "pointer_declarator",
                "reference_declarator",
            ):
                parent = parent.parent
            if parent is not None and parent.type in (
                "function_definition",
                "declaration",
                "field_declaration",
            ):
                found.append(node)
            continue
        if node.type == "compound_statement":
            continue  # function bodies: local declarations do not overload
        stack.extend(reversed(node.children))
    return found


def _signature(ctx: Context, parameters: tree_sitter.Node) -> str:
    parts = []
    for parameter in parameters.named_children:
        if parameter.type not in _PARAMETERS:
            parts.append(ctx.node_text(parameter))
            continue
        text = ctx.node_text(parameter)
        default = parameter.child_by_field_name("default_value")
        if default is not None:
            text = ctx.text[parameter.start_byte : default.start_byte].rstrip().rstrip("=")
        declarator = parameter.child_by_field_name("declarator")
        name = _declared_name(declarator)
        if name is not None:
            start = name.start_byte - parameter.start_byte
            text = text[:start] + text[start + (name.end_byte - name.start_byte) :]
        parts.append(" ".join(text.split()))
    return ", ".join(parts)


def _declared_name(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    while node is not None and node.type != "identifier":
        node = node.child_by_field_name("declarator")
    return node


def _translate(ctx: Context, signature: str) -> str:
    names = ctx.table.names

    def swap(match: re.Match[str]) -> str:
        row = names.get(match.group(0))
        if row is None or not row.hip or row.kind not in ("type", "enum"):
            return match.group(0)
        return ctx.hip_name_for(row) or match.group(0)

    return _WORD.sub(swap, signature)


def _scope(ctx: Context, node: tree_sitter.Node) -> str:
    names = []
    parent = node.parent
    while parent is not None:
        if parent.type in _SCOPES:
            label = parent.child_by_field_name("name")
            names.append(ctx.node_text(label) if label is not None else "")
        parent = parent.parent
    return "::".join(reversed(names))


RULE = Rule(
    id="overloads",
    run=run,
    codes=(OVERLOAD_COLLISION.code,),
    needs=(
        "table.names",
        "options",
    ),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda.h>\n"
                "#include <cuda_runtime.h>\n"
                "const char* name(cudaError_t e);\n"
                "const char* name(CUresult e);\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "const char* name(hipError_t e);\n"
                "const char* name(hipError_t e);\n"
            ),
            frozenset({"HPY802"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "const char* name(hipError_t e);\n"
            "const char* name(int e);\n"
        ),
    ),
)
