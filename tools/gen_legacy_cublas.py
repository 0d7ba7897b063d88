#!/usr/bin/env python3
"""Write (or check) the ``legacy:`` rows of mappings/blas-legacy.curated.yaml
from CUDA's headers: every function ``cublas.h`` (the legacy, handle-less
cuBLAS API) declares, its parameters, the type it returns, and its v2 form.

The v2 form comes from the ``_v2`` function of ``cublas_api.h`` (the one
``cublas_v2.h`` names): its parameters are the handle, then the legacy
parameters in order (a scalar passed by value becomes a pointer: ``&alpha``),
then, where the legacy function returns a value, a pointer to it (``&result``).
Legacy functions without a v2 counterpart (``cublasInit``, ``cublasAlloc``, ...)
keep the hand-written form the file already has; a function the file lacks and
the tool cannot derive stops it.

    python tools/gen_legacy_cublas.py --cuda-root ROOT            # rewrite the file
    python tools/gen_legacy_cublas.py --cuda-root ROOT --check    # exit 1 if it differs

ROOT is the root ``hip_smoke/toolchain/provision.sh nvidia`` makes (CUDA 12.4).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

TARGET = REPO / "mappings" / "blas-legacy.curated.yaml"
HEADER = """\
# The legacy cuBLAS API of cublas.h: cublasSscal(n, alpha, x, incx), no handle.
# cublas_v2.h gives the same names to the handle API, which is the only one
# hipBLAS and rocBLAS have, so a call of one of these with as many arguments as
# `params` has is not renamed but reported (HPY112) with its `v2` form, written
# with the call's own arguments.  Written by tools/gen_legacy_cublas.py from
# CUDA 12.4's cublas.h and cublas_api.h (each v2 form: the handle, the legacy
# parameters in order, a scalar passed by value as a pointer, a returned value
# through a last pointer, a letter as the v2 enum: {trans:cublasOperation_t});
# the rows without a v2 function of the same name, and `legacy_letters:` (the
# enumerator each legacy letter stands for, cuBLAS documentation of the legacy
# API: upper or lower case), are hand-written and kept by the tool.
"""


# the enum types the v2 API takes where the legacy one takes a letter ('N', 'U', ...);
# the letters each stands for are `legacy_letters:` in the file
LETTER_TYPES = ("cublasOperation_t", "cublasFillMode_t", "cublasDiagType_t", "cublasSideMode_t")


def declarations(root: Path) -> tuple[dict[str, tuple[str, list[tuple[str, str]]]], ...]:
    """(cublas.h functions, cublas_api.h functions): name -> (returns, params)."""
    import clang.cindex as cindex
    from signature_check import _resource_dir, root_includes

    args = ["-x", "c++", "-std=c++17", "-nostdinc"]
    resource = _resource_dir(None)  # clang's own headers: the machine's, else an AMD root's
    if resource is None:
        from hip_smoke.toolchain import ToolchainError, find_amd

        try:
            resource = _resource_dir(find_amd().root)
        except ToolchainError:
            resource = None
    if resource is not None:
        args += ["-isystem", str(resource)]
    for folder in root_includes(root):
        args += ["-isystem", str(folder)]
    unit = cindex.Index.create().parse(
        "legacy.cpp", args=args, unsaved_files=[("legacy.cpp", "#include <cublas.h>\n")]
    )
    errors = [str(d) for d in unit.diagnostics if d.severity >= cindex.Diagnostic.Error]
    if errors:
        raise RuntimeError("cannot parse cublas.h: " + "; ".join(errors[:3]))
    legacy: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    api: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for cursor in unit.cursor.walk_preorder():
        if cursor.kind != cindex.CursorKind.FUNCTION_DECL or cursor.location.file is None:
            continue
        where = Path(cursor.location.file.name).name
        found = (
            cursor.result_type.spelling,
            [(p.type.spelling, p.spelling) for p in cursor.get_arguments()],
        )
        if where == "cublas.h":
            legacy[cursor.spelling] = found
        elif where == "cublas_api.h":
            api[cursor.spelling] = found
    return legacy, api


def _spelled(kind: str) -> str:
    return kind.replace(" *", "*")


def v2_form(
    name: str, returns: str, params: list[tuple[str, str]], v2: list[tuple[str, str]]
) -> str | None:
    """The v2 call in terms of the legacy parameter names, or None when the
    v2 function is not the legacy one with a handle (and a result pointer)."""
    result = returns not in ("void", "cublasStatus_t")
    # v2's trmm writes C (out of place); the legacy one overwrites B: C = B
    in_place = [p for _, p in v2[-2:]] == ["C", "ldc"] and [p for _, p in params[-2:]] == [
        "B",
        "ldb",
    ]
    if in_place:
        v2 = v2[:-2]
    if len(v2) != 1 + len(params) + result or v2[0][0] != "cublasHandle_t":
        return None
    args = ["handle"]
    for (kind, param), (v2_kind, _) in zip(params, v2[1:], strict=False):
        if kind == "char" and v2_kind in LETTER_TYPES:
            args.append(f"{{{param}:{v2_kind}}}")
        elif "*" not in kind and v2_kind.rstrip().endswith("*"):
            args.append(f"&{param}")
        elif kind.replace("const ", "") == v2_kind.replace("const ", ""):
            args.append(param)
        else:
            return None
    if result:
        args.append("&result")
    if in_place:
        args += ["B", "ldb"]
    return f"{name}({', '.join(args)})"


def rows(root: Path, existing: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    legacy, api = declarations(root)
    out: dict[str, dict[str, str]] = {}
    for name, (returns, params) in legacy.items():
        row: dict[str, str] = {"params": ", ".join(f"{_spelled(k)} {p}" for k, p in params)}
        if returns not in ("void", "cublasStatus_t"):
            row["returns"] = returns
        v2 = api.get(f"{name}_v2") or api.get(name)
        form = v2_form(name, returns, params, v2[1]) if v2 is not None else None
        if form is None:
            kept = existing.get(name)
            if kept is None or "v2" not in kept:
                raise RuntimeError(f"{name}: no v2 function to derive the form from; write it")
            row["v2"] = kept["v2"]
            if "note" in kept:
                row["note"] = kept["note"]
        else:
            row["v2"] = form
        out[name] = row
    return out


def render(table: dict[str, dict[str, str]], letters: str) -> str:
    lines = [
        HEADER.rstrip("\n"),
        "schema: 1",
        "library: blas",
        'title: "cuBLAS legacy API (cublas.h), curated"',
        'source: "CUDA 12.4 cublas.h and cublas_api.h (Debian 13), by tools/gen_legacy_cublas.py"',
        "legacy:",
    ]
    for name, row in table.items():
        fields = ", ".join(f"{key}: {_quote(value)}" for key, value in row.items())
        lines.append(f"  {name}: {{{fields}}}")
    return "\n".join(lines) + "\n" + letters


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cuda-root", type=Path, required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    existing: dict[str, dict[str, str]] = {}
    letters = ""
    if TARGET.is_file():
        old = TARGET.read_text()
        existing = (yaml.safe_load(old) or {}).get("legacy") or {}
        # the letter tables are hand-written: kept as they are
        at = old.find("\nlegacy_letters:")
        letters = old[at + 1 :] if at >= 0 else ""
    text = render(rows(args.cuda_root, existing), letters)
    if args.check:
        same = TARGET.is_file() and TARGET.read_text() == text
        print(f"{TARGET.name}: {'up to date' if same else 'differs'}")
        return 0 if same else 1
    TARGET.write_text(text)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
