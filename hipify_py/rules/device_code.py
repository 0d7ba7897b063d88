"""Where the device code of a file is: the bodies of __global__ / __device__
functions (and lambdas), found from those keywords rather than by a walk of
the whole tree."""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from hipify_py.engine.context import Context

_FUNCTIONS = frozenset({"function_definition", "lambda_expression"})


_NOT_CODE = frozenset(
    {
        "string_literal",
        "string_content",
        "raw_string_literal",
        "char_literal",
        "comment",
        "concatenated_string",
        "system_lib_string",
    }
)


def device_bodies(ctx: Context) -> list[tuple[int, int, tree_sitter.Node]]:
    """(start, end, function node) of each device function body, in file order."""
    cached = ctx.facts.device_bodies
    if cached is not None:
        return cached
    seen: set[int] = set()
    bodies: list[tuple[int, int, tree_sitter.Node]] = []
    from hipify_py.engine.words import occurrences

    # str.find-based: much faster than a regex with a look-behind on big files
    markers = sorted(
        (start, start + len(word))
        for word in ("__global__", "__device__")
        for start in occurrences(ctx.text, word)
    )
    for marker_start, marker_end in markers:
        node = ctx.root.descendant_for_byte_range(marker_start, marker_end)
        if node is not None and node.type in _NOT_CODE:
            continue  # "__global__ void k() {}" in an NVRTC source string, a comment
        if node is not None and node.parent is not None and node.parent.type in _NOT_CODE:
            continue
        while node is not None and node.type not in _FUNCTIONS:
            if node.type in ("translation_unit", "declaration", "field_declaration"):
                node = None
                break
            node = node.parent
        if node is None or node.id in seen:
            continue
        body = node.child_by_field_name("body")
        if body is None:
            continue
        if body.start_byte <= marker_start < body.end_byte:
            # the marker is inside the body: a `[=] __device__ (...) {...}` lambda
            # the grammar could not read (xgboost's LaunchN), not this function's
            lambda_body = _unparsed_lambda_body(ctx, marker_end, body)
            if lambda_body is not None and lambda_body.id not in seen:
                seen.add(lambda_body.id)
                bodies.append((lambda_body.start_byte, lambda_body.end_byte, lambda_body))
            continue
        seen.add(node.id)
        bodies.append((body.start_byte, body.end_byte, node))
    bodies.sort(key=lambda b: b[0])
    ctx.facts.device_bodies = bodies
    return bodies


_LAMBDA_TAIL = re.compile(r"\s*(?:mutable\b|noexcept\b|->[^{;]*)?\s*\{")


def _unparsed_lambda_body(
    ctx: Context, after: int, within: tree_sitter.Node
) -> tree_sitter.Node | None:
    """The body of a lambda whose ``__device__`` ends at ``after``: past its
    parameter list, the compound statement that opens there (None when the
    text is not shaped like a lambda)."""
    text = ctx.text
    pos = after
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    if pos < len(text) and text[pos] == "(":
        depth = 0
        while pos < within.end_byte:
            if text[pos] == "(":
                depth += 1
            elif text[pos] == ")":
                depth -= 1
                if depth == 0:
                    pos += 1
                    break
            pos += 1
    tail = _LAMBDA_TAIL.match(text, pos)
    if tail is None:
        return None
    brace = tail.end() - 1
    node = ctx.root.descendant_for_byte_range(brace, brace + 1)
    while node is not None and node.start_byte == brace and node.type != "compound_statement":
        node = node.parent
    if node is None or node.type != "compound_statement" or node.start_byte != brace:
        return None
    return node


def in_device_code(ctx: Context, offset: int) -> bool:
    return any(start <= offset < end for start, end, _ in device_bodies(ctx))


# a test of the device pass: `__CUDA_ARCH__` (HIP: `__HIP_DEVICE_COMPILE__`),
# bare or in defined(), negated or not
_PASS_TEST = re.compile(r"(!?)(?:defined\(?)?(__CUDA_ARCH__|__HIP_DEVICE_COMPILE__)\)?")


def host_pass_only(ctx: Context, offset: int) -> bool:
    """Is ``offset`` in a branch the device pass never compiles: under
    ``#ifndef __CUDA_ARCH__`` / ``#if !defined(__CUDA_ARCH__)``, or in the
    ``#else`` of ``#ifdef __CUDA_ARCH__`` / ``#if defined(__CUDA_ARCH__)``
    (or the same tests of ``__HIP_DEVICE_COMPILE__``)?  The host half of a
    ``__host__ __device__`` function."""
    node: tree_sitter.Node | None = ctx.root.descendant_for_byte_range(offset, offset)
    child: tree_sitter.Node | None = None
    while node is not None:
        if node.type in ("preproc_if", "preproc_ifdef"):
            alternative = node.child_by_field_name("alternative")
            in_else = alternative is not None and child is not None and child == alternative
            device_test = _device_pass_test(ctx, node)
            if device_test is not None and device_test == in_else:
                return True
        child = node
        node = node.parent
    return False


