"""The values an expression can take in this file, for the rules whose
verdict depends on a number (a block size, a warp width, a mask): followed
through what the file itself says.

* integer literals (decimal, hex, octal, with ``u``/``l`` suffixes), and
  arithmetic on them (``+ - * / % << >> & | ^ ~``, parentheses, casts);
* ``#define NAME value`` (object-like), ``const`` / ``constexpr`` variables
  (file scope, ``static constexpr`` members, local constants), ``enum``
  enumerators (with ``= value`` or counted from the one before), qualified
  or not (``Config::THREADS``, ``E::kWarp``);
* a template parameter: every instantiation of its template in this file
  with explicit template arguments (``k<float, 32, 4><<<...>>>``,
  ``Test<32, 32>()``, ``Loader<32>``, a default argument where the
  instantiation leaves it out), each argument followed again where it
  stands, so an argument that is itself a parameter of an outer template
  (``k<T, BLOCK><<<...>>>`` inside ``template <int BLOCK> void Test()``)
  reaches that template's instantiations.

What the file does not fix (a function parameter, a runtime value, a
template argument deduced from a call) adds no value: the result is the set
of values the file shows, empty when it shows none.  ``arrivals`` gives the
same for any text (the algorithm argument of a CUB block type), and
``joint`` keeps several expressions of one instantiation together.
"""

from __future__ import annotations

import ast
import itertools
import re
from functools import partial
from typing import NamedTuple

import tree_sitter

from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import declared_name, macro_at, visible

_DEPTH = 40  # names followed through names, at most (the memo ends cycles)
_COMBINATIONS = 64  # value sets multiplied out in one expression, at most
_NUMBER = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)[uUlL]*\Z")
_NAME = re.compile(r"(?:::\s*)?[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*\Z")
_NAMES = re.compile(r"(?<![\w.:>])(?:::\s*)?[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*(?![\w(<])")
_CASTS = re.compile(
    r"\b(?:static_cast|reinterpret_cast)\s*<[^<>]*>"
    r"|\(\s*(?:(?:const|unsigned|signed|long|short|int|size_t|std\s*::\s*size_t|uint32_t|"
    r"int32_t|uint64_t|int64_t|char|unsigned\s+int)\s*)+\)"
)
_ARITHMETIC = re.compile(r"[\d\s+\-*/%()<>&|^~]*")
_TEMPLATE_ENTITIES = frozenset(
    {
        "function_definition",
        "declaration",
        "struct_specifier",
        "class_specifier",
        "union_specifier",
        "alias_declaration",
        "template_declaration",
        "field_declaration",
    }
)


class Arrival(NamedTuple):
    """An expression a name stands for, and where that expression is written."""

    text: str
    at: int


def int_values(ctx: Context, text: str, at: int, depth: int = 0) -> frozenset[int]:
    """The integer values the expression ``text`` (written at ``at``) can
    take in this file; empty when the file does not fix any.  Memoised per
    file; an expression met again while its own values are being found (a
    cycle) adds none."""
    memo = ctx.facts.values_of
    key = (text, at)
    found = memo.get(key)
    if found is not None:
        return found
    memo[key] = frozenset()  # (a cycle ends here)
    found = memo[key] = _int_values(ctx, text, at, depth)
    return found


def _int_values(ctx: Context, text: str, at: int, depth: int) -> frozenset[int]:
    text = _CASTS.sub(" ", text).strip()
    while text.startswith("(") and text.endswith(")") and balanced(text[1:-1]):
        text = text[1:-1].strip()
    number = _NUMBER.match(text)
    if number is not None:
        value = _number(number.group(1))
        return frozenset() if value is None else frozenset({value})
    if depth >= _DEPTH:
        return frozenset()
    if _NAME.match(text):
        found: set[int] = set()
        for arrival in arrivals(ctx, text, at, depth):
            found |= int_values(ctx, arrival.text, arrival.at, depth + 1)
        return frozenset(found)
    return _arithmetic(ctx, text, at, depth)


def leaf_texts(ctx: Context, text: str, at: int) -> set[str]:
    """The expressions a name (or any text) ends as, followed through
    ``arrivals``: the text itself where it is not a name the file defines."""
    leaves: set[str] = set()
    seen: set[tuple[str, int]] = set()
    pending = [(text.strip(), at, 0)]
    while pending:
        current, where, depth = pending.pop()
        if (current, where) in seen:
            continue
        seen.add((current, where))
        found = arrivals(ctx, current, where, depth) if _NAME.match(current) else []
        if not found or depth >= _DEPTH:
            leaves.add(current)
            continue
        pending.extend((a.text.strip(), a.at, depth + 1) for a in found)
    return leaves


