#!/usr/bin/env python3
"""Call every CUDA function the tables translate with CUDA's own argument
types, translate the calls with hipify-py, and compile them with a real hipcc.

For each library (LIBRARIES) and mode (HIP names, or ``--roc``: rocBLAS,
rocSPARSE, rocSOLVER, rocRAND, MIOpen) one file calls every translated
function, one call per line; hipify-py translates it (its CLI, for the
release's HIP) and hipcc compiles it for gfx942 (``-fsyntax-only``).  Besides
plain variables of the parameter types, every pointer parameter (input and
output) to a complete type is also passed in the shapes real code writes
(SHAPES: ``&local`` of the pointee type, an array of it, the address of a
const local, a pointer to the non-const pointee), one more call per function
and shape (``--shape``).  Each call either compiles as translated (perhaps
rewritten: casts, added arguments), or fails with a hipify-py diagnostic on
its line (reported; HPY109, said once per function and file, counts for the
function's calls in the other shapes), or fails without one: a silent miss,
which the row needs fixed (a cast, another name, a ``caution``, the
"unsupported" status).  The compiler's notes are
turned into suggested ``arg_casts`` where they say which argument and type.

    python tools/signature_check.py --rocm 7.2                 # every library, both modes
    python tools/signature_check.py --rocm 5.7 --library blas,dnn --mode roc
    python tools/signature_check.py --table                    # the README's table (Markdown)
    python tools/signature_check.py ... --json report.json

CUDA signatures come from CUDA 12.4's headers (the root made by
``hip_smoke/toolchain/provision.sh nvidia``, or ``--cuda-root``/``--cuda-include``)
and, for cuDNN and NCCL, the pinned NVIDIA wheels (hip_smoke/cuda_wheels.py),
read through libclang (the ``libclang`` wheel, with the resource headers of a
clang found under the AMD root); hipcc is the root of that release
(``--rocm X.Y``).  A library whose CUDA headers, or whose translated headers in
that root, are absent is skipped and says which header.  Exit code: 0 when no
call fails silently, 1 otherwise, 2 when a tool is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


@dataclass(frozen=True)
class Library:
    """One CUDA library as the check calls it."""

    key: str
    cuda: str  # its name in the table
    headers: tuple[str, ...]  # the CUDA headers that declare its functions
    hip: str  # what hipify-py translates it to
    roc: str = ""  # ... and with --roc ("": --roc keeps the HIP library)
    tables: frozenset[str] | None = None  # the table libraries of its rows (None: any)
    prefix: str = ""  # only functions named so
    exclude: str = ""  # ... and not so
    wheel: str = ""  # its CUDA headers come from this pinned wheel (hip_smoke/cuda_wheels.py)


def _lib(key: str, cuda: str, headers: tuple[str, ...], hip: str, **more: Any) -> Library:
    tables = more.pop("tables", frozenset({key}))
    return Library(key, cuda, headers, hip, tables=tables, **more)


LIBRARIES: dict[str, Library] = {
    lib.key: lib
    for lib in (
        _lib("runtime", "CUDA runtime", ("cuda_runtime.h",), "HIP"),
        _lib("driver", "CUDA driver", ("cuda.h",), "HIP"),
        _lib(
            "blas",
            "cuBLAS",
            ("cuda_fp16.h", "cublas_v2.h"),
            "hipBLAS",
            roc="rocBLAS",
            exclude="cublasLt",
        ),
        _lib(
            "blaslt",
            "cuBLASLt",
            ("cublasLt.h",),
            "hipBLASLt",
            tables=frozenset({"blas"}),
            prefix="cublasLt",
        ),
        _lib("fft", "cuFFT", ("cufft.h",), "hipFFT"),
        _lib("rand", "cuRAND", ("curand.h",), "hipRAND", roc="rocRAND"),
        _lib("sparse", "cuSPARSE", ("cusparse.h",), "hipSPARSE", roc="rocSPARSE"),
        _lib("solver", "cuSOLVER", ("cusolverDn.h",), "hipSOLVER", roc="rocSOLVER"),
        _lib("rtc", "NVRTC", ("nvrtc.h",), "hipRTC"),
        _lib("dnn", "cuDNN", ("cudnn.h",), "hipDNN", roc="MIOpen", wheel="cudnn"),
        _lib("nccl", "NCCL", ("nccl.h",), "RCCL", wheel="nccl"),
        # the NVML -> AMD SMI rows may live under any table library
        _lib("nvml", "NVML", ("nvml.h",), "AMD SMI", tables=None, prefix="nvml"),
    )
}
# kept for callers of the first version (runtime ... rtc)
HEADERS = {key: list(lib.headers) for key, lib in LIBRARIES.items()}
MODES = ("hip", "roc")

# the Debian package that ships each header folder a translation includes, so
# a test can tell "this root was not meant to have it" from "provisioning broke"
PACKAGES = {
    "hip": "libamdhip64-dev",
    "hipblas": "libhipblas-dev",
    "hipblaslt": "libhipblaslt-dev",
    "hipfft": "libhipfft-dev",
    "hiprand": "libhiprand-dev",
    "hipsparse": "libhipsparse-dev",
    "hipsolver": "libhipsolver-dev",
    "rccl": "librccl-dev",
    "rocblas": "librocblas-dev",
    "rocsparse": "librocsparse-dev",
    "rocsolver": "librocsolver-dev",
    "rocrand": "librocrand-dev",
    "miopen": "libmiopen-dev",
    "amd_smi": "libamd-smi-dev",
    "rocm_smi": "librocm-smi-dev",
}

_ERROR = re.compile(r"^calls\.hip:(\d+):\d+: (?:fatal )?error: (.*)$")
_MISSING = re.compile(r"^calls\.hip:\d+:\d+: fatal error: '(.+?)' file not found")
_NOTE_CONST = re.compile(r"(\d+)(?:st|nd|rd|th) argument \('(.+)'\) would lose const qualifier")
_NOTE_CONVERT = re.compile(
    r"no known conversion from '(.+?)' to '(.+?)' for (\d+)(?:st|nd|rd|th) argument"
)
_MARK = re.compile(r"// call:(\d+)\s*$")
_CALL = re.compile(r"\(void\)(.*)\); \} // call:\d+\s*$")
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Call:
    function: str
    shape: str = "plain"  # how its arguments are written (SHAPES)
    compiles: bool = True
    rewritten: bool = False  # hipify-py changed its arguments (casts, added ones)
    reported: list[str] = field(default_factory=list)  # the hipify-py codes on its line
    # reported at another call of the function (a code said once per name)
    reported_elsewhere: bool = False
    error: str = ""
    notes: list[str] = field(default_factory=list)
    suggested_casts: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Param:
    """One parameter: its type (declarable, see _declarable), and for a
    pointer (or array) to a complete object type, what it points to, without
    its const (``const cuComplex *`` -> ``cuComplex``, ``void **`` -> ``void *``;
    "" for ``void *``, an incomplete struct, anything else), and whether that
    is const."""

    type: str
    pointee: str = ""
    const: bool = False


def cuda_signatures(
    headers: tuple[str, ...] | list[str],
    include: list[Path],
    resource: Path | None,
    defines: tuple[str, ...] = (),
) -> dict[str, list[str]]:
    """Function name -> parameter types, as CUDA's headers declare them (or
    other headers: the ROC libraries', with ``defines``)."""
    found = cuda_parameters(headers, include, resource, defines)
    return {name: [p.type for p in params] for name, params in found.items()}


