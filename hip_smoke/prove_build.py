"""``hipify-py prove``, the build half: translate the project as its own
translate run would, and build each program three ways: the CUDA original
(nvcc), the translation for AMD (hipcc) and for HIP's NVIDIA backend (nvcc 12.x
with HIP's headers).  The binaries go into a build folder with a manifest
(prove.json) that says how to run and compare them, here or on a GPU machine
(``--run-prebuilt``)."""

from __future__ import annotations

import contextlib
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .linking import carry_libraries, cuda_linking, unsatisfied
from .prove_config import Program, ProveConfig
from .prove_run import MANIFEST, rules_to
from .toolchain import Compiler

# never part of a program's sources (besides the build folder itself)
_NOT_COPIED = (
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".venv",
    "venv",
    "node_modules",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)


@dataclass
class Toolchains:
    """The compilers found, and for each side not found, why."""

    compilers: dict[str, Compiler] = field(default_factory=dict)  # cuda, amd, nvidia
    missing: dict[str, str] = field(default_factory=dict)
    offload_arch: str = "gfx942"
    wanted: set[str] = field(default_factory=lambda: {"cuda", "amd", "nvidia"})
    # a second nvcc for the originals whose library headers the first lacks
    cuda_fallback: Compiler | None = None


def _first_error(text: str) -> str:
    lines = [line for line in text.splitlines() if "error" in line.lower()]
    fallback = text.strip().splitlines()[-1] if text.strip() else "failed"
    return (lines[0] if lines else fallback).strip()[:300]


def translate_tree(
    config: ProveConfig, compiler: Compiler, into: Path, build_dir: Path | None = None
) -> tuple[bool, str]:
    """Translate the configuration's root into ``into`` with the real
    ``hipify-py`` command and the project's options (its configuration file;
    the HIP version of the compiler unless the project pins one)."""
    from hipify_py.project.config import ConfigError, project_config

    try:
        options = project_config(config.translate_config, config.root)
    except ConfigError as exc:
        return False, str(exc)
    argv = [sys.executable, "-m", "hipify_py", str(config.root), "--output-dir", str(into)]
    argv += ["--copy-all", "-q", *(f"--exclude={name}/" for name in _NOT_COPIED)]
    if build_dir is not None and build_dir.resolve().is_relative_to(config.root):
        argv.append(f"--exclude=/{build_dir.resolve().relative_to(config.root).as_posix()}/")
    if options.path is not None:
        argv += ["--config", str(options.path)]
    version = options.values.get("hip_version")
    if version is None:
        version = compiler.hip_version
        argv += ["--hip-version", version]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        return False, _first_error(done.stderr + done.stdout)
    used = f"translated for HIP {version}" + (
        f" with {options.path.name}" if options.path is not None else ""
    )
    return True, used


def _copy_originals(config: ProveConfig, into: Path, build_dir: Path) -> None:
    def ignore(folder: str, names: list[str]) -> set[str]:
        here = Path(folder)
        return {n for n in names if n in _NOT_COPIED or (here / n).resolve() == build_dir.resolve()}

    shutil.copytree(config.root, into, ignore=ignore, symlinks=True)


def _gap(
    program: Program, platform: str, compiler: Compiler, platforms: dict[str, Any]
) -> str | None:
    """Why ``program`` cannot be built for ``platform`` here, if it cannot."""
    for library in program.libraries:
        info = platforms["libraries"][library]
        if platform == "amd":
            header = info["amd"]["header"]
            if not compiler.has_header(header):
                why = info["amd"].get("missing", {}).get(compiler.release)
                return f"{library} not available" + (
                    f" on ROCm {compiler.release}: {why}" if why else f" (<{header}> not found)"
                )
        elif platform == "nvidia":
            if not info["nvidia"].get("available", False):
                return f"{library}: {info['nvidia']['why']}"
            header = info["nvidia"].get("header")
            if header and not compiler.has_header(header):
                return f"{library} not available for HIP on NVIDIA (<{header}> not found)"
    return None


