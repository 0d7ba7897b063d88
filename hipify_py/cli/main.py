"""Command line: flags -> Options -> runner -> rendering -> exit code.

Exit codes: 0 ok; 1 --check found work (or unsupported APIs remain with
--strict / --check); 2 usage or I/O error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from hipify_py import __version__
from hipify_py.cli import interrupts
from hipify_py.cli.interrupts import Interrupted, interrupted_early
from hipify_py.cli.options import (
    compat,
    config_file,
    diagnostic_filters,
    explicit_flags,
    hip_version,
)

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

_TRANSLATE_HELP = """Translate CUDA sources to HIP.

PATHS are files or folders (searched recursively, honouring .gitignore),
or `-` for stdin.  By default files are rewritten in place; see the write
modes below.

\b
Examples:
  hipify-py src/                       translate a tree in place
  hipify-py kernel.cu --stdout         print one translated file
  hipify-py src/ --diff                show what would change
  hipify-py src/ --check               CI: exit 1 if anything would change
  hipify-py src/ -o hip-src/           write a translated copy of the tree
  hipify-py - < kernel.cu              translate stdin to stdout (editors)

\b
Exit codes: 0 ok; 1 --check found work, or unsupported CUDA APIs remain
with --strict; 2 usage or I/O error (other files are still processed).
"""


# Subcommands defined in their own modules, imported only when used: a
# pre-commit run of `hipify-py file.cu` must not pay for them.
LAZY_COMMANDS = {
    "check": ("hipify_py.cli.check", "check_command"),
    "report": ("hipify_py.cli.report", "report_command"),
    "prove": ("hip_smoke.prove_cli", "prove_command"),
}


_IMPLICIT = "hipify_py.translate_args"  # ctx.meta key: the arguments of `hipify-py PATHS...`


class _Main(click.Group):
    """``hipify-py PATHS...`` runs the translate command; ``hipify-py NAME ...``
    runs subcommand NAME."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *(n for n in LAZY_COMMANDS if _lazy_available(n))})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in LAZY_COMMANDS and _lazy_available(cmd_name):
            import importlib

            module, attribute = LAZY_COMMANDS[cmd_name]
            command = getattr(importlib.import_module(module), attribute)
            self.commands[cmd_name] = command
        return command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in ("--help", "-h"):
            return super().parse_args(ctx, args)
        known = args and (
            args[0] in self.commands or (args[0] in LAZY_COMMANDS and _lazy_available(args[0]))
        )
        if not known:
            # translate, run by invoke() as the command the user typed
            ctx.meta[_IMPLICIT] = list(args)
            return []
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        args = ctx.meta.pop(_IMPLICIT, None)
        if args is None:
            return super().invoke(ctx)
        # translate's context has no parent: its usage errors and help say
        # `hipify-py [OPTIONS] [PATHS]...`, not a `translate` the user never typed
        translate_cmd = self.commands["translate"]
        with ctx, translate_cmd.make_context(ctx.info_name, args) as sub_ctx:
            return translate_cmd.invoke(sub_ctx)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        translate_cmd = self.commands["translate"]
        sub_ctx = click.Context(
            translate_cmd, info_name=ctx.info_name, **translate_cmd.context_settings
        )
        translate_cmd.format_help(sub_ctx, formatter)
        self.format_commands(ctx, formatter)


