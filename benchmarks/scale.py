"""Scale: translate a generated tree of many files in place and report time and
peak memory (issue 8).

    python benchmarks/scale.py                      # 20,000 files, then 2,000 for comparison
    python benchmarks/scale.py --files 20000 --jobs 2 --compare 0

The tree (small CUDA sources of realistic shape, in folders of 100) is made in a
temporary folder and translated by the real CLI (`hipify-py TREE --jobs N -q
--no-cache`, in place).  While it runs, the resident memory of the CLI process
and of each of its worker processes is sampled from /proc every 20 ms; printed
are the peak of the main process, the peak of any one worker, and the peak of
their sum.  Memory that stays flat from 2,000 to 20,000 files is bounded: the
run holds one report per file in flight, not the files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

UNIT = """#include <cuda_runtime.h>
#include "common_{group}.h"

__global__ void saxpy_{n}(int count, float a, const float* x, float* y) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) y[i] = a * x[i] + y[i];
}}

void launch_{n}(int count, float a, const float* hx, float* hy) {{
    float *dx, *dy;
    cudaMalloc((void**)&dx, count * sizeof(float));
    cudaMalloc((void**)&dy, count * sizeof(float));
    cudaMemcpy(dx, hx, count * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, count * sizeof(float), cudaMemcpyHostToDevice);
    saxpy_{n}<<<(count + 255) / 256, 256>>>(count, a, dx, dy);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
    cudaMemcpy(hy, dy, count * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
}}
"""


def make_tree(root: Path, files: int) -> int:
    size = 0
    for n in range(files):
        group = n // 100
        folder = root / f"part{group:03d}"
        if n % 100 == 0:
            folder.mkdir(parents=True)
            header = f"#pragma once\n#define CHECK_{group}(x) (x)\n"
            (folder / f"common_{group}.h").write_text(header)
        data = UNIT.format(n=n, group=group).encode()
        (folder / f"k{n:05d}.cu").write_bytes(data)
        size += len(data)
    return size


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def run(files: int, jobs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="hipify-scale-") as scratch:
        root = Path(scratch) / "tree"
        size = make_tree(root, files)
        env = dict(os.environ, PYTHONPATH=str(REPO), HIPIFY_PY_CACHE_DIR=f"{scratch}/cache")
        # the compiled mapping table is cached by every real install; not timed
        probe = Path(scratch) / "probe.cu"
        probe.write_text("void f() { cudaFree(0); }\n")
        subprocess.run([sys.executable, "-m", "hipify_py", str(probe), "-q"], env=env, check=True)
        command = [sys.executable, "-m", "hipify_py", str(root), "-q", "--no-cache"]
        command += ["--jobs", str(jobs)]
        began = time.monotonic()
        proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE)
        main_peak = worker_peak = total_peak = 0
        while proc.poll() is None:
            main = _rss_kb(proc.pid)
            workers = [_rss_kb(child) for child in _children(proc.pid)]
            main_peak = max(main_peak, main)
            worker_peak = max([worker_peak, *workers])
            total_peak = max(total_peak, main + sum(workers))
            time.sleep(0.02)
        seconds = time.monotonic() - began
        err = proc.stderr.read().decode() if proc.stderr else ""
        if proc.returncode != 0:
            raise SystemExit(f"hipify-py exited {proc.returncode}: {err[-2000:]}")
        translated = sum(1 for p in root.rglob("*.cu") if b"hipMalloc" in p.read_bytes())
        if translated != files:
            raise SystemExit(f"only {translated} of {files} files were translated")
        shutil.rmtree(root)
    return {
        "files": files,
        "mb": size / 1e6,
        "seconds": seconds,
        "files_per_s": files / seconds,
        "main_mb": main_peak / 1024,
        "worker_mb": worker_peak / 1024,
        "total_mb": total_peak / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compare", type=int, default=2000, help="a smaller run (0: none)")
    args = parser.parse_args()
    sizes = [n for n in (args.compare, args.files) if n]
    print(f"hipify-py TREE -q --no-cache --jobs {args.jobs} (in place), peak RSS from /proc")
    print(
        f"{'files':>7} {'MB':>6} {'seconds':>8} {'files/s':>8} {'main MB':>8} "
        f"{'worker MB':>10} {'total MB':>9}"
    )
    for files in sizes:
        row = run(files, args.jobs)
        print(
            f"{row['files']:>7} {row['mb']:>6.1f} {row['seconds']:>8.1f} "
            f"{row['files_per_s']:>8.0f} {row['main_mb']:>8.0f} {row['worker_mb']:>10.0f} "
            f"{row['total_mb']:>9.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
