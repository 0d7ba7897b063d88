"""``__hmax2`` / ``__hmin2`` on ``__half2``: CUDA overloads them for
``__half2`` and ``__nv_bfloat162``; HIP 5.7.1 to 7.2.4 declare only the
``__hip_bfloat162`` overload, so a ``__half2`` call does not compile (ggml's
``ggml_cuda_hmax2``).  A call whose two arguments are plain names declared
``half2`` / ``__half2`` becomes the per-half form HIP has in every release,
``__halves2half2(__hmax(__low2half(a), __low2half(b)), __hmax(__high2half(a),
__high2half(b)))`` (plain names: repeating them evaluates nothing twice).
Other calls keep the table's caution (HPY109, once per file).
"""

from __future__ import annotations

import re

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.call_args import call_of_node
from hipify_py.rules.device_code import visible
from hipify_py.rules.rule import Example, Rule, alongside

_FUNCTIONS = {"__hmax2": "__hmax", "__hmin2": "__hmin"}
_HALF2 = re.compile(r"(?<![\w])(?:__)?half2\b")
_NAME = re.compile(r"[A-Za-z_]\w*\Z")


def run(ctx: Context) -> None:
    if "__hmax2" not in ctx.text and "__hmin2" not in ctx.text:
        return
    rewritten: set[str] = set()
    kept: set[str] = set()
    for function, scalar in _FUNCTIONS.items():
        for start in occurrences(ctx.text, function):
            node = ctx.root.descendant_for_byte_range(start, start + len(function))
            if node is None or node.type != "identifier":
                continue
            call = call_of_node(node)
            if call is None or len(call.args) != 2:
                kept.add(function)
                continue
            names = [ctx.text[a.start : a.end] for a in call.args]
            if not all(_NAME.match(n) and _is_half2(ctx, n, start) for n in names):
                kept.add(function)
                continue
            a, b = names
            ctx.edit(
                start,
                call.close + 1,
                f"__halves2half2({scalar}(__low2half({a}), __low2half({b})), "
                f"{scalar}(__high2half({a}), __high2half({b})))",
                "half2_minmax",
                structural=False,
            )
            rewritten.add(function)
    # every call of a function rewritten: its caution no longer applies here
    done = rewritten - kept
    if done:
        caution = D.SIGNATURE_CAUTION.code
        ctx.diagnostics[:] = [
            d for d in ctx.diagnostics if not (d.code == caution and d.name in done)
        ]


def _is_half2(ctx: Context, name: str, offset: int) -> bool:
    declared = visible(ctx, name, offset)
    return declared is not None and _HALF2.search(declared.type_text) is not None


RULE = Rule(
    id="half2_minmax",
    run=run,
    codes=(D.SIGNATURE_CAUTION.code,),
    needs=("context.diagnostics",),
    may_apply=alongside,
    examples=(
        Example(
            (
                "#include <cuda_fp16.h>\n"
                "__device__ __half2 f(__half2 a, __half2 b) { return __hmax2(a, "
                "b); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "#include <hip/hip_bf16.h>\n"
                "#include <hip/hip_fp16.h>\n"
                "__device__ __half2 f(__half2 a, __half2 b) { return "
                "__halves2half2(__hmax(__low2half(a), __low2half(b)), "
                "__hmax(__high2half(a), __high2half(b))); }\n"
            ),
        ),
        Example(
            (
                "#include <cuda_fp16.h>\n"
                "__device__ __half2 f(__half2* a, __half2 b) { return "
                "__hmax2(a[0], b); }\n"
            ),
            (
                "#include <hip/hip_runtime.h>\n"
                "#include <hip/hip_bf16.h>\n"
                "#include <hip/hip_fp16.h>\n"
                "__device__ __half2 f(__half2* a, __half2 b) { return "
                "__hmax2(a[0], b); }\n"
            ),
            frozenset({"HPY109"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "#include <hip/hip_fp16.h>\n"
            "__device__ __half2 f(__half2 a, __half2 b) { return __hmax(a.x, "
            "b.x); }\n"
        ),
    ),
)