def _lazy_available(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(LAZY_COMMANDS[name][0]) is not None


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """hipify-py: translate CUDA source code to HIP."""


@cli.command(
    "translate",
    help=_TRANSLATE_HELP,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--stdout", "to_stdout", is_flag=True, help="Print the translation of one file to stdout."
)
@click.option("--diff", "show_diff", is_flag=True, help="Print a unified diff; write nothing.")
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; exit 1 if any file would change or unsupported APIs remain.",
)
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(path_type=Path),
    help="Write translations into DIR, mirroring the input tree (in place otherwise).",
)
@click.option(
    "--copy-all",
    is_flag=True,
    help="With --output-dir, mirror the whole tree: copy every file that is not translated "
    "(build files as they are unless --fix-build), recreate symbolic links as links.  Files "
    ".gitignore matches (and git does not track) are not copied: the summary counts them, "
    "--no-gitignore copies them too.",
)
@click.option("--backup", is_flag=True, help="In place: keep the original as FILE.orig.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    show_default="number of cores",
    help="Worker processes (one file always runs in this process).",
)
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="One line per file changed and one summary line; errors in full.",
)
@click.option("-v", "--verbose", is_flag=True, help="Also print informational diagnostics.")
@click.option(
    "--stats",
    is_flag=True,
    help="Print converted references by library and kind, unconverted names, lines changed.",
)
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: print one JSON report (files, diagnostics, stats) on stdout.",
)
@click.option(
    "--report-format",
    "report_format",
    type=click.Choice(["text", "json"]),
    hidden=True,
    help="The former name of --format.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when unsupported CUDA APIs remain.")
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="Skip paths matching GLOB (gitignore syntax); repeatable.",
)
@click.option(
    "--extensions",
    metavar="LIST",
    help="Comma-separated file extensions to translate "
    "[default: .cu,.cuh,.cpp,.cc,.cxx,.c,.h,.hpp,.hh,.inl,.inc].",
)
@click.option("--no-gitignore", is_flag=True, help="Do not honour .gitignore files.")
@hip_version
@click.option(
    "--roc",
    is_flag=True,
    help="Use rocBLAS/rocSPARSE/rocRAND/rocSOLVER/MIOpen names and headers; a name the ROC "
    "library lacks is an error (HPY108) where it is used.",
)
@click.option(
    "--launch-syntax",
    type=click.Choice(["keep", "hip"]),
    default="keep",
    show_default=True,
    help="keep <<<...>>> launches, or rewrite them to hipLaunchKernelGGL.",
)
@click.option(
    "--rewrite-strings", is_flag=True, help="Also rename CUDA names inside string literals."
)
@click.option(
    "--no-runtime-include", is_flag=True, help="Never insert #include <hip/hip_runtime.h>."
)
@diagnostic_filters
@click.option(
    "--mappings",
    "mappings_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Use the mapping tables in DIR instead of the shipped ones.",
)
@click.option(
    "--fix-warp-size",
    is_flag=True,
    help="Unsafe: replace 32-lane constants with warpSize where provably a lane count.",
)
@click.option(
    "--offload-arch",
    default="gfx942",
    show_default=True,
    help="The AMD GPU target (decides the default fp8 format).",
)
@click.option(
    "--fp8",
    type=click.Choice(["fnuz", "ocp"]),
    help="fp8 format to translate to [default: what --offload-arch has: fnuz on gfx94x].",
)
@compat
@click.option(
    "--annotate",
    is_flag=True,
    help="Write a /* hipify-py: CODE ... */ comment at each reported site in the output.",
)
@click.option(
    "--rename",
    is_flag=True,
    help='Rename .cu to .hip and cuda to hip in file names, rewriting #include "..." of them.',
)
@click.option(
    "-I",
    "--include-dir",
    multiple=True,
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help='Project mode: also look up #include "x.h" (and <x.h>) in DIR; with --engine clang '
    "also clang's -I DIR; repeatable.",
)
@click.option(
    "--engine",
    type=click.Choice(["default", "clang"]),
    default="default",
    show_default=True,
    help="default: tree-sitter, no headers needed.  clang: libclang with the real CUDA headers "
    "(pip install 'hipify-py[clang]'): user names that shadow CUDA's, CUDA API from project "
    "macros, #if branches not compiled, argument types.",
)
@click.option(
    "-p",
    "--build-path",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="--engine clang: each file's flags from DIR/compile_commands.json (or that file).",
)
@click.option(
    "-D",
    "--define",
    "defines",
    multiple=True,
    metavar="NAME[=VALUE]",
    help="--engine clang: define a macro for the parse; repeatable.",
)
@click.option("--std", metavar="STD", help="--engine clang: the C++ standard (c++17, c++20, ...).")
@click.option(
    "--cuda-path",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help="--engine clang: the CUDA headers (a CUDA install, or its include folder) "
    "[default: found on the machine].",
)
@click.option(
    "--clang-resource-dir",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    help="--engine clang: clang's resource folder, with its CUDA wrapper headers "
    "[default: found on the machine].",
)
@click.option(
    "--project-headers/--no-project-headers",
    default=True,
    show_default=True,
    help="Also translate the project's local headers that the sources include.",
)
@click.option(
    "--fix-build",
    is_flag=True,
    help="Rewrite the simple CMake/Makefile changes for HIP (they are reported either way).",
)
@click.option(
    "--no-cache", is_flag=True, help="Do not use (or fill) the content-hash cache of results."
)
@click.option(
    "--max-file-size",
    type=click.FloatRange(min=0),
    default=16,
    show_default=True,
    metavar="MB",
    help="Skip (and report) files larger than this; 0: no limit.",
)
@click.option(
    "--list-asm",
    is_flag=True,
    help="List every inline PTX (asm) site of the paths and exit; writes nothing.",
)
@click.option(
    "--stdin-filename",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="PATH",
    help="When PATHS is `-` (stdin, printed to stdout unless --diff or --check): the file's "
    "name, for the configuration lookup, --exclude and the messages [default: `-`, a .cu file].",
)
@config_file
@click.version_option(
    __version__,
    "--version",
    prog_name="hipify-py",
    message="%(prog)s %(version)s",
    help="Print the version and exit.",
)
def translate_command(paths: tuple[Path, ...], **flags: Any) -> None:
    from hipify_py.cli.translate import run_translate

    sys.exit(run_translate(list(paths), flags, explicit_flags(click.get_current_context(), flags)))


