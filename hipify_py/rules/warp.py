"""Warp intrinsics on wavefront-64 hardware, by target HIP version.

Facts (provenance in the comments and in docs/diagnostics.md):

* HIP >= 6.2 has ``__shfl*_sync``, ``__ballot_sync``, ``__any_sync``,
  ``__all_sync`` and ``__activemask`` (ROCm 6.2 release notes).  Their masks are
  64-bit: HIP's headers static_assert that the mask type is 64 bits wide, so
  CUDA's ``0xffffffff`` does not compile.  In 6.2 and 6.3 they are opt-in behind
  ``HIP_ENABLE_WARP_SYNC_BUILTINS``; from 6.4 they are on by default.
* HIP < 6.2 (5.7 in CI) has only the mask-less ``__shfl``, ``__shfl_up``,
  ``__shfl_down``, ``__shfl_xor``, ``__ballot``, ``__any``, ``__all``; they act on
  the active lanes, which is what a full mask means.
* No HIP release the tables know declares ``__syncwarp``.  The lanes of a
  wavefront execute in lockstep, so a wavefront barrier with fences gives what
  ``__syncwarp`` promises; a small macro (``hipify_py_syncwarp``) supplies it on
  AMD and stays ``__syncwarp`` on HIP's NVIDIA backend.
* ``__ballot_sync`` / ``__activemask`` return 64 bits in HIP (32 in CUDA): kept
  in a 32-bit variable, or counted with ``__popc``, lanes 32-63 are lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from .. import diagnostics as D
from ..context import Context
from .identifiers import OWNED_BY_RULES, occurrences, scanner_of

SYNC_BUILTINS = (6, 2, 0)  # the _sync forms appear (ROCm 6.2)
SYNC_BUILTINS_ON_BY_DEFAULT = (6, 4, 0)  # no opt-in macro needed any more (ROCm 6.4)
OPT_IN_MACRO = "HIP_ENABLE_WARP_SYNC_BUILTINS"
FULL_MASK_64 = "0xffffffffffffffffULL"
SYNCWARP = "hipify_py_syncwarp"

LEGACY = {
    "__shfl_sync": "__shfl",
    "__shfl_up_sync": "__shfl_up",
    "__shfl_down_sync": "__shfl_down",
    "__shfl_xor_sync": "__shfl_xor",
    "__ballot_sync": "__ballot",
    "__any_sync": "__any",
    "__all_sync": "__all",
}
BALLOTS = frozenset({"__ballot_sync", "__activemask", "__ballot"})
_BIT_COUNTS = {"__popc": "__popcll", "__ffs": "__ffsll"}  # provably the same on 64 bits
_BIT_REPORT = frozenset({"__clz", "__brev"})
_NARROW_TYPES = re.compile(
    r"^(?:const\s+|static\s+|volatile\s+)*(?:unsigned(?:\s+int)?|int|signed(?:\s+int)?|uint32_t|"
    r"int32_t|unsigned\s+long|long)$"
)

_FULL = re.compile(
    r"^(?:0[xX][fF]{8}|0[xX][fF]{16}|4294967295|18446744073709551615|~0|~0[xX]0+|-1)"
    r"[uUlL]*$|^(?:UINT_MAX|UINT32_MAX|ULLONG_MAX|UINT64_MAX|~0[uUlL]*)$"
)
_FULL_64 = re.compile(
    r"^(?:0[xX][fF]{16}[uUlL]*|~0[uU]?(?:ll|LL)|ULLONG_MAX|UINT64_MAX|18446744073709551615[uUlL]*)$"
)
_CAST = re.compile(
    r"^(?:\((?:unsigned(?:\s*int)?|uint32_t|unsigned\s*long\s*long|uint64_t)\)|"
    r"static_cast<(?:unsigned(?:\s*int)?|uint32_t|unsigned\s*long\s*long|uint64_t)>)"
)
_WIDE_CAST = re.compile(
    r"^\(\s*(?:unsigned\s+long\s+long(?:\s+int)?|uint64_t)\s*\)|^static_cast<\s*(?:unsigned\s+long\s+long|uint64_t)\s*>"
)
_INTEGER = re.compile(r"^(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")


@dataclass
class _Call:
    name: str
    start: int  # of the name
    end: int
    args: list[tuple[int, int]]  # argument spans in the file
    node: tree_sitter.Node | None  # the call_expression, when in code


def run(ctx: Context) -> None:
    owned = ctx.present & OWNED_BY_RULES
    if not owned:
        return
    scanner = scanner_of(ctx)
    calls: list[_Call] = []
    for name in sorted(owned):
        for start in occurrences(ctx.text, name):
            if name == "__syncwarp" and _in_helper(ctx.text, start):
                continue  # our own helper's NVIDIA branch
            where, node = scanner.classify(start, start + len(name))
            if where == "code" and node is not None:
                call = _code_call(ctx, name, node)
            elif where == "macro":
                call = _text_call(ctx.text, name, start)
            else:
                continue
            if call is not None:
                calls.append(call)
    modern = ctx.target_hip >= SYNC_BUILTINS
    first_needing: _Call | None = None
    dropped: list[tuple[int, int]] = []  # mask arguments deleted (calls inside go with them)
    ctx.cache["warp_dropped"] = dropped
    for call in sorted(calls, key=lambda c: c.start):
        if any(start <= call.start < end for start, end in dropped):
            continue
        if call.name == "__syncwarp":
            _syncwarp(ctx, call)
        elif (
            _activemask(ctx, call, modern)
            if call.name == "__activemask"
            else _masked(ctx, call, modern)
        ):
            first_needing = first_needing or call  # the file needs the opt-in macro
        if call.name in BALLOTS and call.node is not None:
            _check_width(ctx, call)
    already = re.search(rf"#[ \t]*define[ \t]+{OPT_IN_MACRO}\b", ctx.text) is not None
    if first_needing is not None and ctx.target_hip < SYNC_BUILTINS_ON_BY_DEFAULT and not already:
        ctx.before_runtime.append(
            f"#ifndef {OPT_IN_MACRO}{_nl(ctx)}#define {OPT_IN_MACRO}{_nl(ctx)}#endif{_nl(ctx)}"
        )
        ctx.report(
            D.WARP_SYNC_OPT_IN,
            first_needing.start,
            f"defined {OPT_IN_MACRO}: HIP {_v(SYNC_BUILTINS)}-6.3 declares the _sync warp "
            "functions only when it is defined before <hip/hip_runtime.h>",
            hint=f"if another header includes hip_runtime.h first, compile with -D{OPT_IN_MACRO}",
        )


def _in_helper(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return text.startswith(f"#define {SYNCWARP}(", line_start)


def _converted(ctx: Context, call: _Call) -> None:
    ctx.stats.converted[("device", "function")] += 1
    ctx.references.append((call.start, call.name, LEGACY.get(call.name, call.name), "device"))


def _nl(ctx: Context) -> str:
    return ctx.info.newline.decode("latin-1")


def _v(version: tuple[int, ...]) -> str:
    return ".".join(str(p) for p in version[:2])


# ------------------------------------------------------------------ call sites


def _code_call(ctx: Context, name: str, node: tree_sitter.Node) -> _Call | None:
    call = node.parent
    if (
        call is None
        or call.type != "call_expression"
        or call.child_by_field_name("function") != node
    ):
        return None
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    args = [(a.start_byte, a.end_byte) for a in arguments.named_children if a.type != "comment"]
    return _Call(name, node.start_byte, node.end_byte, args, call)


def _text_call(text: str, name: str, start: int) -> _Call | None:
    """A call inside a #define body, split by hand (brackets, strings)."""
    pos = start + len(name)
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    if pos >= len(text) or text[pos] != "(":
        return None
    depth, arg_start, args = 0, pos + 1, []
    i = pos
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            close = text.find(ch, i + 1)
            i = close if close != -1 else len(text)
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                if text[arg_start:i].strip():
                    args.append(_trimmed(text, arg_start, i))
                return _Call(name, start, start + len(name), args, None)
        elif ch == "," and depth == 1:
            args.append(_trimmed(text, arg_start, i))
            arg_start = i + 1
        elif ch == "\n" and text[i - 1 : i] != "\\" and text[i - 2 : i] != "\\\r":
            return None  # the macro body ended first
        i += 1
    return None


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in " \t\\\r\n":
        start += 1
    while end > start and text[end - 1] in " \t\\\r\n":
        end -= 1
    return start, end


