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

from hipify_py.engine.context import Context, cached_version
from hipify_py.rules.device_code import Declared, declarations_in, visible
from hipify_py.tables.table import Row


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


def _declared_as(ctx: Context, name: str, cast: str, offset: int, decay: bool = True) -> bool:
    """Is ``name``, as the code at ``offset`` sees it, declared with exactly the
    type ``cast``: a parameter or local of the enclosing function, or a
    file-scope variable?  Read from the tree's declarations only (a comment or
    string that spells a declaration counts for nothing), one declarator of a
    declaration at a time (``T a, *b, c[3];``).  ``decay``: an array counts as
    a pointer to its element (``const char* opts[]`` is a ``const char**`` as
    an argument); without it (``&arr``) an array never matches."""
    tokens = declared_tokens(ctx, name, offset, decay)
    return tokens is not None and tokens == _TOKEN.findall(cast)


_TOKEN = re.compile(r"\w+|\*")
# words of a declaration that say where a variable lives, not its type
_STORAGE = frozenset(
    {
        "static",
        "extern",
        "register",
        "thread_local",
        "inline",
        "mutable",
        "constexpr",
        "__shared__",
        "__constant__",
        "__device__",
        "__managed__",
        "__restrict__",
        "__restrict",
        "restrict",
    }
)


def declaration_of(ctx: Context, name: str, offset: int) -> Declared | None:
    """The variable ``name`` where ``offset`` uses it: a parameter or local of
    the enclosing function, or a file-scope variable (None: another kind of
    name, or none the file declares)."""
    found = visible(ctx, name, offset)
    if found is None:
        return _file_variable(ctx, name, offset)
    return found if found.kind in ("local", "parameter") else None


def declared_tokens(ctx: Context, name: str, offset: int, decay: bool = True) -> list[str] | None:
    """The type of variable ``name`` where ``offset`` uses it, as words and
    ``*`` (``const char* const* p`` -> const char * const *), from its
    declaration in the tree; None when the file declares no such variable
    there, or its type is not of that simple shape (a pointer to an array, a
    function pointer)."""
    found = declaration_of(ctx, name, offset)
    if found is None or found.node is None:
        return None
    declarator = _declarator_of(found.node, found.start)
    if declarator is None:
        return None
    return declarator_tokens(ctx, found.node, declarator, decay)


def declarator_tokens(
    ctx: Context, declaration: tree_sitter.Node, declarator: tree_sitter.Node, decay: bool = True
) -> list[str] | None:
    """The type one declarator of a declaration (or field declaration) gives
    its name, as declared_tokens spells it."""
    kept = [
        child
        for index, child in enumerate(declaration.children)
        if child.type == "type_qualifier" or declaration.field_name_for_child(index) == "type"
    ]
    words = [w for c in kept for w in _TOKEN.findall(ctx.node_text(c)) if w not in _STORAGE]
    arrays = 0
    node: tree_sitter.Node | None = declarator
    while node is not None and node.type not in ("identifier", "field_identifier"):
        if node.type == "init_declarator":
            node = node.child_by_field_name("declarator")
        elif node.type == "pointer_declarator":
            if arrays:
                return None  # a pointer to an array: T (*p)[4]
            words.append("*")
            words.extend(
                w
                for c in node.children
                if c.type == "type_qualifier"
                for w in _TOKEN.findall(ctx.node_text(c))
                if w not in _STORAGE
            )
            node = node.child_by_field_name("declarator")
        elif node.type == "array_declarator":
            arrays += 1
            node = node.child_by_field_name("declarator")
        elif node.type == "reference_declarator":
            node = next((c for c in node.named_children if c.type != "type_qualifier"), None)
        else:
            return None  # parenthesized, function pointers, ...
    if arrays:
        if not decay or arrays > 1:
            return None
        words.append("*")
    return words


def _declarator_of(declaration: tree_sitter.Node, start: int) -> tree_sitter.Node | None:
    """The declarator of ``declaration`` whose name starts at ``start``."""
    for declarator in declaration.children_by_field_name("declarator"):
        if declarator.start_byte <= start < declarator.end_byte:
            return declarator
    return None


_SCOPES = frozenset({"translation_unit", "namespace_definition", "declaration_list"})


