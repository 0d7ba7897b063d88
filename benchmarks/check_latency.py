"""How long the hipify-py-check pre-commit hook takes on one staged file.  Prints
numbers; asserts nothing.

    python benchmarks/check_latency.py                  # 7 runs of each case
    python benchmarks/check_latency.py --runs 15 --json latency.json
    python benchmarks/check_latency.py --no-pre-commit  # only the command itself

Cases, each a fresh process, timed from start to exit (wall clock):

1. ``python -c pass``: the floor (starting Python).
2. ``python -m hipify_py check one.cu --format text`` on a ~5 KB generated CUDA
   file (the one ``benchmarks/throughput.py`` uses for latency, a little larger):
   "new content" changes a comment before every run, so the content-hash result
   cache misses and the file is parsed and translated, as for a file just
   edited; "unchanged" runs again on the same bytes (a cache hit).  The mapping
   table cache is warm in both (it is filled once, before timing).
3. The same with the ``hipify-py`` console script, when there is one.
4. End to end through pre-commit: a temporary git repository whose
   ``.pre-commit-config.yaml`` uses this working tree's hooks (a snapshot
   commit of it, as tests/test_precommit.py makes); pre-commit installs the
   hook's virtualenv once (not timed; needs the package index), then
   ``pre-commit run hipify-py-check --files one.cu`` and a real ``git commit``
   of the staged file (refused by the hook, as the file is CUDA) are timed with
   new content each run.  A HIP-only file is timed too (the hook passes).

Issue target, for context only: hipify-py-check on one staged file under 0.5 s end
to end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import generate_source  # noqa: E402

HIP_FILE = """\
#include <hip/hip_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
int main() {
  float* d = nullptr;
  hipMalloc(&d, 1024 * sizeof(float));
  scale<<<4, 256>>>(d, 2.0f, 1024);
  hipDeviceSynchronize();
  hipFree(d);
  return 0;
}
"""


def _env(cache: Path, with_checkout: bool = True) -> dict[str, str]:
    env = dict(os.environ)
    env["HIPIFY_PY_CACHE_DIR"] = str(cache)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    if with_checkout:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    else:
        env.pop("PYTHONPATH", None)
    return env


def _timed(cmd: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(
        list(cmd), env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - start, proc.returncode


def _measure(
    label: str,
    cmd: Sequence[str],
    env: dict[str, str],
    runs: int,
    *,
    cwd: Path | None = None,
    before: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    samples = []
    codes = set()
    for i in range(runs + 1):  # the first run warms the page cache and .pyc files
        if before is not None:
            before(i)
        seconds, code = _timed(cmd, env, cwd)
        codes.add(code)
        if i:
            samples.append(seconds)
    row = {
        "case": label,
        "best_ms": round(min(samples) * 1000, 1),
        "median_ms": round(statistics.median(samples) * 1000, 1),
        "worst_ms": round(max(samples) * 1000, 1),
        "exit_codes": sorted(codes),
    }
    print(
        f"  {label:<58} {row['median_ms']:>7.1f} {row['best_ms']:>7.1f} {row['worst_ms']:>7.1f}"
        f"   exit {','.join(map(str, row['exit_codes']))}",
        flush=True,
    )
    return row


def _git(cwd: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _git_env(home: Path, cache: Path) -> dict[str, str]:
    env = _env(cache, with_checkout=False)
    for key in list(env):
        if key.startswith("GIT_"):
            del env[key]
    (home / "gitconfig").touch()
    env.update(
        GIT_CONFIG_GLOBAL=str(home / "gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.com",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.com",
        PRE_COMMIT_HOME=str(home / "pre-commit"),
        PRE_COMMIT_COLOR="never",
    )
    return env


def _snapshot(work: Path, env: dict[str, str]) -> tuple[Path, str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    snapshot = work / "hook-repo"
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, snapshot / name)
    _git(snapshot, env, "init", "-q")
    _git(snapshot, env, "add", "-A")
    _git(snapshot, env, "commit", "-q", "-m", "snapshot")
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=snapshot, env=env, capture_output=True, text=True
    ).stdout.strip()
    return snapshot, rev


def bench_pre_commit(
    python: str, work: Path, cuda: str, runs: int, cache: Path
) -> list[dict[str, Any]]:
    home = work / "home"
    home.mkdir()
    env = _git_env(home, cache)
    snapshot, rev = _snapshot(work, env)
    repo = work / "project"
    repo.mkdir()
    _git(repo, env, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {snapshot}\n    rev: {rev}\n    hooks:\n      - id: hipify-py-check\n"
    )
    print("  (installing the hook's virtualenv: not timed)", flush=True)
    start = time.perf_counter()
    installed = subprocess.run(
        [python, "-m", "pre_commit", "install", "--install-hooks"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    if installed.returncode != 0:
        print(f"  ! pre-commit install failed:\n{installed.stdout}{installed.stderr}")
        return []
    print(f"  (installed in {time.perf_counter() - start:.1f} s)", flush=True)
    _git(repo, env, "add", ".pre-commit-config.yaml")
    _git(repo, env, "commit", "-q", "-m", "config")
    one = repo / "one.cu"
    hip = repo / "one_hip.cpp"

    def stage(path: Path, text: str) -> Callable[[int], None]:
        def before(i: int) -> None:
            path.write_text(f"// edit {i} {time.time_ns()}\n{text}", encoding="utf-8")
            _git(repo, env, "add", path.name)

        return before

    rows = [
        _measure(
            "pre-commit run hipify-py-check --files one.cu (CUDA)",
            [python, "-m", "pre_commit", "run", "hipify-py-check", "--files", "one.cu"],
            env,
            runs,
            cwd=repo,
            before=stage(one, cuda),
        ),
        _measure(
            "git commit, hook installed, one staged CUDA file (refused)",
            ["git", "commit", "-q", "-m", "bench"],
            env,
            runs,
            cwd=repo,
            before=stage(one, cuda),
        ),
    ]
    _git(repo, env, "rm", "-q", "--cached", "one.cu")
    rows.append(
        _measure(
            "git commit, hook installed, one staged HIP file (passes)",
            ["git", "commit", "-q", "-m", "bench"],
            env,
            runs,
            cwd=repo,
            before=stage(hip, HIP_FILE),
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per case (default 7)")
    parser.add_argument("--size", type=int, default=5000, help="bytes of the CUDA file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-pre-commit", action="store_true", help="skip the pre-commit cases")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="hipify-check-latency-") as tmp:
        work = Path(tmp)
        cache = work / "cache"
        cuda = generate_source(random.Random(args.seed), ".cu", args.size, "Hook")
        one = work / "one.cu"
        one.write_text(cuda, encoding="utf-8")
        env = _env(cache)
        subprocess.run(
            [python, "-m", "hipify_py", "check", str(one)], env=env, capture_output=True
        )  # fills the table cache
        print(
            f"hipify-py check latency: Python {platform.python_version()}, "
            f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
            f"{len(cuda.encode())} byte CUDA file, {args.runs} runs each"
        )
        print(f"  {'case':<58} {'median':>7} {'best':>7} {'worst':>7}   (ms)")

        def edit(i: int) -> None:
            one.write_text(f"// edit {i} {time.time_ns()}\n{cuda}", encoding="utf-8")

        check = [python, "-m", "hipify_py", "check", str(one), "--format", "text"]
        rows = [
            _measure("python -c pass", [python, "-c", "pass"], env, args.runs),
            _measure(
                "python -m hipify_py check one.cu (new content)",
                check,
                env,
                args.runs,
                before=edit,
            ),
            _measure("python -m hipify_py check one.cu (unchanged)", check, env, args.runs),
        ]
        script = shutil.which("hipify-py") or str(Path(python).with_name("hipify-py"))
        if Path(script).is_file():
            rows.append(
                _measure(
                    "hipify-py check one.cu (new content)",
                    [script, "check", str(one), "--format", "text"],
                    env,
                    args.runs,
                    before=edit,
                )
            )
        if not args.no_pre_commit:
            try:
                import pre_commit  # noqa: F401
            except ImportError:
                print("  (pre-commit is not installed: pip install pre-commit; skipped)")
            else:
                if shutil.which("git") is None:
                    print("  (git is not installed; pre-commit cases skipped)")
                else:
                    rows += bench_pre_commit(python, work, cuda, args.runs, cache)
    if args.json is not None:
        args.json.write_text(json.dumps({"runs": args.runs, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
