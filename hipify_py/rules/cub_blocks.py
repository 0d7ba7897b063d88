"""hipCUB block primitives with a warp-transpose algorithm and a block size
that is not a whole number of wavefronts.

CUB's ``BlockLoad<T, 32, 4, BLOCK_LOAD_WARP_TRANSPOSE>`` (and BlockStore's
``BLOCK_STORE_WARP_TRANSPOSE``) needs the block to be whole warps: 32 threads
is one warp on NVIDIA.  rocPRIM, under hipCUB, static_asserts that the block
size is a multiple of the wavefront, 64 on gfx942 ("BlockSize must be a
multiple of hardware warpsize", hipcc 7.2.4), so the translation does not
compile.  Reported at the type, with the fix.

The block size and the algorithm are followed (rules/values.py) through
``#define``s, ``const``/``constexpr`` constants, enumerators, arithmetic and
template parameters: a ``typedef cub::BlockLoad<T, BLOCK_THREADS, ITEMS,
cub::BLOCK_LOAD_WARP_TRANSPOSE>`` in a template kernel is reported when an
instantiation in the file gives BLOCK_THREADS a size that is not a multiple
of 64 (``k<float, 32, 4><<<...>>>``, or ``Test<32, 32>()`` whose body
launches ``k<float, BLOCK, ITEMS>``), naming those sizes; the type may be a
typedef, a using alias, an alias template or a member typedef of a class
template, and after ``using namespace cub;`` it may be written without
``cub::``.  The size and the algorithm of one instantiation are read
together (``values.joint``): ``<32, DIRECT>`` and ``<64, WARP_TRANSPOSE>``
are not ``<32, WARP_TRANSPOSE>``.

Also: ``cub::CachingDeviceAllocator`` constructed with arguments.  hipCUB's
CUB backend (HIP's NVIDIA platform) derives its CachingDeviceAllocator from
CUB's without forwarding the constructors (hipCUB 5.7.1 to 7.2.4), so only
the default constructor exists there: the translation builds on AMD alone.
"""

from __future__ import annotations

import re

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.rules.values import Arrival, int_values, joint, leaf_texts

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
CUB_WARP_TRANSPOSE_BLOCK = D.Code(
    "HPY427",
    "cub-warp-transpose-block",
    D.Severity.ERROR,
    "a hipCUB BlockLoad/BlockStore with a warp-transpose algorithm and a block that is not "
    "whole 64-lane wavefronts",
    why="CUB needs whole 32-lane warps for BLOCK_LOAD_WARP_TRANSPOSE; rocPRIM (under hipCUB) "
    "static_asserts that the block size is a multiple of the wavefront, 64 on gfx942.  The "
    "block size and the algorithm are followed through #defines, constants, enumerators and "
    "template parameters (each instantiation in the file, through outer templates too).",
    example="cub::BlockLoad<int, 32, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>\n"
    "template <typename T, int BLOCK_THREADS> __global__ void k() { typedef cub::BlockLoad<T, "
    "BLOCK_THREADS, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> L; }  // k<float, 32><<<1, 32>>>()",
    fix="Use a block of a multiple of 64 threads, or the DIRECT / TRANSPOSE algorithm.",
)
CUB_ALLOCATOR_ARGUMENTS = D.Code(
    "HPY428",
    "cub-allocator-constructor-arguments",
    D.Severity.WARNING,
    "a hipCUB CachingDeviceAllocator constructed with arguments: on HIP's NVIDIA platform it "
    "has only a default constructor",
    why="hipCUB's CUB backend (HIP's NVIDIA platform; hipCUB 5.7.1, 6.4.3 and 7.2.4 alike) "
    "derives hipcub::CachingDeviceAllocator from cub::CachingDeviceAllocator without "
    "forwarding its constructors, so a construction with bin_growth, min_bin, max_bin, ... "
    "does not compile there; on AMD (the rocPRIM backend) it does.",
    example="std::make_unique<cub::CachingDeviceAllocator>(2, 9, 29)",
    fix="Construct it without arguments and call SetMaxCachedBytes, or build for AMD only.",
)

WAVEFRONT = 64
_PRIMITIVE = re.compile(r"\b(?:hip)?cub\s*::\s*Block(Load|Store)\s*<")
# after `using namespace cub;` the type may be written without its namespace
_UNQUALIFIED = re.compile(r"(?<![\w:])(?:(?:hip)?cub\s*::\s*)?Block(Load|Store)\s*<")
_USING_CUB = re.compile(r"\busing\s+namespace\s+(?:::\s*)?(?:hip)?cub\s*;")
# a construction with a first argument: make_unique/make_shared<T>(x, new T(x,
# new T{x, or a declaration T name(x / T name{x
_ALLOCATOR = r"\b(?:hip)?cub\s*::\s*CachingDeviceAllocator"
_CONSTRUCTED = re.compile(
    rf"\bmake_(?:unique|shared)\s*<\s*(?:::\s*)?{_ALLOCATOR}\s*>\s*\(\s*[^)\s]"
    rf"|\bnew\s+(?:::\s*)?{_ALLOCATOR}\s*[({{]\s*[^)}}\s]"
    rf"|{_ALLOCATOR}\s*[&*]?\s*[A-Za-z_]\w*\s*[({{]\s*[^)}}\s]"
)