def cuda_parameters(
    headers: tuple[str, ...] | list[str],
    include: list[Path],
    resource: Path | None,
    defines: tuple[str, ...] = (),
) -> dict[str, list[Param]]:
    """Function name -> its parameters (Param), as the headers declare them."""
    import clang.cindex as cindex

    source = "".join(f"#include <{h}>\n" for h in headers)
    args = ["-x", "c++", "-std=c++17", "-nostdinc", *(f"-D{d}" for d in defines)]
    if resource is not None:
        args += ["-isystem", str(resource)]
    for folder in include:
        args += ["-isystem", str(folder)]
    unit = cindex.Index.create().parse(
        "calls.cpp", args=args, unsaved_files=[("calls.cpp", source)]
    )
    found: dict[str, list[Param]] = {}
    for cursor in unit.cursor.walk_preorder():
        try:  # the libclang wheel may not know every cursor kind of a newer clang's headers
            function = cursor.kind == cindex.CursorKind.FUNCTION_DECL
        except ValueError:
            continue
        if function and cursor.location.file:
            params = [_param(p.type, cindex) for p in cursor.get_arguments()]
            if len(params) >= len(found.get(cursor.spelling, [])):
                found[cursor.spelling] = params
    return found


def _param(kind: Any, cindex: Any) -> Param:
    """A Param of the libclang type ``kind``."""
    spelled = _declarable(kind.spelling)
    shape = kind.kind
    if shape == cindex.TypeKind.POINTER:
        target = kind.get_pointee()
    elif shape in (cindex.TypeKind.INCOMPLETEARRAY, cindex.TypeKind.CONSTANTARRAY):
        target = kind.get_array_element_type()
    else:
        return Param(spelled)
    canonical = target.get_canonical().kind
    if (
        canonical in (cindex.TypeKind.VOID, cindex.TypeKind.FUNCTIONPROTO)
        or canonical == cindex.TypeKind.FUNCTIONNOPROTO
        or target.get_size() <= 0  # incomplete: an opaque struct
    ):
        return Param(spelled)
    pointee = target.spelling
    const = target.is_const_qualified()
    if const:
        # the pointee's own const: last for a pointer (`const void *const`
        # -> `const void *`), first for anything else (`const cuComplex`)
        if canonical == cindex.TypeKind.POINTER or pointee.endswith("const"):
            pointee = pointee.removesuffix("const").rstrip()
        else:
            pointee = _unconst(pointee)
    if "(*)" in pointee or "[" in pointee:
        return Param(spelled)
    return Param(spelled, pointee, const)


