"""Options shared by the commands that translate or report (translate, check,
report): declared once here so that they have the same names, help and
meaning everywhere.  Imports only click: the lazily loaded subcommands use it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def diagnostic_filters(function: F) -> F:
    """--select / --ignore: checked against the catalogue by
    cli_translate.build_options (an unknown code is a usage error, exit 2)."""
    function = click.option(
        "--ignore",
        metavar="CODES",
        help="Never report these diagnostic codes (comma-separated prefixes, e.g. HPY102).",
    )(function)
    function = click.option(
        "--select",
        metavar="CODES",
        help="Report only these diagnostic codes (comma-separated prefixes, e.g. HPY1).",
    )(function)
    return function


def config_file(function: F) -> F:
    """--config FILE: this configuration instead of the one found above the paths."""
    return click.option(
        "--config",
        "config_path",
        type=click.Path(path_type=Path, dir_okay=False),
        metavar="FILE",
        help="Read the configuration from FILE (a pyproject.toml with [tool.hipify-py], or a "
        "file of the same keys at the top level) instead of finding one above the paths.",
    )(function)


def explicit_flags(ctx: click.Context, flags: dict[str, Any]) -> set[str]:
    """The flags given on the command line (they override the configuration)."""
    return {
        name
        for name in flags
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    }


def hip_version(function: F) -> F:
    """--hip-version: resolved by cli_translate.resolve_target (the toolchain's
    HIP when not given)."""
    return click.option(
        "--hip-version",
        metavar="X.Y",
        help="Target HIP version: names newer HIPs added are not emitted, names HIP renamed "
        "follow it [default: the HIP of $HIP_PATH, $ROCM_PATH, /opt/rocm or the hipcc on PATH, "
        "else the newest release verified].",
    )(function)


def compat(function: F) -> F:
    """--compat: provide what HIP lacks through hipify_py_compat.h (engine/compat.py)."""
    return click.option(
        "--compat",
        is_flag=True,
        help="Translate CUDA features HIP lacks but can express (SIMD video intrinsics, "
        "cache-hint loads/stores, umin/umax, cooperative_groups reduce/scan, NVML monitoring "
        "calls over AMD SMI) to functions of "
        "hipify_py_compat.h, written into the output root (or the folder translated in "
        "place) and included where used.",
    )(function)
