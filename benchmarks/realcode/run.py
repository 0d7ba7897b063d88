"""The real-code benchmark: do translations of real CUDA projects compile for
gfx942, and when one does not, did hipify-py say so?  Prints progress; asserts
nothing (tests/test_realcode.py checks the CI slice's pinned outcomes).

    python benchmarks/realcode/run.py [--set dev|validation|all] [--projects a,b]
        [--releases 7.2,5.7] [--hip-nvidia] [--slice ci] [--sample K] [--jobs 2]
        [--md docs/realcode.md] [--json docs/realcode-results.json] [--no-cache]

For each project of projects.yaml (a pinned PyPI sdist) in the chosen set
(dev, the default; validation, the held-out projects; or all): fetch it by
name and version with pip into the cache folder ($HIPIFY_PY_REALCODE_CACHE,
else ~/.cache/hipify-py/realcode), checked against its sha256; translate
its tree once per release (hipify-py ROOT -o OUT --copy-all --hip-version
X.Y --format json); compile every unit with -c:
the CUDA original with nvcc 12.4 (the floor: a unit it cannot build does not
count), the translation with each release's hipcc for gfx942, and with
--hip-nvidia the translation as HIP on NVIDIA (nvcc 12.4 and HIP's NVIDIA
headers).  Compilers run inside the roots hip_smoke/toolchain/provision.sh
makes.  A unit that fails has its first error classified (classes.yaml) and
matched against hipify-py's error and warning diagnostics: at the same file
and line, or in the same file naming an identifier the error names; else it
is a silent failure.  Compile results are cached by the tree's content.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path[:0] = [str(HERE), str(REPO)]

import compile_units  # noqa: E402
import report  # noqa: E402
import sources  # noqa: E402
from classify import (  # noqa: E402
    Diagnostic,
    FirstError,
    controlling_lines,
    instantiated_from,
    label_of,
    original_line,
    predicted_by,
)

# the HIP version the translation built as HIP on NVIDIA targets: the HIP of
# the nvidia root (Debian 13's HIP 5.7.1, the last Debian HIP that ships the
# NVIDIA platform headers), so the library names it emits are those its
# hipBLAS / hipCUB headers declare (a 6.2 translation asks for hip_fp8.h and
# hipBLAS 2's compute types, which that root does not have)
NVIDIA_HIP_VERSION = "5.7"
# translation options beyond the tree-mode defaults (--compat), set by main()
EXTRA_OPTIONS: list[str] = []
# --sample: (every how many units, of projects with more units than that many)
SAMPLE: list[int] = []


def translate(tree: Path, out: Path, version: str) -> tuple[list[Diagnostic], dict[str, Any]]:
    """Translate ``tree`` into ``out``; hipify-py's diagnostics (paths relative
    to ``out``) and its summary."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hipify_py",
            str(tree),
            "-o",
            str(out),
            "--copy-all",
            "--hip-version",
            version,
            "--format",
            "json",
            "--jobs",
            "1",
            *EXTRA_OPTIONS,
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if not done.stdout.strip():
        raise RuntimeError(
            f"hipify-py failed on {tree} (exit {done.returncode}): {done.stderr.strip()[-800:]}"
        )
    data = json.loads(done.stdout)
    diagnostics = []
    for entry in data["files"]:
        written = entry.get("written")
        if not written:
            continue
        rel = os.path.relpath(written, out)
        for diag in entry.get("diagnostics", []):
            diagnostics.append(
                Diagnostic(
                    rel,
                    int(diag.get("line") or 0),
                    str(diag["code"]),
                    str(diag["severity"]),
                    str(diag["message"]),
                )
            )
    return diagnostics, data.get("summary", {})