def _declarable(spelled: str) -> str:
    """A parameter's type without its top-level const (``const T``, ``T *const``),
    so a variable of it can be declared without an initialiser."""
    if spelled.endswith("const") and spelled[:-5].rstrip().endswith(("*", "&")):
        return spelled[:-5].rstrip()
    if spelled.startswith("const ") and "*" not in spelled and "&" not in spelled:
        return spelled[6:]
    return spelled


# How a call writes its pointer arguments, besides plain variables of the
# parameter types ("plain"): the address of a local of the pointee type
# (``cuComplex c; f(..., &c)``), an array of it (``cuComplex a[4]; f(..., a)``),
# the address of a const local (for const pointees), and a pointer without the
# pointee's const (``cuComplex* p`` for a ``const cuComplex*``).  Each shape
# is one more call of each function with a pointer to a complete type, the
# other arguments plain; both for inputs and outputs.
SHAPES = ("plain", "address", "array", "const-address", "mutable")


def shaped_arguments(params: list[Param], shape: str) -> tuple[str, str] | None:
    """(declarations, arguments) of one call in ``shape``; None where the shape
    writes every argument as "plain" does (nothing to add)."""
    decls: list[str] = []
    args: list[str] = []
    changed = False
    for i, param in enumerate(params):
        plain = param.type.replace("[]", "*")
        local = f"a{i}"
        if not param.pointee or shape == "plain":
            decls.append(f"{plain} {local};")
            args.append(local)
        elif shape == "address":
            decls.append(f"{param.pointee} {local}{{}};")
            args.append(f"&{local}")
            changed = True
        elif shape == "array":
            decls.append(f"{param.pointee} {local}[4]{{}};")
            args.append(local)
            changed = True
        elif shape == "const-address" and param.const:
            decls.append(f"{param.pointee} const {local}{{}};")
            args.append(f"&{local}")
            changed = True
        elif shape == "mutable" and param.const:
            decls.append(f"{param.pointee}* {local}{{}};")
            args.append(local)
            changed = True
        else:
            decls.append(f"{plain} {local};")
            args.append(local)
    if shape != "plain" and not changed:
        return None
    return " ".join(decls), ", ".join(args)


def shaped_calls(
    parameters: dict[str, list[Param]], names: list[str], shapes: tuple[str, ...] = SHAPES
) -> list[tuple[str, str, str, str]]:
    """(function, shape, declarations, arguments) of each call to make: every
    function plainly, and in each other shape that changes an argument."""
    calls = []
    for shape in shapes:
        for name in names:
            made = shaped_arguments(parameters[name], shape)
            if made is not None:
                calls.append((name, shape, *made))
    return calls


def calls_source(
    headers: tuple[str, ...] | list[str],
    signatures: dict[str, list[str]],
    names: list[str],
    by_name: bool = False,
) -> str:
    """One function per call, each on its own line and marked with its index
    (``by_name``: with the function's name)."""
    params = {name: [Param(t) for t in signatures[name]] for name in names}
    calls = shaped_calls(params, names, ("plain",))
    marks = names if by_name else None
    return shaped_source(headers, calls, marks)


