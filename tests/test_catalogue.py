"""Where diagnostic codes are defined: each exactly once, a rule's own code in
the rule module that reports it, and the full catalogue assembled from all of
them (hipify_py.rules.catalogue)."""

from __future__ import annotations

import ast
import json
import types
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from conftest import run_cli

from hipify_py.engine import diagnostics
from hipify_py.engine.diagnostics import Code, Severity
from hipify_py.rules import HELPERS
from hipify_py.rules import catalogue as catalogue_module
from hipify_py.rules.catalogue import CATALOGUE, catalogue

PACKAGE = Path(__file__).resolve().parent.parent / "hipify_py"


@cache
def _tree(path: Path) -> ast.Module:
    """A module of the package, parsed once for all the tests here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _definitions() -> list[tuple[str, str, Path]]:
    """(code, constant, module path) for every `NAME = <call>("HPY...", ...)`
    at the top level of a module of the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in _tree(path).body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                continue
            args = node.value.args
            if not (args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                continue
            if args[0].value.startswith("HPY") and isinstance(node.targets[0], ast.Name):
                found.append((args[0].value, node.targets[0].id, path))
    return found


def _references(path: Path, constant: str) -> int:
    """Uses of ``constant`` in the module (its definition is a store, not a use)."""
    return _uses(path)[constant]


@cache
def _uses(path: Path) -> Counter[str]:
    """How often the module loads each name (``X``) or attribute (``m.X``),
    counted in one walk of its tree."""
    found: Counter[str] = Counter()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                found[node.id] += 1
        elif isinstance(node, ast.Attribute):
            found[node.attr] += 1
    return found


def test_every_code_is_defined_exactly_once() -> None:
    definitions = _definitions()
    counts = Counter(code for code, _, _ in definitions)
    assert {code for code, n in counts.items() if n > 1} == set()
    assert set(counts) == set(CATALOGUE)
    assert len(CATALOGUE) > 60  # the whole catalogue, not a part of it
    assert list(CATALOGUE) == sorted(CATALOGUE)


def test_rule_owned_codes_live_in_a_module_that_reports_them() -> None:
    rule_owned = [(c, n, p) for c, n, p in _definitions() if p.parent.name == "rules"]
    assert len(rule_owned) > 40
    unused = [f"{p.name}: {n} ({c})" for c, n, p in rule_owned if _references(p, n) == 0]
    assert unused == []
    # a rule's own code is used by its module alone (a helper's code also by
    # the rules that call the helper, which declare it); one that others
    # report too belongs with the shared codes in engine/diagnostics.py
    modules = sorted(PACKAGE.rglob("*.py"))
    elsewhere = [
        f"{n} ({c}) of {p.name} used in {other.relative_to(PACKAGE)}"
        for c, n, p in rule_owned
        for other in modules
        if other != p
        and _references(other, n)
        and not (p.stem in HELPERS and other.parent == p.parent)
    ]
    assert elsewhere == []


def test_shared_codes_are_not_owned_by_one_rule() -> None:
    """A code engine/diagnostics.py defines is used outside the rules or by
    more than one rule module (otherwise it belongs in that rule's module)."""
    modules = [p for p in sorted(PACKAGE.rglob("*.py")) if p.name != "diagnostics.py"]
    shared = [(c, n) for c, n, p in _definitions() if p == PACKAGE / "engine" / "diagnostics.py"]
    assert set(diagnostics.SHARED) == {c for c, _ in shared}
    single = []
    for code, constant in shared:
        users = {p for p in modules if _references(p, constant)}
        if len(users) == 1 and next(iter(users)).parent.name == "rules":
            single.append(f"{constant} ({code}): only {next(iter(users)).name}")
    assert single == []


def test_each_code_is_the_object_its_module_defines() -> None:
    assert CATALOGUE["HPY001"] is diagnostics.PARSE_REGRESSION
    from hipify_py.rules import launch, warp

    assert CATALOGUE["HPY401"] is warp.WARP_PARTIAL_MASK
    assert CATALOGUE["HPY302"] is launch.DEVICE_SIDE_RUNTIME
    assert CATALOGUE["HPY302"].severity is Severity.ERROR


def test_two_definitions_of_one_code_are_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    again = types.ModuleType("hipify_py.rules.again")
    again.TWIN = Code("HPY401", "twin", Severity.INFO, "a second definition")  # type: ignore[attr-defined]
    found = catalogue_module.defining_modules()
    monkeypatch.setattr(catalogue_module, "defining_modules", lambda: (*found, again))
    with pytest.raises(ValueError, match="HPY401 is defined twice"):
        catalogue()


def test_rule_names_reach_the_json_output(tmp_path: Path) -> None:
    """The engine cannot look a rule's code up by code; each diagnostic
    carries its code's name from where it was reported."""
    source = tmp_path / "k.cu"
    source.write_text(
        "__global__ void k(int* p) { unsigned m = __ballot_sync(0xffffffff, p[0]); p[1] = m; }\n"
        "__global__ void parent() { k<<<1, 32>>>(nullptr); }\n"
    )
    result = run_cli("--format", "json", "--diff", str(source))
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)["files"][0]["diagnostics"]
    rules = {d["code"]: d["rule"] for d in found}
    # a shared code (includes rule), two rule-owned ones (warp, launch)
    assert {"HPY202", "HPY403", "HPY302"} <= set(rules), rules
    assert rules == {code: CATALOGUE[code].name for code in rules}
    assert rules["HPY302"] == "device-side-runtime"
