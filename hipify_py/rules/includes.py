"""Includes: map known CUDA headers, report those with no HIP counterpart, and
insert ``#include <hip/hip_runtime.h>`` where nvcc's implicit include did the job.

Only a header whose *whole* name is a known CUDA header is mapped, in ``<...>``
or ``"..."`` form: ``"vendors/cuda.h"`` is the project's own file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import NamedTuple

import tree_sitter

from hipify_py.engine import compat
from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context, cached_version
from hipify_py.engine.options import Options
from hipify_py.rules import std_headers
from hipify_py.rules.identifiers import directive_in
from hipify_py.rules.platform_split import on_nvidia_side
from hipify_py.rules.rule import Example, Rule
from hipify_py.tables.table import HeaderRow, MappingTable
from hipify_py.tables.versions import format_version

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
UNSUPPORTED_HEADER = D.Code(
    "HPY201",
    "unsupported-header",
    D.Severity.ERROR,
    "a CUDA header with no HIP counterpart; left unchanged",
    fix="Remove the include and port what it provided (see the hint).  "
    "<cooperative_groups/reduce.h> and <cooperative_groups/scan.h>: pass --compat, which "
    "replaces them with hipify_py_compat.h.",
    why="The file includes a CUDA header that ROCm has no counterpart for, so it cannot compile "
    "for AMD GPUs.",
    example="#include <mma.h>",
)

RUNTIME_HEADER = "hip/hip_runtime.h"
# Headers that already give a file everything <hip/hip_runtime.h> gives.
_RUNTIME_PROVIDERS = frozenset({RUNTIME_HEADER})
_API_PROVIDERS = frozenset({RUNTIME_HEADER, "hip/hip_runtime_api.h"})

# a directive starts its line; a "#include" elsewhere is not one (whatever
# tree-sitter's error recovery makes of it)
_DIRECTIVE = re.compile(r"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include\b", re.MULTILINE)  # BOM ok


def lookup_header(ctx: Context, name: str) -> HeaderRow | None:
    return _lookup(ctx.table.headers, name)


def _lookup(headers: Mapping[str, HeaderRow], name: str) -> HeaderRow | None:
    row = headers.get(name)
    if row is not None:
        return row
    # directory rows ("cuda/*") cover every header below them
    parts = name.split("/")
    for depth in range(len(parts) - 1, 0, -1):
        row = headers.get("/".join(parts[:depth]) + "/*")
        if row is not None:
            return row
    for pattern, row in headers.items():
        if "*" in pattern and not pattern.endswith("/*") and fnmatchcase(name, pattern):
            return row
    return None


_HEADER_NAME = re.compile(r"#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]")


def may_apply(present: set[str], text: str, table: MappingTable) -> bool:
    """Does the text include any header the table knows?"""
    return any(
        _lookup(table.headers, match.group(1).strip()) is not None
        for match in _HEADER_NAME.finditer(text)
    )


class IncludePath(NamedTuple):
    """The ``<name>`` or ``"name"`` of one #include directive (byte offsets)."""

    start_byte: int
    end_byte: int


_PATH = re.compile(r"#[ \t]*include[ \t]*([<\"][^>\"\n]*[>\"])")
_NOT_CODE = frozenset(
    {
        "comment",
        "string_literal",
        "string_content",
        "raw_string_literal",
        "raw_string_content",
        "char_literal",
        "system_lib_string",
    }
)


def _directives(text: str) -> list[re.Match[str]]:
    """``_DIRECTIVE.finditer(text)``, tried only at the starts of lines that
    hold "include" (re tries the ^ at every offset of the file)."""
    line_starts = set()
    find = text.find
    pos = find("include")
    while pos != -1:
        line_starts.add(text.rfind("\n", 0, pos) + 1)
        pos = find("include", pos + 7)
    found = []
    for line_start in sorted(line_starts):
        match = _DIRECTIVE.match(text, line_start)
        if match is not None:
            found.append(match)
    return found


