"""The arguments of a call to a renamed CUDA function, and the argument-level
fixes HIP's signatures need (rows' ``arg_casts``, ``arg_wraps``,
``arg_defaults``).

In code the tree gives the arguments.  Inside a ``#define`` body the tree has
only opaque text, so the call is split by a small bracket-aware scanner; a
call it cannot split with confidence (unbalanced, cut by the end of the macro)
gets no argument fixes rather than wrong ones.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import tree_sitter

from ..context import Context, cached_version
from ..semantic_facts import facts_in
from ..table import Row


class Arg(NamedTuple):
    start: int
    end: int
    kind: str  # the tree's node type, or the shape the scanner saw


class Call(NamedTuple):
    args: list[Arg]
    close: int  # offset of the closing parenthesis
    in_macro: bool = False  # split from a #define body (names there are macro parameters)
    scope: tuple[int, int] | None = None  # the enclosing function, where declarations count


def call_of_node(node: tree_sitter.Node) -> Call | None:
    """The call whose function ``node`` names, else None."""
    function, call = node, node.parent
    if call is not None and call.type == "qualified_identifier":
        function, call = call, call.parent
    if call is None or call.type != "call_expression":
        return None
    if call.child_by_field_name("function") != function:
        return None
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.end_byte <= arguments.start_byte:
        return None
    if arguments.child_count == 0 or arguments.children[-1].type != ")":
        return None  # cut short by a parse error
    args = [
        Arg(c.start_byte, c.end_byte, c.type)
        for c in arguments.named_children
        if c.type != "comment"
    ]
    scope = call.parent
    while scope is not None and scope.type not in ("function_definition", "lambda_expression"):
        scope = scope.parent
    span = (scope.start_byte, scope.end_byte) if scope is not None else None
    return Call(args, arguments.end_byte - 1, scope=span)


_SPACE = re.compile(r"(?:\s|\\\r?\n)*")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_QUALIFIED = re.compile(r"(?:::)?\s*[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)+\Z")
_FIELD = re.compile(r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)+\Z")
_NAME = re.compile(r"[A-Za-z_]\w*\Z")


def call_in_text(text: str, end: int, limit: int) -> Call | None:
    """The call starting after the name that ends at ``end`` (a macro body that
    ends at ``limit``), split at its top-level commas; None when unsure."""
    pos = _SPACE.match(text, end, limit)
    assert pos is not None
    i = pos.end()
    if i >= limit or text[i] != "(":
        return None
    i += 1
    args: list[tuple[int, int]] = []
    start = i
    stack: list[str] = []
    while i < limit:
        ch = text[i]
        if ch in "\"'":
            i = _skip_literal(text, i, limit)
            if i < 0:
                return None
            continue
        if ch == "/" and text.startswith(("//", "/*"), i):
            return None  # a comment inside the call: leave it to a human
        if ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch == "<" and not stack and _template_open(text, i, limit):
            stack.append(">")
        elif ch in ")]}>":
            if not stack:
                if ch != ")":
                    if ch == ">":
                        i += 1
                        continue
                    return None
                args.append((start, i))
                return Call(_shaped(text, args), i, in_macro=True)
            if stack[-1] != ch:
                if ch == ">":
                    i += 1
                    continue  # a comparison inside brackets
                return None
            stack.pop()
        elif ch == "," and not stack:
            args.append((start, i))
            start = i + 1
        elif ch == ";" or ch == "#":
            return None
        i += 1
    return None


def _skip_literal(text: str, i: int, limit: int) -> int:
    quote = text[i]
    i += 1
    while i < limit:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == quote:
            return i + 1
        if ch == "\n":
            return -1
        i += 1
    return -1


def _template_open(text: str, i: int, limit: int) -> bool:
    """Is the ``<`` at ``i`` a template argument list (``kernel<T, 4>``)?  Yes
    when a name precedes it and a ``>`` closes it before anything that cannot
    be in template arguments."""
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j < 0 or not (text[j].isalnum() or text[j] == "_"):
        return False
    depth = 0
    for k in range(i + 1, limit):
        ch = text[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return False
            depth -= 1
        elif ch == ">" and depth == 0:
            return True
        elif ch in ";\"'" or text.startswith(("&&", "||"), k):
            return False
    return False


def _shaped(text: str, spans: list[tuple[int, int]]) -> list[Arg]:
    args: list[Arg] = []
    for start, end in spans:
        raw = text[start:end]
        lead = len(raw) - len(raw.lstrip(" \t\r\n\\"))
        trail = len(raw) - len(raw.rstrip(" \t\r\n\\"))
        s, e = start + lead, end - trail
        if s >= e:
            if len(spans) == 1:
                return []  # f()
            s = e = start
        body = text[s:e]
        kind = (
            "identifier"
            if _NAME.match(body)
            else "qualified_identifier"
            if _QUALIFIED.match(body)
            else "field_expression"
            if _FIELD.match(body)
            else "expression"
        )
        args.append(Arg(s, e, kind))
    return args


_SYMBOL_ARGS = frozenset({"identifier", "qualified_identifier", "field_expression"})


def _declared_as(ctx: Context, name: str, cast: str, scope: tuple[int, int] | None) -> bool:
    """Is ``name`` declared with exactly the type ``cast`` in the function the
    call is in (its parameters and body), or anywhere at file scope?"""
    parts = [re.escape(p) for p in re.findall(r"\w+|\*", cast)]
    pattern = r"\s*".join(parts) + r"\s*" + re.escape(name) + r"\b"
    if parts[-1] == r"\*":  # `const char* opts[]` is a `const char**` as an argument
        array = r"\s*".join(parts[:-1]) + r"\s*" + re.escape(name) + r"\s*\["
        pattern = f"(?:{pattern}|{array})"
    start, end = scope if scope is not None else (0, len(ctx.text))
    for found in re.compile(r"(?<![\w*])" + pattern).finditer(ctx.text, start, end):
        before = ctx.text[max(start, found.start() - 24) : found.start()].split()
        word = re.search(r"\w+\Z", before[-1]) if before else None
        if word is None or word.group(0) in _STORAGE:
            return True  # `const float* a`, `unsigned int* a` are other types
    return False


_NULL_POINTERS = frozenset({"nullptr", "NULL", "0"})
_STORAGE = frozenset({"static", "extern", "register", "thread_local", "inline", "__shared__"})


def cast_arguments(
    ctx: Context,
    call: Call,
    casts: tuple[tuple[int, str], ...],
    group: int,
    use_facts: bool = True,
) -> int:
    """Wrap the call's arguments in the casts (argument index, type); how many
    were made (none for an argument that already has the type).  ``use_facts``:
    let the clang engine's answers (about the rows' ``arg_casts``) decide."""
    made = 0
    args = call.args
    found = facts_in(ctx.cache) if use_facts else None
    for index, cast in casts:
        if index >= len(args):
            continue
        arg = args[index]
        text = ctx.text[arg.start : arg.end].replace(" ", "")
        if text.startswith(f"({cast.replace(' ', '')})") or text.startswith(
            f"reinterpret_cast<{cast.replace(' ', '')}>"
        ):
            continue  # already cast
        if text in _NULL_POINTERS and "*" in cast:
            continue  # a null pointer constant converts to any pointer type
        if found is not None and arg.start in found.typed_arguments:
            continue  # its type already converts to HIP's parameter type
        if (
            not (found is not None and arg.start in found.cast_arguments)
            and arg.kind == "identifier"
            and not call.in_macro
            and _declared_as(ctx, text, cast, call.scope)
        ):
            continue  # `void** p` already has the type (in a macro, a parameter has none)
        ctx.edit(arg.start, arg.start, f"({cast})(", "cast", group=group)
        ctx.edit(arg.end, arg.end, ")", "cast", group=group)
        made += 1
    return made


def fix_arguments(ctx: Context, row: Row, call: Call) -> None:
    """Wrap arguments in the casts HIP's signatures need (``(void**)(&p)``),
    pass symbols through HIP's macros (``HIP_SYMBOL(sym)``), and spell out the
    trailing arguments CUDA defaults and HIP does not."""
    group = ctx.new_group()
    args = call.args
    # the clang engine's answers, where it saw the call (else the text decides)
    facts = facts_in(ctx.cache)
    for index, macro in row.arg_wraps:
        if index >= len(args):
            continue
        arg = args[index]
        wrap = arg.kind in _SYMBOL_ARGS
        if facts is not None and arg.start in facts.plain_symbols:
            wrap = False  # already an address (CUDA's const void* overload)
        elif facts is not None and arg.start in facts.symbol_arguments:
            wrap = True  # a variable CUDA's template takes by reference
        if wrap:
            ctx.edit(arg.start, arg.start, f"{macro}(", "cast", group=group)
            ctx.edit(arg.end, arg.end, ")", "cast", group=group)
    # HIP's signature became CUDA's from ``casts_until`` on: no casts then
    casts = (
        ()
        if row.casts_until and cached_version(row.casts_until) <= ctx.target_hip
        else row.arg_casts
    )
    cast_arguments(ctx, call, casts, group)
    missing = [text for index, text in row.arg_defaults if index >= len(args)]
    if missing and min(index for index, _ in row.arg_defaults if index >= len(args)) == len(args):
        added = ", ".join(missing)
        ctx.edit(
            call.close, call.close, f", {added}" if args else added, "default-argument", group=group
        )
