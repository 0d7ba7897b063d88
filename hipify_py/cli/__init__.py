"""The command line: click commands, option declarations, what is printed and
the exit codes.  The only package that prints or exits.

``main`` (the console script, ``hipify_py.cli:main``) and ``cli`` (the click
group) are those of ``cli/app.py``, loaded on first use so that importing a
submodule stays cheap.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("main", "cli"):
        from importlib import import_module

        return getattr(import_module(f"{__name__}.app"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
