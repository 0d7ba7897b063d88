"""Warp intrinsics on wavefront-64 hardware, by target HIP version.

Facts (provenance in the comments and in docs/diagnostics.md):

* HIP >= 6.2 has ``__shfl*_sync``, ``__ballot_sync``, ``__any_sync``,
  ``__all_sync`` and ``__activemask`` (ROCm 6.2 release notes).  Their masks are
  64-bit: HIP's headers static_assert that the mask type is 64 bits wide, so
  CUDA's ``0xffffffff`` does not compile.  In 6.2 to 6.4 they are opt-in behind
  ``HIP_ENABLE_WARP_SYNC_BUILTINS``; from 7.0 they are on by default (6.4.3's
  amd_warp_sync_functions.h tests ``HIP_ENABLE_WARP_SYNC_BUILTINS``, 7.2.4's
  ``HIP_DISABLE_WARP_SYNC_BUILTINS``).
* HIP < 6.2 (5.7 in CI) has only the mask-less ``__shfl``, ``__shfl_up``,
  ``__shfl_down``, ``__shfl_xor``, ``__ballot``, ``__any``, ``__all``; they act on
  the active lanes, which is what a full mask means.  A call with a partial or
  computed mask is left unchanged and reported: the rewrite that keeps its
  meaning depends on which lanes execute it, which only the author knows.
* HIP 5.7.1's ``__shfl*`` overloads (amd_warp_functions.h, amd_hip_fp16.h)
  take int, unsigned, float, double, long, unsigned long, long long,
  unsigned long long, ``__half`` and ``__half2``: no bfloat16.
* No HIP release the tables know declares ``__syncwarp``.  The lanes of a
  wavefront execute in lockstep, so a wavefront barrier with fences gives what
  ``__syncwarp`` promises; a small macro (``hipify_py_syncwarp``) supplies it on
  AMD and stays ``__syncwarp`` on HIP's NVIDIA backend.
* ``__ballot_sync`` / ``__activemask`` return 64 bits in HIP (32 in CUDA): kept
  in a 32-bit variable, or counted with ``__popc``, lanes 32-63 are lost.

Masks are resolved where they are used (rules/device_code.py ``visible``): a
function or macro parameter shadows a constant of the same name elsewhere.
What a mask follows: ``#define``s, ``const``/``constexpr`` constants, locals
used only as masks, a parameter's default, the arguments of a mask macro,
and (for the diagnostic only) a template parameter's arguments at each
instantiation in the file (rules/values.py): a ``template <unsigned MASK>``
given CUDA's full mask keeps lanes 0-31 once cast to 64 bits, which is said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import (
    Declared,
    call_naming,
    declared_name,
    declared_type,
    function_name,
    visible,
)
from hipify_py.rules.identifiers import OWNED_BY_RULES, directive_in, scanner_of
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.rules.values import balanced, leaf_texts
from hipify_py.tables.cxx_words import narrow_integers, wide_integers

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
WARP_PARTIAL_MASK = D.Code(
    "HPY401",
    "partial-warp-mask",
    D.Severity.WARNING,
    "a warp function with a partial or computed mask (HIP >= 6.2): lane numbers differ on wave64",
    why="HIP's masks are 64-bit and a gfx942 wavefront has lanes 0-63; a mask built for 32 "
    "lanes leaves half the wavefront out.  The mask is given a 64-bit type (HIP rejects a "
    "32-bit mask type at compile time), which keeps the same lane numbers: a mask that was "
    "meant as every lane (a 32-bit full mask in a parameter or variable) then names lanes "
    "0-31 only.",
    example="__shfl_xor_sync(0x0000ffff, v, 1, 16)",
    fix="Build the mask as unsigned long long over warpSize lanes (__ballot_sync, __activemask); "
    "use 0xffffffffffffffffULL for every lane.",
)
WARP_MASK_NEEDS_62 = D.Code(
    "HPY402",
    "masked-warp-function-needs-hip-6.2",
    D.Severity.ERROR,
    "a warp function with a partial, computed or side-effecting mask has no counterpart "
    "before HIP 6.2; left unchanged",
    why="HIP < 6.2 has only the mask-less __shfl/__ballot/__any/__all, which act on every active "
    "lane; which rewrite keeps the meaning of a mask depends on which lanes execute the call, "
    "which only the author knows, so the call is left (and does not compile).",
    example="__ballot_sync(lanes, pred)  // with --hip-version 5.7",
    fix="Apply the rewrite the hint gives when it holds ((__ballot(pred) & (lanes)) for a vote "
    "whose mask names lanes that all execute it; the mask-less shuffle when the mask names "
    "exactly the lanes taking part), or target HIP >= 6.2.",
)
WARP_NARROW_BALLOT = D.Code(
    "HPY403",
    "narrow-ballot-result",
    D.Severity.WARNING,
    "a ballot / active mask result kept in 32 bits (variable, field, return value, cast) "
    "or given to a 32-bit bit function",
    why="HIP returns one bit per lane of a wave64: 64 bits.  A 32-bit variable, __popc or __clz "
    "sees lanes 0-31 only.",
    example="unsigned b = __ballot_sync(~0u, x > 0);\nauto c = __ballot_sync(~0u, y > 0);\nint n = "
    "__clz(c);",
    fix="Use unsigned long long and __popcll / __ffsll / __clzll / __brevll (__popc and __ffs of a "
    "ballot, or of a 64-bit variable holding one, are rewritten).",
)
WARP_SYNCWARP = D.Code(
    "HPY404",
    "syncwarp-helper",
    D.Severity.INFO,
    "__syncwarp became hipify_py_syncwarp, a helper defined at the top of the file",
    why="HIP declares no __syncwarp; a wavefront runs in lockstep, so a wavefront barrier "
    "with release/acquire fences gives the same ordering.",
    example="__syncwarp();",
    fix="Nothing; where the code relies on __syncwarp(mask) synchronising part of a warp, check "
    "that a wavefront barrier is right.",
)
WARP_SYNC_OPT_IN = D.Code(
    "HPY405",
    "warp-sync-opt-in",
    D.Severity.INFO,
    "the _sync warp functions need HIP >= 6.2; defined HIP_ENABLE_WARP_SYNC_BUILTINS, which "
    "HIP 6.2 to 6.4 need for them",
    why="HIP 6.2 to 6.4 declare __shfl_sync, __ballot_sync, ... only when "
    "HIP_ENABLE_WARP_SYNC_BUILTINS is defined before <hip/hip_runtime.h>; HIP 7.0 declares them by "
    "default (6.4.3's and 7.2.4's amd_warp_sync_functions.h).",
    example="v += __shfl_down_sync(0xffffffff, v, 1);  // with --hip-version 6.2",
    fix="With HIP 6.2-6.4, nothing (if another header includes hip_runtime.h first, compile "
    "with -DHIP_ENABLE_WARP_SYNC_BUILTINS); with an older HIP, translate with its "
    "--hip-version, which gives the mask-less __shfl forms.",
)
WARP_MASK_PARAMETER = D.Code(
    "HPY406",
    "mask-parameter-widened",
    D.Severity.WARNING,
    "a mask parameter whose default is CUDA's full mask was made 64-bit (HIP >= 6.2)",
    why="HIP's masks are 64-bit.  Cast to 64 bits, the 32-bit full mask 0xffffffff names "
    "lanes 0-31 only, so the parameter's type and default are widened; calls from other "
    "files that pass a mask explicitly are not seen.",
    example="__device__ float shfl_down(float v, int d, unsigned mask = 0xffffffff)\n"
    "{ return __shfl_down_sync(mask, v, d); }",
    fix="Make callers elsewhere pass a 64-bit mask (0xffffffffffffffffULL for every lane).",
)
WARP_SHUFFLE_TYPE = D.Code(
    "HPY407",
    "shuffle-type-needs-hip-6.2",
    D.Severity.ERROR,
    "a shuffle of a bfloat16 value, which HIP < 6.2 has no __shfl overload for",
    why="HIP 5.7's __shfl, __shfl_up, __shfl_down and __shfl_xor take int, unsigned, float, "
    "double, 64-bit integers, __half and __half2; the translated call does not compile.",
    example="__nv_bfloat16 b = x[i];\nb = __shfl_xor_sync(0xffffffff, b, 1);",
    fix="Shuffle the raw bits: __ushort_as_bfloat16(__shfl_xor(__bfloat16_as_ushort(b), 1)).",
)

SYNC_BUILTINS = (6, 2, 0)  # the _sync forms appear (ROCm 6.2)
SYNC_BUILTINS_ON_BY_DEFAULT = (7, 0, 0)  # no opt-in macro needed any more (ROCm 7.0)
OPT_IN_MACRO = "HIP_ENABLE_WARP_SYNC_BUILTINS"
FULL_MASK_64 = "0xffffffffffffffffULL"
MASK_TYPE_64 = "unsigned long long"
SYNCWARP = "hipify_py_syncwarp"
BALLOTS = frozenset({"__ballot_sync", "__activemask", "__ballot"})
_BIT_COUNTS = {"__popc": "__popcll", "__ffs": "__ffsll"}  # provably the same on 64 bits
_BIT_REPORT = {"__clz": "__clzll", "__brev": "__brevll"}
_QUALIFIERS = re.compile(
    r"\b(?:const|constexpr|static|volatile|register|extern|inline|__shared__|__device__|"
    r"__host__|__forceinline__|__global__|__constant__)\b"
)
# element types HIP 5.7.1 has no __shfl overload for (amd_hip_bf16.h declares none)
_UNSHUFFLABLE = re.compile(r"\b(?:__nv_bfloat162?|nv_bfloat162?|__hip_bfloat162?|hip_bfloat16)\b")

_FULL = re.compile(
    r"^(?:0[xX][fF]{8}|0[xX][fF]{16}|4294967295|18446744073709551615|~0|~0[xX]0+|-1)"
    r"[uUlL]*$|^(?:UINT_MAX|UINT32_MAX|ULLONG_MAX|UINT64_MAX|~0[uUlL]*)$"
)
_FULL_64 = re.compile(
    r"^(?:0[xX][fF]{16}[uUlL]*|~0[uU]?(?:ll|LL)|ULLONG_MAX|UINT64_MAX|18446744073709551615[uUlL]*)$"
)
_MASK_TYPES = (
    r"unsigned(?:\s*int)?|uint32_t|std::uint32_t|unsigned\s*long\s*long(?:\s*int)?|uint64_t|"
    r"std::uint64_t|unsigned\s*long"
)
_CAST = re.compile(rf"^(?:\((?:{_MASK_TYPES})\)|static_cast<\s*(?:{_MASK_TYPES})\s*>)")
_FUNCTIONAL_CAST = re.compile(rf"^(?:{_MASK_TYPES})\s*[({{](.*)[)}}]$", re.S)
_WIDE_CAST = re.compile(
    r"^\(\s*(?:unsigned\s+long\s+long(?:\s+int)?|uint64_t)\s*\)|"
    r"^static_cast<\s*(?:unsigned\s+long\s+long|uint64_t)\s*>"
)
_INTEGER = re.compile(r"^(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")
_SIDE_EFFECTS = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)")


@cache
def _wide_types() -> frozenset[str]:
    """64 bits on LP64 Linux (unsigned long included), or deduced from the ballot."""
    return wide_integers() | {"auto"}


def legacy_names(ctx: Context) -> dict[str, str]:
    """The _sync warp functions and their mask-less pre-6.2 forms (``__shfl_sync``
    -> ``__shfl``): the ``older_hip`` of their rows in mappings/device.curated.yaml."""
    cached = ctx.facts.warp_legacy
    if cached is not None:
        return cached
    names: dict[str, str] = {}
    for name in sorted(OWNED_BY_RULES):
        row = ctx.table.lookup(name)
        if row is not None and row.older_hip:
            names[name] = row.older_hip
    ctx.facts.warp_legacy = names
    return names


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
    if calls:
        # a warp function, kept or rewritten to its mask-less form, is HIP runtime
        # API: the file needs <hip/hip_runtime.h> as the rewritten name would on
        # a second run (found by fuzz/fuzz_engine.py: translation was not idempotent)
        ctx.uses_runtime = True
    modern = ctx.target_hip >= SYNC_BUILTINS
    legacy = legacy_names(ctx)
    ctx.facts.warp_mask_args = {
        c.args[0][0] for c in calls if c.name in legacy and c.args
    }  # where each mask argument starts: a parameter used only there is only a mask
    first_needing: _Call | None = None
    dropped: list[tuple[int, int]] = []  # mask arguments deleted (calls inside go with them)
    ctx.facts.warp_dropped = dropped
    for call in sorted(calls, key=lambda c: c.start):
        # the regions are disjoint and in file order: only the last can hold a later call
        if dropped and dropped[-1][0] <= call.start < dropped[-1][1]:
            continue
        if call.name == "__syncwarp":
            _syncwarp(ctx, call)
        elif (
            _activemask(ctx, call, modern)
            if call.name == "__activemask"
            else _masked(ctx, call, modern)
        ):
            first_needing = first_needing or call  # the file needs the opt-in macro
        if call.name.startswith("__shfl") and not modern:
            _check_shuffle_type(ctx, call)
        if call.name in BALLOTS and call.node is not None:
            _check_width(ctx, call)
    # (a #define in a comment does not count)
    already = directive_in(ctx, re.compile(rf"#[ \t]*define[ \t]+{OPT_IN_MACRO}\b"))
    if first_needing is not None and ctx.target_hip < SYNC_BUILTINS_ON_BY_DEFAULT and not already:
        ctx.before_runtime.append(
            f"#ifndef {OPT_IN_MACRO}{_nl(ctx)}#define {OPT_IN_MACRO}{_nl(ctx)}#endif{_nl(ctx)}"
        )
        ctx.report(
            WARP_SYNC_OPT_IN,
            first_needing.start,
            f"the _sync warp functions need HIP >= {_v(SYNC_BUILTINS)}; defined {OPT_IN_MACRO}: "
            f"HIP {_v(SYNC_BUILTINS)}-6.4 declares them only when it is defined before "
            "<hip/hip_runtime.h>",
            hint=f"if another header includes hip_runtime.h first, compile with -D{OPT_IN_MACRO}; "
            "with HIP < 6.2 translate with --hip-version of that HIP (mask-less __shfl forms)",
        )


def _in_helper(text: str, start: int) -> bool:
    # CR-only line endings too (fuzz finding: the helper's own __syncwarp was
    # rewritten on a second run of a file with old Mac line endings)
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    return text.startswith(f"#define {SYNCWARP}(", line_start)


def _converted(ctx: Context, call: _Call) -> None:
    ctx.stats.converted[("device", "function")] += 1
    ctx.references.append(
        (call.start, call.name, legacy_names(ctx).get(call.name, call.name), "device")
    )


def _unconverted(ctx: Context, call: _Call) -> None:
    ctx.stats.unconverted[call.name] += 1
    ctx.stats.unconverted_library["device"] += 1


def _nl(ctx: Context) -> str:
    return ctx.info.newline.decode("latin-1")


def _v(version: tuple[int, ...]) -> str:
    return ".".join(str(p) for p in version[:2])


def _fold(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ call sites


def _code_call(ctx: Context, name: str, node: tree_sitter.Node) -> _Call | None:
    call = call_naming(node)
    if call is None:
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


def mask_kind(ctx: Context, text: str, at: int, depth: int = 0) -> str:
    """full | full64 | active | partial | computed, for the text of a mask used
    at offset ``at`` (names are resolved as the compiler sees them there)."""
    return _mask(ctx, text, at, depth)[0]


def _mask(ctx: Context, text: str, at: int, depth: int = 0) -> tuple[str, Declared | None]:
    """The kind of a mask, and the declaration a mask that is one name refers to."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and balanced(text[1:-1]):
        text = text[1:-1].strip()
    cast = _CAST.match(text)
    if cast:
        return _mask(ctx, text[cast.end() :], at, depth)
    functional = _FUNCTIONAL_CAST.match(text)
    if functional and balanced(functional.group(1)):
        return _mask(ctx, functional.group(1), at, depth)
    compact = text.replace(" ", "")
    if _FULL_64.match(compact):
        return "full64", None
    if _FULL.match(compact):
        return "full", None
    if compact in ("__activemask()", "__ballot(1)", "__ballot(true)"):
        return "active", None
    if _INTEGER.match(compact):
        return "partial", None
    if _IDENT.match(compact) and depth < 4:
        found = visible(ctx, compact, at)
        if found is None:
            return "computed", None
        if found.value is not None and (
            found.kind in ("define", "file")
            or (found.kind == "local" and (found.const or _only_masks_after(ctx, found)))
        ):
            kind = _mask(ctx, found.value, at, depth + 1)[0]
            return ("full" if kind == "full64" else kind), found
        return "computed", found
    return "computed", None