def arrivals(ctx: Context, name: str, at: int, depth: int = 0) -> list[Arrival]:
    """What the (maybe qualified) name ``name`` used at ``at`` stands for:
    a #define body, a constant's initializer, an enumerator's value, or each
    template argument an instantiation in this file gives the template
    parameter it names.  Empty when the file does not say."""
    if depth >= _DEPTH:
        return []
    qualified = "::" in name
    name = name.split("::")[-1].strip()
    if not qualified:
        found = visible(ctx, name, at)
        if found is not None:
            if found.kind == "macro-parameter":
                return []
            if found.kind == "define":
                return [Arrival(found.value or "", at)] if found.value else []
            if found.kind in ("local", "parameter"):
                if found.kind == "local" and found.const and found.value is not None:
                    return [Arrival(found.value, found.start)]
                return []
        parameter = template_parameter(ctx, name, at)
        if parameter is not None:
            return template_arguments(ctx, *parameter, depth=depth)
        if found is not None and found.value is not None:  # a file-scope constant
            return [Arrival(found.value, found.start)]
    elif macro_at(ctx, at) is None:
        found = visible(ctx, name, at)
        if found is not None and found.kind in ("define", "file") and found.value:
            return [Arrival(found.value, found.start if found.kind == "file" else at)]
    return _enumerator(ctx, name)


def template_parameter(
    ctx: Context, name: str, at: int
) -> tuple[tree_sitter.Node, int, str | None] | None:
    """(the template declaration, the parameter's index, its default) when
    ``name`` at ``at`` is a parameter of an enclosing template."""
    node: tree_sitter.Node | None = ctx.root.descendant_for_byte_range(at, at)
    while node is not None:
        if node.type == "template_declaration":
            params = node.child_by_field_name("parameters")
            children = [c for c in params.named_children if c.type != "comment"] if params else []
            for index, param in enumerate(children):
                if _parameter_name(ctx, param) == name:
                    default = param.child_by_field_name("default_value")
                    if default is None:
                        default = param.child_by_field_name("default_type")
                    return node, index, ctx.node_text(default) if default is not None else None
        node = node.parent
    return None


def template_arguments(
    ctx: Context, template: tree_sitter.Node, index: int, default: str | None, depth: int = 0
) -> list[Arrival]:
    """The ``index``-th template argument of each instantiation, in this file,
    of what ``template`` declares (its default where one leaves it out)."""
    memo = ctx.facts.template_arguments
    key = (template.id, index)
    if key in memo:
        return [Arrival(text, at) for text, at in memo[key]]
    memo[key] = []  # (a template that instantiates itself ends here)
    found = _template_arguments(ctx, template, index, default)
    memo[key] = [(a.text, a.at) for a in found]
    return found


def _template_arguments(
    ctx: Context, template: tree_sitter.Node, index: int, default: str | None
) -> list[Arrival]:
    entity = template_name(ctx, template)
    if not entity:
        return []
    found: list[Arrival] = []
    for offset in occurrences(ctx.text, entity):
        arguments = _instantiation(ctx, offset, len(entity), template)
        if arguments is None:
            continue
        if index < len(arguments):
            found.append(arguments[index])
        elif default is not None:
            parameters = template.child_by_field_name("parameters")
            at = parameters.start_byte if parameters is not None else template.start_byte
            found.append(Arrival(default, at))
    return found


_JOINT_LIMIT = 256  # joint readings of one set of expressions, at most


def joint(ctx: Context, arrivals_: tuple[Arrival, ...]) -> list[tuple[Arrival, ...]]:
    """The expressions together, per instantiation: where several of them
    are parameters of one template, each instantiation of it gives all of
    them at once (``<32, DIRECT>`` and ``<64, WARP_TRANSPOSE>`` are not read
    as ``<32, WARP_TRANSPOSE>``), through outer templates too.  An
    expression that is no template parameter stays as it is (``int_values``
    and ``leaf_texts`` read it); at most _JOINT_LIMIT readings."""
    done: list[tuple[Arrival, ...]] = []
    pending: list[tuple[tuple[Arrival, ...], int]] = [(arrivals_, 0)]
    while pending and len(done) < _JOINT_LIMIT:
        current, depth = pending.pop()
        bound = _bound_parameters(ctx, current) if depth < _DEPTH else None
        if bound is None:
            done.append(current)
            continue
        template, indices = bound
        for arguments, default_at in _instantiations(ctx, template):
            replaced = list(current)
            complete = True
            for position, (index, default) in indices.items():
                if index < len(arguments):
                    replaced[position] = arguments[index]
                elif default is not None:
                    replaced[position] = Arrival(default, default_at)
                else:
                    complete = False
            if complete:
                pending.append((tuple(replaced), depth + 1))
    return done