# ------------------------------------------------------------------ masks


def mask_kind(ctx: Context, text: str, depth: int = 0) -> str:
    """full | full64 | active | partial | computed, for the text of a mask."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    cast = _CAST.match(text)
    if cast:
        return mask_kind(ctx, text[cast.end() :], depth)
    compact = text.replace(" ", "")
    if _FULL_64.match(compact):
        return "full64"
    if _FULL.match(compact):
        return "full"
    if compact in ("__activemask()", "__ballot(1)", "__ballot(true)"):
        return "active"
    if _INTEGER.match(compact):
        return "partial"
    if _IDENT.match(compact) and depth < 3:
        value = _definition_of(ctx, compact)
        if value is not None:
            kind = mask_kind(ctx, value, depth + 1)
            return "full" if kind == "full64" else kind
    return "computed"


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


_DEFINE_BEFORE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+$")
_CONSTANT_BEFORE = re.compile(r"\b(?:const|constexpr)\b[^;=(){}]*$")
_VALUE_AFTER = re.compile(r"\s*=\s*([^;,}\r\n]+)")
_ENUM_OPEN = re.compile(r"\benum\b[^{;]*\{[^}]*$")


def _definition_of(ctx: Context, name: str) -> str | None:
    """The value a macro or constant of this file gives ``name`` (cached per file).

    Found from the name's own occurrences, each judged by its line, rather than
    by scanning the file with one pattern per name (much faster on big files).
    """
    cache = ctx.cache.setdefault("definitions", {})
    assert isinstance(cache, dict)
    if name in cache:
        value: str | None = cache[name]
        return value
    value = None
    text = ctx.text
    for start in occurrences(text, name):
        line_start = text.rfind("\n", 0, start) + 1
        before = text[line_start:start]
        end = start + len(name)
        if _DEFINE_BEFORE.match(before):
            line_end = text.find("\n", end)
            body = text[end : line_end if line_end != -1 else len(text)]
            if body[:1] in (" ", "\t"):
                value = body.split("//")[0].strip()
                break
            continue
        after = _VALUE_AFTER.match(text, end)
        if after is None:
            continue
        if _CONSTANT_BEFORE.search(before) or _ENUM_OPEN.search(text, max(0, start - 2000), start):
            value = after.group(1).strip()
            break
    cache[name] = value
    return value


_SIDE_EFFECTS = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)")


def _masked(ctx: Context, call: _Call, modern: bool) -> bool:
    """A mask-taking call.  Returns whether the file now needs the opt-in macro.

    HIP >= 6.2: the mask must have a 64-bit type; a full 32-bit mask becomes the
    64-bit full mask, a partial or computed one is widened (same lanes).
    HIP < 6.2: shuffles drop the mask (CUDA leaves reading a lane outside it
    undefined, so the mask-less form is exact where CUDA's is defined); the
    votes keep the mask's meaning with ``__ballot(p) & mask`` (every lane in
    the mask must be active in CUDA, so this is exact too).
    """
    if not call.args:
        return False
    mask_start, mask_end = call.args[0]
    mask = ctx.text[mask_start:mask_end].strip()
    kind = mask_kind(ctx, mask)
    partial = kind in ("partial", "computed")
    if partial:
        side_effects = _SIDE_EFFECTS.search(mask) is not None
        vote_in_macro = call.node is None and not call.name.startswith("__shfl")
        _report_mask(ctx, call, mask, kind, kept=not modern and (side_effects or vote_in_macro))
    if modern:
        _converted(ctx, call)
        if kind == "full":
            ctx.edit(mask_start, mask_end, FULL_MASK_64, "warp", structural=False)
        elif partial and _INTEGER.match(mask.replace(" ", "")):
            ctx.edit(mask_start, mask_end, mask.rstrip("uUlL") + "ULL", "warp", structural=False)
        elif partial and not _WIDE_CAST.match(mask):
            ctx.edit(mask_start, mask_start, "(unsigned long long)(", "warp", structural=False)
            ctx.edit(mask_end, mask_end, ")", "warp", structural=False)
        return True
    if len(call.args) < 2:
        return False
    legacy = LEGACY[call.name]
    side_effects = _SIDE_EFFECTS.search(mask) is not None
    if not side_effects and (not partial or call.name.startswith("__shfl")):
        _converted(ctx, call)
        ctx.edit(call.start, call.end, legacy, "warp", structural=False)
        # drop "mask, " (the text up to the next argument)
        ctx.edit(mask_start, call.args[1][0], "", "warp", structural=False)
        dropped = ctx.cache.get("warp_dropped")
        if isinstance(dropped, list):
            dropped.append((mask_start, call.args[1][0]))
        return False
    if side_effects or call.node is None:
        ctx.stats.unconverted[call.name] += 1
        ctx.stats.unconverted_library["device"] += 1
        ctx.report(
            D.WARP_MASK_NEEDS_62,
            call.start,
            f"{call.name} with the mask {mask!r} has no direct HIP "
            f"{_v(ctx.target_hip)} counterpart; left unchanged",
            hint=f"rewrite it as (__ballot(pred) & mask), or target HIP >= {_v(SYNC_BUILTINS)}",
            name=call.name,
        )
        return False
    # vote over the masked lanes: (__ballot(p) & (m)) [!= 0 | == (m)]; only the
    # name, the mask and the end change, so renames inside the predicate stay
    _converted(ctx, call)
    opening, closing = {
        "__ballot_sync": ("(__ballot", f" & ({mask}))"),
        "__any_sync": ("((__ballot", f" & ({mask})) != 0)"),
        "__all_sync": ("((__ballot", f" & ({mask})) == ({mask}))"),
    }[call.name]
    group = ctx.new_group()
    ctx.edit(call.start, call.end, opening, "warp", group=group)
    ctx.edit(mask_start, call.args[1][0], "", "warp", group=group)
    ctx.edit(call.node.end_byte, call.node.end_byte, closing, "warp", group=group)
    return False


def _report_mask(ctx: Context, call: _Call, mask: str, kind: str, kept: bool = False) -> None:
    ctx.report(
        D.WARP_PARTIAL_MASK,
        call.start,
        f"{call.name} with the {kind} mask {mask!r}: a gfx942 wavefront numbers its lanes "
        "0-63, so a mask written for 32-lane warps names lanes of the first half only"
        + ("" if kept else " (translated keeping the same lanes)"),
        hint="check that the lanes the mask names are the lanes meant on a 64-lane "
        "wavefront (lane ids from threadIdx.x % warpSize, not % 32)",
        name=call.name,
    )


def _activemask(ctx: Context, call: _Call, modern: bool) -> bool:
    _converted(ctx, call)
    if modern:
        return True
    ctx.edit(
        call.start,
        call.end + _args_end(ctx, call) - call.end,
        "__ballot(1)",
        "warp",
        structural=False,
    )
    return False


def _args_end(ctx: Context, call: _Call) -> int:
    """Offset just past the call's closing parenthesis."""
    if call.node is not None:
        return call.node.end_byte
    close = ctx.text.find(")", call.end)
    return close + 1 if close != -1 else call.end


