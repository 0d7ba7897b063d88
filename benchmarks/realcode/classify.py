"""A unit's first compiler error, its class, and whether hipify-py predicted it."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

CLASSES_YAML = Path(__file__).resolve().parent / "classes.yaml"

# clang: "file:line:col: error: msg"; nvcc's front end: "file(line): error: msg";
# g++ (nvcc's host pass): "file:line:col: error: msg"
_CLANG = re.compile(
    r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$"
)
_NVCC = re.compile(
    r"^(?P<file>[^(\s][^(]*)\((?P<line>\d+)\): (?:catastrophic )?error: (?P<msg>.*)$"
)
_BARE = re.compile(r"(?:^|\s)(?:fatal )?error: (?P<msg>.*)$")


@dataclass
class FirstError:
    file: str  # relative to the tree's root when inside it
    line: int
    message: str
    label: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _classes() -> list[tuple[str, re.Pattern[str]]]:
    data = yaml.safe_load(CLASSES_YAML.read_text(encoding="utf-8"))
    return [(str(c["label"]), re.compile(str(c["pattern"]))) for c in data["classes"]]


CLASSES = _classes()


def label_of(message: str) -> str:
    for label, pattern in CLASSES:
        if pattern.search(message):
            return label
    return "other"


def _relative(path: str, cwd: str) -> str:
    """A path the compiler printed, relative to its working folder ``cwd``."""
    joined = os.path.normpath(os.path.join(cwd, path))
    if joined == cwd or joined.startswith(cwd.rstrip("/") + "/"):
        return os.path.relpath(joined, cwd)
    return joined


def first_error(output: str, cwd: str) -> FirstError:
    """The first error in a compiler's output (``cwd``: the folder it ran in, as it saw it)."""
    for raw in output.splitlines():
        line = raw.strip()
        found = _CLANG.match(line) or _NVCC.match(line)
        if found is not None:
            message = found.group("msg").strip()
            return FirstError(
                _relative(found.group("file"), cwd),
                int(found.group("line")),
                message,
                label_of(message),
            )
    for raw in output.splitlines():
        bare = _BARE.search(raw)
        if bare is not None:
            message = bare.group("msg").strip()
            return FirstError("", 0, message, label_of(message))
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    message = lines[-1] if lines else "no output"
    return FirstError("", 0, message, label_of(message))


# where a template that failed in a header outside the tree was instantiated
# from: nvcc "instantiation of ... at line 403 of src/x.cuh", clang
# "src/x.cuh:403:5: note: in instantiation of ... requested here"
_NVCC_AT = re.compile(r"\bat line (?P<line>\d+) of (?P<file>[^\s\"]+)")
_CLANG_AT = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):\d+: note: in instantiation of ")


def instantiated_from(output: str, error: FirstError) -> FirstError | None:
    """For a first error inside a header outside the tree (a system header's
    template), the tree's line that instantiated it, as a FirstError with the
    same message: the user's code that a diagnostic can point at."""
    if not error.file.startswith("/"):
        return None
    for raw in output.splitlines():
        line = raw.strip()
        found = _NVCC_AT.search(line) or _CLANG_AT.match(line)
        if found is not None and not found.group("file").startswith("/"):
            return FirstError(
                os.path.normpath(found.group("file")),  # src/tree/../../common/x.cuh
                int(found.group("line")),
                error.message,
                error.label,
            )
    return None


# straight quotes (clang, nvcc) and typographic ones (g++ in a UTF-8 locale)
_Q = "'\"\u2018\u2019\u201c\u201d"
_QUOTED = re.compile(f"[{_Q}]([^{_Q}]+)[{_Q}]")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def identifiers_in(message: str) -> set[str]:
    """Identifiers the message names (in quotes): ``'__vsub4'``, ``'float2 (float2)'``."""
    names: set[str] = set()
    for quoted in _QUOTED.findall(message):
        words = _IDENT.findall(quoted)
        if len(quoted.split()) > 4:
            continue  # a sentence (an #error's text), not code
        names.update(n for n in words if len(n) > 2 and n not in _TOO_COMMON)
    return names


