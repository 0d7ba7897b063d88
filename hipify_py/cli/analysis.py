"""What ``hipify-py check`` and ``hipify-py report`` share: from the command's
paths and flags to a planned check-mode run (the configuration, the paths,
the Options, the mapping tables and the files found).  Neither writes a
source file.  A string instead of a result says why the command cannot run;
each command prints it its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hipify_py.api import PathRun
    from hipify_py.engine.options import Options
    from hipify_py.project.config import Config


@dataclass
class Settled:
    """The configuration, the merged flags, the paths and the Options of a run."""

    config: Config
    flags: dict[str, Any]
    paths: list[Path]
    options: Options


def settle(
    command: str,
    paths: list[Path],
    flags: dict[str, Any],
    explicit: set[str],
    fixed: dict[str, Any] | None = None,
) -> Settled | str:
    """The flags merged with the configuration (then ``fixed`` set over them),
    the paths given (else the configuration's ``paths``) and the Options."""
    from hipify_py.cli.run_setup import build_options, configured
    from hipify_py.project.config import configured_paths

    settled = configured(flags, explicit, paths[0] if paths else Path.cwd())
    if isinstance(settled, str):
        return settled
    config, merged = settled
    merged.update(fixed or {})
    if not paths:
        paths = configured_paths(config)
    if not paths:
        return f"no paths given (try: hipify-py {command} src/, or set paths in [tool.hipify-py])"
    options = build_options(merged)
    if isinstance(options, str):
        return options
    return Settled(config, merged, paths, options)


def plan_check(settled: Settled) -> PathRun | str:
    """The check-mode run over the settled paths, references collected (the
    files found, the tables loaded; nothing translated yet)."""
    from hipify_py.api import translate_paths
    from hipify_py.cli.run_setup import extensions_of
    from hipify_py.project.files import DiscoveryError
    from hipify_py.project.runner import Mode
    from hipify_py.tables.cache import load_table
    from hipify_py.tables.table import TableError

    flags = settled.flags
    try:
        table = load_table(flags["mappings_dir"])
        return translate_paths(
            settled.paths,
            mode=Mode.CHECK,
            jobs=flags["jobs"],
            extensions=extensions_of(flags),
            excludes=flags["exclude"],
            use_gitignore=not flags["no_gitignore"],
            project_headers=flags["project_headers"],
            include_dirs=flags["include_dir"],
            config_excludes=flags["config_exclude"],
            table=table,
            options=settled.options,
            references=True,
            use_cache=not flags["no_cache"],
            config=settled.config,
        )
    except DiscoveryError as exc:
        return str(exc)
    except (TableError, OSError) as exc:
        return f"mapping tables: {exc}"