def _file_variable(ctx: Context, name: str, offset: int) -> Declared | None:
    """A variable ``name`` declared at file (or namespace) scope before ``offset``,
    unless a function between declares it (those ``visible`` finds)."""
    found: Declared | None = None
    stack = [ctx.root]
    while stack:
        scope = stack.pop()
        for child in scope.named_children:
            if child.start_byte >= offset:
                break
            if child.type == "declaration":
                found = declarations_in(ctx, child, name, "file") or found
            elif child.type in ("namespace_definition", "linkage_specification"):
                body = child.child_by_field_name("body")
                if body is not None and body.start_byte <= offset < body.end_byte:
                    stack.append(body)
    return found


_NULL_POINTERS = frozenset({"nullptr", "NULL", "0"})


def insert_arguments(
    ctx: Context, inserts: tuple[tuple[int, str], ...], call: Call, group: int
) -> None:
    """Write the arguments HIP's (or the ROC library's) function takes and
    CUDA's does not, each before CUDA's argument at its index (after the last
    one where the index is the argument count); none when the call is shorter."""
    args = call.args
    for index, text in inserts:
        if index < len(args):
            ctx.edit(
                args[index].start, args[index].start, f"{text}, ", "insert-argument", group=group
            )
        elif index == len(args):
            ctx.edit(
                call.close,
                call.close,
                f", {text}" if args else text,
                "insert-argument",
                group=group,
            )


# an argument that may be dropped or copied: a name, a number, a member, an
# address, a null pointer (nothing that calls, assigns or names CUDA API)
_PLAIN = re.compile(r"&?\s*[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*\Z|[0-9][\w.]*\Z")
_COPY = re.compile(r"\{=(\d+)\}")


def _plain(ctx: Context, arg: Arg) -> bool:
    text = ctx.text[arg.start : arg.end]
    return bool(_PLAIN.match(text)) and not any(
        word in ctx.table.names for word in re.findall(r"\w+", text)
    )


def argument_from_call(ctx: Context, row: Row, call: Call) -> bool:
    """Write the arguments ``arg_from`` takes from a matching earlier call in
    the same function (the analysis call's buffer, for the solve); False
    (nothing done) unless exactly one such call is found, its argument is a
    plain name, and nothing between the two calls assigns it or takes its
    address."""
    if call.scope is None or call.in_macro or not row.arg_from:
        return False
    found: list[tuple[int, str]] = []
    for index, spec in row.arg_from:
        callee, key_text, take_text = spec.split()
        key, take = int(key_text), int(take_text)
        if index != len(call.args) or key >= len(call.args):
            return False
        mine = _words(ctx, call.args[key])
        start, end = call.scope
        matches = []
        for name in re.finditer(rf"\b{re.escape(callee)}\b", ctx.text[:end]):
            if name.start() < start or name.start() >= call.args[0].start:
                continue
            other = call_in_text(ctx.text, name.end(), call.args[0].start)
            if (
                other is not None
                and len(other.args) > max(key, take)
                and _words(ctx, other.args[key]) == mine
            ):
                matches.append(other)
        if len(matches) != 1:
            return False
        value = _words(ctx, matches[0].args[take])
        between = ctx.text[matches[0].close : call.args[0].start]
        word = re.escape(value)
        if not _NAME.match(value) or re.search(
            rf"\b{word}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|&\s*{word}\b|(?:\+\+|--)\s*{word}\b"
            rf"|\b{word}\s*(?:\+\+|--)",
            between,
        ):
            return False
        found.append((index, value))
    group = ctx.new_group()
    for _, value in found:
        ctx.edit(call.close, call.close, f", {value}", "argument-from-call", group=group)
    return True


def _words(ctx: Context, arg: Arg) -> str:
    return " ".join(ctx.text[arg.start : arg.end].split())


def _copied(ctx: Context, arg: Arg) -> str | None:
    """The text of a plain argument to write a second time, its CUDA
    enumerators translated (the copy is new text no other edit renames);
    None when it is not plain or names other CUDA API."""
    text = " ".join(ctx.text[arg.start : arg.end].split())
    if not _PLAIN.match(text):
        return None
    row = ctx.table.names.get(text)
    if row is None:
        return None if any(w in ctx.table.names for w in re.findall(r"\w+", text)) else text
    return ctx.hip_name_for(row) if row.kind == "enum" else None


