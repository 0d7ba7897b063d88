"""translate(bytes) -> FileResult.  Pure: no I/O, no printing, never raises on
bad source (a failure becomes a diagnostic and the input comes back as is)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from traceback import format_exc

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.diagnostics import Diagnostic, Severity
from hipify_py.engine.edits import Edit, apply, plan
from hipify_py.engine.hip_target import default_version
from hipify_py.engine.options import Options
from hipify_py.engine.parse import error_count, parse
from hipify_py.engine.semantic_facts import SemanticFacts, apply_facts
from hipify_py.engine.source import LineIndex, SourceInfo, inspect
from hipify_py.engine.stats import Stats
from hipify_py.rules import admission_filters, all_rules
from hipify_py.rules.identifiers import IDENTIFIER
from hipify_py.tables.table import MappingTable


@dataclass
class FileResult:
    data: bytes  # the translated bytes (the input, unchanged, when nothing applies)
    original: bytes
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    skipped: str | None = None  # why the file was not translated at all
    references: list[tuple[int, str, str, str]] = field(default_factory=list)  # see Context
    errors_before: int = 0
    errors_after: int = 0
    # the edits applied to ``original`` to make ``data``: (start, end, new bytes, rule)
    edits: list[tuple[int, int, bytes, str]] = field(default_factory=list)
    # an internal error (HPY001 "internal error: ..."): its traceback, for a bug report
    traceback: str = ""

    @property
    def changed(self) -> bool:
        return self.data != self.original

    @property
    def text(self) -> str:
        """The output as text (undecodable bytes shown as U+FFFD)."""
        return self.data.decode("utf-8", errors="replace")

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def unsupported(self) -> int:
        """Uses of CUDA API that remain and will not compile for HIP."""
        return self.count(Severity.ERROR)


_SUPPRESS = re.compile(r"hipify-py:\s*ignore(?:\[([A-Za-z0-9_, ]*)\])?")


def _unsuppressed(ctx: Context) -> list[Diagnostic]:
    """Drop diagnostics whose line says ``// hipify-py: ignore[CODE]``."""
    if "hipify-py" not in ctx.text:
        return ctx.diagnostics
    kept = []
    for diagnostic in ctx.diagnostics:
        found = _SUPPRESS.search(ctx.lines.line_text(diagnostic.line).decode("latin-1"))
        if found is None or not _suppresses(found, diagnostic.code):
            kept.append(diagnostic)
    return kept


def _suppresses(found: re.Match[str], code: str) -> bool:
    codes = found.group(1)
    return codes is None or any(
        code.startswith(c.strip().upper()) for c in codes.split(",") if c.strip()
    )


def may_suppress(text: str, code: str) -> bool:
    """Could a ``hipify-py: ignore`` comment in ``text`` drop a ``code`` diagnostic?"""
    return "hipify-py" in text and any(_suppresses(m, code) for m in _SUPPRESS.finditer(text))


def _annotate(ctx: Context) -> None:
    """--annotate: a ``/* hipify-py: CODE message */`` at the end of each
    reported line (before a trailing backslash), once per code and line."""
    from hipify_py.engine.lexer import SpanIndex

    lexed = SpanIndex(ctx.text)
    done: set[tuple[int, str]] = set()
    for diagnostic in ctx.diagnostics:
        if diagnostic.severity is Severity.INFO or (diagnostic.line, diagnostic.code) in done:
            continue
        done.add((diagnostic.line, diagnostic.code))
        line = ctx.lines.line_text(diagnostic.line).decode("latin-1")
        if f"hipify-py: {diagnostic.code}" in line:
            continue  # annotated by an earlier run
        start = ctx.lines.offset_of_line(diagnostic.line)
        end = start + len(line)
        continued = line.rstrip().endswith("\\")
        if continued:
            end = start + len(line.rstrip()) - 1
        if lexed.spans_past(end):
            continue  # the line ends inside a block comment or string that goes on
        message = diagnostic.message.replace("*/", "* /")
        ctx.edit(
            end,
            end,
            f" /* hipify-py: {diagnostic.code} {message} */" + (" " if continued else ""),
            "annotate",
            structural=False,
        )


def _errors_of(data: bytes) -> int:
    return error_count(parse(_parse_bytes(data, inspect(data))))


_MAX_GROUP_TRIALS = 32


def _self_check(
    ctx: Context, data: bytes, accepted: list[Edit], before: int
) -> tuple[bytes, int, list[Edit]]:
    """Re-parse after structural edits; drop the edit groups that make it worse.

    Non-structural edits (identifier renames, header names) cannot change the
    parse, so they always stay.  If the whole output parses worse than the
    input, each structural group (one launch rewrite, one rename to a
    non-identifier) is tried on its own and kept only if it does no harm; the
    dropped ones are reported (HPY001) and their code is left as it was.
    """
    output = apply(data, accepted)
    errors = _errors_of(output)
    if errors <= before:
        return output, errors, accepted
    kept = [e for e in accepted if not e.structural]
    groups: dict[int, list[Edit]] = {}
    for edit in accepted:
        if edit.structural:
            groups.setdefault(edit.group, []).append(edit)
    # measured against the renames alone too: in input that already has parse
    # errors they can move tree-sitter's error recovery, and a second run (which
    # starts from them) must make the same choices (fuzz finding: not idempotent)
    limit = max(before, _errors_of(apply(data, kept))) if before else before
    for index, members in enumerate(groups.values()):
        trial = sorted([*kept, *members], key=lambda e: (e.start, e.start != e.end))
        if index < _MAX_GROUP_TRIALS and _errors_of(apply(data, trial)) <= limit:
            kept = trial
            continue
        first = members[0]
        ctx.diagnostics.append(
            D.PARSE_REGRESSION.at(
                f"this {first.rule} edit would add parse errors; the code here was left unchanged",
                *ctx.lines.position(first.start),
                offset=first.start,
                hint="please report this input as a bug; translate these lines by hand",
            )
        )
    output = apply(data, kept)
    return output, _errors_of(output) if kept else before, kept