# Subcommand groups live in their own modules, which import only click at load
# time: `hipify-py file.cu` must not pay for them.
from hipify_py.cli.mappings import mappings  # noqa: E402

cli.add_command(mappings)


@cli.command(
    "smoke",
    help="Compile (and run) the hip_smoke sample programs; see `hipify-py smoke --help`. "
    "With --project: your own programs (`hipify-py prove`).",
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    },
    add_help_option=False,
)
@click.pass_context
def smoke_command(ctx: click.Context) -> None:
    args = list(ctx.args)
    if "--project" in args:  # your own programs: the same as `hipify-py prove`
        from hip_smoke.prove_cli import prove_command

        args.remove("--project")
        prove_command.main(args=args, prog_name="hipify-py smoke --project")
        return
    from hip_smoke.cli import smoke_command as real

    real.main(args=args, prog_name="hipify-py smoke")


@cli.command("compat-header", context_settings={"help_option_names": ["-h", "--help"]})
def compat_header_command() -> None:
    """Print hipify_py_compat.h (what --compat includes) to stdout."""
    from hipify_py.engine.compat import header_text

    sys.stdout.buffer.write(header_text())


@cli.command("diagnostics", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("codes", nargs=-1)
@click.option("--write-docs", is_flag=True, help="Write docs/diagnostics.md (from a checkout).")
@click.option("--check-docs", is_flag=True, help="Exit 1 if docs/diagnostics.md is stale.")
def diagnostics_command(codes: tuple[str, ...], write_docs: bool, check_docs: bool) -> None:
    """List the diagnostic codes, or explain CODES (like `ruff rule`)."""
    from hipify_py.cli.diagnostics import run_diagnostics

    sys.exit(run_diagnostics(list(codes), write_docs, check_docs))


def main() -> None:
    interrupts.PROCESS_ENTRY = True
    import contextlib
    import signal

    with contextlib.suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, interrupted_early)
    # A closed stdout (e.g. piped into `head`) is not an error worth a traceback.
    try:
        cli(prog_name="hipify-py")
    except (KeyboardInterrupt, Interrupted):  # a second Ctrl-C, or one outside a run
        click.echo("\nhipify-py: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(EXIT_ERROR)
