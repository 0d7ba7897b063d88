"""Calls of CUDA device overloads that HIP does not have (HPY120).

HIP often declares a CUDA device function for fewer types than CUDA does:
``__ldcs`` for ``__half`` only, ``__hadd_sat`` for ``__half`` but not
``__hip_bfloat16``, ``atomicAnd`` without the ``long long`` form,
``tex1DLayeredLod`` without the ``double`` texel, ``thread_block_tile::shfl``
without a ``float4`` value.  The name is translated (or kept), so nothing in
the tables can say that the call will not compile.

The facts come from the device surface check (``tools/device_surface.py``):
every CUDA 12.4 device overload is translated and compiled for gfx942 with
each ROCm release, and the ones that fail with no other diagnostic are
written to ``data/device_gaps.yaml`` (per callee: its parameter types,
template arguments or cooperative group, and the releases where it fails
without and with ``--compat``).  At a call of such a callee this rule works
out the argument types the file declares (a parameter, local or file
variable, through ``&x``, ``*p``, ``p[i]``, ``p + i``, casts and literals; a
cooperative group's kind through its declaration or ``auto x =
cg::tiled_partition<N>(...)``), and reports:

- an error when the types select a failing overload, or when every overload
  of the callee fails for the target release;
- a warning when some argument's type is not known here and some overload
  the call may reach fails (the message lists them);
- nothing when the known types select overloads HIP has.

The release used is the newest checked one (5.7, 6.4, 7.2) not newer than
the target HIP.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import tree_sitter

from hipify_py.engine import diagnostics as D
from hipify_py.engine.context import Context
from hipify_py.engine.words import occurrences
from hipify_py.rules.device_code import (
    Declared,
    call_naming,
    declared_name,
    function_name,
    visible,
)
from hipify_py.rules.rule import Example, Rule, alongside
from hipify_py.rules.scalar_types import SCALARS, common, literal_type, promoted

DEVICE_OVERLOAD_GAP = D.Code(
    "HPY120",
    "device-overload-gap",
    D.Severity.ERROR,
    "a CUDA device function called with argument types that HIP does not declare it for",
    why="HIP declares many CUDA device functions for fewer types than CUDA (cache-hint loads on "
    "__half only, saturating bf16 arithmetic, 64-bit atomicAnd/Or/Xor, layered texture reads of "
    "some texel types, cooperative-group shuffles of vector types).  The name translates, so "
    "only the types tell; the failing overloads were found by compiling every CUDA 12.4 overload "
    "for gfx942 (tools/device_surface.py).  A warning means a type was not known here and one of "
    "the overloads the call may reach fails.",
    example="__device__ long f(const long* p) { return __ldcs(p); }",
    fix="Pass --compat where the hint says it provides the overload; otherwise convert the "
    "argument to a type HIP has (a float or int form) or write the operation out.",
)

DEVICE_OVERLOAD_GAP_POSSIBLE = D.Code(
    "HPY121",
    "device-overload-gap-possible",
    D.Severity.WARNING,
    "a CUDA device function that HIP lacks for some argument types, called with an argument "
    "whose type is not known here",
    why="As for HPY120, but hipify-py could not tell the type of an argument (a struct member, a "
    "call's result, a template parameter), and one of the overloads the call may reach does not "
    "compile for gfx942 with this release.",
    example="__device__ long f(S* s) { return __ldcs(s->p); }",
    fix="Check the argument's type against the types the message lists; the fixes of HPY120 apply.",
)

DATA = Path(__file__).resolve().parent.parent / "data" / "device_gaps.yaml"

# spellings of one type that code writes (typedefs of the CUDA headers, HIP's names)
_ALIASES = {
    "half": "__half",
    "half2": "__half2",
    "nv_bfloat16": "__nv_bfloat16",
    "nv_bfloat162": "__nv_bfloat162",
    "__hip_bfloat16": "__nv_bfloat16",
    "__hip_bfloat162": "__nv_bfloat162",
    "hip_bfloat16": "__nv_bfloat16",
    "unsigned": "unsigned int",
    "signed": "int",
    "signed int": "int",
    "long int": "long",
    "long long int": "long long",
    "unsigned long int": "unsigned long",
    "unsigned long long int": "unsigned long long",
    "uint": "unsigned int",
}
_QUALIFIERS = re.compile(
    r"(?<!\w)(?:const|volatile|__restrict__|__restrict|restrict|struct|enum|static|extern|"
    r"register|constexpr|inline|__shared__|__device__|__constant__|__managed__)(?!\w)"
)
# what a cooperative-groups factory returns, for ``auto g = cg::FACTORY...``
_FACTORIES = (
    (re.compile(r"\btiled_partition\s*<"), "thread_block_tile"),
    (re.compile(r"\btiled_partition\s*\("), "thread_group"),
    (re.compile(r"\bthis_thread_block\s*\("), "thread_block"),
    (re.compile(r"\bcoalesced_threads\s*\("), "coalesced_group"),
    (re.compile(r"\bthis_grid\s*\("), "grid_group"),
    (re.compile(r"\bthis_multi_grid\s*\("), "multi_grid_group"),
)
_GROUPS = (
    "thread_block_tile",
    "thread_block",
    "coalesced_group",
    "grid_group",
    "multi_grid_group",
    "thread_group",
)


@dataclass(frozen=True)
class Failing:
    params: tuple[str, ...]
    targs: tuple[str, ...]
    group: str
    hip: frozenset[str]
    compat: frozenset[str]


@dataclass(frozen=True)
class Callee:
    overloads: int
    failing: tuple[Failing, ...]


_RELEASES = re.compile(r"^releases: (\[.*\])\s*$")
_CALLEE = re.compile(r'^  ("[^"]+"):\s*$')
_OVERLOADS = re.compile(r"^    overloads: (\d+)\s*$")
_FAILING = re.compile(r"^      - \{(.*)\}\s*$")
_FIELD = re.compile(r"(\w+): (\[[^\]]*\]|[\w]+)")


def read_gaps(text: str) -> dict[str, Any]:
    """The gaps file as PyYAML reads it, from its one generated shape, about a
    hundred times faster (a CLI run reads it once per process; tests compare
    the two readings)."""
    data: dict[str, Any] = {"gaps": {}}
    entry: dict[str, Any] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("schema:"):
            data["schema"] = int(line.split(":", 1)[1])
        elif (found := _RELEASES.match(line)) is not None:
            data["releases"] = json.loads(found.group(1))
        elif line.rstrip() in ("gaps:", "gaps: {}"):
            continue
        elif (found := _CALLEE.match(line)) is not None:
            entry = {"failing": []}
            data["gaps"][json.loads(found.group(1))] = entry
        elif (found := _OVERLOADS.match(line)) is not None:
            entry["overloads"] = int(found.group(1))
        elif line.strip() == "failing:":
            continue
        elif (found := _FAILING.match(line)) is not None:
            item: dict[str, Any] = {}
            for key, value in _FIELD.findall(found.group(1)):
                item[key] = json.loads(value) if value.startswith("[") else value
            entry["failing"].append(item)
        else:
            raise ValueError(f"{DATA}: unexpected line {line!r}")
    return data


@cache
def gaps() -> tuple[tuple[tuple[int, int], ...], dict[str, Callee]]:
    """The checked releases (oldest first) and the failing overloads by callee."""
    data = read_gaps(DATA.read_text())
    releases = tuple(_version(r) for r in data["releases"])
    found: dict[str, Callee] = {}
    for key, entry in (data.get("gaps") or {}).items():
        failing = tuple(
            Failing(
                tuple(normalized(t) for t in item["params"]),
                tuple(normalized(t) for t in item.get("targs", [])),
                item.get("group", ""),
                frozenset(item["hip"]),
                frozenset(item["compat"]),
            )
            for item in entry["failing"]
        )
        found[key] = Callee(entry["overloads"], failing)
    return releases, found


@cache
def _names() -> frozenset[str]:
    """The last word of every callee (``__ldcs``, ``reduce``, ``shfl``)."""
    return frozenset(re.split(r"[.:]", key)[-1] for key in gaps()[1] if not _is_operator(key))


def _is_operator(key: str) -> bool:
    return key == "conversion" or (key.startswith("operator") and not key[8:9].isalnum())


@cache
def _operand_types(release: str, mode: str) -> frozenset[str]:
    """The base type names the operator and conversion gaps of one release
    and mode involve (none: the walk over every expression is skipped)."""
    found: set[str] = set()
    for key, callee in gaps()[1].items():
        if _is_operator(key):
            for failing in callee.failing:
                if release in (failing.hip if mode == "hip" else failing.compat):
                    found.update(p.removesuffix(" *") for p in failing.params)
    return frozenset(found)


def _version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def normalized(spelled: str) -> str:
    """One spelling per type: no qualifiers or references, ``T *`` pointers,
    the CUDA name of typedefs and HIP's names."""
    text = _QUALIFIERS.sub(" ", spelled).replace("&", " ")
    text = re.sub(r"\s*\*\s*", " *", text)
    stars = text.count("*")
    base = " ".join(text.replace("*", " ").split())
    base = _ALIASES.get(base, base)
    return base + " *" * stars if stars else base


