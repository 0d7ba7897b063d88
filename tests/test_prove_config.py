"""hipify-py prove's configuration: smoke.toml or [tool.hipify-py.smoke], and
errors that name the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_cli

from hip_smoke.prove_config import ProveConfigError, find_smoke_config, load_smoke_config

GOOD = """\
runs = 3
rtol = 1e-6

[[program]]
name = "saxpy"
sources = ["saxpy.cu"]
seed = 42
args = ["--seed", "{seed}"]
env = { MY_SEED = "{seed}" }
ignore = ['^elapsed']

[[program]]
name = "gemm"
build = "{cc} {flags} gemm.cu -o {out} {libs}"
libraries = ["cublas"]
runs = 1
exit-code = "any"
files = ["out.txt"]
"""


def _project(tmp_path: Path, text: str, name: str = "smoke.toml") -> Path:
    for source in ("saxpy.cu", "gemm.cu"):
        (tmp_path / source).write_text("int main() { return 0; }\n")
    path = tmp_path / name
    path.write_text(text)
    return path


def test_programs_inherit_the_defaults_and_get_the_seed(tmp_path: Path) -> None:
    config = load_smoke_config(_project(tmp_path, GOOD), {"cublas"})
    saxpy, gemm = config.programs
    assert (saxpy.runs, saxpy.rules.rtol, saxpy.line) == (3, 1e-6, 4)
    assert saxpy.argv() == ["--seed", "42"]
    assert saxpy.environment() == {"MY_SEED": "42"}
    assert saxpy.rules.ignore == ("^elapsed",)
    assert (gemm.runs, gemm.rules.exit_code, gemm.rules.files) == (1, None, ("out.txt",))
    assert gemm.build is not None and gemm.libraries == ("cublas",)
    assert config.root == tmp_path.resolve()


def test_pyproject_table_and_its_translate_options_side_by_side(tmp_path: Path) -> None:
    text = '[tool.hipify-py]\nhip-version = "6.2"\n\n' + "\n".join(
        line.replace("[[program]]", "[[tool.hipify-py.smoke.program]]")
        for line in ("[tool.hipify-py.smoke]\n" + GOOD).splitlines()
    )
    path = _project(tmp_path, text, "pyproject.toml")
    config = load_smoke_config(path, {"cublas"})
    assert [p.name for p in config.programs] == ["saxpy", "gemm"]
    assert config.translate_config == path
    assert find_smoke_config(tmp_path) == path
    # the translate run reads the same file: the smoke table is not an unknown key
    (tmp_path / "k.cu").write_text("void f() { cudaDeviceSynchronize(); }\n")
    done = run_cli("k.cu", "--stdout", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert b"hipDeviceSynchronize" in done.stdout


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (("seed = 42", "sed = 42"), 7, "unknown key 'sed' (did you mean 'seed'?)"),
        (("runs = 1", "runs = 0"), 16, "runs must be a whole number from 1 to 20, got 0"),
        (("rtol = 1e-6", "rtol = -1"), 2, "rtol must be a number >= 0, got -1"),
        (('"saxpy.cu"', '"nothere.cu"'), 6, "saxpy: source 'nothere.cu' does not exist"),
        (("'^elapsed'", "'(unclosed'"), 10, "saxpy: bad regular expression '(unclosed' in ignore"),
        (('name = "gemm"', 'name = "saxpy"'), 13, "program 'saxpy' is also declared at line 4"),
        (('"cublas"', '"cublass"'), 15, "gemm: unknown library 'cublass'"),
        (("{out} {libs}", "{libs}"), 14, "gemm: build must contain {out}"),
        (("{out} {libs}", "{out} {cxx}"), 14, "unknown placeholder(s) {cxx}"),
        (('sources = ["saxpy.cu"]', ""), 4, "saxpy: give either sources"),
        (('args = ["--seed", "{seed}"]', 'args = "--seed"'), 8, "args must be a list of strings"),
        (
            ('exit-code = "any"', 'exit-code = "none"'),
            17,
            'exit-code must be a whole number or "any"',
        ),
        (("runs = 3", "runs = [3"), 2, "invalid TOML"),
    ],
)
def test_bad_configuration_names_file_and_line(
    tmp_path: Path, change: tuple[str, str], line: int, message: str
) -> None:
    path = _project(tmp_path, GOOD.replace(*change))
    with pytest.raises(ProveConfigError) as caught:
        load_smoke_config(path, {"cublas"})
    assert str(caught.value).startswith(f"{path}:{line}: "), str(caught.value)
    assert message in str(caught.value)


def test_the_command_reports_a_bad_configuration_with_exit_2(tmp_path: Path) -> None:
    path = _project(tmp_path, GOOD.replace("timeout", "").replace("seed = 42", "timeout = 0"))
    done = run_cli("prove", "--config", str(path), "--compile-only")
    assert done.returncode == 2
    assert f"{path}:7: timeout must be a number > 0, got 0" in done.stderr.decode()
    # the same through the alias
    done = run_cli("smoke", "--project", "--config", str(path))
    assert done.returncode == 2
    assert f"{path}:7: timeout" in done.stderr.decode()


def test_no_configuration_and_unknown_program_names(tmp_path: Path) -> None:
    done = run_cli("prove", "--compile-only", cwd=tmp_path)
    assert done.returncode == 2
    assert "no smoke.toml" in done.stderr.decode()
    _project(tmp_path, GOOD)
    done = run_cli("prove", "nosuch", "--compile-only", cwd=tmp_path)
    assert done.returncode == 2
    assert "unknown program name(s): nosuch" in done.stderr.decode()
    assert "saxpy, gemm" in done.stderr.decode()


def test_the_shipped_example_loads() -> None:
    config = load_smoke_config(REPO / "examples" / "prove" / "smoke.toml", {"cublas"})
    assert [p.name for p in config.programs] == ["saxpy", "histogram", "gemm_cublas"]
