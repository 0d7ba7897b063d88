"""Translate each sample with the library, compile it, run it where a GPU of the
platform is present, and compare its output with the CUDA original's."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .compare import compare, expected_for_platform, normalise
from .linking import Linking, carry_libraries, cuda_linking
from .samples_index import Sample
from .toolchain import Compiler

OK, FAILED, SKIPPED, NOT_RUN = "ok", "failed", "skipped", "not run"
_SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".inl")
PLATFORMS_FILE = Path(__file__).resolve().parent / "platforms.yaml"


@dataclass
class Step:
    status: str
    detail: str = ""


@dataclass
class SampleResult:
    sample: str
    platform: str
    translate: Step = field(default_factory=lambda: Step(NOT_RUN))
    compile: Step = field(default_factory=lambda: Step(NOT_RUN))
    run: Step = field(default_factory=lambda: Step(NOT_RUN))
    match: Step = field(default_factory=lambda: Step(NOT_RUN))
    output: str = ""
    commands: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return FAILED in (
            self.translate.status,
            self.compile.status,
            self.run.status,
            self.match.status,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Settings:
    platform: str  # "amd" or "nvidia" (translated HIP), "cuda" (the originals)
    offload_arch: str = "gfx942"
    compile_only: bool = False
    hip_version: str = "5.7"
    build_dir: Path | None = None  # keep binaries here (to run them elsewhere)


def load_platforms() -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(PLATFORMS_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _library_gap(sample: Sample, compiler: Compiler, platforms: dict[str, Any]) -> str | None:
    """Why this sample's libraries are not available on this platform, if they are not."""
    libraries = platforms["libraries"]
    for library in sample.libraries:
        info = libraries.get(library)
        if info is None:
            return f"{library}: unknown library (add it to hip_smoke/platforms.yaml)"
        if compiler.platform == "amd":
            header = info["amd"]["header"]
            if not compiler.has_header(header):
                why = info["amd"].get("missing", {}).get(compiler.release)
                if why is not None:
                    return f"{library} not available on ROCm {compiler.release}: {why}"
                return f"{library} not available (<{header}> not found)"
        elif compiler.platform == "nvidia":
            if not info["nvidia"].get("available", False):
                return f"{library}: {info['nvidia']['why']}; runs as a CUDA original only"
            header = info["nvidia"].get("header")
            if header and not compiler.has_header(header):
                return f"{library} not available for HIP on NVIDIA (<{header}> not found)"
    return None


def _link_flags(sample: Sample, platform: str, platforms: dict[str, Any]) -> list[str]:
    flags: list[str] = []
    for library in sample.libraries:
        info = platforms["libraries"][library]
        names = info["cuda_link"] if platform in ("cuda", "nvidia") else info["amd"]["link"]
        flags.extend(f"-l{name}" for name in names)
    return flags


def translate_sample(sample: Sample, into: Path, hip_version: str) -> Step:
    """Translate every source of the sample folder into ``into`` (same names)."""
    from hipify_py import Options, load_table, translate_bytes
    from hipify_py.engine.diagnostics import Severity
    from hipify_py.tables.versions import parse_version

    table = load_table()
    options = Options.from_kwargs(hip_version=hip_version)
    target = parse_version(hip_version)
    errors: list[str] = []
    ported = 0
    for path in sorted(sample.folder.iterdir()):
        if path.suffix not in _SOURCE_SUFFIXES:
            continue
        original = path.read_bytes()
        result = translate_bytes(original, table, options)
        text = result.data.decode("utf-8", errors="surrogateescape")
        lines = original.decode("utf-8", errors="surrogateescape").splitlines()
        ports = [
            p
            for p in sample.hand_ports
            if p.source == path.name and target < parse_version(p.below)
        ]
        used: set[int] = set()
        for d in result.diagnostics:
            if d.severity is not Severity.ERROR:
                continue
            line = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
            covering = next(
                (i for i, p in enumerate(ports) if p.code == d.code and p.find in line), None
            )
            if covering is None:
                errors.append(f"{path.name}:{d.line}:{d.column}: {d.message} [{d.code}]")
            else:
                used.add(covering)
        for index, port in enumerate(ports):
            if index not in used:
                errors.append(
                    f"{path.name}: hand port of {port.find!r} ({port.code}) is stale: "
                    "the translation no longer reports it"
                )
            elif text.count(port.find) != 1:
                errors.append(
                    f"{path.name}: hand port of {port.find!r} occurs "
                    f"{text.count(port.find)} times in the translation, not once"
                )
            else:
                text = text.replace(port.find, port.replace)
                ported += 1
        (into / path.name).write_bytes(text.encode("utf-8", errors="surrogateescape"))
    if errors:
        return Step(
            FAILED,
            "; ".join(errors[:5]) + (f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""),
        )
    if ported:
        return Step(OK, f"{ported} reported site(s) ported by hand as the hints say")
    return Step(OK)