def _masked(ctx: Context, call: _Call, modern: bool) -> bool:
    """A mask-taking call.  Returns whether the file now needs the opt-in macro.

    HIP >= 6.2: the mask must have a 64-bit type; a full 32-bit mask becomes the
    64-bit full mask, a partial or computed one is widened (same lane numbers)
    and reported.  HIP < 6.2: a full mask is dropped (the mask-less forms act
    on the active lanes); a partial or computed one is left and reported with
    the mask-less rewrite that holds when the mask names the lanes taking part.
    """
    if not call.args:
        return False
    mask_start, mask_end = call.args[0]
    mask = ctx.text[mask_start:mask_end].strip()
    kind, declared = _mask(ctx, mask, mask_start)
    if kind == "computed" and declared is not None:
        if declared.kind == "parameter" and _full_default_parameter(ctx, call, declared, modern):
            kind = "via-parameter"
        elif declared.kind == "macro-parameter" and _full_macro_arguments(
            ctx, call, declared, modern
        ):
            kind = "via-macro"
    partial = kind in ("partial", "computed")
    side_effects = _SIDE_EFFECTS.search(mask) is not None
    if modern:
        _converted(ctx, call)
        if kind == "full":
            ctx.edit(mask_start, mask_end, FULL_MASK_64, "warp", structural=False)
        elif partial and _INTEGER.match(mask.replace(" ", "")):
            ctx.edit(mask_start, mask_end, mask.rstrip("uUlL") + "ULL", "warp", structural=False)
        elif partial and not _WIDE_CAST.match(mask):
            # brackets: one group the engine's self-check verifies (fuzz finding: in
            # malformed input such as 0x\xe6fffffff the mask span ends mid-token)
            group = ctx.new_group()
            ctx.edit(mask_start, mask_start, "(unsigned long long)(", "warp", group=group)
            ctx.edit(mask_end, mask_end, ")", "warp", group=group)
        if partial:
            _report_mask(ctx, call, mask, kind, declared)
        return True
    legacy = legacy_names(ctx).get(call.name)
    if len(call.args) < 2 or legacy is None:  # (None: a --mappings table without older_hip)
        return False
    if side_effects or partial:
        _unconverted(ctx, call)
        _report_legacy(ctx, call, mask, kind, declared, side_effects)
        return False
    _converted(ctx, call)
    ctx.edit(call.start, call.end, legacy, "warp", structural=False)
    # drop "mask, " (the text up to the next argument)
    ctx.edit(mask_start, call.args[1][0], "", "warp", structural=False)
    dropped = ctx.facts.warp_dropped
    if dropped is not None:
        dropped.append((mask_start, call.args[1][0]))
    return False