def _syncwarp(ctx: Context, call: _Call) -> None:
    _converted(ctx, call)
    ctx.edit(call.start, call.end, SYNCWARP, "warp", structural=False)
    helper_present = "HIPIFY_PY_SYNCWARP" in ctx.text
    if not helper_present and (not ctx.after_runtime or SYNCWARP not in ctx.after_runtime[-1]):
        ctx.after_runtime.append(_syncwarp_helper(_nl(ctx)))
        ctx.report(
            D.WARP_SYNCWARP,
            call.start,
            f"__syncwarp became {SYNCWARP} (defined at the top of the file): HIP has no "
            "__syncwarp; on AMD a wavefront barrier with fences, on NVIDIA __syncwarp",
        )


def _syncwarp_helper(nl: str) -> str:
    lines = [
        "#ifndef HIPIFY_PY_SYNCWARP",
        "#define HIPIFY_PY_SYNCWARP",
        "/* hipify-py: the lanes of an AMD wavefront run in lockstep; a wavefront barrier",
        "   with fences orders their memory accesses as __syncwarp does (HPY404) */",
        "#if defined(__HIP_PLATFORM_AMD__) || (defined(__clang__) && defined(__HIP__))",
        f'#define {SYNCWARP}(...) (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), '
        '__builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"))',
        "#else",
        f"#define {SYNCWARP}(...) __syncwarp(__VA_ARGS__)",
        "#endif",
        "#endif",
    ]
    return nl.join(lines) + nl