def run(ctx: Context) -> None:
    releases, callees = gaps()
    eligible = [r for r in releases if r <= ctx.target_hip[:2]]
    release = "{}.{}".format(*(eligible[-1] if eligible else releases[0]))
    mode = "compat" if ctx.options.compat else "hip"
    operands = _operand_types(release, mode)
    if any(_spelled_in(ctx.text, t) for t in operands):
        _operators(ctx, callees, release, mode)
    names = _names()
    for name in sorted(names):
        if name not in ctx.text:
            continue
        for start in occurrences(ctx.text, name):
            node = ctx.root.descendant_for_byte_range(start, start + len(name))
            if node is None or node.type not in (
                "identifier",
                "field_identifier",
                "type_identifier",
            ):
                continue
            found = _call_of(ctx, node, name, callees)
            if found is None:
                continue
            key, call, args, targs = found
            _check(ctx, key, callees[key], call, args, targs, release, mode)


def _spelled_in(text: str, type_name: str) -> bool:
    """Could ``text`` name ``type_name`` (or a spelling of it)?"""
    core = type_name.strip("_").removeprefix("nv_").removeprefix("hip_")
    return core in text


_BINARY = ("+", "-", "*", "/", "==", "!=", "<", ">", "<=", ">=")
_COMPOUND = ("+=", "-=", "*=", "/=")