def shaped_source(
    headers: tuple[str, ...] | list[str],
    calls: list[tuple[str, str, str, str]],
    marks: list[str] | None = None,
) -> str:
    """The calls of shaped_calls, each on its own line, marked with its index
    (or ``marks``' entry)."""
    lines = [f"#include <{h}>" for h in headers]
    for index, (name, _shape, decls, args) in enumerate(calls):
        mark = marks[index] if marks is not None else index
        lines.append(f"void call{index}() {{ {decls} (void){name}({args}); }} // call:{mark}")
    return "\n".join(lines) + "\n"


def callable_names(
    signatures: dict[str, list[str]], library: Library | set[str], roc: bool = False
) -> tuple[list[str], list[str]]:
    """The functions of ``library`` the tables translate (with --roc: to a ROC
    name) that can be called with plain variables; and, with --roc, those left
    out because a type they take has no ROC name (hipify-py keeps the HIP
    library for a file that uses it, HPY108: the HIP check covers them)."""
    from hipify_py.tables.cache import load_table

    if not isinstance(library, Library):  # the first version's set of table libraries
        library = Library("", "", (), "", tables=frozenset(library))
    names = load_table().names
    chosen: list[str] = []
    fallback: list[str] = []
    for name, params in sorted(signatures.items()):
        row = names.get(name)
        if row is None or not (row.roc if roc else row.hip):
            continue
        if library.tables is not None and row.library not in library.tables:
            continue
        if not name.startswith(library.prefix) or (
            library.exclude and name.startswith(library.exclude)
        ):
            continue
        if any("(*)" in t or t.endswith("&") or re.search(r"\[\d+\]", t) for t in params):
            continue  # function pointers, references, sized arrays: no plain declaration
        if roc and any(
            (other := names.get(word)) is not None
            and other.library == row.library
            and other.hip
            and not other.roc
            for t in params
            for word in _WORD.findall(t)
        ):
            fallback.append(name)
            continue
        chosen.append(name)
    return chosen, fallback


# A call counts as reported when a diagnostic that can explain a failure is on
# its line: an error or warning, but not these (a removed CUDA API is still
# translated; the notes, deprecations included, say nothing about the call).
NO_CAUSE = frozenset({"HPY100", "HPY105"})
# the codes hipify-py reports once per function and file (at its first call)
ONCE_PER_NAME = frozenset({"HPY109"})


def translate(
    source: str, hip_version: str, roc: bool
) -> tuple[str, dict[int, list[str]], set[str]]:
    """hipify-py's translation of ``source`` through its CLI, and the codes it
    reported per line of ``source`` that can explain a failing call; and every
    code it reported."""
    with tempfile.TemporaryDirectory(prefix="signature-check-") as scratch:
        folder = Path(scratch)
        (folder / "calls.cu").write_text(source)
        argv = [
            sys.executable,
            "-m",
            "hipify_py",
            "calls.cu",
            "-o",
            "out",
            "--format",
            "json",
            "--hip-version",
            hip_version,
            "--offload-arch",
            "gfx942",
            "-j",
            "0",
        ]
        if roc:
            argv.append("--roc")
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
        )
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, env=env)
        if done.returncode not in (0, 1) or not (folder / "out" / "calls.cu").is_file():
            raise RuntimeError(f"hipify-py failed ({done.returncode}): {done.stderr[-2000:]}")
        report = json.loads(done.stdout)
        output = (folder / "out" / "calls.cu").read_text()
    codes: dict[int, list[str]] = {}
    every: set[str] = set()
    for entry in report["files"]:
        for diagnostic in entry.get("diagnostics", []):
            every.add(diagnostic["code"])
            if (
                diagnostic["severity"] in ("error", "warning")
                and diagnostic["code"] not in NO_CAUSE
            ):
                codes.setdefault(diagnostic["line"], []).append(diagnostic["code"])
    return output, codes, every


