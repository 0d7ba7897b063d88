"""A tree translated in place and then run over again (pre-commit on every
commit, CI on every push): the first run caches what each translated file
translates to, so the rerun parses nothing, and what it reports is what an
uncached run over the translated tree reports.  Through the real CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO, run_cli

# the fixtures' inputs, one folder each (with its headers): a tree that has
# project macros, unsupported API, launches, parse errors, suppression comments
FIXTURES = sorted((REPO / "fixtures").glob("*/input.*"))


def _tree(root: Path, skip: tuple[str, ...] = ()) -> Path:
    tree = root / "tree"
    for source in FIXTURES:
        name = source.parent.name
        if name in skip:
            continue
        folder = tree / name[:3]
        folder.mkdir(parents=True)
        shutil.copy(source, folder / f"{name}{source.suffix}")
    assert len(list(tree.rglob("*.*"))) > 100
    return tree


def _entries(cache: Path) -> set[Path]:
    return set((cache / "results").rglob("*.pickle"))


def _files(tree: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*")) if p.is_file()
    }


def _cli(tree: Path, cache: Path, *args: str) -> tuple[int, bytes]:
    done = run_cli(*args, cwd=tree, env={"HIPIFY_PY_CACHE_DIR": str(cache)})
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.returncode, done.stdout


def test_a_rerun_over_the_translated_tree_is_served_from_the_cache(tmp_path: Path) -> None:
    # a file that suppresses every code hides whether the runtime include
    # was inserted, so `check` translates it once more (it is compared below)
    tree = _tree(tmp_path, skip=("141-suppress-all-codes",))
    cache = tmp_path / "cache"
    assert _cli(tree, cache, ".", "-q")[0] == 0
    translated = _files(tree)
    stored = _entries(cache)
    assert stored
    # every result and every name scan a rerun looks up is there: a miss would
    # translate (or scan) the file and store a new entry
    for args in (
        (".", "-q"),
        (".", "--check", "-q"),
        (".", "--report-format", "json", "-q"),
        ("check", "."),
        ("check", ".", "--format", "json"),
    ):
        _cli(tree, cache, *args)
        assert _entries(cache) == stored, args
    assert _files(tree) == translated
    # the cache is what served them: without it, the same run stores entries
    shutil.rmtree(cache / "results")
    _cli(tree, cache, ".", "--check", "-q")
    assert _entries(cache)


def test_a_cached_rerun_reports_what_an_uncached_run_reports(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    cache = tmp_path / "cache"
    _cli(tree, cache, ".", "-q")
    fresh = tmp_path / "fresh-cache"  # the table cache only: --no-cache keeps it out
    for args in (
        (".", "--report-format", "json", "-q"),
        (".", "--check", "--report-format", "json", "-q"),
        (".", "--diff"),
        ("check", ".", "--format", "json"),
        ("check", ".", "--format", "json", "--notes"),
    ):
        cached = _cli(tree, cache, *args)
        uncached = _cli(tree, fresh, *args, "--no-cache")
        assert cached == uncached, args
        if "json" in args:
            report = json.loads(cached[1])
            assert report["files"], args
    # findings remain in the translated tree (unsupported API, inline PTX...):
    # they are reported on the rerun, not cached away
    report = json.loads(_cli(tree, cache, "check", ".", "--format", "json")[1])
    codes = {f["code"] for file in report["files"] for f in file["findings"]}
    assert {"HPY101", "HPY501"} <= codes, codes


def test_the_rerun_of_broken_input_does_what_an_uncached_run_does(tmp_path: Path) -> None:
    """Broken input that a second translation used to change again (a `#ifdef
    __CUDA_ARCH__` that does not start its line, read as a value use): the
    cached rerun reports and writes what an uncached rerun does, and since the
    #ifdef is recognised as one the output is a fixed point."""
    source = "cudaMalloc(&p, n)#ifdef __CUDA_ARCH__\n((f<#if X\n>))\n#else\né\n#endif"
    cached_tree, uncached_tree = tmp_path / "a", tmp_path / "b"
    for tree in (cached_tree, uncached_tree):
        tree.mkdir()
        (tree / "k.cu").write_text(source, encoding="utf-8")
    cache = tmp_path / "cache"
    _cli(cached_tree, cache, "k.cu", "-q")
    run_cli("k.cu", "-q", "--no-cache", cwd=uncached_tree)
    once = (cached_tree / "k.cu").read_bytes()
    assert once == (uncached_tree / "k.cu").read_bytes() != source.encode()
    assert b"#ifdef __HIP_DEVICE_COMPILE__" in once  # the test, not a value (0)
    cached = _cli(cached_tree, cache, "k.cu", "--report-format", "json")
    uncached = _cli(uncached_tree, cache, "k.cu", "--report-format", "json", "--no-cache")
    assert cached == uncached
    assert json.loads(cached[1])["files"][0]["status"] == "unchanged"
    twice = (cached_tree / "k.cu").read_bytes()
    assert twice == once == (uncached_tree / "k.cu").read_bytes()


def test_the_runtime_include_option_is_read_by_the_includes_rule_alone() -> None:
    """runner._inserted_no_runtime_include serves `check` (no runtime include
    inserted) from a result translated with it, when that result proves the
    option made no difference; the proof holds while the includes rule is the
    only code that reads the option.  Another reader: revisit that proof."""
    readers = sorted(
        str(path.relative_to(REPO))
        for path in (REPO / "hipify_py").rglob("*.py")
        if "options.insert_runtime_include" in path.read_text(encoding="utf-8")
    )
    assert readers == ["hipify_py/project/runner.py", "hipify_py/rules/includes.py"]
