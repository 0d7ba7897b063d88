"""Rename CUDA identifiers, types, enum constants, macros and namespaces.

Candidates come from one regular-expression scan of the bytes; each candidate
that the table knows (or that looks like CUDA API) is then located in the
tree, and only a token the tree calls an identifier, type, namespace or macro
name is renamed.  This is much faster than visiting every node from Python,
and it is exact: a name inside a comment, a string or a longer identifier is
never a candidate token of the right kind.  ``#define`` bodies, which the
tree keeps as opaque text, are lexed (see lexer.py) so their comments and
strings stay untouched too.
"""

from __future__ import annotations

import re
from functools import lru_cache

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.compat import data as compat_data
from hipify_py.engine.compat import text_includes_header
from hipify_py.engine.context import Context, TokenClassifier, cached_version
from hipify_py.engine.lexer import SpanIndex, opaque_spans, span_kind
from hipify_py.engine.words import occurrences
from hipify_py.rules.call_args import (
    Call,
    argument_from_call,
    call_in_text,
    call_of_node,
    cast_arguments,
    fix_arguments,
    rewrite_roc_arguments,
)
from hipify_py.rules.device_code import call_naming
from hipify_py.rules.legacy_blas import legacy_call, result_variable, v2_form
from hipify_py.rules.platform_split import (
    alone_on_line,
    alone_statement,
    on_nvidia_side,
    split_for_nvidia,
)
from hipify_py.rules.rule import Example, Rule
from hipify_py.tables.cxx_words import kernel_words, reserved
from hipify_py.tables.table import MappingTable, Row
from hipify_py.tables.versions import format_version

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
UNSUPPORTED_API = D.Code(
    "HPY101",
    "unsupported-api",
    D.Severity.ERROR,
    "a CUDA API with no HIP equivalent; left unchanged",
    why="The code will not compile for AMD GPUs until this call is replaced.",
    example="cudaGraphInstantiateWithParams(...)",
    fix="Rewrite the code around the missing API or implement it on top of what HIP offers.  "
    "For the SIMD video intrinsics (__vsub4, __vcmpne4, ...), the cache-hint loads and stores "
    "(__stcs, __ldlu, ...) and umin/umax, pass --compat: hipify_py_compat.h provides them "
    "(the hint says so).  NVML calls whose AMD SMI counterpart has another shape (device "
    "count and handles, memory, utilization, temperature, power, clocks) become, with "
    "--compat, hipify_nvml_* functions of that header over AMD SMI; for the other NVML calls "
    "the hint names the AMD SMI call to use.",
)
UNKNOWN_CUDA_NAME = D.Code(
    "HPY102",
    "unknown-cuda-name",
    D.Severity.WARNING,
    "an identifier that looks like CUDA API but is not in the mapping tables; left unchanged",
    why="It may be a newer CUDA API than our tables know, or a project name that merely "
    "looks like CUDA.  Either way nobody translated it.",
    fix="If it is the project's own name, ignore this (or suppress it); otherwise port it by hand.",
    example="cudaFooBarNewIn13(x);",
)
DEPRECATED_API = D.Code(
    "HPY104",
    "deprecated-cuda-api",
    D.Severity.INFO,
    "a deprecated CUDA API; translated, but consider the replacement",
    why="CUDA may drop it in a later release; HIP keeps it for now, so the translation builds.",
    example="cudaThreadSynchronize();",
    fix="Move to the replacement the message names (cudaDeviceSynchronize here).",
)
REMOVED_API = D.Code(
    "HPY105",
    "removed-cuda-api",
    D.Severity.WARNING,
    "a CUDA API removed from newer CUDA; translated where HIP has it",
    why="HIP may drop it too (texture references, for example, are deprecated in HIP).",
    fix="Move to the API CUDA replaced it with, which HIP usually has as well.",
    example="texture<float, 1, cudaReadModeElementType> tex;",
)
EXPERIMENTAL_API = D.Code(
    "HPY106",
    "experimental-hip-api",
    D.Severity.INFO,
    "the HIP counterpart is marked experimental",
    why="Experimental HIP APIs may change their behaviour or signature between ROCm releases.",
    example="cublasSgemm_64(handle, ...)  // hipblasSgemm_v2_64, experimental in hipBLAS",
    fix="Pin the ROCm version you build with, or avoid the API.",
)
STRING_MENTION = D.Code(
    "HPY107",
    "cuda-name-in-string",
    D.Severity.INFO,
    "a string literal names a CUDA API; strings are not rewritten without --rewrite-strings",
    why="A name in a string is usually a log message; when it is a symbol looked up at run time "
    "(dlsym, nvrtc) it must be renamed too.",
    example='printf("cudaMalloc failed\\n");',
    fix="Rename it by hand where the string is looked up at run time, or translate with "
    "--rewrite-strings.",
)
ROC_ARGUMENT_CAST = D.Code(
    "HPY115",
    "roc-argument-cast",
    D.Severity.INFO,
    "with --roc, a call's complex, half or bfloat16 arguments are cast to the ROC library's own "
    "types (same layout), or inputs to the non-const pointer the ROC function declares",
    why="rocBLAS, rocSOLVER and rocSPARSE take rocblas_float_complex*, rocblas_half*, "
    "rocsparse_double_complex*, ... where CUDA's calls take cuComplex*, __half*, ...; the file "
    "keeps HIP's types (hipFloatComplex, __half, __hip_bfloat16), which its arithmetic "
    "(hipCaddf, __hadd, kernels) needs, and the values have the same layout, so the pointers "
    "are cast at the call.  MIOpen declares some inputs it only reads void* where cuDNN has "
    "const void* (batch normalization's alpha, beta, scale, bias): those are cast to void*, "
    "and the note says so.",
    example="cublasCgemm(h, ..., alpha, A, ...)  // rocblas_cgemm(h, ..., "
    "(const rocblas_float_complex*)(alpha), ...)",
    fix="Nothing to do.  To drop the casts, declare the values with the ROC types.",
)
ASSUMED_CUDA_VERSION = D.Code(
    "HPY111",
    "assumed-cuda-version",
    D.Severity.WARNING,
    "a CUDA version macro used as a value becomes the CUDA release HIP's API follows (11070)",
    why="hipcc defines neither CUDART_VERSION nor CUDA_VERSION, and an undefined name reads as 0 "
    "in #if: `#if CUDART_VERSION < 11020` would select the oldest CUDA branch (ggml's "
    "`#define CUBLAS_COMPUTE_32F CUDA_R_32F`) and a minimum-version `#error` would fire. The "
    "use becomes 11070 (CUDA 11.7): HIP 5.7.1 to 7.2.4 keep CUDA 11's signatures where CUDA 12 "
    "changed them (hipGraphInstantiate, hipGraphExecUpdate) and lack what CUDA 11.8 and later "
    "added (programmatic dependent launch, fp8/fp4 types), so the branch for CUDA 11.7 is the "
    "one HIP translates best. In an #if, HIP's NVIDIA platform keeps CUDA's own value "
    "(`(CUDART_VERSION + !defined(__HIP_PLATFORM_NVIDIA__) * 11070)`): its CUDA headers define "
    "it. A defined() / #ifdef test stays and is reported (HPY101).",
    example="#if CUDART_VERSION < 11020\n#define CUBLAS_COMPUTE_32F CUDA_R_32F\n#endif",
    fix="Check that the branch selected is the one HIP supports; for a test of HIP itself use "
    "HIP_VERSION (<hip/hip_version.h>).",
)
LEGACY_CUBLAS = D.Code(
    "HPY112",
    "legacy-cublas-api",
    D.Severity.ERROR,
    "a call of the legacy cuBLAS API (cublas.h: no handle, scalars by value); hipBLAS has only "
    "the handle API, so it is left unchanged (the hint gives the v2 call to write)",
    why="cublas.h declares cublasSscal(n, alpha, x, incx) and friends without a handle; "
    "cublas_v2.h redefines the same names as the handle API, which is what hipBLAS and "
    "rocBLAS have.  Renamed, the call would be a handle-less hipblasSscal(n, ...) that does not "
    "compile, so it is not renamed.",
    example="#include <cublas.h>\ncublasSscal(n, 2.0f, d_x, 1);",
    fix="Port the file to cublas_v2.h (a cublasHandle_t from cublasCreate, scalars by "
    "pointer, results through the last argument) as the hint shows, and translate again; "
    "cublasInit/cublasShutdown become cublasCreate/cublasDestroy, cublasAlloc/cublasFree "
    "cudaMalloc/cudaFree.",
)
HINT_CALL_DROPPED = D.Code(
    "HPY114",
    "hint-call-dropped",
    D.Severity.WARNING,
    "a call that only sets a hint HIP cannot take becomes its success status",
    why="Some calls only allow a library a faster way to compute (cublasSetMathMode with "
    "CUBLAS_TF32_TENSOR_OP_MATH). hipBLAS before 2.1 (ROCm 6.1) has no math mode, and "
    "hipBLAS's rocBLAS backend answers every mode but the default and XF32 with "
    "HIPBLAS_STATUS_NOT_SUPPORTED, which a checked call (ggml's CUBLAS_CHECK) turns into an "
    "abort at run time. Either way the library computes as CUBLAS_DEFAULT_MATH does. Where "
    "the call's arguments have no effects, the translation replaces it with its success "
    "status.",
    example="CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));\n"
    "// becomes: CUBLAS_CHECK(HIPBLAS_STATUS_SUCCESS);",
    fix="Nothing, if the library's default (full precision) is acceptable.",
)

IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_$])[A-Za-z_][A-Za-z0-9_]*")

# Unknown identifiers with these shapes are CUDA API until proven otherwise.
CUDA_LIKE = re.compile(
    # CU_ and CUx (CUdevice, CUresult) are driver API; CUTLASS_, CUTE_, CUB_,
    # CUPY_ are libraries or projects named after CUDA, not CUDA API
    r"(?:cuda[A-Z]\w*|cu[A-Z][a-z]\w*|CU_\w+|CU[a-z]\w*|CUDA_\w+|CUDART_\w+|"
    r"(?:cublas|cublasLt|cufft|curand|cusparse|cusolver(?:Dn|Sp|Rf|Mg)?|cudnn|nvrtc|nvtx|nccl|nvml)"
    r"[A-Z_]\w*|(?:CUBLAS|CUFFT|CURAND|CUSPARSE|CUSOLVER|CUDNN|NVRTC|NCCL|NVML)_\w+|__nv_\w+)$",
    re.ASCII,
)

# CUDA names whose translation depends on their arguments: the warp rule
# (rules/warp.py) handles them, this rule leaves them alone.
OWNED_BY_RULES = frozenset(
    {
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__any_sync",
        "__all_sync",
        "__activemask",
        "__syncwarp",
    }
)

RUNTIME_LIBRARIES = frozenset({"runtime", "driver", "device"})

_CODE_NODES = frozenset({"identifier", "type_identifier", "namespace_identifier"})
# what classify() may call code: also a conversion operator's type that error
# recovery read as a member name (field_identifier, only after `operator`)
_CODE_TOKENS = _CODE_NODES | {"field_identifier"}
_STRING_NODES = frozenset(
    {
        "string_literal",
        "string_content",
        "raw_string_literal",
        "raw_string_content",
        "char_literal",
        "character",
        "escape_sequence",
        "concatenated_string",
    }
)
# Directives whose argument is free text, not code.
_TEXT_DIRECTIVES = frozenset({"#pragma", "#error", "#warning", "#line", "#ident"})


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@lru_cache(maxsize=8192)
def is_plain_identifier(name: str) -> bool:
    return bool(_PLAIN.match(name)) and name not in reserved()


class Scanner:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.root = ctx.root
        self.macro_spans: dict[int, list[tuple[int, int, str]]] = {}
        # Where the parse has errors, recovery can split or merge string
        # literals differently from one run to the next (the output of a first
        # translation parses differently from its input): the lexer, which
        # reads strings and comments as the compiler does, decides then.
        self.lexed = SpanIndex(ctx.text) if self.root.has_error else None

    def classify(self, start: int, end: int) -> tuple[str, tree_sitter.Node | None]:
        """Where the token [start, end) sits: code, macro, string, comment or other."""
        where, node = self._classify(start, end)
        if self.lexed is not None and where in ("code", "macro", "string", "comment"):
            if node is not None and node.type == "system_lib_string":
                return where, node
            lexed = self.lexed.kind(start, end)
            if lexed is not None:
                return lexed, node
            if where in ("string", "comment"):
                return "code", node
        return where, node

    def _classify(self, start: int, end: int) -> tuple[str, tree_sitter.Node | None]:
        node = self.root.descendant_for_byte_range(start, end)
        if node is None:
            return "other", None
        kind = node.type
        if kind in _CODE_NODES:
            if node.start_byte != start or node.end_byte != end:
                return "other", node
            parent = node.parent
            if parent is not None and parent.type == "ERROR":
                # error recovery can split a string literal into `"`, identifier,
                # `"`: lex the unparsed region to see what the token really is
                return self._lexed(parent, start, end, "code"), node
            return "code", node
        if kind == "field_identifier" and _type_read_as_member(self.ctx.text, start, end):
            return "code", node
        if kind == "comment":
            return "comment", node
        if kind in _STRING_NODES:
            return "string", node
        if kind == "preproc_arg":
            return self._in_macro(node, start, end), node
        if kind == "ERROR":
            # an unparsed region: a token there is code unless lexing the region
            # puts it inside a comment or string
            return self._lexed(node, start, end, "code"), node
        if node.child_count == 0 and kind == self.ctx.node_text(node):
            return "keyword", node  # e.g. __global__ is its own token type
        return "other", node

    def _lexed(self, node: tree_sitter.Node, start: int, end: int, default: str) -> str:
        """Where [start, end) sits by lexing ``node``'s text (cached per node)."""
        spans = self.macro_spans.get(node.start_byte)
        if spans is None:
            spans = opaque_spans(self.ctx.node_text(node))
            self.macro_spans[node.start_byte] = spans
        return span_kind(spans, start - node.start_byte, end - node.start_byte) or default

    def _in_macro(self, node: tree_sitter.Node, start: int, end: int) -> str:
        parent = node.parent
        if parent is not None and parent.type == "preproc_call":
            directive = parent.child_by_field_name("directive")
            if directive is not None and self.ctx.node_text(directive).strip() in _TEXT_DIRECTIVES:
                return "text"
        return self._lexed(node, start, end, "macro")