# ------------------------------------------------------------------ result width


def _check_width(ctx: Context, call: _Call) -> None:
    """Ballot results are 64-bit in HIP: a 32-bit variable or __popc loses lanes."""
    assert call.node is not None
    parent = call.node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None:
        return
    if parent.type == "init_declarator":
        declaration = parent.parent
        type_node = declaration.child_by_field_name("type") if declaration is not None else None
        if declaration is not None and type_node is not None:
            qualifiers = [
                ctx.node_text(c)
                for c in declaration.children
                if c.type in ("type_qualifier", "storage_class_specifier")
            ]
            type_text = " ".join([*qualifiers, ctx.node_text(type_node)])
            if _NARROW_TYPES.match(" ".join(type_text.split())):
                _report_width(ctx, call, f"stored in {type_text.strip()}")
        return
    if parent.type == "argument_list":
        outer = parent.parent
        function = outer.child_by_field_name("function") if outer is not None else None
        callee = ctx.node_text(function) if function is not None else ""
        if callee in _BIT_COUNTS:
            assert function is not None
            ctx.edit(
                function.start_byte,
                function.end_byte,
                _BIT_COUNTS[callee],
                "warp",
                structural=False,
            )
        elif callee in _BIT_REPORT:
            _report_width(ctx, call, f"passed to {callee}, which takes 32 bits")


def _report_width(ctx: Context, call: _Call, how: str) -> None:
    ctx.report(
        D.WARP_NARROW_BALLOT,
        call.start,
        f"the result of {call.name} is 64-bit in HIP (one bit per lane of a wave64), {how}: "
        "lanes 32-63 are lost",
        hint="keep it in an unsigned long long and count it with __popcll / __ffsll / __clzll",
        name=call.name,
    )
