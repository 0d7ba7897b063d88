"""From the command's flags to a run: exit codes, the mode, the HIP target,
the Options and the clang engine's setup (shared by translate, stdin, check
and report)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from hipify_py.engine.hip_target import Target
from hipify_py.engine.options import Options
from hipify_py.project.config import Config, ConfigError, merge, project_config
from hipify_py.project.option_specs import BY_NAME, OPTIONS, initial_values
from hipify_py.project.runner import Mode
from hipify_py.tables.versions import Version, parse_version

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def fail(message: str) -> int:
    click.echo(f"hipify-py: error: {message}", err=True)
    return EXIT_ERROR


def _codes(value: str | None) -> frozenset[str]:
    return frozenset(c.strip().upper() for c in (value or "").split(",") if c.strip())


def unknown_codes(codes: frozenset[str]) -> list[str]:
    """Codes (or prefixes such as HPY4) that name no diagnostic in the catalogue."""
    if not codes:
        return []  # the catalogue imports every rule: a cached run needs none of them
    from hipify_py.rules.catalogue import CATALOGUE

    return sorted(c for c in codes if not any(known.startswith(c) for known in CATALOGUE))


def configured(
    flags: dict[str, Any], explicit: set[str], start: Path
) -> tuple[Config, dict[str, Any]] | str:
    """The one way a command's flags meet the configuration: every declared
    option at its value when not given (a command lacks some: the
    configuration may still set them), then the configuration (--config, else
    the one found from ``start``), then the command line (``explicit``: the
    flags given), each merged as project/option_specs.py declares.  A string
    says why the configuration cannot be read."""
    try:
        config = project_config(flags.get("config_path"), start)
    except ConfigError as exc:
        return str(exc)
    return config, merge({**initial_values(), **flags}, explicit, config)


def mode_of(flags: dict[str, Any]) -> Mode | str:
    chosen = [
        name
        for name, on in (
            ("--stdout", flags["to_stdout"]),
            ("--diff", flags["show_diff"]),
            ("--output-dir", flags["output_dir"] is not None),
        )
        if on
    ]
    if len(chosen) > 1:
        return f"{' and '.join(chosen)} cannot be combined"
    if flags["check"] and (flags["to_stdout"] or flags["output_dir"] is not None):
        return "--check cannot be combined with --stdout or --output-dir"
    if flags["show_diff"]:
        return Mode.DIFF  # --diff --check: show the diff and exit 1 if there is one
    if flags["check"]:
        return Mode.CHECK
    if flags["to_stdout"]:
        return Mode.STDOUT
    if flags["output_dir"] is not None:
        return Mode.OUTPUT_DIR
    return Mode.IN_PLACE


def resolve_target(flags: dict[str, Any], explicit: set[str] | None = None) -> Target | str:
    """The HIP release to target: --hip-version, the configuration's
    hip-version, else the user's toolchain (hip_target.detect)."""
    if flags["hip_version"]:
        try:
            version = parse_version(flags["hip_version"])
        except ValueError as exc:
            return f"--hip-version: {exc}"
        typed = explicit is None or "hip_version" in explicit
        return Target(version, "--hip-version" if typed else "hip-version in the configuration")
    from hipify_py.engine.hip_target import detect

    return detect()


def build_options(flags: dict[str, Any], target: Target | None = None) -> Options | str:
    if target is None:
        resolved = resolve_target(flags)
        if isinstance(resolved, str):
            return resolved
        target = resolved
    hip_version = target.version
    for option in ("select", "ignore"):
        unknown = unknown_codes(_codes(flags[option]))
        if unknown:
            return (
                f"--{option}: unknown diagnostic code{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(unknown)} (hipify-py diagnostics lists them)"
            )
    return options_from(flags, hip_version)


def options_from(flags: dict[str, Any], hip_version: Version | None) -> Options:
    """The Options of a run: each field from the option declared to feed it
    (project/option_specs.py), typed as the field's default is."""
    defaults = Options()
    fields: dict[str, Any] = {"hip_version": hip_version}
    for spec in OPTIONS:
        if spec.option is None:
            continue
        field = spec.option.removeprefix("not ")
        value = flags.get(spec.name, spec.initial())
        if isinstance(getattr(defaults, field), frozenset):  # --select / --ignore
            fields[field] = _codes(value)
        elif isinstance(getattr(defaults, field), bool):
            fields[field] = bool(value) != spec.option.startswith("not ")
        else:
            fields[field] = value
    return Options(**fields)


# the options that only the clang engine reads
_CLANG_ONLY = ("build_path", "defines", "std", "cuda_path", "clang_resource_dir")


def clang_setup(flags: dict[str, Any], explicit: set[str]) -> Any:
    """--engine clang: the resolved setup (a semantic.ClangSetup), made once
    here and passed to every worker; None for the default engine; a string
    says why the clang engine cannot run (a usage error)."""
    if (flags.get("engine") or "default") != "clang":
        given = [
            "/".join(BY_NAME[name].flags)
            for name in _CLANG_ONLY
            if name in explicit and flags.get(name)
        ]
        if given:
            return f"{', '.join(given)} only apply with --engine clang"
        return None
    from hipify_py.semantic import ClangSettings, SetupError, prepare
    from hipify_py.tables.cache import cache_dir

    def folder(name: str) -> Path | None:
        value = flags.get(name)
        return Path(value).resolve() if value else None

    settings = ClangSettings(
        build_path=folder("build_path"),
        include_dirs=tuple(str(Path(d).resolve()) for d in flags.get("include_dir") or ()),
        defines=tuple(flags.get("defines") or ()),
        std=flags.get("std") or None,
        cuda_path=folder("cuda_path"),
        resource_dir=folder("clang_resource_dir"),
    )
    try:
        return prepare(settings, cache_dir())
    except SetupError as exc:
        return f"--engine clang: {exc}"


def extensions_of(flags: dict[str, Any]) -> tuple[str, ...]:
    """The file extensions to read: --extensions (comma-separated), else the default."""
    from hipify_py.project.files import DEFAULT_EXTENSIONS

    if not flags["extensions"]:
        return DEFAULT_EXTENSIONS
    return tuple(e.strip() for e in flags["extensions"].split(",") if e.strip())


def verbosity_of(flags: dict[str, Any]) -> int:
    return -1 if flags["quiet"] else (1 if flags["verbose"] else 0)
