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

from hipify_py.rules.rule import Filter, Rule, alongside

RULE_ORDER = (
    "identifiers",
    "half2_minmax",
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
    "std_headers",
)


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
    rules = []
    for name in RULE_ORDER:
        rule = getattr(importlib.import_module(f"{__name__}.{name}"), "RULE", None)
        if not isinstance(rule, Rule) or rule.id != name:
            raise RuntimeError(f"hipify_py.rules.{name} exports no RULE with id {name!r}")
        rules.append(rule)
    return tuple(rules)


@cache
def admission_filters() -> tuple[Filter, ...]:
    """Every rule's ``may_apply``, in order, less the ``alongside`` ones (which
    never admit a file on their own): the engine parses a file when one of
    these says yes."""
    return tuple(rule.may_apply for rule in all_rules() if rule.may_apply is not alongside)