def include_paths(ctx: Context) -> list[IncludePath]:
    """The paths of the file's #include directives (in every #if branch).

    Found by the preprocessor's own rule, a line that starts with ``#include``,
    not by the tree: tree-sitter's error recovery may or may not see a
    directive after broken code, and the answer must not depend on it.  Lines
    inside comments, strings and continued (backslash) lines are skipped.
    """
    paths: list[IncludePath] = []
    text = ctx.text
    for match in _directives(text):
        hash_at = text.index("#", match.start())
        line_start = match.start()
        if line_start >= 2 and text[line_start - 2 : line_start].rstrip("\r\n").endswith("\\"):
            continue  # part of a #define continued from the previous line
        if line_start >= 3 and text[line_start - 3 : line_start] == "\\\r\n":
            continue
        node = ctx.root.descendant_for_byte_range(hash_at, hash_at + 1)
        if node is not None and (node.type in _NOT_CODE or node.type == "preproc_arg"):
            continue
        found = _PATH.match(text, hash_at)
        if found is not None:
            paths.append(IncludePath(found.start(1), found.end(1)))
    return paths


def run(ctx: Context) -> None:
    resulting: set[str] = set()  # headers the file includes after translation
    first_provider = first_needing = -1  # offsets of the first such includes
    # target -> scopes (the #if branch, or the file) that include it already
    included: dict[str, set[int]] = {}
    top_level_runtime: list[tuple[IncludePath, tuple[int, int]]] = []  # mapped to the runtime
    has_compat = False  # the file includes hipify_py_compat.h (or will)
    compat_at = -1  # where the file's last include of hipify_py_compat.h is
    after_at = -1  # the end of the line including a header the compat header must follow
    for path in include_paths(ctx):
        raw = ctx.text[path.start_byte : path.end_byte]
        if len(raw) < 2 or raw[0] not in '<"' or raw[-1] not in '>"':
            continue  # a macro-computed include such as #include HEADER
        name = raw[1:-1].strip()
        if raw[0] == '"' and ctx.options.include_renames:
            new_name = dict(ctx.options.include_renames).get(name)
            if new_name is not None:
                ctx.edit(
                    path.start_byte + 1, path.end_byte - 1, new_name, "include", structural=False
                )
                resulting.add(new_name)
                continue
        if name == compat.HEADER or name.endswith("/" + compat.HEADER):
            has_compat = True
            compat_at = path.start_byte
        if ctx.options.compat and name in compat.data().includes:
            # <cooperative_groups/reduce.h>: the compat header provides it
            ctx.needs_compat = True
            if has_compat:  # one include of the header is enough
                _, line = _scope_and_line(ctx, path)
                if line is not None:
                    ctx.edit(line[0], line[1], "", "include", structural=False)
                continue
            has_compat = True
            compat_at = path.start_byte
            ctx.edit(
                path.start_byte, path.end_byte, f'"{compat.HEADER}"', "include", structural=False
            )
            ctx.stats.converted[("compat", "header")] += 1
            ctx.references.append((path.start_byte, f"<{name}>", f'"{compat.HEADER}"', "compat"))
            continue
        row = lookup_header(ctx, name)
        if ctx.compat_after:
            target_name = _target_name(ctx, row, name)
            if target_name in ctx.compat_after:
                after_at = _line_end(ctx, path.end_byte)
        if row is None:
            resulting.add(name)
            if name in _RUNTIME_PROVIDERS and first_provider < 0:
                first_provider = path.start_byte
            continue
        target = _target(ctx, row, path, name)
        if target is None:
            resulting.add(name)
            continue
        resulting.add(target)
        for header, words in row.brings:
            if any(word in ctx.present for word in words):
                ctx.needed_headers.add(header)  # (a no-op where the file includes it)
        if target in _RUNTIME_PROVIDERS and first_provider < 0:
            first_provider = path.start_byte
        if row.needs_runtime and first_needing < 0:
            first_needing = path.start_byte
        scope, line = _scope_and_line(ctx, path)
        if target != name:
            ctx.stats.converted[(row.library or "headers", "header")] += 1
            ctx.references.append(
                (path.start_byte, f"<{name}>", f"<{target}>", row.library or "headers")
            )
            if line is not None and scope in included.get(target, ()):
                # <cuda.h> and <cuda_runtime.h> both become <hip/hip_runtime.h>:
                # once is enough
                ctx.edit(line[0], line[1], "", "include", structural=False)
                continue
            if target == RUNTIME_HEADER and line is not None and scope == ctx.root.id:
                top_level_runtime.append((path, line))  # renamed or dropped below
            elif row.nvidia_keeps and line is not None and not ctx.options.roc:
                if not on_nvidia_side(ctx, path.start_byte):  # a second run
                    ctx.edit(
                        line[0],
                        line[1],
                        _per_platform(ctx, raw, target),
                        "include",
                        structural=False,
                    )
            else:
                ctx.edit(
                    path.start_byte + 1, path.end_byte - 1, target, "include", structural=False
                )
        if scope is not None:
            included.setdefault(target, set()).add(scope)
    inserted = False
    if ctx.options.insert_runtime_include:
        late = first_needing >= 0 and (first_provider < 0 or first_provider > first_needing)
        inserted = _insert_runtime(ctx, resulting, force=late)
    for path, (start, end) in top_level_runtime:
        if inserted:
            # the inserted include comes first: the later mapped ones are repeats
            ctx.edit(start, end, "", "include", structural=False)
        else:
            ctx.edit(
                path.start_byte + 1, path.end_byte - 1, RUNTIME_HEADER, "include", structural=False
            )
    if inserted or RUNTIME_HEADER in resulting:
        std_headers.run(ctx, resulting)
    newline = ctx.info.newline.decode("latin-1")
    if ctx.needs_compat and ctx.compat_after:
        if after_at < 0:  # included below with the other needed headers, before the compat one
            ctx.needed_headers |= ctx.compat_after
        elif compat_at < after_at:
            # right after that header (an earlier include of the compat header
            # skipped the part that needs it; a second include adds that part)
            lead = "" if after_at == 0 or ctx.text[after_at - 1] == "\n" else newline
            text = f"{lead}{compat.PLAIN_INCLUDE}{newline}"
            ctx.edit(after_at, after_at, text, "include", structural=False)
            has_compat = True
        else:
            has_compat = True
    if ctx.options.roc and any(h.roc in resulting for h in ctx.table.headers.values() if h.roc):
        _roc_companions(ctx)
        _roc_defines(ctx, newline)
    for header in sorted(ctx.needed_headers - resulting):
        ctx.after_runtime.append(f"#include <{header}>{newline}")
    if ctx.needs_compat and not has_compat:
        ctx.after_runtime.append(f"{compat.PLAIN_INCLUDE}{newline}")
    if ctx.before_runtime or ctx.after_runtime:
        _place_around_runtime(ctx, None if inserted else first_provider)
    if ctx.nvidia_aliases:
        _place_nvidia_aliases(ctx, newline)


