"""Parse one translation unit with libclang and turn the compiler's view into
SemanticFacts for the shared rules.

The file is parsed as CUDA for the host side; when the host side skips some
preprocessor branches it is parsed again for the device side, and only the
branches that neither side saw are reported as inactive.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..context import cached_version
from ..options import Options
from ..semantic_facts import Note, SemanticFacts
from ..table import MappingTable
from .setup import ClangSetup
from .skipped import skipped_lines, spelling_of

_INDEX: Any = None


def _index() -> Any:
    global _INDEX
    if _INDEX is None:
        import clang.cindex as cindex

        _INDEX = cindex.Index.create()
    return _INDEX


def fallback(why: str) -> SemanticFacts:
    return SemanticFacts(
        notes=(
            Note(
                "HPY701",
                0,
                f"the clang engine could not compile this file ({why}); "
                "it was translated by the default engine",
                "pass the flags it is built with (-p BUILD_DIR, -I, -D, --std, --cuda-path)",
            ),
        ),
        fell_back=True,
    )


def analyse(
    path: Path, data: bytes, setup: ClangSetup, table: MappingTable, options: Options
) -> SemanticFacts:
    """Never raises: anything that goes wrong becomes a fallback note."""
    try:
        return _analyse(path, data, setup, table, options)
    except Exception as exc:  # libclang errors are plain Exceptions
        return fallback(f"libclang failed: {type(exc).__name__}: {exc}")


def _parse(path: str, data: bytes, args: list[str]) -> Any:
    import clang.cindex as cindex

    return _index().parse(
        path,
        args=args,
        unsaved_files=[(path, data)],
        options=cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
    )


def _analyse(
    path: Path, data: bytes, setup: ClangSetup, table: MappingTable, options: Options
) -> SemanticFacts:
    import clang.cindex as cindex

    name = str(path)
    args = setup.arguments_for(path)
    try:
        host = _parse(name, data, [*args, "--cuda-host-only"])
    except cindex.TranslationUnitLoadError as exc:
        return fallback(f"libclang could not parse it: {exc}")
    problems = [d for d in host.diagnostics if d.severity >= cindex.Diagnostic.Error]
    if problems:
        return fallback(_describe(problems, name))
    walk = _Walk(host, name, data, table, options)
    walk.run()
    notes = walk.notes
    inactive = skipped_lines(host, name)
    if inactive:
        device = _parse(name, data, [*args, "--cuda-device-only"])
        inactive &= skipped_lines(device, name)
        notes += _inactive_notes(inactive, data)
    return SemanticFacts(
        keep=frozenset(walk.keep),
        plain_symbols=frozenset(walk.plain_symbols),
        typed_arguments=frozenset(walk.typed_arguments),
        edits=tuple(walk.edits),
        notes=tuple(sorted(notes, key=lambda n: (n.offset, n.code))),
    )


def _describe(problems: list[Any], main: str) -> str:
    first = problems[0]
    where = first.location
    place = f"line {where.line}" if where.file and where.file.name == main else ""
    if where.file and where.file.name != main:
        place = f"{Path(where.file.name).name}:{where.line}"
    more = f"; {len(problems) - 1} more error(s)" if len(problems) > 1 else ""
    return f"{place + ': ' if place else ''}{first.spelling}{more}"


def _inactive_notes(lines: set[int], data: bytes) -> list[Note]:
    starts = [0]
    for index, byte in enumerate(data):
        if byte == 0x0A:
            starts.append(index + 1)
    notes = []
    for first, last in _runs(sorted(lines)):
        offset = starts[first - 1] if first - 1 < len(starts) else 0
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        notes.append(
            Note(
                "HPY705",
                offset,
                f"{span}: not compiled with these flags (neither the host nor the device "
                "side); translated textually",
                "check these branches by hand, or pass the -D flags that enable them",
            )
        )
    return notes


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


@dataclass
class _Macro:
    name: str
    file: str
    line: int
    offset: int
    tokens: list[tuple[str, int]]  # (spelling, offset in its file)
    params: set[str]
    identifiers: set[str]


@dataclass
class _Expansion:
    start: int
    end: int
    macro: _Macro | None
    names: set[str] = field(default_factory=set)  # CUDA API names it produced


def _is_system(cursor: Any) -> bool:
    location = cursor.canonical.location
    return location.file is None or bool(location.is_in_system_header)


class _Walk:
    """One pass over the cursors of the main file."""

    def __init__(
        self, tu: Any, main: str, data: bytes, table: MappingTable, options: Options
    ) -> None:
        import clang.cindex as cindex

        self.ck = cindex.CursorKind
        self.tk = cindex.TypeKind
        self.tu, self.main, self.data, self.table, self.options = tu, main, data, table, options
        self.names = table.names
        self.keep: set[int] = set()
        self.plain_symbols: set[int] = set()
        self.typed_arguments: set[int] = set()
        self.edits: list[tuple[int, int, str]] = []
        self.notes: list[Note] = []
        self.macros: dict[str, _Macro] = {}
        self.expansions: list[_Expansion] = []
        self.references = {
            self.ck.DECL_REF_EXPR,
            self.ck.MEMBER_REF_EXPR,
            self.ck.TYPE_REF,
            self.ck.TEMPLATE_REF,
            self.ck.NAMESPACE_REF,
            self.ck.MEMBER_REF,
            self.ck.VARIABLE_REF,
        }

    def run(self) -> None:
        bodies = []
        for cursor in self.tu.cursor.get_children():
            kind = cursor.kind
            if kind == self.ck.MACRO_DEFINITION:
                if not cursor.location.is_in_system_header and cursor.location.file is not None:
                    self._macro(cursor)
                continue
            file = cursor.location.file
            if file is None or file.name != self.main:
                continue
            if kind == self.ck.MACRO_INSTANTIATION:
                self._expansion(cursor)
            elif kind != self.ck.INCLUSION_DIRECTIVE:
                bodies.append(cursor)
        self.expansions.sort(key=lambda e: (e.start, -e.end))
        for body in bodies:
            for cursor in body.walk_preorder():
                self._visit(cursor)
        self._report_macros()

    # ------------------------------------------------------------------ cursors

    def _spelled_here(self, offset: int, name: str) -> bool:
        return self.data[offset : offset + len(name)] == name.encode("latin-1", "replace")

    def _visit(self, cursor: Any) -> None:
        kind = cursor.kind
        if kind in self.references:
            ref = cursor.referenced
            if ref is not None and ref.spelling in self.names:
                self._reference(cursor, ref)
        elif kind == self.ck.CALL_EXPR:
            self._call(cursor)
        elif kind.is_declaration() and cursor.spelling in self.names:
            file, offset = spelling_of(cursor.location)
            if (
                file == self.main
                and self._spelled_here(offset, cursor.spelling)
                and not _is_system(cursor)
            ):
                self.keep.add(offset)

    def _reference(self, cursor: Any, ref: Any) -> None:
        """A use of a CUDA-spelled name: written here (a user declaration's
        name is kept), or produced by a macro (reported at both ends)."""
        location = cursor.location
        if location.file is None or location.file.name != self.main:
            return
        expanded = location.offset
        file, offset = spelling_of(location)
        written_here = file == self.main and self._spelled_here(offset, ref.spelling)
        in_argument = written_here and self._in_macro_argument(expanded, offset)
        if written_here and (offset == expanded or in_argument):
            if not _is_system(ref):
                self.keep.add(offset)
        elif _is_system(ref):
            self._from_macro(expanded, ref.spelling)

    def _in_macro_argument(self, expanded: int, offset: int) -> bool:
        return any(e.start <= offset < e.end for e in self.expansions if e.start <= expanded)

    def _call(self, cursor: Any) -> None:
        ref = cursor.referenced
        if ref is None:
            return
        row = self.table.lookup(ref.spelling)
        if row is None or not (row.arg_wraps or row.arg_casts) or not _is_system(ref):
            return
        arguments = list(cursor.get_arguments())
        for index, _macro in row.arg_wraps:
            if index < len(arguments):
                argument = _explicit(arguments[index], self.ck)
                if argument.type.get_canonical().kind == self.tk.POINTER:
                    self._mark(self.plain_symbols, argument)
        for index, cast in row.arg_casts:
            if index < len(arguments):
                argument = _explicit(arguments[index], self.ck)
                if _already(argument.type.get_canonical(), cast, self.tk):
                    self._mark(self.typed_arguments, argument)

    def _mark(self, found: set[int], argument: Any) -> None:
        file, offset = spelling_of(argument.extent.start)
        if file == self.main:
            found.add(offset)

    # ------------------------------------------------------------------ macros

    def _macro(self, cursor: Any) -> None:
        tokens = [(t.spelling, t.extent.start.offset) for t in cursor.get_tokens()]
        if not tokens:
            return
        params: set[str] = set()
        if len(tokens) > 1 and tokens[1][0] == "(" and tokens[1][1] == tokens[0][1] + len(
            tokens[0][0]
        ):
            for spelling, _ in tokens[2:]:
                if spelling == ")":
                    break
                if spelling != ",":
                    params.add(spelling)
        identifiers = {s for s, _ in tokens[1:] if s[:1].isalpha() or s[:1] == "_"}
        self.macros[cursor.spelling] = _Macro(
            cursor.spelling,
            cursor.location.file.name,
            cursor.location.line,
            cursor.location.offset,
            tokens,
            params,
            identifiers,
        )

    def _expansion(self, cursor: Any) -> None:
        definition = cursor.referenced
        macro = None
        if definition is not None and definition.location.file is not None:
            macro = self.macros.get(cursor.spelling)
        self.expansions.append(
            _Expansion(cursor.extent.start.offset, cursor.extent.end.offset, macro)
        )

    def _from_macro(self, offset: int, name: str) -> None:
        for expansion in self.expansions:
            if expansion.start <= offset < max(expansion.end, expansion.start + 1):
                if expansion.macro is not None:
                    expansion.names.add(name)
                return

    def _report_macros(self) -> None:
        used: dict[str, list[_Expansion]] = defaultdict(list)
        for expansion in self.expansions:
            if expansion.macro is not None and expansion.names:
                used[expansion.macro.name].append(expansion)
        pasted_fix = self._pasted_prefixes(used)
        for name, expansions in used.items():
            macro = self.macros[name]
            produced = sorted(set().union(*(e.names for e in expansions)))
            here = macro.file == self.main
            where = f"line {macro.line}" if here else f"{Path(macro.file).name}:{macro.line}"
            for expansion in expansions:
                self.notes.append(
                    Note(
                        "HPY702",
                        expansion.start,
                        f"{name} expands to CUDA API ({', '.join(sorted(expansion.names))}); "
                        f"its definition ({where}) is where it is translated",
                    )
                )
            if here:
                self.notes.append(
                    Note(
                        "HPY703",
                        macro.offset,
                        f"macro {name} expands to CUDA API ({', '.join(produced)}) at "
                        f"{len(expansions)} use(s) in this file",
                    )
                )
        for note in pasted_fix:
            self.notes.append(note)

    def _pasted_prefixes(self, used: dict[str, list[_Expansion]]) -> list[Note]:
        """Names made by token pasting (``cuda##name``) that no source text
        spells out: rewrite the pasted prefix when every name it makes maps
        to the same HIP prefix, otherwise say why not."""
        spelled: set[str] = set()
        for macro in self.macros.values():
            spelled |= macro.identifiers
        sites: dict[tuple[str, int], set[str]] = defaultdict(set)
        notes: list[Note] = []
        for expansions in used.values():
            for expansion in expansions:
                use_text = self.data[expansion.start : expansion.end].decode("latin-1")
                for produced in expansion.names:
                    if produced in spelled or produced in use_text:
                        continue
                    site = self._paste_site(produced)
                    if site is None:
                        continue
                    sites[site].add(produced)
        for (macro_name, token_offset), produced_names in sites.items():
            macro = self.macros[macro_name]
            prefix = next(s for s, o in macro.tokens if o == token_offset)
            targets = {self._hip_prefix(n, prefix) for n in produced_names}
            listed = ", ".join(sorted(produced_names))
            fixable = len(targets) == 1 and None not in targets and macro.file == self.main
            if fixable:
                target = targets.pop()
                assert target is not None
                self.edits.append((token_offset, token_offset + len(prefix), target))
                notes.append(
                    Note(
                        "HPY704",
                        token_offset,
                        f"{prefix}##... in macro {macro_name} pastes CUDA API names ({listed}); "
                        f"the prefix was rewritten to {target}##",
                    )
                )
            elif macro.file == self.main:
                notes.append(
                    Note(
                        "HPY706",
                        token_offset,
                        f"{prefix}##... in macro {macro_name} pastes CUDA API names ({listed}) "
                        "that cannot all be translated by rewriting the prefix",
                        "spell the names out, or translate the macro by hand",
                    )
                )
        return notes

    def _paste_site(self, produced: str) -> tuple[str, int] | None:
        for macro in self.macros.values():
            tokens = macro.tokens
            for index in range(1, len(tokens) - 1):
                if tokens[index][0] != "##":
                    continue
                left = tokens[index - 1][0]
                if left not in macro.params and produced.startswith(left) and left != produced:
                    return (macro.name, tokens[index - 1][1])
        return None

    def _hip_prefix(self, name: str, prefix: str) -> str | None:
        row = self.table.lookup(name)
        if row is None or not row.hip:
            return None
        if row.hip_added and cached_version(row.hip_added) > (
            self.options.hip_version or self.table.newest_hip_version()
        ):
            return None
        suffix = name[len(prefix) :]
        if not row.hip.endswith(suffix):
            return None
        return row.hip[: len(row.hip) - len(suffix)]


def _explicit(cursor: Any, ck: Any) -> Any:
    """Look through the implicit conversions libclang shows as unexposed
    expressions with the same extent."""
    while cursor.kind == ck.UNEXPOSED_EXPR:
        children = list(cursor.get_children())
        if len(children) != 1:
            break
        child = children[0]
        if child.extent.start.offset != cursor.extent.start.offset:
            break
        cursor = child
    return cursor


def _already(canonical: Any, cast: str, tk: Any) -> bool:
    """Does an argument of this type need no cast to ``cast``?"""
    spelled = canonical.spelling.replace(" ", "")
    wanted = cast.replace(" ", "")
    if spelled == wanted:
        return True
    if wanted == "constvoid*" and canonical.kind == tk.POINTER:
        return bool(canonical.get_pointee().kind == tk.VOID)
    return False

