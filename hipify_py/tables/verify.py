"""Check the mapping tables against real headers: every name we emit must exist.

``hipify-py mappings verify`` (cli/mappings.py) is a thin layer over this module:

* :func:`scan_headers` reads header files and folders into a :class:`HeaderScan`:
  the names they declare (macros, functions, types, enumerators, variables, using
  aliases, namespaces and what is in them), parsed with the project's tree-sitter
  grammar, and the version of the toolkit they belong to.
* :func:`verify` checks the rows of a :class:`~hipify_py.tables.table.MappingTable`
  against a HIP scan (the ``hip`` and ``roc`` names) and a CUDA scan (the CUDA
  names) and returns a :class:`VerifyResult`; :func:`format_text` and
  :func:`to_json` render it.

A row is ``ok`` when its name is declared, ``newer`` when it is missing but the
table says it appeared after the headers' version, ``removed`` when it is missing
and was removed at or before that version, ``skipped`` when the headers of its
library were not given at all (hipDNN, MIOpen, cuDNN, ...), and ``failed``
otherwise: a wrong row.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipify_py.tables.cxx_words import keywords
from hipify_py.tables.table import MappingTable, Row
from hipify_py.tables.versions import Version, format_version, parse_version

HEADER_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc"})

# How each name was declared.  "error" marks an identifier seen inside a region
# tree-sitter could not parse: macro-heavy headers (export macros, attribute
# macros before the return type) confuse it, and such a name may well be declared.
# "tested" marks a macro the headers only test (#ifdef X): a switch for the user.
MACRO, FUNCTION, TYPE, ENUM, VARIABLE, NAMESPACE, ERROR, TESTED = (
    "macro",
    "function",
    "type",
    "enum",
    "variable",
    "namespace",
    "error",
    "tested",
)

OK, FAILED, NEWER, REMOVED, SKIPPED = "ok", "failed", "newer", "removed", "skipped"
SIDES = ("hip", "roc", "cuda")
SIDE_TITLES = {
    "hip": "HIP names (hip)",
    "roc": "ROC library names (roc, used with --roc)",
    "cuda": "CUDA names",
}

_IDENT = re.compile(r"[A-Za-z_]\w*")
_WORD = re.compile(rb"[A-Za-z_]\w*")
_TESTED = re.compile(
    rb"^[ \t]*#[ \t]*(?:ifdef|ifndef)[ \t]+(\w+)|^[ \t]*#[ \t]*(?:el)?if\b(.*)$", re.MULTILINE
)
_DEFINED = re.compile(rb"\bdefined[ \t]*\(?[ \t]*([A-Za-z_]\w*)")
_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_NAMESPACE_IN_MACRO = re.compile(r"\bnamespace\s+([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)\s*\{")
_HIP_VERSION = re.compile(rb"#\s*define\s+HIP_VERSION_(MAJOR|MINOR|PATCH)\s+(\d+)")
_CUDA_VERSION = re.compile(rb"#\s*define\s+CUDA_VERSION\s+(\d+)")

# --------------------------------------------------------------------------- scanning


def header_files(paths: Iterable[Path]) -> list[Path]:
    """Files named as such, plus every header below each folder (recursively).

    Extension-less files in folders count too: C++ library headers have none.
    """
    found: dict[str, Path] = {}
    for path in paths:
        if path.is_file():
            found.setdefault(path.resolve().as_posix(), path)
        elif path.is_dir():
            for sub in sorted(path.rglob("*")):
                if sub.is_file() and (sub.suffix in HEADER_SUFFIXES or not sub.suffix):
                    found.setdefault(sub.resolve().as_posix(), sub)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return [found[key] for key in sorted(found)]


def _add(out: dict[str, set[str]], name: str, kind: str) -> None:
    out.setdefault(name, set()).add(kind)


def _text(node: Any) -> str:
    data: bytes = node.text
    return data.decode("utf-8", "replace")


# --------------------------------------------------------------------------- macros


@dataclass(frozen=True)
class Macro:
    """A function-like macro, kept so that its uses at namespace scope can be expanded:
    ``DEFINE_HIPRAND_STATE(hiprandState, rocrand_state_xorwow)`` declares a struct."""

    params: tuple[str, ...]
    variadic: bool
    body: str


_CONTINUATION = re.compile(r"\\\r?\n")
_DEFINE_LINE = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?:\(([^)]*)\))?(.*)$", re.MULTILINE
)
_COMMENT = re.compile(r"/\*.*?\*/|//.*$", re.DOTALL | re.MULTILINE)
_INTEGER = re.compile(r"^\(?\s*(\d+)[uUlL]*\s*\)?$")
_BODY_TOKEN = re.compile(r"##|#|[A-Za-z_]\w*|\"(?:\\.|[^\"\\])*\"|\s+|.")
_PASTE = re.compile(r"\s*##\s*")
_EXPANSION_DEPTH = 4


@dataclass
class Macros:
    """What the ``#define`` lines of a set of headers say, read from the text (a
    definition is a definition whatever the parser made of the code around it)."""

    functions: dict[str, list[Macro]] = field(default_factory=dict)  # non-empty bodies
    values: dict[str, int] = field(default_factory=dict)  # `#define X 12040`
    # Defined as nothing in some branch (`#define CUDARTAPI`, `#define DEPRECATED(m)`):
    # blanked out before parsing, as the preprocessor would, because
    # `enum __device_builtin__ cudaDeviceAttr {` parses as a variable otherwise.
    empty: set[str] = field(default_factory=set)
    empty_calls: set[str] = field(default_factory=set)
    # `#define cuMemAlloc cuMemAlloc_v2`: a declaration of cuMemAlloc declares the other
    aliases: dict[str, set[str]] = field(default_factory=dict)

    def update(self, other: Macros) -> None:
        for name, definitions in other.functions.items():
            known = self.functions.setdefault(name, [])
            known.extend(d for d in definitions if d not in known)
        for name, value in other.values.items():
            self.values.setdefault(name, value)
        self.empty |= other.empty
        self.empty_calls |= other.empty_calls
        for name, targets in other.aliases.items():
            self.aliases.setdefault(name, set()).update(targets)


def macro_definitions(data: bytes) -> Macros:
    """The macros one header defines."""
    text = _CONTINUATION.sub(" ", data.decode("utf-8", "replace"))
    out = Macros()
    for match in _DEFINE_LINE.finditer(text):
        name, params = match.group(1), match.group(2)
        body = _COMMENT.sub(" ", match.group(3)).strip()
        if params is None:
            number = _INTEGER.match(body)
            if not body:
                out.empty.add(name)
            elif number:
                out.values.setdefault(name, int(number.group(1)))
            elif _IDENT.fullmatch(body) and body not in keywords():
                out.aliases.setdefault(name, set()).add(body)
            continue
        names = [p.strip() for p in params.split(",") if p.strip()]
        variadic = bool(names) and names[-1].endswith("...")
        if variadic:
            names[-1] = names[-1][:-3].strip() or "__VA_ARGS__"
        if body:
            out.functions.setdefault(name, []).append(Macro(tuple(names), variadic, body))
        else:
            out.empty_calls.add(name)
    return out


_DIRECTIVE = rb"^[ \t]*#(?:[^\n\\]|\\.)*"


def blank_empty_macros(data: bytes, macros: Macros) -> bytes:
    """Replace uses of macros that expand to nothing by spaces (outside directives)."""
    words = set(_WORD.findall(data))
    blank = macros.empty | macros.empty_calls
    present = sorted((w for w in words if w.decode("ascii") in blank), key=len, reverse=True)
    if not present:
        return data
    pattern = re.compile(
        _DIRECTIVE + rb"|\b(" + b"|".join(re.escape(w) for w in present) + rb")\b",
        re.MULTILINE | re.DOTALL,
    )
    out = bytearray()
    pos = 0
    for match in pattern.finditer(data):
        if match.start() < pos or match.group(1) is None:
            continue
        word = match.group(1).decode("ascii")
        end = match.end()
        if word in macros.empty_calls:
            end = _after_parentheses(data, end)
            if end < 0:  # used without arguments: not a call, leave it
                if word not in macros.empty:
                    continue
                end = match.end()
        out += data[pos : match.start()] + b" " * (end - match.start())
        pos = end
    return bytes(out + data[pos:])


def _after_parentheses(data: bytes, pos: int) -> int:
    """The end of the ``( ... )`` group starting after blanks at ``pos``, or -1."""
    while pos < len(data) and data[pos : pos + 1] in (b" ", b"\t"):
        pos += 1
    if data[pos : pos + 1] != b"(":
        return -1
    depth = 0
    for index in range(pos, len(data)):
        char = data[index : index + 1]
        if char == b"(":
            depth += 1
        elif char == b")":
            depth -= 1
            if depth == 0:
                return index + 1
    return -1


def _arguments(argument_list: str) -> list[str]:
    """``(a, f(b, c), d)`` -> ``["a", "f(b, c)", "d"]``."""
    inner = argument_list.strip()[1:-1]
    args: list[str] = []
    current: list[str] = []
    depth = 0
    for char in inner:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    args.append("".join(current).strip())
    return args if args != [""] else []


def expand(macro: Macro, args: Sequence[str]) -> str:
    """One level of macro substitution, with ``#`` and ``##``."""
    bound = dict(zip(macro.params, args, strict=False))
    if macro.variadic and macro.params:
        rest = args[len(macro.params) - 1 :]
        bound[macro.params[-1]] = ", ".join(rest)
    tokens = _BODY_TOKEN.findall(macro.body)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "#":
            j = i + 1
            while j < len(tokens) and tokens[j].isspace():
                j += 1
            if j < len(tokens) and tokens[j] in bound:
                out.append('"' + bound[tokens[j]].replace('"', '\\"') + '"')
                i = j + 1
                continue
        out.append(bound.get(token, token))
        i += 1
    return _PASTE.sub("", "".join(out))


