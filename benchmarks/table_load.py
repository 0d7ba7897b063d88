"""How long the mapping table takes to be ready.  Prints numbers; asserts nothing.

    python benchmarks/table_load.py                 # 5 repeats of each measurement
    python benchmarks/table_load.py --repeat 9 --json load.json

What it measures, each in a fresh Python process so no run sees another's memo:

1. In-process: the seconds ``hipify_py.tables.cache.load_table()`` takes (the import of
   the module, which imports the hipify_py package and with it the engine and
   tree-sitter, is timed separately).  "cold" runs get an empty table cache
   (``HIPIFY_PY_CACHE_DIR``), so every YAML file is parsed and the pickle written;
   "warm" runs find the pickle keyed by the YAML content hash and only hash the
   files and unpickle.
2. Process: wall time of ``python -m hipify_py mappings stats`` (loads the whole table
   and prints counts), cold and warm, next to ``python -c pass`` and
   ``python -m hipify_py --version`` for the cost of starting Python and importing
   hipify-py.

Issue target, for context only: the table ready in < 100 ms on a warm start.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_IN_PROCESS = """
import json, sys, time
started = time.perf_counter()
from hipify_py.tables.cache import load_table
imported = time.perf_counter()
table = load_table()
ready = time.perf_counter()
rows = len(table.names)
print(json.dumps({"import": imported - started, "load": ready - imported, "rows": rows}))
"""


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["HIPIFY_PY_CACHE_DIR"] = str(cache)
    return env


def _in_process(cache: Path) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-c", _IN_PROCESS],
        env=_env(cache),
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, float] = json.loads(result.stdout)
    return data


def _wall(command: list[str], cache: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, env=_env(cache), stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
    return time.perf_counter() - started


def _series(repeat: int, run: Callable[[Path], float], cold: bool) -> list[float]:
    """``repeat`` runs; cold ones each get a new, empty cache folder."""
    times = []
    warm_cache = Path(tempfile.mkdtemp(prefix="hipify-bench-warm-"))
    try:
        run(warm_cache)  # fill it
        for _ in range(repeat):
            if cold:
                cache = Path(tempfile.mkdtemp(prefix="hipify-bench-cold-"))
                try:
                    times.append(run(cache))
                finally:
                    shutil.rmtree(cache, ignore_errors=True)
            else:
                times.append(run(warm_cache))
    finally:
        shutil.rmtree(warm_cache, ignore_errors=True)
    return times


def _line(label: str, times: list[float]) -> str:
    return (
        f"  {label:<44} min {min(times) * 1000:7.1f} ms   "
        f"median {statistics.median(times) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = parser.parse_args()
    python = sys.executable
    stats = [python, "-m", "hipify_py", "mappings", "stats"]
    results: dict[str, list[float]] = {}
    rows = 0

    for cold in (True, False):
        label = "cold" if cold else "warm"
        loads: list[float] = []
        imports: list[float] = []

        def load(cache: Path, loads: list[float] = loads, imports: list[float] = imports) -> float:
            nonlocal rows
            data = _in_process(cache)
            loads.append(data["load"])
            imports.append(data["import"])
            rows = int(data["rows"])
            return data["load"]

        _series(args.repeat, load, cold)
        # the first entry of each list is the run that filled the warm cache
        results[f"in-process load_table(), {label}"] = loads[1:]
        results[f"import hipify_py.tables.cache, {label}"] = imports[1:]
    for cold in (True, False):
        label = "cold" if cold else "warm"
        results[f"process: mappings stats, {label}"] = _series(
            args.repeat, lambda cache: _wall(stats, cache), cold
        )
    results["process: python -c pass"] = _series(
        args.repeat, lambda cache: _wall([python, "-c", "pass"], cache), False
    )
    results["process: python -m hipify_py --version"] = _series(
        args.repeat, lambda cache: _wall([python, "-m", "hipify_py", "--version"], cache), False
    )

    print(
        f"hipify-py table load ({rows} rows; {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores, {args.repeat} runs each)"
    )
    for label, times in results.items():
        print(_line(label, times))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
