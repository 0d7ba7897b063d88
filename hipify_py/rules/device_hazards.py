"""Device facts that differ on AMD and compile silently: fp8 formats, texture
references and fetches, cudaDeviceProp values, half2 members."""

from __future__ import annotations

import re

from .. import diagnostics as D
from ..context import Context
from .identifiers import occurrences, scanner_of

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
_AFTER_TYPE = re.compile(r"\s*[*&]?\s*(\w+)")
# field -> why its value differs on gfx942 (MI300X)
_PROP_FIELDS = {
    "warpSize": "it is 64 on gfx942 (32 on NVIDIA GPUs)",
    "sharedMemPerBlock": "an AMD CU has 64 KiB of LDS (NVIDIA: up to 227 KiB per block)",
    "sharedMemPerMultiprocessor": "an AMD CU has 64 KiB of LDS",
    "sharedMemPerBlockOptin": "AMD has no opt-in shared-memory carve-out",
    "regsPerBlock": "AMD registers are counted per wavefront lane (VGPRs), not per block",
    "regsPerMultiprocessor": "AMD registers are counted per SIMD, not per SM",
    "maxThreadsPerMultiProcessor": "a CU holds other numbers of wavefronts than an SM of warps",
    "major": "compute capability has no meaning on AMD (gfx942 reports 9.4); use gcnArchName",
    "minor": "compute capability has no meaning on AMD (gfx942 reports 9.4); use gcnArchName",
    "l2CacheSize": "MI300X has a 4 MB L2 per XCD and a 256 MB Infinity Cache",
}
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


def _fp8(ctx: Context) -> None:
    names = sorted(n for n in ctx.present if n.startswith(FP8_PREFIXES))
    if not names:
        return
    scanner = scanner_of(ctx)
    sites = sorted((start, name) for name in names for start in occurrences(ctx.text, name))
    for start, name in sites:
        if scanner.classify(start, start + len(name))[0] not in ("code", "macro"):
            continue
        flavour = ctx.options.fp8_flavour()
        detail = (
            "the FNUZ formats of gfx942 (e4m3: max 240, not 448; no negative zero; NaN is 0x80)"
            if flavour == "fnuz"
            else "the OCP formats (CUDA's encodings), which gfx942 lacks in hardware"
        )
        ctx.report(
            D.FP8_FORMAT,
            start,
            f"{name}: fp8 is translated to {detail}"
            + ("; values that overflow or are NaN differ from CUDA's" if flavour == "fnuz" else ""),
            hint="choose with --fp8 fnuz|ocp (default: what --offload-arch has); compare "
            "results against a reference",
            name=name,
        )
        return  # once per file, at the first use


def _textures(ctx: Context) -> None:
    if "tex" not in ctx.text and "surf" not in ctx.text:
        return
    scanner = scanner_of(ctx)
    for match in _TEXTURE_TYPES.finditer(ctx.text):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        ctx.report(
            D.TEXTURE_REFERENCE,
            match.start(),
            f"a {match.group(1)} reference: removed in CUDA 12 and deprecated in HIP, and gfx942 "
            "has no texture hardware to back it",
            hint="read the data with ordinary global loads (__ldg) or use texture objects on "
            "GPUs that have image support",
            name=match.group(1),
        )
    for match in _FETCHES.finditer(ctx.text):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        ctx.report(
            D.TEXTURE_FETCH,
            match.start(1),
            f"{match.group(1)}: texture fetches are not supported on gfx942 (MI300 has no "
            "texture sampling units; HIP 5.7 rejects them there)",
            hint="replace the fetch with a global load (and do filtering or addressing by hand)",
            name=match.group(1),
        )


def _device_prop(ctx: Context) -> None:
    if "DeviceProp" not in ctx.text:
        return
    variables = _declared(ctx.text, ("cudaDeviceProp", "hipDeviceProp_t"), _AFTER_TYPE)
    if not variables:
        return
    scanner = scanner_of(ctx)
    pattern = re.compile(
        rf"(?<![\w])({'|'.join(map(re.escape, sorted(variables)))})\s*(?:\.|->)\s*"
        rf"({'|'.join(_PROP_FIELDS)})(?![\w])"
    )
    for match in pattern.finditer(ctx.text):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        field = match.group(2)
        ctx.report(
            D.DEVICE_PROP_VALUE,
            match.start(),
            f"{' '.join(match.group(0).split())} has a different value on AMD GPUs: "
            f"{_PROP_FIELDS[field]}",
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
        rf"(?<![\w])({'|'.join(map(re.escape, sorted(variables)))})\s*(?:\.|->)\s*([xy])(?![\w])"
    )
    for match in pattern.finditer(ctx.text):
        if scanner.classify(match.start(1), match.end(1))[0] != "code":
            continue
        ctx.report(
            D.HALF2_MEMBER,
            match.start(),
            f"{match.group(1)}.{match.group(2)}: in CUDA a __half, in HIP the raw unsigned short "
            "bits of the half, so arithmetic on it silently uses the bit pattern as an integer",
            hint=f"use __low2half({match.group(1)}) / __high2half({match.group(1)})",
            name=f".{match.group(2)}",
        )