# --------------------------------------------------------------------------- declarations

_WRAPPERS = frozenset(
    {
        "pointer_declarator",
        "reference_declarator",
        "array_declarator",
        "init_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
        "function_declarator",
    }
)
_IDENTIFIERS = frozenset({"identifier", "type_identifier", "field_identifier"})
_SPECIFIERS = frozenset(
    {"struct_specifier", "class_specifier", "union_specifier", "enum_specifier"}
)
# Nodes whose children are declarations again (scopes, preprocessor branches).  A
# compound_statement reached here is not a function body (those are never entered)
# but tree-sitter's recovery from a misread line, and may hold the rest of the file.
_CONTAINERS = frozenset(
    {
        "translation_unit",
        "compound_statement",
        "declaration_list",
        "field_declaration_list",
        "linkage_specification",
        "template_declaration",
        "friend_declaration",
        "preproc_if",
        "preproc_ifdef",
        "preproc_elif",
        "preproc_elifdef",
        "preproc_else",
    }
)


def _declarator_name(node: Any) -> Any | None:
    """The identifier a declarator declares: ``*(*name)[3]`` -> ``name``."""
    while node is not None:
        kind = node.type
        if kind in _IDENTIFIERS:
            return node
        if kind in ("qualified_identifier", "template_function", "template_type"):
            node = node.child_by_field_name("name")
        elif kind in _WRAPPERS:
            inner = node.child_by_field_name("declarator")
            if inner is None:  # parenthesized_declarator has no field name
                inner = next((c for c in node.named_children if c.type != "attribute"), None)
            node = inner
        else:
            return None
    return None


