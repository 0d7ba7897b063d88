"""Device ``min``/``max`` (and the other overload sets CUDA and HIP both
declare for device code) whose overload HIP resolves to another type.

CUDA declares ``unsigned int min(int, unsigned int)``, ``int min(int, int)``
for shorts and chars, ``unsigned long min(long, unsigned long)`` and so on;
HIP's device ``min`` is a template on one type plus int, float and double
overloads, so ``min(int, unsigned)`` is a ``double`` there (``x[min(C - 1, i +
u * blockDim.x)]`` is then "array subscript is not an integer", and where it
compiles the comparison is no longer CUDA's unsigned one).  What CUDA 12.4
makes of each pair of argument types, and which pairs HIP (5.7.1 to 7.2.4,
device or host side) types differently, is data measured with the real
compilers (``hipify_py/data/device_overloads.yaml``, written by
``tools/semantic_check.py``).

In device code, a call whose argument types the tree tells (declared types of
locals, parameters and file-scope variables, ``auto`` locals by their
initializer, members of the file's own structs, literals, ``threadIdx.x`` and
the other built-in vectors' members, casts, subscripts, nested calls,
arithmetic on those) gets its arguments cast to CUDA's result type where HIP
differs: ``min((unsigned int)(C - 1), i + u * blockDim.x)``; ``threadIdx.x``
and its kin always (HIP 5.7's are objects that convert to unsigned int, so
``min(threadIdx.x, 31)`` is ambiguous there).  Where an argument's type
cannot be known and some type it could have makes HIP differ, the call is
reported (HPY462).  (``umin``,
``umax``, ``llmin``, ``llmax``, ``ullmin`` and ``ullmax``, which HIP lacks,
stay unsupported, HPY101: ``--compat``'s header provides them.)
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.call_args import declaration_of, declarator_tokens, declared_tokens
from hipify_py.rules.device_code import call_naming, device_bodies
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.rules.scalar_types import FLOATS, INTEGERS, common, literal_type, promoted

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "device_overloads.yaml"

UNKNOWN_TYPES = D.Code(
    "HPY462",
    "device-overload-types",
    D.Severity.WARNING,
    "a device min/max-like call whose argument types hipify-py cannot tell, where HIP "
    "picks another overload than CUDA for some of them",
    why="CUDA declares min/max for mixed signedness (min(int, unsigned) is an unsigned int, "
    "compared as unsigned) and for short and char (an int); HIP's device min/max is a template "
    "on one type plus int/float/double overloads, so the same call yields another type (a "
    "double for min(int, unsigned)), or compares differently.  Where the types are known "
    "hipify-py casts the arguments to CUDA's type; here one is not (a template type, a "
    "member, a call).",
    example="template <class T> __device__ T f(T a, unsigned b) { return min(a, b); }",
    fix="Cast the arguments to the type CUDA's overload uses (min((unsigned)a, b) for an int "
    "and an unsigned), or make both arguments the same type.",
)


class Overloads:
    """The data file: per function and argument types (``"int, unsigned int"``),
    CUDA's result type, and the HIP releases that type the call otherwise."""

    def __init__(self, cuda: dict[str, dict[str, str]], differs: dict[str, dict[str, str]]):
        self.cuda = cuda
        self.differs = differs  # function -> args -> the releases, comma-separated

    def functions(self) -> frozenset[str]:
        return frozenset(self.differs)


_FUNCTION = re.compile(r"^(\w+):\s*$")
_ENTRY = re.compile(r'^  "([^"]+)": \{cuda: ([^,}]+?)(?:, differs: \[([^\]]*)\])?\}\s*$')


@cache
def overloads(path: Path = DATA_FILE) -> Overloads:
    """Read the data file (its one shape, without PyYAML; tests compare the
    reading with PyYAML's)."""
    cuda: dict[str, dict[str, str]] = {}
    differs: dict[str, dict[str, str]] = {}
    function = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head = _FUNCTION.match(line)
        if head is not None:
            function = head.group(1)
            continue
        entry = _ENTRY.match(line)
        if entry is None or not function:
            raise ValueError(f"{path}: unexpected line {line!r}")
        args, result, releases = entry.groups()
        cuda.setdefault(function, {})[args] = result.strip()
        if releases is not None:
            differs.setdefault(function, {})[args] = releases
    return Overloads(cuda, differs)


# ----------------------------------------------------------------- types
#
# The argument types the table knows, each spelled one way.