def _place_nvidia_aliases(ctx: Context, newline: str) -> None:
    """After the file's last include (of a library whose names they alias:
    the file must include it), the declarations HIP's NVIDIA platform needs
    (Row.nvidia_alias), once."""
    wanted = sorted(a for a in ctx.nvidia_aliases if a not in ctx.text)
    paths = [p for p in include_paths(ctx) if "thrust/" in ctx.text[p.start_byte : p.end_byte]]
    if not wanted or not paths:
        return
    last = paths[-1].start_byte
    branch = _conditional_around(ctx, last)
    at = _line_end(ctx, branch.end_byte if branch is not None else last)
    lead = "" if at == 0 or ctx.text[at - 1] == "\n" else newline
    block = newline.join(
        ["#if defined(__HIP_PLATFORM_NVIDIA__)  // CUDA's Thrust there", *wanted, "#endif", ""]
    )
    ctx.edit(at, at, lead + block, "include", structural=False)


def _per_platform(ctx: Context, raw: str, target: str) -> str:
    """The include of a library HIP's NVIDIA platform lacks: there the CUDA
    header itself (its names are the ones the code keeps)."""
    newline = ctx.info.newline.decode("latin-1")
    return newline.join(
        [
            "#if defined(__HIP_PLATFORM_NVIDIA__)",
            f"#include {raw}",
            "#else",
            f"#include <{target}>",
            "#endif",
            "",
        ]
    )