def _bound_parameters(
    ctx: Context, arrivals_: tuple[Arrival, ...]
) -> tuple[tree_sitter.Node, dict[int, tuple[int, str | None]]] | None:
    """The template whose parameters the first template-parameter name among
    ``arrivals_`` is, and (position -> its index and default) for every one
    of them that is a parameter of that same template."""
    template: tree_sitter.Node | None = None
    indices: dict[int, tuple[int, str | None]] = {}
    for position, arrival in enumerate(arrivals_):
        text = arrival.text.strip()
        if not _NAME.match(text) or "::" in text:
            continue
        found = visible(ctx, text, arrival.at)
        if found is not None and found.kind in ("define", "macro-parameter", "local", "parameter"):
            continue
        parameter = template_parameter(ctx, text, arrival.at)
        if parameter is None:
            continue
        if template is None:
            template = parameter[0]
        if parameter[0].id == template.id:
            indices[position] = (parameter[1], parameter[2])
    return None if template is None else (template, indices)


def _instantiations(ctx: Context, template: tree_sitter.Node) -> list[tuple[list[Arrival], int]]:
    """The template argument list of each instantiation of ``template`` in
    this file, and where its defaults are written (memoised per file)."""
    memo = ctx.facts.instantiations
    cached = memo.get(template.id)
    if cached is not None:
        return [([Arrival(t, a) for t, a in arguments], at) for arguments, at in cached]
    found = _find_instantiations(ctx, template)
    memo[template.id] = [([(a.text, a.at) for a in arguments], at) for arguments, at in found]
    return found


def _find_instantiations(
    ctx: Context, template: tree_sitter.Node
) -> list[tuple[list[Arrival], int]]:
    entity = template_name(ctx, template)
    if not entity:
        return []
    parameters = template.child_by_field_name("parameters")
    default_at = parameters.start_byte if parameters is not None else template.start_byte
    found = []
    for offset in occurrences(ctx.text, entity):
        arguments = _instantiation(ctx, offset, len(entity), template)
        if arguments is not None:
            found.append((arguments, default_at))
    return found


def template_name(ctx: Context, template: tree_sitter.Node) -> str:
    """The name of the function, class or alias a template declares."""
    entity = next((c for c in template.named_children if c.type in _TEMPLATE_ENTITIES), None)
    while entity is not None and entity.type == "template_declaration":
        entity = next((c for c in entity.named_children if c.type in _TEMPLATE_ENTITIES), None)
    if entity is None:
        return ""
    named = entity.child_by_field_name("name")
    if named is not None:
        return ctx.node_text(named).split("::")[-1].strip()
    declarator = entity.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in (
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "operator_name",
    ):
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            break
        declarator = inner
    if declarator is None or declarator.type == "operator_name":
        return ""
    return ctx.node_text(declarator).split("::")[-1].strip()


def _parameter_name(ctx: Context, param: tree_sitter.Node) -> str:
    declarator = param.child_by_field_name("declarator")
    if declarator is not None:
        ident, _, _ = declared_name(declarator)
        return ctx.node_text(ident) if ident is not None else ""
    if param.type in ("type_parameter_declaration", "optional_type_parameter_declaration"):
        name = param.child_by_field_name("name")
        if name is None:
            name = next((c for c in param.named_children if c.type == "type_identifier"), None)
        return ctx.node_text(name) if name is not None else ""
    return ""


def _instantiation(
    ctx: Context, offset: int, length: int, template: tree_sitter.Node
) -> list[Arrival] | None:
    """The template arguments written after the name at ``offset``, when it
    is a use of the template with a template argument list (not the
    template's own declaration)."""
    if template.start_byte <= offset < _header_end(template):
        return None
    node = ctx.root.descendant_for_byte_range(offset, offset + length)
    if node is None or node.start_byte != offset or node.end_byte != offset + length:
        macro = macro_at(ctx, offset)
        if macro is None:
            return None
        return _text_arguments(ctx.text, offset + length)  # in a #define body
    parent = node.parent
    if parent is None or parent.type not in (
        "template_function",
        "template_type",
        "template_method",
    ):
        return None
    if parent.child_by_field_name("name") != node:
        return None
    arguments = parent.child_by_field_name("arguments")
    if arguments is None:
        return None
    return [
        Arrival(ctx.node_text(child), child.start_byte)
        for child in arguments.named_children
        if child.type != "comment"
    ]


