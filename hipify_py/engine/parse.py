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
    # a cursor walk that enters only subtrees holding an error: linear, and
    # far faster than a query on deeply nested input
    count = 0
    cursor = root.walk()
    while True:
        node = cursor.node
        assert node is not None
        if node.is_error or node.is_missing:
            count += 1
        if node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count
