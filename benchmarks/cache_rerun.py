"""Cold run vs warm rerun of the same unchanged tree (the result cache).

Prints numbers; asserts nothing.  Cold: an empty cache folder (the tables are
compiled and every file is parsed).  Warm: the same command again with that
cache (nothing is parsed; no worker processes are started).

    python benchmarks/cache_rerun.py [--mb 6] [--jobs 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import build_corpus

REPO = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=6.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hipify-rerun-") as tmp:
        root = Path(tmp)
        corpus = build_corpus(root / "corpus", args.mb, seed=random.Random(7).randrange(1 << 30))
        size = sum(p.stat().st_size for p in (root / "corpus").rglob("*") if p.is_file())
        cmd = [
            sys.executable,
            "-m",
            "hipify_py",
            str(root / "corpus"),
            "--check",
            "-q",
            "--jobs",
            str(args.jobs),
        ]
        colds, warms = [], []
        for i in range(args.repeat):
            env = dict(
                os.environ, PYTHONPATH=str(REPO), HIPIFY_PY_CACHE_DIR=str(root / f"cache{i}")
            )
            colds.append(timed(cmd, env))
            warms.append(timed(cmd, env))
        cold, warm = statistics.median(colds), statistics.median(warms)
        print(
            f"corpus: {len(corpus.files)} files, {size / 1e6:.2f} MB; --jobs {args.jobs}; "
            f"{args.repeat} rounds (median)"
        )
        print(f"cold run  (empty cache):  {cold:6.3f} s   {size / 1e6 / cold:5.2f} MB/s")
        print(f"warm rerun (same tree):   {warm:6.3f} s   {100 * warm / cold:5.1f} % of cold")


if __name__ == "__main__":
    main()
