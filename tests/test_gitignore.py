from __future__ import annotations

from pathlib import Path

import pytest

from hipify_py.project.gitignore import IgnoreFile, Ignorer, compile_pattern


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "ignored"),
    [
        ("*.o", "a/b/x.o", False, True),
        ("*.o", "a/b/x.cu", False, False),
        ("build/", "build", True, True),
        ("build/", "build", False, False),
        ("build/", "build/x.cu", False, True),
        ("/top.cu", "top.cu", False, True),
        ("/top.cu", "sub/top.cu", False, False),
        ("doc/*.cu", "doc/a.cu", False, True),
        ("doc/*.cu", "doc/x/a.cu", False, False),
        ("**/gen/*.cu", "a/b/gen/x.cu", False, True),
        ("a/**/z.cu", "a/z.cu", False, True),
        ("a/**/z.cu", "a/b/c/z.cu", False, True),
        ("x?.cu", "xy.cu", False, True),
        ("[ab].cu", "b.cu", False, True),
        ("[!ab].cu", "b.cu", False, False),
        ("# comment", "# comment", False, False),
    ],
)
def test_patterns(tmp_path: Path, pattern: str, path: str, is_dir: bool, ignored: bool) -> None:
    compiled = compile_pattern(pattern)
    ignore = IgnoreFile(tmp_path, [compiled] if compiled else [])
    assert Ignorer([ignore]).ignored(tmp_path / path, is_dir) is ignored


def test_negation_and_last_match_wins(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.cu\n!keep.cu\n")
    ign = Ignorer().child(tmp_path)
    assert ign.ignored(tmp_path / "a.cu", False)
    assert not ign.ignored(tmp_path / "keep.cu", False)


def test_nested_gitignore_is_relative_to_its_folder(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("/gen.cu\n")
    ign = Ignorer().child(tmp_path).child(tmp_path / "sub")
    assert ign.ignored(tmp_path / "sub" / "gen.cu", False)
    assert not ign.ignored(tmp_path / "gen.cu", False)


def test_relative_walk_honours_parent_gitignore_and_info_exclude(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    from hipify_py.project.files import discover

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / ".git" / "info" / "exclude").write_text("src/a.cu\n")
    (tmp_path / "src" / "build").mkdir(parents=True)
    for name in ("src/a.cu", "src/b.cu", "src/build/gen.cu"):
        (tmp_path / name).write_text("void f() { cudaFree(0); }\n")
    monkeypatch.chdir(tmp_path)
    found = sorted(t.display for t in discover([Path("src")]).targets)
    assert found == ["src/b.cu"]
