"""Mapping tables: YAML files under mappings/ -> one MappingTable.

Each ``mappings/<library>.yaml`` holds rows grouped by section::

    schema: 1
    library: runtime
    title: CUDA Runtime API
    source: where the facts come from
    sections:
      Memory Management:
        cudaMalloc: {hip: hipMalloc, kind: function, status: supported, hip_added: "1.5.0"}

``*.curated.yaml`` files are hand-written additions and fixes with the same
schema; a curated row that replaces a generated one must say ``override: true``.
``includes.yaml`` maps header names; ``providers.yaml`` says which header provides
each library's names (for ``hipify-py mappings verify``).  The schema is a JSON
Schema (data/mappings.schema.json), checked with ``jsonschema`` row by row;
schema errors and duplicate keys are rejected with file:line.  Loading is cached by
content hash (see table_cache).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from hipify_py.tables.versions import Version, parse_version

SCHEMA_VERSION = 1

STATUS_ORDER = ("supported", "deprecated", "removed", "experimental", "unsupported")
VERSION_FIELDS = (
    "cuda_added",
    "cuda_deprecated",
    "cuda_changed",
    "cuda_removed",
    "hip_added",
    "hip_deprecated",
    "hip_changed",
    "hip_removed",
    "hip_experimental",
    "older_until",
    "newer_from",
    "casts_until",
    "caution_until",
    "roc_added",
    "roc_deprecated",
    "roc_changed",
    "roc_removed",
    "roc_experimental",
)
TEXT_FIELDS = (
    "hip",
    "roc",
    "kind",
    "status",
    "note",
    "hint",
    "header",
    "hip_header",
    "caution",
    "older_hip",
    "newer_hip",
    "value",
    "success_value",
    "nvidia_alias",
    "roc_caution",
)


class TableError(Exception):
    """A mapping file is malformed; the message starts with file:line."""


class Row(NamedTuple):
    """One CUDA name and what it becomes.  A NamedTuple so the cache loads fast."""

    cuda: str
    hip: str | None
    kind: str
    library: str
    status: str
    section: str = ""
    roc: str | None = None
    note: str = ""
    hint: str = ""
    header: str = ""
    # the HIP header that declares ``hip`` when the HIP counterpart of the CUDA
    # header does not (CUlinkState -> hiprtcLinkState needs <hip/hiprtc.h>)
    hip_header: str = ""
    # translated, but the HIP signature differs in a way the hint explains (HPY109)
    caution: str = ""
    # before HIP ``older_until`` the name is ``older_hip`` (hipBLAS 1.x spells
    # cublasGemmEx hipblasGemmEx with hipblasDatatype_t, 2.0 hipblasGemmEx_v2),
    # and inside the calls ``older_in_call`` names (call prefix, name) apply
    older_hip: str = ""
    older_until: str = ""
    # HIP's NVIDIA platform uses CUDA's own library, which lacks the HIP name:
    # a declaration that makes it there (namespace thrust { namespace hip =
    # cuda; }), written once after the file's includes under
    # #if defined(__HIP_PLATFORM_NVIDIA__)
    nvidia_alias: str = ""
    # a call that only sets a hint (cublasSetMathMode) becomes this value, its
    # success status, where HIP cannot take it: before HIP ``older_until``
    # (hipBLAS < 2.1 has no math mode), or when argument i names one of
    # ``amd_rejects[i]`` (modes hipBLAS's rocBLAS backend answers with
    # HIPBLAS_STATUS_NOT_SUPPORTED); only when its arguments have no effects
    success_value: str = ""
    amd_rejects: tuple[tuple[int, str], ...] = ()
    # an unsupported macro that expands to nothing where HIP runs (CUDART_CB,
    # the stream callbacks' calling convention: empty except on Windows): a
    # use is deleted; a defined() / #ifdef test of it stays
    erase: bool = False
    # HIP's NVIDIA platform has no ``hip`` (a clang builtin nvcc does not take
    # in device code: __trap -> __builtin_trap) and CUDA's name is right there:
    # a call statement alone on its line keeps it under
    # #if defined(__HIP_PLATFORM_NVIDIA__), anywhere else a helper macro
    # stands for both (hipify_py_trap: rules/platform_split.py)
    nvidia_keeps: bool = False
    # from HIP ``newer_from`` on the name is ``newer_hip`` (hipBLAS 3 of ROCm
    # 7.0 folds hipblasCaxpy_v2 back into hipblasCaxpy)
    newer_hip: str = ""
    newer_from: str = ""
    # from HIP ``casts_until`` on the ``arg_casts`` are not needed: HIP changed
    # the signature to CUDA's (hipCtxGetApiVersion takes unsigned int* from 7.0)
    casts_until: str = ""
    # the ``caution`` holds only below HIP ``caution_until``
    caution_until: str = ""
    cuda_added: str = ""
    cuda_deprecated: str = ""
    cuda_changed: str = ""
    cuda_removed: str = ""
    hip_added: str = ""
    hip_deprecated: str = ""
    hip_changed: str = ""
    hip_removed: str = ""
    hip_experimental: str = ""
    roc_added: str = ""
    roc_deprecated: str = ""
    roc_changed: str = ""
    roc_removed: str = ""
    roc_experimental: str = ""
    origin: str = ""  # "file:line" of the row, for messages
    # (call prefix, name): inside the arguments of a call to a function whose
    # name starts with the prefix, emit that name instead of ``hip``
    # (CUBLAS_OP_N passed to cusolverDn* becomes HIPSOLVER_OP_N)
    in_call: tuple[tuple[str, str], ...] = ()
    # (argument index, C++ type): wrap that argument of a call in a cast the HIP
    # signature needs (CUDA's T** template overloads that HIP lacks)
    arg_casts: tuple[tuple[int, str], ...] = ()
    # (argument index, macro): pass that argument through a HIP macro when it is
    # a plain name (cudaMemcpyToSymbol(sym, ...) -> hipMemcpyToSymbol(HIP_SYMBOL(sym), ...))
    arg_wraps: tuple[tuple[int, str], ...] = ()
    # (number of arguments, name): a call with that many arguments becomes
    # that name (cudaEventCreate(&e, flags) -> hipEventCreateWithFlags)
    by_arity: tuple[tuple[int, str], ...] = ()
    # (argument index, HIP text): CUDA declares a default for that parameter and
    # HIP does not, so a call that leaves it out gets it spelled out
    # (cudaStreamWaitEvent(s, e) -> hipStreamWaitEvent(s, e, 0))
    arg_defaults: tuple[tuple[int, str], ...] = ()
    older_in_call: tuple[tuple[str, str], ...] = ()
    # an unsupported macro whose value the translation assumes: a use as a
    # value becomes this literal (CUDART_VERSION: 11070, the CUDA release HIP's
    # API follows); a defined() / #ifdef test of it is left and reported
    value: str = ""
    # (argument index, HIP text): HIP's function takes an argument CUDA's does
    # not; it is written before CUDA's argument at that index
    # (cudaGetDriverEntryPoint(s, &p, f, &st) -> hipGetProcAddress(s, &p,
    # HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR, f, &st))
    arg_inserts: tuple[tuple[int, str], ...] = ()
    # (argument index, "callee key take"): HIP's function takes, at that index,
    # the argument ``take`` of the call to ``callee`` in the same function whose
    # argument ``key`` is written as this call's (hipsparseSpSM_solve's buffer
    # is the one given to cusparseSpSM_analysis with the same descriptor); the
    # fix of the row's ``caution``, which is reported when no such call is found
    arg_from: tuple[tuple[int, str], ...] = ()
    # with --roc, where the ROC name is emitted: the ROC function's signature
    # differs in a way the text explains (HPY109), unless ``roc_args`` rewrote
    # the call; (number of CUDA arguments, ROC argument list): ``{i}`` is the
    # call's argument i, in order, an argument left out is dropped, ``{=i}`` is
    # a copy of argument i, other text is written in ("{0}, {1}, nullptr, {2}");
    # the HIP argument fields do not apply to the ROC function
    roc_caution: str = ""
    roc_args: tuple[tuple[int, str], ...] = ()
    # with --roc, (call prefix, name): inside the arguments of such a call the
    # name instead of ``roc`` (CUDA_R_32F passed to cusparse* is rocSPARSE's
    # rocsparse_datatype_f32_r, to cufft* hipFFT's HIP_R_32F); file-wide where
    # only that library's calls are in the file's code
    roc_in_call: tuple[tuple[str, str], ...] = ()

    @property
    def fixes_arguments(self) -> bool:
        return bool(self.arg_casts or self.arg_wraps or self.arg_defaults or self.arg_inserts)

    def roc_template(self, count: int) -> list[str] | None:
        """The ROC argument list for a call with ``count`` arguments, split."""
        for arity, template in self.roc_args:
            if arity == count:
                return split_template(template)
        return None


class HeaderRow(NamedTuple):
    cuda: str
    hip: str | None
    library: str
    status: str
    roc: str | None = None
    note: str = ""
    hint: str = ""
    hip_added: str = ""
    origin: str = ""
    needs_runtime: bool = False  # the HIP header breaks unless <hip/hip_runtime.h> comes first
    # HIP's NVIDIA platform has no such library and the names stay CUDA's (RCCL
    # keeps NCCL's): the include becomes an #if that keeps the CUDA header there
    nvidia_keeps: bool = False
    # (HIP header, words): the CUDA header includes another one whose HIP
    # counterpart the HIP (and ROC) header does not (cublas_api.h includes
    # cuda_fp16.h; hipblas.h hip_fp16.h only with HIPBLAS_USE_HIP_HALF): a file
    # naming one of the words gets that HIP header
    brings: tuple[tuple[str, tuple[str, ...]], ...] = ()


class Provider(NamedTuple):
    """Which header provides a library's names: ``header`` is a CUDA header (a key
    of includes.yaml, whose row names the HIP and ROC headers); ``prefixes`` send
    names of a sub-family to another header (longest prefix first)."""

    library: str
    header: str
    prefixes: tuple[tuple[str, str], ...] = ()
    origin: str = ""
    # the HIP libraries' headers include this library's HIP header and the ROC
    # libraries' do not: with --roc a file using its names gets it included
    with_roc: bool = False
    # with --roc, (macro, ROC name prefixes): a file that uses a ROC name with
    # such a prefix gets the macro defined ahead of its includes (MIOpen
    # declares its backend API only with MIOPEN_BETA_API)
    roc_defines: tuple[tuple[str, tuple[str, ...]], ...] = ()


class RocCasts(NamedTuple):
    """With --roc, the casts (argument index, ROC type) a call of ``args``
    arguments needs (mappings/roc-casts.yaml), and how the ROC function's
    signature differs beyond them (``differs``: hipcc's words; reported)."""

    args: int
    casts: tuple[tuple[int, str], ...]
    differs: str = ""
    # why the casts keep the meaning, where it is not the value types' layout
    # (MIOpen's batch normalization takes void* for inputs CUDA's take as const void*)
    why: str = ""


class Release(NamedTuple):
    """How to tell which ROCm release a ROCm library's headers come from: the macros
    holding the library's own version, and the ROCm release of each such version."""

    library: str  # the library's header folder: hipblas, hipsolver
    macros: tuple[str, ...]
    rocm: tuple[tuple[str, str], ...]  # library version -> ROCm release
    origin: str = ""


class LegacyCall(NamedTuple):
    """A function of a legacy API that HIP lacks under the same name (cuBLAS's
    handle-less ``cublas.h``): a call with ``len(params)`` arguments is that API
    and is reported with the ``v2`` form to write instead."""

    name: str
    params: tuple[tuple[str, str], ...]  # (C++ type, parameter name)
    returns: str  # the type of the value the legacy function returns ("" for void)
    v2: str  # the call to write instead, in terms of the parameter names
    origin: str = ""


@dataclass
class LibraryInfo:
    name: str
    title: str
    source: str
    files: list[str] = field(default_factory=list)


@dataclass
class MappingTable:
    names: dict[str, Row]
    headers: dict[str, HeaderRow]
    libraries: dict[str, LibraryInfo]
    digest: str
    _newest: Version | None = field(default=None, repr=False, compare=False)
    _qualified: list[tuple[str, str, Row]] | None = field(default=None, repr=False, compare=False)
    _roc_headers: dict[str, str | None] = field(default_factory=dict, repr=False, compare=False)
    # CUDA function -> (argument index, ROC type): with --roc, the casts its call
    # needs where the ROC function takes the ROC library's value types
    roc_casts: dict[str, RocCasts] = field(default_factory=dict)
    providers: dict[str, Provider] = field(default_factory=dict)
    releases: dict[str, Release] = field(default_factory=dict)
    legacy: dict[str, LegacyCall] = field(default_factory=dict)
    # the v2 enum type -> legacy letter -> enumerator ('N' -> CUBLAS_OP_N)
    legacy_letters: dict[str, dict[str, str]] = field(default_factory=dict)

    def lookup(self, name: str) -> Row | None:
        return self.names.get(name)

    def qualified_rows(self) -> list[tuple[str, str, Row]]:
        """(scope, last name, row) for the rows keyed ``scope::name``: a name
        that is CUDA's only under that scope (``thrust::cuda``)."""
        found = self._qualified
        if found is None:
            found = []
            for row in self.names.values():
                if "::" in row.cuda:
                    scope, last = row.cuda.rsplit("::", 1)
                    found.append((scope, last, row))
            self._qualified = found
        return found

    def roc_header(self, row: Row) -> str | None:
        """The ROC library header of the family ``row`` belongs to (its
        provider's CUDA header, or a prefix's, as in providers.yaml), None when
        there is no ROC library for it (cuBLASLt, cuFFT, the runtime).  With
        --roc such a family's names become its ROC names, and a name the ROC
        library lacks is reported."""
        cached = self._roc_headers
        if row.cuda in cached:
            return cached[row.cuda]
        found: str | None = None
        provider = self.providers.get(row.library)
        if provider is not None:
            header = provider.header
            for prefix, other in provider.prefixes:  # longest first
                if row.cuda.startswith(prefix):
                    header = other
                    break
            header_row = self.headers.get(header)
            found = header_row.roc if header_row is not None else None
        cached[row.cuda] = found
        return found

    def newest_hip_version(self) -> Version:
        """The newest HIP version any row mentions: the default target.

        Computed once per table (and kept in the pickle cache): every file's
        translation asks for it.
        """
        if self._newest is None:
            newest: Version = (0, 0, 0)
            for row in self.names.values():
                for value in (row.hip_added, row.hip_changed, row.hip_deprecated):
                    if value:
                        newest = max(newest, parse_version(value))
            self._newest = newest
        return self._newest


# --------------------------------------------------------------------------- YAML


def _loader_class() -> type[Any]:
    import yaml

    base: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class StrictLoader(base):  # type: ignore[misc]
        """Safe loader that rejects duplicate keys and records line numbers."""

    def construct_mapping(loader: Any, node: Any, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=deep)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise TableError(
                    f"{getattr(loader, 'name', key_node.start_mark.name)}:{line}: "
                    f"duplicate key {key!r} "
                    f"(first at line {seen[key]})"
                )
            seen[key] = line
            result[key] = loader.construct_object(value_node, deep=deep)
        result["__line__"] = node.start_mark.line + 1
        return result

    StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return StrictLoader


def _read_yaml(path: Path, loader: type[Any]) -> Any:
    import yaml

    text = path.read_text(encoding="utf-8")
    try:
        ldr = loader(text)
        ldr.name = str(path)
        try:
            return ldr.get_single_data()
        finally:
            ldr.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else 0
        raise TableError(f"{path}:{line}: invalid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise TableError(f"{path}:0: invalid YAML: {exc}") from None


SCHEMA_FILE = Path(__file__).resolve().parent.parent / "data" / "mappings.schema.json"


@cache
def _validators() -> dict[str, Any]:
    """Validators of data/mappings.schema.json: "file" for a mapping file's top
    level, and one per entry kind (its ``$defs``: "row", "header", "provider",
    ...), each with the ``$ref``s written out (jsonschema resolving a reference
    per field was most of the check's time)."""
    import json

    import jsonschema

    document = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    defs = document.pop("$defs")

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = defs[node["$ref"].removeprefix("#/$defs/")]
                return inline({**target, **{k: v for k, v in node.items() if k != "$ref"}})
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    validator = jsonschema.Draft202012Validator
    found = {name: validator(inline(schema)) for name, schema in defs.items()}
    found["file"] = validator(inline(document))
    return found


def _plain(value: Any) -> Any:
    """A YAML value as JSON Schema sees it: without the loader's ``__line__``
    keys, and with number keys (argument indices) as their digits."""
    if isinstance(value, dict):
        return {
            (str(k) if isinstance(k, int) and not isinstance(k, bool) else k): _plain(v)
            for k, v in value.items()
            if k != "__line__"
        }
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _error_text(error: Any, root: dict[str, Any]) -> str:
    """What is wrong, said of the place the schema error is at: the
    ``errorMessage`` of the innermost schema on the error's path where the
    schema has one, else the validator's own words."""
    instance = error.instance
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {})
        extra = ", ".join(sorted(str(k) for k in instance if k not in known))
        return f"has unknown field(s): {extra}"
    if error.validator == "required" and isinstance(instance, dict):
        missing = ", ".join(repr(k) for k in error.validator_value if k not in instance)
        return f"misses the required field(s) {missing}"
    if error.validator == "enum":
        return f"must be one of {sorted(error.validator_value)}, got {instance!r}"
    if error.validator == "const":
        return f"must be {error.validator_value!r}, got {instance!r}"
    node: Any = root
    message = root.get("errorMessage")
    for key in error.absolute_schema_path:
        node = node[key] if isinstance(node, dict | list) else None
        if isinstance(node, dict):
            message = node.get("errorMessage", message)
    if message is None:
        return f"is invalid: {error.message}"
    shown = f": {instance!r}" if isinstance(instance, str | int | float) else ""
    return f"{message}{shown}"


def _validate(kind: str, value: Any, where: str, what: str) -> None:
    """Check ``value`` against the schema's ``kind`` ("row", "header", ...);
    the TableError names file:line (``where``), the entry (``what``) and the field."""
    validator = _validators()[kind]
    errors = sorted(
        validator.iter_errors(_plain(value)),
        key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]),
    )
    if not errors:
        return
    error = errors[0]
    problem = _error_text(error, validator.schema)
    field = ".".join(str(p) for p in error.absolute_path)
    if field:
        raise TableError(f"{where}: {what}: field {field!r} {problem}")
    raise TableError(f"{where}: {what} {problem}")


