"""The programs ``hipify-py prove`` checks: a ``smoke.toml``, or the
``[tool.hipify-py.smoke]`` table of a pyproject.toml (``[smoke]`` of a
``.hipify-py.toml``).  Every error names the file and the line.

    # smoke.toml (in pyproject.toml: the same under [tool.hipify-py.smoke])
    runs = 2                    # defaults for every program
    timeout = 60

    [[program]]
    name = "saxpy"
    sources = ["src/saxpy.cu"]  # or: build = "{cc} {flags} src/saxpy.cu -o {out} {libs}"
    args = ["--seed", "{seed}"]
    seed = 1234
    rtol = 1e-6
    ignore = ['^elapsed']

The keys are documented in docs/smoke.md ("Your own programs").
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .prove_compare import Rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

SMOKE_FILE = "smoke.toml"
PLATFORMS = ("amd", "nvidia")
PLACEHOLDERS = ("{cc}", "{flags}", "{out}", "{libs}")


class ProveConfigError(Exception):
    """A malformed smoke configuration; the message starts with ``file:line:``."""


@dataclass(frozen=True)
class Program:
    name: str
    sources: tuple[str, ...] = ()  # compiled and linked in one command
    build: str | None = None  # or this command, with {cc} {flags} {out} {libs}
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    seed: int | None = None  # replaces {seed} in args and env, the same on both sides
    inputs: tuple[str, ...] = ()  # files or folders (of the root) copied where it runs
    libraries: tuple[str, ...] = ()  # CUDA libraries (hip_smoke/platforms.yaml)
    flags: tuple[str, ...] = ()  # extra compiler flags, every side
    platforms: tuple[str, ...] = PLATFORMS  # the translated sides to build
    timeout: float = 60.0
    runs: int = 2  # runs per side; 2 or more also checks each side is reproducible
    rules: Rules = field(default_factory=Rules)
    line: int = 0  # where [[program]] starts

    def argv(self) -> list[str]:
        return [_seeded(a, self.seed) for a in self.args]

    def environment(self) -> dict[str, str]:
        return {k: _seeded(v, self.seed) for k, v in self.env.items()}


def _seeded(text: str, seed: int | None) -> str:
    return text if seed is None else text.replace("{seed}", str(seed))


@dataclass(frozen=True)
class ProveConfig:
    path: Path  # the file
    root: Path  # the folder translated, built and run from
    programs: tuple[Program, ...]
    # the file whose [tool.hipify-py] options the translation uses (None: the
    # nearest configuration above the root, found as a translate run finds it)
    translate_config: Path | None = None


# -- locating keys in the text (tomllib gives values, not lines) --------------

_KEY = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""")


