"""Every option of translation, declared once: its flags, type, default, help,
configuration key, the commands that offer it and the Options field it feeds.

The command line (cli/options.py's ``shared_options``) makes the click
options of translate, check and report from these declarations; the
configuration file (project/config.py) takes its keys, their types and how
each is merged with the command line from them; cli/run_setup.py's
``build_options`` fills Options from them.  Plain data: it imports nothing of
the command line, so the configuration (and the API) can read it.

Options that only one of check and report has, with no configuration key
(check's --baseline, report's --format, ...), are declared in that command.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from hipify_py.engine.options import FP8_FORMATS, LAUNCH_SYNTAXES

TRANSLATE = frozenset({"translate"})
EVERY = frozenset({"translate", "check", "report"})
TRANSLATE_AND_CHECK = frozenset({"translate", "check"})

# how a value is typed on the command line
Kind = Literal[
    "flag",  # --x (False unless given)
    "switch",  # --x/--no-x
    "text",
    "count",  # a whole number >= minimum
    "number",  # a number >= minimum
    "choice",
    "dir",  # a folder path
    "file",  # a file path
    "path",  # a path of either
]
# how a configuration value is merged with the command line
Merge = Literal[
    "value",  # the command line's value if given, else the file's
    "joined",  # a list in the file, one comma-separated value on the command line
    "inverted",  # a bool in the file, the flag says the opposite (gitignore / --no-gitignore)
    "folder",  # a folder relative to the configuration file's folder
    "anchored",  # globs relative to the configuration file's folder, kept apart (exclude)
    "folders-first",  # folders relative to the file's folder, before the command line's
    "first",  # the file's list, then the command line's
]


@dataclass(frozen=True)
class OptionSpec:
    name: str  # the name of its value in the flags of a run
    flags: tuple[str, ...]  # as click declares them: ("-j", "--jobs"), ("--x/--no-x",)
    help: str
    commands: frozenset[str] = TRANSLATE  # the commands that offer it
    kind: Kind = "flag"
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None  # count / number
    metavar: str | None = None
    multiple: bool = False
    show_default: bool | str = False
    hidden: bool = False
    config: str | None = None  # its key in [tool.hipify-py]
    merge: Merge = "value"
    # why it has no configuration key (set exactly when config is None)
    command_line_only: str = ""
    # the Options field it feeds (engine/options.py); a "not " prefix: negated
    option: str | None = None

    @property
    def long_flag(self) -> str:
        return next(f for f in self.flags if f.startswith("--")).split("/")[0]

    @property
    def config_type(self) -> type:
        """The type of its configuration value (a list holds strings)."""
        if self.multiple or self.merge in ("joined", "anchored", "folders-first", "first"):
            return list
        if self.kind in ("flag", "switch"):
            return bool
        if self.kind == "count":
            return int
        return str

    def initial(self) -> Any:
        """Its value when the command does not offer it (the configuration may set it)."""
        if self.multiple:
            return ()
        if self.kind == "flag":
            return False
        return self.default


_RUN = "a choice of this run"
_MODE = "a write mode: chosen for each run"
_OUTPUT = "how this run prints"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "to_stdout",
        ("--stdout",),
        "Print the translation of one file to stdout.",
        command_line_only=_MODE,
    ),
    OptionSpec(
        "show_diff",
        ("--diff",),
        "Print a unified diff; write nothing.",
        command_line_only=_MODE,
    ),
    OptionSpec(
        "check",
        ("--check",),
        "Write nothing; exit 1 if any file would change or unsupported APIs remain.",
        command_line_only=_MODE,
    ),
    OptionSpec(
        "output_dir",
        ("-o", "--output-dir"),
        "Write translations into DIR, mirroring the input tree (in place otherwise).",
        kind="path",
        command_line_only=_MODE,
    ),
    OptionSpec(
        "copy_all",
        ("--copy-all",),
        "With --output-dir, mirror the whole tree: copy every file that is not translated "
        "(build files as they are unless --fix-build), recreate symbolic links as links.  "
        "Files .gitignore matches (and git does not track) are not copied: the summary counts "
        "them, --no-gitignore copies them too.",
        command_line_only="goes with --output-dir, a write mode",
    ),
    OptionSpec(
        "backup",
        ("--backup",),
        "In place: keep the original as FILE.orig.",
        command_line_only="goes with the in-place write mode",
    ),
    OptionSpec(
        "jobs",
        ("-j", "--jobs"),
        "Worker processes (one file always runs in this process).",
        commands=EVERY,
        kind="count",
        minimum=0,
        default=0,
        show_default="number of cores",
        config="jobs",
    ),
    OptionSpec(
        "quiet",
        ("-q", "--quiet"),
        "One line per file changed and one summary line; errors in full.",
        command_line_only=_OUTPUT,
    ),
    OptionSpec(
        "verbose",
        ("-v", "--verbose"),
        "Also print informational diagnostics.",
        command_line_only=_OUTPUT,
    ),
    OptionSpec(
        "stats",
        ("--stats",),
        "Print converted references by library and kind, unconverted names, lines changed.",
        command_line_only=_OUTPUT,
    ),
    OptionSpec(
        "form",
        ("--format",),
        "json: print one JSON report (files, diagnostics, stats) on stdout.",
        kind="choice",
        choices=("text", "json"),
        default="text",
        show_default=True,
        command_line_only=_OUTPUT,
    ),
    OptionSpec(
        "report_format",
        ("--report-format",),
        "The former name of --format.",
        kind="choice",
        choices=("text", "json"),
        hidden=True,
        command_line_only="the former name of --format, kept for old scripts",
    ),
    OptionSpec(
        "strict",
        ("--strict",),
        "Exit 1 when unsupported CUDA APIs remain.",
        command_line_only="decides the exit code of this run, as --check does",
    ),
    OptionSpec(
        "exclude",
        ("--exclude",),
        "Skip paths matching GLOB (gitignore syntax); repeatable.",
        commands=EVERY,
        kind="text",
        multiple=True,
        metavar="GLOB",
        config="exclude",
        merge="anchored",
    ),
    OptionSpec(
        "extensions",
        ("--extensions",),
        "Comma-separated file extensions to read "
        "[default: .cu,.cuh,.cpp,.cc,.cxx,.c,.h,.hpp,.hh,.inl,.inc].",
        commands=EVERY,
        kind="text",
        metavar="LIST",
        config="extensions",
        merge="joined",
    ),
    OptionSpec(
        "no_gitignore",
        ("--no-gitignore",),
        "Do not honour .gitignore files.",
        commands=EVERY,
        config="gitignore",
        merge="inverted",
    ),
    OptionSpec(
        "hip_version",
        ("--hip-version",),
        "Target HIP version: names newer HIPs added are not emitted, names HIP renamed "
        "follow it [default: the HIP of $HIP_PATH, $ROCM_PATH, /opt/rocm or the hipcc on "
        "PATH, else the newest release verified].",
        commands=EVERY,
        kind="text",
        metavar="X.Y",
        config="hip-version",
    ),
    OptionSpec(
        "roc",
        ("--roc",),
        "Use rocBLAS/rocSPARSE/rocRAND/rocSOLVER/MIOpen names and headers; a name the ROC "
        "library lacks is an error (HPY108) where it is used.",
        commands=TRANSLATE_AND_CHECK,
        config="roc",
        option="roc",
    ),
    OptionSpec(
        "launch_syntax",
        ("--launch-syntax",),
        "keep <<<...>>> launches, or rewrite them to hipLaunchKernelGGL.",
        kind="choice",
        choices=LAUNCH_SYNTAXES,
        default="keep",
        show_default=True,
        config="launch-syntax",
        option="launch_syntax",
    ),
    OptionSpec(
        "rewrite_strings",
        ("--rewrite-strings",),
        "Also rename CUDA names inside string literals.",
        config="rewrite-strings",
        option="rewrite_strings",
    ),
    OptionSpec(
        "no_runtime_include",
        ("--no-runtime-include",),
        "Never insert #include <hip/hip_runtime.h>.",
        command_line_only="for single files and editors; a project wants the include",
        option="not insert_runtime_include",
    ),
    OptionSpec(
        "select",
        ("--select",),
        "Report only these diagnostic codes (comma-separated prefixes, e.g. HPY1).",
        commands=EVERY,
        kind="text",
        metavar="CODES",
        config="select",
        merge="joined",
        option="select",
    ),
    OptionSpec(
        "ignore",
        ("--ignore",),
        "Never report these diagnostic codes (comma-separated prefixes, e.g. HPY102).",
        commands=EVERY,
        kind="text",
        metavar="CODES",
        config="ignore",
        merge="joined",
        option="ignore",
    ),
    OptionSpec(
        "mappings_dir",
        ("--mappings",),
        "Use the mapping tables in DIR instead of the shipped ones.",
        commands=TRANSLATE_AND_CHECK,
        kind="dir",
        command_line_only="for testing mapping tables, not a project setting",
    ),
    OptionSpec(
        "fix_warp_size",
        ("--fix-warp-size",),
        "Unsafe: replace 32-lane constants with warpSize where provably a lane count.",
        config="fix-warp-size",
        option="fix_warp_size",
    ),
    OptionSpec(
        "offload_arch",
        ("--offload-arch",),
        "The AMD GPU target (decides the default fp8 format).",
        commands=TRANSLATE_AND_CHECK,
        kind="text",
        default="gfx942",
        show_default=True,
        config="offload-arch",
        option="offload_arch",
    ),
    OptionSpec(
        "fp8",
        ("--fp8",),
        "fp8 format to translate to [default: what --offload-arch has: fnuz on gfx94x].",
        commands=TRANSLATE_AND_CHECK,
        kind="choice",
        choices=FP8_FORMATS,
        config="fp8",
        option="fp8",
    ),
    OptionSpec(
        "compat",
        ("--compat",),
        "Translate CUDA features HIP lacks but can express (SIMD video intrinsics, "
        "cache-hint loads/stores, umin/umax, cooperative_groups reduce/scan, NVML monitoring "
        "calls over AMD SMI) to functions of hipify_py_compat.h, written into the output root "
        "(or the folder translated in place) and included where used.",
        commands=EVERY,
        config="compat",
        option="compat",
    ),
    OptionSpec(
        "annotate",
        ("--annotate",),
        "Write a /* hipify-py: CODE ... */ comment at each reported site in the output.",
        command_line_only="writes review comments into the output: a choice of one run",
        option="annotate",
    ),
    OptionSpec(
        "rename",
        ("--rename",),
        'Rename .cu to .hip and cuda to hip in file names, rewriting #include "..." of them.',
        command_line_only="renames files: a one-time step of a port",
    ),
    OptionSpec(
        "include_dir",
        ("-I", "--include-dir"),
        'Project mode: also look up #include "x.h" (and <x.h>) in DIR; with --engine clang '
        "also clang's -I DIR; repeatable.",
        commands=EVERY,
        kind="dir",
        multiple=True,
        metavar="DIR",
        config="include-dirs",
        merge="folders-first",
    ),
    OptionSpec(
        "engine",
        ("--engine",),
        "default: tree-sitter, no headers needed.  clang: libclang with the real CUDA headers "
        "(pip install 'hipify-py[clang]'): user names that shadow CUDA's, CUDA API from "
        "project macros, #if branches not compiled, argument types.",
        kind="choice",
        choices=("default", "clang"),
        default="default",
        show_default=True,
        config="engine",
    ),
    OptionSpec(
        "build_path",
        ("-p", "--build-path"),
        "--engine clang: each file's flags from DIR/compile_commands.json (or that file).",
        kind="path",
        metavar="DIR",
        config="build-path",
        merge="folder",
    ),
    OptionSpec(
        "defines",
        ("-D", "--define"),
        "--engine clang: define a macro for the parse; repeatable.",
        kind="text",
        multiple=True,
        metavar="NAME[=VALUE]",
        config="defines",
        merge="first",
    ),
    OptionSpec(
        "std",
        ("--std",),
        "--engine clang: the C++ standard (c++17, c++20, ...).",
        kind="text",
        metavar="STD",
        config="std",
    ),
    OptionSpec(
        "cuda_path",
        ("--cuda-path",),
        "--engine clang: the CUDA headers (a CUDA install, or its include folder) "
        "[default: found on the machine].",
        kind="dir",
        metavar="DIR",
        config="cuda-path",
        merge="folder",
    ),
    OptionSpec(
        "clang_resource_dir",
        ("--clang-resource-dir",),
        "--engine clang: clang's resource folder, with its CUDA wrapper headers "
        "[default: found on the machine].",
        kind="dir",
        metavar="DIR",
        config="clang-resource-dir",
        merge="folder",
    ),
    OptionSpec(
        "project_headers",
        ("--project-headers/--no-project-headers",),
        "Also translate the project's local headers that the sources include.",
        commands=EVERY,
        kind="switch",
        default=True,
        show_default=True,
        config="project-headers",
    ),
    OptionSpec(
        "fix_build",
        ("--fix-build",),
        "Rewrite the simple CMake/Makefile changes for HIP (they are reported either way).",
        command_line_only="rewrites build files: a one-time step of a port",
    ),
    OptionSpec(
        "no_cache",
        ("--no-cache",),
        "Do not use (or fill) the content-hash cache of results.",
        commands=TRANSLATE_AND_CHECK,
        command_line_only="for measuring and debugging, never a project setting",
    ),
    OptionSpec(
        "max_file_size",
        ("--max-file-size",),
        "Skip (and report) files larger than this; 0: no limit.",
        kind="number",
        minimum=0,
        default=16,
        show_default=True,
        metavar="MB",
        command_line_only="a limit of the machine that runs it, not of the project",
    ),
    OptionSpec(
        "list_asm",
        ("--list-asm",),
        "List every inline PTX (asm) site of the paths and exit; writes nothing.",
        command_line_only="a listing instead of a translation: " + _RUN,
    ),
    OptionSpec(
        "stdin_filename",
        ("--stdin-filename",),
        "When PATHS is `-` (stdin, printed to stdout unless --diff or --check): the file's "
        "name, for the configuration lookup, --exclude and the messages [default: `-`, a .cu "
        "file].",
        kind="file",
        metavar="PATH",
        command_line_only="names the buffer of one run (and finds the configuration)",
    ),
    OptionSpec(
        "config_path",
        ("--config",),
        "Read the configuration from FILE (a pyproject.toml with [tool.hipify-py], or a "
        "file of the same keys at the top level) instead of finding one above the paths.",
        commands=EVERY,
        kind="file",
        metavar="FILE",
        command_line_only="names the configuration itself",
    ),
)

# the key of PATHS, the command's argument (relative to the configuration's folder)
PATHS_KEY = "paths"

BY_NAME = {spec.name: spec for spec in OPTIONS}
BY_CONFIG_KEY = {spec.config: spec for spec in OPTIONS if spec.config is not None}


def offered(command: str) -> Iterator[OptionSpec]:
    """The options ``command`` offers, in the order its help lists them."""
    return (spec for spec in OPTIONS if command in spec.commands)


def initial_values() -> dict[str, Any]:
    """Every option at its value when not given, for a command that lacks
    some (check and report: the configuration may still set them)."""
    return {spec.name: spec.initial() for spec in OPTIONS}
