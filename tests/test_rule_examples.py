"""The rules as objects (hipify_py.rules.rule.Rule): each rule's examples go
through the real engine with the real tables, and the registry finds every
rule module of the package."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hipify_py import translate_bytes
from hipify_py.engine.context import Context, FileFacts
from hipify_py.engine.options import Options
from hipify_py.rules import ADMITTING, HELPERS, RULE_ORDER, all_rules, discovered
from hipify_py.rules.catalogue import CATALOGUE
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.tables.cache import load_table
from hipify_py.tables.table import MappingTable

RULES = all_rules()
EXAMPLES = [(rule, example) for rule in RULES for example in rule.examples]
EXAMPLE_IDS = [f"{rule.id}-{index}" for rule in RULES for index, _ in enumerate(rule.examples)]


@pytest.fixture(scope="module")
def table() -> MappingTable:
    return load_table()


@pytest.mark.parametrize(("rule", "example"), EXAMPLES, ids=EXAMPLE_IDS)
def test_example(rule: Rule, example: Example, table: MappingTable) -> None:
    result = translate_bytes(example.input.encode("latin-1"), table, example.options)
    assert result.text == example.expected_output
    emitted = {d.code for d in result.diagnostics}
    assert emitted & set(rule.codes) == example.expected_codes


@pytest.mark.parametrize("rule", RULES, ids=[rule.id for rule in RULES])
def test_every_rule_shows_what_it_does_and_what_it_leaves(rule: Rule) -> None:
    assert any(example.no_op for example in rule.examples), "no example it leaves alone"
    assert any(not example.no_op for example in rule.examples), "no example it acts on"
    assert set(rule.codes) <= CATALOGUE.keys(), "a code the catalogue does not have"
    assert len(set(rule.codes)) == len(rule.codes)


@pytest.mark.parametrize("rule", RULES, ids=[rule.id for rule in RULES])
def test_needs_name_real_things(rule: Rule) -> None:
    context_fields = {f.name for f in dataclasses.fields(Context)}
    facts_fields = {f.name for f in dataclasses.fields(FileFacts)}
    for need in rule.needs:
        kind, _, name = need.partition(".")
        if kind == "context":
            assert name in context_fields, need
        elif kind == "facts":
            assert name in facts_fields, need
        elif kind == "table":
            assert name in ("names", "headers"), need
        else:
            assert need == "options", need


def test_the_registry_has_every_module_in_order() -> None:
    assert [rule.id for rule in RULES] == list(RULE_ORDER)
    assert discovered() == set(RULE_ORDER) | set(HELPERS)
    assert RULE_ORDER[0] == "identifiers" and RULE_ORDER[-1] == "includes"


def test_a_module_neither_rule_nor_helper_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import hipify_py.rules as registry

    monkeypatch.setattr(registry, "discovered", lambda: {*RULE_ORDER, *HELPERS, "new_rule"})
    with pytest.raises(RuntimeError, match="new_rule"):
        registry.all_rules.__wrapped__()


def test_rules_emit_only_the_codes_they_declare(
    table: MappingTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the golden fixtures' inputs, with a few option sets: each
    diagnostic a rule adds has a code in its ``codes``."""
    import hipify_py.engine.translate as engine

    emitted: dict[str, set[str]] = {}

    def recorded(rule: Rule) -> Rule:
        def run(ctx: Context) -> None:
            before = {id(d) for d in ctx.diagnostics}
            rule.run(ctx)
            new = {d.code for d in ctx.diagnostics if id(d) not in before}
            emitted.setdefault(rule.id, set()).update(new)

        return dataclasses.replace(rule, run=run)

    wrapped = tuple(recorded(rule) for rule in RULES)
    monkeypatch.setattr(engine, "all_rules", lambda: wrapped)
    inputs = sorted((Path(__file__).resolve().parent.parent / "fixtures").glob("*/input.*"))
    assert inputs
    for options in (Options(), Options(roc=True), Options(launch_syntax="hip", compat=True)):
        for path in inputs:
            translate_bytes(path.read_bytes(), table, options)
    declared = {rule.id: set(rule.codes) for rule in RULES}
    assert {
        rule: codes - declared[rule] for rule, codes in emitted.items() if codes - declared[rule]
    } == {}
    assert len([codes for codes in emitted.values() if codes]) >= 10  # the check saw real reports


def test_the_admitting_rules_are_those_that_admit_a_file_alone() -> None:
    """The pre-filter imports only rules.ADMITTING: exactly the rules whose
    may_apply is not ``alongside``, in the order of application."""
    admitting = tuple(rule.id for rule in RULES if rule.may_apply is not alongside)
    assert admitting == ADMITTING


def test_a_rule_that_runs_alongside_does_not_admit_a_file_alone(table: MappingTable) -> None:
    """cxx17 removes ``register`` in CUDA files; a plain C++ file is not parsed
    for it (no rule's may_apply admits it), so it stays as it is."""
    plain = b"int f() { register int x = 1; return x; }\n"
    assert translate_bytes(plain, table).data == plain
    cuda = b"__global__ void k(int* o) { register int x = 1; o[0] = x; }\n"
    assert b"register" not in translate_bytes(cuda, table).data