def _is_function(declarator: Any) -> bool:
    """``f(int)`` and ``*f(int)`` declare functions; ``(*f)(int)`` is a pointer variable."""
    node = declarator
    while node is not None:
        if node.type == "function_declarator":
            inner = node.child_by_field_name("declarator")
            return inner is None or inner.type != "parenthesized_declarator"
        if node.type not in ("pointer_declarator", "reference_declarator", "attributed_declarator"):
            return False
        node = node.child_by_field_name("declarator")
    return False


class _Walker:
    """Declarations at namespace and class scope; function bodies are not entered.

    A call of a known function-like macro where a declaration could stand is
    expanded and the expansion walked too (a few levels deep)."""

    def __init__(self, macros: Macros, depth: int = 0) -> None:
        self.names: dict[str, set[str]] = {}
        self.macros = macros
        self.depth = depth

    def walk(self, node: Any) -> None:
        for child in node.named_children:
            self.visit(child)

    def visit(self, node: Any) -> None:
        kind = node.type
        if kind in _CONTAINERS:
            self.walk(node)
        elif kind in ("preproc_def", "preproc_function_def"):
            self._define(node)
        elif kind == "namespace_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                for ident in _IDENT.findall(_text(name)):
                    _add(self.names, ident, NAMESPACE)
            body = node.child_by_field_name("body")
            if body is not None:
                self.walk(body)
        elif kind == "namespace_alias_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                _add(self.names, _text(name), NAMESPACE)
        elif kind in ("declaration", "field_declaration", "type_definition", "function_definition"):
            self._declaration(node)
        elif kind in _SPECIFIERS:
            self._specifier(node)
        elif kind == "alias_declaration":
            name = node.child_by_field_name("name")
            if name is not None:
                _add(self.names, _text(name), TYPE)
        elif kind == "using_declaration":
            target = _declarator_name(node.named_children[-1]) if node.named_children else None
            if target is not None:
                _add(self.names, _text(target), VARIABLE)
        elif kind == "expression_statement" and node.named_children:
            # Not C++ at namespace scope: a macro call, or tree-sitter's recovery from a
            # declaration it misread (`typedef CONCAT(a, b) CUdevResource;` leaves
            # `CUdevResource;`).  Its identifiers count as in an ERROR region.
            for ident in _identifiers_below(node):
                _add(self.names, _text(ident), ERROR)
            self._macro_call(node.named_children[0])
        elif kind == "ERROR":
            for child in node.named_children:
                if child.type == "call_expression":
                    self._macro_call(child)
                else:
                    self.visit(child)

    def _define(self, node: Any) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            _add(self.names, _text(name), MACRO)
        value = node.child_by_field_name("value")
        if value is not None:
            # `#define BEGIN_NS namespace hipcub {`: the namespace exists only here
            for match in _NAMESPACE_IN_MACRO.finditer(_text(value)):
                for part in match.group(1).split("::"):
                    _add(self.names, part.strip(), NAMESPACE)

    def _macro_call(self, call: Any) -> None:
        if call.type != "call_expression" or self.depth >= _EXPANSION_DEPTH:
            return
        function, arguments = (
            call.child_by_field_name("function"),
            call.child_by_field_name("arguments"),
        )
        if function is None or arguments is None or function.type != "identifier":
            return
        definitions = self.macros.functions.get(_text(function), ())
        args = _arguments(_text(arguments)) if definitions else []
        for macro in definitions:
            expansion = blank_empty_macros(expand(macro, args).encode(), self.macros)
            inner = _declarations_of(expansion, self.macros, self.depth + 1)
            for name, kinds in inner.items():
                self.names.setdefault(name, set()).update(kinds)

    def _declaration(self, node: Any) -> None:
        kind = node.type
        spec = node.child_by_field_name("type")
        if spec is not None and spec.type in _SPECIFIERS:
            self._specifier(spec)
        for declarator in node.children_by_field_name("declarator"):
            target = _declarator_name(declarator)
            if target is None:
                continue
            if kind == "type_definition":
                what = TYPE
            elif _is_function(declarator):
                what = FUNCTION
            elif kind == "field_declaration":
                continue  # data members are not API names
            else:
                what = VARIABLE
            _add(self.names, _text(target), what)

    def _specifier(self, node: Any) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            target = _declarator_name(name) if name.type != "type_identifier" else name
            if target is not None:
                _add(self.names, _text(target), TYPE)
        body = node.child_by_field_name("body")
        if body is None:
            return
        if node.type == "enum_specifier":
            stack = list(body.named_children)
            while stack:  # enumerators may sit in #ifdef branches of the list
                item = stack.pop()
                if item.type == "enumerator":
                    ident = item.child_by_field_name("name")
                    if ident is not None:
                        _add(self.names, _text(ident), ENUM)
                elif item.type.startswith("preproc_"):
                    stack.extend(item.named_children)
        else:
            self.walk(body)