def assess(
    names: list[str],
    arities: list[int] | list[str],
    source: str,
    output: str,
    codes: dict[int, list[str]],
    compiler_output: str,
    shapes: list[str] | None = None,
) -> tuple[list[Call], str]:
    """One Call per name (in ``shapes``' shape); and the header the compiler
    did not find ("" if none).  ``arities``: each call's argument count (its
    arguments are a0, a1, ...), or the arguments as written."""
    calls = [Call(name, shapes[i] if shapes else "plain") for i, name in enumerate(names)]
    for number, line in enumerate(source.splitlines(), 1):
        mark = _MARK.search(line)
        if mark is not None:
            calls[int(mark.group(1))].reported = sorted(set(codes.get(number, [])))
    out_lines = output.splitlines()
    where: dict[int, int] = {}  # output line -> call index
    for number, line in enumerate(out_lines, 1):
        mark = _MARK.search(line)
        if mark is None:
            continue
        index = where[number] = int(mark.group(1))
        call = _CALL.search(line)
        written = arities[index]
        expected = (
            written if isinstance(written, str) else ", ".join(f"a{i}" for i in range(written))
        )
        args = call.group(1).split("(", 1)[1] if call and "(" in call.group(1) else None
        calls[index].rewritten = args != expected
    current: Call | None = None
    seen: set[int] = set()
    for text in compiler_output.splitlines():
        missing = _MISSING.match(text)
        if missing is not None:
            return calls, missing.group(1)
        error = _ERROR.match(text)
        if error is not None:
            number = int(error.group(1))
            at = where.get(number)
            if at is None:
                raise RuntimeError(f"an error outside the calls: {text}")
            if number in seen:
                current = None
                continue
            seen.add(number)
            current = calls[at]
            current.compiles = False
            current.error = error.group(2)
            continue
        if current is not None:
            read_note(current, text)
    # HPY109 is said once per function and file, at its first call: it
    # explains the function's other calls (in other shapes) too
    cautioned = {c.function for c in calls if ONCE_PER_NAME & set(c.reported)}
    for c in calls:
        if not c.compiles and not c.reported and c.function in cautioned:
            c.reported = sorted(ONCE_PER_NAME)
            c.reported_elsewhere = True
    return calls, ""


def read_note(call: Any, text: str) -> None:
    """Add a line of the compiler's output to the failing ``call`` (a Call, or
    gen_roc_casts.py's Failure) where it is a "candidate function not viable"
    note: the note, and the cast it suggests for the argument it names."""
    if "note: candidate function not viable" not in text:
        return
    call.notes.append(text.split("note: ", 1)[1])
    lost = _NOTE_CONST.search(text)
    if lost is not None:
        call.suggested_casts[int(lost.group(1)) - 1] = _unconst(lost.group(2))
    convert = _NOTE_CONVERT.search(text)
    if convert is not None:
        call.suggested_casts[int(convert.group(3)) - 1] = convert.group(2)


def syntax_check(compiler: Any, output: str) -> Any:
    """hipcc's ``-fsyntax-only`` run (for gfx942, every error) of a translated
    calls file, as calls.hip in a scratch folder of ``compiler``'s."""
    with compiler.workspace() as folder:
        (folder / "calls.hip").write_text(output)
        return compiler.run(
            ["--offload-arch=gfx942", "-fsyntax-only", "-ferror-limit=0", "-x", "hip", "calls.hip"],
            folder,
        )


def cast_hint(failure: dict[str, Any]) -> str:
    """What a report line says after a silent failure: the casts hipcc's notes
    suggest, if any."""
    casts = failure["suggested_casts"]
    return f"  suggested arg_casts: {casts}" if casts else ""


def _unconst(spelled: str) -> str:
    """'const float *' -> 'float *'; 'const float *const *' -> 'float *const *'."""
    return re.sub(r"^const\s+", "", spelled.strip())


