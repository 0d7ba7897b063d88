"""Ctrl-C in the hipify-py process: what an abort raises, and whether this
process is the command (main() says so) or a host program calling in."""

from __future__ import annotations

# Set by main(): this process is the hipify-py command, not a host program.
PROCESS_ENTRY = False


class Interrupted(BaseException):
    """Ctrl-C before a run has installed its own handling (while importing,
    reading the configuration, finding files).  Not a KeyboardInterrupt: click
    would turn that into 'Aborted!' and a death by SIGINT."""


def interrupted_early(signum: int, frame: object) -> None:
    raise Interrupted


def interruption() -> BaseException:
    """What a Ctrl-C that aborts at once raises: in the hipify-py process one
    main() reports with exit 130; called in process, a KeyboardInterrupt."""
    return Interrupted() if PROCESS_ENTRY else KeyboardInterrupt()
