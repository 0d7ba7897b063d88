"""Tests of CUDA headers' include guards (``#ifdef __DRIVER_TYPES_H__``).

A project tests such a guard to ask "has the CUDA runtime been included?"
(cuda-samples' helper_cuda.h does, before its error-string helpers).  HIP's
AMD headers define guards of their own (``HIP_INCLUDE_HIP_DRIVER_TYPES_H``);
HIP's NVIDIA backend includes CUDA's headers, which define CUDA's.  Renaming
the test to the AMD guard would drop the guarded code on NVIDIA, so a test
becomes one that holds on both platforms:

* ``#ifdef G``  -> ``#if defined(H) || defined(G)``
* ``#ifndef G`` -> ``#if !defined(H) && !defined(G)``
* ``defined(G)`` in ``#if`` / ``#elif`` -> ``(defined(H) || defined(G))``

where H is the HIP guard the table names (with --roc the ROC header's; a
guard the ROC header lacks is reported, HPY108).  A test already in that form is
left alone, so a second run changes nothing.  Other uses of a guard name are
the identifiers rule's ordinary rename.
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.options import Options
from hipify_py.engine.words import occurrences
from hipify_py.rules.identifiers import report_no_roc_name
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.tables.table import Row

SECTION = "Header Guards"


def guard_row(row: Row) -> bool:
    """A CUDA include guard with a HIP guard: this rule handles its #if tests."""
    return row.section == SECTION and row.kind == "macro" and bool(row.hip)


def run(ctx: Context) -> None:
    names = ctx.table.names
    # (no sort of every word of the file: only the few guard names found)
    rows = [row for row in map(names.get, ctx.present) if row is not None and guard_row(row)]
    for row in sorted(rows, key=lambda r: r.cuda):
        for start in occurrences(ctx.text, row.cuda):
            _rewrite(ctx, row, start)


def _rewrite(ctx: Context, row: Row, start: int) -> None:
    end = start + len(row.cuda)
    node = ctx.root.descendant_for_byte_range(start, end)
    if node is None or node.type != "identifier" or node.parent is None:
        return
    parent = node.parent
    hip = row.hip or ""
    if ctx.using_roc(row):
        # --roc: the ROC header's guard (rocRAND's ROCRAND_H_); a guard the ROC
        # header lacks (rocSOLVER's) is an error, as any name it lacks
        if not row.roc:
            if parent.type in ("preproc_ifdef", "preproc_elifdef", "preproc_defined"):
                report_no_roc_name(ctx, row, start, end)
            return
        hip = row.roc
    if (
        parent.type in ("preproc_ifdef", "preproc_elifdef")
        and parent.child_by_field_name("name") == node
    ):
        directive = parent.children[0]
        word = ctx.node_text(directive)
        negated = word.endswith("ifndef")
        elif_ = "elif" in word
        keyword = "#elif" if elif_ else "#if"
        test = (
            f"!defined({hip}) && !defined({row.cuda})"
            if negated
            else f"defined({hip}) || defined({row.cuda})"
        )
        ctx.edit(directive.start_byte, end, f"{keyword} {test}", "guards")
        _count(ctx)
    elif parent.type == "preproc_defined":
        if _already_both(ctx, parent, hip):
            return
        ctx.edit(
            parent.start_byte,
            parent.end_byte,
            f"(defined({hip}) || {ctx.node_text(parent)})",
            "guards",
        )
        _count(ctx)
    # anything else (#define G, a use in code): the identifiers rule renames it


def _already_both(ctx: Context, defined: tree_sitter.Node, hip: str) -> bool:
    """``defined(H) || defined(G)`` or ``!defined(H) && !defined(G)``: the forms
    this rule writes."""
    before = ctx.text[max(0, defined.start_byte - len(hip) - 40) : defined.start_byte]
    form = rf"defined\s*\(?\s*{re.escape(hip)}\s*\)?\s*(?:\|\||&&\s*!)\s*$"
    return re.search(form, before) is not None


def _count(ctx: Context) -> None:
    ctx.stats.converted[("runtime", "macro")] += 1


RULE = Rule(
    id="guards",
    run=run,
    codes=(D.ROC_FALLBACK.code,),  # through identifiers.report_no_roc_name
    needs=(
        "table.names",
        "options",
    ),
    may_apply=alongside,
    examples=(
        Example(
            ("#include <cuda_runtime.h>\n#ifdef __DRIVER_TYPES_H__\nint x;\n#endif\n"),
            (
                "#include <hip/hip_runtime.h>\n"
                "#if defined(HIP_INCLUDE_HIP_DRIVER_TYPES_H) || "
                "defined(__DRIVER_TYPES_H__)\n"
                "int x;\n"
                "#endif\n"
            ),
        ),
        Example(
            ("#include <cublas_v2.h>\n#ifdef CUBLAS_API_H_\nint x;\n#endif\n"),
            (
                "#include <rocblas/rocblas.h>\n"
                "#if defined(ROCBLAS_H) || defined(CUBLAS_API_H_)\n"
                "int x;\n"
                "#endif\n"
            ),
            frozenset(),
            Options(roc=True),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "#if defined(HIP_INCLUDE_HIP_DRIVER_TYPES_H) || "
            "defined(__DRIVER_TYPES_H__)\n"
            "int x;\n"
            "#endif\n"
        ),
    ),
)