def _split_header(text: str) -> tuple[str, ...]:
    parts = re.findall(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^.\s]+)\s*(?:\.|$)""", text)
    return tuple(p.strip("\"'") for p in parts)


class _Lines:
    """The line of each table header and key of a TOML text (tables of arrays
    are numbered: ``("program", 0, "name")``)."""

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[Any, ...], int] = {}
        current: tuple[Any, ...] = ()
        counts: dict[tuple[Any, ...], int] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if line.startswith("[["):
                path = _split_header(line[2 : line.find("]]")])
                counts[path] = counts.get(path, -1) + 1
                current = (*path, counts[path])
                self.lines.setdefault(current, number)
            elif line.startswith("["):
                current = _split_header(line[1 : line.find("]")])
                self.lines.setdefault(current, number)
            else:
                found = _KEY.match(line)
                if found:
                    self.lines.setdefault((*current, found.group(1).strip("\"'")), number)

    def line(self, *path: Any) -> int:
        for size in range(len(path), 0, -1):
            if path[:size] in self.lines:
                return self.lines[path[:size]]
        return 1


# -- reading -------------------------------------------------------------------

_DEFAULT_KEYS = {
    "runs",
    "timeout",
    "rtol",
    "atol",
    "ignore",
    "mask",
    "exit-code",
    "seed",
    "stderr",
    "flags",
    "env",
    "libraries",
    "platforms",
}
_TOP_KEYS = {"root", "program", *_DEFAULT_KEYS}
_PROGRAM_KEYS = {"name", "sources", "build", "args", "inputs", "files", *_DEFAULT_KEYS}


def find_smoke_config(start: Path) -> Path | None:
    """The nearest smoke.toml, or pyproject.toml / .hipify-py.toml with a
    smoke table, in ``start`` or a folder above it."""
    folder = start.resolve()
    for candidate in [folder, *folder.parents]:
        if (candidate / SMOKE_FILE).is_file():
            return candidate / SMOKE_FILE
        for name in ("pyproject.toml", ".hipify-py.toml"):
            path = candidate / name
            if path.is_file():
                try:
                    data = _read(path)
                except ProveConfigError:
                    continue
                if _smoke_table(data, path) is not None:
                    return path
    return None


def _smoke_table(data: dict[str, Any], path: Path) -> tuple[Any, tuple[str, ...]] | None:
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        ours = tool.get("hipify-py", {}) if isinstance(tool, dict) else {}
        table = ours.get("smoke") if isinstance(ours, dict) else None
        return None if table is None else (table, ("tool", "hipify-py", "smoke"))
    if path.name == ".hipify-py.toml":
        table = data.get("smoke")
        return None if table is None else (table, ("smoke",))
    return data, ()


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
            return data
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = found.group(1) if found else "1"
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise ProveConfigError(f"{path}:{line}: invalid TOML: {message}") from None
    except OSError as exc:
        raise ProveConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def load_smoke_config(path: Path, known_libraries: set[str] | None = None) -> ProveConfig:
    """Read and check the smoke configuration in ``path``."""
    if not path.is_file():
        raise ProveConfigError(f"{path}: no such file")
    data = _read(path)
    found = _smoke_table(data, path)
    if found is None:
        table_name = "[tool.hipify-py.smoke]" if path.name == "pyproject.toml" else "[smoke]"
        raise ProveConfigError(f"{path}:1: no {table_name} table")
    table, base = found
    lines = _Lines(path.read_text(encoding="utf-8", errors="replace"))
    reader = _Reader(path, lines, base)
    if not isinstance(table, dict):
        raise reader.error((), "the smoke configuration must be a table")
    reader.unknown(table, _TOP_KEYS, ())
    defaults = {k: v for k, v in table.items() if k in _DEFAULT_KEYS}
    raw_programs = table.get("program", [])
    if not isinstance(raw_programs, list) or not raw_programs:
        raise reader.error(
            ("program",), "no programs: add a [[program]] table with name and sources (or build)"
        )
    programs: list[Program] = []
    names: dict[str, int] = {}
    for index, raw in enumerate(raw_programs):
        program = reader.program(index, raw, defaults, known_libraries)
        if program.name in names:
            raise reader.error(
                ("program", index, "name"),
                f"program {program.name!r} is also declared at line {names[program.name]}",
            )
        names[program.name] = program.line
        programs.append(program)
    root_value = table.get("root", ".")
    if not isinstance(root_value, str):
        raise reader.error(("root",), "root must be a string (a folder)")
    root = (path.parent / root_value).resolve()
    if not root.is_dir():
        raise reader.error(("root",), f"root {root_value!r} is not a folder")
    for program in programs:
        for source in program.sources:
            if not (root / source).is_file():
                raise reader.error(
                    ("program", programs.index(program), "sources"),
                    f"{program.name}: source {source!r} does not exist (in {root})",
                )
        for item in program.inputs:
            if not (root / item).exists():
                raise reader.error(
                    ("program", programs.index(program), "inputs"),
                    f"{program.name}: input {item!r} does not exist (in {root})",
                )
    translate = path if path.name in ("pyproject.toml", ".hipify-py.toml") else None
    return ProveConfig(path, root, tuple(programs), translate)


class _Reader:
    def __init__(self, path: Path, lines: _Lines, base: tuple[str, ...]) -> None:
        self.path, self.lines, self.base = path, lines, base

    def error(self, where: tuple[Any, ...], message: str) -> ProveConfigError:
        return ProveConfigError(f"{self.path}:{self.lines.line(*self.base, *where)}: {message}")

    def unknown(self, table: dict[str, Any], known: set[str], where: tuple[Any, ...]) -> None:
        import difflib

        for key in table:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                hint = (
                    f"did you mean {close[0]!r}?" if close else "known: " + ", ".join(sorted(known))
                )
                raise self.error((*where, key), f"unknown key {key!r} ({hint})")

    def program(
        self,
        index: int,
        raw: Any,
        defaults: dict[str, Any],
        known_libraries: set[str] | None,
    ) -> Program:
        where: tuple[Any, ...] = ("program", index)
        if not isinstance(raw, dict):
            raise self.error(where, "each program must be a table ([[program]])")
        self.unknown(raw, _PROGRAM_KEYS, where)
        values = {**defaults, **raw}

        def get(key: str, kind: str, default: Any) -> Any:
            if key not in values:
                return default
            value = values[key]
            at = (*where, key) if key in raw else (key,)
            return self.check(value, kind, at, key)

        name = get("name", "name", None)
        if name is None:
            raise self.error(where, "program without a name")
        sources = tuple(get("sources", "strings", ()))
        build = get("build", "string", None)
        if bool(sources) == (build is not None):
            raise self.error(
                where, f"{name}: give either sources (a list of files) or build (a command)"
            )
        if build is not None:
            for placeholder in ("{cc}", "{out}"):
                if placeholder not in build:
                    raise self.error((*where, "build"), f"{name}: build must contain {placeholder}")
            unknown = set(re.findall(r"\{[^}]*\}", build)) - set(PLACEHOLDERS)
            if unknown:
                raise self.error(
                    (*where, "build"),
                    f"{name}: unknown placeholder(s) {', '.join(sorted(unknown))} "
                    f"(known: {' '.join(PLACEHOLDERS)})",
                )
        libraries = tuple(get("libraries", "strings", ()))
        if known_libraries is not None:
            for library in libraries:
                if library not in known_libraries:
                    raise self.error(
                        (*where, "libraries") if "libraries" in raw else ("libraries",),
                        f"{name}: unknown library {library!r} (known: "
                        + ", ".join(sorted(known_libraries))
                        + ")",
                    )
        platforms = tuple(get("platforms", "strings", PLATFORMS))
        for platform in platforms:
            if platform not in PLATFORMS:
                raise self.error(
                    (*where, "platforms") if "platforms" in raw else ("platforms",),
                    f"{name}: unknown platform {platform!r} (amd, nvidia)",
                )
        for key in ("ignore", "mask"):
            for pattern in get(key, "strings", ()):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise self.error(
                        (*where, key) if key in raw else (key,),
                        f"{name}: bad regular expression {pattern!r} in {key}: {exc}",
                    ) from None
        exit_code = get("exit-code", "exit", 0)
        rules = Rules(
            rtol=get("rtol", "tolerance", 0.0),
            atol=get("atol", "tolerance", 0.0),
            ignore=tuple(get("ignore", "strings", ())),
            mask=tuple(get("mask", "strings", ())),
            exit_code=None if exit_code == "any" else exit_code,
            files=tuple(get("files", "strings", ())),
            stderr=get("stderr", "bool", False),
        )
        return Program(
            name=name,
            sources=sources,
            build=build,
            args=tuple(get("args", "strings", ())),
            env=get("env", "env", {}),
            seed=get("seed", "int", None),
            inputs=tuple(get("inputs", "strings", ())),
            libraries=libraries,
            flags=tuple(get("flags", "strings", ())),
            platforms=platforms,
            timeout=float(get("timeout", "positive", 60.0)),
            runs=get("runs", "runs", 2),
            rules=rules,
            line=self.lines.line(*self.base, *where),
        )

    def check(self, value: Any, kind: str, at: tuple[Any, ...], key: str) -> Any:
        ok = True
        if kind == "name":
            ok = isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9_.+-]+", value) is not None
            message = "name must be letters, digits, '_', '.', '+' or '-'"
        elif kind == "strings":
            if isinstance(value, str) and key not in ("args",):
                value = [value]
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            message = f"{key} must be a list of strings"
        elif kind == "string":
            ok = isinstance(value, str) and bool(value.strip())
            message = f"{key} must be a non-empty string"
        elif kind == "bool":
            ok = isinstance(value, bool)
            message = f"{key} must be true or false"
        elif kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
            message = f"{key} must be a whole number"
        elif kind == "runs":
            ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 20
            message = f"{key} must be a whole number from 1 to 20"
        elif kind == "exit":
            ok = value == "any" or (isinstance(value, int) and not isinstance(value, bool))
            message = f'{key} must be a whole number or "any"'
        elif kind in ("tolerance", "positive"):
            ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
            ok = ok and (kind == "tolerance" or value > 0)
            message = f"{key} must be a number " + (">= 0" if kind == "tolerance" else "> 0")
            value = float(value) if ok else value
        elif kind == "env":
            ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
            message = f'{key} must be a table of strings (NAME = "value")'
        if not ok:
            raise self.error(at, f"{message}, got {value!r}")
        return value
