"""The clang engine (--engine clang, hipify_py/semantic), with the real
libclang wheel and the real CUDA 12.4 headers of the NVIDIA root that
hip_smoke provisions (CI: .ci/run; elsewhere these tests skip, saying how to
provision; with HIPIFY_PY_REQUIRE_TOOLCHAIN=1 they fail instead).

Fixtures: tests/semantic_fixtures/NNN-name/ hold input.cu, the clang
engine's expected.hip (reviewed by hand), optional headers under include/ and
meta.yaml: description, kind ("agree": the default engine gives the same
output and the same diagnostics apart from the clang engine's own HPY70x;
"clang-only": the default engine gets it wrong), flags (defines,
include-dirs, std), the clang engine's diagnostics, compile ("tu": the
expected output compiles with hipcc for gfx942) and, for clang-only ones,
default-compiles (whether the default engine's output compiles).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO, run_cli
from toolchain_support import amd_compiler

from hip_smoke.toolchain import complete_root
from hipify_py import Options, load_table, translate_bytes

FIXTURES = Path(__file__).resolve().parent / "semantic_fixtures"
DIRS = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
META_KEYS = {"description", "kind", "flags", "diagnostics", "compile"}


def _require(what: str) -> None:
    if os.environ.get("HIPIFY_PY_REQUIRE_TOOLCHAIN") == "1":
        pytest.fail(f"{what} (CI provisions it: .ci/run)")
    pytest.skip(what)


def cuda_include() -> Path:
    """The real CUDA 12.4 headers, and the libclang wheel, or skip (fail in CI)."""
    if importlib.util.find_spec("clang") is None:
        _require("the libclang wheel is not installed (pip install 'hipify-py[clang]')")
    root = complete_root("nvidia")
    if root is None:
        _require("no CUDA 12.4 root (python -m hip_smoke --provision nvidia)")
    assert root is not None
    return root / "usr" / "include"


@cache
def _setup(flags: tuple[tuple[str, tuple[str, ...]], ...], cache_dir: str) -> Any:
    from hipify_py.semantic import ClangSettings, SetupError, prepare

    values = dict(flags)
    try:
        return prepare(
            ClangSettings(
                include_dirs=values.get("include-dirs", ()),
                defines=values.get("defines", ()),
                std=(values.get("std") or (None,))[0],
                cuda_path=cuda_include(),
            ),
            Path(cache_dir),
        )
    except SetupError as exc:
        _require(str(exc))


def clang_setup(**flags: Any) -> Any:
    cuda_include()
    key = tuple(
        sorted((k, tuple(v) if isinstance(v, list | tuple) else (v,)) for k, v in flags.items())
    )
    return _setup(key, os.environ["HIPIFY_PY_CACHE_DIR"])


def meta_of(folder: Path) -> dict[str, Any]:
    meta = yaml.safe_load((folder / "meta.yaml").read_text(encoding="utf-8"))
    assert isinstance(meta, dict)
    return meta


def setup_for(folder: Path, meta: dict[str, Any]) -> Any:
    flags = dict(meta["flags"])
    if "include-dirs" in flags:
        flags["include-dirs"] = [str((folder / d).resolve()) for d in flags["include-dirs"]]
    return clang_setup(**flags)


def positions(result: Any, skip: str = "") -> list[str]:
    ordered = sorted(result.diagnostics, key=lambda d: (d.line, d.column, d.code))
    return [
        f"{d.code} {d.line}:{d.column}" for d in ordered if not (skip and d.code.startswith(skip))
    ]


def test_fixture_layout() -> None:
    """(No toolchain needed.)"""
    kinds = {meta_of(d)["kind"] for d in DIRS}
    assert kinds == {"agree", "clang-only"}
    for folder in DIRS:
        meta = meta_of(folder)
        assert META_KEYS <= set(meta) <= META_KEYS | {"default-compiles"}, folder.name
        assert (folder / "input.cu").is_file() and (folder / "expected.hip").is_file()
        assert set(meta["flags"]) <= {"defines", "include-dirs", "std"}, folder.name
        assert meta["compile"] in ("tu", "none")
        assert ("default-compiles" in meta) == (meta["kind"] == "clang-only"), folder.name


@pytest.mark.parametrize("folder", DIRS, ids=[d.name for d in DIRS])
def test_semantic_fixture(folder: Path) -> None:
    from hipify_py.semantic import translate_file

    meta = meta_of(folder)
    setup = setup_for(folder, meta)
    table = load_table()
    source = folder / "input.cu"
    data = source.read_bytes()
    expected = (folder / "expected.hip").read_bytes()
    result = translate_file(source, data, table, Options(), setup)
    assert result.text == expected.decode(), folder.name
    assert positions(result) == meta["diagnostics"]
    default = translate_bytes(data, table, Options())
    if meta["kind"] == "agree":
        assert default.data == expected
        assert positions(default) == positions(result, skip="HPY70")
        # translating the output again changes nothing (the output includes HIP
        # headers, which the clang engine's CUDA parse does not have)
        assert translate_bytes(expected, table, Options()).data == expected
    else:
        assert default.data != expected, "the default engine gets this right too"


def test_precompiled_headers_change_no_answer() -> None:
    from dataclasses import replace

    from hipify_py.semantic import analyse

    table = load_table()
    for folder in DIRS:
        setup = setup_for(folder, meta_of(folder))
        assert setup.pch_dir
        source = folder / "input.cu"
        data = source.read_bytes()
        with_pch = analyse(source, data, setup, table, Options())
        without = analyse(source, data, replace(setup, pch_dir=""), table, Options())
        assert with_pch == without, folder.name
    assert list(Path(setup.pch_dir).glob("*.pch"))


COMPILED = [d for d in DIRS if meta_of(d)["compile"] == "tu"]


@pytest.mark.parametrize("folder", COMPILED, ids=[d.name for d in COMPILED])
def test_semantic_fixture_compiles_for_gfx942(folder: Path) -> None:
    """The clang engine's output compiles with hipcc 5.7.1; where the fixture
    says so, the default engine's output does not (it is wrong, not merely
    different)."""
    from hipify_py.semantic import translate_file

    compiler = amd_compiler()
    meta = meta_of(folder)
    setup = setup_for(folder, meta)
    table = load_table()
    default = translate_bytes((folder / "input.cu").read_bytes(), table, Options()).data
    units = [("clang", (folder / "expected.hip").read_bytes(), True)]
    if meta["kind"] == "clang-only":
        units.append(("default", default, meta["default-compiles"]))
    headers = sorted((folder / "include").glob("*.h"))
    for engine, code, compiles in units:
        with compiler.workspace() as work:
            (work / "include").mkdir()
            for header in headers:  # translated too, by the same engine (project mode)
                data = header.read_bytes()
                done = (
                    translate_file(header, data, table, Options(), setup)
                    if engine == "clang"
                    else translate_bytes(data, table, Options())
                )
                (work / "include" / header.name).write_bytes(done.data)
            (work / "unit.hip").write_bytes(code)
            done = compiler.run(
                ["--offload-arch=gfx942", "-x", "hip", "-Iinclude", "-c", "unit.hip", "-o", "u.o"],
                cwd=work,
            )
        assert (done.returncode == 0) == compiles, f"{engine}: {done.stderr[-3000:]}"


# --------------------------------------------------------------------------- the CLI


def _golden_without_options() -> list[Path]:
    found = []
    for folder in sorted((REPO / "fixtures").iterdir()):
        inputs = list(folder.glob("input.*"))
        meta = folder / "meta.yaml"
        if len(inputs) == 1 and meta.is_file() and not yaml.safe_load(meta.read_text())["options"]:
            found.append(inputs[0])
    return found


def test_clang_engine_agrees_with_every_golden_fixture_with_jobs(tmp_path: Path) -> None:
    """The golden fixtures (those with default options), through the CLI with
    --engine clang and two worker processes: every output is the reviewed
    expected one (files that do not compile fall back, HPY701), and the
    diagnostics are the default engine's plus the clang engine's own."""
    include = cuda_include()
    clang_setup()
    inputs = _golden_without_options()
    assert len(inputs) > 50
    tree = tmp_path / "tree"
    for source in inputs:
        target = tree / source.parent.name / source.name
        target.parent.mkdir(parents=True)
        shutil.copyfile(source, target)
    done = run_cli(
        str(tree),
        "-o",
        str(tmp_path / "out"),
        "--engine",
        "clang",
        "--cuda-path",
        str(include),
        "--jobs",
        "2",
        "--report-format",
        "json",
        "--no-project-headers",
    )
    assert done.returncode in (0, 1), done.stderr.decode()[-3000:]
    report = json.loads(done.stdout)
    by_file = {Path(f["path"]).parent.name: f for f in report["files"]}
    table = load_table()
    fell_back = 0
    for source in inputs:
        name = source.parent.name
        expected = next(source.parent.glob("expected.*")).read_bytes()
        written = tmp_path / "out" / name / source.name
        assert written.read_bytes() == expected, name
        codes = [d["code"] for d in by_file[name]["diagnostics"]]
        fell_back += "HPY701" in codes
        default = translate_bytes(source.read_bytes(), table, Options())
        # HPY102 depends on the names the other files of a run define
        ours = sorted(
            (d["code"], d["line"], d["column"])
            for d in by_file[name]["diagnostics"]
            if not d["code"].startswith(("HPY70", "HPY102"))
        )
        theirs = sorted(
            (d.code, d.line, d.column) for d in default.diagnostics if d.code != "HPY102"
        )
        assert ours == theirs, name
    assert fell_back < len(inputs) // 5  # most of them compile with the real headers


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / "include").mkdir(parents=True)
    (project / "include" / "alloc.h").write_text(
        "#pragma once\n#define GPU_ALLOC(p, n) cudaMalloc(&(p), (n))\n"
    )
    (project / "main.cu").write_text(
        "#include <cuda_runtime.h>\n"
        '#include "alloc.h"\n'
        "int main() {\n"
        "  void* p = nullptr;\n"
        "  GPU_ALLOC(p, 16);\n"
        "#ifdef USE_STREAMS\n"
        "  cudaStream_t s;\n"
        "  cudaStreamCreate(&s);\n"
        "#endif\n"
        "  return 0;\n"
        "}\n"
    )
    return project


def test_cli_include_dirs_defines_and_std(tmp_path: Path) -> None:
    include = cuda_include()
    clang_setup()
    project = _project(tmp_path)
    base = ("main.cu", "--stdout", "-v", "--engine", "clang", "--cuda-path", str(include))
    missing = run_cli(*base, cwd=project)
    assert missing.returncode == 0
    assert b"alloc.h' file not found" in missing.stderr and b"[HPY701]" in missing.stderr
    assert b"hipMalloc" not in missing.stdout and b"hipStreamCreate(&s)" in missing.stdout

    found = run_cli(*base, "-I", "include", "--std", "c++17", cwd=project)
    err = found.stderr.decode()
    assert found.returncode == 0, err
    assert "main.cu:5:3: info: GPU_ALLOC expands to CUDA API (cudaMalloc)" in err
    assert "alloc.h:2" in err
    assert "lines 7-8 (after #ifdef USE_STREAMS): not compiled" in err
    assert b"hipStreamCreate(&s)" in found.stdout  # translated all the same

    defined = run_cli(*base, "-I", "include", "-D", "USE_STREAMS", cwd=project)
    assert defined.returncode == 0 and b"HPY705" not in defined.stderr

    bad_std = run_cli(*base, "-I", "include", "--std", "c++98", cwd=project)
    assert b"[HPY701]" in bad_std.stderr  # nvcc-style CUDA does not parse as C++98


def test_cli_compile_commands(tmp_path: Path) -> None:
    include = cuda_include()
    clang_setup()
    project = _project(tmp_path)
    build = project / "build"
    build.mkdir()
    (build / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(build),
                    "file": "../main.cu",
                    "command": "nvcc -I../include -DUSE_STREAMS -Xcompiler -Wall -gencode arch=compute_80,code=sm_80 -c ../main.cu -o main.o",
                }
            ]
        )
    )
    done = run_cli(
        "main.cu",
        "--stdout",
        "-v",
        "--engine",
        "clang",
        "--cuda-path",
        str(include),
        "-p",
        "build",
        cwd=project,
    )
    err = done.stderr.decode()
    assert done.returncode == 0, err
    assert "HPY701" not in err and "HPY705" not in err and "GPU_ALLOC expands" in err
    assert "flags from" in err and "compile_commands.json" in err


def test_cli_configuration_keys(tmp_path: Path) -> None:
    include = cuda_include()
    clang_setup()
    project = _project(tmp_path)
    (project / "pyproject.toml").write_text(
        "[tool.hipify-py]\n"
        'engine = "clang"\n'
        'include-dirs = ["include"]\n'
        'defines = ["USE_STREAMS"]\n'
        'std = "c++17"\n'
        f'cuda-path = "{include}"\n'
    )
    done = run_cli("main.cu", "--stdout", "-v", cwd=project)
    err = done.stderr.decode()
    assert done.returncode == 0, err
    assert "GPU_ALLOC expands" in err and "HPY705" not in err and "HPY701" not in err
    default = run_cli("main.cu", "--stdout", "-v", "--engine", "default", cwd=project)
    assert b"HPY702" not in default.stderr and default.stdout == done.stdout


def test_cli_usage_errors(tmp_path: Path) -> None:
    source = tmp_path / "k.cu"
    source.write_text("cudaError_t e = cudaDeviceSynchronize();\n")
    for flags in (
        ["-D", "X"],
        ["--std", "c++17"],
        ["--cuda-path", str(tmp_path)],
        ["-p", str(tmp_path)],
    ):
        done = run_cli(str(source), "--stdout", *flags)
        assert done.returncode == 2
        assert b"only apply with --engine clang" in done.stderr
    if importlib.util.find_spec("clang") is None:
        return
    nowhere = run_cli(str(source), "--stdout", "--engine", "clang", "--cuda-path", str(tmp_path))
    assert nowhere.returncode == 2 and b"no usable CUDA headers" in nowhere.stderr
    assert nowhere.stdout == b""
    bad = run_cli(
        str(source), "--stdout", "--engine", "clang", "--clang-resource-dir", str(tmp_path)
    )
    assert bad.returncode == 2 and b"__clang_cuda_runtime_wrapper.h" in bad.stderr
    no_db = run_cli(str(source), "--stdout", "--engine", "clang", "-p", str(tmp_path))
    assert no_db.returncode == 2


def test_default_engine_start_up_does_not_import_libclang(tmp_path: Path) -> None:
    source = tmp_path / "one.cu"
    source.write_text("#include <cuda_runtime.h>\nint main() { cudaDeviceSynchronize(); }\n")
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['hipify-py', {str(source)!r}, '--check', '-q']\n"
        "try:\n    runpy.run_module('hipify_py', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules\n"
        "          if m.split('.')[0] == 'clang' or m.startswith('hipify_py.semantic.')]\n"
        "print(loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


# --------------------------------------------------------------------------- the cache


def test_result_cache_key_and_dependencies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hipify_py.project.result_cache import ResultCache
    from hipify_py.semantic import analysis, translate_file
    from hipify_py.semantic.translate import cache_key

    project = _project(tmp_path)
    setup = clang_setup(**{"include-dirs": [str(project / "include")]})
    other = clang_setup(**{"include-dirs": [str(project / "include")], "defines": ["USE_STREAMS"]})
    table = load_table()
    cache = ResultCache(table, tmp_path / "cache")
    source = project / "main.cu"
    data = source.read_bytes()
    calls: list[Path] = []
    real = analysis.analyse

    def counted(*args: Any) -> Any:
        calls.append(args[0])
        return real(*args)

    monkeypatch.setattr(analysis, "analyse", counted)
    first = translate_file(source, data, table, Options(), setup, cache)
    again = translate_file(source, data, table, Options(), setup, cache)
    assert len(calls) == 1 and again.data == first.data and again.diagnostics == first.diagnostics
    # other flags, another engine, another path: other keys
    key = cache_key(cache, source, data, Options(), setup)
    assert key != cache_key(cache, source, data, Options(), other)
    assert key != cache.key("result", "x", Options())
    copy = project / "copy.cu"
    copy.write_bytes(data)
    assert key != cache_key(cache, copy, data, Options(), setup)
    translate_file(source, data, table, Options(), other, cache)
    assert len(calls) == 2
    # a header the unit read changed: the entry is not used
    header = project / "include" / "alloc.h"
    header.write_text(header.read_text().replace("cudaMalloc", "cudaMallocManaged"))
    changed = translate_file(source, data, table, Options(), setup, cache)
    assert len(calls) == 3
    assert any("cudaMallocManaged" in d.message for d in changed.diagnostics)
    # a file that fell back is not cached (its missing header may appear)
    lost = project / "lost.cu"
    lost.write_text('#include "nowhere.h"\nint main() { cudaDeviceSynchronize(); }\n')
    for _ in range(2):
        translate_file(lost, lost.read_bytes(), table, Options(), setup, cache)
    assert len(calls) == 5


def test_cli_cache_separates_the_engines(tmp_path: Path) -> None:
    include = cuda_include()
    clang_setup()
    project = _project(tmp_path)
    env = {"HIPIFY_PY_CACHE_DIR": str(tmp_path / "cache")}
    args = ("main.cu", "--stdout", "-v", "-I", "include")
    plain = run_cli(*args, cwd=project, env=env)
    clang = run_cli(*args, "--engine", "clang", "--cuda-path", str(include), cwd=project, env=env)
    again = run_cli(*args, "--engine", "clang", "--cuda-path", str(include), cwd=project, env=env)
    assert b"HPY702" not in plain.stderr
    assert b"HPY702" in clang.stderr and clang.stderr == again.stderr
    assert plain.stdout == clang.stdout == again.stdout


# --------------------------------------------------------------------------- parts


def test_compile_database_flags(tmp_path: Path) -> None:
    from hipify_py.semantic.compile_db import kept_flags, load_compile_database

    words = [
        "-Iinc",
        "-I",
        "/abs",
        "-isystem",
        "sys",
        "-DA=1",
        "-D",
        "B",
        "-UC",
        "--std=c++17",
        "-O2",
        "-Xcompiler",
        "-fPIC",
        "-gencode",
        "arch=compute_80,code=sm_80",
        "-include",
        "pre.h",
        "--include-path=more",
        "-o",
        "x.o",
    ]
    assert kept_flags(words, tmp_path) == [
        f"-I{tmp_path / 'inc'}",
        "-I/abs",
        "-isystem",
        str(tmp_path / "sys"),
        "-DA=1",
        "-DB",
        "-UC",
        "-std=c++17",
        "-include",
        str(tmp_path / "pre.h"),
        f"-I{tmp_path / 'more'}",
    ]
    (tmp_path / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(tmp_path),
                    "file": "a/x.cu",
                    "arguments": ["nvcc", "-DX", "-c", "a/x.cu"],
                },
                {"directory": str(tmp_path), "file": "b/y.cu", "command": "clang++ -DY -c b/y.cu"},
            ]
        )
    )
    database = load_compile_database(tmp_path)
    assert database.flags_for(tmp_path / "a" / "x.cu") == ["-DX"]
    assert database.flags_for(tmp_path / "b" / "new.cu") == ["-DY"]  # its neighbour's
    with pytest.raises(LookupError):
        load_compile_database(tmp_path / "a")


def _fake_cuda(folder: Path, version: int, texture: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "cuda.h").write_text(f"#define CUDA_VERSION {version}\n")
    (folder / "cuda_runtime.h").write_text("\n")
    if texture:
        (folder / "texture_fetch_functions.h").write_text("\n")
    return folder


def test_cuda_headers_are_found_and_viewed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hipify_py.semantic.cuda_view import find_cuda_headers

    wrapper = tmp_path / "wrapper.h"
    wrapper.write_text('#include "texture_fetch_functions.h"\n')
    new = _fake_cuda(tmp_path / "cuda13" / "include", 13000, texture=False)
    old = _fake_cuda(tmp_path / "root" / "usr" / "include", 12040, texture=True)
    (old / "stdio.h").write_text("\n")  # a mixed folder, as Debian's /usr/include
    (old / "cublas_v2.h").write_text("\n")
    monkeypatch.setenv(
        "HIPIFY_PY_CUDA_INCLUDE",
        os.pathsep.join([str(new / "cuda.h"), str(old / "cuda.h"), str(old / "cublas_v2.h")]),
    )
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.delenv("CUDA_HOME", raising=False)
    found = find_cuda_headers(None, tmp_path / "cache", wrapper)
    assert found.version == "12.4" and found.include_dirs == (str(old),)
    view = Path(found.install) / "include"
    assert sorted(p.name for p in view.iterdir()) == [
        "cublas_v2.h",
        "cuda.h",
        "cuda_runtime.h",
        "texture_fetch_functions.h",
    ]
    assert (Path(found.install) / "bin").is_dir()
    # named by the user: used as it is, even where clang's wrapper will not cope
    named = find_cuda_headers(new.parent, tmp_path / "cache", wrapper)
    assert named.version == "13.0"
    with pytest.raises(LookupError, match="no usable CUDA headers"):
        find_cuda_headers(tmp_path / "nothing", tmp_path / "cache", wrapper)