def _operators(ctx: Context, callees: dict[str, Callee], release: str, mode: str) -> None:
    """Operators and explicit conversions on the types of the operator gaps,
    where every operand's type is known (an unknown one says nothing: these
    expressions are too common to warn on)."""
    stack = [ctx.root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        found = _operator_use(ctx, node)
        if found is None:
            continue
        key, operands, targs = found
        callee = callees.get(key)
        if callee is None or not any(
            release in (f.hip if mode == "hip" else f.compat) for f in callee.failing
        ):
            continue
        types = [type_of(ctx, o) for o in operands]
        if any(t is None for t in types):
            continue
        failing = [
            f
            for f in callee.failing
            if release in (f.hip if mode == "hip" else f.compat)
            and len(f.params) == len(types)
            and all(t == p for t, p in zip(types, f.params, strict=True))
            and (not targs or not f.targs or tuple(targs) == f.targs)
        ]
        if not failing:
            continue
        shown = "conversion to " + targs[0] if key == "conversion" else key
        ctx.report(
            DEVICE_OVERLOAD_GAP,
            node.start_byte,
            f"{shown} on ({', '.join(t or '?' for t in types)}): HIP {release} does not "
            "declare it; the expression does not compile there",
            hint="convert through float (__bfloat162float / __float2bfloat16, __half2float / "
            "__float2half) and use the named functions (__hadd, __hmul, __hlt, ...)",
            name=shown,
            end=node.end_byte,
        )


def _operator_use(
    ctx: Context, node: tree_sitter.Node
) -> tuple[str, list[tree_sitter.Node], list[str]] | None:
    """(gap key, operands, conversion target) of an operator expression."""
    kind = node.type
    operator = node.child_by_field_name("operator")
    symbol = ctx.node_text(operator) if operator is not None else ""
    if kind == "binary_expression" and symbol in _BINARY:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None:
            return f"operator{symbol}", [left, right], []
    if kind == "assignment_expression" and symbol in _COMPOUND:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and right is not None:
            return f"operator{symbol}", [left, right], []
    if kind in ("unary_expression", "update_expression") and symbol in ("-", "+", "++", "--"):
        argument = node.child_by_field_name("argument")
        if argument is not None:
            return f"operator{symbol}", [argument], []
    if kind == "cast_expression":
        target = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        if target is not None and value is not None:
            return "conversion", [value], [normalized(ctx.node_text(target))]
    if kind == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        if function is not None and len(args) == 1 and function.type == "template_function":
            name = function.child_by_field_name("name")
            targets = function.child_by_field_name("arguments")
            if name is not None and ctx.node_text(name) == "static_cast" and targets is not None:
                inner = [normalized(ctx.node_text(t)) for t in targets.named_children]
                return "conversion", args, inner[:1]
    return None


def _call_of(
    ctx: Context, node: tree_sitter.Node, name: str, callees: dict[str, Callee]
) -> tuple[str, tree_sitter.Node, list[tree_sitter.Node], list[str]] | None:
    """(callee key, call, argument nodes, explicit template arguments) where
    ``node`` names the callee of a call in the gaps file."""
    callee = node
    targs: list[str] = []
    if node.parent is not None and node.parent.type == "template_function":
        arguments = node.parent.child_by_field_name("arguments")
        if arguments is not None:
            targs = [normalized(ctx.node_text(a)) for a in arguments.named_children]
        callee = node.parent
    parent = callee.parent
    key = name
    if node.type == "field_identifier":
        if parent is None or parent.type != "field_expression":
            return None
        target = parent.child_by_field_name("argument")
        kind = _group_of(ctx, target) if target is not None else ""
        key = f"{kind}.{name}"
        callee = parent
    elif parent is not None and parent.type == "qualified_identifier":
        scope = parent.child_by_field_name("scope")
        if scope is None or not _is_cg(ctx, ctx.node_text(scope)):
            return None
        key = f"cg::{name}"
        callee = parent
    if key not in callees:
        return None
    call = call_naming(callee)
    if call is None:
        return None
    arguments = call.child_by_field_name("arguments")
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
    return key, call, args, targs


def _is_cg(ctx: Context, scope: str) -> bool:
    scope = scope.strip().removeprefix("::")
    if scope == "cooperative_groups":
        return True
    alias = re.search(
        rf"\bnamespace\s+{re.escape(scope)}\s*=\s*(?:::)?cooperative_groups\b", ctx.text
    )
    return alias is not None


def _check(
    ctx: Context,
    key: str,
    callee: Callee,
    call: tree_sitter.Node,
    args: list[tree_sitter.Node],
    targs: list[str],
    release: str,
    mode: str,
) -> None:
    failing = [f for f in callee.failing if release in (f.hip if mode == "hip" else f.compat)]
    if not failing:
        return
    member = "." in key
    cg_free = key.startswith("cg::")
    typed = [type_of(ctx, a) for a in args]
    group = _group_of(ctx, args[0]) if cg_free and args else ""
    if cg_free:
        typed = typed[1:2]  # the value a collective works on
    elif member:
        typed = typed[:1]
    matching: list[Failing] = []
    known = True
    instances = _instantiations(ctx, call, typed)
    for types in instances:
        found = [f for f in failing if _consistent(f, types, targs, group, cg_free or member)]
        matching += [f for f in found if f not in matching]
        known = known and all(t is not None for t in types)
    if not matching:
        return
    known = known and (not any(f.targs for f in matching) or bool(targs))
    everywhere = len(failing) >= callee.overloads
    definite = known or everywhere
    code = DEVICE_OVERLOAD_GAP
    fixed_by_compat = mode == "hip" and all(release not in f.compat for f in matching)
    listed = "; ".join(sorted({_show(f) for f in matching})[:6])
    where = f"HIP {release}"
    if definite:
        message = (
            f"{_callee_name(key)}: {where} has no overload for {listed}; "
            "the call does not compile there"
        )
    else:
        message = (
            f"{_callee_name(key)}: {where} lacks the overloads for {listed}; an argument's type is "
            "not known here, so the call may not compile"
        )
    hint = (
        "pass --compat: hipify_py_compat.h provides it"
        if fixed_by_compat
        else "convert the argument to a type HIP declares it for, or write the operation out"
    )
    ctx.report(
        code if definite else DEVICE_OVERLOAD_GAP_POSSIBLE,
        call.start_byte,
        message,
        hint=hint,
        name=_callee_name(key),
        end=call.end_byte,
    )


PLACEHOLDER = "$"  # marks a template parameter's name in a type ("$T *")
_MAX_INSTANCES = 16


def _instantiations(
    ctx: Context, call: tree_sitter.Node, types: list[str | None]
) -> list[list[str | None]]:
    """``types`` once per instantiation of the function template around
    ``call`` that this file makes (explicit template arguments at its calls
    and launches, or deduced from their argument types), where a type names a
    template parameter; a parameter whose instantiations are not all known
    here is an unknown type."""
    names = sorted({w for t in types if t for w in re.findall(r"\$(\w+)", t)})
    if not names:
        return [types]
    bindings = _template_bindings(ctx, call, names)
    if not bindings:
        return [[None if t and PLACEHOLDER in t else t for t in types]]
    found = []
    for binding in bindings[:_MAX_INSTANCES]:
        found.append([_substitute(t, binding) for t in types])
    return found


def _substitute(spelled: str | None, binding: dict[str, str | None]) -> str | None:
    if spelled is None or PLACEHOLDER not in spelled:
        return spelled
    word = re.search(r"\$(\w+)", spelled)
    value = binding.get(word.group(1)) if word is not None else None
    if value is None:
        return None
    return normalized(spelled.replace(word.group(0), value)) if word is not None else None


def _template_bindings(
    ctx: Context, call: tree_sitter.Node, names: list[str]
) -> list[dict[str, str | None]]:
    """Each instantiation of the function template enclosing ``call``: its
    type parameters' values (None: not known here)."""
    function: tree_sitter.Node | None = call
    while function is not None and function.type != "function_definition":
        function = function.parent
    template = function.parent if function is not None else None
    if function is None or template is None or template.type != "template_declaration":
        return []
    parameters = template.child_by_field_name("parameters")
    order = [
        _parameter_word(ctx, p)
        for p in (parameters.named_children if parameters is not None else [])
    ]
    name = function_name(ctx, function)
    if not name or not any(n in order for n in names):
        return []
    formal = [normalized(_replace_words(p, order)) for p in _parameter_types(ctx, function)]
    found: list[dict[str, str | None]] = []
    for start in occurrences(ctx.text, name):
        node = ctx.root.descendant_for_byte_range(start, start + len(name))
        if (
            node is None
            or node.type != "identifier"
            or function.start_byte <= start < function.end_byte
        ):
            continue
        callee = (
            node.parent
            if node.parent is not None and node.parent.type == "template_function"
            else node
        )
        site = call_naming(callee)
        if site is None:
            continue
        binding: dict[str, str | None] = dict.fromkeys(order)
        if callee is not node:
            arguments = callee.child_by_field_name("arguments")
            explicit = [ctx.node_text(a) for a in arguments.named_children] if arguments else []
            for word, value in zip(order, explicit, strict=False):
                binding[word] = normalized(value)
        values = site.child_by_field_name("arguments")
        actual = [a for a in values.named_children if a.type != "comment"] if values else []
        for param, arg in zip(formal, actual, strict=False):
            _deduce(param, type_of(ctx, arg), binding)
        found.append(binding)
    return found


def _parameter_word(ctx: Context, parameter: tree_sitter.Node) -> str:
    words = re.findall(r"[A-Za-z_]\w*", ctx.node_text(parameter).split("=")[0])
    return words[-1] if words else ""


def _replace_words(text: str, order: list[str]) -> str:
    for word in order:
        if word:
            text = re.sub(rf"(?<![\w$]){re.escape(word)}(?!\w)", PLACEHOLDER + word, text)
    return text


def _parameter_types(ctx: Context, function: tree_sitter.Node) -> list[str]:
    """The spelled type of each parameter of a function definition, with the
    pointer stars of its declarator (``const T *``)."""
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    found = []
    for param in params.named_children if params is not None else []:
        if param.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        kind = param.child_by_field_name("type")
        inner = param.child_by_field_name("declarator")
        qualifiers = " ".join(
            ctx.node_text(c) for c in param.children if c.type == "type_qualifier"
        )
        text = f"{qualifiers} {ctx.node_text(kind)}" if kind is not None else "?"
        stars = _stars_of(inner) if inner is not None else 0
        found.append(text + " *" * stars)
    return found


def _stars_of(declarator: tree_sitter.Node) -> int:
    count = 0
    node: tree_sitter.Node | None = declarator
    while node is not None and node.type in (*_INDIRECT, "reference_declarator"):
        count += node.type != "reference_declarator"
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type != "type_qualifier"), None)
        node = inner
    return count


