"""The click options of translate, check and report, made from the one
declaration of each (project/option_specs.py): the same names, help and
meaning everywhere.  Imports only click and the declarations: the lazily
loaded subcommands use it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from hipify_py.project.option_specs import OptionSpec, offered

F = TypeVar("F", bound=Callable[..., Any])


def _click_type(spec: OptionSpec) -> Any:
    if spec.kind == "count":
        return click.IntRange(min=None if spec.minimum is None else int(spec.minimum))
    if spec.kind == "number":
        return click.FloatRange(min=spec.minimum)
    if spec.kind == "choice":
        return click.Choice(spec.choices)
    if spec.kind == "dir":
        return click.Path(path_type=Path, file_okay=False)
    if spec.kind == "file":
        return click.Path(path_type=Path, dir_okay=False)
    if spec.kind == "path":
        return click.Path(path_type=Path)
    return None  # text: click's string; flag, switch: bool


def click_option(spec: OptionSpec) -> Callable[[F], F]:
    """The click option of one declaration."""
    settings: dict[str, Any] = {"help": spec.help}
    if spec.kind == "flag":
        settings["is_flag"] = True
    elif spec.kind == "switch":
        settings["default"] = bool(spec.default)
    else:
        settings["type"] = _click_type(spec)
        if spec.default is not None:
            settings["default"] = spec.default
    if spec.metavar is not None:
        settings["metavar"] = spec.metavar
    if spec.multiple:
        settings["multiple"] = True
    if spec.show_default:
        settings["show_default"] = spec.show_default
    if spec.hidden:
        settings["hidden"] = True
    return click.option(*spec.flags, spec.name, **settings)


def shared_options(command: str) -> Callable[[F], F]:
    """Every declared option ``command`` offers, in the declared order."""

    def apply(function: F) -> F:
        for spec in reversed(list(offered(command))):
            function = click_option(spec)(function)
        return function

    return apply


def explicit_flags(ctx: click.Context, flags: dict[str, Any]) -> set[str]:
    """The flags given on the command line (they override the configuration)."""
    return {
        name
        for name in flags
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    }
