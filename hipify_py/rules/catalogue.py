"""The full catalogue of diagnostic codes, assembled from where they are defined.

A code that one rule reports is defined (with its documentation) in that
rule's module; the codes that the engine, the runner, the project layer or
several rules report are defined in ``hipify_py.engine.diagnostics``.  This
module sits above both, so the engine and the rules never import it (the
engine looks codes up only among its own, ``engine.diagnostics.SHARED``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from hipify_py import rules
from hipify_py.engine import diagnostics
from hipify_py.engine.diagnostics import Code


def defining_modules() -> tuple[ModuleType, ...]:
    """Where codes are defined: the engine's shared module, then every module
    of this package the registry knows (rules and their helpers)."""
    names = [n for n in (*rules.RULE_ORDER, *rules.HELPERS) if n != "catalogue"]
    return (diagnostics, *(importlib.import_module(f"{rules.__name__}.{n}") for n in names))


def catalogue() -> dict[str, Code]:
    """Every code, by code, in code order: the module-level ``Code`` objects
    of the defining modules (a Code one of them imports from another counts
    once; two different definitions of one code are an error)."""
    found: dict[str, Code] = {}
    for module in defining_modules():
        for value in vars(module).values():
            if isinstance(value, Code) and found.setdefault(value.code, value) is not value:
                raise ValueError(f"{value.code} is defined twice (again in {module.__name__})")
    return dict(sorted(found.items()))


CATALOGUE: dict[str, Code] = catalogue()
