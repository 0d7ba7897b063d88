#!/usr/bin/env python3
"""Call every device-callable function and operator of CUDA 12.4's own
headers, translate the calls with hipify-py and compile them for gfx942.

The surface comes from the headers, not from our tables: nvcc's device-side
preprocessing of the headers (``-D__CUDA_ARCH__=900``, exactly as nvcc runs it)
is read through libclang, and every declaration CUDA marks ``__device__`` is
taken: free functions and operators, the constructors and conversion
operators of the fp16/bf16/fp8 types, single-type templates (textures,
surfaces: with every type of ``types``), and the cooperative-groups call
shapes of tools/device_surface.yaml over every group object and type (the
public cooperative-groups names are checked against the shapes, so none is
left out unnoticed).  One call per line, each in its own ``__device__``
function with parameters of the callee's types.

First the file is compiled as CUDA with nvcc 12.4 for sm_90: calls CUDA
rejects do not count.  Then for each ROCm release hipify-py translates it
for that HIP (by default, and with ``--compat``) and that release's hipcc
compiles it for gfx942 (``-fsyntax-only``).  Each call is:

- ``compile``: the default translation compiles;
- ``compat``: only the ``--compat`` translation compiles, and the default
  one says so at the call (an error or warning naming ``--compat``);
- ``reported``: it does not compile, and hipify-py says so at the call
  (an error or warning) in both modes;
- ``silent``: a translation fails to compile with no error or warning of
  hipify-py at the call: a bug of hipify-py.

    python tools/device_surface.py --rocm 7.2            # one release, both modes
    python tools/device_surface.py --table      # every release with a root: the README's table
    python tools/device_surface.py --rocm 5.7 --family atomics --silent

Needs the roots of hip_smoke/toolchain/provision.sh (``nvidia`` for CUDA
12.4 and its nvcc, ``amd-X.Y`` per release) and the ``libclang`` wheel.
Exit code: 0 when no call is silent, 1 otherwise, 2 when a tool is missing.
"""

from __future__ import annotations

import argparse
import bisect
import fnmatch
import json
import re
import shlex
import sys
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from signature_check import RELEASE_NAMES, _resource_dir  # noqa: E402

CONFIG = Path(__file__).with_suffix(".yaml")
NO_CAUSE = frozenset({"HPY100", "HPY105"})  # notes that explain no failure


@dataclass
class Call:
    """One call of the surface: its family, the API name, a readable
    signature and the one line that calls it."""

    family: str
    name: str
    signature: str
    line: str  # the whole source line (a __device__ function), without its mark
    cuda_ok: bool = True
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # "7.2/hip" -> outcome
    # how a rule finds the call in code (the gaps file): the callee ("__ldcs",
    # "__half" for a constructor, "cg::reduce", "thread_block_tile.shfl" for a
    # member; "" when not by name, as an operator), its CUDA parameter types,
    # explicit template arguments, and the cooperative group it runs on
    key: str = ""
    params: list[str] = field(default_factory=list)
    targs: list[str] = field(default_factory=list)
    group: str = ""


# ---------------------------------------------------------------- the surface


def load_config(path: Path = CONFIG) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    return data


def cuda_include(nvidia_root: Path) -> Path:
    return nvidia_root / "usr" / "include"


def preprocess_device(compiler: Any, headers: list[str]) -> tuple[str, str]:
    """nvcc's own device-side preprocessing (its ``--dryrun`` command with
    ``-D__CUDA_ARCH__``) of a file that includes ``headers``; returns the
    preprocessed text and the include folder it names."""
    source = "".join(f"#include <{h}>\n" for h in headers)
    with compiler.workspace() as folder:
        (folder / "surface.cu").write_text(source)
        dry = compiler.run(["--dryrun", "-arch=sm_90", "-c", "surface.cu"], folder)
        step = next(
            (
                line.removeprefix("#$ ")
                for line in dry.stderr.splitlines()
                if "-D__CUDA_ARCH__=" in line and " -E " in line
            ),
            None,
        )
        if step is None:
            raise RuntimeError(f"no device preprocessing step in nvcc --dryrun:\n{dry.stderr}")
        argv = shlex.split(step)
        out = argv.index("-o")
        argv[out + 1] = "surface.ii"
        done = compiler.shell(shlex.join(argv), folder)
        if done.returncode != 0:
            raise RuntimeError(f"nvcc's preprocessing failed:\n{done.stderr[-3000:]}")
        return (folder / "surface.ii").read_text(), "/usr/include"