def _device_pass_test(ctx: Context, conditional: tree_sitter.Node) -> bool | None:
    """True: the branch is taken in the device pass (``#ifdef __CUDA_ARCH__``);
    False: in the host pass (``#ifndef __CUDA_ARCH__``); None: another test."""
    if conditional.type == "preproc_ifdef":
        name = conditional.child_by_field_name("name")
        if name is None or ctx.node_text(name) not in ("__CUDA_ARCH__", "__HIP_DEVICE_COMPILE__"):
            return None
        return not ctx.node_text(conditional).lstrip("#").lstrip().startswith("ifndef")
    condition = conditional.child_by_field_name("condition")
    if condition is None:
        return None
    match = _PASS_TEST.fullmatch("".join(ctx.node_text(condition).split()))
    return None if match is None else not match.group(1)


def function_name(ctx: Context, function: tree_sitter.Node) -> str:
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("identifier", "field_identifier"):
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            break
        declarator = inner
    return ctx.node_text(declarator) if declarator is not None else ""


# ------------------------------------------------------------------ scopes
#
# What a name means at one place in the file: a function or macro parameter,
# a local declared before the use in an enclosing block, a #define, or a
# file-scope constant.  The warp and warp-size rules resolve masks, sizes and
# variable types with it, so a parameter named like a constant elsewhere in
# the file shadows that constant (as the compiler sees it).

_FUNCTION_LIKE = frozenset({"function_definition", "lambda_expression"})
_PARAMETERS = frozenset(
    {"parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration"}
)
_TEMPLATE_PARAMETERS = frozenset(
    {
        "parameter_declaration",
        "optional_parameter_declaration",
        "type_parameter_declaration",
        "optional_type_parameter_declaration",
        "variadic_type_parameter_declaration",
        "template_template_parameter_declaration",
    }
)
_DECLARATOR_WRAPPERS = frozenset(
    {
        "init_declarator",
        "pointer_declarator",
        "reference_declarator",
        "array_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
    }
)
_COMMENTS = re.compile(r"/\*.*?\*/|//.*$", re.S)


@dataclass
class Declared:
    """What ``name`` is at a use."""

    kind: str  # parameter | template-parameter | local | file | define | macro-parameter
    name: str
    type_text: str = ""  # qualifiers and type, whitespace folded ("" for macros)
    value: str | None = None  # initializer, default argument or macro body
    start: int = 0  # where the name is declared
    node: tree_sitter.Node | None = None  # the declaration (or the macro definition)
    type_node: tree_sitter.Node | None = None
    value_node: tree_sitter.Node | None = None
    indirect: bool = False  # declared through *, & or [] (a pointer, reference or array)
    array: bool = False
    index: int = -1  # position among the function's or macro's parameters
    owner: tree_sitter.Node | None = None  # the function or macro a parameter belongs to

    @property
    def const(self) -> bool:
        return re.search(r"\b(?:const|constexpr)\b", self.type_text) is not None


def declared_name(declarator: tree_sitter.Node) -> tuple[tree_sitter.Node | None, bool, bool]:
    """(identifier, through a pointer/reference/array, an array) of a declarator."""
    node: tree_sitter.Node | None = declarator
    indirect = array = False
    while node is not None and node.type in _DECLARATOR_WRAPPERS:
        if node.type in ("pointer_declarator", "reference_declarator"):
            indirect = True
        if node.type == "array_declarator":
            indirect = array = True
        inner = node.child_by_field_name("declarator")
        if inner is None:  # reference_declarator: the declarator is a plain child
            inner = next((c for c in node.named_children if c.type != "type_qualifier"), None)
        node = inner
    if node is not None and node.type in ("identifier", "field_identifier"):
        return node, indirect, array
    return None, indirect, array