def check_library(
    library: Library,
    roc: bool,
    compiler: Any,
    hip_version: str,
    cuda_include: list[Path],
    resource: Path | None,
    shapes: tuple[str, ...] = SHAPES,
) -> dict[str, Any]:
    """The result of one library in one mode: counts, and the calls that fail
    (each function called in each of ``shapes`` that changes an argument)."""
    target = library.roc or library.hip if roc else library.hip
    result: dict[str, Any] = {"cuda": library.cuda, "target": target, "skipped": ""}
    missing = [h for h in library.headers if not any((d / h).is_file() for d in cuda_include)]
    if missing:
        result["skipped"] = f"no CUDA header {missing[0]}"
        return result
    parameters = cuda_parameters(library.headers, cuda_include, resource)
    signatures = {name: [p.type for p in params] for name, params in parameters.items()}
    names, fallback = callable_names(signatures, library, roc and bool(library.roc))
    made = shaped_calls(parameters, names, shapes)
    result.update(
        functions=len(names),
        calls=len(made),
        fallback=fallback,
        shapes={shape: sum(c[1] == shape for c in made) for shape in shapes},
    )
    if not names:
        result.update(compile=0, rewritten=0, reported=0, silent=[], failing=[])
        return result
    source = shaped_source(library.headers, made)
    output, codes, every = translate(source, hip_version, roc)
    if roc and library.roc and "HPY108" in every:
        raise RuntimeError(f"{library.key} --roc: hipify-py kept the HIP library (HPY108)")
    done = syntax_check(compiler, output)
    calls, absent = assess(
        [c[0] for c in made],
        [c[3] for c in made],
        source,
        output,
        codes,
        done.stderr + done.stdout,
        [c[1] for c in made],
    )
    if absent:
        result["skipped"] = f"no {absent}"
        result["absent"] = absent
        return result
    failed = [c for c in calls if not c.compiles]
    if done.returncode != 0 and not failed:
        raise RuntimeError(f"{library.key}: hipcc failed outside the calls:\n{done.stderr[-2000:]}")
    result.update(
        compile=sum(c.compiles for c in calls),
        rewritten=sum(c.compiles and c.rewritten for c in calls),
        reported=sum(bool(c.reported) for c in failed),
        silent=[asdict(c) for c in failed if not c.reported],
        failing=[asdict(c) for c in failed if c.reported],
    )
    return result


def cuda_includes(
    cuda_include: list[Path], libraries: list[str], fetch: bool = True
) -> tuple[list[Path], dict[str, str]]:
    """``cuda_include`` plus the include folders of the pinned wheels the
    libraries need; and, per wheel that could not be had, why."""
    from hip_smoke.cuda_wheels import include_dir
    from hip_smoke.toolchain import ToolchainError

    extra: list[Path] = []
    problems: dict[str, str] = {}
    for key in libraries:
        wheel = LIBRARIES[key].wheel
        if wheel:
            try:
                extra.append(include_dir(wheel, fetch=fetch))
            except ToolchainError as exc:
                problems[key] = str(exc)
    return extra + cuda_include, problems


def run(
    libraries: list[str],
    cuda_include: list[Path],
    hip_version: str | None = None,
    release: str | None = None,
    roc: bool = False,
    fetch: bool = True,
    shapes: tuple[str, ...] = SHAPES,
) -> dict[str, Any]:
    """Check ``libraries`` (with ``roc``: translated with --roc; those without
    a ROC library keep their HIP names) with the hipcc of ``release`` (any
    when None), translating for ``hip_version`` (default: that hipcc's HIP)."""
    from hip_smoke.toolchain import find_amd

    compiler = find_amd(release=release)
    hip_version = hip_version or compiler.hip_version
    resource = _resource_dir(compiler.root)
    chosen = list(libraries)
    include, problems = cuda_includes(cuda_include, chosen, fetch)
    report: dict[str, Any] = {
        "compiler": compiler.description,
        "hip_version": hip_version,
        "mode": "roc" if roc else "hip",
        "shapes": list(shapes),
        "libraries": {},
    }
    for key in chosen:
        library = LIBRARIES[key]
        if key in problems:
            report["libraries"][key] = {
                "cuda": library.cuda,
                "target": library.roc or library.hip if roc else library.hip,
                "skipped": f"no CUDA headers ({problems[key]})",
            }
            continue
        report["libraries"][key] = check_library(
            library, roc, compiler, hip_version, include, resource, shapes
        )
    return report


def root_includes(root: Path) -> list[Path]:
    """The system include folders of a Debian root, in the compiler's order."""
    inc = root / "usr" / "include"
    cxx = sorted(inc.glob("c++/*"), reverse=True)[:1]
    import sysconfig

    multiarch = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
    arch = [inc / multiarch] if (inc / multiarch).is_dir() else []
    arch_cxx = [a / "c++" / c.name for a in arch for c in cxx if (a / "c++" / c.name).is_dir()]
    return [*cxx, *arch_cxx, *arch, inc]


def _resource_dir(root: Path | None) -> Path | None:
    """clang's own headers (stddef.h, ...) for libclang, from the AMD root."""
    base = (root or Path("/")) / "usr" / "lib"
    for candidate in sorted(base.glob("llvm-*/lib/clang/*/include"), reverse=True):
        if (candidate / "stddef.h").is_file():
            return candidate
    return None