# the text before a conversion operator's type: `operator T`, `operator ::T`
_CONVERSION_TYPE = re.compile(r"(?<![\w$])operator\s*(?:::\s*)?\Z")
# a member's name is followed by `;`, `=`, `[`, `(`, `{`, `:` or `,`, or by one
# of these words; any other word means the "member" was a type
_NEXT_WORD = re.compile(r"\s*([A-Za-z_]\w*)")
_AFTER_MEMBER = frozenset(
    {
        "__attribute__",
        "__declspec",
        "alignas",
        "const",
        "volatile",
        "override",
        "final",
        "noexcept",
        "asm",
        "__asm__",
        "throw",
        "requires",
        "mutable",
    }
)


def _type_read_as_member(text: str, start: int, end: int) -> bool:
    """Is this field_identifier a type that tree-sitter's recovery read as a
    member name?  In a class, a macro it does not know before the return type
    (`_CCCL_HOST_DEVICE cudaError_t f();`) makes the type the "member", and
    `operator ::cudaAccessProperty()` after such a macro makes the converted-to
    type the member function's name."""
    if _CONVERSION_TYPE.search(text, max(0, start - 40), start):
        return True
    following = _NEXT_WORD.match(text, end)
    return following is not None and following.group(1) not in _AFTER_MEMBER


def _namespace_context(node: tree_sitter.Node) -> bool:
    if node.type == "namespace_identifier":
        return True
    parent = node.parent
    return parent is not None and parent.type in ("using_declaration", "namespace_alias_definition")


_INCLUDE_GUARD = re.compile(r"_*[A-Z0-9_]*_H(?:PP)?_*\Z")


@lru_cache(maxsize=16384)
def _needs_runtime(name: str) -> bool:
    """Does a (translated) use of this runtime/driver/device name need the HIP
    runtime header?  Not `log`, `exp`, `max` (plain C++ too), and not an
    include-guard macro such as __CUDA_RUNTIME_H__ (testing it is no use)."""
    return not _generic(name) and not _INCLUDE_GUARD.match(name)


@lru_cache(maxsize=16384)
def _generic(name: str) -> bool:
    """A name without CUDA's prefixes (``saturate``, ``umax``, ``csrqrInfo``)."""
    return not name.startswith("__") and not CUDA_LIKE.match(name)


def _used_as(row: Row, node: tree_sitter.Node, ctx: Context) -> bool:
    """Is this generic-named token used the way the CUDA API would be?

    Unsupported CUDA names without a CUDA prefix are common words; report one
    only where it is called (a function) or names a type, and the file does
    not declare it itself.
    """
    if row.kind == "namespace":
        # `cuda::` is the namespace even in a file with a variable `cuda`;
        # only the project's own `namespace cuda {` makes it the project's
        return re.search(rf"\bnamespace\s+{re.escape(row.cuda)}\s*\{{", ctx.text) is None
    if ctx.is_local(row.cuda):
        return False
    parent = node.parent
    if row.kind == "function":
        callee = node
        while parent is not None and parent.type == "qualified_identifier":
            # cg::this_cluster(): the scope was checked by _foreign_scope
            callee, parent = parent, parent.parent
        return call_naming(callee) is not None
    if row.kind == "type":
        return node.type == "type_identifier"
    return True


_NESTED = re.compile(r"(\w+|>)\s*::\s*\Z")
# words after which `::` opens the global scope (`typedef ::cub::X`), not a nesting
_BEFORE_GLOBAL = frozenset(
    [
        "typedef",
        "using",
        "return",
        "new",
        "delete",
        "typename",
        "const",
        "constexpr",
        "static",
        "inline",
        "extern",
        "volatile",
        "case",
        "throw",
        "sizeof",
        "decltype",
        "co_return",
        "co_yield",
        "else",
        "do",
        "friend",
    ]
)


def _nested(text: str, start: int) -> bool:
    """Is the name at ``start`` qualified by an outer scope (``thrust::cuda``)?"""
    found = _NESTED.search(text, max(0, start - 64), start)
    return found is not None and found.group(1) not in _BEFORE_GLOBAL


def _foreign_scope(ctx: Context, node: tree_sitter.Node) -> bool:
    """``mylib::cudaMalloc`` is the project's own name, not the CUDA API."""
    parent = node.parent
    if parent is None or parent.type != "qualified_identifier":
        return False
    name = parent.child_by_field_name("name")
    if name is None or name.id != node.id:
        return False
    scope = parent.child_by_field_name("scope")
    if scope is None:
        return False  # ::cudaMalloc
    scope_name = ctx.node_text(scope).split("<")[0].strip().removeprefix("::").strip()
    return scope_name not in ctx.table.names and scope_name not in _cuda_aliases(ctx)


_ALIAS = re.compile(r"\bnamespace\s+(\w+)\s*=\s*(?:::\s*)?(\w+(?:\s*::\s*\w+)*)\s*;")


def _cuda_aliases(ctx: Context) -> frozenset[str]:
    """The file's namespace aliases of CUDA namespaces (``namespace cg =
    cooperative_groups;``): names qualified by them are CUDA's."""
    found = ctx.facts.namespace_aliases
    if found is None:
        names = ctx.table.names
        aliases = set()
        if "namespace" in ctx.present:
            for match in _ALIAS.finditer(ctx.text):
                if scanner_of(ctx).classify(match.start(), match.start() + 9)[0] in _NOT_CODE:
                    continue  # `namespace` in a comment or string
                alias, target = match.groups()
                first = target.split("::")[0].strip()
                row = names.get(first)
                if row is not None and row.kind == "namespace":
                    aliases.add(alias)
        found = ctx.facts.namespace_aliases = frozenset(aliases)
    return found


def may_apply(present: set[str], text: str, table: MappingTable) -> bool:
    """Cheap test on the file's distinct words: could this rule find anything?"""
    # iterate the file's words, not the 9,000 table keys
    if not table.names.keys().isdisjoint(present) or not present.isdisjoint(kernel_words()):
        return True
    return any(CUDA_LIKE.match(name) for name in present)


def scanner_of(ctx: Context) -> TokenClassifier:
    """The file's token classifier, shared by the rules (its caches too)."""
    if ctx.scanner is None:
        ctx.scanner = Scanner(ctx)
    return ctx.scanner


