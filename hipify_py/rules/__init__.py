"""Translation rules, one per module.  Each rule module exports ``RULE`` (a
``hipify_py.rules.rule.Rule``); ``RULE_ORDER`` is their order of application
(later rules use facts that earlier ones recorded on the context, see
``hipify_py.engine.context.FileFacts``).  The other modules of the package are
helpers the rules share (``HELPERS``); a module in neither list is an error,
so a new rule cannot be forgotten."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from hipify_py.rules.rule import Filter, Rule

RULE_ORDER = (
    "identifiers",
    "half2_minmax",
    "device_overloads",
    "hip_paths",
    "guards",
    "warp",
    "warp_size",
    "warp_size_constant",
    "asm",
    "device_hazards",
    "unchecked_errors",
    "arch",
    "launch",
    "cxx17",
    "cub_blocks",
    "overloads",
    "vector_ops",
    "device_gaps",
    "includes",
)
# shared by the rules; ``catalogue`` assembles the diagnostic codes defined here
HELPERS = (
    "call_args",
    "catalogue",
    "device_code",
    "legacy_blas",
    "platform_split",
    "rule",
    "scalar_types",
    "std_headers",
    "values",
)

# The rules whose ``may_apply`` can admit a file on its own (the others answer
# ``alongside``), in RULE_ORDER.  The engine's pre-filter imports only these,
# so a file with no CUDA in it (a pre-commit run over plain C++) never loads
# the other rules; tests/test_rule_examples.py checks the list against them.
ADMITTING = ("identifiers", "asm", "arch", "launch", "includes")


def discovered() -> set[str]:
    """The modules of this package, as pkgutil finds them."""
    return {module.name for module in pkgutil.iter_modules(__path__)}


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every rule, in ``RULE_ORDER``; raises if the package has a module that
    is neither a rule in the order nor a declared helper, or a rule module
    whose ``RULE`` is missing or named after another module."""
    unknown = discovered() - set(RULE_ORDER) - set(HELPERS)
    missing = (set(RULE_ORDER) | set(HELPERS)) - discovered()
    if unknown or missing:
        raise RuntimeError(
            f"hipify_py.rules: modules not in RULE_ORDER or HELPERS: {sorted(unknown)}; "
            f"listed but absent: {sorted(missing)}"
        )
    return tuple(_rule(name) for name in RULE_ORDER)


def _rule(name: str) -> Rule:
    rule = getattr(importlib.import_module(f"{__name__}.{name}"), "RULE", None)
    if not isinstance(rule, Rule) or rule.id != name:
        raise RuntimeError(f"hipify_py.rules.{name} exports no RULE with id {name!r}")
    return rule


@cache
def admission_filters() -> tuple[Filter, ...]:
    """The ``may_apply`` of the ADMITTING rules: the engine parses a file when
    one of these says yes."""
    return tuple(_rule(name).may_apply for name in ADMITTING)
