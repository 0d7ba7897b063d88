"""What "the output matches" means.

Both outputs are normalised (line endings, trailing blanks, blank lines at the
end).  Lines must then agree one by one: text exactly, numbers within the
sample's relative tolerance (exact when it has none), and a line that starts
with a platform-dependent key (``warpSize = 32``) must show that platform's
value instead of the recorded one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def normalise(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def expected_for_platform(
    expected: list[str],
    keys: tuple[str, ...],
    values: Mapping[str, Mapping[str, str]],
    platform: str,
) -> list[str]:
    out = []
    for line in expected:
        for key in keys:
            value = values.get(key, {}).get(platform)
            if value is not None and re.match(rf"{re.escape(key)}\s*=", line):
                line = f"{key} = {value}"
        out.append(line)
    return out


def _numbers_match(a: str, b: str, tolerance: float) -> bool:
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if tolerance <= 0:
        return x == y
    return abs(x - y) <= tolerance * max(1.0, abs(x), abs(y))


def lines_match(actual: str, expected: str, tolerance: float) -> bool:
    if actual == expected:
        return True
    if _NUMBER.sub("#", actual) != _NUMBER.sub("#", expected):
        return False
    pairs = zip(_NUMBER.findall(actual), _NUMBER.findall(expected), strict=True)
    return all(_numbers_match(a, b, tolerance) for a, b in pairs)


def compare(actual: str, expected: list[str], tolerance: float) -> str | None:
    """None when they match, else a one-line description of the first difference."""
    got = normalise(actual)
    for number, (a, e) in enumerate(zip(got, expected, strict=False), start=1):
        if not lines_match(a, e, tolerance):
            return f"line {number}: expected {e!r}, got {a!r}"
    if len(got) != len(expected):
        return f"expected {len(expected)} lines, got {len(got)}"
    return None
