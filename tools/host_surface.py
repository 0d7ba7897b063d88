#!/usr/bin/env python3
"""Write hipify_py/data/host_surface.yaml: the names CUDA's runtime header
makes visible to host code that HIP's does not, each with the standard header
that declares it.  The std_headers rule (HPY203) adds that header to a
translated file that uses such a name with only the runtime header included.

    python tools/host_surface.py            # compute, print the summary
    python tools/host_surface.py --write    # ... and write the data file
    python tools/host_surface.py --check    # exit 1 if the data file differs

The host surface of a header is every name that ``#include <header>`` makes
visible to host code, at global scope and in ``std::``: functions (not those
only ``__device__``), types, variables, enumerators and macros.  It is read
from the real toolchains: each compiler preprocesses the include as it does
for a host compile (``-E -dD``: the exact headers and branches it takes), and
libclang (the ``libclang`` wheel) lists the declarations of that output; the
macros come from the ``#define`` lines ``-dD`` keeps.

- CUDA 12.4 (the root made by ``hip_smoke/toolchain/provision.sh nvidia``):
  ``nvcc -E`` of a ``.cu`` file, which is nvcc's host compile (g++, with
  ``cuda_runtime.h`` force-included).  ``<cuda.h>`` is read the same way.
- HIP 5.7.1, 6.4.3, 7.2.4 (``provision.sh amd-5.7|amd-6.4|amd-7.2``; a
  release whose root is missing is left out, and said so): ``hipcc -x hip
  --cuda-host-only --offload-arch=gfx942 -E`` of ``#include <hip/hip_runtime.h>``.

A name visible with CUDA but not with HIP gets a home: the public header of
the file that declares it in CUDA's view (a libstdc++ internal header names
its public one, ``@headername{algorithm}``; a glibc ``bits/`` header says
"include <math.h> instead"; otherwise the nearest public header that included
it), or, where CUDA's own headers declare it, the standard header of the
CUDA root that declares it (a plain g++ compile of all of them).  It keeps the
home only if that HIP, given the header too, shows the name.  Reserved names
(``__x``, ``_X``) are left out.  What is left is listed in the data file (and
printed): ``homeless``, standard names no header gives HIP's host code, and
``cuda_own``, names only CUDA's own headers declare that the mapping tables do
not translate (those they translate are left out: the tables' business).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

OUT = REPO / "hipify_py" / "data" / "host_surface.yaml"
COMMAND = "python tools/host_surface.py --write"

# the HIP releases read (the roots of provision.sh amd-X.Y, or a user's hipcc)
HIP_RELEASES = ("5.7", "6.4", "7.2")

# the public standard headers the home search reads (CUDA's root, plain g++):
# the C headers first (a plain call takes its C header, valid in C and C++),
# then the C++ ones
C_HEADERS = (
    "assert.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdarg.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "strings.h",
    "time.h",
    "wchar.h",
    "wctype.h",
    "alloca.h",
    "getopt.h",
    "unistd.h",
    "sys/types.h",
    "sys/time.h",
    "pthread.h",
    "sched.h",
)
CXX_HEADERS = (
    "cassert",
    "cctype",
    "cerrno",
    "cfenv",
    "cfloat",
    "cinttypes",
    "climits",
    "clocale",
    "cmath",
    "csetjmp",
    "csignal",
    "cstdarg",
    "cstddef",
    "cstdint",
    "cstdio",
    "cstdlib",
    "cstring",
    "ctime",
    "cwchar",
    "cwctype",
    "algorithm",
    "array",
    "atomic",
    "bitset",
    "chrono",
    "complex",
    "exception",
    "functional",
    "initializer_list",
    "iosfwd",
    "iterator",
    "limits",
    "memory",
    "new",
    "numeric",
    "string",
    "tuple",
    "type_traits",
    "typeinfo",
    "utility",
    "vector",
)
# the C header of each C++ one (<cstring> -> <string.h>) and back
C_OF = {f"c{h[:-2]}": h for h in C_HEADERS if f"c{h[:-2]}" in CXX_HEADERS}
CXX_OF = {c: cxx for cxx, c in C_OF.items()}

_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d+)*)\s*$')
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")
_UNDEF = re.compile(r"^\s*#\s*undef\s+([A-Za-z_]\w*)")
_HEADERNAME = re.compile(r"@headername\{([^}]+)\}")
_NEVER = re.compile(r"Never (?:include|use) <[^>]+> directly;\s*(?:use|include)\s+<([^>]+)>")


@dataclass(frozen=True)
class Name:
    """One visible name: ``memcpy`` or ``std::memcpy``."""

    name: str
    kind: str  # function, type, variable, enumerator, macro
    file: str  # the file (as the compiler saw it) of its first declaration


@dataclass
class Unit:
    """One preprocessed translation unit: its text and what -dD and the line
    markers say about it."""

    text: str
    macros: dict[str, Name] = field(default_factory=dict)
    includer: dict[str, str] = field(default_factory=dict)  # file -> who first included it
    files: set[str] = field(default_factory=set)


def read_unit(text: str) -> Unit:
    """The macros (and where each is defined) and the include chains of
    preprocessed ``text``; its ``#define``/``#undef`` lines are blanked (the
    code is already expanded) so that libclang parses the declarations only."""
    unit = Unit("")
    stack: list[str] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if not line.startswith("#"):
            continue
        marker = _MARKER.match(line)
        if marker is not None:
            name = _normal(marker.group(2).encode().decode("unicode_escape"))
            flags = marker.group(3).split()
            if "1" in flags:
                if stack and name not in unit.includer:
                    unit.includer[name] = stack[-1]
                stack.append(name)
            elif "2" in flags:
                while len(stack) > 1 and stack[-1] != name:
                    stack.pop()
                if not stack:
                    stack.append(name)
            elif not stack:
                stack.append(name)
            else:
                stack[-1] = name
            unit.files.add(name)
            continue
        here = stack[-1] if stack else ""
        defined = _DEFINE.match(line)
        if defined is not None:
            if not here.startswith("<"):  # not <built-in> nor <command-line>
                unit.macros[defined.group(1)] = Name(defined.group(1), "macro", here)
            lines[index] = ""
            continue
        undefined = _UNDEF.match(line)
        if undefined is not None:
            unit.macros.pop(undefined.group(1), None)
            lines[index] = ""
    unit.text = "\n".join(lines)
    return unit


def _normal(file: str) -> str:
    """``/usr/lib/gcc/x/16/../../../../include/c++/16/cmath`` -> ``/usr/include/c++/16/cmath``."""
    return os.path.normpath(file) if file.startswith("/") else file


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def reserved(name: str) -> bool:
    """``__x``, ``_X``, and what is no name (libclang's "(unnamed struct at ...)")."""
    base = name.removeprefix("std::")
    if not _IDENTIFIER.fullmatch(base):
        return True
    return base.startswith("__") or (base[:1] == "_" and base[1:2].isupper())


def declarations(path: Path, unit: Unit) -> dict[str, Name]:
    """The names ``unit`` (preprocessed, at ``path``) declares for host code, at
    global scope and in ``std::`` (inline namespaces, ``extern "C"`` blocks and
    unscoped enums looked through)."""
    import clang.cindex as ci

    inline = ci.conf.lib.clang_Cursor_isInlineNamespace
    inline.argtypes = [ci.Cursor]
    inline.restype = ctypes.c_uint
    args = ["-x", "hip", "--cuda-host-only", "-nogpulib", "-nogpuinc", "-nostdinc"]
    args += ["--offload-arch=gfx942", "-std=c++17", "-ferror-limit=0", "-Wno-everything"]
    tu = ci.Index.create().parse(str(path), args=args, unsaved_files=[(str(path), unit.text)])
    presumed = ci.conf.lib.clang_getPresumedLocation
    presumed.argtypes = [ci.SourceLocation, ctypes.POINTER(ci._CXString)]
    presumed.argtypes += [ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
    presumed.restype = None

    def file_of(cursor: Any) -> str:
        """The file the line markers say (the header, not the .ii)."""
        text, line, column = ci._CXString(), ctypes.c_uint(), ctypes.c_uint()
        presumed(cursor.location, ctypes.byref(text), ctypes.byref(line), ctypes.byref(column))
        return _normal(str(ci._CXString.from_result(text) or ""))  # (freed with text)

    found: dict[str, Name] = {}
    device_only = {ci.CursorKind.CUDADEVICE_ATTR, ci.CursorKind.CUDAGLOBAL_ATTR}
    device_only |= {ci.CursorKind.CUDACONSTANT_ATTR, ci.CursorKind.CUDASHARED_ATTR}
    kinds = {
        ci.CursorKind.FUNCTION_DECL: "function",
        ci.CursorKind.FUNCTION_TEMPLATE: "function",
        ci.CursorKind.VAR_DECL: "variable",
        ci.CursorKind.TYPEDEF_DECL: "type",
        ci.CursorKind.TYPE_ALIAS_DECL: "type",
        ci.CursorKind.TYPE_ALIAS_TEMPLATE_DECL: "type",
        ci.CursorKind.STRUCT_DECL: "type",
        ci.CursorKind.CLASS_DECL: "type",
        ci.CursorKind.UNION_DECL: "type",
        ci.CursorKind.ENUM_DECL: "type",
        ci.CursorKind.CLASS_TEMPLATE: "type",
        ci.CursorKind.USING_DECLARATION: "using",
    }

    def kind_of(cursor: Any) -> Any:
        try:
            return cursor.kind
        except ValueError:  # a cursor kind this libclang does not know
            return None

    def host(cursor: Any) -> bool:
        attrs = {kind_of(child) for child in cursor.get_children()}
        return ci.CursorKind.CUDAHOST_ATTR in attrs or not (attrs & device_only)

    def add(prefix: str, cursor: Any, kind: str) -> None:
        name = prefix + cursor.spelling
        if cursor.location.file is None or reserved(name):
            return
        if name not in found or (found[name].kind == "using" and kind != "using"):
            found[name] = Name(name, kind, file_of(cursor))

    def walk(parent: Any, prefix: str) -> None:
        for cursor in parent.get_children():
            kind = kind_of(cursor)
            if kind in (ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL):
                walk(cursor, prefix)
            elif kind == ci.CursorKind.NAMESPACE:
                if inline(cursor):
                    walk(cursor, prefix)
                elif not prefix and cursor.spelling == "std":
                    walk(cursor, "std::")
            elif kind in kinds and cursor.spelling:
                if kinds[kind] in ("function", "variable") and not host(cursor):
                    continue  # __device__ only
                add(prefix, cursor, kinds[kind])
                if kind == ci.CursorKind.ENUM_DECL and not cursor.is_scoped_enum():
                    for constant in cursor.get_children():
                        if kind_of(constant) == ci.CursorKind.ENUM_CONSTANT_DECL:
                            add(prefix, constant, "enumerator")

    walk(tu.cursor, "")
    return found


@dataclass
class Surface:
    """What one ``#include`` shows host code with one toolchain."""

    label: str
    names: dict[str, Name]
    unit: Unit


def preprocess(compiler: Any, source: str, suffix: str, flags: list[str]) -> Unit:
    """``compiler`` (hip_smoke.toolchain.Compiler) preprocesses ``source``
    (``flags``: its own; for nvcc, the host step of its compile is found with
    ``--dryrun`` and run as it is, with ``-dD``)."""
    with compiler.workspace() as work:
        (work / f"unit{suffix}").write_text(source)
        if compiler.platform == "cuda":
            script = nvcc_host_step(compiler, work, f"unit{suffix}", flags)
            done = compiler.shell(script, cwd=work)
        else:
            done = compiler.run([*flags, "-E", f"unit{suffix}", "-o", "unit.ii"], cwd=work)
        if done.returncode != 0 or not (work / "unit.ii").is_file():
            raise SystemExit(f"{compiler.description}: -E failed:\n{done.stderr[-3000:]}")
        return read_unit((work / "unit.ii").read_text(errors="replace"))


def nvcc_host_step(compiler: Any, work: Path, name: str, flags: list[str]) -> str:
    """The command line of nvcc's host preprocessing of ``name`` (the g++ -E
    without ``__CUDA_ARCH__``; a .cpp file: nvcc's host compiler, plainly),
    writing unit.ii with the #defines kept."""
    import shlex

    if name.endswith(".cpp"):  # a plain C++ file: nvcc hands it to its host compiler
        command = list(compiler.command)
        host = command[command.index("-ccbin") + 1] if "-ccbin" in command else "g++"
        argv = [host, *flags, "-E", "-x", "c++", name, "-dD", "-o", "unit.ii"]
        return " ".join(shlex.quote(a) for a in argv)
    done = compiler.run([*flags, "-c", name, "-o", "unit.o", "--dryrun"], cwd=work)
    steps = [
        shlex.split(line[3:])
        for line in (done.stdout + done.stderr).splitlines()
        if line.startswith("#$ ") and " -E " in line and "__CUDA_ARCH__=" not in line
    ]
    if not steps:
        raise SystemExit(f"{compiler.description}: no host preprocessing step in --dryrun")
    argv = steps[0]
    at = argv.index("-o")
    argv = argv[:at] + argv[at + 2 :]
    return " ".join(shlex.quote(a) for a in [*argv, "-dD", "-o", "unit.ii"])


def surface(label: str, compiler: Any, source: str, suffix: str, flags: list[str]) -> Surface:
    unit = preprocess(compiler, source, suffix, flags)
    import tempfile

    with tempfile.TemporaryDirectory(prefix="host-surface-") as scratch:
        names = declarations(Path(scratch) / "unit.ii", unit)
    for name, macro in unit.macros.items():
        if not reserved(name):
            names.setdefault(name, macro)
    return Surface(label, names, unit)


def hip_surface(compiler: Any, also: tuple[str, ...] = ()) -> Surface:
    """What ``#include <hip/hip_runtime.h>`` (and the headers ``also``) shows host code."""
    flags = ["--offload-arch=gfx942", "--cuda-host-only", "-x", "hip", "-dD"]
    source = "".join(f"#include <{h}>\n" for h in ("hip/hip_runtime.h", *also))
    return surface(f"HIP {compiler.hip_version}", compiler, source, ".hip", flags)


def confirm(compiler: Any, diff: Difference) -> None:
    """Move the names that their header does not make visible with this HIP
    either (the roots' C libraries differ, say) from ``homes`` to ``homeless``."""
    if not diff.homes:
        return
    seen = hip_surface(compiler, tuple(sorted(set(diff.homes.values())))).names
    for name in [n for n in diff.homes if n not in seen]:
        del diff.homes[name]
        diff.homeless.append(name)
    diff.homeless.sort()


def cuda_surface(compiler: Any, header: str) -> Surface:
    # nvcc's host compile of a .cu file preprocesses it with g++, with
    # cuda_runtime.h force-included
    return surface(f"CUDA <{header}>", compiler, f"#include <{header}>\n", ".cu", ["-std=c++17"])


def standard_index(compiler: Any) -> Surface:
    """Every public standard header of CUDA's root, compiled as plain C++ by
    its g++: where each standard name lives."""
    source = "".join(f"#include <{h}>\n" for h in (*C_HEADERS, *CXX_HEADERS))
    return surface("standard headers", compiler, source, ".cpp", ["-std=c++17"])


class Homes:
    """A declaring file -> the public header a user includes."""

    def __init__(self, root: Path | None, index: Surface) -> None:
        self.root = root
        self.index = index
        self.standard = set(index.unit.files)
        self._text: dict[str, str] = {}

    def _read(self, file: str) -> str:
        if file not in self._text:
            path = Path(file) if self.root is None else self.root / file.lstrip("/")
            try:
                self._text[file] = path.read_text(errors="replace")
            except OSError:
                self._text[file] = ""
        return self._text[file]

    @staticmethod
    def relative(file: str) -> str:
        """``/usr/include/x86_64-linux-gnu/bits/x.h`` -> ``bits/x.h``;
        ``/usr/include/c++/14/cmath`` -> ``cmath``."""
        for pattern in (
            r"/include/c\+\+/\d+/(?:backward/)?(.*)$",
            r"/include/x86_64-linux-gnu/c\+\+/\d+/(.*)$",
            r"/lib/gcc/[^/]+/\d+/include/(.*)$",
            r"/lib/llvm-\d+/lib/clang/\d+/include/(.*)$",
            r"/include/x86_64-linux-gnu/(.*)$",
            r"/include/(.*)$",
        ):
            found = re.search(pattern, file)
            if found is not None:
                return found.group(1)
        return file

    @staticmethod
    def public(relative: str) -> bool:
        parts = relative.split("/")
        internal = {"bits", "ext", "debug", "asm", "asm-generic", "linux", "gnu", "tr1", "pstl"}
        return not (set(parts[:-1]) & internal) and not relative.startswith(("c++/", "crt/"))

    def of_file(self, file: str, unit: Unit) -> str | None:
        """The public standard header for a declaration in ``file`` (reached
        through ``unit``'s includes); None when it is no standard header."""
        seen: set[str] = set()
        while file and file not in seen:
            seen.add(file)
            if file not in self.standard:
                return None
            relative = self.relative(file)
            if self.public(relative):
                return relative
            text = self._read(file)
            for pattern in (_HEADERNAME, _NEVER):
                named = pattern.search(text)
                if named is not None:
                    return named.group(1).split(",")[0].strip()
            file = unit.includer.get(file, "")
        return None

    def of(self, name: Name, cuda: Surface) -> str | None:
        """Where ``name``, visible in ``cuda``, is declared by a standard header."""
        home = self.of_file(name.file, cuda.unit)
        if home is not None:
            return self.form(name.name, home)
        listed = self.index.names.get(name.name)
        if listed is None:
            return None
        home = self.of_file(listed.file, self.index.unit)
        return None if home is None else self.form(name.name, home)

    @staticmethod
    def form(name: str, home: str) -> str:
        """``std::`` names take the C++ header (<cstring>), others the C one."""
        if name.startswith("std::"):
            return CXX_OF.get(home, home)
        return C_OF.get(home, home)


@dataclass
class Difference:
    release: str
    homes: dict[str, str]  # name -> header
    homeless: list[str]  # standard names with no header that gives HIP them
    cuda_own: list[str] = field(default_factory=list)  # CUDA's own, not in the tables


def difference(
    cuda: Surface, hip: Surface, homes: Homes, translated: set[str], release: str
) -> Difference:
    """The names ``cuda`` shows host code and ``hip`` does not, each with its
    standard header (``homes``) or, failing one, listed as homeless; those
    CUDA's own headers declare (its API) are left out where the tables
    translate them, else listed apart (``cuda_own``)."""
    result = Difference(release, {}, [])
    for key in sorted(set(cuda.names) - set(hip.names)):
        name = cuda.names[key]
        home = homes.of(name, cuda)
        if home is not None:  # (isfinite, in the tables as a device function, too)
            result.homes[key] = home
        elif name.file in homes.standard:
            result.homeless.append(key)
        elif key not in translated:
            result.cuda_own.append(key)
    return result


def toolchains(required: bool) -> tuple[Any, dict[str, Any], list[str]]:
    """The CUDA compiler, the HIP ones by release, and what is missing."""
    from hip_smoke.toolchain import ToolchainError, find_amd, find_cuda

    missing: list[str] = []
    try:
        cuda = find_cuda()
    except ToolchainError as exc:
        raise SystemExit(f"host_surface: no nvcc 12.x: {exc}") from None
    hips: dict[str, Any] = {}
    for release in HIP_RELEASES:
        try:
            hips[release] = find_amd(release=release)
        except ToolchainError as exc:
            missing.append(f"HIP {release}: {exc}")
    if required and missing:
        raise SystemExit("host_surface: " + "; ".join(missing))
    return cuda, hips, missing


def full_version(compiler: Any) -> str:
    """ "7.2.4" from the HIP of ``compiler`` (its root's hip_version.h, or its hipcc)."""
    for folder in compiler.include_dirs:
        header = folder / "hip" / "hip_version.h"
        if header.is_file():
            text = header.read_text()
            parts = [
                re.search(rf"#define HIP_VERSION_{k}\s+(\d+)", text) for k in ("MAJOR", "MINOR")
            ]
            if all(parts):
                major, minor = (p.group(1) for p in parts if p)
                return _patch_release(f"{major}.{minor}")
    return _patch_release(compiler.hip_version)


def _patch_release(minor: str) -> str:
    """The verified release of a minor version ("7.2" -> "7.2.4")."""
    from hipify_py.engine.hip_target import verified_releases
    from hipify_py.tables.versions import format_version

    for version in verified_releases():
        text = format_version(version)
        if text.startswith(minor + "."):
            return text
    return minor


def compute(
    required: bool = False,
) -> tuple[dict[str, dict[str, Difference]], dict[str, int], list[str], str]:
    """{cuda header: {HIP release: Difference}}, the surfaces' sizes, what was
    missing, and the CUDA version."""
    from hipify_py.tables.cache import load_table

    cuda, hips, missing = toolchains(required)
    translated = set(load_table().names)
    index = standard_index(cuda)
    homes = Homes(cuda.root, index)
    sizes: dict[str, int] = {}
    cudas = {h: cuda_surface(cuda, h) for h in ("cuda_runtime.h", "cuda.h")}
    for label, found in cudas.items():
        sizes[f"CUDA <{label}>"] = len(found.names)
    result: dict[str, dict[str, Difference]] = {h: {} for h in cudas}
    for compiler in hips.values():
        hip = hip_surface(compiler)
        version = full_version(compiler)
        sizes[f"HIP {version}"] = len(hip.names)
        for header, found in cudas.items():
            diff = difference(found, hip, homes, translated, version)
            confirm(compiler, diff)
            result[header][version] = diff
    return result, sizes, missing, cuda_version(cuda)


def cuda_version(compiler: Any) -> str:
    with compiler.workspace() as work:
        done = compiler.run(["--version"], cwd=work)
    found = re.search(r"release (\d+\.\d+)", done.stdout)
    return found.group(1) if found else "12.x"


def render(result: dict[str, dict[str, Difference]], cuda: str) -> str:
    releases = sorted({r for per in result.values() for r in per}, key=_key)
    lines = [
        f"# GENERATED by `{COMMAND}` (tools/host_surface.py): do not edit.",
        "# The names `#include <cuda_runtime.h>` (and <cuda.h>) makes visible to host code",
        f"# with CUDA {cuda} (nvcc's host compile of a .cu file, cuda_runtime.h force-included)",
        "# that `#include <hip/hip_runtime.h>` does not (hipcc -x hip --cuda-host-only,",
        f"# gfx942) with HIP {', '.join(releases)}, each with the standard header that",
        "# declares it (std:: names their C++ header, the others their C one).  Names the",
        "# mapping tables translate, and reserved names, are left out.  `homeless`: standard",
        "# names no header gives that HIP's host code (its C library or compiler headers",
        "# lack them); `cuda_own`: CUDA's own names (no standard header) the tables lack.",
        "# The std_headers rule (HPY203) adds the header when the target is such a",
        "# release (between two: both) and the file uses the name without it.",
        f'cuda: "{cuda}"',
        "releases: [" + ", ".join(f'"{r}"' for r in releases) + "]",
    ]
    for header, per in result.items():
        lines.append(f"{_yaml_key(header)}:")
        for release in releases:
            diff = per.get(release)
            if diff is None:
                continue
            lines.append(f'  "{release}":')
            if diff.homes:
                lines.append("    homes:")
                lines += [f"      {_yaml_key(n)}: {h}" for n, h in sorted(diff.homes.items())]
            else:
                lines.append("    homes: {}")
            lines += _flow_list("    homeless", [_yaml_key(n) for n in diff.homeless])
            lines += _flow_list("    cuda_own", [_yaml_key(n) for n in diff.cuda_own])
    return "\n".join(lines) + "\n"


def _flow_list(key: str, words: list[str], width: int = 96) -> list[str]:
    """``key: [a, b, ...]``, wrapped."""
    lines = [f"{key}: ["]
    indent = " " * (len(key) + 3)
    for index, word in enumerate(words):
        piece = word + ("," if index < len(words) - 1 else "")
        if len(lines[-1]) + len(piece) + 1 > width and not lines[-1].endswith("["):
            lines.append(indent + piece)
        else:
            lines[-1] += ("" if lines[-1].endswith("[") else " ") + piece
    lines[-1] += "]"
    return lines


def _yaml_key(text: str) -> str:
    return f'"{text}"' if ":" in text or text.startswith(("*", "&", "!")) else text


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in release.split("."))


def summary(
    result: dict[str, dict[str, Difference]], sizes: dict[str, int], missing: list[str]
) -> Iterator[str]:
    for label, size in sizes.items():
        yield f"{label}: {size} host-visible names"
    for header, per in result.items():
        for release, diff in per.items():
            total = len(diff.homes) + len(diff.homeless) + len(diff.cuda_own)
            yield (
                f"<{header}> vs HIP {release}: {total} visible with CUDA only (not translated): "
                f"{len(diff.homes)} with a standard header, {len(diff.homeless)} standard "
                f"without one, {len(diff.cuda_own)} CUDA's own"
            )
            if diff.homeless:
                yield "  homeless: " + " ".join(diff.homeless)
            if diff.cuda_own:
                yield "  CUDA's own, not in the tables: " + " ".join(diff.cuda_own)
    for line in missing:
        yield f"left out: {line}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(REPO)}")
    parser.add_argument("--check", action="store_true", help="exit 1 if the data file differs")
    parser.add_argument("--all", action="store_true", help="fail when a HIP root is missing")
    parser.add_argument("--names", action="store_true", help="print every name found")
    options = parser.parse_args(argv)
    result, sizes, missing, cuda = compute(required=options.all)
    for line in summary(result, sizes, missing):
        print(line)
    if options.names:
        for header, per in result.items():
            for release, diff in per.items():
                for name, home in sorted(diff.homes.items()):
                    print(f"{header} {release} {name} -> {home}")
    text = render(result, cuda)
    if options.write:
        OUT.write_text(text)
        print(f"wrote {OUT.relative_to(REPO)}")
    if options.check and OUT.read_text() != text:
        print(f"{OUT.relative_to(REPO)} is stale: run {COMMAND}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
