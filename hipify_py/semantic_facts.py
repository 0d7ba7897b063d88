"""What the clang engine learned about one file, as plain data for the
default engine's rules (so both engines share one set of rules and edits).

Offsets are byte offsets into the file as it was read.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Note:
    code: str
    offset: int
    message: str
    hint: str = ""


@dataclass(frozen=True)
class SemanticFacts:
    # identifiers that name a user declaration spelled like a CUDA API: left alone
    keep: frozenset[int] = frozenset()
    # symbol arguments that are already addresses (a `const void*`): no HIP_SYMBOL()
    plain_symbols: frozenset[int] = frozenset()
    # arguments whose type already is what HIP's signature wants: no cast
    typed_arguments: frozenset[int] = frozenset()
    # extra replacements (start, end, text): pasted prefixes in macro definitions
    edits: tuple[tuple[int, int, str], ...] = ()
    notes: tuple[Note, ...] = field(default_factory=tuple)
    fell_back: bool = False  # the file did not compile: the default engine alone decided