def _roc_companions(ctx: Context) -> None:
    """With --roc: rocblas.h, rocsparse.h, ... do not include <hip/hip_complex.h>
    as hipblas.h, hipsparse.h, ... do, so a file that uses the names of such a
    library (providers.yaml ``with_roc``) gets its HIP header."""
    table = ctx.table
    for library in sorted({library for *_, library in ctx.references}):
        provider = table.providers.get(library)
        if provider is None or not provider.with_roc:
            continue
        row = table.headers.get(provider.header)
        if row is not None and row.hip:
            ctx.needed_headers.add(row.hip)


def _roc_defines(ctx: Context, newline: str) -> None:
    """With --roc: the macros a ROC library's header needs defined to declare
    the names the file uses (providers.yaml ``roc_defines``: MIOpen's backend
    API is declared only with MIOPEN_BETA_API), defined ahead of the includes
    unless the file defines them."""
    used: dict[str, set[str]] = {}
    for _, _, target, library in ctx.references:
        used.setdefault(library, set()).add(target)
    for library in sorted(used):
        provider = ctx.table.providers.get(library)
        for macro, prefixes in provider.roc_defines if provider is not None else ():
            if not any(name.startswith(prefixes) for name in used[library]):
                continue
            if directive_in(ctx, re.compile(rf"#[ \t]*define[ \t]+{macro}\b")):
                continue
            ctx.before_runtime.append(
                f"#ifndef {macro}{newline}#define {macro}{newline}#endif{newline}"
            )


_INCLUDE_LINE = re.compile(
    r"[ \t]*#[ \t]*include[ \t]*[<\"][^>\"\n]*[>\"][ \t]*(?://[^\n]*)?\r?\n?\Z"
)


def _scope_and_line(ctx: Context, path: IncludePath) -> tuple[int | None, tuple[int, int] | None]:
    """The id of the node the include sits in (an #if branch, or the file),
    and the span of its line when the line holds nothing else."""
    node = ctx.root.descendant_for_byte_range(path.start_byte, path.end_byte)
    while node is not None and node.type != "preproc_include":
        node = node.parent
    if node is None or node.parent is None:
        return None, None
    start = _line_start(ctx, path.start_byte)
    end = _line_end(ctx, path.end_byte)
    whole = _INCLUDE_LINE.match(ctx.text[start:end]) is not None
    return node.parent.id, (start, end) if whole else None


def _place_around_runtime(ctx: Context, provider: int | None) -> None:
    """Put the rules' text before and after the file's <hip/hip_runtime.h>.

    ``provider``: where the file's own runtime include is (None when one was
    just inserted, or there is none): text "before" goes ahead of the file's
    first include, text "after" right after the runtime include line.
    """
    top = _insertion_point(ctx)
    if provider is not None and provider >= 0:
        before_at = min(top, _line_start(ctx, provider))
        after_at = _line_end(ctx, provider)
        branch = _conditional_around(ctx, provider)
        if branch is not None:
            # the runtime include is in one branch of an #if (a project's own HIP
            # shim, ctransformers' GGML_USE_HIPBLAS): what must hold in every
            # build goes after the #endif, not into that branch
            after_at = _line_end(ctx, branch.end_byte)
    else:
        before_at = after_at = top
    # insertions at one offset keep their order: before, (runtime include), after
    for text in ctx.before_runtime:
        ctx.edit(before_at, before_at, text, "include", structural=False)
    for text in ctx.after_runtime:
        ctx.edit(after_at, after_at, text, "include", structural=False)


_CONDITIONALS = ("preproc_if", "preproc_ifdef")


def _conditional_around(ctx: Context, offset: int) -> tree_sitter.Node | None:
    """The innermost #if / #ifdef around ``offset`` that is not the file's
    include guard (#ifndef X / #define X around the whole file), else None."""
    node = ctx.root.descendant_for_byte_range(offset, offset)
    while node is not None:
        if node.type in _CONDITIONALS and not _is_guard(ctx, node):
            return node
        node = node.parent
    return None


def _is_guard(ctx: Context, node: tree_sitter.Node) -> bool:
    text = ctx.node_text(node)
    match = re.match(r"#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+)", text)
    return match is not None and match.group(1) == match.group(2)