def run(ctx: Context) -> None:
    scanner = scanner_of(ctx)
    names = ctx.table.names
    text = ctx.text
    # One C-speed pass collects the distinct identifiers; Python work is then
    # proportional to the CUDA names actually present, not to the file size.
    present = ctx.present
    hits: list[tuple[int, Row]] = []
    # (set operators with names.keys() would copy the 9,000 keys every file)
    for name in [n for n in present if n in names and n not in OWNED_BY_RULES]:
        row = names[name]
        hits.extend((pos, row) for pos in occurrences(text, name))
    hits.extend(_qualified_hits(ctx))
    hits.sort(key=lambda hit: hit[0])
    for word in present & kernel_words():
        if ctx.uses_kernel_syntax:
            break
        for pos in occurrences(text, word):
            where, _ = scanner.classify(pos, pos + len(word))
            if where in ("code", "keyword", "macro"):
                ctx.uses_kernel_syntax = True
                break
    strings_seen: set[str] = set()
    facts = ctx.facts.semantic
    keep = facts.keep if facts is not None else frozenset()  # the clang engine's user names
    for start, row in hits:
        if start in keep or (ctx.moved and any(a <= start < b for a, b in ctx.moved)):
            continue
        name = row.cuda
        end = start + len(_token_of(name))
        where, node = scanner.classify(start, end)
        if where == "code" and node is not None and node.type in _CODE_TOKENS:
            if row.kind == "namespace" and (
                not _namespace_context(node) or ("::" not in name and _nested(ctx.text, start))
            ):
                continue  # a variable called like a namespace, or mylib::cuda::
            if _foreign_scope(ctx, node) and "::" not in name:  # scoped rows checked theirs
                continue
            if row.hip is None and _generic(name) and not _used_as(row, node, ctx):
                continue  # `saturate`, `umax`: the project's own variable or function
        elif where == "macro":
            pass
        elif where == "keyword" and row.hip is None:
            # the grammar knows some CUDA-only attributes as keywords
            # (__grid_constant__): HIP does not, so they are reported
            _rename(ctx, row, start, end)
            continue
        elif where == "string":
            if ctx.options.rewrite_strings:
                _rename(ctx, row, start, end, in_string=True)
            elif row.hip and row.hip != name and name not in strings_seen:
                strings_seen.add(name)
                ctx.report(
                    STRING_MENTION,
                    start,
                    f"string literal mentions {name}; left unchanged",
                    hint="pass --rewrite-strings to rename names inside strings",
                    name=name,
                )
            continue
        else:
            continue
        if row.section == "Header Guards" and _guard_test(node):
            continue  # rules/guards.py writes a test that holds on both platforms
        if where == "code" and _shim_definition(ctx, row, node):
            continue
        _rename(ctx, row, start, end, node=node if where == "code" else None)
        if row.kind == "type" and where == "code" and node is not None:
            _drop_elaborated_keyword(ctx, row, node)
    unknown_names = sorted(n for n in present if n not in names and CUDA_LIKE.match(n))
    if unknown_names:
        unknown = sorted(
            (pos, pos + len(name), name)
            for name in unknown_names
            for pos in occurrences(text, name)
        )
        _report_unknown(ctx, scanner, unknown)


_HIP_INCLUDE = re.compile(
    r'^[ \t]*#[ \t]*include[ \t]*[<"]'
    r"(?:hip|hipblas|hipfft|hiprand|hipsparse|hipsolver|hipcub|rocblas|rccl)/",
    re.MULTILINE,
)
_ANY_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)
_HIP_WORD = re.compile(r"\s*(?:hip|HIP|roc|__hip)\w*")


def _shim_definition(ctx: Context, row: Row, node: tree_sitter.Node | None) -> bool:
    """``#define cublasCreate hipblasCreate``: the project defines a CUDA name as
    HIP's (a HIP shim, as ggml's vendors/hip.h).  Renaming the defined name
    would redefine HIP's own (``#define HIP_R_16F HIPBLAS_R_16F``), so it stays,
    as do all the CUDA names a file that includes HIP's headers and no CUDA
    header defines."""
    parent = node.parent if node is not None else None
    if parent is None:
        return False
    if parent.type == "type_definition":  # typedef __hip_bfloat16 nv_bfloat16;
        if parent.child_by_field_name("declarator") != node:
            return False
        value = parent.child_by_field_name("type")
    elif parent.type in ("preproc_def", "preproc_function_def"):
        if parent.child_by_field_name("name") != node:
            return False
        value = parent.child_by_field_name("value")
    else:
        return False
    body = ctx.node_text(value) if value is not None else ""
    if row.hip and _HIP_WORD.match(body):
        return True
    cached = ctx.facts.already_hip
    if cached is None:
        cached = directive_in(ctx, _HIP_INCLUDE) and not _includes_cuda(ctx)
        ctx.facts.already_hip = cached
    return cached


def _includes_cuda(ctx: Context) -> bool:
    headers = ctx.table.headers
    return any(
        match.group(1) in headers and _is_directive(ctx, match)
        for match in _ANY_INCLUDE.finditer(ctx.text)
    )


def _is_directive(ctx: Context, match: re.Match[str]) -> bool:
    """Is the #include the match found a directive, not text in a comment?"""
    at = ctx.text.index("#", match.start())
    return scanner_of(ctx).classify(at, at + 1)[0] not in _NOT_CODE


def directive_in(ctx: Context, pattern: re.Pattern[str]) -> bool:
    """Does ``pattern`` (which starts at a ``#``) match a directive, not comment text?"""
    return any(_is_directive(ctx, match) for match in pattern.finditer(ctx.text))


def _unconverted(
    ctx: Context, row: Row, name: str, end: int, code: D.Code, start: int, message: str, hint: str
) -> None:
    """A CUDA name left as it is: counted as unconverted, and reported."""
    ctx.stats.unconverted[name] += 1
    ctx.stats.unconverted_library[row.library] += 1
    ctx.report(code, start, message, hint=hint, name=name, end=end)


# `#ifdef NAME`, `#ifndef NAME`, `defined(NAME)` / `defined NAME` before the name
_DEFINED_OPERAND = re.compile(r"(?:^[ \t]*#[ \t]*(?:el)?ifn?def|\bdefined\s*\(?)\s*\Z")


def defined_operand(text: str, start: int) -> bool:
    """Is the name at ``start`` the operand of defined() / #ifdef / #ifndef by
    the text of its line (a #define body, or a directive the grammar missed)?"""
    return _DEFINED_OPERAND.search(text[text.rfind("\n", 0, start) + 1 : start]) is not None


def logical_line_start(text: str, offset: int) -> int:
    """Where the logical line holding ``offset`` starts (backslash-continued
    lines joined)."""
    line = text.rfind("\n", 0, offset) + 1
    while line > 1 and text[line - 2] == "\\":
        line = text.rfind("\n", 0, line - 1) + 1
    return line


def _tested_defined(ctx: Context, start: int, node: tree_sitter.Node | None) -> bool:
    """Is the name at ``start`` the operand of defined() / #ifdef / #ifndef
    (in a directive, or in a #define body that the parser leaves as text)?"""
    return _guard_test(node) or defined_operand(ctx.text, start)


# HIP on NVIDIA includes CUDA's headers, which define the version macros:
# there the real value holds (ggml's own __hgt2_mask for CUDA < 12 would
# collide with cuda_fp16.h's), on AMD the assumed one
_ON_AMD = "!defined(__HIP_PLATFORM_NVIDIA__)"
# after the name in a translated test: `CUDART_VERSION + !defined(...) * 11070`
_ASSUMED_ALREADY = re.compile(r"\s*\+\s*!\s*defined\s*\(\s*__HIP_PLATFORM_NVIDIA__\s*\)")