_LINE_MARK = re.compile(r'^# (\d+) "([^"]+)"')


class Origins:
    """The header each line of a preprocessed file came from (its ``# N "file"`` marks)."""

    def __init__(self, text: str, include: str) -> None:
        self.starts: list[int] = []
        self.files: list[str] = []
        prefix = include.rstrip("/") + "/"
        for number, line in enumerate(text.splitlines(), 1):
            mark = _LINE_MARK.match(line)
            if mark is not None:
                self.starts.append(number)
                name = mark.group(2)
                self.files.append(name.removeprefix(prefix) if name.startswith(prefix) else name)

    def of(self, line: int) -> str:
        at = bisect.bisect_right(self.starts, line) - 1
        return self.files[at] if at >= 0 else "?"


def _matches(header: str, globs: list[str]) -> bool:
    return any(fnmatch.fnmatch(header, g) for g in globs)


def family_of(config: dict[str, Any], name: str, header: str) -> str:
    for entry in config["families"]:
        if "names" in entry and re.search(entry["names"], name):
            return str(entry["family"])
        if "headers" in entry and _matches(header, entry["headers"]):
            return str(entry["family"])
    return "other"


def _is_device(cursor: Any, kinds: Any) -> bool:
    return any(child.kind == kinds.CUDADEVICE_ATTR for child in cursor.get_children())


def _declarable(spelled: str) -> str:
    """A parameter type as a parameter of the calling function (arrays decay)."""
    return re.sub(r"\[\d*\]$", "*", spelled.strip())


_OPERATOR = re.compile(r"^operator\s*(\W+)$")


def _operator_expr(symbol: str, arity: int) -> str | None:
    if arity == 2:
        return f"a0 {symbol} a1" if symbol not in ("()", "[]") else None
    if arity == 1:
        return f"{symbol}a0"
    return None