def _target_name(ctx: Context, row: HeaderRow | None, name: str) -> str:
    """The header an include of ``name`` becomes (its own name where it stays),
    without reporting anything."""
    if row is None:
        return name
    target = row.roc if row.roc and ctx.options.roc else row.hip
    if target is None:
        return name
    if row.hip_added and target == row.hip and cached_version(row.hip_added) > ctx.target_hip:
        return name
    return target


def _target(ctx: Context, row: HeaderRow, path: IncludePath, name: str) -> str | None:
    target = row.roc if row.roc and ctx.options.roc else row.hip
    if ctx.options.roc and not row.roc and row.hip and _roc_family_header(ctx, row, name):
        # --roc, and the ROC library has no such header: an error, as for names
        ctx.stats.unconverted[f"<{name}>"] += 1
        ctx.stats.unconverted_library[row.library] += 1
        ctx.report(
            D.ROC_FALLBACK,
            path.start_byte,
            f"--roc: <{name}> has no counterpart among the ROC library's headers; left unchanged",
            hint=f"rewrite the code that needs it with the ROC library's own API, or translate "
            f"the file without --roc, where it becomes <{row.hip}>",
            name=name,
            end=path.end_byte,
        )
        return None
    if target is not None and target.endswith("/*") and row.cuda.endswith("/*"):
        target = target[:-1] + name[len(row.cuda) - 1 :]
    if target is None:
        ctx.stats.unconverted[f"<{name}>"] += 1
        ctx.stats.unconverted_library[row.library or "headers"] += 1
        ctx.report(
            UNSUPPORTED_HEADER,
            path.start_byte,
            f"<{name}> has no HIP counterpart; left unchanged",
            hint=_compat_hint(name) or row.hint or row.note,
            name=name,
            end=path.end_byte,
        )
        return None
    if row.hip_added and target == row.hip and cached_version(row.hip_added) > ctx.target_hip:
        ctx.stats.unconverted[f"<{name}>"] += 1
        ctx.stats.unconverted_library[row.library or "headers"] += 1
        ctx.report(
            D.NEEDS_NEWER_HIP,
            path.start_byte,
            f"<{name}> -> <{target}> needs HIP >= {format_version(cached_version(row.hip_added))}; "
            "left unchanged",
            name=name,
            end=path.end_byte,
        )
        return None
    return target


def _roc_family_header(ctx: Context, row: HeaderRow, name: str) -> bool:
    """Is ``name`` a header of a library family that has a ROC library (its
    provider header has a ``roc``)?  A sub-family's own header (cuBLASLt's,
    a provider prefix's) is not."""
    provider = ctx.table.providers.get(row.library)
    if provider is None or any(header == name for _, header in provider.prefixes):
        return False
    main = ctx.table.headers.get(provider.header)
    return main is not None and bool(main.roc)


def _insert_runtime(ctx: Context, resulting: set[str], force: bool = False) -> bool:
    """Insert the runtime include where the file needs it and lacks it.

    ``force``: a header that needs the runtime first comes before any include
    of it, so one goes ahead of them all.
    """
    if force:
        pass
    elif ctx.uses_kernel_syntax:
        if resulting & _RUNTIME_PROVIDERS:
            return False
    elif ctx.uses_runtime:
        if resulting & _API_PROVIDERS:
            return False
    else:
        return False
    offset = _insertion_point(ctx)
    newline = ctx.info.newline.decode("latin-1")
    line = f"#include <{RUNTIME_HEADER}>{newline}"
    if offset == len(ctx.text) and ctx.text and not ctx.text.endswith(("\n", "\r")):
        line = newline + line
    # a whole line between top-level items: cannot change how the rest parses;
    # what must precede the runtime include goes in the same edit
    ctx.edit(offset, offset, "".join(ctx.before_runtime) + line, "include", structural=False)
    ctx.before_runtime.clear()
    ctx.report(D.RUNTIME_INCLUDE_ADDED, offset, f"inserted #include <{RUNTIME_HEADER}>")
    return True