_SPELLED = {
    "signed": "int",
    "signed int": "int",
    "unsigned": "unsigned int",
    "long int": "long",
    "signed long": "long",
    "long signed int": "long",
    "unsigned long int": "unsigned long",
    "long unsigned int": "unsigned long",
    "long unsigned": "unsigned long",
    "long long int": "long long",
    "signed long long": "long long",
    "unsigned long long int": "unsigned long long",
    "short int": "short",
    "signed short": "short",
    "unsigned short": "unsigned short",
    "unsigned short int": "unsigned short",
    "signed char": "signed char",
    "unsigned char": "unsigned char",
    "half": "__half",
    "size_t": "unsigned long",
    "ptrdiff_t": "long",
    "int8_t": "signed char",
    "uint8_t": "unsigned char",
    "int16_t": "short",
    "uint16_t": "unsigned short",
    "int32_t": "int",
    "uint32_t": "unsigned int",
    "int64_t": "long",
    "uint64_t": "unsigned long",
}
_QUALIFIERS = frozenset({"const", "volatile", "std"})
_BUILTIN_VECTORS = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})


def normalized(words: list[str]) -> str | None:
    """One spelling of a scalar type (``unsigned`` -> ``unsigned int``,
    ``const int`` -> ``int``); None for a pointer or a type not known here."""
    if "*" in words:
        return None
    kept = [w for w in words if w not in _QUALIFIERS]
    text = " ".join(kept)
    text = _SPELLED.get(text, text)
    known = (*INTEGERS, *FLOATS, "__half", "bool", "signed char", "unsigned char")
    return text if text in known or text == "unsigned short" else None


_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "&", "|", "^"})


_DEPTH = 48  # deeper expressions (generated code) are not typed: no recursion limit hit


def expression_type(ctx: Context, node: tree_sitter.Node, depth: int = 0) -> str | None:
    """The type of an expression, where the tree tells it; else None."""
    if depth > _DEPTH:
        return None
    depth += 1
    kind = node.type
    if kind == "number_literal":
        return literal_type(ctx.node_text(node))
    if kind == "char_literal":
        return "char"
    if kind in ("true", "false"):
        return "bool"
    if kind == "parenthesized_expression":
        inner = [c for c in node.named_children if c.type != "comment"]
        return expression_type(ctx, inner[0], depth) if len(inner) == 1 else None
    if kind == "identifier":
        name = ctx.node_text(node)
        if name == "warpSize":
            return "int"
        tokens = declared_tokens(ctx, name, node.start_byte)
        if tokens is not None and [w for w in tokens if w not in _QUALIFIERS] == ["auto"]:
            # `auto n = blockDim.x;`: the initializer's type
            found = declaration_of(ctx, name, node.start_byte)
            value = found.value_node if found is not None else None
            if value is None or value.type in ("argument_list", "initializer_list"):
                return None
            return expression_type(ctx, value, depth)
        return normalized(tokens) if tokens is not None else None
    if kind == "field_expression":
        target = node.child_by_field_name("argument")
        field_node = node.child_by_field_name("field")
        if target is None or field_node is None or target.type != "identifier":
            return None
        if ctx.node_text(target) in _BUILTIN_VECTORS and ctx.node_text(field_node) in (
            "x",
            "y",
            "z",
        ):
            return "unsigned int"
        return _member_type(ctx, node, target, field_node)
    if kind == "subscript_expression":
        target = node.child_by_field_name("argument")
        if target is None or target.type != "identifier":
            return None
        tokens = declared_tokens(ctx, ctx.node_text(target), target.start_byte)
        if not tokens or tokens[-1] != "*" or tokens.count("*") != 1:
            return None
        return normalized(tokens[:-1])
    if kind == "cast_expression":
        written = node.child_by_field_name("type")
        if written is None:
            return None
        return normalized(re.findall(r"\w+|\*", ctx.node_text(written)))
    if kind == "unary_expression":
        operator = node.child_by_field_name("operator")
        operand = node.child_by_field_name("argument")
        if operator is None or operand is None or ctx.node_text(operator) not in "-+~":
            return None
        operand_type = expression_type(ctx, operand, depth)
        if operand_type is None or operand_type == "__half":
            return None
        return promoted(operand_type)
    if kind == "binary_expression":
        operator = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            return None
        op = ctx.node_text(operator)
        a = expression_type(ctx, left, depth)
        if op in ("<<", ">>"):
            return promoted(a) if a is not None and a not in FLOATS else None
        if op not in _ARITHMETIC:
            return None
        b = expression_type(ctx, right, depth)
        return common(a, b) if a is not None and b is not None else None
    if kind == "conditional_expression":
        a_node = node.child_by_field_name("consequence")
        b_node = node.child_by_field_name("alternative")
        if a_node is None or b_node is None:
            return None
        a, b = expression_type(ctx, a_node, depth), expression_type(ctx, b_node, depth)
        return common(a, b) if a is not None and b is not None else None
    if kind == "sizeof_expression":
        return "unsigned long"
    if kind == "call_expression":
        return _call_type(ctx, node, depth)
    return None


