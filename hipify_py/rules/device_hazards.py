"""Device facts that differ on AMD and compile silently: fp8 formats, texture
references and fetches, cudaDeviceProp values, half2 members."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.lexer import matches_at, offsets_of
from hipify_py.engine.words import occurrences
from hipify_py.rules.identifiers import scanner_of
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.tables.table import Row
from hipify_py.tables.versions import Version, format_version, parse_version

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
FP8_FORMAT = D.Code(
    "HPY430",
    "fp8-format",
    D.Severity.WARNING,
    "fp8 types and conversions: the formats differ between AMD targets and from CUDA",
    why="gfx942 implements the FNUZ fp8 variants (e4m3: largest value 240 instead of 448, no "
    "negative zero, NaN encoded as 0x80); later targets implement CUDA's OCP formats.",
    example="__nv_fp8_e4m3 x = __nv_fp8_e4m3(1.5f);",
    fix="Pick the format with --fp8 fnuz|ocp (the FNUZ types need HIP >= 6.2, the OCP ones HIP "
    ">= 6.3) and check results that depend on range or NaN.",
)
TEXTURE_REFERENCE = D.Code(
    "HPY440",
    "texture-reference",
    D.Severity.ERROR,
    "a texture or surface reference (texture<T, dim>, surface<void, dim>)",
    why="Texture references were removed in CUDA 12 and are deprecated in HIP.  hipcc 5.7 for "
    "gfx942 rejects surface references (no template named 'surface') and every fetch through "
    "a texture reference (gfx942 has no texture hardware).",
    example="texture<float, 1, cudaReadModeElementType> tex;",
    fix="Read the data with global loads.",
)
TEXTURE_FETCH = D.Code(
    "HPY441",
    "texture-fetch",
    D.Severity.ERROR,
    "a texture or surface fetch (tex1Dfetch, tex2D, surf2Dread, ...)",
    why="MI300 (gfx942) has no texture sampling units; hipcc 5.7 rejects the fetch there "
    "('tex1Dfetch' is unavailable: The image/texture API not supported on the device).",
    example="float v = tex1Dfetch<float>(tex, i);",
    fix="Replace the fetch with a global load and do filtering or addressing by hand.",
)
DEVICE_PROP_VALUE = D.Code(
    "HPY450",
    "device-prop-differs",
    D.Severity.INFO,
    "a cudaDeviceProp field or device attribute whose value differs on AMD GPUs (shared "
    "memory, registers, compute capability, L2)",
    why="Code that sizes work from NVIDIA's numbers, or tests the compute capability, takes the "
    "wrong path on gfx942.",
    example="if (prop.major >= 8) use_tensor_cores();\ncudaDeviceGetAttribute(&v, "
    "cudaDevAttrMaxSharedMemoryPerBlock, dev);",
    fix="Use the values HIP reports, and gcnArchName instead of major/minor.",
)
DEVICE_WARP_SIZE = D.Code(
    "HPY451",
    "device-warp-size-query",
    D.Severity.WARNING,
    "the warp size read from the device (cudaDeviceProp::warpSize, cudaDevAttrWarpSize): 64 "
    "on gfx942",
    why="Host code that reads the warp size usually goes on to size masks, shared arrays or "
    "lane math for 32 lanes; on gfx942 the value is 64, so those sizes are half of what the "
    "wavefront needs.",
    example="int lanes = prop.warpSize;\nunsigned full = (1u << lanes) - 1;  // 32-bit mask",
    fix="Keep using the value, and make everything sized by it work for 64: 64-bit masks, "
    "blockDim.x / warpSize warps per block.",
)
DEVICE_PROP_FIELD_MISSING = D.Code(
    "HPY452",
    "device-prop-field-missing",
    D.Severity.WARNING,
    "a cudaDeviceProp field that the target HIP's hipDeviceProp_t lacks (added in HIP 6.0, "
    "removed, or named differently)",
    why="hipDeviceProp_t gained most of cudaDeviceProp's fields in HIP 6.0 (HIP 5.7.1 lacks "
    "unifiedAddressing, asyncEngineCount, the texture and surface limits, ...), and a few "
    "CUDA fields have other names in HIP; the access does not compile.",
    example="if (prop.unifiedAddressing) ...   // --hip-version 5.7",
    fix="Target a HIP that has the field, use the HIP name the hint gives, or query the value "
    "with hipDeviceGetAttribute.",
)
HALF2_MEMBER = D.Code(
    "HPY460",
    "half2-member",
    D.Severity.WARNING,
    "half2 .x / .y member access",
    why="In CUDA they are __half values; in HIP they are the raw unsigned short bits, so "
    "arithmetic on them silently uses the bit pattern as an integer.",
    example="float lo = __half2float(h.x);\nfloat hi = __half2float(hp[i].y);",
    fix="Use __low2half(h) / __high2half(h).",
)
BF16_NO_OPERATORS = D.Code(
    "HPY461",
    "bf16-no-operators",
    D.Severity.WARNING,
    "bfloat16 used with a target HIP whose __hip_bfloat16 has no operators",
    why="HIP 5.7.1's __hip_bfloat16 is a plain struct: `a + b`, `a < b` and `float(a)` do not "
    "compile (hipcc 5.7.1), where CUDA's __nv_bfloat16 has them; HIP 6.4.3 and 7.2.4 have them.",
    example="__nv_bfloat16 s = a + b;  // with --hip-version 5.7",
    fix="Use the functions (__hadd, __hlt, __bfloat162float, __float2bfloat16), or target a "
    "newer HIP.",
)

FP8_PREFIXES = (
    "__nv_fp8",
    "__NV_E4M3",
    "__NV_E5M2",
    "__nv_cvt_fp8",
    "__nv_cvt_float2_to_fp8",
    "__nv_cvt_float_to_fp8",
    "__nv_cvt_halfraw",
    "__nv_cvt_bfloat16raw",
    "__nv_cvt_double",
)
_TEXTURE_TYPES = re.compile(r"(?<![\w])(texture|surface)\s*<")
_FETCHES = re.compile(
    r"(?<![\w.>])(tex1Dfetch|tex1D|tex2D|tex3D|tex1DLayered|tex2DLayered|texCubemap\w*|tex2Dgather|"
    r"tex1DLod|tex2DLod|tex3DLod|tex1DGrad|tex2DGrad|tex3DGrad|surf1Dread|surf2Dread|surf3Dread|"
    r"surf1Dwrite|surf2Dwrite|surf3Dwrite)\s*(?:<[^<>;]*>)?\s*\("
)
_AFTER_TYPE = re.compile(r"\s*(?:>\s*)?[*&]*\s*(?:const\s+)?(\w+)")
PROP_DATA = Path(__file__).resolve().parent.parent / "data" / "device_prop_fields.yaml"


class PropField(NamedTuple):
    """A cudaDeviceProp field as hipDeviceProp_t has it (device_prop_fields.yaml)."""

    hip: str  # its name in HIP
    hip_added: Version | None
    hip_removed: Version | None
    differs: str  # why its value differs on gfx942; "" when it does not
    hint: str
    attribute: str  # the cudaDevAttr enumerator that reads it; "" when none is reported


@cache
def prop_fields() -> dict[str, PropField]:
    import yaml  # only files that name cudaDeviceProp, hipDeviceProp_t or a cudaDevAttr get here

    doc = yaml.safe_load(PROP_DATA.read_text(encoding="utf-8"))
    return {
        name: PropField(
            str(row.get("hip", name)),
            parse_version(str(row["hip_added"])) if "hip_added" in row else None,
            parse_version(str(row["hip_removed"])) if "hip_removed" in row else None,
            str(row.get("differs", "")),
            str(row.get("hint", "")),
            str(row.get("attribute", "")),
        )
        for name, row in doc["fields"].items()
    }


@cache
def _attributes() -> dict[str, str]:
    """cudaDevAttr enumerator -> the cudaDeviceProp field it reads."""
    return {field.attribute: name for name, field in prop_fields().items() if field.attribute}


@cache
def _prop_access() -> re.Pattern[str]:
    return re.compile(rf"(?:\.|->)\s*({'|'.join(sorted(prop_fields()))})(?![\w])")


_AFTER_HALF2 = re.compile(r"\s*[*&]?\s*(\w+)\s*[=;,)\[{]")


def _declared(text: str, types: tuple[str, ...], after: re.Pattern[str]) -> set[str]:
    """Names declared with one of ``types`` (found with str.find: fast)."""
    names = set()
    for type_name in types:
        for start in occurrences(text, type_name):
            match = after.match(text, start + len(type_name))
            if match is not None:
                names.add(match.group(1))
    return names


def run(ctx: Context) -> None:
    _fp8(ctx)
    _textures(ctx)
    _device_prop(ctx)
    _half2_members(ctx)
    _bf16_operators(ctx)


# __hip_bfloat16's operators: absent from HIP 5.7.1's amd_hip_bf16.h (a plain
# struct: hipcc 5.7.1 rejects a + b, a < b, float(a)), present in 6.4.3 and
# 7.2.4; ROCm's release notes put the rewrite of hip_bf16.h in 6.2.
BF16_OPERATORS_ADDED = (6, 2, 0)
_BF16_TYPES = ("__nv_bfloat16", "nv_bfloat16", "__nv_bfloat162", "nv_bfloat162")


def _bf16_operators(ctx: Context) -> None:
    """Once per file, at the first bfloat16 type, when the target lacks them."""
    if ctx.target_hip >= BF16_OPERATORS_ADDED or "bfloat16" not in ctx.text:
        return
    scanner = scanner_of(ctx)
    found = [
        start
        for name in _BF16_TYPES
        if name in ctx.present
        for start in occurrences(ctx.text, name)
        if scanner.classify(start, start + len(name))[0] in ("code", "macro")
    ]
    if not found:
        return
    start = min(found)
    ctx.report(
        BF16_NO_OPERATORS,
        start,
        "HIP < 6.2's __hip_bfloat16 has no arithmetic, comparison or float-conversion operators: "
        "a + b, a < b and float(x) on bfloat16 values do not compile with this target",
        hint="use __hadd / __hlt / __bfloat162float / __float2bfloat16, or target HIP >= 6.2",
        name="__nv_bfloat16",
        end=start + 13,
    )


# hip_fp8.h's OCP types (__hip_fp8_e4m3, __hip_fp8_e5m2, __HIP_E4M3, ...) came
# after the FNUZ ones of ROCm 6.2 (device.curated.yaml's FP8 notes): ROCm 6.3,
# from ROCm's release history (not verified in headers, which are not here).
OCP_FP8_ADDED = (6, 3, 0)
FNUZ_FP8_ADDED = (6, 2, 0)  # hip_fp8.h itself (device.curated.yaml: hip_added 6.2.0)


def _fp8_hardware(arch: str) -> str | None:
    """The fp8 format an AMD target implements (None: no fp8 instructions)."""
    if arch.startswith("gfx94"):
        return "fnuz"
    if arch.startswith(("gfx95", "gfx12")):
        return "ocp"
    return None


def _fp8(ctx: Context) -> None:
    if "__nv_" not in ctx.text and "__NV_" not in ctx.text:
        return  # (every FP8_PREFIXES name holds one; cheaper than a look at every word)
    names = sorted(n for n in ctx.present if n.startswith(FP8_PREFIXES))
    if not names:
        return
    scanner = scanner_of(ctx)
    sites = sorted((start, name) for name in names for start in occurrences(ctx.text, name))
    sites = [
        (start, name)
        for start, name in sites
        if scanner.classify(start, start + len(name))[0] in ("code", "macro")
    ]
    if not sites:
        return
    flavour = ctx.options.fp8_flavour()
    translated = []  # sites renamed, and whether each name is one of a format (e4m3, e5m2)
    formats = False  # does the file use a name of a format at all?
    for start, name in sites:
        row = ctx.table.lookup(name)
        if row is None or row.hip is None:
            continue
        specific = "_fnuz" in row.hip.lower()
        formats = formats or specific
        target = ctx.hip_name_for(row)
        if flavour == "ocp" and target != row.hip and ctx.target_hip < OCP_FP8_ADDED:
            _keep_ocp_name(ctx, row, start, target or "")
        elif any(offset == start for offset, *_ in ctx.references):
            translated.append(specific)
    translated_formats = any(translated) if formats else bool(translated)
    first_start, first = sites[0]
    arch = ctx.options.offload_arch
    hardware = _fp8_hardware(arch)
    detail = (
        "the FNUZ formats (e4m3: max 240, not 448; no negative zero; NaN is 0x80)"
        if flavour == "fnuz"
        else "the OCP formats (CUDA's encodings)"
    )
    if hardware == flavour:
        detail += f", which {arch} implements"
    elif hardware is None:
        detail += f"; {arch} has no fp8 instructions, so conversions are done in software"
    else:
        detail += f", which {arch} lacks in hardware (it implements {hardware.upper()})"
    if translated_formats:
        message = f"{first}: fp8 is translated to {detail}"
        if flavour == "fnuz":
            message += "; values that overflow or are NaN differ from CUDA's"
    else:
        needs = OCP_FP8_ADDED if flavour == "ocp" else FNUZ_FP8_ADDED
        message = (
            f"{first}: fp8 is left unchanged, since the {flavour.upper()} fp8 types of "
            f"hip_fp8.h need HIP >= {format_version(needs)} (target is "
            f"{format_version(ctx.target_hip)}); translated, it would use {detail}"
        )
    ctx.report(
        FP8_FORMAT,
        first_start,
        message,
        hint="choose with --fp8 fnuz|ocp (default: what --offload-arch has); compare "
        "results against a reference",
        name=first,
    )


def _keep_ocp_name(ctx: Context, row: Row, start: int, target: str) -> None:
    """Undo the OCP rename of ``row`` at ``start``: the OCP types need a newer HIP."""
    before = len(ctx.edits)
    ctx.edits[:] = [e for e in ctx.edits if not (e.start == start and e.rule == "rename")]
    if len(ctx.edits) == before:
        return
    ctx.references[:] = [r for r in ctx.references if r[0] != start]
    ctx.stats.converted[(row.library, row.kind)] -= 1
    ctx.stats.unconverted[row.cuda] += 1
    ctx.stats.unconverted_library[row.library] += 1
    ctx.report(
        D.NEEDS_NEWER_HIP,
        start,
        f"{row.cuda} -> {target} (OCP fp8) needs HIP >= {format_version(OCP_FP8_ADDED)} "
        f"(target is {format_version(ctx.target_hip)}); left unchanged",
        hint="raise --hip-version if your ROCm is newer, or use --fp8 fnuz (HIP >= 6.2) on gfx942",
        name=row.cuda,
        end=start + len(row.cuda),
    )


def _textures(ctx: Context) -> None:
    if "tex" not in ctx.text and "surf" not in ctx.text:
        return
    scanner = scanner_of(ctx)
    text = ctx.text
    # (both regexes open with a look-behind: tried only where their words are)
    types = [*offsets_of(text, "texture"), *offsets_of(text, "surface")]
    for match in matches_at(_TEXTURE_TYPES, text, types):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        ctx.report(
            TEXTURE_REFERENCE,
            match.start(),
            f"a {match.group(1)} reference: removed in CUDA 12 and deprecated in HIP; "
            + (
                "HIP has no surface references (hipcc: no template named 'surface')"
                if match.group(1) == "surface"
                else "gfx942 has no texture hardware, so no fetch through it compiles "
                "(hipcc: 'tex1Dfetch' is unavailable on the device)"
            ),
            hint="read the data with ordinary global loads (__ldg) or use texture objects on "
            "GPUs that have image support",
            name=match.group(1),
        )
    for match in matches_at(_FETCHES, text, [*offsets_of(text, "tex"), *offsets_of(text, "surf")]):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        ctx.report(
            TEXTURE_FETCH,
            match.start(1),
            f"{match.group(1)}: texture and surface fetches do not compile for gfx942 (MI300 "
            "has no texture sampling units; hipcc: 'The image/texture API not supported on "
            "the device')",
            hint="replace the fetch with a global load (and do filtering or addressing by hand)",
            name=match.group(1),
        )


_PROP_CALL = re.compile(r"(?<![\w])(\w*(?:DeviceProp|DeviceProperties)\w*)\s*\([^()]*\)")
_INDEX = r"(?:\s*\[[^\[\];]*\])*"
_SOURCE_WINDOW = 400  # how far left of `.field` its variable or call may start


def _device_prop(ctx: Context) -> None:
    scanner = scanner_of(ctx)
    attributes = _attributes() if "cudaDevAttr" in ctx.text else {}
    for attribute in sorted(ctx.present & attributes.keys()):
        for start in occurrences(ctx.text, attribute):
            if scanner.classify(start, start + len(attribute))[0] not in ("code", "macro"):
                continue
            _report_prop(ctx, start, attribute, attributes[attribute])
    if "DeviceProp" not in ctx.text:
        return
    variables = _declared(ctx.text, ("cudaDeviceProp", "hipDeviceProp_t"), _AFTER_TYPE)
    sources = [_PROP_CALL.pattern]
    if variables:
        names = "|".join(map(re.escape, sorted(variables)))
        sources.append(rf"(?<![\w])(?:{names})(?:\s*\([^()]*\))?{_INDEX}")
    # find the few field accesses first, then look left of each for a source:
    # one regex over the whole file with the sources in front backtracks at
    # every position and was most of this rule's time
    source = re.compile(rf"(?:{'|'.join(sources)})\s*\Z")
    text = ctx.text
    for access in matches_at(_prop_access(), text, _access_starts(text)):
        found = _source_of(source, text, access.start(), variables)
        if found is None:
            continue
        word = re.match(r"\w+", text[found.start() : found.end()])
        end = found.start() + (word.end() if word is not None else 1)
        if scanner.classify(found.start(), end)[0] != "code":
            continue
        what = " ".join(text[found.start() : access.end()].split())
        if _field_in_target(ctx, access.start(1), what, access.group(1)):
            _report_prop(ctx, found.start(), what, access.group(1))


def _access_starts(text: str) -> list[int]:
    """Where a _PROP_ACCESS match can start: the ``.`` or ``->`` before a field's
    name, across spaces (\\s is what str.isspace says).  The regex opens with
    an alternation, which re tries at every offset of the file."""
    starts = []
    for field in prop_fields():
        for pos in offsets_of(text, field) if field in text else ():
            while pos > 0 and text[pos - 1].isspace():
                pos -= 1
            if pos > 0 and text[pos - 1] == ".":
                starts.append(pos - 1)
            elif pos > 1 and text[pos - 2 : pos] == "->":
                starts.append(pos - 2)
    return starts


def _source_of(
    source: re.Pattern[str], text: str, end: int, variables: set[str]
) -> re.Match[str] | None:
    """``source.search(text, end - _SOURCE_WINDOW, end)``, tried only where a
    match can start: at a variable's name, or at the start of the word that
    holds "DeviceProp" (both alternatives open with ``(?<![\\w])``).  A search
    tries every offset of the window, and there is a window per access."""
    low = max(0, end - _SOURCE_WINDOW)
    starts = []
    pos = text.find("DeviceProp", low, end)
    while pos != -1:
        start = pos
        while start > low and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1  # (\\w is what isalnum says, and _)
        starts.append(start)
        pos = text.find("DeviceProp", pos + 1, end)
    for name in variables:
        pos = text.find(name, low, end)
        while pos != -1:
            starts.append(pos)
            pos = text.find(name, pos + 1, end)
    for start in sorted(set(starts)):
        found = source.match(text, start, end)
        if found is not None:
            return found
    return None


def _field_in_target(ctx: Context, start: int, what: str, name: str) -> bool:
    """Rename or report a field the target's hipDeviceProp_t has under another
    name or lacks; True when the field is there (its value may still differ)."""
    field = prop_fields()[name]
    target = ctx.target_hip
    missing = ""
    if field.hip_added is not None and target < field.hip_added:
        missing = f"hipDeviceProp_t has {field.hip} from HIP {format_version(field.hip_added)} on"
    elif field.hip_removed is not None and target >= field.hip_removed:
        missing = f"HIP {format_version(field.hip_removed)} removed it from hipDeviceProp_t"
    if missing:
        ctx.report(
            DEVICE_PROP_FIELD_MISSING,
            start,
            f"{what}: {missing} (target: HIP {format_version(target)}), so this does not compile",
            hint=field.hint
            or f"target HIP >= {format_version(field.hip_added or target)}, or query the value "
            "with hipDeviceGetAttribute",
            name=name,
        )
        return False
    if field.hip != name:
        ctx.edit(start, start + len(name), field.hip, "device-prop")
    return bool(field.differs)


def _report_prop(ctx: Context, start: int, what: str, field: str) -> None:
    if field == "warpSize":
        ctx.report(
            DEVICE_WARP_SIZE,
            start,
            f"{what} is 64 on gfx942 (32 on NVIDIA GPUs): code that sizes masks, shared "
            "arrays or lane math from it, or assumes it is 32, is wrong on a 64-lane wavefront",
            hint="use it for any warp size: 64-bit masks (unsigned long long), "
            "blockDim.x / warpSize warps per block, no 32 written next to it",
            name=field,
        )
        return
    ctx.report(
        DEVICE_PROP_VALUE,
        start,
        f"{what} has a different value on AMD GPUs: {prop_fields()[field].differs}",
        hint="do not hard-code NVIDIA limits; size work from the values HIP reports",
        name=field,
    )


def _half2_members(ctx: Context) -> None:
    if "half2" not in ctx.text:
        return
    variables = _declared(ctx.text, ("half2", "__half2"), _AFTER_HALF2)
    if not variables:
        return
    scanner = scanner_of(ctx)
    pattern = re.compile(
        rf"(?<![\w])({'|'.join(map(re.escape, sorted(variables)))}){_INDEX}\s*(?:\.|->)\s*"
        r"([xy])(?![\w])"
    )
    for match in pattern.finditer(ctx.text):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        ctx.report(
            HALF2_MEMBER,
            match.start(),
            f"{' '.join(match.group(0).split())}: in CUDA a __half, in HIP the raw unsigned short "
            "bits of the half, so arithmetic on it silently uses the bit pattern as an integer",
            hint=f"use __low2half({match.group(1)}) / __high2half({match.group(1)})",
            name=f".{match.group(2)}",
        )


RULE = Rule(
    id="device_hazards",
    run=run,
    codes=(
        BF16_NO_OPERATORS.code,
        DEVICE_PROP_FIELD_MISSING.code,
        DEVICE_PROP_VALUE.code,
        DEVICE_WARP_SIZE.code,
        FP8_FORMAT.code,
        HALF2_MEMBER.code,
        D.NEEDS_NEWER_HIP.code,
        TEXTURE_FETCH.code,
        TEXTURE_REFERENCE.code,
    ),
    needs=(
        "table.names",
        "options",
        "context.references",
        "context.edits",
    ),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_runtime.h>\n"
                "int f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); "
                "return p.warpSize; }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "int f() { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); "
                "return p.warpSize; }\n"
            ),
            frozenset({"HPY451"}),
        ),
        Example(
            ("#include <cuda_fp8.h>\n__device__ __nv_fp8_e4m3 x;\n"),
            (
                "#include <hip/hip_runtime.h>\n"
                "#include <hip/hip_fp8.h>\n"
                "__device__ __hip_fp8_e4m3_fnuz x;\n"
            ),
            frozenset({"HPY430"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "int f() { hipDeviceProp_t p; (void)hipGetDeviceProperties(&p, "
            "0); return p.major; }\n"
        ),
    ),
)
