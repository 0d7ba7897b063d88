"""Options every reporting command shares (--select/--ignore, --config), usage
errors that name the command typed, --format, and reading stdin (`-`) -
all through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

# cudaMalloc translates; cudaFrobnicate looks like CUDA API but is unknown (HPY102)
SRC = b"#include <cuda_runtime.h>\nvoid f(float** p) {\n  cudaMalloc(p, 4);\n  cudaFrobnicate(1);\n}\n"
OUT = b"#include <hip/hip_runtime.h>\nvoid f(float** p) {\n  hipMalloc(p, 4);\n  cudaFrobnicate(1);\n}\n"


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    path = tmp_path / "src" / "k.cu"
    path.write_bytes(SRC)
    return path


# ------------------------------------------------------ --select / --ignore


def test_report_takes_the_ignore_its_own_text_suggests(kernel: Path) -> None:
    plain = run_cli("report", str(kernel))
    assert plain.returncode == 0, plain.stderr
    assert b"--ignore HPY102" in plain.stdout and b"cudaFrobnicate" in plain.stdout
    ignored = run_cli("report", str(kernel), "--ignore", "HPY102")
    assert ignored.returncode == 0, ignored.stderr
    assert b"cudaFrobnicate" not in ignored.stdout
    selected = run_cli("report", str(kernel), "--format", "json", "--select", "HPY4")
    assert selected.returncode == 0, selected.stderr
    assert b"cudaFrobnicate" not in selected.stdout


def test_check_and_translate_take_the_same_filters(kernel: Path) -> None:
    check = run_cli("check", str(kernel), "--ignore", "HPY102", "--format", "json")
    assert b"HPY102" not in check.stdout and b"HPY100" in check.stdout
    check = run_cli("check", str(kernel), "--select", "HPY102", "--format", "json")
    assert b"HPY102" in check.stdout and b"HPY100" not in check.stdout
    translate = run_cli(str(kernel), "--check", "--ignore", "HPY102")
    assert b"HPY102" not in translate.stderr
    assert b"HPY102" in run_cli(str(kernel), "--check").stderr


@pytest.mark.parametrize("command", [[], ["check"], ["report"]])
@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_an_unknown_code_is_a_usage_error_everywhere(
    kernel: Path, command: list[str], option: str
) -> None:
    result = run_cli(*command, str(kernel), option, "HPY102,HPY999")
    assert result.returncode == 2
    assert f"{option}: unknown diagnostic code HPY999".encode() in result.stderr


@pytest.mark.parametrize("command", ["translate", "check", "report"])
def test_every_reporting_command_documents_the_filters(command: str) -> None:
    text = run_cli(command, "--help").stdout.decode()
    assert "--select CODES" in text and "--ignore CODES" in text and "--config FILE" in text


# ------------------------------------------------------------ usage errors


def test_a_bad_option_names_the_command_the_user_typed(kernel: Path) -> None:
    result = run_cli("--bogus", str(kernel))
    assert result.returncode == 2
    err = result.stderr.decode()
    assert "Usage: hipify-py [OPTIONS] [PATHS]..." in err
    assert "Try 'hipify-py --help' for help." in err
    assert "translate" not in err
    assert "No such option '--bogus'" in err
    assert kernel.read_bytes() == SRC
    # click's suggestions stay
    near = run_cli(str(kernel), "--stdot").stderr.decode()
    assert "Did you mean" in near and "--stdout" in near and "translate" not in near


@pytest.mark.parametrize("command", ["translate", "check", "report"])
def test_a_subcommand_typed_is_named(kernel: Path, command: str) -> None:
    result = run_cli(command, str(kernel), "--bogus")
    assert result.returncode == 2
    assert f"Usage: hipify-py {command} [OPTIONS]".encode() in result.stderr


def test_a_bad_value_names_the_command_typed(kernel: Path) -> None:
    result = run_cli(str(kernel), "--launch-syntax", "cuda")
    assert result.returncode == 2
    assert b"Usage: hipify-py [OPTIONS]" in result.stderr
    assert b"Invalid value for '--launch-syntax'" in result.stderr


# ------------------------------------------------- --help, --version, --format


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["translate", "--help"], ["x.cu", "-h"]])
def test_help_lists_version_help_and_format_not_the_old_name(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 0
    text = result.stdout.decode()
    assert "--version" in text and "-h, --help" in text
    assert "--format [text|json]" in text
    assert "--report-format" not in text
    assert "--stdin-filename PATH" in text


def test_version_through_translate_options() -> None:
    for args in (["--version"], ["translate", "--version"]):
        result = run_cli(*args)
        assert result.returncode == 0
        assert result.stdout.startswith(b"hipify-py ")


def test_report_format_is_a_working_hidden_alias_of_format(kernel: Path) -> None:
    new = run_cli(str(kernel), "--check", "--format", "json")
    old = run_cli(str(kernel), "--check", "--report-format", "json")
    assert new.returncode == old.returncode == 1
    assert json.loads(new.stdout) == json.loads(old.stdout)
    assert json.loads(new.stdout)["files"][0]["status"] == "changed"
    same = run_cli(str(kernel), "--check", "--format", "json", "--report-format", "json")
    assert same.returncode == 1 and json.loads(same.stdout)
    clash = run_cli(str(kernel), "--check", "--format", "text", "--report-format", "json")
    assert clash.returncode == 2
    assert b"former name of --format" in clash.stderr


# ------------------------------------------------------------------- stdin


def test_dash_reads_stdin_and_implies_stdout(tmp_path: Path) -> None:
    result = run_cli("-", input=SRC, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == OUT
    assert b"-:4:3: warning: cudaFrobnicate" in result.stderr
    assert b"summary" not in result.stderr
    explicit = run_cli("-", "--stdout", input=SRC, cwd=tmp_path)
    assert explicit.stdout == OUT
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_stdin_bytes_are_preserved(tmp_path: Path) -> None:
    # CRLF, a byte that is not UTF-8, no newline at the end
    data = b"// caf\xe9\r\nvoid f() { cudaDeviceSynchronize(); }\r\nint x = 1;"
    result = run_cli("-", "--no-runtime-include", input=data, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == data.replace(b"cudaDeviceSynchronize", b"hipDeviceSynchronize")
    binary = b"\x00\x01cudaMalloc\xff"
    passed = run_cli("-", input=binary, cwd=tmp_path)
    assert passed.stdout == binary  # not source text: it comes back as it was
    assert b"HPY" in passed.stderr


def test_stdin_filename_names_messages_and_diff(tmp_path: Path) -> None:
    result = run_cli("-", "--stdin-filename", "src/k.cu", "--diff", input=SRC, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"--- a/src/k.cu\n+++ b/src/k.cu\n")
    assert b"+  hipMalloc(p, 4);" in result.stdout
    assert b"src/k.cu:4:3: warning: cudaFrobnicate" in result.stderr
    plain = run_cli("-", "--diff", input=SRC, cwd=tmp_path)
    assert plain.stdout.startswith(b"--- a/-\n+++ b/-\n")


def test_stdin_check_exit_codes(tmp_path: Path) -> None:
    work = run_cli("-", "--check", input=SRC, cwd=tmp_path)
    assert work.returncode == 1
    assert work.stdout == b""
    assert b"would translate -" in work.stderr
    done = run_cli("-", "--check", "--ignore", "HPY102", input=OUT, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    both = run_cli("-", "--diff", "--check", input=SRC, cwd=tmp_path)
    assert both.returncode == 1 and b"+  hipMalloc" in both.stdout


def test_stdin_json_report(tmp_path: Path) -> None:
    result = run_cli("-", "--diff", "--format", "json", "--stdin-filename", "a.cu", input=SRC)
    report = json.loads(result.stdout)
    assert report["files"][0]["path"] == "a.cu"
    assert report["files"][0]["status"] == "changed"
    # with --stdout the translation owns stdout; the JSON goes to stderr
    printed = run_cli("-", "--format", "json", input=SRC, cwd=tmp_path)
    assert printed.stdout == OUT
    assert json.loads(printed.stderr)["files"][0]["path"] == "-"


def test_stdin_filename_finds_the_configuration(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.hipify-py]\nignore = ["HPY102"]\nexclude = ["vendor/"]\nlaunch-syntax = "hip"\n'
    )
    other = tmp_path / "elsewhere"
    other.mkdir()
    launch = SRC + b"__global__ void k() {}\nvoid g() { k<<<1, 1>>>(); }\n"
    named = run_cli("-", "--stdin-filename", str(project / "src" / "k.cu"), input=launch, cwd=other)
    assert named.returncode == 0, named.stderr
    assert b"HPY102" not in named.stderr
    assert b"hipLaunchKernelGGL(k" in named.stdout
    # without a name: the configuration of the current folder (none here)
    unnamed = run_cli("-", input=launch, cwd=other)
    assert b"HPY102" in unnamed.stderr and b"k<<<1, 1>>>" in unnamed.stdout
    # a name the configuration excludes comes back as it was (black --force-exclude)
    vendor = project / "vendor" / "v.cu"
    excluded = run_cli("-", "--stdin-filename", str(vendor), input=SRC, cwd=other)
    assert excluded.returncode == 0 and excluded.stdout == SRC
    # --stdin-filename alone (no path) reads stdin too, as ruff
    alone = run_cli("--stdin-filename", str(project / "src" / "k.cu"), input=SRC, cwd=other)
    assert alone.stdout == OUT


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-", "src"], b"cannot be combined with other paths"),
        (["-", "-o", "out"], b"--output-dir does not apply to `-`"),
        (["-", "--backup"], b"--backup does not apply to `-`"),
        (["src", "--stdin-filename", "k.cu"], b"--stdin-filename names stdin"),
        (["-", "--stdin-filename", "CMakeLists.txt"], b"build files are not read from stdin"),
    ],
)
def test_stdin_usage_errors(tmp_path: Path, args: list[str], message: bytes) -> None:
    (tmp_path / "src").mkdir()
    result = run_cli(*args, input=SRC, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr


def test_stdin_list_asm(tmp_path: Path) -> None:
    data = b'__global__ void k(int* o) {\n  asm volatile("mov.u32 %0, %%laneid;" : "=r"(*o));\n}\n'
    result = run_cli("-", "--list-asm", "--stdin-filename", "lane.cu", input=data, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"lane.cu:2:")


def test_stdin_with_the_clang_engine(tmp_path: Path) -> None:
    from test_semantic import FIXTURES, cuda_include

    include = cuda_include()  # skips where the CUDA headers are not provisioned
    fixture = FIXTURES / "101-shadowed-cuda-names"
    data = (fixture / "input.cu").read_bytes()
    expected = (fixture / "expected.hip").read_bytes()
    clang = ["--engine", "clang", "--cuda-path", str(include)]
    for name in ([], ["--stdin-filename", "sim/shadow.cu"]):
        result = run_cli("-", "-v", *clang, *name, input=data, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout == expected
        where = "sim/shadow.cu" if name else "-"
        assert f"{where}:8:13: ".encode() in result.stderr  # HPY707: the project's own name
    # the default engine cannot tell the project's names from CUDA's
    assert run_cli("-", input=data, cwd=tmp_path).stdout != expected


# ------------------------------------------------------------------ --config


def _two_configs(tmp_path: Path) -> tuple[Path, Path]:
    """A tree whose own configuration ignores nothing, and a CI configuration
    above it that excludes sub/ (relative to its own folder) and ignores HPY102."""
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "a.cu").write_bytes(SRC)
    (tree / "sub" / "b.cu").write_bytes(SRC)
    (tree / ".hipify-py.toml").write_text('paths = ["."]\n')
    config = tmp_path / "ci-hipify.toml"
    config.write_text('paths = ["tree"]\nexclude = ["tree/sub/"]\nignore = ["HPY102"]\n')
    return tree, config


def test_config_names_the_configuration(tmp_path: Path) -> None:
    tree, config = _two_configs(tmp_path)
    found = run_cli(str(tree), "--check", "--format", "json")
    assert len(json.loads(found.stdout)["files"]) == 2
    assert b"HPY102" in found.stdout
    named = run_cli(str(tree), "--check", "--format", "json", "--config", str(config))
    files = json.loads(named.stdout)["files"]
    assert [Path(f["path"]).name for f in files] == ["a.cu"]
    assert b"HPY102" not in named.stdout
    # its paths, relative to its own folder, when none are given
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    from_paths = run_cli("--check", "--format", "json", "--config", str(config), cwd=elsewhere)
    assert [Path(f["path"]).name for f in json.loads(from_paths.stdout)["files"]] == ["a.cu"]


def test_check_and_report_take_config(tmp_path: Path) -> None:
    tree, config = _two_configs(tmp_path)
    check = run_cli("check", str(tree), "--format", "json", "--config", str(config))
    assert b"b.cu" not in check.stdout and b"HPY102" not in check.stdout
    assert b"a.cu" in check.stdout
    report = run_cli("report", str(tree), "--format", "json", "--config", str(config))
    assert report.returncode == 0, report.stderr
    assert b"b.cu" not in report.stdout and b"cudaFrobnicate" not in report.stdout
    stdin = run_cli("-", "--config", str(config), input=SRC, cwd=tmp_path)
    assert stdin.stdout == OUT and b"HPY102" not in stdin.stderr


def test_config_reads_a_pyproject_table(tmp_path: Path, kernel: Path) -> None:
    config = tmp_path / "elsewhere" / "pyproject.toml"
    config.parent.mkdir()
    config.write_text('[tool.hipify-py]\nignore = ["HPY102"]\n')
    result = run_cli(str(kernel), "--check", "--config", str(config))
    assert result.returncode == 1 and b"HPY102" not in result.stderr
    config.write_text("[project]\nname = 'x'\n")
    result = run_cli(str(kernel), "--check", "--config", str(config))
    assert result.returncode == 2
    assert b"no [tool.hipify-py] table" in result.stderr


@pytest.mark.parametrize("command", [[], ["check"], ["report"]])
def test_a_missing_or_bad_config_is_an_error(
    tmp_path: Path, kernel: Path, command: list[str]
) -> None:
    missing = run_cli(*command, str(kernel), "--config", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2
    assert b"nope.toml: cannot read the configuration: no such file" in missing.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("exclude = [\n")
    invalid = run_cli(*command, str(kernel), "--config", str(bad))
    assert invalid.returncode == 2 and b"bad.toml: invalid TOML" in invalid.stderr
    assert kernel.read_bytes() == SRC


@pytest.mark.parametrize(
    ("key", "suggestion"),
    [
        ("exlude", "exclude"),
        ("hip_version", "hip-version"),
        ("ignor", "ignore"),
        ("launch-sintax", "launch-syntax"),
    ],
)
def test_an_unknown_key_suggests_the_nearest(
    tmp_path: Path, kernel: Path, key: str, suggestion: str
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f'{key} = ["x"]\n')
    result = run_cli(str(kernel), "--check", "--config", str(config))
    assert result.returncode == 2
    assert f"unknown key '{key}' (did you mean '{suggestion}'?)".encode() in result.stderr
    # the same for a configuration that is found, in every command
    (kernel.parent / "pyproject.toml").write_text(f'[tool.hipify-py]\n{key} = ["x"]\n')
    found = run_cli("check", str(kernel))
    assert found.returncode == 2
    assert f"did you mean '{suggestion}'?".encode() in found.stderr
