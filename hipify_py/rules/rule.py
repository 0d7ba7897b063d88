"""What a rule is: the ``RULE`` every rule module of this package exports.

The engine parses a file only if some rule's ``may_apply`` says it could act
on it (a cheap test on the file's distinct words and text), then runs every
rule, in the registry's order (``hipify_py.rules.RULE_ORDER``), on the parsed
file.  ``examples`` are real inputs and outputs of the engine with the real
tables: tests/test_rule_examples.py checks each of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from hipify_py.engine.context import Context
from hipify_py.engine.options import Options
from hipify_py.tables.table import MappingTable

# (the file's distinct identifier-like words, its text as latin-1, the tables)
Filter = Callable[[set[str], str, MappingTable], bool]


@dataclass(frozen=True)
class Example:
    """``input`` translated with ``options`` gives ``expected_output``, and the
    rule's own codes among the diagnostics are exactly ``expected_codes``."""

    input: str
    expected_output: str
    expected_codes: frozenset[str] = frozenset()
    options: Options = field(default_factory=Options)

    @classmethod
    def unchanged(
        cls,
        input: str,
        expected_codes: frozenset[str] = frozenset(),
        options: Options | None = None,
    ) -> Example:
        """An input the rule leaves as it is (reporting ``expected_codes``, if any)."""
        return cls(input, input, expected_codes, options or Options())

    @property
    def no_op(self) -> bool:
        return self.input == self.expected_output and not self.expected_codes


@dataclass(frozen=True)
class Rule:
    id: str  # the module's short name (also the ``rule`` of its edits, mostly)
    run: Callable[[Context], None]  # appends edits and diagnostics to the context
    codes: tuple[str, ...]  # the diagnostic codes it may emit ("HPY401")
    # what it consults besides the file: "table.names", "table.headers",
    # "options", "facts.FIELD" (a hand-off of Context.facts, a FileFacts, that
    # the engine or an earlier rule fills; facts.semantic: the clang engine's),
    # "context.FIELD" (a Context field an earlier rule fills)
    needs: tuple[str, ...]
    may_apply: Filter  # could it act on this file on its own? (cheap: no parse)
    examples: tuple[Example, ...]


def alongside(present: set[str], text: str, table: MappingTable) -> bool:
    """``may_apply`` of a rule that is never, on its own, a reason to parse a
    file: it refines files other rules admit (what it looks for is a CUDA name
    the identifiers rule's filter finds, or is not CUDA by itself, such as the
    ``register`` keyword or a HIP platform macro)."""
    return False