def _assume_value(ctx: Context, row: Row, start: int, end: int) -> None:
    """A macro HIP lacks whose value the tables assume (CUDART_VERSION): under
    hipcc for AMD it is undefined and reads as 0 in #if, which selects the
    oldest CUDA branch; the translation takes the CUDA release HIP's API
    follows.  In an #if the value stays CUDA's own on HIP's NVIDIA platform:
    ``(CUDART_VERSION + !defined(__HIP_PLATFORM_NVIDIA__) * 11070)`` (undefined,
    the name reads 0 on AMD; no ?: since tree-sitter cannot parse `defined` in
    a conditional, and a parse error there would undo other edits)."""
    if _ASSUMED_ALREADY.match(ctx.text, end):
        return  # the CUDA side of a translated test
    in_directive = _in_if_directive(ctx.text, start)
    # not where the name is a macro's argument (CuPy's CCCL: `#if
    # !_CCCL_CUDACC_EQUAL(CUDART_VERSION / 1000, ...)`): `defined` produced by
    # an expansion is an error for nvcc
    in_call = in_directive and _in_macro_call(ctx.text, start)
    sum_form = in_directive and not in_call
    text = f"({row.cuda} + {_ON_AMD} * {row.value})" if sum_form else row.value
    ctx.edit(start, end, text, "identifiers", structural=False)
    ctx.stats.converted[(row.library, row.kind)] += 1
    ctx.references.append((start, row.cuda, text, row.library))
    ctx.report(
        ASSUMED_CUDA_VERSION,
        start,
        f"{row.cuda} -> {row.value}: hipcc for AMD does not define it (it would read as 0 in "
        "#if and select the oldest CUDA branch); the translation assumes the CUDA release "
        "whose API HIP follows"
        + (" (on HIP's NVIDIA platform the test keeps CUDA's value)" if sum_form else ""),
        hint=row.hint or "check that the branch this selects is the one HIP supports",
        name=row.cuda,
        end=end,
    )


_IF_LINE = re.compile(r"[ \t]*#[ \t]*(?:el)?if\b")
_MACRO_CALL_OPEN = re.compile(r"\b(?!defined\b)[A-Za-z_]\w*\s*\(")


def _in_macro_call(text: str, offset: int) -> bool:
    """Is ``offset`` inside the parentheses of a function-like macro call on
    its (#if) line?"""
    before = text[logical_line_start(text, offset) : offset]
    directive = _IF_LINE.match(before)  # `#if (` is no call
    for match in _MACRO_CALL_OPEN.finditer(before, directive.end() if directive else 0):
        depth = 0
        for ch in before[match.end() - 1 :]:
            depth += ch == "("
            depth -= ch == ")"
        if depth > 0:
            return True
    return False


def _in_if_directive(text: str, offset: int) -> bool:
    """Is ``offset`` in the condition of an #if / #elif (on its logical line,
    backslash continuations included)?"""
    return _IF_LINE.match(text, logical_line_start(text, offset)) is not None


def _guard_test(node: tree_sitter.Node | None) -> bool:
    """An include guard's name tested by #ifdef / #ifndef / defined()."""
    parent = node.parent if node is not None else None
    return parent is not None and (
        parent.type == "preproc_defined"
        or (
            parent.type in ("preproc_ifdef", "preproc_elifdef")
            and parent.child_by_field_name("name") == node
        )
    )