def _deduce(param: str, argument: str | None, binding: dict[str, str | None]) -> None:
    """Bind ``$T`` of a parameter type like ``$T *`` from an argument type."""
    word = re.fullmatch(r"\$(\w+)((?: \*)*)", param)
    if word is None or argument is None or binding.get(word.group(1)) is not None:
        return
    stars = word.group(2)
    if stars and not argument.endswith(stars):
        return
    value = argument[: len(argument) - len(stars)] if stars else argument
    if PLACEHOLDER not in value:
        binding[word.group(1)] = value


def _callee_name(key: str) -> str:
    return key.replace(".", "::")


def _show(failing: Failing) -> str:
    head = f"<{', '.join(failing.targs)}>" if failing.targs else ""
    group = f"{failing.group}, " if failing.group else ""
    return f"{head}({group}{', '.join(failing.params)})"


def _consistent(
    failing: Failing, types: list[str | None], targs: list[str], group: str, collective: bool
) -> bool:
    if targs and failing.targs and tuple(targs) != failing.targs:
        return False
    if group and failing.group and group != failing.group:
        return False
    if collective:
        return not (failing.params and types and not _passes(types[0], failing.params[0]))
    if len(types) > len(failing.params):
        return False
    return all(_passes(t, p) for t, p in zip(types, failing.params, strict=False))