def _mask_source(mask: str, kind: str, declared: Declared | None) -> str:
    if declared is None:
        return f"the {kind} mask {mask!r}"
    what = {
        "parameter": "the parameter",
        "macro-parameter": "the macro parameter",
        "template-parameter": "the template parameter",
        "local": "the variable",
    }.get(declared.kind, "the constant")
    return f"the {kind} mask {mask!r} ({what} {declared.name})"


def _report_mask(
    ctx: Context, call: _Call, mask: str, kind: str, declared: Declared | None
) -> None:
    """HIP >= 6.2: a partial or computed mask, kept with a 64-bit type."""
    default = ""
    if (
        declared is not None
        and declared.value is not None
        and declared.kind in ("parameter", "local")
        and mask_kind(ctx, declared.value, declared.start) in ("full", "full64")
    ):
        what = "default" if declared.kind == "parameter" else "initial value"
        default = (
            f"; its {what} {declared.value} is CUDA's full mask, but cast to 64 bits it "
            "names lanes 0-31 only"
        )
    elif declared is not None and declared.kind == "template-parameter":
        # the template arguments this file gives it (rules/values.py)
        full = sorted(
            leaf
            for leaf in leaf_texts(ctx, declared.name, call.start)
            if leaf != declared.name and mask_kind(ctx, leaf, call.start) in ("full", "full64")
        )
        if full:
            default = (
                f"; an instantiation in this file gives it {full[0]}, CUDA's full mask, but "
                "cast to 64 bits it names lanes 0-31 only (make the parameter 64-bit and pass "
                f"{FULL_MASK_64})"
            )
    ctx.report(
        WARP_PARTIAL_MASK,
        call.start,
        f"{call.name} with {_mask_source(mask, kind, declared)}: a gfx942 wavefront numbers "
        "its lanes 0-63, so a mask written for 32-lane warps names lanes of the first half "
        "only; the mask was given a 64-bit type (HIP rejects 32-bit masks), which keeps "
        "the same lane numbers" + default,
        hint="check that the lanes the mask names are the lanes meant on a 64-lane "
        "wavefront (lane ids from threadIdx.x % warpSize, not % 32); a mask meant as "
        f"'every lane' must be {FULL_MASK_64}",
        name=call.name,
    )


