#!/usr/bin/env python3
"""The overload sets CUDA and HIP both declare for device code, compared by
the type each call yields: does a translated ``min(a, b)`` mean what CUDA's
does?

For each function (FUNCTIONS: min/max, fmin/fmax, umin/umax, llmin/llmax,
ullmin/ullmax, abs/labs/llabs, fabs) and each pair (or single) of argument
types (TYPES: int, unsigned int, long, unsigned long, long long, unsigned long
long, short, unsigned short, char, signed char, unsigned char, float, double,
__half), one ``__device__`` function calls it on parameters of those types
(and min and max on each pair of EXPRESSIONS, which the rule types from the
tree: literals, ``threadIdx.x``, arithmetic, members, ``auto`` locals):

1. CUDA's result type: CUDA 12.4's nvcc compiles the probes, each asking for
   ``(decltype(f(a, b))*)0`` as a ``Tag*``; the error names the type (or the
   call is ambiguous or matches nothing in CUDA: such a call is no CUDA code,
   and is left out).
2. HIP's result type, untranslated: the same probes with HIP's headers,
   compiled by each release's hipcc for gfx942, device side and host side
   apart (``--cuda-device-only`` / ``--cuda-host-only``).
3. The check: ``static_assert(std::is_same<decltype(f(a, b)), T>::value)``
   with T CUDA's type, in a CUDA file that hipify-py translates for that
   release; hipcc compiles it (device and host side).  Each call then is
   *same* (the assertion holds), *reported* (it fails, with a hipify-py
   diagnostic on its line), *error* (the call does not compile, unreported:
   loud, but a miss of ours) or *silent* (it compiles with another type: the
   translation changes the result, the worst case).

    python tools/semantic_check.py                     # every release with a root
    python tools/semantic_check.py --rocm 7.2 --json out.json
    python tools/semantic_check.py --compat            # translated with --compat
    python tools/semantic_check.py --write-data        # hipify_py/data/device_overloads.yaml

``--write-data`` writes the calls whose type differs in some release (and
CUDA's type for them), which the ``device_overloads`` rule reads to cast the
arguments to CUDA's type.  Exit code: 0 when no call is silent, 1 otherwise,
2 when a tool is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BINARY: tuple[str, ...] = ("min", "max", "fmin", "fmax", "fminf", "fmaxf", "umin", "umax")
BINARY += ("llmin", "llmax", "ullmin", "ullmax")
UNARY = ("abs", "labs", "llabs", "fabs", "fabsf")
FUNCTIONS = BINARY + UNARY
TYPES = (
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "short",
    "unsigned short",
    "char",
    "signed char",
    "unsigned char",
    "float",
    "double",
    "__half",
)
DATA = REPO / "hipify_py" / "data" / "device_overloads.yaml"


# Expressions as arguments (min/max of each pair): the rule types them from
# the tree (literals and their suffixes, the built-in vectors, arithmetic,
# casts, subscripts, members of the file's structs, ...), so each is checked
# the same way, on these parameters.
EXPRESSIONS = (
    "0",
    "7u",
    "2l",
    "3ul",
    "4ll",
    "5ull",
    "'c'",
    "0x80000000",
    "threadIdx.x",
    "blockDim.x * 2",
    "i + 1",
    "i - u",
    "(short)i",
    "-s",
    "s * s",
    "i << 2",
    "sizeof(int)",
    "i > 0 ? i : 2u",
    "ip[0]",
    "p.n",
    "pp->m",
    "n",
    "tid",
)
EXPRESSION_PARAMS = "int i, unsigned u, short s, const int* ip, P p, const P* pp"
EXPRESSION_LOCALS = "auto n = s + s; auto tid = threadIdx.x; "
STRUCT = "struct P { int n; unsigned m; };"


@dataclass(frozen=True)
class Probe:
    function: str
    types: tuple[str, ...]
    expressions: bool = False  # ``types`` are argument expressions (EXPRESSIONS)

    @property
    def call(self) -> str:
        if self.expressions:
            return f"{self.function}({', '.join(self.types)})"
        args = ", ".join("ab"[i] for i in range(len(self.types)))
        return f"{self.function}({args})"

    @property
    def label(self) -> str:
        return f"{self.function}({', '.join(self.types)})"

    def params(self) -> str:
        if self.expressions:
            return EXPRESSION_PARAMS
        return ", ".join(f"{t} {'ab'[i]}" for i, t in enumerate(self.types))

    def locals(self) -> str:
        return EXPRESSION_LOCALS if self.expressions else ""


def probes(
    functions: tuple[str, ...] = FUNCTIONS,
    types: tuple[str, ...] = TYPES,
    expressions: tuple[str, ...] = EXPRESSIONS,
) -> list[Probe]:
    """Each function on each pair (or single) of ``types``; then min and max
    on each pair of ``expressions``."""
    found: list[Probe] = []
    for function in functions:
        if function in UNARY:
            found.extend(Probe(function, (t,)) for t in types)
        else:
            found.extend(Probe(function, (t, u)) for t in types for u in types)
    for function in ("min", "max"):
        if function in functions:
            found.extend(
                Probe(function, (e, f), expressions=True) for e in expressions for f in expressions
            )
    return found


HEADER_CUDA = "#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <type_traits>\n"
HEADER_CUDA += STRUCT + "\n"
HEADER_HIP = "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n#include <type_traits>\n"
HEADER_HIP += STRUCT + "\n"


def type_source(header: str, chosen: list[Probe]) -> str:
    """One device function per probe (line 4 + index) asking for the type of
    its call by an error that names it."""
    lines = [header.rstrip("\n"), "struct Tag;"]
    for index, probe in enumerate(chosen):
        lines.append(
            f"__device__ void p{index}({probe.params()}) {{ {probe.locals()}"
            f"Tag* t = (decltype({probe.call})*)0; (void)t; }} // probe:{index}"
        )
    return "\n".join(lines) + "\n"


def check_source(chosen: list[Probe], expected: dict[Probe, str]) -> str:
    """The CUDA file hipify-py translates: one static_assert per probe."""
    lines = [HEADER_CUDA.rstrip("\n")]
    for index, probe in enumerate(chosen):
        lines.append(
            f"__device__ void p{index}({probe.params()}) {{ {probe.locals()}"
            f"static_assert(std::is_same<decltype({probe.call}), {expected[probe]}>::value, "
            f'"p{index}"); }} // probe:{index}'
        )
    return "\n".join(lines) + "\n"


_MARK = re.compile(r"// probe:(\d+)\s*$")
# nvcc: m.cu(12): error: a value of type "unsigned int *" cannot be used to
# initialize an entity of type "Tag *"
_EDG_ERROR = re.compile(r"^probes\.cu\((\d+)\): error: (.*)$")
_EDG_TYPE = re.compile(r'a value of type "(.+) \*" cannot be used to initialize an entity')
# clang: probes.hip:12:30: error: cannot initialize a variable of type 'Tag *'
# with an rvalue of type 'unsigned int *'
_CLANG_ERROR = re.compile(r"^probes\.hip:(\d+):\d+: error: (.*)$")
# (with 'decltype(...) *' (aka 'unsigned int *') where the type is spelled so)
_CLANG_TYPE = re.compile(r"with an rvalue of type '(?:[^']*' \(aka ')?([^']+?) \*'")


def _lines_to_probes(source: str) -> dict[int, int]:
    return {
        number: int(mark.group(1))
        for number, line in enumerate(source.splitlines(), 1)
        if (mark := _MARK.search(line)) is not None
    }


def read_types(
    source: str, output: str, error: re.Pattern[str], typed: re.Pattern[str]
) -> dict[int, str]:
    """Probe index -> the type its call yields, or "error: ..." where the call
    itself fails (the first error on its line that is not the Tag one)."""
    where = _lines_to_probes(source)
    found: dict[int, str] = {}
    failed: dict[int, str] = {}
    for text in output.splitlines():
        match = error.match(text)
        if match is None:
            continue
        index = where.get(int(match.group(1)))
        if index is None:
            raise RuntimeError(f"an error outside the probes: {text}")
        kind = typed.search(match.group(2))
        if kind is not None:
            found.setdefault(index, _spelled(kind.group(1)))
        else:
            failed.setdefault(index, "error: " + match.group(2).strip())
    return {**found, **failed}


def _spelled(text: str) -> str:
    """One spelling per type: 'long int' and 'long' alike, '__half' for
    '__half' and 'half'."""
    text = " ".join(text.replace("const ", "").split())
    return {
        "long int": "long",
        "unsigned long int": "unsigned long",
        "long long int": "long long",
        "unsigned long long int": "unsigned long long",
        "short int": "short",
        "unsigned": "unsigned int",
        "half": "__half",
        "__half_raw": "__half_raw",
    }.get(text, text)


def cuda_types(compiler: Any, chosen: list[Probe]) -> dict[Probe, str]:
    source = type_source(HEADER_CUDA, chosen)
    with compiler.workspace() as folder:
        (folder / "probes.cu").write_text(source)
        done = compiler.run(
            ["-Xcudafe", "--error_limit=100000", "-c", "probes.cu", "-o", "probes.o"], folder
        )
    found = read_types(source, done.stdout + done.stderr, _EDG_ERROR, _EDG_TYPE)
    missing = [p.label for i, p in enumerate(chosen) if i not in found]
    if missing:
        raise RuntimeError(f"nvcc said nothing about {missing[:5]}: {done.stderr[-2000:]}")
    return {probe: found[i] for i, probe in enumerate(chosen)}


SIDES = ("device", "host")


_FATAL = re.compile(r"^\S+:\d+:\d+: fatal error: .*$", re.M)


def hipcc(
    compiler: Any,
    source: str,
    side: str,
    name: str = "probes.hip",
    beside: dict[str, str] | None = None,
) -> str:
    """hipcc's messages on ``source`` (``-fsyntax-only``, one side), with the
    files of ``beside`` (name -> text) next to it."""
    with compiler.workspace() as folder:
        (folder / name).write_text(source)
        for other, text in (beside or {}).items():
            (folder / other).write_text(text)
        done = compiler.run(
            [
                "--offload-arch=gfx942",
                f"--cuda-{side}-only",
                "-fsyntax-only",
                "-ferror-limit=0",
                "-x",
                "hip",
                name,
            ],
            folder,
        )
    output = str(done.stdout + done.stderr)
    fatal = _FATAL.search(output)
    if fatal is not None:
        raise RuntimeError(f"hipcc ({side}): {fatal.group(0)}")
    return output


def hip_types(compiler: Any, chosen: list[Probe]) -> dict[str, dict[Probe, str]]:
    """Per side, each probe's type under HIP's own headers (untranslated)."""
    source = type_source(HEADER_HIP, chosen)
    result = {}
    for side in SIDES:
        found = read_types(source, hipcc(compiler, source, side), _CLANG_ERROR, _CLANG_TYPE)
        result[side] = {p: found.get(i, "?") for i, p in enumerate(chosen)}
    return result


COMPAT_HEADER = "hipify_py_compat.h"


def translate(
    source: str, hip_version: str, compat: bool = False
) -> tuple[str, dict[int, list[str]], dict[str, str]]:
    """hipify-py's translation (its CLI), the codes per line of ``source``,
    and the files it writes beside it (``--compat``: its header)."""
    with tempfile.TemporaryDirectory(prefix="semantic-check-") as scratch:
        folder = Path(scratch)
        (folder / "probes.cu").write_text(source)
        argv = [sys.executable, "-m", "hipify_py", "probes.cu", "-o", "out", "--format", "json"]
        argv += ["--hip-version", hip_version, "--offload-arch", "gfx942", "-j", "0"]
        if compat:
            argv.append("--compat")
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
        )
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, env=env)
        if done.returncode not in (0, 1) or not (folder / "out" / "probes.cu").is_file():
            raise RuntimeError(f"hipify-py failed ({done.returncode}): {done.stderr[-2000:]}")
        report = json.loads(done.stdout)
        output = (folder / "out" / "probes.cu").read_text()
        header = folder / "out" / COMPAT_HEADER
        beside = {COMPAT_HEADER: header.read_text()} if header.is_file() else {}
    codes: dict[int, list[str]] = {}
    for entry in report["files"]:
        for diagnostic in entry.get("diagnostics", []):
            if diagnostic["code"] == "HPY001":
                raise RuntimeError(f"hipify-py: {diagnostic['message']}")
            if diagnostic["severity"] in ("error", "warning"):
                codes.setdefault(diagnostic["line"], []).append(diagnostic["code"])
    return output, codes, beside


def check_release(
    compiler: Any,
    chosen: list[Probe],
    cuda: dict[Probe, str],
    hip_version: str,
    compat: bool = False,
) -> dict[str, Any]:
    """Each probe CUDA compiles: its HIP types untranslated, and what the
    translated static_assert says (same / reported / error / silent);
    ``compat``: translated with --compat, its header beside the file."""
    valid = [p for p in chosen if not cuda[p].startswith("error")]
    raw = hip_types(compiler, valid)
    source = check_source(valid, cuda)
    output, codes, beside = translate(source, hip_version, compat)
    where = _lines_to_probes(output)
    failures: dict[str, dict[int, str]] = {}
    for side in SIDES:
        failures[side] = {}
        for text in hipcc(compiler, output, side, beside=beside).splitlines():
            match = _CLANG_ERROR.match(text)
            if match is None:
                continue
            index = where.get(int(match.group(1)))
            if index is None:
                raise RuntimeError(f"an error outside the probes: {text}")
            failures[side].setdefault(index, match.group(2))
    reported_at = {
        int(m.group(1)): codes.get(number, [])
        for number, line in enumerate(source.splitlines(), 1)
        if (m := _MARK.search(line)) is not None
    }
    rows = []
    for index, probe in enumerate(valid):
        row: dict[str, Any] = {"call": probe.label, "cuda": cuda[probe]}
        if probe.expressions:
            row["expressions"] = True
        for side in SIDES:
            row[f"hip_{side}"] = raw[side][probe]
            failure = failures[side].get(index)
            if failure is None:
                status = "same"
            elif reported_at[index]:
                status = "reported"
            elif "static assertion failed" in failure or "static_assert failed" in failure:
                status = "silent"
            else:
                status = "error"
            row[side] = status
            if failure is not None:
                row[f"{side}_error"] = failure
        row["codes"] = sorted(set(reported_at[index]))
        rows.append(row)
    return {
        "compiler": compiler.description,
        "hip_version": hip_version,
        "compat": compat,
        "not_cuda": sorted(p.label for p in chosen if cuda[p].startswith("error")),
        "calls": rows,
    }


def differing(row: dict[str, Any]) -> bool:
    """Does HIP, untranslated, give the call another type than CUDA on a side?"""
    return any(row[f"hip_{side}"] != row["cuda"] for side in SIDES)


def summary(report: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per side, how many calls are same / reported / error / silent, and how
    many of them HIP alone gets wrong (``differ``)."""
    counts: dict[str, dict[str, int]] = {}
    for side in SIDES:
        tally = dict.fromkeys(("calls", "differ", "same", "reported", "error", "silent"), 0)
        for row in report["calls"]:
            tally["calls"] += 1
            tally[row[side]] += 1
            tally["differ"] += row[f"hip_{side}"] != row["cuda"]
        counts[side] = tally
    return counts