def _declarations_of(data: bytes, macros: Macros, depth: int) -> dict[str, set[str]]:
    from hipify_py.engine import parse

    tree = parse.parse(data)
    walker = _Walker(macros, depth)
    walker.walk(tree.root_node)
    return walker.names


def declarations(data: bytes, macros: Macros | None = None) -> dict[str, set[str]]:
    """The names one header declares, each with how it was declared.

    ``macros`` are the macros of every header scanned together (default: this
    header's own)."""
    from hipify_py.engine import parse

    if macros is None:
        macros = macro_definitions(data)
    tree = parse.parse(blank_empty_macros(data, macros))
    walker = _Walker(macros)
    walker.walk(tree.root_node)
    names = walker.names
    if tree.root_node.has_error:
        found = parse.captures("(ERROR) @e", tree.root_node).get("e", [])
        for region in found:
            for node in _identifiers_below(region):
                _add(names, _text(node), ERROR)
    # the parse can lose a #define inside a region it misread; the text cannot
    for match in _DEFINE.finditer(data):
        _add(names, match.group(1).decode("ascii"), MACRO)
    # `#ifndef CUB_IGNORE_DEPRECATED_DIALECT`: a macro the user may define
    for match in _TESTED.finditer(data):
        tested = [match.group(1)] if match.group(1) else _DEFINED.findall(match.group(2))
        for word in tested:
            _add(names, word.decode("ascii"), TESTED)
    return names


