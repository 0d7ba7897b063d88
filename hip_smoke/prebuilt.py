"""Run binaries built elsewhere (``hipify-py smoke --build-dir DIR``) on a machine
that has the GPU but no toolchain, and compare their output.

Standard library only: the GPU machine may have nothing but Python.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from .compare import compare, expected_for_platform, normalise


def run_prebuilt(
    build_dir: Path, platforms: list[str], record: Path | None = None
) -> list[dict[str, Any]]:
    """Run every kept binary; with ``record``, write the CUDA originals' outputs there."""
    manifest = json.loads((build_dir / "manifest.json").read_text(encoding="utf-8"))
    values = manifest.get("values", {})
    results = []
    for entry in manifest["samples"]:
        for platform in platforms:
            program = build_dir / platform / entry["sample"] / "prog"
            result: dict[str, Any] = {"sample": entry["sample"], "platform": platform}
            if not program.is_file():
                result.update(run="skipped", detail="not built for this platform")
                results.append(result)
                continue
            if not entry["run"]:
                result.update(run="skipped", detail="compile-only sample")
                results.append(result)
                continue
            try:
                done = subprocess.run([str(program)], capture_output=True, text=True, timeout=300)
            except subprocess.TimeoutExpired:
                result.update(run="failed", detail="timed out")
                results.append(result)
                continue
            result.update(
                run="ok" if done.returncode == 0 else "failed",
                exit_code=done.returncode,
                output=done.stdout,
                stderr=done.stderr[-2000:],
            )
            if platform == "cuda":
                if record is not None:
                    record.mkdir(parents=True, exist_ok=True)
                    (record / f"{entry['sample']}.txt").write_text(done.stdout, encoding="utf-8")
                if entry.get("expected") is None and done.returncode == 0:
                    # nothing recorded yet: the translations are compared with this run
                    entry["expected"] = done.stdout
                    entry["expected_from"] = "this run of the CUDA original"
            if entry.get("expected") is None:
                result.update(match="skipped", detail="no recorded output")
            else:
                expected = expected_for_platform(
                    normalise(entry["expected"]),
                    tuple(entry.get("platform_dependent", ())),
                    values,
                    "nvidia" if platform == "cuda" else platform,
                )
                difference = compare(done.stdout, expected, float(entry.get("tolerance", 0.0)))
                result.update(
                    match="ok" if difference is None else "failed", detail=difference or ""
                )
            results.append(result)
    return results