def call_naming(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The call expression whose function is ``node`` (``f`` of ``f(x)``), else None."""
    call = node.parent
    if (
        call is None
        or call.type != "call_expression"
        or call.child_by_field_name("function") != node
    ):
        return None
    return call


def declared_type(ctx: Context, declaration: tree_sitter.Node) -> str:
    """The type a declaration gives its declarators, with its qualifiers and
    storage class, white space folded."""
    parts = [
        ctx.node_text(c)
        for c in declaration.children
        if c.type in ("type_qualifier", "storage_class_specifier")
    ]
    type_node = declaration.child_by_field_name("type")
    if type_node is not None:
        parts.append(ctx.node_text(type_node))
    return " ".join(" ".join(parts).split())


def _initializer(ctx: Context, value: tree_sitter.Node | None) -> str | None:
    """The expression of ``= x``, ``(x)`` or ``{x}``."""
    if value is None:
        return None
    if value.type in ("argument_list", "initializer_list"):
        inner = [c for c in value.named_children if c.type != "comment"]
        return ctx.node_text(inner[0]) if len(inner) == 1 else None
    return ctx.node_text(value)


def declarations_in(
    ctx: Context, declaration: tree_sitter.Node, name: str, kind: str
) -> Declared | None:
    """``name`` among the declarators of one declaration (or parameter)."""
    for declarator in declaration.children_by_field_name("declarator"):
        ident, indirect, array = declared_name(declarator)
        if ident is None or ctx.node_text(ident) != name:
            continue
        value_node = None
        if declarator.type == "init_declarator":
            value_node = declarator.child_by_field_name("value")
        elif declaration.type == "optional_parameter_declaration":
            value_node = declaration.child_by_field_name("default_value")
        return Declared(
            kind,
            name,
            declared_type(ctx, declaration),
            _initializer(ctx, value_node),
            ident.start_byte,
            declaration,
            declaration.child_by_field_name("type"),
            value_node,
            indirect,
            array,
        )
    return None


def macro_at(ctx: Context, offset: int) -> tree_sitter.Node | None:
    """The #define whose body holds ``offset``."""
    node: tree_sitter.Node | None = ctx.root.descendant_for_byte_range(offset, offset + 1)
    while node is not None and node.type not in ("preproc_def", "preproc_function_def"):
        if node.type == "translation_unit":
            return None
        node = node.parent
    if node is None:
        return None
    value = node.child_by_field_name("value")
    if value is None or not value.start_byte <= offset < value.end_byte:
        return None
    return node


def macro_definitions(ctx: Context) -> list[tree_sitter.Node]:
    """Every ``#define`` of the file (preproc_def and preproc_function_def nodes,
    wherever they sit), in file order.  Found from the word ``define``: the
    directive token of each holds it, and a query over the whole tree costs
    a walk of every node."""
    cached = ctx.facts.macro_definitions
    if cached is not None:
        return cached
    found: list[tree_sitter.Node] = []
    text = ctx.text
    root = ctx.root
    pos = text.find("define")
    while pos != -1:
        token = root.descendant_for_byte_range(pos, pos + 6)
        macro = token.parent if token is not None else None
        if (
            token is not None
            and macro is not None
            and macro.type in ("preproc_def", "preproc_function_def")
            and macro.start_byte == token.start_byte  # the directive, not a name
        ):
            found.append(macro)
        pos = text.find("define", pos + 6)
    ctx.facts.macro_definitions = found
    return found


def macro_parameters(ctx: Context, macro: tree_sitter.Node) -> list[str]:
    params = macro.child_by_field_name("parameters")
    if params is None:
        return []
    return [ctx.node_text(c) for c in params.named_children]


def define_of(ctx: Context, name: str, before: int | None = None) -> tuple[str, int] | None:
    """The body (comments removed) and offset of ``#define name value``, the
    first one before ``before`` when given."""
    index = ctx.facts.defines
    if index is None:
        index = ctx.facts.defines = _defines(ctx.text)
    for body, start in index.get(name, ()):
        if before is None or start < before:
            return body, start
    return None


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)([^\n]*)", re.M)


def _defines(text: str) -> dict[str, list[tuple[str, int]]]:
    """Every object-like ``#define NAME value`` of the file: name -> (value, offset)."""
    found: dict[str, list[tuple[str, int]]] = {}
    if "define" not in text:
        return found
    # a match starts a line holding "define": tried only there (re would try
    # every offset of the file for the ^)
    line_starts = set()
    pos = text.find("define")
    while pos != -1:
        line_starts.add(text.rfind("\n", 0, pos) + 1)
        pos = text.find("define", pos + 6)
    for line_start in sorted(line_starts):
        match = _DEFINE.match(text, line_start)
        if match is None:
            continue
        body = match.group(2)
        if body[:1] not in (" ", "\t", "/", "\r", ""):
            continue  # a function-like macro
        value = " ".join(_COMMENTS.sub(" ", body).split())
        found.setdefault(match.group(1), []).append((value, match.start(1)))
    return found


_CONSTANT_BEFORE = re.compile(r"\b(?:const|constexpr)\b[^;=(){}]*$")
_VALUE_AFTER = re.compile(r"\s*(?:=\s*([^;,}\r\n]+)|\{\s*([^;{}\r\n]+?)\s*\})")
_ENUM_OPEN = re.compile(r"\benum\b[^{;]*\{[^}]*$")