def enumerate_surface(preprocessed: str, include: str, resource: Path | None) -> list[Call]:
    """Every device-callable declaration of the preprocessed headers as calls."""
    import clang.cindex as cindex

    config = load_config()
    kinds = cindex.CursorKind
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-device-only"]
    args += ["--cuda-gpu-arch=sm_90", "-std=c++17", "-Wno-everything", "-ferror-limit=0"]
    if resource is not None:
        args += ["-resource-dir", str(resource.parent)]
    unit = cindex.Index.create().parse(
        "surface.ii",
        args=args,
        unsaved_files=[("surface.ii", preprocessed)],
        options=cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES,
    )
    origins = Origins(preprocessed, include)
    exclude = re.compile(config["exclude"])
    calls: dict[str, Call] = {}

    def add(
        family: str,
        name: str,
        signature: str,
        body: str,
        params: list[str],
        key: str = "",
        targs: tuple[str, ...] = (),
    ) -> None:
        if signature in calls:
            return
        decls = ", ".join(f"{t} a{i}" for i, t in enumerate(params))
        line = f"__device__ void call_{len(calls)}({decls}) {{ (void)({body}); }}"
        calls[signature] = Call(
            family, name, signature, line, key=key, params=list(params), targs=list(targs)
        )

    def params_of(cursor: Any) -> list[str]:
        # get_arguments() knows no template's parameters: their PARM_DECLs do
        found = [c for c in cursor.get_children() if c.kind == kinds.PARM_DECL]
        return [_declarable(p.type.spelling) for p in found]

    def visit(parent: Any) -> None:
        for cursor in parent.get_children():
            try:
                kind = cursor.kind
            except ValueError:  # a cursor kind newer than the wheel's
                continue
            if kind in (kinds.LINKAGE_SPEC, kinds.UNEXPOSED_DECL):
                visit(cursor)
                continue
            if kind == kinds.STRUCT_DECL or kind == kinds.CLASS_DECL:
                if cursor.spelling in config["classes"] and cursor.is_definition():
                    members(cursor)
                continue
            if kind not in (kinds.FUNCTION_DECL, kinds.FUNCTION_TEMPLATE):
                continue
            name = cursor.spelling
            header = origins.of(cursor.location.line)
            if exclude.search(name) or _matches(header, config["exclude_headers"]):
                continue
            if name in config["exempt"]:
                continue
            if not _is_device(cursor, kinds):
                continue
            family = family_of(config, name, header)
            if kind == kinds.FUNCTION_TEMPLATE:
                template(cursor, family, header)
                continue
            params = params_of(cursor)
            if any(re.search(config["exclude_params"], t) for t in params):
                continue
            signature = f"{name}({', '.join(params)})"
            operator = _OPERATOR.match(name)
            if operator is not None:
                body = _operator_expr(operator.group(1), len(params))
                if body is None:
                    continue
                if operator.group(1) in ("++", "--") and len(params) == 2:
                    body = f"a0{operator.group(1)}"
                    params = params[:1]
                add(family, name, signature, body, params, key=f"operator{operator.group(1)}")
                continue
            args = ", ".join(f"a{i}" for i in range(len(params)))
            add(family, name, signature, f"{name}({args})", params, key=name)

    def members(cls: Any) -> None:
        owner = cls.spelling
        family = family_of(config, owner, origins.of(cls.location.line))
        for cursor in cls.get_children():
            try:
                kind = cursor.kind
            except ValueError:
                continue
            if cursor.access_specifier != cindex.AccessSpecifier.PUBLIC:
                continue
            if not _is_device(cursor, kinds):
                continue
            if kind == kinds.CONSTRUCTOR:
                params = params_of(cursor)
                if not params or (len(params) == 1 and owner in params[0]):
                    continue  # default, copy and move constructors
                args = ", ".join(f"a{i}" for i in range(len(params)))
                signature = f"{owner}({', '.join(params)})"
                add(family, owner, signature, f"{owner}({args})", params, key=owner)
            elif kind == kinds.CONVERSION_FUNCTION:
                target = cursor.spelling.removeprefix("operator ").strip()
                add(
                    family,
                    f"{owner}::{cursor.spelling}",
                    f"{owner}::{cursor.spelling}()",
                    f"static_cast<{target}>(a0)",
                    [owner],
                    key="conversion",
                    targs=(target,),
                )
            elif kind == kinds.CXX_METHOD:
                operator = _OPERATOR.match(cursor.spelling)
                params = params_of(cursor)
                if operator is None or operator.group(1) == "=":
                    continue
                body = _operator_expr(operator.group(1), len(params) + 1)
                if body is not None:
                    signature = f"{owner}::{cursor.spelling}({', '.join(params)})"
                    add(
                        family,
                        f"{owner}::{cursor.spelling}",
                        signature,
                        body,
                        [f"{owner} &", *params],
                    )

    def template(cursor: Any, family: str, header: str) -> None:
        names = [
            c.spelling for c in cursor.get_children() if c.kind == kinds.TEMPLATE_TYPE_PARAMETER
        ]
        others = [c for c in cursor.get_children() if c.kind == kinds.TEMPLATE_NON_TYPE_PARAMETER]
        if len(names) != 1 or others:
            return  # several type parameters: only the cooperative-groups shapes call those
        param = re.compile(rf"\b{re.escape(names[0])}\b")
        spelled = params_of(cursor)
        name = cursor.spelling
        # a parameter that names the type deduces it, as real calls write it
        deduced = any(param.search(t) for t in spelled)
        for type_ in config["types"]:
            params = [param.sub(type_, t) for t in spelled]
            args = ", ".join(f"a{i}" for i in range(len(params)))
            signature = f"{name}<{type_}>({', '.join(params)})"
            callee = name if deduced else f"{name}<{type_}>"
            targs = () if deduced else (type_,)
            add(family, name, signature, f"{callee}({args})", params, key=name, targs=targs)

    visit(unit.cursor)
    check_group_names(unit, config, origins)
    for call in group_calls(config):
        calls.setdefault(call.signature, call)
    return list(calls.values())


