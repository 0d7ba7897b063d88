"""What the clang engine learned about one file, as plain data for the
default engine's rules (so both engines share one set of rules and edits).

Offsets are byte offsets into the file as it was read.  Argument offsets are
where the argument starts, as the rules see it (the tree's argument node, or
the argument of a call split from a ``#define`` body by rules/call_args.py).
An offset in none of the argument sets means "clang did not see it" (a
skipped branch, a macro used with arguments of different types): the rules
then decide as the default engine does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hipify_py.engine.context import Context


@dataclass(frozen=True)
class Note:
    code: str  # a code hipify_py.engine.diagnostics defines (SHARED), HPY7xx
    offset: int
    message: str
    hint: str = ""
    name: str = ""


@dataclass(frozen=True)
class SemanticFacts:
    # identifiers that name a user declaration spelled like a CUDA API: left alone
    keep: frozenset[int] = frozenset()
    # symbol arguments CUDA binds by reference (its template overload): HIP_SYMBOL()
    symbol_arguments: frozenset[int] = frozenset()
    # symbol arguments that already are addresses (CUDA's const void* overload): no HIP_SYMBOL()
    plain_symbols: frozenset[int] = frozenset()
    # arguments whose type does not convert to HIP's parameter type: cast
    cast_arguments: frozenset[int] = frozenset()
    # arguments whose type already converts to what HIP's signature wants: no cast
    typed_arguments: frozenset[int] = frozenset()
    # extra replacements (start, end, text): pasted prefixes in macro definitions
    edits: tuple[tuple[int, int, str], ...] = ()
    notes: tuple[Note, ...] = ()
    fell_back: bool = False  # the file did not compile: the default engine alone decided
    # the project files the translation unit read besides this one: (path, sha256);
    # a cached result is reused only while they are unchanged
    dependencies: tuple[tuple[str, str], ...] = ()


def apply_facts(ctx: Context, facts: SemanticFacts) -> None:
    """The engine's own findings: its notes as diagnostics, its edits (the
    rules consume the rest through ``Context.facts.semantic``)."""
    from hipify_py.engine.diagnostics import SHARED

    for note in facts.notes:  # the clang engine's codes are defined with the engine's
        ctx.report(SHARED[note.code], note.offset, note.message, hint=note.hint, name=note.name)
    for start, end, text in facts.edits:
        ctx.edit(start, end, text, "semantic", structural=False)