def _insertion_point(ctx: Context) -> int:
    """After #pragma once or an include guard; else before the first top-level
    #include; else after the file's leading comments."""
    root = ctx.root
    top = [c for c in root.children if c.type != "comment"]
    for child in root.children:
        if child.type == "preproc_call" and ctx.node_text(child).split()[:2] == ["#pragma", "once"]:
            return _line_end(ctx, child.end_byte)
    if len(top) == 1 and top[0].type == "preproc_ifdef":
        guard = _guard_define(ctx, top[0])
        if guard is not None:
            return _line_end(ctx, guard.end_byte)
    for child in root.children:
        if child.type == "preproc_include":
            return _line_start(ctx, child.start_byte)
        if child.type != "comment":
            break
    # after leading comments (a licence header stays first)
    offset = 3 if ctx.info.bom else 0
    for child in root.children:
        if child.type != "comment":
            return _line_start(ctx, max(child.start_byte, offset))
        offset = _line_end(ctx, child.end_byte)
    return offset


def _guard_define(ctx: Context, ifdef: tree_sitter.Node) -> tree_sitter.Node | None:
    """The ``#define X`` of ``#ifndef X / #define X``, if ``ifdef`` is such a guard."""
    if not ctx.node_text(ifdef).startswith("#ifndef"):
        return None
    name = ifdef.child_by_field_name("name")
    if name is None:
        return None
    for child in ifdef.named_children:
        if child.id == name.id or child.type == "comment":
            continue
        if child.type == "preproc_def":
            defined = child.child_by_field_name("name")
            if defined is not None and defined.text == name.text:
                return child
        return None
    return None


def _continued(text: str, newline: int) -> bool:
    """Whether the newline at ``newline`` is escaped by a backslash (a line
    continuation: the next physical line belongs to the same logical line)."""
    before = newline - 1 if newline > 0 and text[newline - 1] == "\r" else newline
    return before > 0 and text[before - 1] == "\\"


def _line_start(ctx: Context, offset: int) -> int:
    """The start of the logical line holding offset: a line inserted in the
    middle of one continued with backslashes would join it."""
    text = ctx.text
    start = text.rfind("\n", 0, offset) + 1
    while start > 0 and _continued(text, start - 1):
        start = text.rfind("\n", 0, start - 1) + 1
    return 3 if start == 0 and ctx.info.bom else start  # never before the BOM


def _line_end(ctx: Context, offset: int) -> int:
    """Offset just past the newline that ends the logical line containing
    offset-1."""
    text = ctx.text
    if offset > 0 and text[offset - 1] == "\n" and not _continued(text, offset - 1):
        return offset
    nl = text.find("\n", offset)
    while nl != -1 and _continued(text, nl):
        nl = text.find("\n", nl + 1)
    return len(text) if nl == -1 else nl + 1


def _compat_hint(name: str) -> str:
    """The hint of a header hipify_py_compat.h replaces under --compat."""
    provides = compat.data().includes.get(name)
    return f"{compat.data().hint} ({provides})" if provides else ""


RULE = Rule(
    id="includes",
    run=run,
    codes=(
        D.NEEDS_NEWER_HIP.code,
        D.ROC_FALLBACK.code,
        D.RUNTIME_INCLUDE_ADDED.code,
        std_headers.STD_HEADER_ADDED.code,
        UNSUPPORTED_HEADER.code,
    ),
    needs=(
        "table.headers",
        "options",
        "context.uses_runtime",
        "context.uses_kernel_syntax",
        "context.references",
        "context.needed_headers",
        "context.nvidia_aliases",
        "context.needs_compat",
        "context.compat_after",
        "context.before_runtime",
        "context.after_runtime",
    ),
    may_apply=may_apply,
    examples=(
        Example(
            "#include <cublas_v2.h>\n",
            "#include <hipblas/hipblas.h>\n",
        ),
        Example(
            "#include <cusparse.h>\n",
            "#include <rocsparse/rocsparse.h>\n",
            frozenset(),
            Options(roc=True),
        ),
        Example(
            "__global__ void k() {}\n",
            ("#include <hip/hip_runtime.h>\n__global__ void k() {}\n"),
            frozenset({"HPY202"}),
        ),
        Example.unchanged('#include <vector>\n#include "cuda_helpers.h"\n'),
    ),
)