def _member_type(
    ctx: Context, node: tree_sitter.Node, target: tree_sitter.Node, field_node: tree_sitter.Node
) -> str | None:
    """``p.n`` / ``pp->n`` of a variable whose type is a struct or class the
    file defines: the field's declared type."""
    tokens = declared_tokens(ctx, ctx.node_text(target), target.start_byte)
    if tokens is None:
        return None
    words = [w for w in tokens if w not in _QUALIFIERS and w not in ("struct", "class")]
    arrow = node.child_by_field_name("operator")
    pointers = 1 if arrow is not None and ctx.node_text(arrow) == "->" else 0
    if len(words) != 1 + pointers or words.count("*") != pointers or words[0] == "*":
        return None
    field_tokens = struct_fields(ctx).get(words[0], {}).get(ctx.node_text(field_node))
    return normalized(field_tokens) if field_tokens is not None else None


def struct_fields(ctx: Context) -> dict[str, dict[str, list[str]]]:
    """The fields of the structs and classes the file defines (``struct P
    {...}``, ``typedef struct {...} P``): name -> field -> its type tokens.
    A name defined twice (in two namespaces, say) is left out."""
    cached = ctx.facts.struct_fields
    if cached is not None:
        return cached
    found: dict[str, dict[str, list[str]]] = {}
    twice: set[str] = set()
    seen: set[int] = set()
    for keyword in ("struct", "class"):
        for start in occurrences(ctx.text, keyword):
            token = ctx.root.descendant_for_byte_range(start, start + len(keyword))
            specifier = token.parent if token is not None else None
            if specifier is None or specifier.type not in ("struct_specifier", "class_specifier"):
                continue
            body = specifier.child_by_field_name("body")
            if body is None or specifier.id in seen:
                continue
            seen.add(specifier.id)
            names = [specifier.child_by_field_name("name")]
            if specifier.parent is not None and specifier.parent.type == "type_definition":
                names += specifier.parent.children_by_field_name("declarator")
            fields: dict[str, list[str]] = {}
            for declaration in body.named_children:
                if declaration.type != "field_declaration":
                    continue
                for declarator in declaration.children_by_field_name("declarator"):
                    ident = declarator
                    while ident.type != "field_identifier":
                        inner = ident.child_by_field_name("declarator") or next(
                            (c for c in ident.named_children if c.type != "type_qualifier"), None
                        )
                        if inner is None:
                            break
                        ident = inner
                    kind = declarator_tokens(ctx, declaration, declarator)
                    if ident.type == "field_identifier" and kind is not None:
                        fields[ctx.node_text(ident)] = kind
            for name_node in names:
                if name_node is None or name_node.type != "type_identifier":
                    continue
                name = ctx.node_text(name_node)
                if name in found:
                    twice.add(name)
                found[name] = fields
    for name in twice:
        del found[name]
    ctx.facts.struct_fields = found
    return found


def _call_type(ctx: Context, node: tree_sitter.Node, depth: int) -> str | None:
    """The type CUDA gives a nested call of the table's functions
    (``min(min(a, b), c)``), where its arguments' types are known."""
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or arguments is None or function.type != "identifier":
        return None
    rows = overloads().cuda.get(ctx.node_text(function))
    if rows is None:
        return None
    kinds = [
        expression_type(ctx, a, depth) for a in arguments.named_children if a.type != "comment"
    ]
    if None in kinds:
        return None
    return rows.get(", ".join(table_type(k) for k in kinds if k is not None))


def table_type(kind: str) -> str:
    """The type the table has a column for (it has every type
    ``normalized`` gives but bool, which promotes as a char does)."""
    return "char" if kind == "bool" else kind


# ------------------------------------------------------------------ the rule


def run(ctx: Context) -> None:
    data = overloads()
    # the functions HIP declares too (umin and the others it lacks are
    # reported by the identifiers rule, and --compat provides them)
    names = {
        name
        for name in data.functions() & ctx.present
        if (row := ctx.table.names.get(name)) is None or (row.hip == name and not row.arg_casts)
    }
    if not names:
        return
    bodies = device_bodies(ctx)
    if not bodies:
        return
    for name in sorted(names):
        for start in occurrences(ctx.text, name):
            if not any(s <= start < e for s, e, _ in bodies):
                continue
            node = ctx.root.descendant_for_byte_range(start, start + len(name))
            if node is None or node.type != "identifier":
                continue
            call = call_naming(node)
            qualified = node.parent
            if (
                call is None
                and qualified is not None
                and qualified.type == "qualified_identifier"
                and ctx.node_text(qualified).replace(" ", "") == "::" + name
            ):
                call = call_naming(qualified)  # ::min(a, b): the same global overloads
            arguments = call.child_by_field_name("arguments") if call is not None else None
            if arguments is None or ctx.is_local(name):
                continue
            args = [c for c in arguments.named_children if c.type != "comment"]
            _check(ctx, data, name, node, args)