def file_constant(ctx: Context, name: str) -> tuple[str, int] | None:
    """``const``/``constexpr`` variable or enumerator ``name`` outside any
    function body (cached per file)."""
    cache = ctx.facts.file_constants
    if name in cache:
        found: tuple[str, int] | None = cache[name]
        return found
    found = None
    text = ctx.text
    for start in _occurrences(text, name):
        line_start = text.rfind("\n", 0, start) + 1
        before = text[line_start:start]
        after = _VALUE_AFTER.match(text, start + len(name))
        if after is None:
            continue
        if not (
            _CONSTANT_BEFORE.search(before) or _ENUM_OPEN.search(text, max(0, start - 2000), start)
        ):
            continue
        node: tree_sitter.Node | None = ctx.root.descendant_for_byte_range(start, start + len(name))
        local = False
        while node is not None:
            if node.type in _FUNCTION_LIKE:
                local = True
                break
            node = node.parent
        if local:
            continue
        found = ((after.group(1) or after.group(2)).strip(), start)
        break
    cache[name] = found
    return found


def _occurrences(text: str, name: str) -> list[int]:
    from hipify_py.engine.words import occurrences

    return occurrences(text, name)


def visible(ctx: Context, name: str, offset: int) -> Declared | None:
    """What ``name`` refers to at ``offset`` (None: nothing this file declares)."""
    macro = macro_at(ctx, offset)
    if macro is not None:
        params = macro_parameters(ctx, macro)
        if name in params:
            return Declared(
                "macro-parameter",
                name,
                start=macro.start_byte,
                node=macro,
                index=params.index(name),
                owner=macro,
            )
        define = define_of(ctx, name)
    else:
        define = define_of(ctx, name, before=offset)
    if define is not None:
        return Declared("define", name, value=define[0], start=define[1])
    if macro is None:
        local = _scoped(ctx, name, offset)
        if local is not None:
            return local
    constant = file_constant(ctx, name)
    if constant is not None:
        return Declared("file", name, "const", constant[0], constant[1])
    return None


def _scoped(ctx: Context, name: str, offset: int) -> Declared | None:
    node: tree_sitter.Node | None = ctx.root.descendant_for_byte_range(offset, offset + 1)
    while node is not None and node.type != "translation_unit":
        parent = node.parent
        if node.type == "compound_statement":
            found = None
            for child in node.named_children:
                if child.start_byte >= offset:
                    break
                if child.type == "declaration":
                    found = declarations_in(ctx, child, name, "local") or found
            if found is not None:
                return found
        elif node.type in ("for_statement", "for_range_loop"):
            init = node.child_by_field_name("initializer")
            if init is not None and init.type == "declaration" and init.end_byte <= offset:
                found = declarations_in(ctx, init, name, "local")
                if found is not None:
                    return found
            if node.type == "for_range_loop":
                declarator = node.child_by_field_name("declarator")
                ident = declared_name(declarator)[0] if declarator is not None else None
                if ident is not None and ctx.node_text(ident) == name:
                    return Declared("local", name, declared_type(ctx, node), None, ident.start_byte)
        elif node.type in _FUNCTION_LIKE:
            found = _parameter(ctx, node, name)
            if found is not None:
                return found
            template = parent if parent is not None else None
            if template is not None and template.type == "template_declaration":
                params = template.child_by_field_name("parameters")
                for param in params.named_children if params is not None else []:
                    if param.type in _TEMPLATE_PARAMETERS and name in ctx.node_text(param).split():
                        return Declared("template-parameter", name, start=param.start_byte)
            if node.type == "function_definition":
                return None  # file scope next
        node = parent
    return None


def function_parameters(ctx: Context, function: tree_sitter.Node) -> list[tree_sitter.Node]:
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in (
        "function_declarator",
        "lambda_declarator",
        "abstract_function_declarator",
    ):
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    if params is None:
        return []
    return [p for p in params.named_children if p.type in _PARAMETERS]


def _parameter(ctx: Context, function: tree_sitter.Node, name: str) -> Declared | None:
    for index, param in enumerate(function_parameters(ctx, function)):
        found = declarations_in(ctx, param, name, "parameter")
        if found is not None:
            found.index = index
            found.owner = function
            return found
    return None


def constant_value(ctx: Context, name: str, offset: int) -> str | None:
    """The value of a macro or constant ``name`` visible at ``offset``."""
    found = visible(ctx, name, offset)
    if found is None or found.value is None:
        return None
    if found.kind in ("define", "file") or (found.kind == "local" and found.const):
        return found.value
    return None
