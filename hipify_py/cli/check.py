"""``hipify-py check``: the CI migration check and the pre-commit hook's command.

Loaded only when the subcommand is used (cli/app.py's LAZY_COMMANDS); the logic
is in report/check.py.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from hipify_py.cli.options import explicit_flags, shared_options
from hipify_py.report.baseline import parse_shard
from hipify_py.report.check import FAIL_ON, CheckError
from hipify_py.report.check_formats import FORMATS

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

_HELP = """Report what stands between PATHS and HIP; write nothing.

Findings: CUDA names and headers hipify-py would translate (HPY100),
CUDA APIs with no HIP equivalent, and the hazards the device rules find
(warp size, masks, inline PTX, ...).  PATHS are files or folders, as for
translation (default: `paths` of [tool.hipify-py]).

\b
Examples:
  hipify-py check src/                          list findings, exit 1 if any
  hipify-py check src/ --format sarif -o hipify.sarif
  hipify-py check src/ --write-baseline hipify-baseline.json
  hipify-py check src/ --baseline hipify-baseline.json   fail on new ones only
  hipify-py check . --shard 2/4 --format junit -o report.xml

\b
Exit codes: 0 no failing findings; 1 failing findings (see --fail-on);
2 usage error, a missing path, an unreadable baseline or an I/O error.
"""


def _shard(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    try:
        return parse_shard(value)
    except CheckError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command(
    "check",
    help=_HELP,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "form",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text: by file, with a summary by library; json; sarif (2.1.0, for GitHub code "
    "scanning); github (workflow annotations); junit (XML, for GitLab and Jenkins).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the report to FILE instead of stdout.",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="warning",
    show_default=True,
    help="Which findings fail the check (exit 1): error = unsupported APIs and other errors "
    "only; warning = also translatable references and hazards; never = report only.",
)
@click.option(
    "--baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Findings recorded in this baseline file do not fail the check.",
)
@click.option(
    "--write-baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Record every current finding in FILE (JSON) and exit 0.",
)
@click.option(
    "--shard",
    metavar="I/N",
    callback=_shard,
    help="Check only shard I of N (1-based) of the files found, for splitting CI jobs.",
)
@click.option(
    "--root",
    type=click.Path(path_type=Path, file_okay=False),
    help="Report paths relative to DIR [default: the git work tree of the first path, else "
    "the configuration's folder, else the common folder of the paths; never the current "
    "folder].",
)
@click.option("--notes", is_flag=True, help="Also report info-level diagnostics (never failing).")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Text format: one line per finding and the summary line (no hints, no table, no "
    "progress bar); the pre-commit hook passes it.",
)
@shared_options("check")
def check_command(paths: tuple[Path, ...], **flags: Any) -> None:
    sys.exit(run_check(list(paths), flags, explicit_flags(click.get_current_context(), flags)))


def fail(message: str) -> int:
    click.echo(f"hipify-py: error: {message}", err=True)
    return EXIT_ERROR


def run_check(paths: list[Path], flags: dict[str, Any], explicit: set[str] | None = None) -> int:
    from hipify_py.cli.analysis import plan_check, settle

    if flags.get("write_baseline") is not None and flags.get("shard") is not None:
        return fail("--write-baseline needs every file: it cannot be combined with --shard")
    # nothing is written: the #include <hip/hip_runtime.h> translation inserts is no finding
    settled = settle(
        "check",
        paths,
        flags,
        explicit if explicit is not None else set(flags),
        fixed={"no_runtime_include": True},
    )
    if isinstance(settled, str):
        return fail(settled)
    config, flags, paths, options = settled.config, settled.flags, settled.paths, settled.options

    from hipify_py.atomic import atomic_write
    from hipify_py.project.runner import run
    from hipify_py.report.baseline import apply_baseline, baseline_json, read_baseline, shard_of
    from hipify_py.report.check import CheckResult, checked_file, relative_path, root_of_inputs
    from hipify_py.report.check_formats import render

    fingerprints: set[str] | None = None
    if flags["baseline"] is not None:
        try:
            fingerprints = read_baseline(flags["baseline"])
        except CheckError as exc:
            return fail(str(exc))
    planned = plan_check(settled)
    if isinstance(planned, str):
        return fail(planned)
    table = planned.table
    discovery = planned.discovery
    for problem in discovery.problems:
        click.echo(f"hipify-py: warning: {problem}", err=True)
    root = (
        Path(flags["root"]).absolute()
        if flags["root"]
        else root_of_inputs(paths, config.path.parent if config.path else None)
    )
    targets = discovery.targets
    names = [relative_path(t.source, root) for t in targets]
    order = sorted(range(len(targets)), key=lambda i: names[i])
    job = planned.job
    prescan = True
    shard: tuple[int, int] | None = flags["shard"]
    if shard is not None:
        # the project's own CUDA-like names come from every file, so that a
        # sharded run finds exactly what the whole run finds
        from hipify_py.project.names import scan_project
        from hipify_py.project.result_cache import ResultCache

        cache = ResultCache(table) if job.use_cache else None
        known = scan_project([targets[i].real for i in order], table.names, cache=cache)
        job = replace(
            job, options=job.options.with_changes(known_names=job.options.known_names | known)
        )
        prescan = False
        chosen = set(shard_of(names, *shard))
        order = [i for i in order if i in chosen]
    from hipify_py.cli.progress import with_progress

    reports = with_progress(
        run([targets[i] for i in order], job, table, planned.jobs, prescan=prescan),
        len(order),
        "checking",
        quiet=bool(flags.get("quiet")),
    )
    files = [
        checked_file(report, names[i], table=table, options=options, notes=flags["notes"])
        for i, report in zip(order, reports, strict=True)
    ]
    result = CheckResult(
        files, fail_on=flags["fail_on"], shard=shard, problems=list(discovery.missing)
    )
    if fingerprints is not None:
        apply_baseline(result, fingerprints, str(flags["baseline"]))

    if flags["write_baseline"] is not None:
        for problem in result.errors:
            click.echo(f"hipify-py: error: {problem}", err=True)
        if result.errors:
            return fail("the baseline was not written: some paths could not be checked")
        target: Path = flags["write_baseline"]
        try:
            atomic_write(target, baseline_json(result.findings).encode("utf-8"), durable=False)
        except OSError as exc:
            return fail(f"cannot write baseline {target}: {exc.strerror or exc}")
        count = len(result.findings)
        click.echo(
            f"hipify-py: wrote {target}: {count} finding{'s' if count != 1 else ''} "
            f"in {len({f.path for f in result.findings})} of {len(files)} files",
            err=True,
        )
        return EXIT_OK

    text = render(result, flags["form"], root, quiet=bool(flags.get("quiet")))
    for problem in result.errors:
        click.echo(f"hipify-py: error: {problem}", err=True)
    if flags["output"] is not None:
        try:
            atomic_write(flags["output"], text.encode("utf-8"), durable=False)
        except OSError as exc:
            return fail(f"cannot write {flags['output']}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return result.exit_code