def rewrite_roc_arguments(
    ctx: Context, row: Row, call: Call, casts: tuple[tuple[int, str], ...] = ()
) -> int | None:
    """Give the call the ROC function's arguments (``roc_args``): drop the
    arguments the template leaves out, write in the others, and wrap the kept
    ones in ``casts`` (CUDA's argument index, ROC type: roc-casts.yaml); how
    many were cast.  None (nothing done) when the template has no form for
    this many arguments, or when an argument to drop or copy is not plain (it
    could have effects, or hold names other edits rename); an argument dropped
    and copied (moved) may be a CUDA enumerator, which the copy translates."""
    parts = row.roc_template(len(call.args))
    if parts is None:
        return None
    args = call.args
    kept: list[int] = []
    copied: set[int] = set()
    pending: list[str] = []
    inserts: list[tuple[int, str]] = []  # (position, text) before the next kept argument
    for part in parts:
        whole = re.fullmatch(r"\{(\d+)\}", part)
        if whole is not None:
            index = int(whole.group(1))
            if pending:
                inserts.append((args[index].start, ", ".join(pending) + ", "))
                pending = []
            kept.append(index)
            continue
        copies = [_copied(ctx, args[int(m.group(1))]) for m in _COPY.finditer(part)]
        if None in copies:
            return None
        copied.update(int(m.group(1)) for m in _COPY.finditer(part))
        pieces = _COPY.split(part)  # text, index, text, index, ..., text
        pending.append(
            "".join(p if i % 2 == 0 else copies[i // 2] or "" for i, p in enumerate(pieces))
        )
    dropped = [i for i in range(len(args)) if i not in kept]
    # a dropped argument the template writes again (moved) may be an enumerator:
    # the copy is translated, the original is not renamed in place
    moved = [i for i in dropped if i in copied and not _plain(ctx, args[i])]
    if not kept or any(not _plain(ctx, args[i]) for i in dropped if i not in moved):
        return None
    ctx.moved.extend((args[i].start, args[i].end) for i in moved)
    group = ctx.new_group()
    for position, text in inserts:
        ctx.edit(position, position, text, "roc-arguments", group=group)
    # after the arguments written before a kept one, before those written after
    # the last: (T)( and ) go around the argument itself
    made = cast_arguments(
        ctx, call, tuple((i, cast) for i, cast in casts if i in kept), group, use_facts=False
    )
    if pending:
        last = args[kept[-1]].end
        ctx.edit(last, last, ", " + ", ".join(pending), "roc-arguments", group=group)
    for first, last in _runs(dropped):
        # the arguments and the comma after them (before them, at the end)
        start, end = (
            (args[first].start, args[last + 1].start)
            if last + 1 < len(args)
            else (args[first - 1].end, args[last].end)
        )
        ctx.edit(start, end, "", "roc-arguments", group=group)
    return made


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """[1, 2, 5] -> [(1, 2), (5, 5)]: runs of consecutive numbers."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


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
    found = ctx.facts.semantic if use_facts else None
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
            and _declared_as(ctx, text, cast, arg.start)
        ):
            continue  # `void** p` already has the type (in a macro, a parameter has none)
        if (
            not (found is not None and arg.start in found.cast_arguments)
            and text.startswith("&")
            and _NAME.match(text[1:])
            and cast.endswith("*")
            and not call.in_macro
            and _declared_as(ctx, text[1:], cast[:-1].rstrip(), arg.start, decay=False)
        ):
            continue  # `&p` of a `void* p` is already a `void**`
        ctx.edit(arg.start, arg.start, f"({cast})(", "cast", group=group)
        ctx.edit(arg.end, arg.end, ")", "cast", group=group)
        made += 1
    return made


def fix_arguments(ctx: Context, row: Row, call: Call, inserts: bool = True) -> None:
    """Wrap arguments in the casts HIP's signatures need (``(void**)(&p)``),
    pass symbols through HIP's macros (``HIP_SYMBOL(sym)``), write the
    arguments HIP takes and CUDA does not, and spell out the trailing arguments
    CUDA defaults and HIP does not."""
    group = ctx.new_group()
    args = call.args
    if inserts:  # ``arg_inserts`` are the ``hip`` name's (not a ``newer_hip``'s)
        insert_arguments(ctx, row.arg_inserts, call, group)
    # the clang engine's answers, where it saw the call (else the text decides)
    facts = ctx.facts.semantic
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
