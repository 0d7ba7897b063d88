"""Speed of the two engines (issue 7).  Prints numbers; asserts nothing.

    python benchmarks/engine_speed.py    # CUDA headers found as --engine clang finds them
    python benchmarks/engine_speed.py --cuda-path /var/cache/hipify-py/trixie-nvidia/usr/include
    python benchmarks/engine_speed.py --json engines.json --repeat 3

Corpus: the hip_smoke sample programs and the golden fixture inputs with
default options (real CUDA code: runtime, cuBLAS, cuFFT, cuRAND, CUB, Thrust,
cooperative groups).  What it measures:

1. In process, per file: the default engine (``translate_bytes``) and the clang
   engine (``semantic.translate_file``, no result cache), both after one
   warm-up pass, so the clang engine's precompiled CUDA headers exist; the time
   to build those once (a cold cache) is printed on its own.  Files the clang
   engine could not compile (fell back, HPY701) are counted.
2. End to end through the CLI (``python -m hipify_py DIR --check -q``) over the
   corpus: each engine with ``--no-cache`` at ``--jobs 1`` and ``--jobs N``, and
   the clang engine's rerun from the result cache.
3. Start-up: one small file, ``--check -q``, with each engine.

Wall times and CPU times (the process and its workers) are printed: on a
shared machine the CPU time is the steadier of the two.  The CLI runs use a
snapshot of the package, so edits made meanwhile in the checkout cannot turn
the result-cache reruns cold.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SMALL = """#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
int main() {
  float* d;
  cudaMalloc(&d, 1024 * sizeof(float));
  scale<<<4, 256>>>(d, 2.0f, 1024);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
"""


def corpus() -> list[Path]:
    import yaml

    files = sorted((ROOT / "hip_smoke" / "samples").glob("*/*.cu"))
    for folder in sorted((ROOT / "fixtures").iterdir()):
        inputs = list(folder.glob("input.*"))
        meta = folder / "meta.yaml"
        if len(inputs) != 1 or not meta.is_file():
            continue
        if not (yaml.safe_load(meta.read_text(encoding="utf-8")) or {}).get("options"):
            files.append(inputs[0])
    return files


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def in_process(
    files: list[Path], cuda_path: Path | None, cache: Path, repeat: int
) -> dict[str, Any]:
    from hipify_py import Options, load_table, translate_bytes
    from hipify_py.semantic import ClangSettings, prepare, translate_file

    table = load_table()
    options = Options()
    start = time.perf_counter()
    setup = prepare(ClangSettings(cuda_path=cuda_path), cache)
    prepare_s = time.perf_counter() - start
    datas = [(f, f.read_bytes()) for f in files]
    size = sum(len(d) for _, d in datas)
    # the first clang parse builds the precompiled CUDA headers
    start = time.perf_counter()
    translate_file(datas[0][0], datas[0][1], table, options, setup)
    first_s = time.perf_counter() - start
    for path, data in datas:  # warm-up: .pyc, page cache, per-flag PCHs
        translate_bytes(data, table, options)
        translate_file(path, data, table, options, setup)
    default: list[float] = []
    clang: list[float] = []
    fell_back = 0
    cpu_start = time.process_time()
    for _ in range(repeat):
        for path, data in datas:
            t = time.perf_counter()
            translate_bytes(data, table, options)
            default.append(time.perf_counter() - t)
            t = time.perf_counter()
            result = translate_file(path, data, table, options, setup)
            clang.append(time.perf_counter() - t)
            fell_back += any(d.code == "HPY701" for d in result.diagnostics)
    rows = {}
    for name, times in (("default", default), ("clang", clang)):
        total = sum(times) / repeat
        rows[name] = {
            "files": len(datas),
            "total_s": round(total, 3),
            "median_ms": _ms(statistics.median(times)),
            "max_ms": _ms(max(times)),
            "mb_per_s": round(size / 1e6 / total, 3),
        }
    rows["clang"]["fell_back"] = fell_back // repeat
    # all rounds of both engines; the default engine's share is tiny
    rows["clang"]["cpu_s_per_round"] = round((time.process_time() - cpu_start) / repeat, 3)
    rows["setup"] = {
        "prepare_ms": _ms(prepare_s),
        "first_file_with_pch_build_ms": _ms(first_s),
        "describe": setup.describe(),
    }
    return rows


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def _row(label: str, samples: list[tuple[float, float]]) -> dict[str, Any]:
    walls = [w for w, _ in samples]
    return {
        "case": label,
        "median_s": round(statistics.median(walls), 3),
        "best_s": round(min(walls), 3),
        "cpu_s": round(statistics.median(c for _, c in samples), 3),
    }


def end_to_end(
    files: list[Path], cuda_path: Path | None, work: Path, repeat: int
) -> list[dict[str, Any]]:
    tree = work / "tree"
    for index, source in enumerate(files):
        target = tree / f"{index:03d}-{source.parent.name}" / source.name
        target.parent.mkdir(parents=True)
        shutil.copyfile(source, target)
    small = work / "small" / "one.cu"
    small.parent.mkdir()
    small.write_text(SMALL)
    # a snapshot of the package: the result cache's key holds a digest of its
    # sources, so edits made in the checkout meanwhile would turn reruns cold
    src = work / "src"
    shutil.copytree(
        ROOT / "hipify_py", src / "hipify_py", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "mappings", src / "mappings")
    env = dict(os.environ, PYTHONPATH=str(src), HIPIFY_PY_CACHE_DIR=str(work / "cache"))
    base = [sys.executable, "-m", "hipify_py"]
    clang = ["--engine", "clang", *(["--cuda-path", str(cuda_path)] if cuda_path else [])]
    cores = os.cpu_count() or 1
    cases = [
        ("start-up, one small file, default", [*base, str(small), "--check", "-q", "--no-cache"]),
        (
            "start-up, one small file, clang",
            [*base, str(small), "--check", "-q", "--no-cache", *clang],
        ),
        ("corpus, default, --jobs 1", [*base, str(tree), "--check", "-q", "--no-cache", "-j", "1"]),
        (
            f"corpus, default, --jobs {cores}",
            [*base, str(tree), "--check", "-q", "--no-cache", "-j", str(cores)],
        ),
        (
            "corpus, clang, --jobs 1",
            [*base, str(tree), "--check", "-q", "--no-cache", "-j", "1", *clang],
        ),
        (
            f"corpus, clang, --jobs {cores}",
            [*base, str(tree), "--check", "-q", "--no-cache", "-j", str(cores), *clang],
        ),
    ]
    rows = []
    for label, cmd in cases:
        _run(cmd, env)  # warm-up (and the PCH)
        rows.append(_row(label, [_run(cmd, env) for _ in range(repeat)]))
    rerun = [*base, str(tree), "--check", "-q", "-j", "1", *clang]
    _run(rerun, env)  # fills the result cache
    samples = [_run(rerun, env) for _ in range(repeat)]
    rows.append(_row("corpus, clang, rerun from the result cache", samples))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuda-path", type=Path, help="CUDA headers for the clang engine")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args()
    files = corpus()
    size = sum(f.stat().st_size for f in files)
    print(
        f"corpus: {len(files)} files, {size / 1000:.0f} kB; {os.cpu_count()} cores; "
        f"Python {platform.python_version()}"
    )
    with tempfile.TemporaryDirectory(prefix="hipify-engines-") as tmp:
        work = Path(tmp)
        os.environ["HIPIFY_PY_CACHE_DIR"] = str(work / "cache")
        rows = in_process(files, args.cuda_path, work / "cache", args.repeat)
        print(f"clang engine: {rows['setup']['describe']}")
        print(
            f"  setup (find libclang, headers): {rows['setup']['prepare_ms']} ms; first file, "
            "building the precompiled CUDA headers: "
            f"{rows['setup']['first_file_with_pch_build_ms']} ms"
        )
        print(f"\nin process, per file ({args.repeat} rounds)")
        print(f"  {'engine':<8} {'total s':>8} {'median ms':>10} {'max ms':>8} {'MB/s':>7}")
        for name in ("default", "clang"):
            r = rows[name]
            print(
                f"  {name:<8} {r['total_s']:>8} {r['median_ms']:>10} {r['max_ms']:>8}"
                f" {r['mb_per_s']:>7}"
            )
        print(f"  CPU time of one round (both engines): {rows['clang']['cpu_s_per_round']} s")
        print(
            f"  clang engine fell back on {rows['clang']['fell_back']} of {len(files)} files "
            "(missing project headers, CUDA 12 removed texture references)"
        )
        print(f"\nend to end, python -m hipify_py ... --check -q (median of {args.repeat})")
        e2e = end_to_end(files, args.cuda_path, work, args.repeat)
        for row in e2e:
            print(
                f"  {row['case']:<48} {row['median_s']:>7} s  (best {row['best_s']}, "
                f"CPU {row['cpu_s']} s)"
            )
    if args.json:
        args.json.write_text(json.dumps({"in_process": rows, "end_to_end": e2e}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