def _line(mapping: Mapping[str, Any]) -> int:
    return int(mapping.get("__line__", 0))


def _items(mapping: Mapping[Any, Any]) -> Iterator[tuple[Any, Any]]:
    """A loaded mapping's entries, without the loader's ``__line__``."""
    return ((key, value) for key, value in mapping.items() if key != "__line__")


def _text(value: Any, where: str, key: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise TableError(f"{where}: field {key!r} must be a string")
    return str(value)


def _in_call(value: Any, where: str, name: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items() if k != "__line__"
    ):
        raise TableError(f"{where}: row {name!r}: in_call must map call-name prefixes to names")
    return tuple(sorted((k, v) for k, v in value.items() if k != "__line__"))


def _int_keyed(value: Any, where: str, name: str, field: str) -> tuple[tuple[int, str], ...]:
    if value is None:
        return ()
    items = {k: v for k, v in value.items() if k != "__line__"} if isinstance(value, dict) else None
    if items is None or not all(
        isinstance(k, int) and not isinstance(k, bool) and k >= 0 and isinstance(v, str)
        for k, v in items.items()
    ):
        raise TableError(f"{where}: row {name!r}: {field} must map numbers to text")
    return tuple(sorted(items.items()))


_PLACEHOLDER = re.compile(r"\{(\d+)\}")


def split_template(template: str) -> list[str]:
    """``"{0}, f(a, b), {1}"`` -> ``["{0}", "f(a, b)", "{1}"]`` (top-level commas)."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(template):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(template[start:i].strip())
            start = i + 1
    parts.append(template[start:].strip())
    return [p for p in parts if p]


def _arg_from(value: Any, where: str, name: str) -> tuple[tuple[int, str], ...]:
    pairs = _int_keyed(value, where, name, "arg_from")
    for _, spec in pairs:
        if not re.fullmatch(r"[A-Za-z_]\w* \d+ \d+", spec):
            raise TableError(f"{where}: row {name!r}: arg_from must be 'callee key take'")
    if pairs and not (isinstance(value, dict) and value):
        raise TableError(f"{where}: row {name!r}: arg_from must map numbers to text")
    return pairs


def _roc_args(value: Any, where: str, name: str) -> tuple[tuple[int, str], ...]:
    pairs = _int_keyed(value, where, name, "roc_args")
    for arity, template in pairs:
        kept = [
            int(m.group(1))
            for part in split_template(template)
            if (m := _PLACEHOLDER.fullmatch(part))
        ]
        if kept != sorted(set(kept)) or any(i >= arity for i in kept):
            raise TableError(
                f"{where}: row {name!r}: roc_args {arity}: the call's arguments ({{i}}, i < "
                f"{arity}) must keep their order, each once"
            )
    return pairs


def _parse_row(
    name: Any, data: Any, library: str, section: str, path: Path, parent_line: int
) -> tuple[Row, bool]:
    if not isinstance(name, str) or not name:
        raise TableError(f"{path}:{parent_line}: row key must be a CUDA name, got {name!r}")
    where = f"{path}:{_line(data) if isinstance(data, dict) else parent_line}"
    _validate("row", data, where, f"row {name!r}")
    values: dict[str, Any] = {}
    for key in TEXT_FIELDS + VERSION_FIELDS:
        values[key] = _text(data.get(key), where, key)
    kind = values["kind"]
    hip = values["hip"] or None
    status = values["status"] or ("supported" if hip else "unsupported")
    if (status == "unsupported") != (hip is None):
        raise TableError(
            f"{where}: row {name!r}: status {status!r} contradicts hip {hip!r} "
            "(a row is 'unsupported' exactly when it has no HIP name)"
        )
    if bool(values["newer_hip"]) != bool(values["newer_from"]):
        raise TableError(f"{where}: row {name!r}: newer_hip and newer_from go together")
    needs_value = kind == "function" and (values["older_until"] or data.get("amd_rejects"))
    if values["success_value"] and not needs_value:
        raise TableError(
            f"{where}: row {name!r}: success_value is for functions, with older_until or "
            "amd_rejects"
        )
    if data.get("amd_rejects") and not values["success_value"]:
        raise TableError(f"{where}: row {name!r}: amd_rejects needs success_value")
    if data.get("erase") and (status != "unsupported" or kind != "macro"):
        raise TableError(f"{where}: row {name!r}: erase is for unsupported macros only")
    if values["casts_until"] and not data.get("arg_casts"):
        raise TableError(f"{where}: row {name!r}: casts_until needs arg_casts")
    if values["value"] and (status != "unsupported" or kind != "macro"):
        raise TableError(f"{where}: row {name!r}: value is for unsupported macros only")
    if (values["roc_caution"] or data.get("roc_args")) and not values["roc"]:
        raise TableError(f"{where}: row {name!r}: roc_caution and roc_args need a roc name")
    if data.get("arg_from") and not values["caution"]:
        raise TableError(f"{where}: row {name!r}: arg_from needs the caution it fixes")
    if values["caution_until"] and not values["caution"]:
        raise TableError(f"{where}: row {name!r}: caution_until needs a caution")
    override = bool(data.get("override", False))
    row = Row(
        cuda=name,
        hip=hip,
        kind=kind,
        library=library,
        status=status,
        section=section,
        roc=values["roc"] or None,
        note=values["note"],
        hint=values["hint"],
        header=values["header"],
        hip_header=values["hip_header"],
        caution=values["caution"],
        older_hip=values["older_hip"],
        success_value=values["success_value"],
        nvidia_alias=values["nvidia_alias"],
        amd_rejects=_int_keyed(data.get("amd_rejects"), where, name, "amd_rejects"),
        nvidia_keeps=bool(data.get("nvidia_keeps", False)),
        erase=bool(data.get("erase", False)),
        newer_hip=values["newer_hip"],
        in_call=_in_call(data.get("in_call"), where, name),
        arg_casts=_int_keyed(data.get("arg_casts"), where, name, "arg_casts"),
        arg_wraps=_int_keyed(data.get("arg_wraps"), where, name, "arg_wraps"),
        by_arity=_int_keyed(data.get("by_arity"), where, name, "by_arity"),
        arg_defaults=_int_keyed(data.get("arg_defaults"), where, name, "arg_defaults"),
        arg_inserts=_int_keyed(data.get("arg_inserts"), where, name, "arg_inserts"),
        arg_from=_arg_from(data.get("arg_from"), where, name),
        roc_caution=values["roc_caution"],
        roc_args=_roc_args(data.get("roc_args"), where, name),
        older_in_call=_in_call(data.get("older_in_call"), where, name),
        value=values["value"],
        roc_in_call=_in_call(data.get("roc_in_call"), where, name),
        origin=where,
        **{key: values[key] for key in VERSION_FIELDS},
    )
    return row, override


def _entries(
    doc: dict[str, Any], path: Path, key: str, kind: str, what: str
) -> Iterator[tuple[Any, Any, str]]:
    """The entries of a file's top-level mapping ``key`` ("headers", "providers",
    ...) as (name, data, file:line), each checked against the schema's ``kind``
    and named ``what`` and its name in an error."""
    entries = doc.get(key)
    if not isinstance(entries, dict):
        raise TableError(f"{path}:{_line(doc)}: {key!r} must be a mapping")
    for name, data in _items(entries):
        where = f"{path}:{_line(data) if isinstance(data, dict) else _line(entries)}"
        _validate(kind, data, where, f"{what} {name!r}")
        yield name, data, where


def _first_only(out: Mapping[str, Any], name: Any, where: str, what: str) -> None:
    """A provider, release or legacy function is defined once across all files."""
    if name in out:
        raise TableError(f"{where}: duplicate {what} {name!r} (first at {out[name].origin})")


def _parse_headers(doc: dict[str, Any], path: Path, out: dict[str, tuple[HeaderRow, bool]]) -> None:
    for name, data, where in _entries(doc, path, "headers", "header", "header"):
        hip = _text(data.get("hip"), where, "hip") or None
        status = _text(data.get("status"), where, "status") or (
            "supported" if hip else "unsupported"
        )
        hip_added = _text(data.get("hip_added"), where, "hip_added")
        row = HeaderRow(
            cuda=str(name),
            hip=hip,
            library=_text(data.get("library"), where, "library"),
            status=status,
            roc=_text(data.get("roc"), where, "roc") or None,
            note=_text(data.get("note"), where, "note"),
            hint=_text(data.get("hint"), where, "hint"),
            hip_added=hip_added,
            origin=where,
            needs_runtime=bool(data.get("needs_runtime", False)),
            nvidia_keeps=bool(data.get("nvidia_keeps", False)),
            brings=_word_lists(
                data.get("brings"),
                f"{where}: header {name!r}: brings must map HIP header -> [words]",
            ),
        )
        _merge(out, row.cuda, row, bool(data.get("override", False)), where, "header")


def _parse_providers(doc: dict[str, Any], path: Path, out: dict[str, Provider]) -> None:
    for library, data, where in _entries(doc, path, "providers", "provider", "provider"):
        header = _text(data.get("header"), where, "header")
        prefixes = data.get("prefixes") or {}
        pairs = [
            (str(prefix), _text(target, where, f"prefixes.{prefix}"))
            for prefix, target in prefixes.items()
            if prefix != "__line__"
        ]
        _first_only(out, library, where, "provider")
        out[str(library)] = Provider(
            library=str(library),
            header=header,
            prefixes=tuple(sorted(pairs, key=lambda pair: -len(pair[0]))),
            origin=where,
            with_roc=bool(data.get("with_roc", False)),
            roc_defines=_word_lists(
                data.get("roc_defines"),
                f"{where}: provider {library!r}: roc_defines must map macro -> [name prefixes]",
                r"[A-Za-z_]\w*",
            ),
        )


def _word_lists(
    value: Any, problem: str, key: str = r".+"
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A mapping of ``key`` -> a non-empty list of words (``roc_defines``:
    macro -> name prefixes; ``brings``: HIP header -> words)."""
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise TableError(problem)
    found = []
    for name, words in _items(value):
        if not (
            isinstance(name, str)
            and re.fullmatch(key, name)
            and isinstance(words, list)
            and words
            and all(isinstance(w, str) and re.fullmatch(r"\w+", w) for w in words)
        ):
            raise TableError(problem)
        found.append((name, tuple(words)))
    return tuple(found)