def _report_legacy(
    ctx: Context,
    call: _Call,
    mask: str,
    kind: str,
    declared: Declared | None,
    side_effects: bool,
) -> None:
    """HIP < 6.2: a partial, computed or side-effecting mask; the call stays."""
    legacy = legacy_names(ctx).get(call.name, call.name)
    rest = [_fold(ctx.text[a:b]) for a, b in call.args[1:]]
    pred = rest[0]
    m = _fold(mask)
    if call.name.startswith("__shfl"):
        rewrite = f"{legacy}({', '.join(rest)})"
        hint = (
            f"if the mask names exactly the lanes that execute this call, drop it: {rewrite} "
            "(CUDA leaves reading a lane outside the mask undefined; HIP's shuffle reads any "
            "lane of the 64-lane wavefront)"
        )
    else:
        rewrite = {
            "__ballot_sync": f"(__ballot({pred}) & ({m}))",
            "__any_sync": f"((__ballot({pred}) & ({m})) != 0)",
            "__all_sync": f"((__ballot({pred}) & ({m})) == ({m}))",
        }[call.name]
        hint = (
            f"if every lane the mask names executes this call (CUDA requires it), write "
            f"{rewrite}; lane ids are 0-63 on gfx942"
        )
    if side_effects:
        hint += "; evaluate the mask once, before the call, since its side effects must stay"
    source = (
        f"the mask {mask!r}, which has side effects,"
        if side_effects and kind not in ("partial", "computed")
        else _mask_source(mask, kind, declared)
    )
    ctx.report(
        WARP_MASK_NEEDS_62,
        call.start,
        f"{call.name} with {source} has no HIP {_v(ctx.target_hip)} counterpart (the _sync "
        f"warp functions came in HIP {_v(SYNC_BUILTINS)}; {legacy} takes no mask and acts on "
        "every active lane of the 64-lane wavefront); left unchanged",
        hint=hint + f"; or target HIP >= {_v(SYNC_BUILTINS)}",
        name=call.name,
    )