def unprovisioned(libraries: dict[str, dict[str, Any]], provisioned: set[str]) -> list[str]:
    """The libraries skipped although they should not be: their CUDA headers
    could not be had, or the root lacks a header of a package in
    ``provisioned`` (what provision.sh installs there)."""
    found = []
    for key, result in libraries.items():
        if not result.get("skipped"):
            continue
        absent = result.get("absent", "")
        package = PACKAGES.get(absent.split("/")[0].removesuffix(".h"))
        if not absent or package in provisioned:
            found.append(f"{key}: {result['skipped']}" + (f" ({package})" if package else ""))
    return found


# the full release each root of provision.sh holds, as the README names it
RELEASE_NAMES = {"7.2": "7.2.4", "6.4": "6.4.3", "5.7": "5.7.1"}


def _row(
    library: Library, mode: str, results: list[dict[str, Any] | None]
) -> tuple[str, str, list[str]]:
    """The functions and calls columns and the per-release cells of one library
    in one mode."""
    functions = sorted(
        {r.get("functions", r["calls"]) for r in results if r and r.get("calls") is not None}
    )
    counts = sorted({r["calls"] for r in results if r and r.get("calls") is not None})
    cells = []
    for result in results:
        if result is None:
            cells.append("")
        elif result.get("skipped"):
            cells.append(f"skipped: {result['skipped']}")
        elif not result.get("calls"):
            cells.append("none translated")
        else:
            cell = f"{result['compile']} / {result['rewritten']} / {result['reported']}"
            if result["silent"]:
                cell += f" / **{len(result['silent'])} silent**"
            cells.append(cell)
    return "/".join(map(str, functions)) or "-", "/".join(map(str, counts)) or "-", cells


def markdown_table(reports: dict[str, dict[str, dict[str, Any]]]) -> str:
    """reports[release][mode] -> the README's table: one row per library and
    mode, one column per release.  A library --roc leaves on its HIP names
    gets one row for both modes where their results agree."""
    releases = list(reports)
    head = (
        "| CUDA library | translated to | functions | calls | "
        + " | ".join(RELEASE_NAMES.get(r, r) for r in releases)
        + " |"
    )
    lines = [head, "| --- | --- | ---: | ---: |" + " ---: |" * len(releases)]
    silent = dict.fromkeys(releases, 0)
    rows: dict[tuple[str, str], tuple[str, str, list[str]]] = {}
    for mode in MODES:
        for key, library in LIBRARIES.items():
            results = [reports[r].get(mode, {}).get("libraries", {}).get(key) for r in releases]
            if all(result is None for result in results):
                continue
            for release, result in zip(releases, results, strict=True):
                silent[release] += len((result or {}).get("silent") or [])
            rows[key, mode] = _row(library, mode, results)
    for mode in MODES:
        for key, library in LIBRARIES.items():
            if (key, mode) not in rows:
                continue
            functions, calls, cells = rows[key, mode]
            same = not library.roc and rows.get((key, "roc")) == rows.get((key, "hip"))
            if mode == "roc" and same:
                continue  # shown once, in the HIP row
            target = library.roc or library.hip if mode == "roc" else library.hip
            if mode == "roc":
                target += " (`--roc`)"
            elif same:
                target += " (also `--roc`)"
            lines.append(
                f"| {library.cuda} | {target} | {functions} | {calls} | " + " | ".join(cells) + " |"
            )
    lines.append(
        "| **failing silently** | | | | " + " | ".join(f"**{silent[r]}**" for r in releases) + " |"
    )
    return "\n".join(lines) + "\n"


KNOWN_HEADER = """\
# Calls that fail to compile after translation without a hipify-py diagnostic,
# per ROCm release, mode (hip: HIP names; roc: --roc) and library: what
# tests/test_signatures.py tolerates, and nothing else.  Each is a row that
# needs a fix (see tools/signature_check.py); a fixed call may be left here
# (the test warns), a new one fails the test.  Regenerate after fixing:
#   python tools/signature_check.py --table --write-known tests/data/signature_silent.yaml
"""


def label(failure: dict[str, Any]) -> str:
    """How a failing call is named in the known list and the report: its
    function, and the shape of its arguments where it is not plain
    (``cublasCdotu [address]``)."""
    shape = failure.get("shape", "plain")
    return str(failure["function"]) + ("" if shape == "plain" else f" [{shape}]")