def _rename(
    ctx: Context,
    row: Row,
    start: int,
    end: int,
    in_string: bool = False,
    node: tree_sitter.Node | None = None,
) -> None:
    name = row.cuda
    if ctx.dropped and any(first <= start < last for first, last in ctx.dropped):
        return  # in a call the translation replaced by its value
    if row.nvidia_keeps and not in_string and on_nvidia_side(ctx, start):
        return  # CUDA's name is right on HIP's NVIDIA platform
    legacy = ctx.table.legacy.get(name) if not in_string else None
    if legacy is not None:
        found = legacy_call(ctx, legacy, start, end, node)
        if found is not False:
            call_found = found if isinstance(found, Call) else None
            result = result_variable(node) if call_found is not None else None
            _unconverted(
                ctx,
                row,
                name,
                end,
                LEGACY_CUBLAS,
                start,
                f"{name} is the legacy cuBLAS API (cublas.h, no handle), which hipBLAS does not "
                "have; left unchanged",
                hint="port it to the v2 API (cublas_v2.h, a cublasHandle_t from cublasCreate) "
                f"and translate again: {v2_form(ctx, legacy, call_found, result)}"
                + (
                    " (result: the value the legacy call returned)"
                    if legacy.returns and result is None
                    else ""
                ),
            )
            return
    target = ctx.hip_name_for(row)
    using_roc = ctx.using_roc(row)
    if using_roc and target is None and row.hip is not None:
        if not in_string:  # (--rewrite-strings: a string keeps it; strings decide nothing)
            report_no_roc_name(ctx, row, start, end)
        return
    if using_roc and row.roc_in_call:
        target = (
            (_in_call_name(row, node, ctx, False, row.roc_in_call) if node is not None else None)
            or _roc_in_file_name(row, ctx)
            or target
        )
    older = (
        not using_roc and bool(row.older_until) and cached_version(row.older_until) > ctx.target_hip
    )
    if older and row.older_hip:
        target = row.older_hip
    # a newer HIP renamed the HIP name (hipBLAS 3: hipblasCaxpy_v2 -> hipblasCaxpy)
    newer = (
        not using_roc and bool(row.newer_from) and cached_version(row.newer_from) <= ctx.target_hip
    )
    if newer:
        target = row.newer_hip
    if (row.in_call or (older and row.older_in_call)) and not using_roc:
        target = (
            (_in_call_name(row, node, ctx, older) if node is not None else None)
            or _in_file_name(row, ctx, older)
            or target
        )
    call = _call(ctx, row, start, end, node, in_string)
    if row.success_value and call is not None and not using_roc:
        reason = _hint_unusable(ctx, row, older, call)
        if reason and _to_success_value(ctx, row, start, call, reason):
            return
        if reason and not older:  # an argument has effects: the call stays
            ctx.report(
                D.SIGNATURE_CAUTION,
                start,
                f"{name} -> {target}: {reason} (left: an argument has effects)",
                hint=f"drop the call, keeping what its arguments do; it returns "
                f"{row.success_value} where HIP takes the hint",
                name=name,
                end=end,
            )
    form = ""
    if call is not None and row.by_arity and not using_roc:
        variant = dict(row.by_arity).get(len(call.args))
        if variant is not None:
            # "" marks a form (an arity) of the CUDA call that HIP lacks
            target = variant or None
            form = "" if variant else f" with {len(call.args)} arguments"
    compat = compat_data()
    if target is None and not in_string and name in compat.renames:
        _compat_rename(ctx, row, start, end)
        return
    if not in_string and (
        (target is None and name in compat.names)
        or (target == name and name in compat.also_for_types)
    ):
        if ctx.options.compat or text_includes_header(ctx.text):
            # hipify_py_compat.h provides it under this name
            ctx.needs_compat = True
            ctx.stats.converted[("compat", row.kind)] += 1
            ctx.references.append((start, name, name, "compat"))
            return
        if target is None:
            _unconverted(
                ctx,
                row,
                name,
                end,
                UNSUPPORTED_API,
                start,
                f"{name}{form} has no HIP equivalent ({_describe(row)}); left unchanged",
                hint=f"{compat.hint} ({compat.names[name]})",
            )
            return
    if target is None and row.value and not in_string and not _tested_defined(ctx, start, node):
        _assume_value(ctx, row, start, end)
        return
    if target is None and row.erase and not in_string and not _tested_defined(ctx, start, node):
        # `void CUDART_CB cb(...)` -> `void cb(...)`: the name and the blanks after it
        after = end
        while after < len(ctx.text) and ctx.text[after] in " \t":
            after += 1
        ctx.edit(start, after, "", "identifiers", structural=False)
        ctx.stats.converted[(row.library, row.kind)] += 1
        ctx.references.append((start, row.cuda, "", row.library))
        return
    if target is None:
        _unconverted(
            ctx,
            row,
            name,
            end,
            UNSUPPORTED_API,
            start,
            f"{name}{form} has no HIP equivalent ({_describe(row)}); left unchanged",
            hint=row.hint or row.note or "port this use by hand",
        )
        return
    if target == name and _generic(name):
        # `sqrt`, `max`, `sync`: the same word in HIP as in CUDA and in plain
        # C++, so there is nothing to migrate, count or gate by version
        return
    gated = not newer and not (older and (row.older_hip or target != row.hip))
    if gated and not using_roc and row.hip_added and cached_version(row.hip_added) > ctx.target_hip:
        _unconverted(
            ctx,
            row,
            name,
            end,
            D.NEEDS_NEWER_HIP,
            start,
            f"{name}{'' if target == name else ' -> ' + target} needs HIP >= "
            f"{format_version(cached_version(row.hip_added))} "
            f"(target is {format_version(ctx.target_hip)}); left unchanged",
            hint="raise --hip-version if your ROCm is newer, or port this use by hand"
            + (f" ({row.hint})" if row.hint else ""),
        )
        return
    if using_roc and row.roc_added and cached_version(row.roc_added) > ctx.target_hip:
        _unconverted(
            ctx,
            row,
            name,
            end,
            D.NEEDS_NEWER_HIP,
            start,
            f"{name} -> {target} needs ROCm >= {format_version(cached_version(row.roc_added))} "
            f"(target is {format_version(ctx.target_hip)}); left unchanged",
            hint="raise --hip-version if your ROCm is newer, or port this use by hand"
            + (f" ({row.hint})" if row.hint else ""),
        )
        return
    if using_roc and row.roc_removed and cached_version(row.roc_removed) <= ctx.target_hip:
        _unconverted(
            ctx,
            row,
            name,
            end,
            UNSUPPORTED_API,
            start,
            f"{name} -> {target} was removed in ROCm {row.roc_removed}; left unchanged",
            hint=row.hint or "port this use by hand",
        )
        return
    if (
        not using_roc
        and not newer
        and row.hip_removed
        and cached_version(row.hip_removed) <= ctx.target_hip
    ):
        _unconverted(
            ctx,
            row,
            name,
            end,
            UNSUPPORTED_API,
            start,
            f"{name} -> {target} was removed in HIP {row.hip_removed}; left unchanged",
            hint=row.hint or "port this use by hand",
        )
        return
    ctx.stats.converted[(row.library, row.kind)] += 1
    ctx.references.append((start, name, target, row.library))
    if row.hip_header and target == row.hip and not in_string:
        ctx.needed_headers.add(row.hip_header)
    caution = row.caution
    if caution and row.caution_until and cached_version(row.caution_until) <= ctx.target_hip:
        caution = ""  # HIP took CUDA's form from then on
    if not caution and row.hip_changed and cached_version(row.hip_changed) > ctx.target_hip:
        caution = (
            f"HIP changed this function's signature in "
            f"{format_version(cached_version(row.hip_changed))} to match CUDA's; with HIP "
            f"{format_version(ctx.target_hip)} check the arguments against its declaration"
        )
    if (
        caution
        and row.arg_from
        and not using_roc
        and call is not None
        and argument_from_call(ctx, row, call)
    ):
        caution = ""  # written in: the matching analysis call's buffer
    if caution and not using_roc and name not in ctx.cautioned:
        ctx.cautioned.add(name)
        ctx.report(
            D.SIGNATURE_CAUTION,
            start,
            f"{name} -> {target}: the HIP "
            f"{'signature' if row.kind == 'function' else 'type'} differs; {caution}",
            hint=row.hint,
            name=name,
            end=end,
        )
    if call is not None and row.fixes_arguments and not using_roc:
        fix_arguments(ctx, row, call, inserts=not newer)
    made = (
        rewrite_roc_arguments(ctx, row, call, _roc_casts_for(ctx, row, call))
        if using_roc and call is not None
        else None
    )
    rewritten = made is not None
    if using_roc and row.roc_caution and not rewritten and name not in ctx.cautioned:
        ctx.cautioned.add(name)
        ctx.report(
            D.SIGNATURE_CAUTION,
            start,
            f"{name} -> {target}: the ROC signature differs; {row.roc_caution}",
            name=name,
            end=end,
        )
    if call is not None and using_roc and not rewritten:
        _roc_casts(ctx, row, call, target, start, end)
    elif made and call is not None:
        _report_roc_casts(ctx, row, call, target, made, start, end)
    if not in_string and row.library in RUNTIME_LIBRARIES and _needs_runtime(name):
        ctx.uses_runtime = True
    if target != name and not (
        row.nvidia_keeps and node is not None and _split_for_nvidia(ctx, node, target)
    ):
        ctx.edit(start, end, target, "rename", structural=not is_plain_identifier(target))
        if row.nvidia_alias and not using_roc and not in_string:
            ctx.nvidia_aliases.add(row.nvidia_alias)
    if row.cuda_removed:
        ctx.report(
            REMOVED_API,
            start,
            f"{name} was removed in CUDA {row.cuda_removed}; translated to {target}",
            hint=row.hint,
            name=name,
            end=end,
        )
    elif row.cuda_deprecated:
        ctx.report(
            DEPRECATED_API,
            start,
            f"{name} is deprecated since CUDA {row.cuda_deprecated}; translated to {target}",
            hint=row.hint,
            name=name,
            end=end,
        )
    if row.hip_experimental and not using_roc:
        ctx.report(
            EXPERIMENTAL_API,
            start,
            f"{target} is experimental in HIP {row.hip_experimental}",
            name=name,
            end=end,
        )


def _compat_rename(ctx: Context, row: Row, start: int, end: int) -> None:
    """A CUDA name hipify_py_compat.h provides under another name (NVML calls
    of another shape than AMD SMI's): renamed with --compat from HIP
    ``rename_since`` on, else reported with the AMD SMI calls as hint."""
    compat = compat_data()
    name = row.cuda
    rename = compat.renames[name]
    if not (ctx.options.compat or text_includes_header(ctx.text)):
        _unconverted(
            ctx,
            row,
            name,
            end,
            UNSUPPORTED_API,
            start,
            f"{name} has no HIP equivalent ({_describe(row)}); left unchanged",
            hint=f"{compat.hint} ({rename.gives}); {row.hint}",
        )
        return
    since = cached_version(compat.rename_since)
    if since > ctx.target_hip:
        _unconverted(
            ctx,
            row,
            name,
            end,
            D.NEEDS_NEWER_HIP,
            start,
            f"{name} -> {rename.to} needs HIP >= {format_version(since)} "
            f"(target is {format_version(ctx.target_hip)}); left unchanged",
            hint="raise --hip-version if your ROCm is newer, or port this use by hand "
            f"({row.hint})",
        )
        return
    ctx.needs_compat = True
    ctx.compat_after.add(compat.rename_header)
    ctx.stats.converted[("compat", row.kind)] += 1
    ctx.references.append((start, name, rename.to, "compat"))
    ctx.edit(start, end, rename.to, "rename", structural=False)


_STOP_AT = frozenset(
    {
        "expression_statement",
        "declaration",
        "compound_statement",
        "return_statement",
        "translation_unit",
        "field_declaration",
        "init_declarator",
    }
)


