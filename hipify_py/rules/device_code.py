"""Where the device code of a file is: the bodies of __global__ / __device__
functions (and lambdas), found from those keywords rather than by a walk of
the whole tree."""

from __future__ import annotations

import tree_sitter

from ..context import Context

_FUNCTIONS = frozenset({"function_definition", "lambda_expression"})


def device_bodies(ctx: Context) -> list[tuple[int, int, tree_sitter.Node]]:
    """(start, end, function node) of each device function body, in file order."""
    cached = ctx.cache.get("device_bodies")
    if cached is not None:
        return cached  # type: ignore[return-value]
    seen: set[int] = set()
    bodies: list[tuple[int, int, tree_sitter.Node]] = []
    from .identifiers import occurrences

    # str.find-based: much faster than a regex with a look-behind on big files
    markers = sorted(
        (start, start + len(word))
        for word in ("__global__", "__device__")
        for start in occurrences(ctx.text, word)
    )
    for marker_start, marker_end in markers:
        node = ctx.root.descendant_for_byte_range(marker_start, marker_end)
        while node is not None and node.type not in _FUNCTIONS:
            if node.type in ("translation_unit", "declaration", "field_declaration"):
                node = None
                break
            node = node.parent
        if node is None or node.id in seen:
            continue
        body = node.child_by_field_name("body")
        if body is None:
            continue
        seen.add(node.id)
        bodies.append((body.start_byte, body.end_byte, node))
    bodies.sort(key=lambda b: b[0])
    ctx.cache["device_bodies"] = bodies
    return bodies


def in_device_code(ctx: Context, offset: int) -> bool:
    return any(start <= offset < end for start, end, _ in device_bodies(ctx))


def function_name(ctx: Context, function: tree_sitter.Node) -> str:
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("identifier", "field_identifier"):
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            break
        declarator = inner
    return ctx.node_text(declarator) if declarator is not None else ""
