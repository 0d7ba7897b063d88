"""``hipify-py smoke`` and ``python -m hip_smoke``: the command line of the harness."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from . import cli_common
from .toolchain import RELEASES

SMOKE_HELP = """Translate the CUDA sample programs, compile them for a real GPU target and
(where such a GPU is present) run them and compare with the CUDA originals.

\b
Examples:
  hipify-py smoke --compile-only                 every sample, for gfx942 (AMD)
  hipify-py smoke --compile-only --rocm 7.2      the same with ROCm 7.2 (HIP 7.2)
  hipify-py smoke vector_add warp_vote           two samples
  hipify-py smoke --platform nvidia --cuda       HIP's NVIDIA backend + the CUDA originals
  hipify-py smoke --provision amd                make the Debian 13 HIP root (root only)
  hipify-py smoke --provision amd-7.2            make the ROCm 7.2 root (root only)
  hipify-py smoke --run-prebuilt DIR             run binaries built with --build-dir DIR

Exit code: 0 when nothing failed, 1 when a sample failed a step, 2 on a
toolchain or usage error.  Skipped steps say why.
"""


@click.command("smoke", help=SMOKE_HELP, context_settings=cli_common.CONTEXT_SETTINGS)
@click.argument("samples", nargs=-1)
@click.option(
    "--platform",
    type=click.Choice(["amd", "nvidia", "cuda"]),
    default="amd",
    show_default=True,
    help="amd: hipcc for --offload-arch; nvidia: nvcc 12.4 with HIP's NVIDIA headers; "
    "cuda: the CUDA originals only (nvcc).",
)
@cli_common.offload_arch_option()
@cli_common.compile_only_option("Build, but run nothing (even if a GPU is present).")
@cli_common.hipcc_option()
@cli_common.rocm_option(
    "The ROCm release to build with: its root (--provision amd-X.Y), or a hipcc of "
    "that HIP; the translation targets that HIP.  Default: the first hipcc found."
)
@click.option(
    "--cuda", "with_cuda", is_flag=True, help="Also build (and run) the CUDA originals with nvcc."
)
@cli_common.prebuilt_options(
    "Keep the binaries here, with a manifest for --run-prebuilt.",
    "Run the binaries of a --build-dir (needs only Python and the GPU).",
)
@click.option(
    "--record-expected",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --run-prebuilt: write the CUDA originals' outputs into this folder.",
)
@click.option(
    "--provision",
    type=click.Choice(["amd", *(f"amd-{r}" for r in RELEASES), "nvidia"]),
    help="Find or make the toolchain for a platform (amd-X.Y: that ROCm release; "
    "amd with --rocm X.Y: the same), report what was done, and exit.",
)
@cli_common.report_option("How to print the results (json/md on stdout).")
@click.option(
    "--results",
    "results_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the results as JSON to this file.",
)
@click.option(
    "--table-from",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Print the markdown table of a results JSON file and exit.",
)
def smoke_command(samples: tuple[str, ...], **flags: Any) -> None:
    sys.exit(run_smoke(list(samples), flags))


def run_smoke(names: list[str], flags: dict[str, Any]) -> int:
    from . import report

    if flags["table_from"] is not None:
        data = json.loads(Path(flags["table_from"]).read_text(encoding="utf-8"))
        click.echo(report.markdown(data["results"] if isinstance(data, dict) else data))
        return 0
    if flags["provision"]:
        platform = flags["provision"]
        if platform == "amd" and flags["rocm"]:
            platform = f"amd-{flags['rocm']}"
        return _provision(platform)
    if flags["run_prebuilt"] is not None:
        return _run_prebuilt(flags)
    return _build_and_run(names, flags)


def _provision(platform: str) -> int:
    from .toolchain import provision

    code, text = provision(platform)
    click.echo(text.rstrip(), err=True)
    return 0 if code == 0 else 2


def _run_prebuilt(flags: dict[str, Any]) -> int:
    from . import report
    from .prebuilt import run_prebuilt

    build_dir = Path(flags["run_prebuilt"])
    platforms = [p for p in ("cuda", "nvidia", "amd") if (build_dir / p).is_dir()]
    results = run_prebuilt(build_dir, platforms, flags["record_expected"])
    return report.emit(results, flags["report_format"], flags["results_file"], ran=True)


def _build_and_run(names: list[str], flags: dict[str, Any]) -> int:
    from . import report
    from .harness import Settings, load_platforms, smoke_sample, write_manifest
    from .samples_index import SampleError, select
    from .toolchain import ToolchainError, gpu_present

    try:
        samples = select(names)
    except SampleError as exc:
        return cli_common.error("smoke", str(exc))
    platform = flags["platform"]
    try:
        compilers = [cli_common.find_compiler(platform, flags)] if platform != "cuda" else []
        if flags["with_cuda"] or platform == "cuda":
            compilers.insert(0, cli_common.find_compiler("cuda", flags))
    except ToolchainError as exc:
        return cli_common.error("smoke", str(exc))
    platforms = load_platforms()
    results = []
    for compiler in compilers:
        run_it = not flags["compile_only"] and gpu_present(
            "amd" if compiler.platform == "amd" else "nvidia"
        )
        click.echo(f"{compiler.platform}: {compiler.description}", err=True)
        if not run_it:
            why = "--compile-only" if flags["compile_only"] else "no GPU of this platform here"
            click.echo(f"{compiler.platform}: nothing will be run ({why})", err=True)
        settings = Settings(
            platform=compiler.platform,
            offload_arch=flags["offload_arch"],
            compile_only=flags["compile_only"],
            build_dir=flags["build_dir"],
            hip_version=compiler.hip_version,
        )
        for sample in samples:
            result = smoke_sample(sample, compiler, settings, run_it, platforms)
            results.append(result.to_dict())
    if flags["build_dir"] is not None:
        write_manifest(Path(flags["build_dir"]), samples, platforms)
    ran = any(r["run"]["status"] == "ok" for r in results)
    return report.emit(results, flags["report_format"], flags["results_file"], ran=ran)


def main() -> None:
    smoke_command(prog_name="python -m hip_smoke")
