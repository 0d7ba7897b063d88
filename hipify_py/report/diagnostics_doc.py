"""docs/diagnostics.md, generated from the catalogue (rules/catalogue.py: the codes
of engine/diagnostics.py and of the rule modules; a test fails when the committed
file is stale: `hipify-py diagnostics --write-docs`)."""

from __future__ import annotations

from hipify_py.engine.diagnostics import Code
from hipify_py.rules.catalogue import CATALOGUE

_GROUPS = [
    ("HPY0", "The file itself"),
    ("HPY1", "CUDA API names"),
    ("HPY2", "Headers"),
    ("HPY3", "Kernel launches"),
    ("HPY40", "Warp intrinsics on 64-lane wavefronts"),
    ("HPY41", "Architecture gates"),
    ("HPY42", "Warp-size assumptions"),
    ("HPY43", "Number formats"),
    ("HPY44", "Textures"),
    ("HPY45", "Device properties"),
    ("HPY46", "Half precision"),
    ("HPY5", "Inline assembly"),
    ("HPY6", "Build files"),
    ("HPY7", "The clang engine"),
    ("HPY8", "C++ that hipcc's clang rejects"),
]


def _language(code: str) -> str:
    """The code fence of an example: build files, plain descriptions, CUDA."""
    if code == "HPY603":
        return "make"
    if code.startswith("HPY60"):
        return "cmake"
    if code in ("HPY001", "HPY002", "HPY004"):
        return "text"
    return "cuda"


def _group(code: str) -> str:
    best = ""
    title = "Other"
    for prefix, name in _GROUPS:
        if code.startswith(prefix) and len(prefix) > len(best):
            best, title = prefix, name
    return title


def explain(entry: Code) -> str:
    """One code as markdown (also what `hipify-py diagnostics CODE` prints)."""
    lines = [
        f"### {entry.code} `{entry.name}` ({entry.severity.value})",
        "",
        entry.summary[:1].upper() + entry.summary[1:] + ".",
    ]
    if entry.why:
        lines += ["", f"**Why it matters on AMD.** {entry.why}"]
    if entry.example:
        fence = _language(entry.code)
        lines += ["", "**Example.**", "", f"```{fence}", entry.example, "```"]
    if entry.fix:
        lines += ["", f"**Fix.** {entry.fix}"]
    return "\n".join(lines)


def markdown() -> str:
    out = [
        "# Diagnostics",
        "",
        "Generated from `hipify_py/engine/diagnostics.py` by `hipify-py diagnostics --write-docs`;",
        "do not edit.  Each diagnostic prints as `path:line:col: severity: message [CODE]`.",
        "",
        "Suppress one on its line with a comment `// hipify-py: ignore[CODE]` (several codes:",
        "`ignore[HPY420,HPY421]`; every code: `// hipify-py: ignore`), or for a whole run with",
        "`--ignore CODES` / `--select CODES` (comma-separated prefixes, e.g. `--ignore HPY42`;",
        "a code or prefix that names no diagnostic is a usage error, exit 2).",
        "`--annotate` writes a `/* hipify-py: CODE ... */` comment at each site of the output.",
        "",
        "Severities: **error** means the translated code will not compile or is known to be",
        "wrong (`--strict` and `--check` exit 1); **warning** means review it; **info** is a",
        "note about what was done (shown with `--verbose`).",
        "",
        "| code | name | severity | summary |",
        "|---|---|---|---|",
    ]
    entries = sorted(CATALOGUE.values(), key=lambda e: e.code)
    for entry in entries:
        out.append(f"| {entry.code} | `{entry.name}` | {entry.severity.value} | {entry.summary} |")
    current = None
    for entry in entries:
        group = _group(entry.code)
        if group != current:
            out += ["", f"## {group}"]
            current = group
        out += ["", explain(entry)]
    return "\n".join(out) + "\n"