# ------------------------------------------------------------------ masks through parameters


def _only_mask_uses(ctx: Context, name: str, start: int, end: int) -> bool:
    """Every use of ``name`` in text[start:end] is a warp function's mask."""
    masks = ctx.facts.warp_mask_args
    uses = [p for p in occurrences(ctx.text[start:end], name)]
    return bool(uses) and all(start + p in masks for p in uses)


def _only_masks_after(ctx: Context, declared: Declared) -> bool:
    """A local that is only ever a warp function's mask after its declaration
    (``unsigned mask = 0xffffffff;``) keeps its initial value."""
    node = declared.node
    if node is None or declared.indirect:
        return False
    scope = node.parent
    if scope is None:
        return False
    return _only_mask_uses(ctx, declared.name, node.end_byte, scope.end_byte)


def _full_default_parameter(ctx: Context, call: _Call, declared: Declared, modern: bool) -> bool:
    """``unsigned mask = 0xffffffff`` as a parameter used only as a mask: the
    default is CUDA's full mask, so the call is translated as for a full mask.
    HIP >= 6.2: the parameter becomes ``unsigned long long mask =
    0xffffffffffffffffULL``; explicit masks passed in this file are widened."""
    function = declared.owner
    if (
        function is None
        or declared.value is None
        or declared.node is None
        or mask_kind(ctx, declared.value, declared.start) not in ("full", "full64")
    ):
        return False
    body = function.child_by_field_name("body")
    if body is None or not _only_mask_uses(ctx, declared.name, body.start_byte, body.end_byte):
        return False
    done = ctx.facts.warp_widened_parameters
    if declared.start in done:
        return True
    done.add(declared.start)
    name = function_name(ctx, function)
    if modern:
        type_node, value_node = declared.type_node, declared.value_node
        type_text = _fold(_QUALIFIERS.sub(" ", declared.type_text))
        if type_node is not None and type_text not in ("unsigned long long", "uint64_t"):
            ctx.edit(type_node.start_byte, type_node.end_byte, MASK_TYPE_64, "warp")
        if value_node is not None and mask_kind(ctx, declared.value, declared.start) == "full":
            ctx.edit(value_node.start_byte, value_node.end_byte, FULL_MASK_64, "warp")
        ctx.report(
            WARP_MASK_PARAMETER,
            declared.start,
            f"the mask parameter {declared.name} of {name} defaults to CUDA's full mask "
            f"{declared.value}: made {MASK_TYPE_64} with the default {FULL_MASK_64} (HIP's "
            "masks are 64-bit; a 32-bit full mask cast to 64 bits names lanes 0-31 only)",
            hint=f"callers in other files that pass the mask must pass a 64-bit one "
            f"({FULL_MASK_64} for every lane); those in this file were checked",
            name=declared.name,
        )
    _check_callers(ctx, function, name, declared, modern)
    return True


