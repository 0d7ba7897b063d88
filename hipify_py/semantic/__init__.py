"""The optional clang engine (``--engine clang``): libclang answers what
text cannot (shadowing, macro expansions, live #if branches, argument types)
and the shared rules of the default engine act on those answers.

Importing this package does not import libclang; ``prepare`` does.
"""

from __future__ import annotations

from .analysis import analyse, fallback
from .setup import ClangSettings, ClangSetup, SetupError, prepare

__all__ = ["ClangSettings", "ClangSetup", "SetupError", "analyse", "fallback", "prepare"]