def _identifiers_below(node: Any) -> Iterator[Any]:
    # Every identifier, function bodies included: a misread region often turns a
    # namespace or class into a "function body", and its declarations with it.
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _IDENTIFIERS or current.type == "namespace_identifier":
            yield current
        stack.extend(current.children)


# --------------------------------------------------------------------------- scans


@dataclass
class HeaderScan:
    """What a set of headers declares."""

    paths: list[str]
    files: list[str]  # every scanned file, resolved, posix
    names: dict[str, set[str]]
    version: Version | None
    values: dict[str, int] = field(default_factory=dict)  # integer-valued macros

    def kinds(self, name: str) -> set[str]:
        return self.names.get(name, set())

    def provides(self, header: str) -> bool:
        """Is ``header`` ("hipblas/hipblas.h", "thrust/*") among the scanned files?"""
        if header.endswith("/*"):
            folder = "/" + header[:-1]
            return any(folder in path for path in self.files)
        suffix = "/" + header
        return any(path.endswith(suffix) for path in self.files)


def scan_headers(paths: Sequence[Path], toolkit: str) -> HeaderScan:
    """Scan header files and folders; ``toolkit`` ("hip" or "cuda") picks the version macro."""
    files = header_files(paths)
    texts: list[tuple[Path, bytes]] = []
    macros = Macros()
    version: Version | None = None
    for path in files:
        data = path.read_bytes()
        if b"\0" in data[:4096]:
            continue  # not a header
        texts.append((path, data))
        macros.update(macro_definitions(data))
        if version is None:
            version = _version_of(path, data, toolkit)
    names: dict[str, set[str]] = {}
    for _, data in texts:
        for name, kinds in declarations(data, macros).items():
            names.setdefault(name, set()).update(kinds)
    _follow_aliases(names, macros.aliases)
    return HeaderScan(
        paths=[str(p) for p in paths],
        files=[p.resolve().as_posix() for p in files],
        names=names,
        version=version,
        values=macros.values,
    )


def _follow_aliases(names: dict[str, set[str]], aliases: Mapping[str, set[str]]) -> None:
    """``#define cuMemAlloc cuMemAlloc_v2`` + a declaration of ``cuMemAlloc``:
    after preprocessing the declaration is of ``cuMemAlloc_v2``."""
    for _ in range(3):  # chains of aliases are short
        changed = False
        for name, targets in aliases.items():
            kinds = names.get(name, set()) - {MACRO}
            for target in targets:
                known = names.setdefault(target, set())
                if not kinds <= known:
                    known |= kinds
                    changed = True
        if not changed:
            break