def _check_callers(
    ctx: Context, function: tree_sitter.Node, name: str, declared: Declared, modern: bool
) -> None:
    """Calls of ``name`` in this file that pass the mask parameter explicitly."""
    if not name:
        return
    scanner = scanner_of(ctx)
    for start in occurrences(ctx.text, name):
        if function.start_byte <= start < function.end_byte:
            continue
        where, node = scanner.classify(start, start + len(name))
        if where != "code" or node is None:
            continue
        if node.parent is not None and node.parent.type == "template_function":
            node = node.parent
        callee = call_naming(node)
        if callee is None:
            continue
        arguments = callee.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        if len(args) <= declared.index:
            continue
        arg = args[declared.index]
        text = ctx.node_text(arg)
        kind = mask_kind(ctx, text, arg.start_byte)
        if kind == "full" and modern:
            ctx.edit(arg.start_byte, arg.end_byte, FULL_MASK_64, "warp", structural=False)
        elif kind not in ("full", "full64", "active"):
            ctx.report(
                WARP_PARTIAL_MASK,
                arg.start_byte,
                f"{name} is given the {kind} mask {_fold(text)!r} for its mask parameter "
                f"{declared.name}"
                + (
                    ": lane numbers differ on a 64-lane wavefront"
                    if modern
                    else f", which HIP {_v(ctx.target_hip)}'s mask-less warp functions ignore"
                ),
                hint="check which lanes the mask names on a 64-lane wavefront"
                if modern
                else f"pass a full mask, or target HIP >= {_v(SYNC_BUILTINS)}",
                name=name,
            )


def _macro_invocations(ctx: Context, macro: tree_sitter.Node) -> list[_Call] | None:
    """Every use of a function-like macro in this file, or None if one cannot be split."""
    name_node = macro.child_by_field_name("name")
    if name_node is None:
        return None
    name = ctx.node_text(name_node)
    scanner = scanner_of(ctx)
    found = []
    for start in occurrences(ctx.text, name):
        if start == name_node.start_byte:
            continue
        where, _ = scanner.classify(start, start + len(name))
        if where not in ("code", "macro"):
            continue
        line_start = ctx.text.rfind("\n", 0, start) + 1
        if re.match(r"[ \t]*#[ \t]*(?:undef|ifn?def|if|elif)\b", ctx.text[line_start:start]):
            continue
        call = _multiline_call(ctx, name, start) if where == "code" else None
        call = call or _text_call(ctx.text, name, start)
        if call is None:
            return None
        found.append(call)
    return found


def _multiline_call(ctx: Context, name: str, start: int) -> _Call | None:
    node = ctx.root.descendant_for_byte_range(start, start + len(name))
    if node is None:
        return None
    return _code_call(ctx, name, node)


def _full_macro_arguments(ctx: Context, call: _Call, declared: Declared, modern: bool) -> bool:
    """``#define SHFL(mask, v, o) __shfl_xor_sync(mask, v, o)`` whose every use in
    this file passes a full mask, and whose body uses ``mask`` only as a mask:
    translated as for a full mask.  HIP >= 6.2: the full masks passed are
    widened at each use (the body keeps the parameter, so a 32-bit mask passed
    from elsewhere still fails to compile instead of naming half the lanes)."""
    macro = declared.owner
    value = macro.child_by_field_name("value") if macro is not None else None
    if macro is None or value is None:
        return False
    if not _only_mask_uses(ctx, declared.name, value.start_byte, value.end_byte):
        return False
    invocations = _macro_invocations(ctx, macro)
    if not invocations:
        return False
    arguments = []
    for use in invocations:
        if len(use.args) <= declared.index:
            return False
        start, end = use.args[declared.index]
        kind = mask_kind(ctx, ctx.text[start:end], start)
        if kind not in ("full", "full64"):
            return False
        arguments.append((start, end, kind))
    if modern:
        done = ctx.facts.warp_widened_arguments
        for start, end, kind in arguments:
            if kind == "full" and start not in done:
                done.add(start)
                ctx.edit(start, end, FULL_MASK_64, "warp", structural=False)
    return True


# ------------------------------------------------------------------ shuffle element types


def _check_shuffle_type(ctx: Context, call: _Call) -> None:
    """HIP < 6.2: __shfl has no bfloat16 overload (HIP 5.7.1's headers)."""
    index = 1 if call.name.endswith("_sync") else 0
    if len(call.args) <= index:
        return
    start, end = call.args[index]
    value = ctx.text[start:end].strip()
    while value.startswith("(") and value.endswith(")") and balanced(value[1:-1]):
        value = value[1:-1].strip()
    element = re.fullmatch(r"\*?\s*([A-Za-z_]\w*)\s*(\[[^\[\]]*\])?", value)
    if element is None:
        return
    found = visible(ctx, element.group(1), start)
    if found is None or found.kind == "define" or not found.type_text:
        return
    through = value.startswith("*") or element.group(2) is not None
    if through != found.indirect:
        return  # b[i] of a plain value, or a pointer itself: not the element type
    match = _UNSHUFFLABLE.search(found.type_text)
    if match is None:
        return
    type_name = match.group()
    legacy = legacy_names(ctx).get(call.name, call.name)
    rest = [_fold(ctx.text[a:b]) for a, b in call.args[index + 1 :]]
    pair = type_name.endswith("2")
    if pair:
        hint = (
            f"shuffle the two halves' bits: .x and .y each as "
            f"__ushort_as_bfloat16({legacy}(__bfloat16_as_ushort({value}.x), "
            f"{', '.join(rest)})), or the 32 bits as an unsigned int (memcpy)"
        )
    else:
        hint = (
            f"shuffle the raw bits: __ushort_as_bfloat16({legacy}(__bfloat16_as_ushort("
            f"{value}), {', '.join(rest)})) (in HIP 5.7 __hip_bfloat16 is a struct whose "
            "unsigned short member is data)"
        )
    ctx.report(
        WARP_SHUFFLE_TYPE,
        call.start,
        f"{call.name} of {value}, a {type_name}: HIP {_v(ctx.target_hip)}'s {legacy} has no "
        "bfloat16 overload (int, unsigned, float, double, 64-bit integers, __half and __half2 "
        "only), so the translated call does not compile",
        hint=hint,
        name=call.name,
    )


