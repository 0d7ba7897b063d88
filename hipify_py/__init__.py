"""hipify-py: translate CUDA source code to HIP.

>>> from hipify_py import translate
>>> translate("cudaMalloc(&p, n);").text
'hipMalloc(&p, n);'
"""

from __future__ import annotations

__version__ = "0.1.0"

from .api import PathRun, Result, translate, translate_file, translate_paths
from .diagnostics import Diagnostic, Severity
from .engine import FileResult, translate_bytes
from .options import Options
from .table_cache import load_table

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