def _cast(ctx: Context, arg: tree_sitter.Node, kind: str, group: int) -> None:
    ctx.edit(arg.start_byte, arg.start_byte, f"({kind})(", "device_overloads", group=group)
    ctx.edit(arg.end_byte, arg.end_byte, ")", "device_overloads", group=group)


def _is_proxy(ctx: Context, node: tree_sitter.Node, depth: int = 0) -> bool:
    """Is the argument ``threadIdx.x`` (or another built-in vector's member),
    or an ``auto`` local initialized from one?  HIP 5.7's are objects of their
    own type that convert to unsigned int: ``min(threadIdx.x, 0)`` is
    ambiguous there and ``min(threadIdx.x, threadIdx.x)`` that type, so they
    are cast to the type CUDA's min takes."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        if inner is None:
            return False
        node = inner
    if node.type == "field_expression":
        target = node.child_by_field_name("argument")
        return (
            target is not None
            and target.type == "identifier"
            and ctx.node_text(target) in _BUILTIN_VECTORS
        )
    if node.type != "identifier" or depth > 8:
        return False
    tokens = declared_tokens(ctx, ctx.node_text(node), node.start_byte)
    if tokens is None or [w for w in tokens if w not in _QUALIFIERS] != ["auto"]:
        return False
    found = declaration_of(ctx, ctx.node_text(node), node.start_byte)
    value = found.value_node if found is not None else None
    return value is not None and _is_proxy(ctx, value, depth + 1)


def _check(
    ctx: Context, data: Overloads, name: str, node: tree_sitter.Node, args: list[tree_sitter.Node]
) -> None:
    differs = data.differs.get(name, {})
    arity = len(next(iter(data.cuda[name])).split(", "))
    if len(args) != arity or not differs:
        return
    kinds = [expression_type(ctx, a) for a in args]
    known = [table_type(k) if k is not None else None for k in kinds]
    if None not in known:
        key = ", ".join(k for k in known if k is not None)
        proxies = [_is_proxy(ctx, a) for a in args]
        result = data.cuda[name].get(key)
        if result is None or (key not in differs and not any(proxies)):
            return
        group = ctx.new_group()
        for arg, kind, proxy in zip(args, known, proxies, strict=True):
            if kind != result or proxy:
                _cast(ctx, arg, result, group)
        return
    # an argument of unknown type: is there a type it could have that makes HIP differ?
    possible = [
        key
        for key in differs
        if all(k is None or k == part for k, part in zip(known, key.split(", "), strict=True))
    ]
    if not possible:
        return
    unknown = [ctx.node_text(a) for a, k in zip(args, known, strict=True) if k is None]
    shown = ", ".join(f"({p})" for p in possible[:3]) + (", ..." if len(possible) > 3 else "")
    ctx.report(
        UNKNOWN_TYPES,
        node.start_byte,
        f"{name}(): the type of {', '.join(unknown)} is not known here, and HIP's {name} "
        f"yields another type than CUDA's for argument types {shown}",
        hint=f"cast the arguments to the type CUDA's {name} uses for them "
        f"(e.g. {name}((unsigned)a, b) for an int and an unsigned)",
        name=name,
        end=node.end_byte,
    )


RULE = Rule(
    id="device_overloads",
    run=run,
    codes=(UNKNOWN_TYPES.code,),
    needs=("table.names", "facts.struct_fields"),
    may_apply=alongside,
    examples=(
        Example(
            "#include <cuda_runtime.h>\n"
            "__global__ void k(float* x, int C, unsigned u) {\n"
            "  int i = threadIdx.x;\n"
            "  x[min(C - 1, i + u * blockDim.x)] = 0;\n"
            "  x[min(u, (short)i)] = 1;\n"
            "}\n",
            "#include <hip/hip_runtime.h>\n"
            "__global__ void k(float* x, int C, unsigned u) {\n"
            "  int i = threadIdx.x;\n"
            "  x[min((unsigned int)(C - 1), i + u * blockDim.x)] = 0;\n"
            "  x[min(u, (unsigned int)((short)i))] = 1;\n"
            "}\n",
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "template <class T> __device__ T f(T a, unsigned b) { return min(a, b); }\n",
            frozenset({"HPY462"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__device__ int f(int a, int b) { return min(a, b) + max(a, 2); }\n"
            "int g(int a, unsigned b) { return min(a, b); }\n"
        ),
    ),
)
