"""``hipify-py mappings ...``: verify, query, stats and docs for the mapping tables.

Only click is imported at module level: cli/app.py registers this group on every
start-up, and ``hipify-py file.cu`` must not pay for tree-sitter header scans or
the markdown generator.  The logic lives in tables/verify.py, tables/docs.py and tables/table.py.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from hipify_py.tables.table import MappingTable, Row

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
DOCS_DIR = Path("docs") / "supported-apis"

_MAPPINGS_OPTION = click.option(
    "--mappings",
    "mappings_dir",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Use the mapping tables in DIR instead of the shipped ones.",
)


def _table(mappings_dir: Path | None) -> MappingTable:
    from hipify_py.tables.cache import load_table
    from hipify_py.tables.table import TableError

    try:
        return load_table(mappings_dir)
    except TableError as exc:
        click.echo(f"hipify-py: error: {exc}", err=True)
        sys.exit(EXIT_ERROR)


@click.group(
    "mappings", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
def mappings() -> None:
    """Inspect and check the CUDA -> HIP mapping tables (mappings/*.yaml)."""


# --------------------------------------------------------------------------- verify

_VERIFY_HELP = """Check the tables against real headers.

Every HIP (and ROC) name the tables can emit must be declared in the HIP
headers, and every CUDA name in the CUDA headers.  A missing name whose HIP or
CUDA version is newer than the headers is reported as "newer than headers"; one
removed at or before the headers' version as "removed"; rows of a library whose
headers were not given (hipDNN, MIOpen, hipBLASLt, cuDNN, ...) as "skipped".

Each PATH is a header file or a folder (searched recursively); a value may hold
several paths separated by the path separator (':' on Linux).  Pass the
toolkit's own headers, not a whole /usr/include: see mappings/README.md
("Verifying against real headers") for the exact lists.

\b
Exit codes: 0 no failures; 1 a row names something the headers do not
declare; 2 usage error.
"""


@mappings.command("verify", help=_VERIFY_HELP)
@click.option(
    "--hip-include",
    "hip_include",
    multiple=True,
    required=True,
    metavar="PATH",
    help="HIP / ROCm header file or folder; repeatable.",
)
@click.option(
    "--cuda-include",
    "cuda_include",
    multiple=True,
    metavar="PATH",
    help="CUDA header file or folder; repeatable.  Without it CUDA names are not checked.",
)
@click.option(
    "--library",
    "libraries",
    multiple=True,
    metavar="NAME",
    help="Check only the rows of this library (runtime, blas, ...); repeatable.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@_MAPPINGS_OPTION
def verify_command(
    hip_include: tuple[str, ...],
    cuda_include: tuple[str, ...],
    libraries: tuple[str, ...],
    output_format: str,
    mappings_dir: Path | None,
) -> None:
    from hipify_py.tables import verify

    table = _table(mappings_dir)
    unknown = sorted(set(libraries) - {row.library for row in table.names.values()})
    if unknown:
        known = ", ".join(sorted({row.library for row in table.names.values()}))
        raise click.UsageError(f"unknown library: {', '.join(unknown)} (known: {known})")
    try:
        hip = verify.scan_headers(verify.split_paths(hip_include), "hip")
        cuda = (
            verify.scan_headers(verify.split_paths(cuda_include), "cuda") if cuda_include else None
        )
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    if not hip.files:
        raise click.UsageError("--hip-include: no header files found")
    if cuda is not None and not cuda.files:
        raise click.UsageError("--cuda-include: no header files found")
    result = verify.verify(table, hip, cuda, libraries)
    text = verify.to_json(result) if output_format == "json" else verify.format_text(result)
    click.echo(text, nl=False)
    sys.exit(EXIT_OK if result.ok else EXIT_FAILED)


# --------------------------------------------------------------------------- query


def _versions_text(row: Row, prefix: str) -> str:
    labels = ("added", "deprecated", "changed", "removed", "experimental")
    parts = []
    for label in labels:
        value = getattr(row, f"{prefix}_{label}", "")
        if value:
            parts.append(f"{label} {value}")
    return ", ".join(parts)


def _status_text(row: Row) -> str:
    return {
        "supported": "supported: hipify-py renames it",
        "deprecated": "deprecated in CUDA: renamed, with a note (HPY104)",
        "removed": "removed from CUDA: renamed where HIP has it, with a warning (HPY105)",
        "experimental": "experimental in HIP: renamed, with a note (HPY106)",
        "unsupported": "unsupported: no HIP equivalent; left unchanged and reported (HPY101)",
    }.get(row.status, row.status)


def _row_lines(table: MappingTable, row: Row) -> list[str]:
    title = table.libraries[row.library].title if row.library in table.libraries else row.library
    fields = [
        ("CUDA API", row.cuda),
        ("Library", f"{row.library} ({title}), section: {row.section}"),
        ("Kind", row.kind),
        ("Status", _status_text(row)),
        ("Migrated to", row.hip or "(nothing)"),
        ("With --roc", row.roc or ""),
        ("CUDA versions", _versions_text(row, "cuda")),
        ("HIP versions", _versions_text(row, "hip")),
        ("ROC versions", _versions_text(row, "roc")),
        ("Header", row.header),
        ("Note", row.note),
        ("Hint", row.hint),
        ("Defined at", display_origin(row.origin)),
    ]
    return _aligned(fields)


def _aligned(fields: Sequence[tuple[str, str | None]]) -> list[str]:
    return [f"{label + ':':<15}{value}" for label, value in fields if value]


def display_origin(origin: str) -> str:
    """``/repo/mappings/x.yaml:3`` -> ``mappings/x.yaml:3`` when below the current folder."""
    from hipify_py.tables.verify import display_origin as shorten

    return shorten(origin)


def _row_dict(row: Row) -> dict[str, Any]:
    doc = {key: value for key, value in row._asdict().items() if value not in ("", None, ())}
    doc["origin"] = display_origin(row.origin)
    return doc


@mappings.command("query")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the row(s) as JSON.")
@_MAPPINGS_OPTION
def query_command(name: str, as_json: bool, mappings_dir: Path | None) -> None:
    """Show what NAME becomes: the row of a CUDA name (or of the CUDA names that
    map to a HIP / ROC name, or of a CUDA header) and its status.

    Exit 1 when the tables do not know NAME (similar names are suggested)."""
    import json

    table = _table(mappings_dir)
    row = table.lookup(name)
    rows = [row] if row else [r for r in table.names.values() if name in (r.hip, r.roc)]
    header = table.headers.get(name)
    if as_json:
        doc: dict[str, Any] = {"name": name, "rows": [_row_dict(r) for r in rows]}
        if header is not None:
            doc["header"] = {k: v for k, v in header._asdict().items() if v not in ("", None)}
        click.echo(json.dumps(doc, indent=2))
        sys.exit(EXIT_OK if rows or header else EXIT_FAILED)
    if row is None and rows:
        click.echo(f"{name} is what {len(rows)} CUDA name(s) become:\n")
    for index, found in enumerate(rows):
        if index:
            click.echo("")
        click.echo("\n".join(_row_lines(table, found)))
    if header is not None:
        if rows:
            click.echo("")
        fields: list[tuple[str, str | None]] = [
            ("CUDA header", header.cuda),
            ("HIP header", header.hip or "(none: the include is reported, HPY201)"),
            ("With --roc", header.roc),
            ("Library", header.library),
            ("Note", header.note),
            ("Hint", header.hint),
            ("Defined at", display_origin(header.origin)),
        ]
        click.echo("\n".join(_aligned(fields)))
    if rows or header is not None:
        sys.exit(EXIT_OK)
    import difflib

    candidates = set(table.names) | {r.hip for r in table.names.values() if r.hip}
    close = difflib.get_close_matches(name, sorted(candidates), n=5, cutoff=0.8)
    message = f"hipify-py: {name}: not a CUDA, HIP or ROC name, nor a header, in the tables"
    if close:
        message += "\ndid you mean: " + ", ".join(close)
    click.echo(message, err=True)
    sys.exit(EXIT_FAILED)


# --------------------------------------------------------------------------- stats


def stats_dict(table: MappingTable) -> dict[str, Any]:
    """Rows per library and status (plus rows with a ROC name), and the totals."""
    from hipify_py.tables.table import STATUS_ORDER

    libraries: dict[str, dict[str, Any]] = {}
    for row in table.names.values():
        entry = libraries.setdefault(
            row.library, {"rows": 0, "roc": 0, **{status: 0 for status in STATUS_ORDER}}
        )
        entry["rows"] += 1
        entry[row.status] += 1
        entry["roc"] += bool(row.roc)
    keys = ("rows", *STATUS_ORDER, "roc")
    total = {key: sum(entry[key] for entry in libraries.values()) for key in keys}
    return {
        "libraries": {name: libraries[name] for name in sorted(libraries)},
        "total": total,
        "headers": len(table.headers),
    }


@mappings.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@_MAPPINGS_OPTION
def stats_command(as_json: bool, mappings_dir: Path | None) -> None:
    """Count the rows per library and status."""
    from hipify_py.tables.table import STATUS_ORDER

    stats = stats_dict(_table(mappings_dir))
    if as_json:
        import json

        click.echo(json.dumps(stats, indent=2))
        return
    columns = ("rows", *STATUS_ORDER, "roc")
    widths = [max(len(c), 6) for c in columns]
    heading = "".join(f"{c:>{w + 2}}" for c, w in zip(columns, widths, strict=True))
    click.echo(f"{'library':<10}{heading}")
    for name, entry in [*stats["libraries"].items(), ("total", stats["total"])]:
        cells = "".join(f"{entry[c]:>{w + 2}}" for c, w in zip(columns, widths, strict=True))
        click.echo(f"{name:<10}{cells}")
    click.echo(f"headers: {stats['headers']} CUDA header rows (includes.yaml)")


# --------------------------------------------------------------------------- docs


@mappings.command("docs")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=DOCS_DIR,
    show_default=True,
    help="Folder to write the markdown files into.",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the folder is stale.")
@_MAPPINGS_OPTION
def docs_command(out_dir: Path, check: bool, mappings_dir: Path | None) -> None:
    """Generate the supported-API markdown pages from the tables."""
    from hipify_py.tables import docs as docs_gen

    pages = docs_gen.generate(_table(mappings_dir))
    if check:
        stale = docs_gen.stale_files(pages, out_dir)
        for line in stale:
            click.echo(f"{out_dir / line}: stale", err=True)
        if stale:
            click.echo("regenerate with: hipify-py mappings docs", err=True)
            sys.exit(EXIT_FAILED)
        click.echo(f"{out_dir}: {len(pages)} files up to date")
        return
    written = docs_gen.write(pages, out_dir)
    click.echo(f"{out_dir}: {len(pages)} files ({written} changed)")