def _passes(argument: str | None, parameter: str) -> bool:
    """Can an argument of this type (None: not known) reach the parameter, as
    the overload the call selects?  The same type, or an integral promotion
    (``tile.ballot(x > 0)`` passes a bool to ``int``)."""
    if argument is None or argument == parameter:
        return True
    return parameter == "int" and argument != "int" and promoted(argument) == "int"


# -------------------------------------------------------------- argument types


def type_of(ctx: Context, node: tree_sitter.Node) -> str | None:
    """The normalized type of an argument expression, where the file says it."""
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        return type_of(ctx, inner)
    if kind == "identifier":
        declared = visible(ctx, ctx.node_text(node), node.start_byte)
        return _declared_type(ctx, declared) if declared is not None else None
    if kind == "number_literal":
        return literal_type(ctx.node_text(node))
    if kind in ("true", "false"):
        return "bool"
    if kind == "cast_expression":
        target = node.child_by_field_name("type")
        return normalized(ctx.node_text(target)) if target is not None else None
    if kind == "call_expression":
        return _named_cast_type(ctx, node)
    if kind == "pointer_expression":
        operator = node.child_by_field_name("operator")
        argument = node.child_by_field_name("argument")
        inner_type = type_of(ctx, argument) if argument is not None else None
        if inner_type is None or operator is None:
            return None
        if ctx.node_text(operator) == "&":
            return inner_type + " *"
        return inner_type[:-2] if inner_type.endswith(" *") else None
    if kind == "subscript_expression":
        array = node.child_by_field_name("argument")
        inner_type = type_of(ctx, array) if array is not None else None
        return inner_type[:-2] if inner_type and inner_type.endswith(" *") else None
    if kind == "binary_expression":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            return None
        symbol = ctx.node_text(operator)
        if symbol in ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
            return "bool"
        sides = [type_of(ctx, left), type_of(ctx, right)]
        if symbol in ("+", "-"):
            for side_type in sides:
                if side_type is not None and side_type.endswith(" *"):
                    return side_type
        return _arithmetic(sides[0], sides[1])
    if kind == "conditional_expression":
        branches = [node.child_by_field_name(f) for f in ("consequence", "alternative")]
        types = [type_of(ctx, b) if b is not None else None for b in branches]
        if types[0] is not None and types[0] == types[1]:
            return types[0]
        return _arithmetic(types[0], types[1])
    return None


