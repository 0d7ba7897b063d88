"""``hipify-py prove``: does a translated program behave like its CUDA original?

The comparison engine, pure (no printing, no processes, standard library only:
it also runs on a GPU machine that has nothing but Python).  Given what each
side printed, returned and wrote, and the program's rules, it says whether they
are the same, and if not, where they first differ and by how much.

Rules (``smoke.toml``, docs/smoke.md):

* lines matching an ``ignore`` regex are dropped from both sides;
* text matching a ``mask`` regex is replaced by ``<masked>`` on both sides;
* what remains must agree line by line: the text between numbers exactly,
  each number within ``atol + rtol * max(|a|, |b|)`` (exact by default);
* the exit code must be ``exit_code`` on both sides (or, when that is None,
  equal on both sides);
* each file in ``files`` must be written by both sides, and agree: as text
  under the same rules when both are UTF-8, else byte for byte.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)\b", re.I)
MASKED = "<masked>"

SAME, DIFFERENT, UNSTABLE, FAILED = "same", "different", "unstable", "failed"


@dataclass(frozen=True)
class Rules:
    """How two outputs of one program are compared."""

    rtol: float = 0.0
    atol: float = 0.0
    ignore: tuple[str, ...] = ()  # regexes: matching lines are dropped
    mask: tuple[str, ...] = ()  # regexes: matching text becomes <masked>
    exit_code: int | None = 0  # expected of both sides; None: both sides equal
    files: tuple[str, ...] = ()  # files the program writes (relative to its folder)
    stderr: bool = False  # compare stderr as well as stdout


@dataclass(frozen=True)
class Output:
    """One run of one side."""

    stdout: str
    exit_code: int | None  # None: it did not finish (timed out, not started)
    files: Mapping[str, bytes | None] = field(default_factory=dict)  # None: not written
    stderr: str = ""
    error: str = ""  # why it did not finish ("timed out after 60 s")


@dataclass(frozen=True)
class Difference:
    """The first place two outputs disagree."""

    where: str  # "stdout line 3", "file out.txt line 2", "exit code", "file out.bin"
    expected: str  # the reference side's text there (the CUDA original's, or run 1's)
    got: str  # the other side's
    number: int | None = None  # the line number, when the difference is in a line
    delta: float | None = None  # |a - b| of the first number out of tolerance
    allowed: float | None = None  # the tolerance it exceeded: atol + rtol * max(|a|, |b|)

    def describe(self) -> str:
        text = f"{self.where}: expected {self.expected!r}, got {self.got!r}"
        if self.delta is not None and self.allowed is not None:
            text += f" (difference {self.delta:.6g} > tolerance {self.allowed:.6g})"
        return text


@dataclass(frozen=True)
class Verdict:
    status: str  # same | different | unstable | failed
    detail: str = ""
    difference: Difference | None = None


def numbers_within(a: str, b: str, rtol: float, atol: float) -> tuple[bool, float, float]:
    """Whether two numbers agree, their difference and the tolerance allowed."""
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y), math.nan, 0.0
    if math.isinf(x) or math.isinf(y):
        return x == y, (0.0 if x == y else math.inf), 0.0
    allowed = atol + rtol * max(abs(x), abs(y))
    delta = abs(x - y)
    return delta <= allowed, delta, allowed


def prepare(text: str, rules: Rules) -> list[tuple[int, str]]:
    """(original line number, line) after normalising endings and trailing
    blanks, dropping ignored lines and masking; blank lines at the end go."""
    ignore = [re.compile(p) for p in rules.ignore]
    mask = [re.compile(p) for p in rules.mask]
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines: list[tuple[int, str]] = []
    for number, line in enumerate(raw, start=1):
        line = line.rstrip()
        if any(p.search(line) for p in ignore):
            continue
        for p in mask:
            line = p.sub(MASKED, line)
        lines.append((number, line))
    while lines and not lines[-1][1]:
        lines.pop()
    return lines


def compare_lines(expected: str, got: str, rules: Rules) -> tuple[bool, float | None, float | None]:
    """Whether two (prepared) lines agree; with the first number out of tolerance."""
    if expected == got:
        return True, None, None
    if NUMBER.sub("#", expected) != NUMBER.sub("#", got):
        return False, None, None
    for a, b in zip(NUMBER.findall(expected), NUMBER.findall(got), strict=True):
        ok, delta, allowed = numbers_within(a, b, rules.rtol, rules.atol)
        if not ok:
            return False, delta, allowed
    return True, None, None


def compare_text(expected: str, got: str, rules: Rules, where: str) -> Difference | None:
    """The first difference of two texts under ``rules`` (``where``: "stdout", ...)."""
    left, right = prepare(expected, rules), prepare(got, rules)
    for (number, a), (other, b) in zip(left, right, strict=False):
        ok, delta, allowed = compare_lines(a, b, rules)
        if not ok:
            label = f"{where} line {number}" + (f" (line {other} there)" if other != number else "")
            return Difference(label, a, b, number, delta, allowed)
    if len(left) != len(right):
        if len(left) > len(right):
            number, line = left[len(right)]
            return Difference(
                f"{where} line {number}: {len(left)} lines expected, {len(right)} got",
                line,
                "<end of output>",
                number,
            )
        number, line = right[len(left)]
        return Difference(
            f"{where} line {number}: {len(left)} lines expected, {len(right)} got",
            "<end of output>",
            line,
            number,
        )
    return None


def _as_text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def compare_file(
    name: str, expected: bytes | None, got: bytes | None, rules: Rules
) -> Difference | None:
    where = f"file {name}"
    if expected is None or got is None:
        if expected is None and got is None:
            return None
        return Difference(
            where,
            "<not written>" if expected is None else f"<{len(expected)} bytes>",
            "<not written>" if got is None else f"<{len(got)} bytes>",
        )
    if expected == got:
        return None
    left, right = _as_text(expected), _as_text(got)
    if left is not None and right is not None:
        return compare_text(left, right, rules, where)
    offset = next(
        (i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
        min(len(expected), len(got)),
    )
    return Difference(
        f"{where} byte {offset}",
        expected[offset : offset + 8].hex() or "<end>",
        got[offset : offset + 8].hex() or "<end>",
    )


def compare_outputs(expected: Output, got: Output, rules: Rules) -> Difference | None:
    """The first difference between two runs (``expected`` is the reference)."""
    if expected.exit_code != got.exit_code:
        return Difference(
            "exit code",
            _exit_text(expected),
            _exit_text(got),
        )
    found = compare_text(expected.stdout, got.stdout, rules, "stdout")
    if found is None and rules.stderr:
        found = compare_text(expected.stderr, got.stderr, rules, "stderr")
    if found is not None:
        return found
    for name in rules.files:
        found = compare_file(name, expected.files.get(name), got.files.get(name), rules)
        if found is not None:
            return found
    return None


def _exit_text(output: Output) -> str:
    if output.exit_code is None:
        return output.error or "did not finish"
    return str(output.exit_code)


def _run_failure(runs: Sequence[Output], rules: Rules) -> str | None:
    """Why a side's runs cannot be compared: it did not finish, or its exit code
    is not the one expected."""
    for index, run in enumerate(runs, start=1):
        if run.exit_code is None:
            return f"run {index}: {run.error or 'did not finish'}"
        if rules.exit_code is not None and run.exit_code != rules.exit_code:
            tail = (run.stderr.strip().splitlines() or [""])[-1][:200]
            return f"run {index}: exit code {run.exit_code}, expected {rules.exit_code}" + (
                f" ({tail})" if tail else ""
            )
    return None


def reproducible(runs: Sequence[Output], rules: Rules) -> Difference | None:
    """The first difference between a side's own runs (run 1 against each other)."""
    for index, run in enumerate(runs[1:], start=2):
        found = compare_outputs(runs[0], run, rules)
        if found is not None:
            return Difference(
                f"run 1 vs run {index}: {found.where}",
                found.expected,
                found.got,
                found.number,
                found.delta,
                found.allowed,
            )
    return None