def _parse_releases(doc: dict[str, Any], path: Path, out: dict[str, Release]) -> None:
    for library, data, where in _entries(doc, path, "releases", "release", "release"):
        macros = data["version"]
        pairs = [
            (str(own), _text(release, where, f"rocm.{own}"))
            for own, release in data["rocm"].items()
            if own != "__line__"
        ]
        _first_only(out, library, where, "release")
        out[str(library)] = Release(str(library), tuple(macros), tuple(pairs), where)


_PARAM = re.compile(r"\s*(.*?[\w*&\s])\s*\b([A-Za-z_]\w*)\s*\Z")


def _parse_legacy(doc: dict[str, Any], path: Path, out: dict[str, LegacyCall]) -> None:
    for name, data, where in _entries(doc, path, "legacy", "legacy_function", "legacy function"):
        text = _text(data.get("params"), where, "params")
        params: list[tuple[str, str]] = []
        for part in text.split(",") if text.strip() else []:
            found = _PARAM.match(part)
            if found is None:
                raise TableError(f"{where}: legacy function {name!r}: bad parameter {part!r}")
            params.append((" ".join(found.group(1).split()), found.group(2)))
        v2 = _text(data.get("v2"), where, "v2")
        _first_only(out, name, where, "legacy function")
        out[str(name)] = LegacyCall(
            str(name), tuple(params), _text(data.get("returns"), where, "returns"), v2, where
        )