def _copy_originals(sample: Sample, into: Path) -> None:
    for path in sample.folder.iterdir():
        if path.suffix in _SOURCE_SUFFIXES:
            shutil.copy2(path, into / path.name)


def _compile(
    sample: Sample,
    compiler: Compiler,
    work: Path,
    settings: Settings,
    platforms: dict[str, Any],
    result: SampleResult,
) -> Path | None:
    """-c each source, then link; returns the program (inside ``work``) or None."""
    arch = [f"--offload-arch={settings.offload_arch}"] if compiler.platform == "amd" else []
    language = ["-x", "hip"] if compiler.platform == "amd" else ["-x", "cu"]
    extra = (
        os.environ.get("HIP_SMOKE_CUDA_FLAGS", "").split() if compiler.platform == "cuda" else []
    )
    objects = []
    for source in sample.sources:
        obj = Path(source).stem + ".o"
        args = [*arch, *language, *extra, "-c", source, "-o", obj]
        result.commands.append(" ".join([*compiler.command, *args]))
        done = compiler.run(args, cwd=work)
        if done.returncode != 0:
            missing = _missing_library_header(done.stderr + done.stdout, sample, platforms)
            if missing is not None:
                result.compile = Step(SKIPPED, missing)
                return None
            result.compile = Step(FAILED, _first_error(done.stderr + done.stdout))
            return None
        objects.append(obj)
    if compiler.platform == "cuda" and not sample.run:
        result.compile = Step(OK, "compiled (-c); a compile-only sample is not linked here")
        return None
    linking = Linking()
    if compiler.platform == "cuda":
        # statically where the toolkit can (a --build-dir binary then runs on a
        # GPU machine without libcublas.so.12), else shared and carried beside it
        linking = cuda_linking(sample.libraries, compiler, platforms)
        link_flags = linking.flags
    else:
        link_flags = _link_flags(sample, compiler.platform, platforms)
    args = [*arch, *objects, "-o", "prog", *link_flags]
    if compiler.platform == "nvidia":
        args.append("-lcuda")  # HIP's NVIDIA backend calls the driver API (hipDeviceGetAttribute)
    result.commands.append(" ".join([*compiler.command, *args]))
    done = compiler.run(args, cwd=work)
    if done.returncode != 0:
        result.compile = Step(FAILED, "link: " + _first_error(done.stderr + done.stdout))
        return None
    note = linking.note
    if linking.carry:
        copied, error = carry_libraries(work / "prog", compiler)
        if error:
            result.compile = Step(FAILED, error)
            return None
        note += "; carried beside the binary (rpath $ORIGIN): " + ", ".join(copied)
    result.compile = Step(OK, note)
    return work / "prog"


_MISSING_HEADER = re.compile(
    r"fatal error: '?([^'\s:]+)'?(?:: No such file or directory| file not found)"
)


def _missing_library_header(output: str, sample: Sample, platforms: dict[str, Any]) -> str | None:
    """Why the sample is skipped, when its compile failed only because a header
    of one of its libraries is not installed (nvcc without NCCL, a ROCm
    without hipBLAS); None for any other failure."""
    found = _MISSING_HEADER.search(output)
    if found is None:
        return None
    header = found.group(1)
    for library in sample.libraries:
        info = platforms["libraries"].get(library, {})
        headers = {info.get("cuda_header"), info.get("amd", {}).get("header")}
        if header in headers:
            return f"{library} not available (<{header}> not found)"
    return None