def lines_map(original: Path, translated: Path, error: FirstError) -> int:
    """The error's line in the original file (0 when the translation inserted it)."""
    if not error.file or error.file.startswith("/"):
        return error.line
    try:
        before = (original / error.file).read_text(encoding="utf-8", errors="replace")
        after = (translated / error.file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return error.line
    return original_line(before.splitlines(), after.splitlines(), error.line) or 0


def conditions_of(original: Path, error: FirstError) -> set[int]:
    """The lines of the #if conditions selecting an #error (in the original file)."""
    if error.label != "#error" or not error.file or error.file.startswith("/"):
        return set()
    try:
        text = (original / error.file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return controlling_lines(text.splitlines(), error.line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set",
        dest="project_set",
        choices=[*sources.SETS, "all"],
        default="dev",
        help="the development set (default), the validation set (held out: measured, "
        "its failures not looked into while fixing) or both",
    )
    parser.add_argument(
        "--projects", help="comma-separated names, of the chosen set (default: all of it)"
    )
    parser.add_argument("--releases", default="7.2,5.7", help="ROCm releases (7.2, 6.4, 5.7)")
    parser.add_argument(
        "--hip-nvidia", action="store_true", help="also build the translation as HIP on NVIDIA"
    )
    parser.add_argument("--slice", choices=["ci"], help="only the pinned CI slice")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--sample",
        type=int,
        metavar="K",
        help="of a project with more than 50 units, compile every K-th (sorted); the page says so",
    )
    parser.add_argument(
        "--compat",
        action="store_true",
        help="translate with --compat (hipify_py_compat.h for what HIP lacks)",
    )
    parser.add_argument(
        "--md",
        type=Path,
        help="the page (default: docs/realcode.md; with --set validation, "
        "docs/realcode-validation.md, so that the development set's page stays)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help="the results (default: docs/realcode-results.json; with --set validation, "
        "docs/realcode-validation-results.json)",
    )
    parser.add_argument("--no-cache", action="store_true", help="compile again, cached or not")
    parser.add_argument(
        "--from-json",
        type=Path,
        help="compile nothing: write --md from this results file (classes.yaml as it is now)",
    )
    args = parser.parse_args(argv)
    document: dict[str, Any] = {}
    if args.from_json is not None:
        document = json.loads(args.from_json.read_text(encoding="utf-8"))
    # the validation set's page and results go beside the development set's
    held_out = (document.get("sets") or [args.project_set]) == ["validation"]
    stem = "realcode-validation" if held_out else "realcode"
    args.md = args.md or REPO / "docs" / f"{stem}.md"
    args.json = args.json or REPO / "docs" / f"{stem}-results.json"
    if args.from_json is not None:
        for project in document["projects"]:
            for row in project["units"]:
                for target in document["targets"]:
                    error = row[target]["first_error"]
                    if error is not None:
                        error["label"] = label_of(error["message"])
        args.md.write_text(report.markdown(document), encoding="utf-8")
        return 0
    # a terminated run still unmounts what it mounted and removes what it staged
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    try:
        projects, ci = sources.load()
    except sources.ProjectsError as exc:
        parser.error(str(exc))
    sets = list(sources.SETS) if args.project_set == "all" else [args.project_set]
    elsewhere = {p.name: p.set for p in projects if p.set not in sets}
    projects = [p for p in projects if p.set in sets]
    every = [p.name for p in projects]
    releases = [r.strip() for r in args.releases.split(",") if r.strip()]
    for release in releases:
        if release not in compile_units.PROVISION_NAME:
            parser.error(f"unknown release {release} (7.2, 6.4 or 5.7)")
    EXTRA_OPTIONS[:] = ["--compat"] if args.compat else []
    SAMPLE[:] = [args.sample] if args.sample and args.sample > 1 else []
    wanted = set(args.projects.split(",")) if args.projects else None
    if wanted is not None:
        other = sorted(wanted & set(elsewhere))
        if other:
            parser.error(
                f"not in the {args.project_set} set: "
                + ", ".join(f"{n} (set: {elsewhere[n]}; add --set {elsewhere[n]})" for n in other)
            )
        unknown = wanted - {p.name for p in projects}
        if unknown:
            parser.error(f"not in projects.yaml: {', '.join(sorted(unknown))}")
        projects = [p for p in projects if p.name in wanted]
    slice_units: dict[str, set[str]] | None = None
    if args.slice == "ci":
        slice_units = {}
        for unit in ci:
            slice_units.setdefault(unit.project, set()).add(unit.unit)
        projects = [p for p in projects if p.name in slice_units]

    targets = ["cuda", *releases, *(["nvidia"] if args.hip_nvidia else [])]
    missing = compile_units.missing_roots(targets)
    if missing:
        print("realcode: toolchain roots missing: " + "; ".join(missing), file=sys.stderr)
        return 2
    cache = sources.cache_dir()
    results_cache = None if args.no_cache else cache / "results"
    started = time.time()
    results: list[dict[str, Any]] = []
    staged: list[Path] = []
    roots = [compile_units.root_of(t) for t in targets]
    try:
        with compile_units.proc_mounted(roots):
            for project in projects:
                results.append(
                    run_project(
                        project, targets, slice_units, cache, results_cache, args.jobs, staged
                    )
                )
    finally:
        for folder in staged:
            shutil.rmtree(folder, ignore_errors=True)
    given = list(argv if argv is not None else sys.argv[1:])
    for option in ("--md", "--json"):  # where it was written is no part of what was measured
        while option in given and given.index(option) + 1 < len(given):
            at = given.index(option)
            del given[at : at + 2]
    command = "python benchmarks/realcode/run.py " + " ".join(given)
    document = {
        "command": command.strip(),
        "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started)),
        "minutes": round((time.time() - started) / 60, 1),
        "hipify_py": report.git_revision(REPO),
        "targets": targets,
        "sets": sets,
        "projects": results,
        "not_run": [n for n in every if n not in {r["name"] for r in results}],
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    args.md.parent.mkdir(parents=True, exist_ok=True)
    args.md.write_text(report.markdown(document), encoding="utf-8")
    print(report.summary_lines(document))
    return 0


def run_project(
    project: sources.Project,
    targets: list[str],
    slice_units: dict[str, set[str]] | None,
    cache: Path,
    results_cache: Path | None,
    jobs: int,
    staged: list[Path],
) -> dict[str, Any]:
    say = lambda text: print(f"realcode: {project.name}: {text}", file=sys.stderr, flush=True)  # noqa: E731
    unpacked = sources.fetch(project, cache)
    tree = (unpacked / project.root).resolve()
    units = sources.unit_files(tree, project)
    if SAMPLE and len(units) > 50 and slice_units is None:
        units = sorted(units)[:: SAMPLE[0]]
        say(f"a sample: every {SAMPLE[0]}th unit, {len(units)} units")
    if slice_units is not None:
        wanted = slice_units.get(project.name, set())
        absent = wanted - set(units)
        if absent:
            raise SystemExit(
                f"realcode: {project.name}: CI slice units not found: {sorted(absent)}"
            )
        units = [u for u in units if u in wanted]
    say(f"{len(units)} units")
    trees: dict[str, Path] = {}
    diagnostics: dict[str, list[Diagnostic]] = {}
    summaries: dict[str, Any] = {}
    for target in targets:
        root = compile_units.root_of(target)
        work = Path(tempfile.mkdtemp(prefix="hipify-realcode-", dir=root / "tmp"))
        staged.append(work)
        out = work / project.name
        if target == "cuda":
            shutil.copytree(tree, out, symlinks=True)
            diagnostics[target] = []
        else:
            version = NVIDIA_HIP_VERSION if target == "nvidia" else target
            say(f"translating for {target} (--hip-version {version})")
            diagnostics[target], summaries[target] = translate(tree, out, version)
        trees[target] = out
    digests = {
        t: (project.sha256 if t == "cuda" else compile_units.tree_digest(p))
        for t, p in trees.items()
    }

    wheels = {  # copied into the roots before the compiles start
        t: compile_units.wheel_includes(compile_units.root_of(t), project.cuda_wheels)
        for t in targets
        if t in ("cuda", "nvidia")
    }

    def one(job: tuple[str, str]) -> tuple[str, str, compile_units.Outcome]:
        target, unit = job
        on_nvidia = target in ("cuda", "nvidia")
        flags = project.cuda_flags if on_nvidia else []
        defines = project.defines + ([] if on_nvidia else project.hip_defines)
        root = compile_units.root_of(target)
        argv = compile_units.command_for(
            target, unit, project.include + wheels.get(target, []), defines, flags
        )
        outcome = compile_units.compile_unit(
            root, trees[target], argv, results_cache, [digests[target], unit]
        )
        return target, unit, outcome

    jobs_list = [(t, u) for u in units for t in targets]
    outcomes: dict[tuple[str, str], compile_units.Outcome] = {}
    done_count = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for target, unit, outcome in pool.map(one, jobs_list):
            outcomes[(target, unit)] = outcome
            done_count += 1
            if done_count % 20 == 0 or done_count == len(jobs_list):
                say(f"{done_count}/{len(jobs_list)} compiles")
    unit_rows = []
    for unit in units:
        row: dict[str, Any] = {"unit": unit}
        for target in targets:
            outcome = outcomes[(target, unit)]
            entry = outcome.as_dict()
            if entry["first_error"] is not None:  # classes.yaml may be newer than the cache
                entry["first_error"]["label"] = label_of(entry["first_error"]["message"])
            if not outcome.compiled and target != "cuda" and outcome.first_error is not None:
                error = FirstError(**outcome.first_error)
                entry["original_line"] = error.line = lines_map(tree, trees[target], error)
                entry["predicted"] = predicted_by(
                    error, diagnostics[target], conditions_of(tree, error)
                )
                site = instantiated_from(outcome.output_head, error)
                if entry["predicted"] is None and site is not None:
                    # a system header's template, instantiated from the tree
                    site.line = lines_map(tree, trees[target], site)
                    entry["predicted"] = predicted_by(site, diagnostics[target])
                    if entry["predicted"] is not None:
                        entry["predicted"] += f" (at {site.file}:{site.line}, instantiating it)"
            row[target] = entry
        unit_rows.append(row)
    for out in trees.values():  # a project's staged trees go as soon as it is done
        shutil.rmtree(out.parent, ignore_errors=True)
        staged.remove(out.parent)
    return {
        "name": project.name,
        "version": project.version,
        "set": project.set,
        "units": unit_rows,
        "translation": {t: s.get("diagnostics", {}) for t, s in summaries.items()},
    }


if __name__ == "__main__":
    raise SystemExit(main())
