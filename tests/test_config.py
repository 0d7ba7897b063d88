"""[tool.hipify-py] / .hipify-py.toml: found, applied, overridden, validated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from hipify_py.project.config import ConfigError, find_config

SRC = b"void f() { cudaFree(0); }\nvoid g() { cudaFrob(); }\n"


def project(tmp_path: Path, config: str, name: str = "pyproject.toml") -> Path:
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "a.cu").write_bytes(SRC)
    (tmp_path / "src" / "sub" / "b.cu").write_bytes(SRC)
    (tmp_path / name).write_text(config)
    return tmp_path


def test_paths_and_options_come_from_pyproject(tmp_path: Path) -> None:
    root = project(
        tmp_path, '[tool.hipify-py]\npaths = ["src"]\nexclude = ["sub/"]\nignore = ["HPY102"]\n'
    )
    result = run_cli("--check", "--report-format", "json", cwd=root)
    assert result.returncode == 1
    files = json.loads(result.stdout)["files"]
    assert [Path(f["path"]).name for f in files] == ["a.cu"]
    assert all(d["code"] != "HPY102" for f in files for d in f["diagnostics"])


def test_command_line_overrides_the_file(tmp_path: Path) -> None:
    root = project(
        tmp_path, '[tool.hipify-py]\npaths = ["src"]\nignore = ["HPY102"]\nhip-version = "5.7"\n'
    )
    result = run_cli("--check", "--ignore", "HPY101", "--report-format", "json", cwd=root)
    codes = {d["code"] for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]}
    assert "HPY102" in codes  # the flag replaced the file's ignore list


def test_dotfile_fallback(tmp_path: Path) -> None:
    root = project(tmp_path, 'paths = ["src/a.cu"]\nlaunch-syntax = "hip"\n', ".hipify-py.toml")
    result = run_cli("--check", "--report-format", "json", cwd=root)
    assert [Path(f["path"]).name for f in json.loads(result.stdout)["files"]] == ["a.cu"]


def test_pyproject_without_the_table_falls_back_to_the_dotfile(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / ".hipify-py.toml").write_text("roc = true\n")
    assert find_config(tmp_path).values == {"roc": True}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tool.hipify-py]\nbogus = 1\n", "unknown key [tool.hipify-py].'bogus'"),
        ("[tool.hipify-py]\nroc = 'yes'\n", "roc must be true or false"),
        ("[tool.hipify-py]\nlaunch-syntax = 'cuda'\n", "launch-syntax must be one of keep, hip"),
        ("[tool.hipify-py]\nexclude = [1]\n", "exclude must be a list of strings"),
        ("[tool.hipify-py\n", "invalid TOML"),
    ],
)
def test_bad_configuration_is_an_error_naming_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ConfigError, match=r"pyproject\.toml") as info:
        find_config(tmp_path)
    assert message in str(info.value)
    result = run_cli(str(tmp_path), "--check", cwd=tmp_path)
    assert result.returncode == 2
    assert message.encode() in result.stderr


def test_config_is_found_from_a_subfolder(tmp_path: Path) -> None:
    root = project(tmp_path, '[tool.hipify-py]\nhip-version = "5.7"\n')
    assert find_config(root / "src" / "sub").values == {"hip_version": "5.7"}