# ------------------------------------------------------------------ activemask, syncwarp


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
    close = ctx.text.find(")", call.args[-1][1] if call.args else call.end)
    return close + 1 if close != -1 else call.end


def _syncwarp(ctx: Context, call: _Call) -> None:
    _converted(ctx, call)
    ctx.edit(call.start, call.end, SYNCWARP, "warp", structural=False)
    helper_present = "HIPIFY_PY_SYNCWARP" in ctx.text
    if not helper_present and (not ctx.after_runtime or SYNCWARP not in ctx.after_runtime[-1]):
        ctx.after_runtime.append(_syncwarp_helper(_nl(ctx)))
        ctx.report(
            WARP_SYNCWARP,
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


def _base_type(type_text: str) -> str:
    return _fold(_QUALIFIERS.sub(" ", type_text))


_TYPEDEF = re.compile(r"\btypedef\s+((?:[A-Za-z_]\w*\s+)*?[A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*;")
# words separated by whitespace (an optional separator between the words of a
# repetition backtracks exponentially over a long name not followed by ';')
_USING = re.compile(r"\busing\s+([A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*)\s*;")


def _aliases(ctx: Context) -> dict[str, str]:
    """The file's plain type aliases (typedef unsigned int uint; using u32 = ...)."""
    cached = ctx.facts.type_aliases
    if cached is not None:
        return cached
    found: dict[str, str] = {}
    if "typedef" in ctx.text or "using" in ctx.text:
        for match in _TYPEDEF.finditer(ctx.text):
            found[match.group(2)] = match.group(1)
        for match in _USING.finditer(ctx.text):
            found[match.group(1)] = match.group(2)
    ctx.facts.type_aliases = found
    return found


def _resolved(ctx: Context, type_text: str) -> str:
    """The base type, through the file's aliases (``uint`` -> ``unsigned int``)."""
    folded = _base_type(type_text)
    aliases = _aliases(ctx)
    for _ in range(8):  # alias chains are short; a cycle stops here
        target = aliases.get(folded)
        if target is None:
            break
        folded = _base_type(target)
    return folded


def _check_width(ctx: Context, call: _Call) -> None:
    """Ballot results are 64-bit in HIP: a 32-bit variable or __popc loses lanes."""
    assert call.node is not None
    node = call.node
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        node, parent = parent, parent.parent
    if parent is None:
        return
    if (
        parent.type in ("argument_list", "initializer_list")
        and parent.parent is not None
        and parent.parent.type == "init_declarator"  # unsigned m(__ballot(...)) / m{...}
    ):
        node, parent = parent, parent.parent
    if parent.type == "init_declarator" and parent.child_by_field_name("value") == node:
        declaration = parent.parent
        if declaration is None or declaration.type not in ("declaration", "field_declaration"):
            return
        ident, indirect, _ = declared_name(parent)
        type_text = _resolved(ctx, declared_type(ctx, declaration))
        if indirect or ident is None:
            return
        if type_text in narrow_integers():
            _report_width(ctx, call, f"stored in {ctx.node_text(ident)} ({type_text})")
        elif type_text in _wide_types():
            _wide_variable(ctx, ctx.node_text(ident), ident.start_byte)
        return
    if parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
        _assigned(ctx, call, parent)
        return
    if parent.type == "cast_expression":
        type_node = parent.child_by_field_name("type")
        type_text = _resolved(ctx, ctx.node_text(type_node)) if type_node is not None else ""
        if type_text in narrow_integers():
            _report_width(ctx, call, f"cast to {type_text}")
        return
    if parent.type == "return_statement":
        function = parent.parent
        while function is not None and function.type not in (
            "function_definition",
            "lambda_expression",
        ):
            function = function.parent
        if function is None or function.type != "function_definition":
            return
        declarator = function.child_by_field_name("declarator")
        if declarator is None or declarator.type != "function_declarator":
            return  # returns a pointer or reference
        type_text = _resolved(ctx, declared_type(ctx, function))
        if type_text in narrow_integers():
            _report_width(ctx, call, f"returned as {type_text} from {function_name(ctx, function)}")
        return
    if parent.type == "argument_list":
        _bit_function(ctx, call, parent)


def _assigned(ctx: Context, call: _Call, assignment: tree_sitter.Node) -> None:
    left = assignment.child_by_field_name("left")
    if left is None:
        return
    if left.type == "identifier":
        found = visible(ctx, ctx.node_text(left), left.start_byte)
        if found is None or found.indirect or found.kind in ("define", "macro-parameter"):
            return
        type_text = _resolved(ctx, found.type_text)
        if type_text in narrow_integers():
            _report_width(ctx, call, f"assigned to {found.name} ({type_text})")
        elif type_text in _wide_types():
            _wide_variable(ctx, found.name, found.start)
    elif left.type == "field_expression":
        field = left.child_by_field_name("field")
        if field is None:
            return
        types = _field_types(ctx, ctx.node_text(field))
        if types and all(t in narrow_integers() for t in types):
            _report_width(
                ctx, call, f"stored in the field {ctx.node_text(field)} ({sorted(types)[0]})"
            )
    elif left.type == "subscript_expression":
        array = left.child_by_field_name("argument")
        if array is None or array.type != "identifier":
            return
        found = visible(ctx, ctx.node_text(array), array.start_byte)
        element = _resolved(ctx, found.type_text) if found is not None else ""
        if found is not None and found.indirect and element in narrow_integers():
            _report_width(ctx, call, f"stored in an element of {found.name} ({element})")


def _field_types(ctx: Context, field: str) -> set[str]:
    """The types of the struct or class fields named ``field`` in this file."""
    types = set()
    for start in occurrences(ctx.text, field):
        node = ctx.root.descendant_for_byte_range(start, start + len(field))
        if node is None or node.type != "field_identifier":
            continue
        declarator = node
        while declarator.parent is not None and declarator.parent.type in (
            "init_declarator",
            "pointer_declarator",
            "array_declarator",
            "reference_declarator",
            "bitfield_clause",
        ):
            declarator = declarator.parent
        declaration = declarator.parent
        if declaration is None or declaration.type != "field_declaration":
            continue
        if declarator is not node and declarator.type != "init_declarator":
            types.add("pointer or array")
            continue
        types.add(_resolved(ctx, declared_type(ctx, declaration)))
    return types


def _wide_variable(ctx: Context, name: str, declared_at: int) -> None:
    """A 64-bit variable holding a ballot: __popc(b) and friends on it."""
    done = ctx.facts.warp_wide_variables
    if declared_at in done:
        return
    done.add(declared_at)
    node = ctx.root.descendant_for_byte_range(declared_at, declared_at + len(name))
    function = node
    while function is not None and function.type not in (
        "function_definition",
        "lambda_expression",
        "translation_unit",
    ):
        function = function.parent
    if function is None:
        return
    for offset in occurrences(ctx.text[function.start_byte : function.end_byte], name):
        start = function.start_byte + offset
        if start <= declared_at:
            continue
        use = ctx.root.descendant_for_byte_range(start, start + len(name))
        if use is None or use.type != "identifier":
            continue
        outer = use.parent
        while outer is not None and outer.type == "parenthesized_expression":
            outer = outer.parent
        if outer is None or outer.type != "argument_list" or len(outer.named_children) != 1:
            continue
        found = visible(ctx, name, start)
        if found is None or found.start != declared_at:
            continue  # another variable of the same name
        _bit_function(ctx, None, outer, name)


def _bit_function(
    ctx: Context, call: _Call | None, arguments: tree_sitter.Node, variable: str = ""
) -> None:
    """__popc / __ffs of a 64-bit ballot become __popcll / __ffsll; __clz and
    __brev are reported."""
    outer = arguments.parent
    function = outer.child_by_field_name("function") if outer is not None else None
    callee = ctx.node_text(function) if function is not None else ""
    if function is None or outer is None:
        return
    if callee in _BIT_COUNTS:
        ctx.edit(
            function.start_byte, function.end_byte, _BIT_COUNTS[callee], "warp", structural=False
        )
    elif callee in _BIT_REPORT:
        what = f"{variable}, which holds a 64-bit ballot," if variable else ""
        ctx.report(
            WARP_NARROW_BALLOT,
            call.start if call is not None else outer.start_byte,
            (
                f"the result of {call.name} is 64-bit in HIP (one bit per lane of a wave64), "
                f"passed to {callee}, which takes 32 bits: lanes 32-63 are lost"
                if call is not None
                else f"{callee}({variable}): {what} is cut to 32 bits by {callee}, so lanes "
                "32-63 are lost"
            ),
            hint=f"use {_BIT_REPORT[callee]} (and check the arithmetic on its result: "
            "64 bits, not 32)",
            name=callee,
        )


def _report_width(ctx: Context, call: _Call, how: str) -> None:
    ctx.report(
        WARP_NARROW_BALLOT,
        call.start,
        f"the result of {call.name} is 64-bit in HIP (one bit per lane of a wave64), {how}: "
        "lanes 32-63 are lost",
        hint="keep it in an unsigned long long and count it with __popcll / __ffsll / __clzll",
        name=call.name,
    )


RULE = Rule(
    id="warp",
    run=run,
    codes=(
        WARP_MASK_NEEDS_62.code,
        WARP_MASK_PARAMETER.code,
        WARP_NARROW_BALLOT.code,
        WARP_PARTIAL_MASK.code,
        WARP_SHUFFLE_TYPE.code,
        WARP_SYNCWARP.code,
        WARP_SYNC_OPT_IN.code,
    ),
    needs=("options",),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__global__ void k(int* o, int v) { o[0] = "
                "__shfl_sync(0xffffffff, v, 0); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__global__ void k(int* o, int v) { o[0] = "
                "__shfl_sync(0xffffffffffffffffULL, v, 0); }\n"
            ),
        ),
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "__global__ void k(int* o, int v, unsigned m) { o[0] = "
                "__shfl_sync(m, v, 0); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "__global__ void k(int* o, int v, unsigned m) { o[0] = "
                "__shfl_sync((unsigned long long)(m), v, 0); }\n"
            ),
            frozenset({"HPY401"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(int* o, int v) { o[0] = "
            "__shfl_sync(0xffffffffffffffffULL, v, 0); }\n"
        ),
    ),
)