def _arithmetic(left: str | None, right: str | None) -> str | None:
    """The type of ``left OP right`` for built-in arithmetic types (None otherwise)."""
    if left is None or right is None or left not in SCALARS or right not in SCALARS:
        return None
    return common(left, right)


_NAMED_CASTS = ("static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "bit_cast")


def _named_cast_type(ctx: Context, call: tree_sitter.Node) -> str | None:
    """``T`` of ``reinterpret_cast<T>(x)`` and the other named casts."""
    function = call.child_by_field_name("function")
    if function is None or function.type != "template_function":
        return None
    name = function.child_by_field_name("name")
    if name is None or ctx.node_text(name).split("::")[-1] not in _NAMED_CASTS:
        return None
    arguments = function.child_by_field_name("arguments")
    targets = arguments.named_children if arguments is not None else []
    return normalized(ctx.node_text(targets[0])) if len(targets) == 1 else None


def _declared_type(ctx: Context, declared: Declared) -> str | None:
    if declared.kind not in ("parameter", "local", "file") or not declared.type_text:
        return None
    base = declared.type_text
    if re.search(r"\bauto\b", base) or declared.node is None:
        return None
    stars = 0
    for declarator in declared.node.children_by_field_name("declarator"):
        ident, _, _ = declared_name(declarator)
        if ident is None or ctx.node_text(ident) != declared.name:
            continue
        node: tree_sitter.Node | None = declarator
        while node is not None and node is not ident:
            if node.type in _INDIRECT:
                stars += 1
            inner = node.child_by_field_name("declarator")
            if inner is None:
                inner = next((c for c in node.named_children if c.type != "type_qualifier"), None)
            node = inner
        break
    if _template_parameter(ctx, base, declared.start):
        word = re.findall(r"[A-Za-z_]\w*", _QUALIFIERS.sub(" ", base))[0]
        base = PLACEHOLDER + word  # resolved per instantiation by _instantiations
    text = normalized(base)
    return text + " *" * stars if stars else text


_INDIRECT = ("pointer_declarator", "array_declarator", "abstract_array_declarator")


def _template_parameter(ctx: Context, type_text: str, offset: int) -> bool:
    words = re.findall(r"[A-Za-z_]\w*", _QUALIFIERS.sub(" ", type_text))
    if len(words) != 1:
        return False
    found = visible(ctx, words[0], offset)
    return found is not None and found.kind == "template-parameter"


def _group_of(ctx: Context, node: tree_sitter.Node | None) -> str:
    """The cooperative group kind of an expression naming a group object."""
    if node is None or node.type != "identifier":
        return ""
    name = ctx.node_text(node)
    declared = visible(ctx, name, node.start_byte)
    if declared is None:
        return _group_by_text(ctx.text[: node.start_byte], name)
    for group in _GROUPS:
        if re.search(rf"\b{group}\b", declared.type_text):
            return group
    if re.search(r"\bauto\b", declared.type_text) and declared.value:
        for pattern, group in _FACTORIES:
            if pattern.search(declared.value):
                return group
    return ""


def _group_by_text(before: str, name: str) -> str:
    """The group kind of the last declaration of ``name`` in ``before``, read
    from the text: tree-sitter takes ``cg::thread_block_tile<32> t = ...`` for
    a comparison, since it cannot know thread_block_tile is a template."""
    word = re.escape(name)
    declared = re.compile(
        rf"\b({'|'.join(_GROUPS)})\b(?:\s*<[^;{{}}]*?>)?\s*&?\s*{word}\s*(?:=|;|\(|\{{|,|\))"
    )
    found = list(declared.finditer(before))
    inferred = list(re.finditer(rf"\bauto\s*&?\s*{word}\s*=\s*([^;]+);", before))
    last_declared = found[-1] if found else None
    last_auto = inferred[-1] if inferred else None
    if last_auto is not None and (
        last_declared is None or last_auto.start() > last_declared.start()
    ):
        for pattern, group in _FACTORIES:
            if pattern.search(last_auto.group(1)):
                return group
        return ""
    return last_declared.group(1) if last_declared is not None else ""


RULE = Rule(
    id="device_gaps",
    run=run,
    codes=(DEVICE_OVERLOAD_GAP.code, DEVICE_OVERLOAD_GAP_POSSIBLE.code),
    needs=("options", "context.diagnostics"),
    may_apply=alongside,
    examples=(
        Example(
            "__device__ long f(const long* p) { return __ldcs(p); }\n",
            "#include <hip/hip_runtime.h>\n"
            "__device__ long f(const long* p) { return __ldcs(p); }\n",
            frozenset({"HPY120"}),
        ),
        Example.unchanged(
            "#include <hip/hip_runtime.h>\n"
            "__device__ float f(const float* p) { return __ldg(p); }\n"
        ),
    ),
)