# names too common to tie an error to one diagnostic
_TOO_COMMON = frozenset(
    [
        "CUDA",
        "HIP",
        "NVIDIA",
        "AMD",
        "int",
        "float",
        "double",
        "char",
        "void",
        "unsigned",
        "signed",
        "const",
        "long",
        "short",
        "bool",
        "half",
        "auto",
        "std",
        "size_t",
        "uint32_t",
        "int32_t",
        "uint64_t",
        "int64_t",
        "uint8_t",
        "int8_t",
    ]
)


@dataclass
class Diagnostic:
    file: str  # relative to the tree's root
    line: int
    code: str
    severity: str
    message: str


def predicted_by(
    error: FirstError, diagnostics: list[Diagnostic], conditions: set[int] | None = None
) -> str | None:
    """How a hipify-py diagnostic (error or warning) predicted ``error``:
    "line" (same file and line), "condition" (an ``#error``'s first error
    and a diagnostic on a line of the #if / #elif conditions that select that
    ``#error``: ``conditions``, from controlling_lines), "construct" (same
    file, names an identifier the error names), "header" (the failing file is
    a header an error or warning said has no HIP counterpart: vendored
    libcu++), or None (a silent failure)."""
    relevant = [d for d in diagnostics if d.severity in ("error", "warning")]
    same_file = [d for d in relevant if d.file == error.file]
    for diag in same_file:
        if diag.line == error.line:
            return f"line: {diag.code}"
    if error.label == "#error":
        for diag in same_file:
            if diag.line in (conditions or set()):
                return f"condition: {diag.code}"
    names = identifiers_in(error.message)
    for diag in same_file:
        if names & set(_IDENT.findall(diag.message)):
            return f"construct: {diag.code}"
    for diag in relevant:  # the failing file is a header reported as having no HIP counterpart
        header = _UNSUPPORTED_HEADER.match(diag.message)
        if header is not None and error.file.endswith("/" + header.group(1)):
            return f"header: {diag.code}"
    return None


# HPY201's message: "<cuda/std/__cccl/compiler.h> has no HIP counterpart; ..."
_UNSUPPORTED_HEADER = re.compile(r"<([^<>\s]+)> has no HIP counterpart")


_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")


def controlling_lines(lines: list[str], line: int) -> set[int]:
    """The lines (1-based) of the #if / #elif conditions that select line
    ``line``: each enclosing conditional's branch and the branches before it
    in its chain (an #else is selected by its #if and #elifs being false)."""
    found: set[int] = set()
    depth = 0
    index = min(line, len(lines)) - 2  # start above the line itself
    while index >= 0:
        match = _DIRECTIVE.match(lines[index])
        if match is not None:
            word = match.group(1)
            if word == "endif":
                depth += 1
            elif depth > 0:
                if word.startswith("if"):
                    depth -= 1
            else:
                found.add(index + 1)  # a branch of an enclosing chain, or its #if
                end = index + 1
                while lines[end - 1].rstrip().endswith("\\") and end < len(lines):
                    end += 1  # a condition continued on the next lines
                    found.add(end)
        index -= 1
    return found


def original_line(original: list[str], translated: list[str], line: int) -> int | None:
    """The line of the original file that line ``line`` (1-based) of its
    translation came from (hipify-py's diagnostics count lines of the
    original); None for a line the translation inserted."""
    matcher = difflib.SequenceMatcher(None, original, translated, autojunk=False)
    index = line - 1
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if not j1 <= index < j2:
            continue
        if tag == "equal":
            return i1 + (index - j1) + 1
        if tag == "replace":
            return i1 + min(index - j1, i2 - i1 - 1) + 1
        return None  # inserted
    return None
