"""Run the programs ``hipify-py prove`` built (here, or elsewhere with
``--build-dir``) and judge each translation against its CUDA original.

Standard library only: a GPU machine that runs a build directory may have
nothing but Python.  Each run starts in a fresh folder holding a copy of the
program's inputs; what it prints, its exit code and the files it is expected
to write are kept.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .prove_compare import DIFFERENT, FAILED, SAME, UNSTABLE, Output, Rules, judge

MANIFEST = "prove.json"
SKIPPED, NOT_RUN = "skipped", "not run"
TRANSLATED = ("amd", "nvidia")
# a side runs on a GPU of this vendor
VENDOR = {"cuda": "nvidia", "nvidia": "nvidia", "amd": "amd"}


def rules_from(data: dict[str, Any]) -> Rules:
    return Rules(
        rtol=float(data.get("rtol", 0.0)),
        atol=float(data.get("atol", 0.0)),
        ignore=tuple(data.get("ignore", ())),
        mask=tuple(data.get("mask", ())),
        exit_code=data.get("exit_code", 0),
        files=tuple(data.get("files", ())),
        stderr=bool(data.get("stderr", False)),
    )


def rules_to(rules: Rules) -> dict[str, Any]:
    data = asdict(rules)
    data["ignore"], data["mask"], data["files"] = (
        list(rules.ignore),
        list(rules.mask),
        list(rules.files),
    )
    return data


def output_to(output: Output) -> dict[str, Any]:
    return {
        "stdout": output.stdout,
        "stderr": output.stderr,
        "exit_code": output.exit_code,
        "error": output.error,
        "files": {
            name: None if data is None else base64.b64encode(data).decode("ascii")
            for name, data in output.files.items()
        },
    }


def output_from(data: dict[str, Any]) -> Output:
    return Output(
        stdout=str(data.get("stdout", "")),
        exit_code=data.get("exit_code"),
        files={
            name: None if value is None else base64.b64decode(value)
            for name, value in dict(data.get("files", {})).items()
        },
        stderr=str(data.get("stderr", "")),
        error=str(data.get("error", "")),
    )


def gpu_present(vendor: str) -> bool:
    if vendor == "amd":
        return os.path.exists("/dev/kfd")
    if shutil.which("nvidia-smi") is None:
        return False
    return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0


def run_once(
    binary: Path,
    argv: list[str],
    env: dict[str, str],
    timeout: float,
    inputs: Path | None,
    files: tuple[str, ...],
    chroot: Path | None = None,
) -> Output:
    """One run in a fresh folder (inside ``chroot`` when given: the program and
    the libraries beside it are copied there, and the GPU's devices bound in)."""
    folder = Path(tempfile.mkdtemp(prefix="hipify-prove-", dir=chroot / "tmp" if chroot else None))
    try:
        if inputs is not None and inputs.is_dir():
            shutil.copytree(inputs, folder, dirs_exist_ok=True, symlinks=True)
        full_env = {**os.environ, **env}
        if chroot is None:
            command = [str(binary.resolve()), *argv]
            done = _execute(command, folder, full_env, timeout)
        else:
            shutil.copytree(binary.parent, folder / ".prove-bin", symlinks=True)
            inner = "/" + str(folder.relative_to(chroot))
            program = inner + "/.prove-bin/" + binary.name
            script = 'cd "$1" && shift && exec "$@"'
            command = ["chroot", str(chroot), "/bin/sh", "-c", script, "sh", inner, program, *argv]
            from .toolchain import GPU_PATHS, bind_mounted

            with bind_mounted(chroot, [Path("/proc"), *GPU_PATHS]):
                done = _execute(command, folder, full_env, timeout)
        if isinstance(done, str):
            return Output("", None, error=done)
        written: dict[str, bytes | None] = {}
        for name in files:
            path = folder / name
            written[name] = path.read_bytes() if path.is_file() else None
        return Output(done.stdout, done.returncode, written, done.stderr[-20000:])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _execute(
    command: list[str], cwd: Path, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str] | str:
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:g} s"
    except OSError as exc:
        return f"cannot start it: {exc.strerror or exc}"


def run_side(
    build_dir: Path, entry: dict[str, Any], platform: str, chroot: Path | None = None
) -> list[Output]:
    side = entry["sides"][platform]
    binary = build_dir / side["binary"]
    inputs = build_dir / entry["inputs"] if entry.get("inputs") else None
    rules = rules_from(entry["rules"])
    return [
        run_once(
            binary,
            list(entry["args"]),
            dict(entry["env"]),
            float(entry["timeout"]),
            inputs,
            rules.files,
            chroot,
        )
        for _ in range(int(entry["runs"]))
    ]


def load_recording(folder: Path, name: str) -> list[Output] | None:
    path = folder / f"{name}.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return [output_from(run) for run in data["runs"]]


