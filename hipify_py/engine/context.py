"""Per-file state shared by the rules while one file is translated."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import tree_sitter

from hipify_py.engine.definitions import is_defined
from hipify_py.engine.diagnostics import Code, Diagnostic
from hipify_py.engine.edits import Edit
from hipify_py.engine.options import Options
from hipify_py.engine.semantic_facts import SemanticFacts
from hipify_py.engine.source import LineIndex, SourceInfo
from hipify_py.engine.stats import Stats
from hipify_py.tables.table import MappingTable, Row
from hipify_py.tables.versions import Version, parse_version


class TokenClassifier(Protocol):
    """What the engine keeps for the rules: a classifier of the file's tokens
    (the identifiers rule makes one, rules.identifiers.Scanner, and every rule
    shares it).  The engine names only this protocol, not a rule's type."""

    def classify(self, start: int, end: int) -> tuple[str, tree_sitter.Node | None]:
        """Where the token [start, end) sits: code, macro, string, comment or other."""
        ...


_new_edit = tuple.__new__


@lru_cache(maxsize=4096)
def cached_version(text: str) -> Version:
    return parse_version(text)


@dataclass
class FileFacts:
    """What is learned about one file and used later, typed (formerly untyped
    ``Context.cache`` keys).  Each field says who fills it and who reads it.

    Hand-offs first; then lazy per-file memos, which a helper fills on first
    use (whichever rule asks first) so the next caller does not redo the work.
    The hand-offs between rules that the order of ``hipify_py.rules.RULE_ORDER``
    relies on are Context fields (``uses_runtime``, ``references``,
    ``needed_headers`` ...: see there).
    """

    # filled by the engine (the clang engine's findings, --engine clang);
    # read by identifiers (user names to keep) and call_args (symbol and cast
    # arguments)
    semantic: SemanticFacts | None = None
    # filled by warp's run (where each legacy warp call's mask argument
    # starts); read by warp's mask-parameter analysis (_only_mask_uses)
    warp_mask_args: set[int] = field(default_factory=set)
    # filled by warp's run (an empty list) and its rewrites (each mask argument
    # deleted); read by warp's run: calls inside a deleted argument are skipped
    warp_dropped: list[tuple[int, int]] | None = None

    # memos of identifiers (and helpers it calls)
    namespace_aliases: frozenset[str] | None = None  # aliases of CUDA namespaces
    already_hip: bool | None = None  # includes HIP headers, no CUDA ones
    solver_only: bool | None = None  # cuSOLVER calls and no cuBLAS
    blas_only_datatypes: bool | None = None  # cuBLAS alone takes cudaDataType values
    roc_in_file: dict[str, str] = field(default_factory=dict)  # --roc: the one library used
    in_code: dict[str, bool] = field(default_factory=dict)  # name -> used in code
    legacy_cublas_file: bool | None = None  # legacy_blas: <cublas.h>, not <cublas_v2.h>
    # memos of device_code's helpers (asm, cub_blocks, half2_minmax, launch,
    # warp, warp_size and warp_size_constant use them)
    device_bodies: list[tuple[int, int, tree_sitter.Node]] | None = None
    macro_definitions: list[tree_sitter.Node] | None = None
    defines: dict[str, list[tuple[str, int]]] | None = None  # object-like #defines
    file_constants: dict[str, tuple[str, int] | None] = field(default_factory=dict)
    # memos of values (cub_blocks, warp, warp_size use it): an expression's
    # values where it stands, and a template parameter's arguments
    values_of: dict[tuple[str, int], frozenset[int]] = field(default_factory=dict)
    template_arguments: dict[tuple[int, int], list[tuple[str, int]]] = field(default_factory=dict)
    # template declaration id -> (each instantiation's arguments, where the
    # defaults are written)
    instantiations: dict[int, list[tuple[list[tuple[str, int]], int]]] = field(default_factory=dict)
    # memo of device_overloads: struct/class name -> field -> its type as
    # call_args.declared_tokens spells it (the file's own structs)
    struct_fields: dict[str, dict[str, list[str]]] | None = None
    # memos of warp
    warp_legacy: dict[str, str] | None = None  # _sync name -> its pre-6.2 form (the table's)
    type_aliases: dict[str, str] | None = None
    warp_widened_parameters: set[int] = field(default_factory=set)
    warp_widened_arguments: set[int] = field(default_factory=set)
    warp_wide_variables: set[int] = field(default_factory=set)
    # memos of warp_size
    warp_size_tiles: list[tuple[int, int]] | None = None
    warp_size_function_names: dict[int, str] = field(default_factory=dict)