def _header_end(template: tree_sitter.Node) -> int:
    """Where the declared entity's own name ends: the declaration up to its
    body (a specialisation's own argument list is not an instantiation)."""
    entity = template.named_children[-1] if template.named_children else None
    body = entity.child_by_field_name("body") if entity is not None else None
    return body.start_byte if body is not None else template.end_byte


def _text_arguments(text: str, after: int) -> list[Arrival] | None:
    """``<a, b<c>, d>`` right after ``after`` (macro bodies have no tree)."""
    at = after
    while at < len(text) and text[at] in " \t":
        at += 1
    if at >= len(text) or text[at] != "<":
        return None
    depth, start, found = 0, at + 1, []
    for pos in range(at, min(len(text), at + 2000)):
        char = text[pos]
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
            if depth == 0:
                found.append(Arrival(text[start:pos].strip(), start))
                return found
        elif char == "," and depth == 1:
            found.append(Arrival(text[start:pos].strip(), start))
            start = pos + 1
        elif char in ";\n":
            return None
    return None


def _enumerator(ctx: Context, name: str) -> list[Arrival]:
    """An enumerator ``name`` of this file: its value, or the one before it
    plus one (0 for the first)."""
    for offset in occurrences(ctx.text, name):
        node = ctx.root.descendant_for_byte_range(offset, offset + len(name))
        enumerator = node.parent if node is not None else None
        if enumerator is None or enumerator.type != "enumerator":
            continue
        if enumerator.child_by_field_name("name") != node:
            continue
        value = enumerator.child_by_field_name("value")
        if value is not None:
            return [Arrival(ctx.node_text(value), value.start_byte)]
        before = enumerator.prev_named_sibling
        while before is not None and before.type != "enumerator":
            before = before.prev_named_sibling
        if before is None:
            return [Arrival("0", enumerator.start_byte)]
        previous = before.child_by_field_name("name")
        if previous is None:
            return []
        return [Arrival(f"({ctx.node_text(previous)}) + 1", before.start_byte)]
    return []


def _arithmetic(ctx: Context, text: str, at: int, depth: int) -> frozenset[int]:
    """``WARP_SIZE * 3``, ``(THREADS + 32)``: each name replaced by each of
    its values."""
    names = sorted({m.group() for m in _NAMES.finditer(text)})
    choices: list[list[int]] = []
    for name in names:
        values = int_values(ctx, name, at, depth + 1)
        if not values:
            return frozenset()
        choices.append(sorted(values))
    found: set[int] = set()
    for combination in itertools.islice(itertools.product(*choices), _COMBINATIONS):
        substituted = dict(zip(names, combination, strict=True))
        expression = _NAMES.sub(partial(_substitute, substituted), text)
        expression = re.sub(
            r"\b(0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)[uUlL]*",
            lambda m: str(_number(m.group(1))),
            expression,
        )
        shifts_removed = expression.replace("<<", "").replace(">>", "")
        if not _ARITHMETIC.fullmatch(expression) or re.search(r"[<>]", shifts_removed):
            return frozenset()  # a comparison, or text that is not arithmetic
        value = _evaluate_text(expression)
        if value is None:
            return frozenset()
        found.add(value)
    return frozenset(found)


def _substitute(values: dict[str, int], match: re.Match[str]) -> str:
    return f"({values[match.group()]})"


def _evaluate_text(expression: str) -> int | None:
    try:
        tree = ast.parse(expression.replace("/", "//"), mode="eval")
    except (SyntaxError, ValueError):
        return None
    return _evaluate(tree.body)


def _evaluate(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp):
        operand = _evaluate(node.operand)
        if operand is None:
            return None
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Invert):
            return ~operand
        return None
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left), _evaluate(node.right)
        if left is None or right is None:
            return None
        return _binary(node.op, left, right)
    return None


def _binary(op: ast.operator, left: int, right: int) -> int | None:
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, (ast.FloorDiv, ast.Mod)):
        if right == 0:
            return None
        # C truncates toward zero
        quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
        return quotient if isinstance(op, ast.FloorDiv) else left - quotient * right
    if isinstance(op, (ast.LShift, ast.RShift)):
        if not 0 <= right < 64:
            return None
        return left << right if isinstance(op, ast.LShift) else left >> right
    if isinstance(op, ast.BitAnd):
        return left & right
    if isinstance(op, ast.BitOr):
        return left | right
    if isinstance(op, ast.BitXor):
        return left ^ right
    return None


def _number(literal: str) -> int | None:
    try:
        if re.fullmatch(r"0\d+", literal):
            return int(literal, 8)
        return int(literal, 0)
    except ValueError:
        return None


def balanced(text: str) -> bool:
    """Do the parentheses of ``text`` pair up (never closing one not opened)?"""
    depth = 0
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if depth < 0:
            return False
    return depth == 0