def record(folder: Path, name: str, runs: list[Output]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = {"program": name, "runs": [output_to(r) for r in runs]}
    (folder / f"{name}.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def run_and_judge(
    build_dir: Path,
    manifest: dict[str, Any],
    *,
    present: Callable[[str], bool] = gpu_present,
    chroots: dict[str, Path] | None = None,
    record_into: Path | None = None,
    recordings: Path | None = None,
    progress: Callable[[str], None] | None = None,
    not_run: str | None = None,
) -> list[dict[str, Any]]:
    """Run every built side whose GPU is here, and compare each translation
    with its original: a result per program and translated platform.

    The original is run here when an NVIDIA GPU is; otherwise its recording
    (``--record`` on an NVIDIA machine: ``recordings``/NAME.json) stands in.
    With ``not_run`` (why: "--compile-only"), nothing is run."""
    results: list[dict[str, Any]] = []
    chroots = chroots or {}
    if not_run is not None:
        present = _nowhere
    for entry in manifest["programs"]:
        rules = rules_from(entry["rules"])
        sides = {"cuda": _NOT_BUILT, **entry["sides"]}
        original, original_status = _original(
            build_dir, entry, present, chroots, recordings, progress
        )
        if original is not None and record_into is not None and original_status == "ran":
            record(record_into, entry["name"], original)
        for platform in TRANSLATED:
            side = sides.get(platform)
            if side is None:
                continue
            result = _result(entry, platform, sides["cuda"], side, original_status)
            results.append(result)
            if side["built"] != "ok":
                result["verdict"] = FAILED if side["built"] == "failed" else SKIPPED
                result["detail"] = _detail(platform, side)
                continue
            if sides["cuda"]["built"] != "ok" and original is None:
                result["verdict"] = FAILED if sides["cuda"]["built"] == "failed" else SKIPPED
                result["detail"] = "CUDA original: " + sides["cuda"].get("detail", "")
                continue
            if not present(VENDOR[platform]):
                result["translation"] = "built"
                result["verdict"] = NOT_RUN
                result["detail"] = not_run or f"no {VENDOR[platform].upper()} GPU here"
                continue
            if original is None:
                result["translation"] = "built"
                result["verdict"] = NOT_RUN
                result["detail"] = (
                    "no NVIDIA GPU here to run the CUDA original, and no recording of it "
                    "(run with --record DIR on an NVIDIA machine)"
                )
                continue
            if progress is not None:
                progress(f"{entry['name']}: running the {platform} translation")
            translated = run_side(build_dir, entry, platform, chroots.get(platform))
            result["translation"] = "ran"
            verdict = judge(original, translated, rules)
            result["verdict"] = verdict.status
            result["detail"] = verdict.detail
            if verdict.difference is not None:
                difference = verdict.difference
                result["difference"] = {
                    "where": difference.where,
                    "expected": difference.expected,
                    "got": difference.got,
                    "delta": difference.delta,
                    "tolerance": difference.allowed,
                }
            result["runs"] = {
                "original": [output_to(r) for r in original],
                "translation": [output_to(r) for r in translated],
            }
    return results


_NOT_BUILT = {"built": "skipped", "detail": "not built"}


def _nowhere(vendor: str) -> bool:
    return False


def _original(
    build_dir: Path,
    entry: dict[str, Any],
    present: Callable[[str], bool],
    chroots: dict[str, Path],
    recordings: Path | None,
    progress: Callable[[str], None] | None,
) -> tuple[list[Output] | None, str]:
    side = entry["sides"].get("cuda", _NOT_BUILT)
    if side["built"] == "ok" and present("nvidia"):
        if progress is not None:
            progress(f"{entry['name']}: running the CUDA original")
        return run_side(build_dir, entry, "cuda", chroots.get("cuda")), "ran"
    if recordings is not None:
        found = load_recording(recordings, entry["name"])
        if found is not None:
            return found, "recorded"
    if side["built"] == "ok":
        return None, "built"
    return None, "build failed" if side["built"] == "failed" else "skipped"


def _result(
    entry: dict[str, Any],
    platform: str,
    cuda: dict[str, Any],
    side: dict[str, Any],
    original_status: str,
) -> dict[str, Any]:
    translation = {"ok": "built", "failed": "build failed"}.get(side["built"], "skipped")
    notes = [n for n in (cuda.get("linking", ""), side.get("linking", "")) if n]
    return {
        "program": entry["name"],
        "platform": platform,
        "original": original_status,
        "translation": translation,
        "verdict": NOT_RUN,
        "detail": "",
        "linking": "; ".join(notes),
    }


def _detail(platform: str, side: dict[str, Any]) -> str:
    return f"{platform}: {side.get('detail', '')}".rstrip(": ")


def load_manifest(build_dir: Path) -> dict[str, Any]:
    path = build_dir / MANIFEST
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file (build with: hipify-py prove --build-dir)")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def failed(results: list[dict[str, Any]]) -> bool:
    return any(r["verdict"] in (DIFFERENT, UNSTABLE, FAILED) for r in results)


def compared(results: list[dict[str, Any]]) -> int:
    return sum(r["verdict"] in (SAME, DIFFERENT, UNSTABLE) for r in results)