def group_calls(config: dict[str, Any]) -> list[Call]:
    """The cooperative-groups call shapes over every group and type."""
    found = []
    for shape in config["group_calls"]:
        typed = "{T}" in shape["expr"] or "{v}" in shape["expr"]
        for group in shape["groups"]:
            setup = config["groups"][group].replace("{G}", group)
            for type_ in shape.get("types", config["types"]) if typed else [None]:
                expr = shape["expr"].replace("{G}", group)
                params = ""
                if type_ is not None:
                    expr = expr.replace("{T}", type_).replace("{v}", "v")
                    params = f"{type_} v"
                expr = expr.replace("{{", "{").replace("}}", "}")
                signature = f"cg::{shape['name']}: {expr}"
                line = f"__device__ void call_cg({params}) {{ {setup} (void)({expr}); }}"
                kind = group_class(config["groups"][group])
                member = expr.startswith(f"{group}.")
                key = f"{kind}.{shape['name']}" if member else f"cg::{shape['name']}"
                found.append(
                    Call(
                        "cooperative groups",
                        f"cg::{shape['name']}",
                        signature,
                        line,
                        key=key,
                        params=[type_] if type_ is not None else [],
                        group=kind,
                    )
                )
    return found


def group_class(setup: str) -> str:
    """``thread_block_tile`` of ``cg::thread_block_tile<32> {G} = ...``."""
    found = re.match(r"\s*cg::(\w+)", setup)
    return found.group(1) if found else ""


def check_group_names(unit: Any, config: dict[str, Any], origins: Origins) -> None:
    """Every public cooperative-groups function and method of the headers is
    called by a shape of the configuration, or exempt with a reason."""
    import clang.cindex as cindex

    kinds = cindex.CursorKind
    covered = {shape["name"] for shape in config["group_calls"]} | set(config["group_exempt"])
    missing: set[str] = set()

    def walk(cursor: Any, inside: bool) -> None:
        for child in cursor.get_children():
            try:
                kind = child.kind
            except ValueError:
                continue
            if kind == kinds.NAMESPACE:
                name = child.spelling
                if name == "cooperative_groups" or (inside and name.startswith("__v")):
                    walk(child, True)
                continue
            if not inside:
                continue
            if kind in (kinds.CLASS_DECL, kinds.STRUCT_DECL, kinds.CLASS_TEMPLATE):
                public = not child.spelling.startswith("_") and child.spelling != "details"
                if public or child.spelling.startswith("__"):  # or a tile base class
                    walk(child, True)
                continue
            if kind in (kinds.FUNCTION_DECL, kinds.FUNCTION_TEMPLATE, kinds.CXX_METHOD):
                if child.access_specifier == cindex.AccessSpecifier.PRIVATE:
                    continue
                if child.access_specifier == cindex.AccessSpecifier.PROTECTED:
                    continue
                if child.spelling.startswith("_") or not _is_device(child, kinds):
                    continue
                if child.spelling not in covered:
                    missing.add(child.spelling)

    walk(unit.cursor, False)
    if missing:
        raise RuntimeError(
            "cooperative-groups names that no call shape of "
            f"{CONFIG.name} covers (add a shape or an exemption): {sorted(missing)}"
        )