@dataclass
class Context:
    data: bytes  # the original bytes, exactly as read
    text: str  # data decoded as latin-1: one character per byte, same offsets
    tree: tree_sitter.Tree
    table: MappingTable
    options: Options
    info: SourceInfo
    lines: LineIndex
    target_hip: Version
    present: set[str] = field(default_factory=set)  # distinct identifier-like words in the file
    edits: list[Edit] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    # facts one rule learns and a later rule uses (filled by -> read by)
    # identifiers, warp -> includes: a CUDA runtime/driver/device API reference
    uses_runtime: bool = False
    # identifiers, launch -> identifiers, includes: __global__, <<<>>>, threadIdx, ...
    uses_kernel_syntax: bool = False
    _local: dict[str, bool] = field(default_factory=dict)
    _groups: int = 0
    scanner: TokenClassifier | None = None  # made on first use (rules.identifiers.scanner_of)
    facts: FileFacts = field(default_factory=FileFacts)  # typed hand-offs and memos
    # every translated CUDA reference: (offset, CUDA name, what it became, library);
    # identifiers, warp, includes -> device_hazards, unchecked_errors, launch,
    # includes, the engine's result
    references: list[tuple[int, str, str, str]] = field(default_factory=list)
    # text the includes rule puts before / after <hip/hip_runtime.h> (defines
    # that must precede it, helpers that need it); warp, includes -> includes
    before_runtime: list[str] = field(default_factory=list)
    after_runtime: list[str] = field(default_factory=list)
    # HIP headers translated names need beyond what the mapped includes bring;
    # identifiers, includes (std_headers) -> includes
    needed_headers: set[str] = field(default_factory=set)
    cautioned: set[str] = field(default_factory=set)  # names HPY109 was reported for (identifiers)
    # declarations HIP's NVIDIA platform needs for names the file now uses
    # (Row.nvidia_alias), written after its includes; identifiers -> includes
    nvidia_aliases: set[str] = field(default_factory=set)
    # spans of calls replaced by a value (success_value): names in them are gone
    # (identifiers, for itself)
    dropped: list[tuple[int, int]] = field(default_factory=list)
    # --roc: arguments roc_args moved (dropped, written again translated): the
    # names in them are not renamed in place; call_args -> identifiers
    moved: list[tuple[int, int]] = field(default_factory=list)
    # --compat: a name hipify_py_compat.h provides is used; identifiers, includes -> includes
    needs_compat: bool = False
    # headers hipify_py_compat.h must follow (its NVML part needs <amd_smi/amdsmi.h>);
    # identifiers -> includes
    compat_after: set[str] = field(default_factory=set)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    def node_text(self, node: tree_sitter.Node) -> str:
        return self.text[node.start_byte : node.end_byte]

    def edit(
        self,
        start: int,
        end: int,
        text: str,
        rule: str,
        safe: bool = True,
        structural: bool = True,
        group: int = 0,
    ) -> None:
        if structural and not group:
            self._groups += 1
            group = self._groups
        # tuple.__new__ directly: Edit(...) adds a Python-level __new__ call,
        # and the identifiers rule makes tens of thousands of edits a file
        self.edits.append(
            _new_edit(Edit, (start, end, text.encode("latin-1"), rule, safe, structural, group))
        )

    def new_group(self) -> int:
        self._groups += 1
        return self._groups

    def report(
        self, code: Code, offset: int, message: str, *, hint: str = "", name: str = "", end: int = 0
    ) -> None:
        if not self.options.wants(code.code):
            return
        line, column = self.lines.position(offset)
        self.diagnostics.append(
            code.at(
                message, line, column, offset=offset, end_offset=end or offset, hint=hint, name=name
            )
        )

    def using_roc(self, row: Row) -> bool:
        """With --roc: does ``row`` belong to a family that has a ROC library
        (rocBLAS, rocSPARSE, rocSOLVER, rocRAND, MIOpen)?  Its name is then the
        ROC library's, or, where that has none, left as it is and reported
        (HPY108): --roc never falls back to the HIP library's names."""
        return self.options.roc and (row.roc is not None or self.table.roc_header(row) is not None)

    def hip_name_for(self, row: Row) -> str | None:
        """The name ``row`` becomes: with --roc its ROC name (None where the ROC
        library lacks it, see ``using_roc``), else its HIP name."""
        if self.using_roc(row):
            return row.roc
        if row.hip and "_fnuz" in row.hip.lower() and self.options.fp8_flavour() == "ocp":
            # the tables name the FNUZ types gfx942 has; OCP drops the suffix
            return row.hip.replace("_fnuz", "").replace("_FNUZ", "")
        return row.hip

    def is_local(self, name: str) -> bool:
        """Does the project (options.known_names) or this file define ``name``
        itself, as a macro, function, type or variable?"""
        if name in self.options.known_names:
            return True
        known = self._local.get(name)
        if known is None:
            known = self._local[name] = is_defined(self.data, name.encode("latin-1"))
        return known
