"""Parse one translation unit with libclang and turn the compiler's view into
SemanticFacts for the shared rules.

The file is parsed as CUDA for the host side (its AST answers: which
declaration a name refers to, what a macro expansion produced, the types of
call arguments); when the host side skipped some preprocessor branches of the
file, it is preprocessed again for the device side (function bodies skipped),
and only the branches that neither side saw are reported as not compiled.

Locations: libclang gives, for a token that came out of a macro body, the
place in the file where that macro was used (its "file location"; it has no
way to name the token inside the ``#define``).  So a reference whose file
location does not spell its name came from a macro body: the macro used
there, or one its body uses, spells the name (or makes it by ``##``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py.engine.context import cached_version
from hipify_py.engine.hip_target import default_version
from hipify_py.engine.options import Options
from hipify_py.engine.semantic_facts import Note, SemanticFacts
from hipify_py.semantic.setup import ClangSetup
from hipify_py.semantic.skipped import file_location, in_main_file, skipped_lines
from hipify_py.tables.table import MappingTable

_INDEX: list[Any] = []  # one libclang index per process (worker processes make their own)


def _index() -> Any:
    if not _INDEX:
        import clang.cindex as cindex

        _INDEX.append(cindex.Index.create())
    return _INDEX[0]


def fallback(why: str) -> SemanticFacts:
    """Facts that say only why the clang engine gave up on the file."""
    return SemanticFacts(
        notes=(
            Note(
                "HPY701",
                0,
                f"the clang engine could not compile this file ({why}); "
                "the default engine translated it",
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


def _parse(path: str, data: bytes, args: list[str], options: int) -> Any:
    return _index().parse(path, args=args, unsaved_files=[(path, data)], options=options)


def _errors(tu: Any) -> list[Any]:
    import clang.cindex as cindex

    return [d for d in tu.diagnostics if d.severity >= cindex.Diagnostic.Error]


def precompiled(setup: ClangSetup, args: list[str]) -> str | None:
    """The CUDA headers (what clang's CUDA wrapper includes before every file)
    precompiled for the host side with these flags: a parse then takes a
    third of the time.  Built once per set of flags, beside the result cache,
    written atomically (workers may race; either copy is right).  None when
    it cannot be made; the caller then parses without it."""
    if not setup.pch_dir:
        return None
    import clang.cindex as cindex

    key = hashlib.sha256("\0".join([setup.library_version, *args]).encode()).hexdigest()[:32]
    folder = Path(setup.pch_dir)
    made = folder / f"{key}.pch"
    if made.is_file():
        return str(made)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        empty = folder / "empty.cuh"
        if not empty.is_file():
            empty.write_bytes(b"")
        tu = _index().parse(str(empty), args=args, options=cindex.TranslationUnit.PARSE_INCOMPLETE)
        if _errors(tu):
            return None
        building = folder / f".{key}.{os.getpid()}.tmp"
        tu.save(str(building))
        os.replace(building, made)
    except (OSError, cindex.TranslationUnitLoadError, cindex.TranslationUnitSaveError):
        return None
    return str(made)


def _parse_host(setup: ClangSetup, name: str, data: bytes, args: list[str]) -> Any:
    """The host side, with the precompiled CUDA headers when they can be had;
    a parse that fails with them is redone without (and the stale file dropped)."""
    import clang.cindex as cindex

    detailed = cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    pch = precompiled(setup, args)
    if pch is not None:
        tu = _parse(name, data, [*args, "-include-pch", pch], detailed)
        if not _errors(tu):
            return tu
    tu = _parse(name, data, args, detailed)
    if pch is not None and not _errors(tu):
        with contextlib.suppress(OSError):
            os.unlink(pch)  # it was the problem (CUDA headers changed since, ...)
    return tu


def _analyse(
    path: Path, data: bytes, setup: ClangSetup, table: MappingTable, options: Options
) -> SemanticFacts:
    import clang.cindex as cindex

    absolute = path.resolve()
    name = str(absolute)
    args = setup.arguments_for(absolute)
    detailed = cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    try:
        host = _parse_host(setup, name, data, [*args, "--cuda-host-only"])
    except cindex.TranslationUnitLoadError as exc:
        return fallback(f"libclang could not parse it: {exc}")
    problems = _errors(host)
    if problems:
        return fallback(_describe(problems, name))
    walk = _Walk(host, name, data, table, options)
    walk.run()
    notes = walk.notes
    inactive = skipped_lines(host, name)
    if inactive:
        # the preprocessing record holds the skipped ranges; bodies are not needed
        quick = detailed | cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
        try:
            device = _parse(name, data, [*args, "--cuda-device-only"], quick)
            inactive &= skipped_lines(device, name)
        except cindex.TranslationUnitLoadError:
            pass  # the host side's answer stands
        notes += _inactive_notes(inactive, data)
    return SemanticFacts(
        keep=frozenset(walk.keep),
        symbol_arguments=walk.decided("wrap", True),
        plain_symbols=walk.decided("wrap", False),
        cast_arguments=walk.decided("cast", True),
        typed_arguments=walk.decided("cast", False),
        edits=tuple(walk.edits),
        notes=tuple(sorted(notes, key=lambda n: (n.offset, n.code))),
        dependencies=_dependencies(host, name),
    )


def _describe(problems: list[Any], main: str) -> str:
    first = problems[0]
    where = first.location
    place = ""
    if where.file is not None:
        place = (
            f"line {where.line}"
            if where.file.name == main
            else f"{Path(where.file.name).name}:{where.line}"
        )
    more = f"; {len(problems) - 1} more error(s)" if len(problems) > 1 else ""
    return f"{place + ': ' if place else ''}{first.spelling}{more}"


def _dependencies(tu: Any, main: str) -> tuple[tuple[str, str], ...]:
    """The project files (not system or CUDA headers) the unit included, with
    their sha256: a cached result holds only while they are unchanged."""
    import clang.cindex as cindex

    found: dict[str, str] = {}
    for inclusion in tu.get_includes():
        file = inclusion.include
        if file is None or file.name == main or file.name in found:
            continue
        if cindex.SourceLocation.from_position(tu, file, 1, 1).is_in_system_header:
            continue
        try:
            with open(file.name, "rb") as handle:
                found[file.name] = hashlib.sha256(handle.read()).hexdigest()
        except OSError:
            found[file.name] = ""
    return tuple(sorted(found.items()))


def _inactive_notes(lines: set[int], data: bytes) -> list[Note]:
    starts = [0, *(m.end() for m in re.finditer(rb"\n", data))]
    text = data.decode("latin-1")

    def directive(number: int) -> bool:  # the preprocessor read it: not skipped code
        end = starts[number] if number < len(starts) else len(text)
        return text[starts[number - 1] : end].lstrip().startswith("#")

    lines = {n for n in lines if n - 1 < len(starts) and not directive(n)}
    notes = []
    for first, last in _runs(sorted(lines)):
        if first - 1 >= len(starts):
            continue
        offset = starts[first - 1]
        opener = ""
        if first >= 2:
            line = data[starts[first - 2] : offset].decode("latin-1").strip()
            if line.startswith("#"):
                opener = f" (after {line[:60]})"
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        notes.append(
            Note(
                "HPY705",
                offset,
                f"{span}{opener}: not compiled with these flags on the host or the device "
                "side; translated textually",
                "check these lines by hand, or pass the -D flags (or -p BUILD_DIR) that "
                "enable them",
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


_IDENT = re.compile(r"[A-Za-z_]\w*\Z")


@dataclass
class _Macro:
    """A project macro definition (one not in a system header)."""

    name: str
    file: str
    line: int
    start: int  # extent in its file: from the name to the end of the body
    end: int
    tokens: list[tuple[str, int]]  # (spelling, offset in its file), the name first
    params: set[str]
    body: set[str]  # identifiers of the body


@dataclass
class _Expansion:
    """A use of a macro in the main file."""

    start: int
    end: int
    name: str
    names: set[str] = field(default_factory=set)  # CUDA API names it produced
    sources: set[str] = field(default_factory=set)  # the macros whose bodies spelled them
    unpasted: set[str] = field(default_factory=set)  # names pasted from its arguments


class _Walk:
    """One pass over the cursors of the main file."""

    def __init__(
        self, tu: Any, main: str, data: bytes, table: MappingTable, options: Options
    ) -> None:
        import clang.cindex as cindex

        ck = cindex.CursorKind
        self.ck, self.tk = ck, cindex.TypeKind
        self.tu, self.main, self.data, self.table, self.options = tu, main, data, table, options
        self.text = data.decode("latin-1")
        self.names = table.names
        self.keep: set[int] = set()
        self.edits: list[tuple[int, int, str]] = []
        self.notes: list[Note] = []
        self.macros: dict[str, _Macro] = {}
        self.expansions: dict[int, _Expansion] = {}
        # ("wrap" | "cast" | "keep", offset) -> the answers of every call or expansion seen there
        self.votes: dict[tuple[str, int], set[bool]] = defaultdict(set)
        self.produced: dict[str, set[str]] = defaultdict(set)  # macro -> CUDA names it spelled
        self.uses_of: dict[str, int] = defaultdict(int)  # macro -> expansions producing CUDA
        self.pasted: dict[tuple[str, int], set[str]] = defaultdict(set)
        self.shadowing: dict[str, tuple[str, int, int]] = {}  # USR -> (name, first offset, uses)
        self.where: dict[str, str] = {}  # USR -> "line N" / "file.h:N"
        self._cuda: dict[int, bool] = {}
        self.references = {
            ck.DECL_REF_EXPR,
            ck.MEMBER_REF_EXPR,
            ck.TYPE_REF,
            ck.TEMPLATE_REF,
            ck.NAMESPACE_REF,
            ck.MEMBER_REF,
            ck.VARIABLE_REF,
            ck.OVERLOADED_DECL_REF,
        }
        self.declarations = {k for k in ck.get_all_kinds() if k.is_declaration()}

    # ------------------------------------------------------------------ driver

    def run(self) -> None:
        ck = self.ck
        bodies = []
        for cursor in self.tu.cursor.get_children():
            kind = cursor.kind
            location = cursor.location
            if kind == ck.MACRO_DEFINITION:
                if not location.is_in_system_header and location.file is not None:
                    self._macro(cursor)
                continue
            if not in_main_file(location):
                continue
            if kind == ck.MACRO_INSTANTIATION:
                self._expansion(cursor)
            elif kind != ck.INCLUSION_DIRECTIVE:
                bodies.append(cursor)
        for body in bodies:
            for cursor in body.walk_preorder():
                self._visit(cursor)
        self._report_macros()
        self._report_shadowing()

    def decided(self, kind: str, answer: bool) -> frozenset[int]:
        """Offsets where every call clang saw gave the same answer."""
        return frozenset(o for (k, o), seen in self.votes.items() if k == kind and seen == {answer})

    # ------------------------------------------------------------------ cursors

    def _spells(self, offset: int, name: str) -> bool:
        return self.text.startswith(name, offset) and not (
            self.text[offset + len(name) : offset + len(name) + 1].isalnum()
            or self.text[offset + len(name) : offset + len(name) + 1] == "_"
        )

    def _is_cuda(self, declaration: Any) -> bool:
        """Declared by CUDA (or the compiler): in a system header, or nowhere."""
        key = declaration.hash
        known = self._cuda.get(key)
        if known is None:
            location = declaration.canonical.location
            known = location.file is None or bool(location.is_in_system_header)
            self._cuda[key] = known
        return known

    def _visit(self, cursor: Any) -> None:
        kind = cursor.kind
        if kind in self.references:
            ref = cursor.referenced
            overloads = cursor if kind == self.ck.OVERLOADED_DECL_REF else ref
            if overloads is not None and overloads.kind == self.ck.OVERLOADED_DECL_REF:
                # a dependent call in a template (cudaMalloc(&ptr_, n) with a T*
                # ptr_) names an overload set: CUDA's when its members are
                ref = _first_overload(overloads) or ref
            if ref is not None:
                name = ref.spelling
                if name in self.names:
                    self._reference(cursor, ref, name)
        elif kind == self.ck.CALL_EXPR:
            self._call(cursor)
        elif kind in self.declarations:
            name = cursor.spelling
            if name in self.names and not self._is_cuda(cursor):
                file, offset = file_location(cursor.location)
                if file == self.main and self._spells(offset, name):
                    self._keep(offset, cursor, name)

    def _keep(self, offset: int, declaration: Any, name: str) -> None:
        self.keep.add(offset)
        canonical = declaration.canonical
        usr = canonical.get_usr() or f"{name}@{offset}"
        found = self.shadowing.get(usr)
        if found is None:
            self.shadowing[usr] = (name, offset, 1)
            location = canonical.location
            if location.file is not None:
                self.where[usr] = (
                    f"line {location.line}"
                    if location.file.name == self.main
                    else f"{Path(location.file.name).name}:{location.line}"
                )
        else:
            self.shadowing[usr] = (found[0], min(found[1], offset), found[2] + 1)

    def _reference(self, cursor: Any, ref: Any, name: str) -> None:
        """A use of a CUDA-spelled name: written here (a user declaration's
        name is kept), or produced by a macro (reported at both ends)."""
        file, offset = file_location(cursor.location)
        if file != self.main:
            return
        cuda = self._is_cuda(ref)
        if self._spells(offset, name):
            if not cuda:
                self._keep(offset, ref, name)
            return
        expansion = self.expansions.get(offset)
        macro = self.macros.get(expansion.name) if expansion is not None else None
        if expansion is None or macro is None:
            return  # a system macro's expansion (assert, NULL): not the project's
        source = self._source(macro, name)
        if source is not None and source.file == self.main:
            token = self._body_token(source, name)
            if token is not None:
                self.votes[("keep", token)].add(not cuda)
        if not cuda:
            return
        expansion.names.add(name)
        if source is not None:
            expansion.sources.add(source.name)
            self.produced[source.name].add(name)
        elif not self._pasted(macro, name):
            expansion.unpasted.add(name)  # pasted from the macro's arguments

    def _call(self, cursor: Any) -> None:
        """Argument facts for a call of a CUDA function with argument-level fixes."""
        name = cursor.spelling
        row = self.names.get(name)
        if row is None or not (row.arg_wraps or row.arg_casts):
            return
        ref = cursor.referenced
        if ref is None or ref.spelling != name or not self._is_cuda(ref):
            return
        file, offset = file_location(cursor.location)
        if file != self.main:
            return
        arguments = list(cursor.get_arguments())
        if self._spells(offset, name):  # written in the code (or in a macro argument)
            starts = []
            for argument in arguments:
                where, start = file_location(argument.extent.start)
                starts.append(start if where == self.main else -1)
        else:  # from the body of a macro of this file: its argument texts there
            expansion = self.expansions.get(offset)
            macro = self.macros.get(expansion.name) if expansion is not None else None
            source = self._source(macro, name) if macro is not None else None
            if source is None or source.file != self.main:
                return
            token = self._body_token(source, name)
            if token is None:
                return
            from hipify_py.rules.call_args import call_in_text

            call = call_in_text(self.text, token + len(name), source.end)
            if call is None:
                return
            starts = [a.start for a in call.args]
        prototype = ref.type.kind == self.tk.FUNCTIONPROTO
        parameters = list(ref.type.argument_types()) if prototype else []
        for index, _macro in row.arg_wraps:
            if index < min(len(arguments), len(starts), len(parameters)) and starts[index] >= 0:
                # CUDA's template overload binds the variable itself (const T&);
                # its const void* overload takes an address that needs no HIP_SYMBOL
                kind = parameters[index].kind
                by_reference = kind in (self.tk.LVALUEREFERENCE, self.tk.RVALUEREFERENCE)
                self.votes[("wrap", starts[index])].add(by_reference)
        for index, cast in row.arg_casts:
            if index < min(len(arguments), len(starts)) and starts[index] >= 0:
                argument = _explicit(arguments[index], self.ck)
                converts = self._converts(argument.type.get_canonical(), cast)
                self.votes[("cast", starts[index])].add(not converts)

    # ------------------------------------------------------------------ types

    def _hip_spelling(self, spelled: str) -> str:
        """A canonical C++ type spelled as HIP spells it, for comparing with a
        row's cast: CUDA names renamed, tag keywords and spaces dropped."""
        names = self.names

        def rename(found: re.Match[str]) -> str:
            row = names.get(found.group(0))
            return row.hip if row is not None and row.hip else found.group(0)

        spelled = re.sub(r"\b(?:struct|enum|class|union)\s+", "", spelled)
        return re.sub(r"[A-Za-z_]\w*", rename, spelled).replace(" ", "")

    def _converts(self, canonical: Any, cast: str) -> bool:
        """Does an argument of this type convert implicitly to HIP's parameter
        type ``cast`` (so the cast is not needed)?"""
        tk = self.tk
        wanted = self._hip_spelling(cast)
        kind = canonical.kind
        if kind == tk.NULLPTR:
            return "*" in wanted
        pointee = None
        if kind == tk.POINTER:
            pointee = canonical.get_pointee()
            spelled = self._hip_spelling(canonical.spelling)
        elif kind in (tk.CONSTANTARRAY, tk.INCOMPLETEARRAY):  # decays to a pointer
            pointee = canonical.element_type
            spelled = self._hip_spelling(pointee.spelling) + "*"
        else:
            return self._hip_spelling(canonical.spelling) == wanted
        if spelled == wanted:
            return True
        if wanted in ("void*", "constvoid*"):
            if pointee.kind in (tk.FUNCTIONPROTO, tk.FUNCTIONNOPROTO):
                return False  # a function's address is no object pointer
            return wanted == "constvoid*" or not pointee.is_const_qualified()
        if wanted == "const" + spelled and spelled.count("*") == 1:
            return True  # T* -> const T*
        return wanted.endswith("*const*") and spelled == wanted[: -len("*const*")] + "**"

    # ------------------------------------------------------------------ macros

    def _macro(self, cursor: Any) -> None:
        extent = cursor.extent
        tokens = [(t.spelling, t.extent.start.offset) for t in cursor.get_tokens()]
        if not tokens:
            return
        params: set[str] = set()
        body_from = 1
        if (
            len(tokens) > 1
            and tokens[1][0] == "("
            and tokens[1][1] == tokens[0][1] + len(tokens[0][0])
        ):
            for index in range(2, len(tokens)):
                spelling = tokens[index][0]
                if spelling == ")":
                    body_from = index + 1
                    break
                if spelling != ",":
                    params.add(spelling)
        body = {s for s, _ in tokens[body_from:] if _IDENT.match(s)} - params
        location = cursor.location
        self.macros[cursor.spelling] = _Macro(
            cursor.spelling,
            location.file.name,
            location.line,
            extent.start.offset,
            extent.end.offset,
            tokens,
            params,
            body,
        )

    def _expansion(self, cursor: Any) -> None:
        extent = cursor.extent
        start = extent.start.offset
        self.expansions[start] = _Expansion(start, extent.end.offset, cursor.spelling)

    def _used_macros(self, macro: _Macro) -> Iterator[_Macro]:
        """``macro``, then the macros its body uses, directly or through others
        (breadth first, each once)."""
        seen = {macro.name}
        queue = [macro]
        while queue:
            current = queue.pop(0)
            yield current
            for word in sorted(current.body):
                inner = self.macros.get(word)
                if inner is not None and word not in seen:
                    seen.add(word)
                    queue.append(inner)

    def _source(self, macro: _Macro, name: str) -> _Macro | None:
        """The macro whose body spells ``name``: ``macro`` or one its body uses."""
        return next((m for m in self._used_macros(macro) if name in m.body), None)

    def _body_token(self, macro: _Macro, name: str) -> int | None:
        """The offset of ``name`` in the body of a macro of this file, when the
        body spells it exactly once (else the answer would be ambiguous)."""
        if macro.file != self.main:
            return None
        offsets = [o for s, o in macro.tokens[1:] if s == name]
        return offsets[0] if len(offsets) == 1 else None

    def _pasted(self, macro: _Macro, produced: str) -> bool:
        """A CUDA name no macro body spells: made by ``prefix##...`` in
        ``macro`` or a macro its body uses."""
        for current in self._used_macros(macro):
            tokens = current.tokens
            for index in range(1, len(tokens) - 1):
                if tokens[index][0] != "##":
                    continue
                left = tokens[index - 1][0]
                if left not in current.params and produced.startswith(left) and left != produced:
                    self.pasted[(current.name, tokens[index - 1][1])].add(produced)
                    return True
        return False

    def _place(self, macro: _Macro) -> str:
        if macro.file == self.main:
            return f"line {macro.line}"
        return f"{Path(macro.file).name}:{macro.line}"

    def _report_macros(self) -> None:
        for expansion in sorted(self.expansions.values(), key=lambda e: e.start):
            if not expansion.names:
                continue
            self.uses_of[expansion.name] += 1
            for source in expansion.sources:
                if source != expansion.name:
                    self.uses_of[source] += 1
            places = [
                f"{name} ({self._place(self.macros[name])})" for name in sorted(expansion.sources)
            ]
            pasted = [
                f"{macro} ({self._place(self.macros[macro])}, pasted)"
                for (macro, _), made in sorted(self.pasted.items())
                if made & expansion.names
            ]
            translated = sorted(expansion.names - expansion.unpasted)
            if translated:
                self.notes.append(
                    Note(
                        "HPY702",
                        expansion.start,
                        f"{expansion.name} expands to CUDA API ({', '.join(translated)}); "
                        f"translated where it is defined: {', '.join(places + pasted)}",
                        name=expansion.name,
                    )
                )
            if expansion.unpasted:
                self.notes.append(
                    Note(
                        "HPY706",
                        expansion.start,
                        f"{expansion.name} pastes CUDA API names together from its arguments "
                        f"({', '.join(sorted(expansion.unpasted))}); they are not translated",
                        "spell the name out at this use, or translate it by hand",
                        name=expansion.name,
                    )
                )
        for name, produced in sorted(self.produced.items()):
            macro = self.macros[name]
            if macro.file != self.main:
                continue
            uses = self.uses_of.get(name, 0)
            self.notes.append(
                Note(
                    "HPY703",
                    macro.start,
                    f"macro {name} expands to CUDA API ({', '.join(sorted(produced))}) at "
                    f"{uses} use(s) in this file; its definition is translated",
                    name=name,
                )
            )
        self._report_pasted()
        for (kind, offset), seen in self.votes.items():
            if kind == "keep" and seen == {True}:
                self.keep.add(offset)

    def _report_pasted(self) -> None:
        """Rewrite a pasted prefix when every name it makes maps to one HIP
        prefix (``cuda##`` -> ``hip##``); otherwise say why not."""
        for (macro_name, token_offset), produced_names in sorted(self.pasted.items()):
            macro = self.macros[macro_name]
            if macro.file != self.main:
                continue
            prefix = next(s for s, o in macro.tokens if o == token_offset)
            self.keep.add(token_offset)  # a prefix, not a use of the name it spells
            targets = {self._hip_prefix(n, prefix) for n in produced_names}
            listed = ", ".join(sorted(produced_names))
            if len(targets) == 1 and None not in targets:
                target = targets.pop()
                assert target is not None
                self.edits.append((token_offset, token_offset + len(prefix), target))
                self.notes.append(
                    Note(
                        "HPY704",
                        token_offset,
                        f"{prefix}##... in macro {macro_name} makes CUDA API names ({listed}); "
                        f"the prefix was rewritten to {target}##",
                        name=macro_name,
                    )
                )
            else:
                self.notes.append(
                    Note(
                        "HPY706",
                        token_offset,
                        f"{prefix}##... in macro {macro_name} makes CUDA API names ({listed}) "
                        "that no single prefix rewrite translates",
                        "spell the names out in the macro's uses, or translate the macro by hand",
                        name=macro_name,
                    )
                )

    def _hip_prefix(self, name: str, prefix: str) -> str | None:
        row = self.table.lookup(name)
        if row is None or not row.hip:
            return None
        target = self.options.hip_version or default_version()
        if row.hip_added and cached_version(row.hip_added) > target:
            return None
        suffix = name[len(prefix) :]
        if not row.hip.endswith(suffix):
            return None
        return row.hip[: len(row.hip) - len(suffix)]

    def _report_shadowing(self) -> None:
        for usr, (name, offset, uses) in self.shadowing.items():
            where = self.where.get(usr, "")
            self.notes.append(
                Note(
                    "HPY707",
                    offset,
                    f"{name} here is the project's own declaration"
                    + (f" ({where})" if where else "")
                    + f", not the CUDA API; left unchanged ({uses} occurrence(s) in this file)",
                    name=name,
                )
            )


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


def _first_overload(cursor: Any) -> Any:
    """The first declaration of an overload set (OVERLOADED_DECL_REF), or None;
    the Python bindings expose it through the C functions only."""
    from clang import cindex

    lib = cindex.conf.lib
    if lib.clang_getNumOverloadedDecls(cursor) == 0:
        return None
    found = lib.clang_getOverloadedDecl(cursor, 0)
    if found is None or found.kind.is_invalid():
        return None
    found._tu = cursor._tu  # as Cursor.referenced does: keeps the unit alive
    return found
