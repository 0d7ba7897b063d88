"""Project configuration: ``[tool.hipify-py]`` in pyproject.toml, or a
``.hipify-py.toml`` (same keys, at the top level) where pyproject.toml has no
such table.  Found by walking up from the first path given (or the current
folder), or named by ``--config FILE``.  Command-line flags override it;
unknown keys are an error naming the key (and the nearest valid one).

    [tool.hipify-py]
    paths = ["src"]
    exclude = ["third_party/**"]
    extensions = [".cu", ".cuh"]
    hip-version = "6.2"
    roc = false
    launch-syntax = "keep"
    select = ["HPY1", "HPY4"]
    ignore = ["HPY102"]

Every key but ``paths`` is an option's, declared in project/option_specs.py
with its type and how it meets the command line (README.md lists them).
``exclude``, ``include-dirs`` and the clang engine's folders are relative to
the configuration file's folder.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py.project.option_specs import BY_CONFIG_KEY, BY_NAME, PATHS_KEY

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]


class ConfigError(Exception):
    """A configuration file is malformed (the message names file and key)."""


# the keys: paths, and those of the options (project/option_specs.py), whose
# declarations give each key's type, choices and how it meets the command line
_KEYS = (PATHS_KEY, *BY_CONFIG_KEY)
# tables of other commands, read by them: [tool.hipify-py.smoke] (hipify-py prove)
_OTHER_TABLES = frozenset({"smoke"})


@dataclass
class Config:
    path: Path | None = None  # the file the values came from
    values: dict[str, Any] = field(default_factory=dict)  # flag name -> value

    @property
    def root(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd()


def load_config(path: Path) -> Config:
    """The configuration in ``path`` (``--config``): its ``[tool.hipify-py]``
    table if it is a pyproject.toml or has one, else its top-level keys."""
    if not path.is_file():
        why = "no such file" if not path.exists() else "not a file"
        raise ConfigError(f"{path}: cannot read the configuration: {why}")
    data = _read(path)
    table = data.get("tool", {}).get("hipify-py") if isinstance(data.get("tool"), dict) else None
    if table is not None:
        return _parse(table, path, "[tool.hipify-py]")
    if path.name == "pyproject.toml":
        raise ConfigError(f"{path}: no [tool.hipify-py] table")
    return _parse(data, path, "")


def project_config(explicit: Path | None, start: Path) -> Config:
    """The configuration of a run: the file named by --config, else the
    nearest one above ``start``."""
    return load_config(explicit) if explicit is not None else find_config(start)


def start_folder(start: Path) -> Path:
    """The folder an upward search from ``start`` (a file or folder) begins in."""
    try:
        folder = start.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: reported by discovery
        folder = start.absolute()
    if not folder.is_dir():
        folder = folder.parent
    return folder


def find_config(start: Path) -> Config:
    """The nearest configuration above ``start`` (a file or folder), or an empty one."""
    folder = start_folder(start)
    for candidate in [folder, *folder.parents]:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            table = _read(pyproject).get("tool", {}).get("hipify-py")
            if table is not None:
                return _parse(table, pyproject, "[tool.hipify-py]")
        dotfile = candidate / ".hipify-py.toml"
        if dotfile.is_file():
            return _parse(_read(dotfile), dotfile, "")
    return Config()


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
            return data
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _parse(table: Any, path: Path, where: str) -> Config:
    prefix = f"{where}." if where else ""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {where or 'the file'} must be a table")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in _OTHER_TABLES:
            continue
        if key not in _KEYS:
            raise ConfigError(f"{path}: unknown key {prefix}{key!r} ({_nearest(str(key))})")
        spec = BY_CONFIG_KEY.get(key)
        kind = list if spec is None else spec.config_type  # None: paths
        if kind is list:
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: {prefix}{key} must be a list of strings")
        elif kind is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: {prefix}{key} must be true or false")
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{path}: {prefix}{key} must be a whole number >= 0")
        elif not isinstance(value, str):
            raise ConfigError(f"{path}: {prefix}{key} must be a string")
        if spec is None:
            values[PATHS_KEY] = value
            continue
        if spec.choices and value not in spec.choices:
            raise ConfigError(
                f"{path}: {prefix}{key} must be one of {', '.join(spec.choices)}, got {value!r}"
            )
        # values are in the flags' terms: gitignore = false is --no-gitignore
        values[spec.name] = not value if spec.merge == "inverted" else value
    return Config(path, values)


def _nearest(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key.replace("_", "-").lower(), _KEYS, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return f"known keys: {', '.join(sorted(_KEYS))}"


def merge(flags: dict[str, Any], explicit: set[str], config: Config) -> dict[str, Any]:
    """Command-line flags over configuration values (``explicit``: flags given),
    each merged as its declaration says."""
    merged = dict(flags)
    merged.setdefault("config_exclude", ())
    for name, value in config.values.items():
        if name == PATHS_KEY:
            continue
        spec = BY_NAME[name]
        if spec.merge == "anchored":
            # matched relative to the configuration's folder, not to each PATH
            merged["config_exclude"] = tuple(value)
        elif spec.merge == "folders-first":
            merged[name] = (*(config.root / folder for folder in value), *flags.get(name, ()))
        elif spec.merge == "first":
            merged[name] = (*value, *flags.get(name, ()))
        elif name in explicit:
            continue
        elif spec.merge == "folder":
            merged[name] = config.root / value
        elif spec.merge == "joined":
            merged[name] = ",".join(value)
        else:
            merged[name] = value
    return merged


def configured_paths(config: Config) -> list[Path]:
    return [config.root / p for p in config.values.get("paths", [])]