def _parse_letters(doc: dict[str, Any], path: Path, out: dict[str, dict[str, str]]) -> None:
    for kind, data, where in _entries(doc, path, "legacy_letters", "letters", "legacy_letters"):
        items = {k: v for k, v in data.items() if k != "__line__"}
        if kind in out:
            raise TableError(f"{where}: duplicate legacy_letters {kind!r}")
        out[str(kind)] = dict(items)


def _merge(out: dict[str, Any], key: str, row: Any, override: bool, where: str, what: str) -> None:
    if key in out:
        previous, _ = out[key]
        if not override:
            raise TableError(
                f"{where}: duplicate {what} {key!r} (already defined at {previous.origin}); "
                "add 'override: true' if this row is meant to replace it"
            )
    elif override:
        raise TableError(f"{where}: {what} {key!r} says override but replaces nothing")
    out[key] = (row, override)


def mapping_files(directory: Path) -> list[Path]:
    """Generated files first, curated after, so curated rows can override."""
    files = sorted(p for p in directory.glob("*.yaml") if p.is_file())
    return [p for p in files if not p.name.endswith(".curated.yaml")] + [
        p for p in files if p.name.endswith(".curated.yaml")
    ]


def content_digest(files: Iterable[Path]) -> str:
    # the row layout is part of the key: a cache from another layout is stale
    h = hashlib.sha256(
        f"schema{SCHEMA_VERSION}{Row._fields}{HeaderRow._fields}{LegacyCall._fields}".encode()
    )
    layout = f"{Row._fields}{HeaderRow._fields}{tuple(MappingTable.__dataclass_fields__)}"
    h = hashlib.sha256(f"schema{SCHEMA_VERSION}{layout}".encode())
    h.update(SCHEMA_FILE.read_bytes())  # a stricter schema must check the rows again
    for path in files:
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def load_directory(directory: Path, digest: str | None = None) -> MappingTable:
    """Parse and validate every YAML file of a mappings folder (no cache)."""
    files = mapping_files(directory)
    if not files:
        raise TableError(f"{directory}:0: no mapping files (*.yaml) found")
    loader = _loader_class()
    rows: dict[str, tuple[Row, bool]] = {}
    headers: dict[str, tuple[HeaderRow, bool]] = {}
    providers: dict[str, Provider] = {}
    releases: dict[str, Release] = {}
    legacy: dict[str, LegacyCall] = {}
    legacy_letters: dict[str, dict[str, str]] = {}
    roc_casts: dict[str, RocCasts] = {}
    libraries: dict[str, LibraryInfo] = {}
    # the top-level keys other than "sections", each read into its mapping
    parts: tuple[tuple[str, Callable[[dict[str, Any], Path, Any], None], dict[str, Any]], ...] = (
        ("headers", _parse_headers, headers),
        ("providers", _parse_providers, providers),
        ("releases", _parse_releases, releases),
        ("legacy", _parse_legacy, legacy),
        ("legacy_letters", _parse_letters, legacy_letters),
        ("roc_casts", _parse_roc_casts, roc_casts),
    )
    for path in files:
        doc = _read_yaml(path, loader)
        if not isinstance(doc, dict):
            raise TableError(f"{path}:1: a mapping file must be a YAML mapping")
        # the top level only: rows and headers are checked one by one, at their lines
        top = {key: {} if isinstance(value, dict) else value for key, value in doc.items()}
        _validate("file", top, f"{path}:1", "mapping file")
        for key, parse, out in parts:
            if key in doc:
                parse(doc, path, out)
        if "sections" not in doc:
            if not any(key in doc for key, _, _ in parts):
                raise TableError(
                    f"{path}:1: file has none of 'sections', 'headers', 'providers', "
                    "'releases', 'legacy', 'roc_casts'"
                )
            continue
        library = doc.get("library")
        if not isinstance(library, str) or not library:
            raise TableError(f"{path}:1: 'library' must name the CUDA library (e.g. runtime)")
        info = libraries.setdefault(
            library,
            LibraryInfo(library, str(doc.get("title", library)), str(doc.get("source", ""))),
        )
        info.files.append(path.name)
        sections = doc["sections"]
        if not isinstance(sections, dict):
            raise TableError(
                f"{path}:{_line(doc)}: 'sections' must be a mapping of section -> rows"
            )
        for section, section_rows in _items(sections):
            if not isinstance(section_rows, dict):
                raise TableError(
                    f"{path}:{_line(sections)}: section {section!r} must map names to rows"
                )
            for name, data in _items(section_rows):
                row, override = _parse_row(
                    name, data, library, str(section), path, _line(section_rows)
                )
                _merge(rows, name, row, override, row.origin, "CUDA name")
    names = {key: row for key, (row, _) in rows.items()}
    _check_idempotent(names)
    header_rows = {key: row for key, (row, _) in headers.items()}
    for provider in providers.values():
        if provider.header not in header_rows:
            raise TableError(
                f"{provider.origin}: provider {provider.library!r}: header {provider.header!r} "
                "is not a header of includes.yaml"
            )
    for name in roc_casts:
        cast_row = names.get(name)
        if cast_row is None or not cast_row.roc or cast_row.kind != "function":
            raise TableError(f"{directory}:0: roc_casts: {name!r} is no function with a roc name")
    return MappingTable(
        names=names,
        headers=header_rows,
        libraries=libraries,
        digest=digest or content_digest(files),
        providers=providers,
        releases=releases,
        legacy=legacy,
        legacy_letters=legacy_letters,
        roc_casts=roc_casts,
    )