def _in_file_name(row: Row, ctx: Context, older: bool) -> str | None:
    """The row's cuSOLVER name in a file that uses cuSOLVER and not cuBLAS:
    there cuBLAS's types and constants are cuSOLVER's arguments, and only the
    hipSOLVER header is included.  Before hipBLAS 2.0 (HIP 6.0), CUDA's data
    types in a file where only cuBLAS takes them are hipBLAS's own."""
    if older and row.older_in_call and _blas_only_datatypes(ctx):
        found = dict(row.older_in_call).get("cublas")
        if found:
            return found
    solver_only = ctx.facts.solver_only
    if solver_only is None:
        names = ctx.table.names
        present = ctx.present
        solver = any(w.startswith("cusolver") and w in names and in_code(ctx, w) for w in present)
        blas = solver and (
            any(
                w.startswith("cublas") and names[w].kind == "function" and in_code(ctx, w)
                for w in present
                if w in names
            )
            or directive_in(ctx, _BLAS_INCLUDE)
        )
        solver_only = ctx.facts.solver_only = solver and not blas
    if solver_only:
        return dict(row.in_call).get("cusolver")
    return None


_BLAS_INCLUDE = re.compile(r"#\s*include\s*[<\"](?:cublas|cublasLt)\w*\.h")
_NOT_CODE = frozenset({"comment", "string", "text"})


def in_code(ctx: Context, name: str) -> bool:
    """Is ``name`` used in code (a macro body counts), not only in comments,
    strings, #include paths or #error / #warning text?  Only code decides how
    a file is translated."""
    known = ctx.facts.in_code
    found = known.get(name)
    if found is None:
        scanner = scanner_of(ctx)
        found = known[name] = any(
            scanner.classify(pos, pos + len(name))[0] in ("code", "macro", "keyword")
            for pos in occurrences(ctx.text, name)
        )
    return bool(found)


def _roc_in_file_name(row: Row, ctx: Context) -> str | None:
    """--roc, outside the calls: the ``roc_in_call`` name of the one library
    whose calls the file's code makes (a cuSPARSE-only file's cudaDataType is
    rocSPARSE's), else None (the ``roc`` name: rocBLAS's)."""
    prefixes = sorted((prefix for prefix, _ in row.roc_in_call), key=len, reverse=True)
    key = ",".join(prefixes)
    found = ctx.facts.roc_in_file.get(key)
    if found is None:
        names = ctx.table.names
        used: set[str] = set()
        for word in ctx.present:
            if not word.startswith("cu") or word not in names or names[word].kind != "function":
                continue
            owner = next((p for p in prefixes if word.startswith(p)), None)
            owner = owner or ("cublas" if word.startswith("cublas") else None)
            if owner is not None and owner not in used and in_code(ctx, word):
                used.add(owner)
        found = ctx.facts.roc_in_file[key] = used.pop() if len(used) == 1 else ""
    return dict(row.roc_in_call).get(found) if found else None


_DATATYPE_USERS = ("cusparse", "cusolver", "cufft", "cutensor", "nccl", "curand", "cudnn")


def _blas_only_datatypes(ctx: Context) -> bool:
    """Does cuBLAS take the file's cudaDataType values, and no other library?"""
    found = ctx.facts.blas_only_datatypes
    if found is None:
        words = [w for w in ctx.present if w in ctx.table.names and in_code(ctx, w)]
        found = any(w.startswith("cublas") for w in words) and not any(
            w.startswith(_DATATYPE_USERS) for w in words
        )
        ctx.facts.blas_only_datatypes = found
    return found


def _in_call_name(
    row: Row,
    node: tree_sitter.Node,
    ctx: Context,
    older: bool,
    alternatives: tuple[tuple[str, str], ...] | None = None,
) -> str | None:
    """The row's name for the call whose arguments ``node`` is directly in."""
    current = node.parent
    while current is not None and current.type not in _STOP_AT:
        if current.type == "argument_list":
            call = current.parent
            function = call.child_by_field_name("function") if call is not None else None
            if function is None:
                return None
            callee = ctx.node_text(function).split("::")[-1].strip()
            if alternatives is None:
                alternatives = (*row.older_in_call, *row.in_call) if older else row.in_call
            for prefix, alternative in alternatives:
                if callee.startswith(prefix):
                    return alternative
            return None
        current = current.parent
    return None


def _call(
    ctx: Context, row: Row, start: int, end: int, node: tree_sitter.Node | None, in_string: bool
) -> Call | None:
    """The call this name makes, when the row has argument-level fixes."""
    if in_string or not (
        row.by_arity
        or row.success_value
        or row.fixes_arguments
        or row.roc_args
        or row.arg_from
        or row.cuda in ctx.table.roc_casts
    ):
        return None
    if node is not None:
        return call_of_node(node)
    body = ctx.root.descendant_for_byte_range(start, end)
    if body is None or body.type != "preproc_arg":
        return None
    return call_in_text(ctx.text, end, body.end_byte)


def _split_for_nvidia(ctx: Context, node: tree_sitter.Node, target: str) -> bool:
    """``__trap();`` (or ``using namespace cub;``) alone on its line: ``target``
    for AMD, CUDA's name kept for HIP's NVIDIA platform; False (rename in
    place) for another shape."""
    text = ctx.text
    using = node.parent
    if using is not None and using.type == "using_declaration" and alone_on_line(ctx, using):
        amd = (
            text[using.start_byte : node.start_byte] + target + text[node.end_byte : using.end_byte]
        )
        split_for_nvidia(ctx, using, amd, "rename")
        return True
    call = call_naming(node)
    if call is None:
        return False
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.named_child_count:
        return False
    statement = alone_statement(ctx, call)
    if statement is None:
        return False
    amd = (
        text[statement.start_byte : node.start_byte]
        + target
        + text[node.end_byte : statement.end_byte]
    )
    split_for_nvidia(ctx, statement, amd, "rename")
    return True


# an argument without effects: no call, assignment or increment in it
_EFFECT_FREE = re.compile(r"(?:[^()=+-]|->|\+(?!\+)|-(?![-=]))*\Z")


def _hint_unusable(ctx: Context, row: Row, older: bool, call: Call) -> str:
    """Why the HIP function cannot take this hint call ("" when it can)."""
    if older:
        return (
            f"{row.hip} needs HIP >= {format_version(cached_version(row.older_until))} "
            f"(target is {format_version(ctx.target_hip)})"
        )
    for index, names in row.amd_rejects:
        if index < len(call.args):
            words = re.findall(r"\w+", ctx.text[call.args[index].start : call.args[index].end])
            rejected = [w for w in words if w in names.split()]
            if rejected:
                return (
                    f"on AMD GPUs {row.hip} answers {', '.join(rejected)} with a "
                    "not-supported status"
                )
    return ""


def _to_success_value(ctx: Context, row: Row, start: int, call: Call, reason: str) -> bool:
    """``success_value``: the whole call becomes the value (HPY114), when none
    of its arguments has effects; False (nothing done) otherwise."""
    if call.in_macro or not all(_EFFECT_FREE.match(ctx.text[a.start : a.end]) for a in call.args):
        return False
    end = call.close + 1
    ctx.edit(start, end, row.success_value, "identifiers", structural=False)
    ctx.dropped.append((start, end))
    ctx.stats.converted[(row.library, row.kind)] += 1
    ctx.references.append((start, row.cuda, row.success_value, row.library))
    ctx.report(
        HINT_CALL_DROPPED,
        start,
        f"{row.cuda}(...) -> {row.success_value}: {reason}; the call only sets a hint, so the "
        "translation drops it and keeps its success status",
        hint=row.hint or "nothing to do if the library's default is acceptable",
        name=row.cuda,
        end=end,
    )
    return True


