"""``hipify-py prove`` (also ``hipify-py smoke --project``): the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from . import cli_common

PROVE_HELP = """Prove that your programs, translated, behave like their CUDA originals.

Reads the programs from smoke.toml (or [tool.hipify-py.smoke] in
pyproject.toml), translates the project with its own options, builds each
program as the CUDA original (nvcc) and as the translation for AMD (hipcc,
gfx942) and for HIP's NVIDIA backend (nvcc 12.x), runs each side (twice, to
catch programs that disagree with themselves) where its GPU is, and compares.

\b
Examples:
  hipify-py prove                              every program of ./smoke.toml
  hipify-py prove saxpy -p cuda -p amd         one program: original and AMD translation
  hipify-py prove --compile-only --junit j.xml CI without a GPU: build all sides
  hipify-py prove --compile-only --build-dir B build here ...
  hipify-py prove --run-prebuilt B             ... run and compare there

\b
Exit code: 0 when every compared program is the same (and everything
built); 1 when one differs, is not reproducible or failed to build or run;
2 on a configuration, toolchain or usage error.
"""


@click.command("prove", help=PROVE_HELP, context_settings=cli_common.CONTEXT_SETTINGS)
@click.argument("programs", nargs=-1)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="smoke.toml, or a pyproject.toml with [tool.hipify-py.smoke] "
    "(default: the nearest above the current folder).",
)
@click.option(
    "--platform",
    "-p",
    "platforms",
    type=click.Choice(["amd", "nvidia", "cuda"]),
    multiple=True,
    help="The sides to build (repeatable): amd and nvidia (translations), cuda (the "
    "originals).  Default: the originals, and each translation whose toolchain is found.  "
    "Into a --build-dir, sides not built now are kept from an earlier run.",
)
@cli_common.offload_arch_option()
@cli_common.hipcc_option()
@cli_common.rocm_option("The ROCm release to build with.")
@cli_common.compile_only_option("Build every side; run nothing.")
@cli_common.prebuilt_options(
    "Keep the binaries and prove.json here, for --run-prebuilt on a GPU machine.",
    "Run and compare the binaries of a --build-dir (needs only Python and the GPU).",
)
@click.option(
    "--record",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write the CUDA originals' runs here (NAME.json), to compare with on an AMD machine.",
)
@click.option(
    "--recorded",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Compare with these recordings where the CUDA original cannot run (no NVIDIA GPU).",
)
@click.option("--runs", type=click.IntRange(1, 20), help="Runs per side (overrides the config).")
@click.option("--seed", type=int, help="The seed for {seed} (overrides the config).")
@cli_common.report_option("What to print on stdout.")
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the JSON report here.",
)
@click.option(
    "--markdown",
    "md_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the Markdown report here.",
)
@click.option(
    "--junit",
    "junit_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a JUnit XML file here (one test case per program and platform).",
)
def prove_command(programs: tuple[str, ...], **flags: Any) -> None:
    sys.exit(run_prove(list(programs), flags))


def _error(message: str) -> int:
    return cli_common.error("prove", message)


def _progress(message: str) -> None:
    click.echo(f"prove: {message}", err=True)


def run_prove(names: list[str], flags: dict[str, Any]) -> int:
    from .prove_run import load_manifest

    if flags["run_prebuilt"] is not None:
        build_dir = Path(flags["run_prebuilt"])
        try:
            manifest = load_manifest(build_dir)
        except (OSError, ValueError) as exc:
            return _error(str(exc))
        manifest["programs"] = _select(manifest["programs"], names)
        if manifest["programs"] is None:
            return _error("unknown program name(s): " + ", ".join(names))
        return _run_and_report(build_dir, manifest, flags, chroots={})
    return _build_and_run(names, flags)


def _select(entries: list[Any], names: list[str]) -> list[Any] | None:
    if not names:
        return entries
    chosen = [e for e in entries if (e["name"] if isinstance(e, dict) else e.name) in names]
    return chosen if len(chosen) == len(set(names)) else None


def _build_and_run(names: list[str], flags: dict[str, Any]) -> int:
    import dataclasses
    import shutil
    import tempfile

    from .harness import load_platforms
    from .prove_build import build_all
    from .prove_config import ProveConfigError, find_smoke_config, load_smoke_config

    platforms = load_platforms()
    path = flags["config_path"] or find_smoke_config(Path.cwd())
    if path is None:
        return _error(
            "no smoke.toml (or [tool.hipify-py.smoke] in pyproject.toml) here or above; "
            "see docs/smoke.md, 'Your own programs'"
        )
    try:
        config = load_smoke_config(Path(path), set(platforms["libraries"]))
    except ProveConfigError as exc:
        click.echo(f"{exc}", err=True)
        return 2
    chosen = _select(list(config.programs), names)
    if chosen is None:
        known = ", ".join(p.name for p in config.programs)
        return _error(f"unknown program name(s): {', '.join(names)} (in {path}: {known})")
    overrides = {k: flags[k] for k in ("runs", "seed") if flags[k] is not None}
    programs = [dataclasses.replace(p, **overrides) for p in chosen]
    toolchains = _toolchains(flags)
    if isinstance(toolchains, int):
        return toolchains
    if not set(toolchains.compilers):
        return _error(
            "no toolchain for any side: "
            + "; ".join(f"{p}: {why}" for p, why in toolchains.missing.items())
        )
    temporary = flags["build_dir"] is None
    build_dir = Path(tempfile.mkdtemp(prefix="hipify-prove-")) if temporary else flags["build_dir"]
    try:
        manifest = build_all(config, programs, toolchains, build_dir, platforms, _progress)
        chosen_names = {p.name for p in programs}
        manifest = {
            **manifest,
            "programs": [e for e in manifest["programs"] if e["name"] in chosen_names],
        }
        amd = toolchains.compilers.get("amd")
        chroots = {"amd": amd.root} if amd is not None and amd.root is not None else {}
        return _run_and_report(build_dir, manifest, flags, chroots)
    finally:
        if temporary:
            shutil.rmtree(build_dir, ignore_errors=True)


def _toolchains(flags: dict[str, Any]) -> Any:
    from .prove_build import Toolchains
    from .toolchain import ToolchainError, find_cuda

    asked = set(flags["platforms"])
    wanted = asked or {"cuda", "amd", "nvidia"}
    found = Toolchains(offload_arch=flags["offload_arch"], wanted=wanted)
    for platform in ("cuda", "amd", "nvidia"):
        if platform not in wanted:
            found.missing[platform] = "not built (--platform)"
            continue
        try:
            found.compilers[platform] = cli_common.find_compiler(platform, flags, prefer_host=True)
        except ToolchainError as exc:
            if platform in asked:
                return _error(str(exc))
            found.missing[platform] = str(exc)
    # the Debian root's nvcc 12.4 has every library's headers: for the
    # originals whose headers the machine's own CUDA lacks
    if "cuda" in found.compilers:
        try:
            fallback = find_cuda()
        except ToolchainError:
            fallback = None
        if fallback is not None and fallback.description != found.compilers["cuda"].description:
            found.cuda_fallback = fallback
    return found


def _run_and_report(
    build_dir: Path, manifest: dict[str, Any], flags: dict[str, Any], chroots: dict[str, Path]
) -> int:
    from . import prove_report
    from .prove_run import compared, failed, run_and_judge

    results = run_and_judge(
        build_dir,
        manifest,
        chroots=chroots,
        record_into=flags["record"],
        recordings=flags["recorded"],
        progress=_progress,
        not_run="--compile-only" if flags.get("compile_only") else None,
    )
    meta = {
        "compilers": manifest.get("compilers", {}),
        "translations": manifest.get("translations", {}),
    }
    outputs = {
        "json_file": prove_report.to_json(results, meta),
        "md_file": prove_report.to_markdown(results),
        "junit_file": prove_report.to_junit(results),
    }
    for key, text in outputs.items():
        if flags[key] is not None:
            Path(flags[key]).write_text(text, encoding="utf-8")
    form = flags["report_format"]
    if form == "json":
        sys.stdout.write(outputs["json_file"])
    elif form == "md":
        sys.stdout.write(outputs["md_file"])
    else:
        _table(results)
    if compared(results) == 0:
        click.echo("note: nothing was compared; only translation and builds were checked", err=True)
    return 1 if failed(results) else 0


def _table(results: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    from .prove_report import COLUMNS, note, summary

    colours = {
        "same": "green",
        "different": "bold red",
        "unstable": "bold magenta",
        "failed": "bold red",
        "skipped": "yellow",
        "not run": "dim",
    }
    table = Table(title="hipify-py prove", header_style="bold")
    for heading in COLUMNS:
        table.add_column(heading, overflow="fold")
    for result in results:
        verdict = result["verdict"]
        table.add_row(
            result["program"],
            result["platform"],
            result["original"],
            result["translation"],
            f"[{colours.get(verdict, '')}]{verdict}[/]",
            note(result),
        )
    console = Console(soft_wrap=True)
    console.print(table)
    counts = summary(results)
    console.print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no programs")


def main() -> None:
    """``python -m hip_smoke.prove``: the same without the hipify-py command (a GPU
    machine that builds the CUDA originals with its own nvcc: --platform cuda)."""
    prove_command(prog_name="python -m hip_smoke.prove")