def _parse_roc_casts(doc: dict[str, Any], path: Path, out: dict[str, RocCasts]) -> None:
    casts = doc["roc_casts"]
    if not isinstance(casts, dict):
        raise TableError(f"{path}:1: 'roc_casts' must map CUDA function -> {{args, casts}}")
    for name, data in _items(casts):
        where = f"{path}:{_line(data) if isinstance(data, dict) else _line(casts)}"
        if name in out:
            raise TableError(f"{where}: roc_casts: duplicate {name!r}")
        _validate("roc_cast", data, where, f"roc_casts {name!r}")
        out[str(name)] = RocCasts(
            data["args"],
            _int_keyed(data.get("casts"), where, str(name), "casts"),
            _text(data.get("differs"), where, "differs"),
            _text(data.get("why"), where, "why"),
        )


def _check_idempotent(names: Mapping[str, Row]) -> None:
    """A HIP name must not itself be a CUDA name that maps elsewhere.

    Otherwise translating twice would rename again and the tool would not be
    idempotent.
    """
    for row in names.values():
        for target in (row.hip, row.roc, row.older_hip, row.newer_hip):
            if target and target != row.cuda:
                other = names.get(target)
                if other is not None and other.hip not in (None, target):
                    raise TableError(
                        f"{row.origin}: {row.cuda} -> {target}, but {target} is itself mapped "
                        f"to {other.hip} at {other.origin}: translation would not be idempotent"
                    )


def default_mappings_dir() -> Path:
    """The tables shipped in the wheel (hipify_py/mappings/), or the checkout's
    top-level mappings/ folder when running from a source tree."""
    override = os.environ.get("HIPIFY_PY_MAPPINGS")
    if override:
        return Path(override)
    package = Path(__file__).resolve().parent.parent
    shipped = package / "mappings"
    if (shipped / "runtime.yaml").is_file():
        return shipped
    return package.parent / "mappings"