@lru_cache(maxsize=1024)
def _token_of(name: str) -> str:
    """The token a row's key stands for in code (``thrust::cuda`` -> ``cuda``)."""
    return name.rsplit("::", 1)[-1]


_ELABORATED = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
_USES = frozenset(
    {
        "declaration",
        "parameter_declaration",
        "optional_parameter_declaration",
        "field_declaration",
        "type_descriptor",
    }
)


def _drop_elaborated_keyword(ctx: Context, row: Row, node: tree_sitter.Node) -> None:
    """``struct cudaLaunchParams* p`` -> ``hipLaunchParams* p``: many HIP types
    are typedefs of unnamed structs, which ``struct`` cannot name.  A type name
    alone is valid C++ either way; forward declarations, definitions and
    typedefs keep the keyword (HIP's internal ihip* tags too)."""
    spec = node.parent
    target = ctx.hip_name_for(row)
    if (
        spec is None
        or spec.type not in _ELABORATED
        or spec.child_by_field_name("body") is not None
        or spec.parent is None
        or spec.parent.type not in _USES
        or not target
        or target == row.cuda
        or target.startswith("ihip")
        or not any(e.start == node.start_byte and e.rule == "rename" for e in ctx.edits[-3:])
    ):  # (the last check: the rename itself was made, not gated or reported)
        return
    ctx.edit(spec.start_byte, node.start_byte, "", "rename")


def _qualified_hits(ctx: Context) -> list[tuple[int, Row]]:
    """Uses of rows keyed ``scope::name`` (``thrust::cuda``): ``name`` right
    after ``scope::`` (spaces allowed, not itself qualified further left)."""
    hits: list[tuple[int, Row]] = []
    text = ctx.text
    for scope, last, row in ctx.table.qualified_rows():
        if last not in ctx.present or scope.split("::")[0] not in ctx.present:
            continue
        before = re.compile(
            r"(?<![\w:])(?:::\s*)?"
            + r"\s*::\s*".join(map(re.escape, scope.split("::")))
            + r"\s*::\s*\Z"
        )
        for pos in occurrences(text, last):
            if before.search(text, max(0, pos - 200), pos):
                hits.append((pos, row))
    return hits


def _roc_casts_for(ctx: Context, row: Row, call: Call) -> tuple[tuple[int, str], ...]:
    """The roc-casts.yaml casts of a call of this many arguments (none for
    another form: legacy cuBLAS has no handle, its casts are not known)."""
    found = ctx.table.roc_casts.get(row.cuda)
    return found.casts if found is not None and found.args == len(call.args) else ()


def _roc_casts(ctx: Context, row: Row, call: Call, target: str, start: int, end: int) -> None:
    """--roc: cast the arguments the ROC function takes as its own value types
    (hipFloatComplex* -> rocblas_float_complex*, same layout), and say so."""
    found = ctx.table.roc_casts.get(row.cuda)
    if found is None or found.args != len(call.args):
        return  # another form (legacy cuBLAS has no handle): its casts are not known
    if found.differs and row.cuda not in ctx.cautioned:
        ctx.cautioned.add(row.cuda)
        ctx.report(
            D.SIGNATURE_CAUTION,
            start,
            f"{row.cuda} -> {target}: the ROC function's signature differs (hipcc on a call "
            f"with CUDA's argument types: {found.differs})",
            hint=f"port this call to {target}'s parameters by hand (see its declaration), or "
            "translate the file without --roc",
            name=row.cuda,
            end=end,
        )
    # (the clang engine's facts are about the HIP casts, not these)
    made = cast_arguments(ctx, call, found.casts, ctx.new_group(), use_facts=False)
    if made:
        _report_roc_casts(ctx, row, call, target, made, start, end)


def _report_roc_casts(
    ctx: Context, row: Row, call: Call, target: str, made: int, start: int, end: int
) -> None:
    """HPY115: ``made`` arguments of the call were cast to the ROC types."""
    types = sorted({cast for _, cast in _roc_casts_for(ctx, row, call)})
    found = ctx.table.roc_casts.get(row.cuda)
    why = found.why if found is not None and found.why else "the HIP types have the same layout"
    ctx.report(
        ROC_ARGUMENT_CAST,
        start,
        f"{row.cuda} -> {target}: {made} argument{'s' if made > 1 else ''} cast to "
        f"{', '.join(types)} ({why})",
        hint="declare the values with the ROC types to drop the casts"
        if found is None or not found.why
        else "",
        name=row.cuda,
        end=end,
    )


def report_no_roc_name(ctx: Context, row: Row, start: int, end: int) -> None:
    """--roc, and the ROC library lacks this name: left as it is (the HIP name
    would not mix with the ROC library's in one file) and reported as an error."""
    header = ctx.table.roc_header(row)
    provider = ctx.table.providers.get(row.library)
    header_row = ctx.table.headers.get(provider.header) if provider is not None else None
    hip_header = f" of <{header_row.hip}>" if header_row is not None and header_row.hip else ""
    _unconverted(
        ctx,
        row,
        row.cuda,
        end,
        D.ROC_FALLBACK,
        start,
        f"--roc: {row.cuda} has no counterpart in <{header}>; left unchanged",
        hint=f"rewrite this use with <{header}>'s own API, or keep this code on the HIP "
        f"library: translate the file without --roc, where it becomes {row.hip}{hip_header}",
    )


def _describe(row: Row) -> str:
    parts = [row.library]
    if row.section:
        parts.append(row.section)
    return ", ".join(parts)


def _report_unknown(
    ctx: Context, scanner: TokenClassifier, unknown: list[tuple[int, int, str]]
) -> None:
    for start, end, name in unknown:
        if ctx.is_local(name):
            continue
        where, _ = scanner.classify(start, end)
        if where not in ("code", "macro"):
            continue
        ctx.stats.unconverted[name] += 1
        ctx.stats.unconverted_library["unknown"] += 1
        ctx.report(
            UNKNOWN_CUDA_NAME,
            start,
            f"{name} looks like CUDA API but is not in the mapping tables; left unchanged",
            hint="if it is your project's own name, suppress this with --ignore HPY102",
            name=name,
            end=end,
        )


RULE = Rule(
    id="identifiers",
    run=run,
    codes=(
        ASSUMED_CUDA_VERSION.code,
        DEPRECATED_API.code,
        EXPERIMENTAL_API.code,
        HINT_CALL_DROPPED.code,
        LEGACY_CUBLAS.code,
        D.NEEDS_NEWER_HIP.code,
        REMOVED_API.code,
        ROC_ARGUMENT_CAST.code,
        D.ROC_FALLBACK.code,
        D.SIGNATURE_CAUTION.code,
        STRING_MENTION.code,
        UNKNOWN_CUDA_NAME.code,
        UNSUPPORTED_API.code,
    ),
    needs=(
        "table.names",
        "table.headers",
        "options",
        "facts.semantic",
    ),
    may_apply=may_apply,
    examples=(
        Example(
            ("#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"),
            ("#include <hip/hip_runtime.h>\nvoid f(float* p) { hipFree(p); }\n"),
        ),
        Example.unchanged("void f() { cudaFrobnicate(); }\n", frozenset({"HPY102"})),
        Example.unchanged(
            "// cudaMalloc is mentioned in a comment only\nint main() { return 0; }\n"
        ),
    ),
)