def known_yaml(reports: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The silent failures of ``reports`` as the YAML of KNOWN_HEADER."""
    lines = [KNOWN_HEADER.rstrip("\n")]
    for release, per_mode in reports.items():
        lines.append(f'"{release}":')
        for mode, report in per_mode.items():
            lines.append(f"  {mode}:")
            empty = True
            for key, result in report["libraries"].items():
                silent = sorted(label(f) for f in result.get("silent", []))
                if silent:
                    empty = False
                    lines.append(f"    {key}:")
                    lines.extend(f"      - {json.dumps(name)}" for name in silent)
            if empty:
                lines[-1] += " {}"
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cuda-include", action="append", type=Path, default=[])
    parser.add_argument(
        "--cuda-root",
        type=Path,
        help="a root made by hip_smoke/toolchain/provision.sh nvidia (default: the one it makes)",
    )
    parser.add_argument("--library", default=",".join(LIBRARIES), help="comma-separated")
    parser.add_argument("--mode", default="hip,roc", help="hip, roc or both (comma-separated)")
    parser.add_argument(
        "--shape",
        default=",".join(SHAPES),
        help="how pointer arguments are written (comma-separated): " + ", ".join(SHAPES),
    )
    parser.add_argument("--rocm", help="the ROCm release whose hipcc to use (5.7, 6.4, 7.2)")
    parser.add_argument("--hip-version", help="translate for this HIP (default: the hipcc's)")
    parser.add_argument("--json", type=Path, help="write the whole report here")
    parser.add_argument(
        "--write-known",
        type=Path,
        help="write the calls that fail silently, per release, mode and library, as YAML "
        "(tests/data/signature_silent.yaml: what tests/test_signatures.py tolerates)",
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="check every release with a root (or --rocm's) and print the README's table",
    )
    args = parser.parse_args(argv)
    from hip_smoke.toolchain import RELEASES, complete_root

    cuda_root = args.cuda_root or complete_root("nvidia")
    include = args.cuda_include + (root_includes(cuda_root) if cuda_root else [])
    if not include:
        parser.error("give --cuda-include DIR or --cuda-root ROOT")
    libraries = args.library.split(",")
    unknown = set(libraries) - set(LIBRARIES)
    if unknown:
        parser.error(f"unknown libraries {sorted(unknown)}; known: {', '.join(LIBRARIES)}")
    modes = args.mode.split(",")
    shapes = tuple(args.shape.split(","))
    if set(shapes) - set(SHAPES):
        parser.error(f"unknown shapes {sorted(set(shapes) - set(SHAPES))}; known: {SHAPES}")
    if args.table:
        releases = (
            [args.rocm]
            if args.rocm
            else [r for r in reversed(RELEASES) if complete_root(f"amd-{r}") is not None]
        )
    else:
        releases = [args.rocm]
    reports: dict[str, dict[str, dict[str, Any]]] = {}
    try:
        for release in releases:
            for mode in modes:
                reports.setdefault(release or "", {})[mode] = run(
                    libraries,
                    include,
                    args.hip_version,
                    release,
                    roc=mode == "roc",
                    shapes=shapes,
                )
    except Exception as exc:  # no libclang, no hipcc: say so
        print(f"signature_check: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1))
    if args.write_known:
        args.write_known.write_text(known_yaml(reports))
    silent = 0
    for per_mode in reports.values():
        for report in per_mode.values():
            if not args.table:
                print(
                    f"{report['compiler']}; translated for HIP {report['hip_version']}"
                    f"{' with --roc' if report['mode'] == 'roc' else ''}"
                )
            for key, result in report["libraries"].items():
                if result.get("skipped"):
                    if not args.table:
                        print(f"{key}: skipped, {result['skipped']}")
                    continue
                if not args.table:
                    print(
                        f"{key}: {result.get('functions', '-')} functions, "
                        f"{result['calls']} calls, {result['compile']} compile "
                        f"({result['rewritten']} rewritten), {result['reported']} reported, "
                        f"{len(result['silent'])} fail silently"
                    )
                for failure in result["silent"]:
                    silent += 1
                    hint = cast_hint(failure)
                    where = f"{report['hip_version']} {report['mode']} " if args.table else ""
                    print(
                        f"  {where}{label(failure)}: {failure['error']}{hint}",
                        file=sys.stderr if args.table else sys.stdout,
                    )
    if args.table:
        print(markdown_table(reports), end="")
    return 1 if silent else 0


if __name__ == "__main__":
    raise SystemExit(main())