def render(calls: list[Call], config: dict[str, Any]) -> str:
    """The calls file: the headers, the prelude, one marked call per line."""
    lines = [f"#include <{h}>" for h in config["headers"]]
    lines += config["prelude"].rstrip("\n").splitlines()
    for index, call in enumerate(calls):
        body = re.sub(r"\bcall_(?:\d+|cg)\(", f"call_{index}(", call.line, count=1)
        lines.append(f"{body} // call:{index}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ compiling it

_MARK = re.compile(r"// call:(\d+)\s*$")
_CLANG_LOC = re.compile(
    r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: (?P<kind>(?:fatal )?error|note|warning): (?P<msg>.*)$"
)
_NVCC_ERR = re.compile(r"^(?P<file>\S+?)\((?P<line>\d+)\): (?:catastrophic )?error: (?P<msg>.*)$")
_NVCC_AT = re.compile(r"\bat line (\d+) of (\S+)")


def marks(text: str) -> dict[int, int]:
    """Source line -> call index."""
    found = {}
    for number, line in enumerate(text.splitlines(), 1):
        mark = _MARK.search(line)
        if mark is not None:
            found[number] = int(mark.group(1))
    return found


def clang_failures(
    output: str, name: str, where: dict[int, int]
) -> tuple[dict[int, str], list[str]]:
    """call index -> its first error; and the errors that name no call line."""
    failures: dict[int, str] = {}
    stray: list[str] = []
    pending: str | None = None  # an error in a header, waiting for its instantiation note

    def settle(line: int, message: str) -> bool:
        index = where.get(line)
        if index is None:
            return False
        failures.setdefault(index, message)
        return True

    for text in output.splitlines():
        located = _CLANG_LOC.match(text)
        if located is None:
            continue
        here = located.group("file").endswith(name)
        if "error" in located.group("kind"):
            if pending is not None:
                stray.append(pending)
            pending = None
            if here and settle(int(located.group("line")), located.group("msg")):
                continue
            pending = text
        elif (
            located.group("kind") == "note"
            and pending is not None
            and here
            and settle(int(located.group("line")), pending.split("error: ", 1)[-1])
        ):
            pending = None
    if pending is not None:
        stray.append(pending)
    return failures, stray


def nvcc_failures(
    output: str, name: str, where: dict[int, int]
) -> tuple[dict[int, str], list[str]]:
    failures: dict[int, str] = {}
    stray: list[str] = []
    pending: str | None = None
    for text in output.splitlines():
        error = _NVCC_ERR.match(text.strip())
        if error is not None:
            if pending is not None:
                stray.append(pending)
            pending = None
            index = (
                where.get(int(error.group("line"))) if error.group("file").endswith(name) else None
            )
            if index is not None:
                failures.setdefault(index, error.group("msg"))
            else:
                pending = error.group("msg")
            continue
        at = _NVCC_AT.search(text)
        if at is not None and pending is not None and at.group(2).endswith(name):
            index = where.get(int(at.group(1)))
            if index is not None:
                failures.setdefault(index, pending)
                pending = None
    if pending is not None:
        stray.append(pending)
    return failures, stray


def cuda_floor(compiler: Any, source: str) -> tuple[set[int], list[str]]:
    """The calls nvcc 12.4 rejects for sm_90 (they are not CUDA's surface)."""
    with compiler.workspace() as folder:
        (folder / "calls.cu").write_text(source)
        done = compiler.run(
            [
                "-arch=sm_90",
                "-std=c++17",
                "--expt-relaxed-constexpr",
                "-rdc=true",
                "-Xcudafe",
                "--error_limit=100000",
                "-c",
                "calls.cu",
                "-o",
                "calls.o",
            ],
            folder,
            timeout=1800,
        )
    failures, stray = nvcc_failures(done.stdout + done.stderr, "calls.cu", marks(source))
    if done.returncode != 0 and not failures:
        raise RuntimeError(f"nvcc failed outside the calls:\n{(done.stdout + done.stderr)[-3000:]}")
    return set(failures), stray


def translate(
    source: str, hip_version: str, compat: bool
) -> tuple[str, dict[int, list[tuple[str, str]]], str]:
    """hipify-py's translation (its CLI) of ``source`` and the diagnostics per
    source line (code, message) that can explain a failure; and the compat
    header's text when one was written."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="device-surface-") as scratch:
        folder = Path(scratch)
        (folder / "calls.cu").write_text(source)
        argv = [sys.executable, "-m", "hipify_py", "calls.cu", "-o", "out", "--format", "json"]
        argv += ["--hip-version", hip_version, "--offload-arch", "gfx942", "-j", "0"]
        if compat:
            argv.append("--compat")
        env = dict(os.environ, PYTHONPATH=str(REPO))
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, env=env)
        if done.returncode not in (0, 1) or not (folder / "out" / "calls.cu").is_file():
            raise RuntimeError(f"hipify-py failed ({done.returncode}): {done.stderr[-2000:]}")
        report = json.loads(done.stdout)
        output = (folder / "out" / "calls.cu").read_text()
        header = folder / "out" / "hipify_py_compat.h"
        compat_text = header.read_text() if header.is_file() else ""
    codes: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for entry in report["files"]:
        for diagnostic in entry.get("diagnostics", []):
            if (
                diagnostic["severity"] in ("error", "warning")
                and diagnostic["code"] not in NO_CAUSE
            ):
                said = f"{diagnostic.get('message', '')} {diagnostic.get('hint', '')}"
                codes[diagnostic["line"]].append((diagnostic["code"], said))
    return output, codes, compat_text


LOGS: list[str] = []  # hipcc's last outputs (--logs writes them)
_NOT_FOUND = re.compile(r"^calls\.hip:(\d+):\d+: fatal error: '(.+?)' file not found")


def hip_failures(
    compiler: Any, output: str, compat_text: str, reported_includes: set[str]
) -> tuple[dict[int, str], list[str]]:
    """hipcc's errors per call.  An include hipcc cannot find that hipify-py
    reported (a header with no HIP counterpart) is left out and the file
    compiled again, so the calls after it are still checked; one it did not
    report is a silent failure of its own (in the returned strays)."""
    stray: list[str] = []
    lines = output.splitlines()
    while True:
        with compiler.workspace() as folder:
            (folder / "calls.hip").write_text("\n".join(lines) + "\n")
            if compat_text:
                (folder / "hipify_py_compat.h").write_text(compat_text)
            done = compiler.run(
                [
                    "--offload-arch=gfx942",
                    "-std=c++17",
                    "-fsyntax-only",
                    "-ferror-limit=0",
                    "-x",
                    "hip",
                    "calls.hip",
                ],
                folder,
                timeout=1800,
            )
        text = done.stdout + done.stderr
        missing = next(filter(None, map(_NOT_FOUND.match, text.splitlines())), None)
        if missing is None:
            break
        if missing.group(2) not in reported_includes:
            stray.append(f"silent: <{missing.group(2)}> not found, and hipify-py said nothing")
        lines[int(missing.group(1)) - 1] = f"// left out: {lines[int(missing.group(1)) - 1]}"
    LOGS.append(text)
    failures, more = clang_failures(text, "calls.hip", marks("\n".join(lines)))
    if done.returncode != 0 and not failures:
        raise RuntimeError(f"hipcc failed outside the calls:\n{text[-3000:]}")
    return failures, stray + more


_INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"](.+?)[>\"]")


def reported_includes(source: str, codes: dict[int, list[tuple[str, str]]]) -> set[str]:
    """The headers whose #include line of ``source`` hipify-py reported, as
    spelled after translation is not known here: the CUDA spelling and the
    HIP spellings that its message names."""
    found: set[str] = set()
    for number, line in enumerate(source.splitlines(), 1):
        include = _INCLUDE.match(line)
        if include is not None and codes.get(number):
            found.add(include.group(1))
            for _, message in codes[number]:
                found.update(re.findall(r"<([^<>\s]+)>", message))
    return found


def check_release(
    calls: list[Call], source: str, release: str, hip_version: str | None
) -> dict[str, Any]:
    """Translate and compile the calls for one release, both modes; record
    each call's outcome under "release/mode"."""
    from hip_smoke.toolchain import find_amd

    compiler = find_amd(release=release)
    version = hip_version or compiler.hip_version
    where = marks(source)
    by_index = {index: line for line, index in where.items()}
    strays: dict[str, list[str]] = {}
    for compat in (False, True):
        mode = "compat" if compat else "hip"
        output, codes, compat_text = translate(source, version, compat)
        failures, stray = hip_failures(
            compiler, output, compat_text, reported_includes(source, codes)
        )
        strays[mode] = stray
        for index, call in enumerate(calls):
            said = codes.get(by_index[index], [])
            call.results[f"{release}/{mode}"] = {
                "compiles": index not in failures,
                "error": failures.get(index, ""),
                "reported": sorted({code for code, _ in said}),
                "says_compat": any("--compat" in message for _, message in said),
            }
    return {"compiler": compiler.description, "hip_version": version, "stray": strays}


def verdict(call: Call, release: str) -> str:
    hip = call.results[f"{release}/hip"]
    compat = call.results[f"{release}/compat"]
    if hip["compiles"]:
        return "compile"
    if not hip["reported"]:
        return "silent"
    if compat["compiles"]:
        return "compat" if hip["says_compat"] else "reported"
    return "reported" if compat["reported"] else "silent"


VERDICTS = ("compile", "compat", "reported", "silent")


def tally(calls: list[Call], releases: list[str]) -> dict[str, dict[str, Counter[str]]]:
    """family -> release -> verdict counts (calls CUDA accepts only)."""
    table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for call in calls:
        if not call.cuda_ok:
            continue
        for release in releases:
            table[call.family][release][verdict(call, release)] += 1
    return table


def markdown_table(calls: list[Call], releases: list[str]) -> str:
    counts = tally(calls, releases)
    head = (
        "| header family | overloads | "
        + " | ".join(
            f"{RELEASE_NAMES.get(r, r)}: compile / compat / reported / silent" for r in releases
        )
        + " |"
    )
    lines = [head, "| --- | ---: |" + " ---: |" * len(releases)]
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    order = [entry["family"] for entry in load_config()["families"]]
    for family in sorted(counts, key=lambda f: order.index(f) if f in order else len(order)):
        per = counts[family]
        total = sum(per[releases[0]].values())
        cells = []
        for release in releases:
            c = per[release]
            totals[release].update(c)
            cell = " / ".join(str(c[v]) for v in VERDICTS[:3])
            cell += f" / **{c['silent']}**" if c["silent"] else " / 0"
            cells.append(cell)
        lines.append(f"| {family} | {total} | " + " | ".join(cells) + " |")
    overall = sum(totals[releases[0]].values())
    lines.append(
        f"| **all** | **{overall}** | "
        + " | ".join(" / ".join(str(totals[r][v]) for v in VERDICTS) for r in releases)
        + " |"
    )
    return "\n".join(lines) + "\n"


def build_surface(nvidia_root: Path, resource: Path | None) -> tuple[list[Call], str, list[str]]:
    """The calls, the CUDA calls file, and nvcc's errors that name no call."""
    from hip_smoke.toolchain import Compiler

    config = load_config()
    nvcc = Compiler("cuda", ["nvcc", "-ccbin", "g++-13"], root=nvidia_root)
    preprocessed, include = preprocess_device(nvcc, config["headers"])
    calls = enumerate_surface(preprocessed, include, resource)
    source = render(calls, config)
    rejected, stray = cuda_floor(nvcc, source)
    for index in rejected:
        calls[index].cuda_ok = False
    return calls, source, stray


# the codes of hipify_py/rules/device_gaps.py, which reads the gaps file
GAP_CODES = frozenset({"HPY120", "HPY121"})
GAPS_HEADER = """\
# Generated by tools/device_surface.py (do not edit by hand):
#   python tools/device_surface.py --table --write-gaps hipify_py/data/device_gaps.yaml
# CUDA 12.4 device overloads that, translated, do not compile for gfx942 with
# a ROCm release and that no other hipify-py diagnostic reports at the call:
# per callee (a function, a constructor, "cg::NAME", "CLASS.MEMBER" of a
# cooperative group), its number of CUDA overloads and each failing one's
# parameter types (CUDA's spelling), explicit template arguments, group, and
# the releases where it fails without --compat (hip) and with it (compat).
# rules/device_gaps.py reports a call that may reach one (HPY120).
"""


def gap_modes(call: Call, release: str) -> list[str]:
    """The modes in which ``call`` fails for ``release`` with no diagnostic
    but the gaps rule's own."""
    found = []
    for mode in ("hip", "compat"):
        result = call.results.get(f"{release}/{mode}")
        if result and not result["compiles"] and not set(result["reported"]) - GAP_CODES:
            found.append(mode)
    return found


def gaps_yaml(calls: list[Call], releases: list[str]) -> str:
    """The gaps file's text (releases oldest first)."""
    counts = Counter(c.key for c in calls if c.cuda_ok and c.key)
    entries: dict[str, list[str]] = defaultdict(list)
    for call in calls:
        if not call.cuda_ok or not call.key:
            continue
        failing: dict[str, list[str]] = {"hip": [], "compat": []}
        for release in sorted(releases, key=lambda r: tuple(map(int, r.split(".")))):
            for mode in gap_modes(call, release):
                failing[mode].append(release)
        if not failing["hip"] and not failing["compat"]:
            continue
        fields = [f"params: {json.dumps(call.params)}"]
        if call.targs:
            fields.append(f"targs: {json.dumps(call.targs)}")
        if call.group:
            fields.append(f"group: {call.group}")
        fields += [f"hip: {json.dumps(failing['hip'])}", f"compat: {json.dumps(failing['compat'])}"]
        entries[call.key].append("    - {" + ", ".join(fields) + "}")
    ordered = sorted(releases, key=lambda r: tuple(map(int, r.split("."))))
    lines = [GAPS_HEADER.rstrip("\n"), "schema: 1", f"releases: {json.dumps(ordered)}", "gaps:"]
    for key in sorted(entries):
        lines.append(f"  {json.dumps(key)}:")
        lines.append(f"    overloads: {counts[key]}")
        lines.append("    failing:")
        lines.extend(entry.replace("    - ", "      - ", 1) for entry in entries[key])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rocm", action="append", help="a ROCm release (5.7, 6.4, 7.2); repeatable"
    )
    parser.add_argument(
        "--table", action="store_true", help="every release with a root; print the README's table"
    )
    parser.add_argument("--hip-version", help="translate for this HIP (default: the release's)")
    parser.add_argument("--family", help="only report this family's calls (a substring)")
    parser.add_argument("--silent", action="store_true", help="list every silent call")
    parser.add_argument("--json", type=Path, help="write every call's outcome here")
    parser.add_argument("--source", type=Path, help="also write the CUDA calls file here")
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    parser.add_argument(
        "--write-gaps",
        type=Path,
        help="write the failing overloads no other diagnostic reports (the data of "
        "rules/device_gaps.py: hipify_py/data/device_gaps.yaml)",
    )
    args = parser.parse_args(argv)
    from hip_smoke.toolchain import RELEASES, ToolchainError, complete_root

    nvidia = complete_root("nvidia")
    if nvidia is None:
        print(
            "device_surface: no nvidia root (hip_smoke/toolchain/provision.sh nvidia)",
            file=sys.stderr,
        )
        return 2
    releases = args.rocm or [r for r in reversed(RELEASES) if complete_root(f"amd-{r}") is not None]
    try:
        amd_root = complete_root(f"amd-{releases[0]}") if releases else None
        calls, source, stray = build_surface(nvidia, _resource_dir(amd_root))
        if args.source:
            args.source.write_text(source)
        reports = {r: check_release(calls, source, r, args.hip_version) for r in releases}
    except (ToolchainError, RuntimeError, ImportError) as exc:
        print(f"device_surface: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    silent = 0
    for call in calls:
        if not call.cuda_ok or (args.family and args.family not in call.family):
            continue
        for release in releases:
            if verdict(call, release) == "silent":
                silent += 1
                if args.silent:
                    result = call.results[f"{release}/hip"]
                    if result["compiles"] or result["reported"]:
                        result = call.results[f"{release}/compat"]
                    print(
                        f"{release} {call.family}: {call.signature}: {result['error']}",
                        file=sys.stderr,
                    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {"reports": reports, "nvcc_stray": stray, "calls": [asdict(c) for c in calls]},
                indent=1,
            )
        )
    if args.write_gaps:
        args.write_gaps.write_text(gaps_yaml(calls, releases))
    print(f"{sum(c.cuda_ok for c in calls)} calls CUDA 12.4 accepts ({len(calls)} generated)")
    table = markdown_table(calls, releases)
    if args.markdown:
        args.markdown.write_text(table)
    print(table, end="")
    return 1 if silent else 0


if __name__ == "__main__":
    raise SystemExit(main())