def judge(
    original: Sequence[Output],
    translated: Sequence[Output],
    rules: Rules,
    names: tuple[str, str] = ("the CUDA original", "the translation"),
) -> Verdict:
    """Same, different, unstable (a side disagrees with itself) or failed (the
    original could not be run as the rules expect: nothing to compare with)."""
    if not original or not translated:
        return Verdict(FAILED, "no runs to compare")
    failure = _run_failure(original, rules)
    if failure is not None:
        return Verdict(FAILED, f"{names[0]}: {failure}")
    for side, runs in zip(names, (original, translated), strict=True):
        if side == names[1] and _run_failure(runs, rules) is not None:
            break  # a translation that fails is different, not unstable
        found = reproducible(runs, rules)
        if found is not None:
            return Verdict(
                UNSTABLE,
                f"{side} is not reproducible ({found.describe()}); "
                "fix its seed or add ignore/mask rules before comparing",
                found,
            )
    failure = _run_failure(translated, rules)
    if failure is not None:
        first = next(
            r for r in translated if r.exit_code != original[0].exit_code or r.exit_code is None
        )
        found = compare_outputs(original[0], first, rules)
        return Verdict(DIFFERENT, f"{names[1]}: {failure}", found)
    found = compare_outputs(original[0], translated[0], rules)
    if found is None:
        return Verdict(SAME)
    return Verdict(DIFFERENT, found.describe(), found)
