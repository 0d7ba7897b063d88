"""The optional clang engine (``--engine clang``): libclang answers what
text cannot (shadowing, macro expansions, live #if branches, argument types)
and the shared rules of the default engine act on those answers.

Importing this package does not import libclang; ``prepare`` loads it.

    setup = prepare(ClangSettings(include_dirs=("include",), defines=("USE_FP16",)))
    result = translate_file(path, path.read_bytes(), load_table(), Options(), setup)
"""

from __future__ import annotations

from hipify_py.semantic.analysis import analyse, fallback
from hipify_py.semantic.setup import ClangSettings, ClangSetup, SetupError, prepare
from hipify_py.semantic.translate import translate_file

__all__ = [
    "ClangSettings",
    "ClangSetup",
    "SetupError",
    "analyse",
    "fallback",
    "prepare",
    "translate_file",
]
