"""Cold first run vs reruns served by the result cache.  Prints numbers; asserts nothing.

Two scenarios over one generated corpus, each round with its own empty cache
folder (``HIPIFY_PY_CACHE_DIR``: the tables are compiled and every file is
parsed on the first run):

1. unchanged tree: ``hipify-py TREE --check -q``, then the same again;
2. translated in place (pre-commit on every commit, CI on every push):
   ``hipify-py TREE -q`` on a fresh copy, then over the translated tree
   ``hipify-py TREE -q``, ``hipify-py TREE --check -q`` and
   ``hipify-py check TREE``; each as a percentage of that first run.  For
   context: ``hipify-py TREE --check -q --no-cache`` over the translated tree
   (what a rerun costs when nothing is cached for it).

    python benchmarks/cache_rerun.py [--mb 5] [--jobs 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import build_corpus

REPO = Path(__file__).resolve().parent.parent


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds, and the CPU seconds of the run and its worker processes
    (steadier than wall time on a shared machine)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "hipify_py", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory(prefix="hipify-rerun-") as tmp:
        root = Path(tmp)
        corpus = build_corpus(root / "corpus", args.mb, seed=random.Random(7).randrange(1 << 30))
        size = sum(p.stat().st_size for p in (root / "corpus").rglob("*") if p.is_file())
        # a private bytecode folder: hipify_py is compiled once, not on every run
        # (as an installed package is), even where PYTHONDONTWRITEBYTECODE=1
        base = dict(os.environ, PYTHONPATH=str(REPO), PYTHONPYCACHEPREFIX=str(root / "pyc"))
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        times: dict[str, list[tuple[float, float]]] = {}

        def record(name: str, seconds: tuple[float, float]) -> None:
            times.setdefault(name, []).append(seconds)

        for i in range(args.repeat):
            env = dict(base, HIPIFY_PY_CACHE_DIR=str(root / f"cache{i}"))
            tree = str(root / "corpus")
            record("check-first", timed([tree, "--check", "-q", *jobs], env))
            record("check-rerun", timed([tree, "--check", "-q", *jobs], env))

            env = dict(base, HIPIFY_PY_CACHE_DIR=str(root / f"cache-in-place{i}"))
            tree = str(root / f"tree{i}")
            shutil.copytree(root / "corpus", tree)
            record("first", timed([tree, "-q", *jobs], env))
            record("translate", timed([tree, "-q", *jobs], env))
            record("--check", timed([tree, "--check", "-q", *jobs], env))
            record("check", timed(["check", tree, *jobs], env))
            record("uncached", timed([tree, "--check", "-q", "--no-cache", *jobs], env))
            shutil.rmtree(tree)

        wall = {name: statistics.median(w for w, _ in runs) for name, runs in times.items()}
        cpu = {name: statistics.median(c for _, c in runs) for name, runs in times.items()}
        print(
            f"corpus: {len(corpus.files)} files, {size / 1e6:.2f} MB; --jobs {args.jobs}; "
            f"{args.repeat} rounds (median); wall and CPU seconds (the run and its workers)"
        )

        def line(label: str, name: str, base: str) -> None:
            if name == base:
                rate = f"{size / 1e6 / wall[name]:5.2f} MB/s"
                print(f"  {label:<31} {wall[name]:6.3f} s  {cpu[name]:6.3f} s cpu   {rate}")
                return
            share = f"{100 * wall[name] / wall[base]:5.1f} %  {100 * cpu[name] / cpu[base]:5.1f} %"
            print(f"  {label:<31} {wall[name]:6.3f} s  {cpu[name]:6.3f} s cpu   {share} cpu")

        print("unchanged tree:")
        line("first `--check` (empty cache)", "check-first", "check-first")
        line("rerun `--check`", "check-rerun", "check-first")
        print("translated in place, then run again over the translated tree (% of first):")
        line("first `TREE` (empty cache)", "first", "first")
        line("rerun `TREE`", "translate", "first")
        line("rerun `TREE --check`", "--check", "first")
        line("rerun `check TREE`", "check", "first")
        line("`TREE --check --no-cache`", "uncached", "first")


if __name__ == "__main__":
    main()