def _parse_bytes(data: bytes, info: SourceInfo) -> bytes:
    # A BOM is not C++; blank it out (same length, so offsets stay valid).
    return b"   " + data[3:] if info.bom else data


def translate_bytes(
    data: bytes,
    table: MappingTable,
    options: Options | None = None,
    facts: SemanticFacts | None = None,
) -> FileResult:
    """``facts``: what the clang engine (hipify_py.semantic) learned about this
    file; the rules consult them where text alone is ambiguous."""
    options = options or Options()
    info = inspect(data)
    result = FileResult(data=data, original=data)
    if info.binary_reason is not None:
        result.skipped = info.binary_reason
        result.diagnostics.append(D.BINARY_FILE.at(f"skipped: {info.binary_reason}", 1, 1))
        return result
    try:
        return _translate(data, info, table, options, result, facts)
    except RecursionError:
        return _failed(result, "input nests too deeply for the translator")
    except Exception as exc:  # the library never raises on bad source
        result.traceback = format_exc()
        return _failed(result, f"internal error: {type(exc).__name__}: {exc}")


def _failed(result: FileResult, why: str) -> FileResult:
    result.data = result.original
    result.diagnostics.append(
        D.PARSE_REGRESSION.at(
            f"{why}; the file was left unchanged", 1, 1, hint="please report this input as a bug"
        )
    )
    return result


# IDENTIFIER's words, found by C-speed bytes methods: every byte that is not
# [A-Za-z0-9_$] becomes a space and the rest is split; a word starts a run (a
# position inside one follows [A-Za-z0-9_$]) and ends at its first $.  Three
# times faster than IDENTIFIER.findall, which stays the definition: it is used
# instead if the pattern ever changes.
_ASCII_IDENTIFIER = r"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]*"
_RUN_BYTES = bytes(
    b if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "_$") else 0x20 for b in range(256)
)
_WORD_STARTS = frozenset(b"_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def words(data: bytes, text: str) -> set[str]:
    """The distinct identifier-like words of a file: ``set(IDENTIFIER.findall(text))``."""
    if IDENTIFIER.pattern != _ASCII_IDENTIFIER or IDENTIFIER.flags & re.IGNORECASE:
        return set(IDENTIFIER.findall(text))
    found = set()
    for run in set(data.translate(_RUN_BYTES).split()):
        if run[0] in _WORD_STARTS:
            found.add((run.split(b"$", 1)[0] if b"$" in run else run).decode("ascii"))
    return found


def _translate(
    data: bytes,
    info: SourceInfo,
    table: MappingTable,
    options: Options,
    result: FileResult,
    facts: SemanticFacts | None = None,
) -> FileResult:
    text = data.decode("latin-1")
    present = words(data, text)
    if not any(admits(present, text, table) for admits in admission_filters()) and not (
        facts is not None and (facts.notes or facts.edits)
    ):
        # nothing CUDA here: skip parsing altogether (LineIndex's count of lines)
        result.stats.lines_total = data.count(b"\n") + 1 if data else 0
        return result
    parse_input = _parse_bytes(data, info)
    tree = parse(parse_input)
    lines = LineIndex(data)
    ctx = Context(
        data=data,
        text=text,
        present=present,
        tree=tree,
        table=table,
        options=options,
        info=info,
        lines=lines,
        target_hip=options.hip_version or default_version(),
    )
    result.errors_before = error_count(tree)
    if facts is not None:
        ctx.facts.semantic = facts
    for rule in all_rules():
        rule.run(ctx)
    if facts is not None:
        apply_facts(ctx, facts)
    ctx.diagnostics = _unsuppressed(ctx)
    if options.annotate:
        _annotate(ctx)
    accepted, rejected = plan(ctx.edits)
    for edit in rejected:
        ctx.report(D.EDIT_CONFLICT, edit.start, f"overlapping {edit.rule} edit dropped")
    output = apply(data, accepted) if accepted else data
    result.stats = ctx.stats
    result.references = sorted(ctx.references)
    result.stats.lines_total = len(lines._starts) if data else 0
    if accepted:
        # LineIndex.line_of without a Python call per edit
        line_of = partial(bisect_right, lines._starts)
        result.stats.lines_changed = len(set(map(line_of, map(itemgetter(0), accepted))))
    if result.errors_before:
        ctx.report(
            D.PARSE_ERRORS,
            0,
            f"the parser could not read {result.errors_before} region(s) of this file",
        )
    if output != data and any(edit.structural for edit in accepted):
        output, result.errors_after, accepted = _self_check(
            ctx, data, accepted, result.errors_before
        )
    else:
        result.errors_after = result.errors_before
    result.data = output
    result.edits = [
        (e.start, e.end, e.text, e.rule) for e in accepted if data[e.start : e.end] != e.text
    ]
    result.diagnostics = sorted(ctx.diagnostics, key=lambda d: (d.offset, d.code))
    return result
