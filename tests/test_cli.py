"""The command line, through a real subprocess: every write mode and exit code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli

KERNEL = b"""#include <cuda_runtime.h>
__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }
int main() {
  float* d;
  cudaMalloc((void**)&d, 64 * sizeof(float));
  scale<<<1, 64>>>(d, 2.0f);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
"""
UNSUPPORTED = b"void f() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }\n"
PLAIN = b"int add(int a, int b) { return a + b; }\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "kernel.cu").write_bytes(KERNEL)
    (src / "sub" / "plain.cpp").write_bytes(PLAIN)
    (src / "notes.txt").write_bytes(b"cudaMalloc in a text file is not source\n")
    return src


def test_in_place_is_the_default(tree: Path) -> None:
    result = run_cli(str(tree))
    assert result.returncode == 0, result.stderr
    out = (tree / "kernel.cu").read_bytes()
    assert b"hipMalloc" in out and b"cudaMalloc" not in out
    assert b"#include <hip/hip_runtime.h>" in out
    assert (tree / "sub" / "plain.cpp").read_bytes() == PLAIN
    assert (tree / "notes.txt").read_bytes().startswith(b"cudaMalloc")
    assert b"summary" in result.stderr


def test_backup_keeps_the_original(tree: Path) -> None:
    result = run_cli(str(tree), "--backup")
    assert result.returncode == 0
    assert (tree / "kernel.cu.orig").read_bytes() == KERNEL
    assert b"hipMalloc" in (tree / "kernel.cu").read_bytes()


def test_stdout_prints_one_file_and_writes_nothing(tree: Path) -> None:
    result = run_cli(str(tree / "kernel.cu"), "--stdout")
    assert result.returncode == 0
    assert b"hipMalloc((void**)&d" in result.stdout
    assert (tree / "kernel.cu").read_bytes() == KERNEL


def test_stdout_refuses_several_files(tree: Path) -> None:
    result = run_cli(str(tree), "--stdout")
    assert result.returncode == 2
    assert b"exactly one file" in result.stderr


def test_diff_writes_nothing(tree: Path) -> None:
    result = run_cli(str(tree), "--diff")
    assert result.returncode == 0
    assert b"-  cudaMalloc((void**)&d" in result.stdout
    assert b"+  hipMalloc((void**)&d" in result.stdout
    assert (tree / "kernel.cu").read_bytes() == KERNEL


def test_check_exits_1_when_work_remains_then_0(tree: Path) -> None:
    first = run_cli(str(tree), "--check")
    assert first.returncode == 1
    assert b"would translate" in first.stderr
    assert (tree / "kernel.cu").read_bytes() == KERNEL
    assert run_cli(str(tree)).returncode == 0
    assert run_cli(str(tree), "--check").returncode == 0


def test_check_exits_1_on_unsupported_api(tmp_path: Path) -> None:
    file = tmp_path / "u.cu"
    file.write_bytes(UNSUPPORTED)
    result = run_cli(str(file), "--check")
    assert result.returncode == 1
    assert b"HPY101" in result.stderr
    assert f"{file.name}:1:".encode() in result.stderr


def test_strict_fails_only_on_unsupported(tmp_path: Path) -> None:
    file = tmp_path / "u.cu"
    file.write_bytes(UNSUPPORTED)
    assert run_cli(str(file)).returncode == 0
    assert run_cli(str(file), "--strict").returncode == 1
    ok = tmp_path / "ok.cu"
    ok.write_bytes(KERNEL)
    assert run_cli(str(ok), "--strict").returncode == 0


def test_output_dir_mirrors_sources_only(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli(str(tree), "--output-dir", str(out))
    assert result.returncode == 0, result.stderr
    assert (out / "kernel.cu").is_file()
    assert (out / "sub" / "plain.cpp").read_bytes() == PLAIN
    assert not (out / "notes.txt").exists()
    assert (tree / "kernel.cu").read_bytes() == KERNEL
    copied = run_cli(str(tree), "--output-dir", str(out), "--copy-all")
    assert copied.returncode == 0
    assert (out / "notes.txt").is_file()


def test_output_dir_inside_input_is_refused(tree: Path) -> None:
    result = run_cli(str(tree), "-o", str(tree / "hip"))
    assert result.returncode == 2
    assert b"inside the input" in result.stderr
    same = run_cli(str(tree), "-o", str(tree))
    assert same.returncode == 2
    assert b"is the input folder" in same.stderr


def test_missing_path_is_an_error_but_others_are_processed(tree: Path) -> None:
    result = run_cli(str(tree / "nope.cu"), str(tree))
    assert result.returncode == 2
    assert b"nope.cu: no such file or folder" in result.stderr
    assert b"hipMalloc" in (tree / "kernel.cu").read_bytes()


def test_usage_errors_exit_2(tree: Path) -> None:
    assert run_cli().returncode == 2
    assert run_cli(str(tree), "--stdout", "--diff").returncode == 2
    assert run_cli(str(tree), "--launch-syntax", "bogus").returncode == 2
    bad_version = run_cli(str(tree), "--hip-version", "six")
    assert bad_version.returncode == 2
    assert b"--hip-version" in bad_version.stderr


def test_help_lists_options_and_exit_codes() -> None:
    for args in (["--help"], ["translate", "--help"]):
        result = run_cli(*args)
        assert result.returncode == 0
        text = result.stdout.decode()
        for option in (
            "--stdout",
            "--diff",
            "--check",
            "--output-dir",
            "--jobs",
            "--launch-syntax",
            "--hip-version",
            "--exclude",
            "--extensions",
            "--stats",
            "--format",
        ):
            assert option in text, option
        assert "Exit codes" in text


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.startswith(b"hipify-py ")


def test_json_report(tree: Path) -> None:
    result = run_cli(str(tree), "--check", "--report-format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    files = {f["path"]: f for f in report["files"]}
    kernel = next(v for k, v in files.items() if k.endswith("kernel.cu"))
    assert kernel["status"] == "changed"
    assert report["summary"]["stats"]["converted"] == 4  # header + 3 calls
    assert report["summary"]["stats"]["by_library"]["runtime"]["converted"] >= 3


def test_stats_table(tree: Path) -> None:
    result = run_cli(str(tree), "--diff", "--stats")
    assert result.returncode == 0
    err = result.stderr.decode()
    assert "references by library" in err
    assert "runtime" in err
    assert "lines changed" in err


def test_quiet_prints_only_errors(tmp_path: Path) -> None:
    file = tmp_path / "u.cu"
    file.write_bytes(b"void f() { cudaFooBarNotAnApi(); }\n" + UNSUPPORTED)
    loud = run_cli(str(file), "--diff")
    assert b"HPY102" in loud.stderr  # warning: unknown CUDA-like name
    quiet = run_cli(str(file), "--diff", "-q")
    assert b"HPY102" not in quiet.stderr
    assert b"HPY101" in quiet.stderr
    assert b"summary" not in quiet.stderr


def test_select_and_ignore(tmp_path: Path) -> None:
    file = tmp_path / "u.cu"
    file.write_bytes(b"void f() { cudaFooBarNotAnApi(); }\n" + UNSUPPORTED)
    ignored = run_cli(str(file), "--check", "--ignore", "HPY101")
    assert b"HPY101" not in ignored.stderr
    selected = run_cli(str(file), "--check", "--select", "HPY102")
    assert b"HPY102" in selected.stderr and b"HPY101" not in selected.stderr


def test_exclude_extensions_and_gitignore(tree: Path) -> None:
    (tree / ".gitignore").write_text("sub/\n")
    (tree / "other.cuda").write_bytes(KERNEL)
    result = run_cli(
        str(tree),
        "--check",
        "--report-format",
        "json",
        "--extensions",
        ".cu,.cuda",
        "--exclude",
        "kernel.cu",
    )
    paths = [f["path"] for f in json.loads(result.stdout)["files"]]
    assert any(p.endswith("other.cuda") for p in paths)
    assert not any(p.endswith("kernel.cu") for p in paths)
    assert not any("plain.cpp" in p for p in paths)
    no_ignore = run_cli(str(tree), "--check", "--report-format", "json", "--no-gitignore")
    assert any("plain.cpp" in f["path"] for f in json.loads(no_ignore.stdout)["files"])


def test_explicit_file_is_taken_whatever_its_extension(tmp_path: Path) -> None:
    file = tmp_path / "kernel.txt"
    file.write_bytes(KERNEL)
    assert run_cli(str(file), "--check").returncode == 1


def test_binary_file_is_skipped_and_reported(tree: Path) -> None:
    (tree / "blob.cu").write_bytes(b"\x7fELF\x00\x01\x02cudaMalloc")
    result = run_cli(str(tree))
    assert result.returncode == 0
    assert b"blob.cu:1:1: warning: skipped" in result.stderr
    assert (tree / "blob.cu").read_bytes() == b"\x7fELF\x00\x01\x02cudaMalloc"
    assert b"hipMalloc" in (tree / "kernel.cu").read_bytes()


def test_unreadable_file_is_an_io_error(tree: Path) -> None:
    locked = tree / "locked.cu"
    if os.geteuid() == 0:
        # root reads any file; reading /proc/self/mem at offset 0 fails with EIO for real
        locked.symlink_to("/proc/self/mem")
        args = [str(locked), str(tree)]
    else:
        locked.write_bytes(KERNEL)
        locked.chmod(0)
        args = [str(tree)]
    try:
        result = run_cli(*args)
    finally:
        if not locked.is_symlink():
            locked.chmod(0o644)
    assert result.returncode == 2
    assert b"locked.cu: error: cannot read" in result.stderr
    assert b"hipMalloc" in (tree / "kernel.cu").read_bytes()


def test_jobs_gives_identical_output(tmp_path: Path) -> None:
    trees = []
    for jobs in ("1", "2"):
        src = tmp_path / f"src{jobs}"
        src.mkdir()
        for i in range(12):
            (src / f"k{i}.cu").write_bytes(KERNEL.replace(b"scale", f"scale{i}".encode()))
        assert run_cli(str(src), "--jobs", jobs, "-q").returncode == 0
        trees.append({p.name: p.read_bytes() for p in sorted(src.iterdir())})
    assert trees[0] == trees[1]


def test_crlf_and_bom_survive(tmp_path: Path) -> None:
    file = tmp_path / "w.cu"
    original = b"\xef\xbb\xbf" + KERNEL.replace(b"\n", b"\r\n")
    file.write_bytes(original)
    assert run_cli(str(file)).returncode == 0
    out = file.read_bytes()
    assert out.startswith(b"\xef\xbb\xbf#include <hip/hip_runtime.h>\r\n")
    assert b"\n" not in out.replace(b"\r\n", b"")
    assert out == original.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(
        b"cudaMalloc", b"hipMalloc"
    ).replace(b"cudaDeviceSynchronize", b"hipDeviceSynchronize").replace(b"cudaFree", b"hipFree")


def test_python_m_and_console_script_agree(tree: Path) -> None:
    import shutil
    import subprocess

    script = shutil.which("hipify-py")
    if script is None:
        pytest.skip("hipify-py is not installed in this environment (pip install .)")
    via_m = run_cli(str(tree / "kernel.cu"), "--stdout")
    via_script = subprocess.run([script, str(tree / "kernel.cu"), "--stdout"], capture_output=True)
    assert via_script.returncode == 0
    assert via_script.stdout == via_m.stdout


BLOB = b"\x7fELF\x00\x01\x02cudaMalloc"


def test_binary_file_passes_through_stdout_and_output_dir(tree: Path, tmp_path: Path) -> None:
    blob = tree / "blob.cu"
    blob.write_bytes(BLOB)
    printed = run_cli(str(blob), "--stdout")
    assert printed.returncode == 0
    assert printed.stdout == BLOB  # `--stdout > out.cu` never makes an empty file
    assert b"blob.cu:1:1: warning: skipped" in printed.stderr
    out = tmp_path / "out"
    assert run_cli(str(tree), "-o", str(out)).returncode == 0
    assert (out / "blob.cu").read_bytes() == BLOB
    assert b"hipMalloc" in (out / "kernel.cu").read_bytes()


def test_too_large_file_passes_through_stdout(tmp_path: Path) -> None:
    big = tmp_path / "big.cu"
    big.write_bytes(KERNEL * (2 * 1024 * 1024 // len(KERNEL) + 1))
    printed = run_cli(str(big), "--stdout", "--max-file-size", "1")
    assert printed.returncode == 0
    assert printed.stdout == big.read_bytes()
    assert b"larger than the 1 MB limit" in printed.stderr


def test_explicit_broken_link_is_an_error(tmp_path: Path) -> None:
    link = tmp_path / "gone.cu"
    link.symlink_to(tmp_path / "nowhere.cu")
    (tmp_path / "ok.cu").write_bytes(KERNEL)
    result = run_cli(str(link), str(tmp_path / "ok.cu"), "--check")
    assert result.returncode == 2
    assert b"gone.cu: broken symbolic link" in result.stderr
    assert b"would translate" in result.stderr  # the other file was still checked


def test_diff_in_json_report(tree: Path) -> None:
    result = run_cli(str(tree / "kernel.cu"), "--diff", "--report-format", "json")
    entry = json.loads(result.stdout)["files"][0]
    assert entry["diff"].startswith("---") and "+" in entry["diff"] and "hipMalloc" in entry["diff"]
    assert (tree / "kernel.cu").read_bytes() == KERNEL
