"""HIP calls whose hipError_t is dropped: hipError_t is [[nodiscard]] in HIP's
headers (``data/hip_error_functions.yaml``), so hipcc warns at each such
statement where nvcc was quiet.  Reported once per file, at the first one."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import call_naming
from hipify_py.rules.identifiers import scanner_of
from hipify_py.rules.rule import Example, Rule, alongside

# The diagnostic codes this rule reports (docs/diagnostics.md is generated from them).
UNCHECKED_HIP_ERROR = D.Code(
    "HPY110",
    "unchecked-hip-error",
    D.Severity.INFO,
    "a HIP call whose hipError_t result is discarded: hipcc warns (hipError_t is [[nodiscard]])",
    why="hip_runtime_api.h declares hipError_t [[nodiscard]] from C++17 on (HIP 5.7.1, 6.4.3 "
    "and 7.2.4 alike; hipcc's clang defaults to C++17), so every call statement that drops the "
    "result warns 'ignoring return value of type hipError_t'; CUDA's cudaError_t is not "
    "nodiscard, so the CUDA build was quiet.  Reported once per file.",
    example="cudaMalloc(&p, n);\ncudaDeviceSynchronize();",
    fix="Check the result with the project's error macro, or cast it to (void) where ignoring it "
    "is meant.",
)

DATA = Path(__file__).resolve().parent.parent / "data" / "hip_error_functions.yaml"


@cache
def hip_error_functions() -> frozenset[str]:
    """(Read without PyYAML: a flat list, and most runs never import it.)"""
    text = DATA.read_text(encoding="utf-8")
    return frozenset(re.findall(r"^  - (\w+)\s*$", text, re.MULTILINE))


def run(ctx: Context) -> None:
    functions = hip_error_functions()
    candidates: dict[str, str] = {}  # name in the file -> the HIP function it is
    for word in ctx.present:
        if word in functions:
            candidates[word] = word
            continue
        row = ctx.table.lookup(word) if word.startswith("cu") else None
        hip = ctx.hip_name_for(row) if row is not None and row.kind == "function" else None
        if hip in functions and hip is not None:
            candidates[word] = hip
    # a function of the project's own that has a CUDA or HIP name is not HIP's
    candidates = {w: h for w, h in candidates.items() if not ctx.is_local(w)}
    if not candidates:
        return
    translated = {offset for offset, *_ in ctx.references}
    scanner = scanner_of(ctx)
    sites: list[tuple[int, str, str]] = []
    for word, hip in candidates.items():
        for start in occurrences(ctx.text, word):
            if word != hip and start not in translated:
                continue  # left as it is (not for this HIP, or not CUDA's there)
            if scanner.classify(start, start + len(word))[0] != "code":
                continue
            if _discarded_call(ctx, start, len(word)):
                sites.append((start, word, hip))
    if not sites:
        return
    start, word, hip = min(sites)
    count = len(sites)
    more = f"; {count - 1} more call{'s' if count > 2 else ''} in this file" if count > 1 else ""
    ctx.report(
        UNCHECKED_HIP_ERROR,
        start,
        f"{hip}(...) drops its hipError_t, which HIP declares [[nodiscard]]: hipcc warns "
        f"'ignoring return value' here{more}",
        hint=f"check it (e.g. HIP_CHECK({hip}(...)) with the project's error macro), or write "
        f"(void){hip}(...) where ignoring the error is meant",
        name=word,
    )


def _discarded_call(ctx: Context, start: int, size: int) -> bool:
    """Is the name at ``start`` the callee of a call that is a whole statement?"""
    node = ctx.root.descendant_for_byte_range(start, start + size)
    if node is None or node.type != "identifier":
        return False
    call = call_naming(node)
    if call is None:
        return False
    statement = call.parent
    return statement is not None and statement.type == "expression_statement"


RULE = Rule(
    id="unchecked_errors",
    run=run,
    codes=(UNCHECKED_HIP_ERROR.code,),
    needs=(
        "table.names",
        "options",
        "context.references",
    ),
    may_apply=alongside,
    examples=(
        Example(
            ("#include <cuda_runtime.h>\nvoid f(void* p) { cudaFree(p); }\n"),
            ("#include <hip/hip_runtime.h>\nvoid f(void* p) { hipFree(p); }\n"),
            frozenset({"HPY110"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\nhipError_t f(void* p) { return hipFree(p); }\n"
        ),
    ),
)