def run(ctx: Context) -> None:
    if "CachingDeviceAllocator" in ctx.text:
        _allocator_arguments(ctx)
    if "WARP_TRANSPOSE" in ctx.text:
        _warp_transpose(ctx)


def _allocator_arguments(ctx: Context) -> None:
    for match in _CONSTRUCTED.finditer(ctx.text):
        ctx.report(
            CUB_ALLOCATOR_ARGUMENTS,
            match.start(),
            "CachingDeviceAllocator constructed with arguments: on HIP's NVIDIA platform "
            "hipCUB's CUB backend gives it only a default constructor, so this builds on AMD only",
            hint="construct it without arguments and call SetMaxCachedBytes, or keep "
            "cub::CachingDeviceAllocator (and its cudaError_t results) for NVIDIA",
            name="CachingDeviceAllocator",
            end=match.end(),
        )


def _warp_transpose(ctx: Context) -> None:
    text = ctx.text
    primitive = _UNQUALIFIED if _USING_CUB.search(text) else _PRIMITIVE
    for match in primitive.finditer(text):
        if not _in_code(ctx, match.start()):
            continue
        arguments = _template_arguments(text, match.end())
        if len(arguments) < 4:
            continue
        at = match.end()
        threads_text = " ".join(arguments[1].split())
        algorithms: set[str] = set()
        bad_values: set[int] = set()
        # the size and the algorithm of one instantiation together (values.joint)
        for threads_arrival, algorithm_arrival in joint(
            ctx, (Arrival(threads_text, at), Arrival(arguments[3], at))
        ):
            transposing = {
                leaf
                for leaf in leaf_texts(ctx, algorithm_arrival.text, algorithm_arrival.at)
                if "WARP_TRANSPOSE" in leaf
            }
            sizes = int_values(ctx, threads_arrival.text, threads_arrival.at)
            wrong = {v for v in sizes if v % WAVEFRONT}
            if transposing and wrong:
                algorithms |= transposing
                bad_values |= wrong
        if not bad_values:
            continue
        bad = sorted(bad_values)
        threads = " or ".join(str(v) for v in bad)
        algorithm = " ".join(arguments[3].split())
        first = sorted(algorithms)[0]
        if algorithm != first:
            algorithm = f"{algorithm} ({first})"
        ctx.report(
            CUB_WARP_TRANSPOSE_BLOCK,
            match.start(),
            f"Block{match.group(1)} with {algorithm} and {threads} threads"
            + (f" ({threads_text})" if threads_text != threads else "")
            + ": rocPRIM requires whole 64-lane wavefronts for the warp-transpose "
            "algorithms (a static_assert under hipcc)",
            hint=f"use a block of a multiple of 64 threads, or the BLOCK_{match.group(1).upper()}"
            "_DIRECT / _TRANSPOSE algorithm",
            name=f"Block{match.group(1)}",
            end=match.end(),
        )


def _template_arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of the template argument list opened before start."""
    depth, parts, current = 1, [], start
    for at in range(start, min(len(text), start + 2000)):
        char = text[at]
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
            if depth == 0:
                parts.append(text[current:at])
                return parts
        elif char == "," and depth == 1:
            parts.append(text[current:at])
            current = at + 1
        elif char == ";":
            break
    return []


def _in_code(ctx: Context, offset: int) -> bool:
    """Not in a comment or string (a #define body counts as code)."""
    node = ctx.root.descendant_for_byte_range(offset, offset + 1)
    return node is None or node.type not in ("comment", "string_literal", "string_content")


RULE = Rule(
    id="cub_blocks",
    run=run,
    codes=(
        CUB_ALLOCATOR_ARGUMENTS.code,
        CUB_WARP_TRANSPOSE_BLOCK.code,
    ),
    needs=(),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cub/cub.cuh>\n"
                "__global__ void k() { typedef cub::BlockLoad<int, 32, 4, "
                "cub::BLOCK_LOAD_WARP_TRANSPOSE> L; }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "#include <hipcub/hipcub.hpp>\n"
                "__global__ void k() { typedef hipcub::BlockLoad<int, 32, 4, "
                "hipcub::BLOCK_LOAD_WARP_TRANSPOSE> L; }\n"
            ),
            frozenset({"HPY427"}),
        ),
        Example(
            ("#include <cub/cub.cuh>\ncub::CachingDeviceAllocator a(8, 3);\n"),
            ("#include <hipcub/hipcub.hpp>\nhipcub::CachingDeviceAllocator a(8, 3);\n"),
            frozenset({"HPY428"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "#include <hipcub/hipcub.hpp>\n"
            "__global__ void k() { typedef hipcub::BlockLoad<int, 64, 4, "
            "hipcub::BLOCK_LOAD_WARP_TRANSPOSE> L; }\n"
        ),
    ),
)
