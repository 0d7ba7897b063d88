"""Each option is declared once (hipify_py/project/option_specs.py): the
commands, the configuration file, Options and README.md all follow the
declaration, so adding an option means its declaration plus its use."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import click
import pytest
from conftest import REPO, run_cli

from hipify_py.cli.app import translate_command
from hipify_py.cli.check import check_command
from hipify_py.cli.report import report_command
from hipify_py.cli.run_setup import options_from
from hipify_py.engine.options import Options
from hipify_py.project.config import ConfigError, find_config
from hipify_py.project.option_specs import OPTIONS, PATHS_KEY, OptionSpec, initial_values, offered

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

COMMANDS: dict[str, click.Command] = {
    "translate": translate_command,
    "check": check_command,
    "report": report_command,
}
# the options a command declares itself: its own, with no configuration key
# (an option two commands share, or one with a key, belongs in option_specs)
OWN = {
    "translate": {"paths", "version"},
    "check": {
        "paths",
        "form",
        "output",
        "fail_on",
        "baseline",
        "write_baseline",
        "shard",
        "root",
        "notes",
        "quiet",
    },
    "report": {"paths", "fmt", "output"},
}
# Options fields no option feeds: set by the run itself
NOT_OPTIONS = {"hip_version", "known_names", "include_renames"}


def own_flags(command: str) -> set[str]:
    return {
        name
        for param in COMMANDS[command].params
        if param.name in OWN[command]
        for name in param.opts
    }


def long_names(spec: OptionSpec) -> list[str]:
    return [name for flags in spec.flags for name in flags.split("/") if name.startswith("--")]


def readme_section(start: str, end: str) -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return text[text.index(start) : text.index(end)]


def mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_every_option_has_help_and_a_key_or_the_reason_it_has_none() -> None:
    assert len({spec.name for spec in OPTIONS}) == len(OPTIONS)
    for spec in OPTIONS:
        assert spec.help.strip() and spec.help.rstrip()[-1] in ".]", spec.name
        if spec.config is None:
            assert len(spec.command_line_only) > 10, f"{spec.name}: say why it has no key"
        else:
            assert not spec.command_line_only, f"{spec.name}: has a key and a reason for none"
            assert spec.config != PATHS_KEY


def test_every_option_is_documented_in_the_readme() -> None:
    options = readme_section("### Options", "### Exit codes")
    configuration = readme_section("- **Configuration**", "- **Project mode**")
    for spec in OPTIONS:
        assert any(mentions(options, name) for name in long_names(spec)), spec.flags
        if spec.config is not None:
            assert mentions(configuration, spec.config), spec.config
    # and the README's example configuration holds declared keys only
    example = re.search(r"```toml\n(.*?)```", configuration, re.S)
    assert example is not None
    table = tomllib.loads(textwrap.dedent(example.group(1)))["tool"]["hipify-py"]
    assert set(table) <= {PATHS_KEY, *(s.config for s in OPTIONS)}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_offers_the_declared_options_and_its_own_only(command: str) -> None:
    params = {p.name: p for p in COMMANDS[command].params}  # click adds --help later
    declared = {spec.name for spec in offered(command)}
    assert set(params) - declared == OWN[command]
    assert declared <= set(params)


@pytest.mark.parametrize(
    "spec", [s for s in OPTIONS if len(s.commands) > 1], ids=lambda spec: spec.name
)
def test_a_shared_option_reads_the_same_in_every_command(spec: OptionSpec) -> None:
    seen = set()
    for command in spec.commands:
        (param,) = [p for p in COMMANDS[command].params if p.name == spec.name]
        assert isinstance(param, click.Option)
        seen.add(json.dumps(param.to_info_dict(), sort_keys=True, default=str))
    assert len(seen) == 1


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_lists_what_the_command_offers(command: str) -> None:
    result = run_cli(command, "--help")
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    for spec in OPTIONS:
        # the line that lists it: "  -j, --jobs ..." or "  --project-headers / ..."
        line = rf"^  (-\w, )?{re.escape(long_names(spec)[0])}(?![\w-])"
        listed = re.search(line, text, re.M) is not None
        if command in spec.commands and not spec.hidden:
            assert listed, (command, spec.flags)
        elif spec.long_flag not in own_flags(command):
            assert not listed, (command, spec.flags)


def _good(spec: OptionSpec) -> Any:
    kind = spec.config_type
    if kind is list:
        return ["x"]
    if kind is bool:
        return True
    if kind is int:
        return 3
    return spec.choices[-1] if spec.choices else "x"


_BAD = {list: ([1], "must be a list of strings"), bool: ("yes", "must be true or false")}
_BAD.update({int: (-1, "must be a whole number >= 0"), str: (1, "must be a string")})


@pytest.mark.parametrize("spec", [s for s in OPTIONS if s.config], ids=lambda spec: spec.name)
def test_every_key_is_read_with_its_declared_type(tmp_path: Path, spec: OptionSpec) -> None:
    assert spec.config is not None
    dotfile = tmp_path / ".hipify-py.toml"
    good = _good(spec)
    dotfile.write_text(f"{spec.config} = {_toml(good)}\n")
    value = find_config(tmp_path).values[spec.name]
    assert value == (not good if spec.merge == "inverted" else good)
    bad, message = _BAD[spec.config_type]
    dotfile.write_text(f"{spec.config} = {_toml(bad)}\n")
    with pytest.raises(ConfigError, match=f"{spec.config} {message}"):
        find_config(tmp_path)
    if spec.choices:
        dotfile.write_text(f'{spec.config} = "nope"\n')
        with pytest.raises(ConfigError, match=f"must be one of {', '.join(spec.choices)}"):
            find_config(tmp_path)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return f'"{value}"' if isinstance(value, str) else str(value)


def test_every_options_field_is_fed_by_one_declared_option() -> None:
    fed = [spec.option.removeprefix("not ") for spec in OPTIONS if spec.option]
    assert len(fed) == len(set(fed))
    assert set(fed) == set(Options.__dataclass_fields__) - NOT_OPTIONS
    # the declared defaults are Options' own
    assert options_from(initial_values(), None) == Options()


def test_every_other_option_is_read_by_the_command_line() -> None:
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (REPO / "hipify_py" / "cli").glob("*.py")
        if path.name != "options.py"
    )
    for spec in OPTIONS:
        if spec.option is None:
            assert re.search(rf"[\[(]\"{spec.name}\"[\]),]", sources), f"{spec.name} is never read"


def test_gitignore_false_in_the_configuration_is_no_gitignore(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("skip.cu\n")
    for name in ("a.cu", "skip.cu"):
        (tmp_path / name).write_bytes(b"void f() { cudaFree(0); }\n")
    honoured = run_cli(".", "--check", "-q", cwd=tmp_path)
    assert b"a.cu" in honoured.stderr and b"skip.cu" not in honoured.stderr
    (tmp_path / ".hipify-py.toml").write_text("gitignore = false\n")
    ignored = run_cli(".", "--check", "-q", cwd=tmp_path)
    assert b"skip.cu" in ignored.stderr
    (tmp_path / ".hipify-py.toml").write_text("gitignore = true\n")
    flag = run_cli(".", "--check", "-q", "--no-gitignore", cwd=tmp_path)
    assert b"skip.cu" in flag.stderr  # the command line over the configuration