def table(reports: dict[str, dict[str, Any]]) -> str:
    """Markdown: per release and side, the counts; per function, the calls
    HIP alone types differently and what the translation makes of them; then
    each call HIP declares but types differently (or that fails unreported
    after translation), release by release."""
    releases = list(reports)
    lines = [
        "| release | side | calls | HIP alone differs | same after translation | reported "
        "| error, unreported | silent |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for release, report in reports.items():
        for side, tally in summary(report).items():
            lines.append(
                f"| {release} | {side} | {tally['calls']} | {tally['differ']} | {tally['same']} "
                f"| {tally['reported']} | {tally['error']} | **{tally['silent']}** |"
            )
    lines += [
        "",
        "| function | calls | "
        + " | ".join(
            f"{r}: HIP alone differs / after: same, reported, error, silent" for r in releases
        )
        + " |",
        "| --- | ---: |" + " --- |" * len(releases),
    ]
    functions = sorted(
        {_group(row) for r in reports.values() for row in r["calls"]},
        key=lambda g: (FUNCTIONS.index(g.split()[0]), g),
    )
    for function in functions:
        cells = []
        calls = 0
        for report in reports.values():
            rows = [row for row in report["calls"] if _group(row) == function]
            calls = len(rows)
            worst = [_worst(row) for row in rows]
            cells.append(
                f"{sum(differing(row) for row in rows)} / "
                + ", ".join(str(worst.count(status)) for status in STATUSES)
            )
        lines.append(f"| {function} | {calls} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| call | CUDA | "
        + " | ".join(f"HIP {r} alone, device / host -> after" for r in releases)
        + " |",
        "| --- | --- |" + " --- |" * len(releases),
    ]
    shown: dict[str, dict[str, dict[str, Any]]] = {}
    for release, report in reports.items():
        for row in report["calls"]:
            declared = not all(row[f"hip_{side}"].startswith("error") for side in SIDES)
            if (differing(row) and declared) or _worst(row) in ("error", "silent"):
                shown.setdefault(row["call"], {})[release] = row
    for call, per_release in shown.items():
        cuda = next(iter(per_release.values()))["cuda"]
        cells = []
        for release in releases:
            row = per_release.get(release)
            if row is None:
                cells.append("same")
                continue
            alone = " / ".join(_short(row[f"hip_{side}"]) for side in SIDES)
            cells.append(f"{alone} -> {_worst(row)}")
        lines.append(f"| `{call}` | {cuda} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


STATUSES = ("same", "reported", "error", "silent")


def _group(row: dict[str, Any]) -> str:
    """A call's line in the per-function table: its function (on expressions)."""
    function = str(row["call"]).split("(")[0]
    return function + (" (expressions)" if row.get("expressions") else "")


def _worst(row: dict[str, Any]) -> str:
    """The worse of a call's two sides after translation."""
    return str(max((row[side] for side in SIDES), key=STATUSES.index))


def _short(kind: str) -> str:
    return "error" if kind.startswith("error") else kind


def data_yaml(reports: dict[str, dict[str, Any]]) -> str:
    """Every call CUDA compiles, with CUDA's type, and the releases whose HIP
    (untranslated, device or host side) types it otherwise: what the
    device_overloads rule reads."""
    cuda: dict[str, str] = {}
    differs: dict[str, list[str]] = {}
    for release, report in sorted(reports.items()):
        for row in report["calls"]:
            if row.get("expressions"):
                continue  # the rule's data is per argument type
            cuda[row["call"]] = row["cuda"]
            if differing(row):
                differs.setdefault(row["call"], []).append(release)
    lines = [
        "# The device calls CUDA 12.4 compiles, per function and argument types, with",
        "# the type CUDA's overload yields (cuda) and the ROCm releases whose HIP, untranslated,",
        "# yields another type (or none) on the device or the host side (differs): the",
        "# device_overloads rule casts such a call's arguments to CUDA's type.",
        "# Generated by tools/semantic_check.py --write-data from the real compilers",
        f"# (ROCm {', '.join(sorted(reports))}); do not edit by hand.",
    ]
    by_function: dict[str, list[str]] = {}
    for call, kind in cuda.items():
        function, args = call.split("(", 1)
        releases = differs.get(call)
        tail = f", differs: [{', '.join(releases)}]" if releases else ""
        by_function.setdefault(function, []).append(f'  "{args[:-1]}": {{cuda: {kind}{tail}}}')
    for function in sorted(by_function):
        lines.append(f"{function}:")
        lines.extend(by_function[function])
    return "\n".join(lines) + "\n"


def run(
    release: str, chosen: list[Probe], cuda: dict[Probe, str], compat: bool = False
) -> dict[str, Any]:
    from hip_smoke.toolchain import find_amd

    compiler = find_amd(release=release)
    return check_release(compiler, chosen, cuda, compiler.hip_version, compat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rocm", help="one ROCm release (5.7, 6.4, 7.2); default: every root")
    parser.add_argument("--function", default=",".join(FUNCTIONS), help="comma-separated")
    parser.add_argument("--json", type=Path, help="write the whole report here")
    parser.add_argument(
        "--compat",
        action="store_true",
        help="translate with --compat (hipify_py_compat.h provides umin and the others)",
    )
    parser.add_argument(
        "--write-data",
        nargs="?",
        const=DATA,
        type=Path,
        help=f"write the calls HIP types differently (default {DATA.relative_to(REPO)})",
    )
    args = parser.parse_args(argv)
    from hip_smoke.toolchain import RELEASES, ToolchainError, complete_root, find_cuda

    functions = tuple(args.function.split(","))
    unknown = set(functions) - set(FUNCTIONS)
    if unknown:
        parser.error(f"unknown functions {sorted(unknown)}; known: {', '.join(FUNCTIONS)}")
    releases = (
        [args.rocm]
        if args.rocm
        else [r for r in reversed(RELEASES) if complete_root(f"amd-{r}") is not None]
    )
    chosen = probes(functions)
    try:
        cuda = cuda_types(find_cuda(), chosen)
        reports = {release: run(release, chosen, cuda, args.compat) for release in releases}
    except (ToolchainError, RuntimeError) as exc:
        print(f"semantic_check: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1))
    if args.write_data:
        args.write_data.write_text(data_yaml(reports))
    print(table(reports), end="")
    silent = sum(t["silent"] for r in reports.values() for t in summary(r).values())
    return 1 if silent else 0


if __name__ == "__main__":
    raise SystemExit(main())