def build_program(
    program: Program,
    platform: str,
    compiler: Compiler,
    source_tree: Path,
    out: Path,
    arch: str,
    platforms: dict[str, Any],
) -> dict[str, Any]:
    """Build one side of one program into ``out``/NAME/prog."""
    gap = _gap(program, platform, compiler, platforms)
    if gap is not None:
        return {"built": "skipped", "detail": gap}
    folder = out / program.name
    folder.mkdir(parents=True, exist_ok=True)
    binary = folder / "prog"
    note = ""
    carry = False
    if platform == "amd":
        flags = [f"--offload-arch={arch}", "-x", "hip"]
        libs = [
            f"-l{n}"
            for lib in program.libraries
            for n in platforms["libraries"][lib]["amd"]["link"]
        ]
    else:
        flags = ["-x", "cu"]
        if platform == "nvidia":
            # HIP's NVIDIA backend calls the driver API (hipDeviceGetAttribute)
            libs = ["-lcuda"]
        else:
            linking = cuda_linking(program.libraries, compiler, platforms)
            libs, carry, note = linking.flags, linking.carry, linking.note
    flags += list(program.flags)
    template = program.build or (
        "{cc} {flags} " + " ".join(shlex.quote(s) for s in program.sources) + " -o {out} {libs}"
    )
    if "{libs}" not in template:
        template += " {libs}"
    script = (
        template.replace("{cc}", shlex.join(compiler.command))
        .replace("{flags}", shlex.join(flags))
        .replace("{out}", shlex.quote(compiler.inner(binary)))
        .replace("{libs}", shlex.join(libs))
        .rstrip()
    )
    shown = script.replace(str(compiler.inner(folder)), "$OUT")
    try:
        done = compiler.shell(script, source_tree)
    except subprocess.TimeoutExpired:
        return {"built": "failed", "detail": "build timed out", "command": shown}
    if done.returncode != 0:
        return {
            "built": "failed",
            "detail": _first_error(done.stderr + done.stdout),
            "command": shown,
        }
    if not binary.is_file():
        return {"built": "failed", "detail": "the build made no {out}", "command": shown}
    if carry:
        copied, error = carry_libraries(binary, compiler)
        if error:
            return {"built": "failed", "detail": error, "command": shown, "linking": note}
        missing = unsatisfied(binary)
        if missing:
            return {"built": "failed", "detail": "; ".join(missing), "command": shown}
        note += "; carried beside the binary (rpath $ORIGIN): " + ", ".join(copied)
    return {"built": "ok", "detail": "", "command": shown, "linking": note}