def _version_of(path: Path, data: bytes, toolkit: str) -> Version | None:
    if toolkit == "hip" and path.name == "hip_version.h":
        parts = {m.group(1).decode(): int(m.group(2)) for m in _HIP_VERSION.finditer(data)}
        if "MAJOR" in parts and "MINOR" in parts:
            return (parts["MAJOR"], parts["MINOR"], parts.get("PATCH", 0))
    if toolkit == "cuda" and path.name == "cuda.h":
        match = _CUDA_VERSION.search(data)
        if match:
            number = int(match.group(1))  # 12040 -> 12.4.0
            return (number // 1000, number % 1000 // 10, number % 10)
    return None


# --------------------------------------------------------------------------- emitted names


def identifiers(emitted: str) -> list[tuple[str, bool]]:
    """The identifiers of an emitted name that must be declared, each with
    whether it qualifies another (``ns::name``: ``ns`` must be a namespace or type).

    >>> identifiers("rocrand_device::sobol32_engine<false>")
    [('rocrand_device', True), ('sobol32_engine', False)]
    >>> identifiers("void*")
    []
    """
    out: list[tuple[str, bool]] = []
    for match in _IDENT.finditer(emitted):
        word = match.group(0)
        if word in keywords() or word.startswith("__builtin_"):
            continue  # the compiler's own, declared by no header
        qualifier = emitted[match.end() :].lstrip().startswith("::")
        out.append((word, qualifier))
    return out


def missing_identifiers(emitted: str, kind: str, scan: HeaderScan) -> list[str]:
    """Identifiers of ``emitted`` that ``scan`` does not declare suitably."""
    missing: list[str] = []
    for word, qualifier in identifiers(emitted):
        kinds = scan.kinds(word)
        if qualifier or kind == "namespace":
            good = bool(kinds & {NAMESPACE, TYPE, ERROR, MACRO})
        elif kind == "macro":
            good = bool(kinds - {NAMESPACE})
        else:
            good = bool(kinds - {NAMESPACE, TESTED})
        if not good:
            missing.append(word)
    return missing


# --------------------------------------------------------------------------- checking


def display_origin(origin: str) -> str:
    """``/repo/mappings/x.yaml:3`` -> ``mappings/x.yaml:3`` when below the current folder."""
    path, sep, line = origin.rpartition(":")
    try:
        relative = Path(path).resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        return origin
    return f"{relative.as_posix()}{sep}{line}"


@dataclass(frozen=True)
class Check:
    """One name of one row, on one side (hip, roc or cuda)."""

    side: str
    library: str
    cuda: str
    name: str
    outcome: str
    detail: str
    origin: str
    missing: tuple[str, ...] = ()

    def message(self) -> str:
        target = "CUDA" if self.side == "cuda" else "HIP"
        arrow = self.cuda if self.side == "cuda" else f"{self.cuda} -> {self.name}"
        label = " (roc)" if self.side == "roc" else ""
        text = f"{display_origin(self.origin)}: {arrow}{label}: not declared in {target} headers"
        if self.missing and self.missing != (self.name,):
            text += f" (missing: {', '.join(self.missing)})"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "library": self.library,
            "cuda": self.cuda,
            "name": self.name,
            "outcome": self.outcome,
            "detail": self.detail,
            "origin": display_origin(self.origin),
            "missing": list(self.missing),
        }


@dataclass
class VerifyResult:
    checks: list[Check]
    hip: HeaderScan
    cuda: HeaderScan | None
    libraries: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # which release each library was taken as

    def counts(self, side: str) -> dict[str, Counter[str]]:
        """library -> outcome -> count, for one side."""
        out: dict[str, Counter[str]] = {lib: Counter() for lib in self.libraries}
        for check in self.checks:
            if check.side == side:
                out.setdefault(check.library, Counter())[check.outcome] += 1
        return out

    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.outcome == FAILED]

    @property
    def ok(self) -> bool:
        return not self.failures()


def _provider_header(table: MappingTable, row: Row, side: str, name: str) -> str | None:
    """The header that must be present for ``name`` to be checked: a prefix of the
    name in mappings/providers.yaml, else the library's header from includes.yaml."""
    provider = table.providers.get(row.library)
    if provider is None:
        return None
    for prefix, header in provider.prefixes:
        if name.startswith(prefix):
            return header
    cuda_header = provider.header
    if side == "cuda":
        return cuda_header
    header_row = table.headers.get(cuda_header)
    if header_row is None:
        return None
    return header_row.roc if side == "roc" else header_row.hip


def _library_label(header: str) -> str:
    """hipblaslt/hipblaslt.h -> hipblaslt; hipdnn.h -> hipdnn; cudnn.h -> cudnn."""
    first = header.split("/", 1)[0]
    return first[: -len(Path(first).suffix)] if Path(first).suffix else first


def _versions(row: Row, side: str) -> tuple[str, str]:
    if side == "cuda":
        return row.cuda_added, row.cuda_removed
    if side == "roc":
        return row.roc_added, row.roc_removed
    return row.hip_added, row.hip_removed


def _at_or_after(version: Version | None, switch: str) -> bool:
    """The headers are of HIP ``switch`` or newer (unknown headers: not)."""
    return bool(switch) and version is not None and version >= parse_version(switch)


def release_of(table: MappingTable, scan: HeaderScan, library: str) -> tuple[Version | None, str]:
    """The ROCm release of one library's headers (``hipsolver``), with a note saying
    where it comes from: its version macros and providers.yaml, else HIP's version."""
    hip = format_version(scan.version) if scan.version else "unknown"
    release = table.releases.get(library)
    if release is None:
        return scan.version, ""
    found = [scan.values.get(macro) for macro in release.macros]
    if any(value is None for value in found):
        return scan.version, f"{library}: version macros not found; compared with HIP {hip}"
    own = tuple(value for value in found if value is not None)
    own_text = ".".join(str(part) for part in own)
    for version, rocm in release.rocm:
        if parse_version(version) == parse_version(own_text):
            return parse_version(rocm), f"{library} {own_text} is ROCm {rocm}"
    return scan.version, (
        f"{library} {own_text}: no ROCm release in providers.yaml; compared with HIP {hip}"
    )


