"""Scalar types of C++ expressions, shared by the rules that type arguments
(device_overloads, device_gaps): the integer types each spelled one way, the
integer promotions, the usual arithmetic conversions and the type of a number
literal."""

from __future__ import annotations

import re

INTEGERS = (
    "char",
    "short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
)
_RANK = {"int": 1, "unsigned int": 1, "long": 2, "unsigned long": 2}
_RANK |= {"long long": 3, "unsigned long long": 3}
FLOATS = ("float", "double")
# every scalar type these helpers take, each spelled one way
SCALARS = (*INTEGERS, *FLOATS, "bool", "signed char", "unsigned char", "unsigned short")


def promoted(kind: str) -> str:
    """The integer promotion: bool, chars and shorts become int."""
    if kind in ("bool", "char", "signed char", "unsigned char", "short", "unsigned short"):
        return "int"
    return kind


def common(left: str, right: str) -> str | None:
    """The usual arithmetic conversions (LP64: long is 64 bits)."""
    if "__half" in (left, right):
        return None
    for kind in ("double", "float"):
        if kind in (left, right):
            return kind
    a, b = promoted(left), promoted(right)
    if a == b:
        return a
    a_unsigned, b_unsigned = a.startswith("unsigned"), b.startswith("unsigned")
    if a_unsigned == b_unsigned:
        return a if _RANK[a] >= _RANK[b] else b
    unsigned, signed = (a, b) if a_unsigned else (b, a)
    if _RANK[unsigned] >= _RANK[signed]:
        return unsigned
    if _RANK[signed] > _RANK[unsigned] and not (
        _RANK[signed] >= 2 and _RANK[unsigned] >= 2  # long vs unsigned long long: same width
    ):
        return signed
    return "unsigned " + signed


_INTEGER_LITERAL = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9][0-9']*)([uUlL]*)\Z")
_FLOAT_LITERAL = re.compile(
    r"(?:0[xX][0-9a-fA-F.']+[pP][+-]?[0-9']+|[0-9.][0-9.']*(?:[eE][+-]?[0-9']+)?)([fFlL]?)\Z"
)


def literal_type(text: str) -> str | None:
    """The type of a number literal (C++: the first of int, long, long long
    its value fits, with unsigned ones between for hexadecimal, octal and
    binary literals, and from a ``u`` suffix on)."""
    found = _INTEGER_LITERAL.match(text)
    if found is not None:
        digits, suffix = found.group(1).replace("'", ""), found.group(2).lower()
        octal = digits.startswith("0") and digits.isdigit()
        try:
            value = int(digits, 8) if octal else int(digits, 0)
        except ValueError:
            return None
        decimal = not octal and digits[:2].lower() not in ("0x", "0b")
        longs = suffix.count("l")
        candidates = [
            (kind, bits)
            for kind, bits in (("int", 31), ("long", 63), ("long long", 63))
            if {"int": 0, "long": 1, "long long": 2}[kind] >= longs
        ]
        for kind, bits in candidates:
            if "u" not in suffix and value < 1 << bits:
                return kind
            if ("u" in suffix or not decimal) and value < 1 << (bits + 1):
                return "unsigned " + kind
        return None
    floating = _FLOAT_LITERAL.match(text)
    if floating is not None and any(c in text for c in ".eEpP"):
        suffix = floating.group(1).lower()
        return "float" if suffix == "f" else None if suffix == "l" else "double"
    return None
