"""The Python API: translate a string or bytes, or a file on disk."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic
from .engine import FileResult, translate_bytes
from .options import Options
from .stats import Stats
from .table import MappingTable
from .table_cache import load_table


@dataclass
class Result:
    """What ``translate`` returns: the output, its diagnostics and stats."""

    text: str | bytes  # same type as the input
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    changed: bool = False
    file: FileResult | None = None


def translate(code: str | bytes, *, table: MappingTable | None = None, **options: Any) -> Result:
    """Translate CUDA source to HIP.

    ``options`` are the fields of :class:`hipify_py.options.Options`, e.g.
    ``translate(src, launch_syntax="hip", hip_version="5.7")``.
    """
    opts = Options.from_kwargs(**options)
    data = code.encode("utf-8") if isinstance(code, str) else code
    result = translate_bytes(data, table or load_table(), opts)
    text: str | bytes = (
        result.data.decode("utf-8", errors="surrogateescape")
        if isinstance(code, str)
        else result.data
    )
    return Result(
        text=text,
        diagnostics=result.diagnostics,
        stats=result.stats,
        changed=result.changed,
        file=result,
    )


def translate_file(
    path: str | Path, *, table: MappingTable | None = None, options: Options | None = None
) -> FileResult:
    """Read one file and translate it (writes nothing; see hipify_py.runner)."""
    data = Path(path).read_bytes()
    return translate_bytes(data, table or load_table(), options or Options())
