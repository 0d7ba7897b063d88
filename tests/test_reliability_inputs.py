"""Issue 8, item 1: the bad-input matrix.  Each bad input gets a clear message
(the path and why) and the run goes on for the other files.  Real processes and
real filesystems; a file is made unreadable or read-only for real by running
the CLI as the unprivileged user ``nobody`` (root ignores permission bits).

Covered elsewhere, not repeated here: a binary file with a .cu name
(test_cli.test_binary_file_is_skipped_and_reported), UTF-8 with BOM and CRLF
(test_cli.test_crlf_and_bom_survive), an output folder equal to or inside the
input (test_cli.test_output_dir_inside_input_is_refused), a file changed
between read and write (test_api_paths.test_file_changed_between_read_and_write_is_not_overwritten),
two paths naming one file through a symbolic link
(test_api_paths.test_two_paths_naming_the_same_file_are_processed_once).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO, run_cli

import hipify_py.project.runner as runner
from hipify_py import Options, translate_paths
from hipify_py.project.runner import Status

KERNEL = b"void f(float* d) { cudaMalloc((void**)&d, 64); cudaFree(d); }\n"
TRANSLATED = b"void f(float* d) { hipMalloc((void**)&d, 64); hipFree(d); }\n"
NO_INCLUDE = ("--no-runtime-include", "--no-cache")
PLAIN = Options(insert_runtime_include=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "good.cu").write_bytes(KERNEL)
    return src


def _good_translated(tree: Path) -> None:
    assert (tree / "good.cu").read_bytes() == TRANSLATED, "the other files must go on"


# ------------------------------------------------------------------ encodings


@pytest.mark.parametrize(
    ("encoding", "comment"),
    [
        ("latin-1", "// Größe der Daten: 64 Bytes, café\n"),
        # 表 is 0x95 0x5C in Shift-JIS: a backslash byte inside a character
        ("shift_jis", "// 表のサイズ: 64 バイト\n"),
    ],
)
def test_non_utf8_text_keeps_its_bytes(tree: Path, encoding: str, comment: str) -> None:
    file = tree / "legacy.cu"
    original = comment.encode(encoding) + KERNEL + comment.encode(encoding)
    file.write_bytes(original)
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert file.read_bytes() == comment.encode(encoding) + TRANSLATED + comment.encode(encoding)
    _good_translated(tree)


def test_mixed_line_endings_are_kept_byte_for_byte(tree: Path) -> None:
    file = tree / "mixed.cu"
    # (a lone CR after a // comment would hide the next line from tree-sitter,
    # which does not end comments at CR: see docs/reliability.md)
    lines = [b"// a\r\n", b"// b\n", b"int c;\r", KERNEL.rstrip(b"\n") + b"\r\n", b"int x;\r"]
    file.write_bytes(b"".join(lines))
    assert run_cli(str(tree), *NO_INCLUDE).returncode == 0
    lines[3] = TRANSLATED.rstrip(b"\n") + b"\r\n"
    assert file.read_bytes() == b"".join(lines)


def test_utf8_bom_with_mixed_endings(tree: Path) -> None:
    file = tree / "bom.cu"
    file.write_bytes(b"\xef\xbb\xbf" + KERNEL.replace(b"\n", b"\r\n") + b"// end\n")
    assert run_cli(str(tree), *NO_INCLUDE).returncode == 0
    assert file.read_bytes() == b"\xef\xbb\xbf" + TRANSLATED.replace(b"\n", b"\r\n") + b"// end\n"


def test_nul_bytes_are_skipped_and_reported(tree: Path) -> None:
    file = tree / "nul.cu"
    data = KERNEL + b"int x = 0;\0\0\0 // a NUL in the middle\n"
    file.write_bytes(data)
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0
    assert b"nul.cu:1:1: warning: skipped: contains NUL bytes (binary file?) [HPY002]" in (
        result.stderr
    )
    assert file.read_bytes() == data
    _good_translated(tree)


# ---------------------------------------------------------------- size, depth


def test_a_50_mb_source_file_is_skipped_unread(tree: Path) -> None:
    big = tree / "generated.cu"
    unit = KERNEL.replace(b"void f(", b"void f%d(")
    with open(big, "wb") as handle:
        for i in range(50 * 1024 * 1024 // len(unit) + 1):
            handle.write(unit.replace(b"%d", b"%d" % i))
    size = big.stat().st_size
    assert size > 50 * 1024 * 1024
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    message = f"generated.cu:1:1: warning: skipped: {size / 1048576:.1f} MB is larger than "
    assert (message + "the 16 MB limit (--max-file-size; 0 lifts it)").encode() in result.stderr
    assert big.stat().st_size == size
    _good_translated(tree)


def test_max_file_size_is_adjustable(tree: Path) -> None:
    file = tree / "mid.cu"
    file.write_bytes(KERNEL * 200)  # 12 KB
    small = run_cli(str(file), "--max-file-size", "0.01", *NO_INCLUDE)
    assert b"skipped: 0.0 MB is larger than the 0.01 MB limit" in small.stderr
    assert file.read_bytes() == KERNEL * 200
    assert run_cli(str(file), "--max-file-size", "0", *NO_INCLUDE).returncode == 0
    assert file.read_bytes() == TRANSLATED * 200


@pytest.mark.parametrize(
    ("name", "source", "expected"),
    [
        (
            "brackets",
            b"void f() { int x = " + b"(" * 2000 + b"cudaFree(0)" + b")" * 2000 + b"; }\n",
            b"hipFree(0)",
        ),
        ("braces", b"void f() " + b"{" * 2000 + b"cudaFree(0);" + b"}" * 2000 + b"\n", b"hipFree"),
        (
            "macros",
            b"".join(b"#define M%d(x) M%d(cudaFree(x))\n" % (i + 1, i) for i in range(2000))
            + b"void f() { M2000(0); }\n",
            b"#define M2000(x) M1999(hipFree(x))",
        ),
        (
            "ifs",
            b"#if A\n" * 2000 + b"void f() { cudaFree(0); }\n" + b"#endif\n" * 2000,
            b"hipFree",
        ),
    ],
)
def test_2000_deep_nesting(tree: Path, name: str, source: bytes, expected: bytes) -> None:
    file = tree / f"deep_{name}.cu"
    file.write_bytes(source)
    result = run_cli(str(tree), *NO_INCLUDE, "--launch-syntax", "hip")
    assert result.returncode == 0, result.stderr
    out = file.read_bytes()
    assert expected in out and b"cudaFree" not in out
    assert b"internal error" not in result.stderr
    _good_translated(tree)


@pytest.mark.parametrize(
    "tail",
    [b"/* never closed cudaMalloc\n", b'const char* s = "never closed cudaMalloc\n', b"#if X\n"],
    ids=["comment", "string", "if"],
)
def test_unterminated_comment_string_or_if(tree: Path, tail: bytes) -> None:
    file = tree / "open.cu"
    file.write_bytes(KERNEL + tail)
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0, result.stderr
    assert file.read_bytes() == TRANSLATED + tail  # what follows the opening is left alone
    assert run_cli(str(tree), "--check", *NO_INCLUDE).returncode == 0  # and it is done
    _good_translated(tree)


# ----------------------------------------------------- files that move under us


def test_file_deleted_between_discovery_and_read(tree: Path) -> None:
    gone = tree / "gone.cu"
    gone.write_bytes(KERNEL)
    planned = translate_paths([tree], jobs=1, use_cache=False, options=PLAIN)
    gone.unlink()
    reports = {Path(r.display).name: r for r in planned.reports()}
    assert reports["gone.cu"].status is Status.ERROR
    assert reports["gone.cu"].error == "cannot read: no such file or directory"
    _good_translated(tree)


def test_file_deleted_between_read_and_write(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tree / "gone.cu"
    gone.write_bytes(KERNEL)
    real = runner.translate_bytes

    def translate_while_someone_deletes(data: bytes, *args: object) -> object:
        if gone.exists():
            gone.unlink()  # a real deletion, at the one moment that matters
        return real(data, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "translate_bytes", translate_while_someone_deletes)
    (report,) = list(translate_paths([gone], jobs=1, use_cache=False).reports())
    assert report.status is Status.ERROR
    assert "deleted since it was read" in report.error
    assert not gone.exists(), "a deleted file must not come back"
    assert not [p for p in tree.iterdir() if p.name.endswith(".hipify-tmp")]


# ------------------------------------------------------------ permissions


NOBODY = 65534
_CAPABILITIES = {"CAP_DAC_OVERRIDE": 1, "CAP_DAC_READ_SEARCH": 2}


def _without_dac_override() -> None:
    """In the child, before exec: drop root's power to ignore permission bits
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from the bounding set, so the CLI
    runs as root but meets permission bits as any user does.  (Switching to the
    user nobody is no good here: the interpreter lives under /root.)"""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in _CAPABILITIES.values():
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            os._exit(97)


def run_without_override(*args: str) -> subprocess.CompletedProcess[bytes]:
    """The real CLI, for which permission bits are binding (see above)."""
    if os.geteuid() != 0:  # an ordinary user: permission bits apply anyway
        return run_cli(*args)
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="120")
    done = subprocess.run(
        [sys.executable, "-m", "hipify_py", *args],
        preexec_fn=_without_dac_override,
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert done.returncode != 97, "could not drop CAP_DAC_OVERRIDE"
    return done


def test_unreadable_file_chmod_000(tree: Path) -> None:
    locked = tree / "locked.cu"
    locked.write_bytes(KERNEL)
    locked.chmod(0)
    try:
        result = run_without_override(str(tree), *NO_INCLUDE)
    finally:
        locked.chmod(0o644)
    assert result.returncode == 2, result.stderr
    assert b"locked.cu: error: cannot read: permission denied" in result.stderr
    assert locked.read_bytes() == KERNEL
    _good_translated(tree)


def test_read_only_file_and_folder_by_permission(tree: Path) -> None:
    """A file and a folder of another user (mode 644 / 755): not writable for us."""
    ro = tree / "theirs.cu"
    ro.write_bytes(KERNEL)
    folder = tree / "theirs"
    folder.mkdir()
    (folder / "k.cu").write_bytes(KERNEL)
    if os.geteuid() == 0:
        for path in (ro, folder):  # folder/k.cu stays ours: only the folder is theirs
            os.chown(path, NOBODY, NOBODY)
    else:
        ro.chmod(0o444)
        folder.chmod(0o555)
    try:
        result = run_without_override(str(tree), *NO_INCLUDE)
    finally:
        folder.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert b"theirs.cu: error: cannot write: file is read-only; the file was left as it was" in (
        result.stderr
    )
    assert b"k.cu: error: cannot write: folder is read-only; the file was left as it was" in (
        result.stderr
    )
    assert ro.read_bytes() == KERNEL and (folder / "k.cu").read_bytes() == KERNEL
    assert os.listdir(folder) == ["k.cu"]
    _good_translated(tree)


def test_read_only_file_and_folder_as_root(tree: Path) -> None:
    """Root could write them; hipify-py honours the missing write bits anyway."""
    ro = tree / "ro.cu"
    ro.write_bytes(KERNEL)
    ro.chmod(0o444)
    folder = tree / "rodir"
    folder.mkdir()
    (folder / "k.cu").write_bytes(KERNEL)
    folder.chmod(0o555)
    try:
        result = run_cli(str(tree), *NO_INCLUDE)
    finally:
        folder.chmod(0o755)
    assert result.returncode == 2
    assert b"ro.cu: error: cannot write: file is read-only" in result.stderr
    assert b"k.cu: error: cannot write: folder is read-only" in result.stderr
    assert ro.read_bytes() == KERNEL and (folder / "k.cu").read_bytes() == KERNEL
    _good_translated(tree)


# ------------------------------------------------------------ links and paths


def test_symlink_to_a_file_outside_the_tree_is_not_followed(tree: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.cu"
    outside.write_bytes(KERNEL)
    (tree / "link.cu").symlink_to(outside)
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0
    assert b"link.cu: skipped symbolic link to a file outside" in result.stderr
    assert outside.read_bytes() == KERNEL, "a file outside the tree must not be rewritten"
    _good_translated(tree)
    named = run_cli(str(tree / "link.cu"), *NO_INCLUDE)  # named on purpose: translated
    assert named.returncode == 0
    assert outside.read_bytes() == TRANSLATED and (tree / "link.cu").is_symlink()


def test_symlink_loop(tree: Path) -> None:
    (tree / "a.cu").symlink_to(tree / "b.cu")
    (tree / "b.cu").symlink_to(tree / "a.cu")
    (tree / "dir_loop").symlink_to(tree)  # a folder link: never followed
    result = run_cli(str(tree), *NO_INCLUDE)
    assert result.returncode == 0
    assert b"a.cu: skipped symbolic link loop" in result.stderr
    assert b"b.cu: skipped symbolic link loop" in result.stderr
    named = run_cli(str(tree / "a.cu"), str(tree / "good.cu"), *NO_INCLUDE)
    assert b"a.cu: symbolic link loop" in named.stderr
    _good_translated(tree)


def test_output_file_that_would_overwrite_its_input(tree: Path) -> None:
    result = run_cli(str(tree / "good.cu"), "-o", str(tree), *NO_INCLUDE)
    assert result.returncode == 2
    assert b"the translation of" in result.stderr and b"would overwrite it" in result.stderr
    assert (tree / "good.cu").read_bytes() == KERNEL


def test_two_paths_that_name_the_same_file(tree: Path) -> None:
    same = [str(tree / "good.cu"), str(tree / ".." / "src" / "good.cu"), str(tree)]
    result = run_cli(*same, *NO_INCLUDE, "--report-format", "json")
    assert result.returncode == 0
    files = json.loads(result.stdout)["files"]
    assert len(files) == 1 and files[0]["status"] == "changed"
    _good_translated(tree)


# --------------------------------------------------------------- disk full


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    """A real 64 KB tmpfs (mounting needs root, as CI has)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)])
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)])


def test_disk_full_during_write_on_a_tiny_filesystem(tiny_fs: Path) -> None:
    src = tiny_fs / "src"
    src.mkdir()
    (src / "good.cu").write_bytes(KERNEL)
    big = src / "big.cu"
    big.write_bytes(KERNEL * 600)  # 37 KB: its translation cannot fit beside it
    result = run_cli(str(src), *NO_INCLUDE, "-j", "1")
    assert result.returncode == 2, result.stderr
    assert b"big.cu: error: cannot write: no space left on device; the file was left as it was" in (
        result.stderr
    )
    assert big.read_bytes() == KERNEL * 600
    assert sorted(os.listdir(src)) == ["big.cu", "good.cu"], "no temporary file left"
    _good_translated(src)


def test_disk_full_injected(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same failure at the last moment (fsync), where no small disk can put it."""

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(runner.os, "fsync", full)
    (report,) = list(translate_paths([tree / "good.cu"], jobs=1, use_cache=False).reports())
    assert report.status is Status.ERROR
    assert report.error == "cannot write: no space left on device; the file was left as it was"
    assert (tree / "good.cu").read_bytes() == KERNEL
    assert os.listdir(tree) == ["good.cu"]
