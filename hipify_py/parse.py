"""tree-sitter-cuda: header-free, error-tolerant parsing."""

from __future__ import annotations

from functools import cache, lru_cache

import tree_sitter
import tree_sitter_cuda


@lru_cache(maxsize=1)
def language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_cuda.language())


@lru_cache(maxsize=1)
def parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(language())


@cache
def query(source: str) -> tree_sitter.Query:
    compiled: tree_sitter.Query = tree_sitter.Query(language(), source)
    return compiled


def parse(data: bytes) -> tree_sitter.Tree:
    return parser().parse(data)


def captures(pattern: str, node: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    return tree_sitter.QueryCursor(query(pattern)).captures(node)


def matches(
    pattern: str, node: tree_sitter.Node
) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    return tree_sitter.QueryCursor(query(pattern)).matches(node)


def error_count(tree: tree_sitter.Tree) -> int:
    """ERROR and MISSING nodes: the measure the self-check compares."""
    root = tree.root_node
    if not root.has_error:
        return 0
    found = captures("(ERROR) @e (MISSING) @m", root)
    return sum(len(nodes) for nodes in found.values())