def check_name(
    table: MappingTable, row: Row, side: str, name: str, scan: HeaderScan, version: Version | None
) -> Check:
    """Classify one emitted (or CUDA) name against one header scan; ``version`` is
    the release of the headers that provide it."""

    def make(outcome: str, detail: str = "", missing: Sequence[str] = ()) -> Check:
        return Check(side, row.library, row.cuda, name, outcome, detail, row.origin, tuple(missing))

    header = _provider_header(table, row, side, name)
    if not header:
        return make(SKIPPED, f"skipped: no {side} header known for library {row.library}")
    if not scan.provides(header):
        return make(SKIPPED, f"skipped: {_library_label(header)} headers not available ({header})")
    missing = missing_identifiers(name, row.kind, scan)
    if not missing:
        return make(OK)
    added, removed = _versions(row, side)
    toolkit = "CUDA" if side == "cuda" else "HIP"
    if version is not None:
        have = format_version(version)
        if added and parse_version(added) > version:
            detail = f"newer than headers: added in {toolkit} {added}, headers are {have}"
            return make(NEWER, detail)
        if removed and parse_version(removed) <= version:
            return make(REMOVED, f"removed in {toolkit} {removed}, headers are {have}", missing)
    return make(FAILED, f"not declared in {toolkit} headers", missing)


def _row_order(row: Row) -> tuple[str, str, int]:
    path, _, line = row.origin.rpartition(":")
    return (row.library, path, int(line) if line.isdigit() else 0)


# a HIP or ROC library name in the text an argument fix writes
_WRITTEN = re.compile(r"\b(?:hip|roc|HIP_|ROC)\w+")


def verify(
    table: MappingTable,
    hip: HeaderScan,
    cuda: HeaderScan | None = None,
    libraries: Iterable[str] = (),
) -> VerifyResult:
    """Check every HIP and ROC name the table can emit against ``hip``, and every
    CUDA name against ``cuda`` (when given); ``libraries`` limits the rows."""
    wanted = set(libraries)
    checks: list[Check] = []
    releases: dict[str, tuple[Version | None, str]] = {}

    def hip_check(row: Row, side: str, name: str) -> Check:
        header = _provider_header(table, row, side, name) or ""
        label = _library_label(header)
        if label not in releases:
            releases[label] = release_of(table, hip, label)
        return check_name(table, row, side, name, hip, releases[label][0])

    for row in sorted(table.names.values(), key=_row_order):
        if wanted and row.library not in wanted:
            continue
        if row.hip:
            # the names a row emits at the headers' HIP version: a newer HIP's
            # rename (newer_hip) or an older HIP's name (older_hip) instead of
            # ``hip`` where that version is past its switch
            newer = _at_or_after(hip.version, row.newer_from)
            older = bool(row.older_until) and not _at_or_after(hip.version, row.older_until)
            main = row.newer_hip if newer else row.hip
            checks.append(hip_check(row, "hip", main))
            # the names a row emits in some calls: by arity, inside other calls
            olders = ((row.older_hip,) if row.older_hip else ()) + tuple(
                name for _, name in row.older_in_call
            )
            variants = [v for _, v in (*row.by_arity, *row.in_call)]
            if older or hip.version is None:
                variants += olders
            for variant in variants:
                if variant and variant != main:
                    checks.append(hip_check(row, "hip", variant))
            # the names the argument fixes write (HIP_VERSION_MAJOR), for the hip name
            written = (*row.arg_defaults, *(() if newer else row.arg_inserts))
            for name in sorted({w for _, text in written for w in _WRITTEN.findall(text)}):
                checks.append(hip_check(row, "hip", name))
        if row.roc:
            checks.append(hip_check(row, "roc", row.roc))
            # the names roc_args writes (rocsparse_analysis_policy_force)
            for name in sorted({w for _, text in row.roc_args for w in _WRITTEN.findall(text)}):
                checks.append(hip_check(row, "roc", name))
            # the names --roc emits inside other libraries' calls (roc_in_call)
            for _, variant in row.roc_in_call:
                if variant not in (row.roc, row.hip):
                    side = "roc" if variant.startswith("roc") else "hip"
                    checks.append(hip_check(row, side, variant))
        if cuda is not None:
            checks.append(check_name(table, row, "cuda", row.cuda, cuda, cuda.version))
    names = sorted(wanted or {r.library for r in table.names.values()})
    notes = sorted(note for _, note in releases.values() if note)
    return VerifyResult(checks=checks, hip=hip, cuda=cuda, libraries=names, notes=notes)


