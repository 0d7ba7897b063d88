"""The legacy cuBLAS API (``cublas.h``): ``cublasSscal(n, alpha, x, incx)``
without a handle.  ``cublas_v2.h`` redefines the same names as the handle API,
which is the only one hipBLAS and rocBLAS have, so a legacy call is not renamed
(a handle-less ``hipblasSscal(n, ...)`` cannot compile) but reported (HPY112)
with the v2 call to write, built from the call's own arguments.

A use is legacy when it is a call with as many arguments as the legacy function
has parameters (the v2 function always takes more: the handle); a use that is
not a call the scanner can split is legacy when the file includes ``cublas.h``
and not ``cublas_v2.h`` (CUDA rejects the two together).  The facts (each legacy
function's parameters and its v2 form) are ``legacy:`` in
``mappings/blas-legacy.curated.yaml``.
"""

from __future__ import annotations

import re

import tree_sitter

from hipify_py.engine.context import Context
from hipify_py.rules.call_args import Call, call_in_text, call_of_node
from hipify_py.tables.table import LegacyCall

_INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"](cublas(?:_v2)?\.h)[>\"]", re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_TOKEN = re.compile(r"&?[A-Za-z_]\w*")


def _legacy_file(ctx: Context) -> bool:
    """Does the file include <cublas.h> and not <cublas_v2.h>?"""
    found = ctx.facts.legacy_cublas_file
    if found is None:
        headers = {m.group(1) for m in _INCLUDE.finditer(ctx.text)}
        found = ctx.facts.legacy_cublas_file = (
            "cublas.h" in headers and "cublas_v2.h" not in headers
        )
    return found


def legacy_call(
    ctx: Context, legacy: LegacyCall, start: int, end: int, node: tree_sitter.Node | None
) -> Call | bool:
    """The legacy call this use makes (its arguments), True for a legacy use
    that is not a call the scanner can split, False for a v2 use."""
    call: Call | None
    if node is not None:
        call = call_of_node(node)
    else:
        body = ctx.root.descendant_for_byte_range(start, end)
        call = (
            call_in_text(ctx.text, end, body.end_byte)
            if body is not None and body.type == "preproc_arg"
            else None
        )
    if call is not None:
        return call if len(call.args) == len(legacy.params) else False
    return _legacy_file(ctx)


_LETTER = re.compile(r"\{([A-Za-z_]\w*):([A-Za-z_]\w*)\}\Z")
_CHAR = re.compile(r"'(\w)'\Z")
_WORD = re.compile(r"[A-Za-z_]\w*")


def result_variable(node: tree_sitter.Node | None) -> tuple[str, bool] | None:
    """The variable a call's value goes to (``float r = f(...)``: ("r", True),
    declared there; ``r = f(...)``: ("r", False)), else None."""
    call = node.parent if node is not None else None
    parent = call.parent if call is not None and call.type == "call_expression" else None
    if parent is None:
        return None
    if parent.type == "init_declarator" and parent.child_by_field_name("value") == call:
        target = parent.child_by_field_name("declarator")
        declared = True
    elif parent.type == "assignment_expression" and parent.child_by_field_name("right") == call:
        operator = parent.child_by_field_name("operator")
        if operator is None or operator.type != "=":
            return None
        target = parent.child_by_field_name("left")
        declared = False
    else:
        return None
    if target is None or target.type != "identifier" or target.text is None:
        return None
    return target.text.decode(), declared


def v2_form(
    ctx: Context,
    legacy: LegacyCall,
    call: Call | None,
    result: tuple[str, bool] | None = None,
) -> str:
    """The v2 call to write, with this call's arguments where they fit:
    ``float alpha = 2.0f; cublasSscal(handle, n, &alpha, d_x, 1);``; a legacy
    letter becomes the v2 enumerator (``'N'`` -> ``CUBLAS_OP_N``)."""
    names = {name: index for index, (_, name) in enumerate(legacy.params)}
    declarations: list[str] = []

    def text_of(name: str) -> str | None:
        index = names.get(name)
        if index is None or call is None:
            return None
        arg = call.args[index]
        return " ".join(ctx.text[arg.start : arg.end].split())

    def argument(token: str) -> str:
        letter = _LETTER.match(token)
        if letter is not None:
            name, kind = letter.groups()
            text = text_of(name)
            letters = ctx.table.legacy_letters.get(kind, {})
            found = _CHAR.match(text or "")
            if found is not None and found.group(1).upper() in letters:
                return letters[found.group(1).upper()]
            return (
                f"<the {kind} for {text or name}: "
                + ", ".join(f"'{k}' {v}" for k, v in letters.items())
                + ">"
            )
        if token == "&result" and "result" not in names and legacy.returns:
            if result is not None:  # the variable the legacy call's value went to
                if result[1]:
                    declarations.append(f"{legacy.returns} {result[0]};")
                return f"&{result[0]}"
            declarations.append(f"{legacy.returns} result;")
            return token
        if token.startswith("&") and _NAME.match(token[1:]):
            name = token[1:]
            text = text_of(name)
            if text is None:
                return token
            if _NAME.match(text):
                return f"&{text}"
            declarations.append(f"{legacy.params[names[name]][0]} {name} = {text};")
            return token

        def word(match: re.Match[str]) -> str:
            text = text_of(match.group(0))
            if text is None:
                return match.group(0)
            whole = match.group(0) == token.strip()
            return text if whole or _NAME.match(text) or text.isdigit() else f"({text})"

        return _WORD.sub(word, token)

    head, paren, rest = legacy.v2.partition("(")
    if not paren:
        return legacy.v2  # not a call (cublasGetError: the status v2 calls return)
    inner = rest.rsplit(")", 1)[0]
    args = [a.strip() for a in inner.split(",")] if inner.strip() else []
    written = [argument(a) for a in args]
    return " ".join([*declarations, f"{head}({', '.join(written)});"])
