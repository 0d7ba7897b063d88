"""What the command lines of ``hipify-py smoke`` and ``hipify-py prove`` share:
the options that mean the same in both (each command keeps its own help
text), the toolchain a platform is built with, and the error line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .toolchain import RELEASES

if TYPE_CHECKING:
    from .toolchain import Compiler

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def offload_arch_option() -> Callable[[F], F]:
    return click.option(
        "--offload-arch", default="gfx942", show_default=True, help="AMD GPU target."
    )


def hipcc_option() -> Callable[[F], F]:
    return click.option("--hipcc", type=click.Path(dir_okay=False), help="The hipcc to use (AMD).")


def rocm_option(help: str) -> Callable[[F], F]:
    return click.option("--rocm", type=click.Choice(RELEASES), help=help)


def compile_only_option(help: str) -> Callable[[F], F]:
    return click.option("--compile-only", is_flag=True, help=help)


def prebuilt_options(build_help: str, run_help: str) -> Callable[[F], F]:
    """--build-dir (keep the binaries) and --run-prebuilt (run those of a --build-dir)."""
    build_dir = click.option(
        "--build-dir", type=click.Path(file_okay=False, path_type=Path), help=build_help
    )
    run_prebuilt = click.option(
        "--run-prebuilt",
        type=click.Path(file_okay=False, exists=True, path_type=Path),
        help=run_help,
    )

    def apply(function: F) -> F:
        return build_dir(run_prebuilt(function))

    return apply


def report_option(help: str) -> Callable[[F], F]:
    return click.option(
        "--report",
        "report_format",
        type=click.Choice(["table", "json", "md"]),
        default="table",
        show_default=True,
        help=help,
    )


def find_compiler(platform: str, flags: dict[str, Any], prefer_host: bool = False) -> Compiler:
    """The compiler of ``platform`` (amd, nvidia or cuda: the originals) that
    the flags (--hipcc, --offload-arch, --rocm) ask for; ToolchainError if none."""
    from .toolchain import find_amd, find_cuda, find_nvidia

    if platform == "amd":
        return find_amd(flags["hipcc"], flags["offload_arch"], release=flags["rocm"])
    if platform == "nvidia":
        return find_nvidia(release=flags["rocm"])
    return find_cuda(prefer_host=prefer_host)


def error(command: str, message: str) -> int:
    """Say ``message`` as the command's error; the exit code of a usage error."""
    click.echo(f"hipify-py {command}: error: {message}", err=True)
    return 2