# --------------------------------------------------------------------------- output

_COLUMNS = ("checked", OK, FAILED, NEWER, REMOVED, SKIPPED)
_HEADINGS = {NEWER: "newer than headers", REMOVED: "removed"}


def _scan_line(label: str, scan: HeaderScan | None) -> str:
    if scan is None:
        return f"{label} headers: not given (--cuda-include): CUDA names not checked"
    version = format_version(scan.version) if scan.version else "unknown version"
    return f"{label} headers: {version}, {len(scan.files)} files"


def _row_counts(counts: Counter[str]) -> list[int]:
    checked = sum(counts[o] for o in (OK, FAILED, NEWER, REMOVED))
    return [checked, *(counts[o] for o in (OK, FAILED, NEWER, REMOVED, SKIPPED))]


def _table_line(label: str, cells: Sequence[object], widths: Sequence[int]) -> str:
    return f"  {label:<10}" + "".join(f"{c!s:>{w + 2}}" for c, w in zip(cells, widths, strict=True))


def format_text(result: VerifyResult) -> str:
    """Summary tables per side, the reasons for skips, then one line per failure."""
    lines = [_scan_line("HIP", result.hip)]
    lines.extend(f"  {note}" for note in result.notes)
    lines += [_scan_line("CUDA", result.cuda), ""]
    headings = [_HEADINGS.get(c, c) for c in _COLUMNS]
    sides = [s for s in SIDES if s != "cuda" or result.cuda is not None]
    for side in sides:
        counts = result.counts(side)
        if side == "roc":
            counts = {lib: c for lib, c in counts.items() if sum(c.values())}
        lines.append(SIDE_TITLES[side])
        widths = [max(len(h), 7) for h in headings]
        lines.append(_table_line("library", headings, widths))
        total: Counter[str] = Counter()
        for library, counter in counts.items():
            total.update(counter)
            lines.append(_table_line(library, _row_counts(counter), widths))
        lines.append(_table_line("total", _row_counts(total), widths))
        reasons = Counter(
            (c.library, c.detail) for c in result.checks if c.side == side and c.outcome == SKIPPED
        )
        for (library, detail), count in sorted(reasons.items()):
            lines.append(f"  {library}: {detail}: {count} rows")
        lines.append("")
    failures = result.failures()
    if failures:
        lines.append(f"{len(failures)} failures:")
        lines.extend(c.message() for c in failures)
    else:
        lines.append("no failures")
    return "\n".join(lines) + "\n"


def _scan_dict(scan: HeaderScan | None) -> dict[str, Any] | None:
    if scan is None:
        return None
    return {
        "paths": scan.paths,
        "files": len(scan.files),
        "names": len(scan.names),
        "version": format_version(scan.version) if scan.version else None,
    }


def to_json(result: VerifyResult) -> str:
    summary: dict[str, Any] = {}
    for side in SIDES:
        if side == "cuda" and result.cuda is None:
            continue
        summary[side] = {
            library: dict(zip(_COLUMNS, _row_counts(counter), strict=True))
            for library, counter in result.counts(side).items()
        }
    doc = {
        "ok": result.ok,
        "hip_headers": _scan_dict(result.hip),
        "release_notes": result.notes,
        "cuda_headers": _scan_dict(result.cuda),
        "summary": summary,
        "failures": [c.to_dict() for c in result.failures()],
        "newer": [c.to_dict() for c in result.checks if c.outcome == NEWER],
        "removed": [c.to_dict() for c in result.checks if c.outcome == REMOVED],
        "skipped": [
            {"side": side, "library": library, "detail": detail, "rows": count}
            for (side, library, detail), count in sorted(
                Counter(
                    (c.side, c.library, c.detail) for c in result.checks if c.outcome == SKIPPED
                ).items()
            )
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


def split_paths(values: Iterable[str]) -> list[Path]:
    """Option values and environment lists: each may hold several os.pathsep-separated paths."""
    return [Path(part) for value in values for part in value.split(os.pathsep) if part]