def _first_error(text: str) -> str:
    lines = [line for line in text.splitlines() if "error" in line.lower()]
    return (lines[0] if lines else text.strip().splitlines()[-1] if text.strip() else "failed")[
        :300
    ]


def run_program(
    program: Path, compiler: Compiler | None, timeout: int = 120
) -> subprocess.CompletedProcess[str]:
    if compiler is None or compiler.root is None:
        return subprocess.run([str(program)], capture_output=True, text=True, timeout=timeout)
    from .toolchain import GPU_PATHS, bind_mounted

    root = compiler.root
    inner = "/" + str(program.relative_to(root))
    # the GPU must be visible inside the root: its devices (and /sys) for the run
    gpu = GPU_PATHS if compiler.platform == "amd" else ()
    with bind_mounted(root, [Path("/proc"), *gpu]):
        return subprocess.run(
            ["chroot", str(root), inner], capture_output=True, text=True, timeout=timeout
        )


def check_output(sample: Sample, platform: str, output: str, platforms: dict[str, Any]) -> Step:
    expected_file = sample.expected_file("cuda")
    if not expected_file.is_file():
        return Step(SKIPPED, f"no recorded output ({expected_file.name})")
    expected = expected_for_platform(
        normalise(expected_file.read_text(encoding="utf-8")),
        sample.platform_dependent,
        platforms.get("values", {}),
        "nvidia" if platform == "cuda" else platform,
    )
    difference = compare(output, expected, sample.tolerance)
    return Step(OK) if difference is None else Step(FAILED, difference)


def smoke_sample(
    sample: Sample, compiler: Compiler, settings: Settings, run_it: bool, platforms: dict[str, Any]
) -> SampleResult:
    result = SampleResult(sample.name, compiler.platform)
    gap = _library_gap(sample, compiler, platforms)
    with compiler.workspace() as work:
        if compiler.platform == "cuda":
            _copy_originals(sample, work)
            result.translate = Step(SKIPPED, "CUDA original")
        else:
            result.translate = translate_sample(sample, work, settings.hip_version)
        if gap is not None:
            result.compile = Step(SKIPPED, gap)
            return result
        program = _compile(sample, compiler, work, settings, platforms, result)
        if program is None:
            if result.compile.status == OK:
                result.run = Step(SKIPPED, "compile-only sample")
            return result
        if settings.build_dir is not None:
            kept = settings.build_dir / compiler.platform / sample.name
            kept.mkdir(parents=True, exist_ok=True)
            shutil.copy2(program, kept / "prog")
            for library in program.parent.glob("lib*.so*"):  # carried (linking.py)
                shutil.copy2(library, kept / library.name)
        if not sample.run:
            result.run = Step(SKIPPED, "compile-only sample")
            return result
        if settings.compile_only or not run_it:
            result.run = Step(
                NOT_RUN, "compile-only run" if settings.compile_only else "no GPU of this platform"
            )
            return result
        try:
            done = run_program(program, compiler)
        except subprocess.TimeoutExpired:
            result.run = Step(FAILED, "timed out")
            return result
        result.output = done.stdout
        result.run = (
            Step(OK) if done.returncode == 0 else Step(FAILED, f"exit code {done.returncode}")
        )
        result.match = check_output(sample, compiler.platform, done.stdout, platforms)
    return result


def write_manifest(build_dir: Path, samples: list[Sample], platforms: dict[str, Any]) -> None:
    """What a machine with a GPU but no toolchain needs to run the kept binaries."""
    entries = []
    for sample in samples:
        expected = sample.expected_file("cuda")
        entries.append(
            {
                "sample": sample.name,
                "run": sample.run,
                "tolerance": sample.tolerance,
                "platform_dependent": list(sample.platform_dependent),
                "expected": expected.read_text(encoding="utf-8") if expected.is_file() else None,
            }
        )
    manifest = {"values": platforms.get("values", {}), "samples": entries}
    (build_dir / "manifest.json").write_text(
        json.dumps(manifest, indent=2) + "\n", encoding="utf-8"
    )
