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
from hipify_py.cli.options import explicit_flags, shared_options

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
@shared_options("translate")
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