def build_all(
    config: ProveConfig,
    programs: list[Program],
    toolchains: Toolchains,
    build_dir: Path,
    platforms: dict[str, Any],
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Build every side of every program into ``build_dir``; returns (and
    writes) the manifest."""
    build_dir.mkdir(parents=True, exist_ok=True)
    # a build folder collects sides: what an earlier run built (the CUDA
    # originals, on another machine) stays unless built again now
    earlier = _earlier(build_dir)
    old_entries = {e["name"]: e for e in earlier.get("programs", [])}
    sides: dict[str, dict[str, dict[str, Any]]] = {
        p.name: dict(old_entries.get(p.name, {}).get("sides", {})) for p in programs
    }
    for program in programs:
        for platform in ("cuda", *program.platforms):
            if platform not in toolchains.wanted:
                sides[program.name].setdefault(
                    platform, {"built": "skipped", "detail": "not built (--platform)"}
                )
    translations: dict[str, str] = dict(earlier.get("translations", {}))
    originals = [c for c in (toolchains.compilers.get("cuda"), toolchains.cuda_fallback) if c]
    if "cuda" in toolchains.wanted and not originals:
        why = toolchains.missing.get("cuda", "no nvcc")
        for program in programs:
            sides[program.name]["cuda"] = {"built": "skipped", "detail": why}
    elif "cuda" in toolchains.wanted:
        with contextlib.ExitStack() as stack:
            trees: dict[int, Path] = {}
            for program in programs:
                compiler = _original_compiler(program, originals, platforms)
                if isinstance(compiler, str):
                    sides[program.name]["cuda"] = {"built": "skipped", "detail": compiler}
                    continue
                if id(compiler) not in trees:
                    progress(f"cuda: {compiler.description}")
                    work = stack.enter_context(compiler.workspace())
                    _copy_originals(config, work / "src", build_dir)
                    trees[id(compiler)] = work
                progress(f"cuda: building {program.name}")
                sides[program.name]["cuda"] = _build_and_keep(
                    program,
                    "cuda",
                    compiler,
                    trees[id(compiler)],
                    build_dir,
                    toolchains,
                    platforms,
                )
    for platform in ("amd", "nvidia"):
        if platform not in toolchains.wanted:
            continue
        chosen = toolchains.compilers.get(platform)
        wanted = [p for p in programs if platform in p.platforms]
        if chosen is None:
            why = toolchains.missing.get(platform, "not asked for")
            for program in wanted:
                sides[program.name][platform] = {"built": "skipped", "detail": why}
            continue
        if not wanted:
            continue
        progress(f"{platform}: {chosen.description}")
        with chosen.workspace() as work:
            progress(f"{platform}: translating {config.root}")
            ok, detail = translate_tree(config, chosen, work / "src", build_dir)
            translations[platform] = detail
            for program in wanted:
                if not ok:
                    sides[program.name][platform] = {
                        "built": "failed",
                        "detail": f"translation failed: {detail}",
                    }
                    continue
                progress(f"{platform}: building {program.name}")
                sides[program.name][platform] = _build_and_keep(
                    program, platform, chosen, work, build_dir, toolchains, platforms
                )
    manifest = {
        "schema": 1,
        "config": str(config.path),
        "compilers": {
            **earlier.get("compilers", {}),
            **{p: c.description for p, c in toolchains.compilers.items()},
            **(
                {"cuda (fallback)": toolchains.cuda_fallback.description}
                if toolchains.cuda_fallback
                else {}
            ),
        },
        "translations": translations,
        "programs": [_entry(p, config, build_dir, sides[p.name]) for p in programs]
        + [e for name, e in old_entries.items() if name not in sides],
    }
    import json

    (build_dir / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def _earlier(build_dir: Path) -> dict[str, Any]:
    import json

    try:
        data = json.loads((build_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("schema") == 1 else {}


def _original_compiler(
    program: Program, originals: list[Compiler], platforms: dict[str, Any]
) -> Compiler | str:
    """The first nvcc that has the headers of the program's libraries (the
    machine's own CUDA may lack cuBLAS; the Debian root's has it), or why none."""
    headers = [
        platforms["libraries"][lib]["cuda_header"]
        for lib in program.libraries
        if platforms["libraries"][lib].get("cuda_header")
    ]
    for compiler in originals:
        if all(compiler.has_header(h) for h in headers):
            return compiler
    missing = [h for h in headers if not originals[-1].has_header(h)]
    return f"<{missing[0]}> not found for " + " nor ".join(c.description for c in originals)


def _build_and_keep(
    program: Program,
    platform: str,
    compiler: Compiler,
    work: Path,
    build_dir: Path,
    toolchains: Toolchains,
    platforms: dict[str, Any],
) -> dict[str, Any]:
    side = build_program(
        program,
        platform,
        compiler,
        work / "src",
        work / "out",
        toolchains.offload_arch,
        platforms,
    )
    side["compiler"] = compiler.description
    if side["built"] == "ok":
        kept = build_dir / platform / program.name
        if kept.exists():
            shutil.rmtree(kept)
        shutil.copytree(work / "out" / program.name, kept, symlinks=True)
        side["binary"] = f"{platform}/{program.name}/prog"
    return side


def _entry(
    program: Program, config: ProveConfig, build_dir: Path, sides: dict[str, Any]
) -> dict[str, Any]:
    inputs = None
    if program.inputs:
        target = build_dir / "inputs" / program.name
        if target.exists():
            shutil.rmtree(target)
        for item in program.inputs:
            source = config.root / item
            destination = target / item
            destination.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, destination, symlinks=True)
            else:
                shutil.copy2(source, destination)
        inputs = f"inputs/{program.name}"
    return {
        "name": program.name,
        "line": program.line,
        "args": program.argv(),
        "env": program.environment(),
        "seed": program.seed,
        "timeout": program.timeout,
        "runs": program.runs,
        "rules": rules_to(program.rules),
        "inputs": inputs,
        "sides": sides,
    }
