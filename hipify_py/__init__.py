"""hipify-py: translate CUDA source code to HIP.

>>> from hipify_py import translate
>>> translate("cudaMalloc(&p, n);", insert_runtime_include=False).text
'hipMalloc(&p, n);'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The public names are imported on first use (PEP 562): `python -m hipify_py`
# and the console script start without loading the engine, so the CLI sets up
# its Ctrl-C handling within milliseconds and `--version` / `--help` are quick.
_EXPORTS = {
    "PathRun": "api",
    "Result": "api",
    "translate": "api",
    "translate_file": "api",
    "translate_paths": "api",
    "Diagnostic": "engine.diagnostics",
    "Severity": "engine.diagnostics",
    "FileResult": "engine.translate",
    "translate_bytes": "engine.translate",
    "Options": "engine.options",
    "load_table": "tables.cache",
}

if TYPE_CHECKING:
    from hipify_py.api import PathRun, Result, translate, translate_file, translate_paths
    from hipify_py.engine.diagnostics import Diagnostic, Severity
    from hipify_py.engine.options import Options
    from hipify_py.engine.translate import FileResult, translate_bytes
    from hipify_py.tables.cache import load_table


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hipify_py' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = [
    "Diagnostic",
    "FileResult",
    "Options",
    "PathRun",
    "Result",
    "Severity",
    "__version__",
    "load_table",
    "translate",
    "translate_bytes",
    "translate_file",
    "translate_paths",
]
