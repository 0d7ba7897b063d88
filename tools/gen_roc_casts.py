#!/usr/bin/env python3
"""Write mappings/roc-casts.yaml: with --roc, call every cuBLAS / cuSPARSE /
cuSOLVER / cuRAND function the tables give a ROC name with CUDA 12.4's
argument types, translate, compile with ROCm's hipcc, and turn hipcc's notes
("no known conversion from 'hipComplex *' to 'rocblas_float_complex *'") into
the casts each call needs; calls that still fail otherwise are recorded as
ROC signatures that differ (reported, HPY109).

    python tools/gen_roc_casts.py --cuda-root ROOT --rocm 7.2 \
        --library blas,sparse,solver,rand --roc --write-roc-casts

(An earlier form of tools/signature_check.py, which now checks every library
and mode for CI; this one keeps the per-call notes the generator needs.)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

# the CUDA signatures and the roots' include folders, the calls file, hipcc's
# run and notes, as the CI check has them
import signature_check  # noqa: E402
from signature_check import (  # noqa: E402
    _resource_dir,
    cast_hint,
    cuda_signatures,
    read_note,
    root_includes,
    syntax_check,
)

# the CUDA headers that declare each library's functions
HEADERS = {
    "runtime": ["cuda_runtime.h"],
    "driver": ["cuda.h"],
    "blas": ["cuda_fp16.h", "cublas_v2.h"],
    "fft": ["cufft.h"],
    "rand": ["curand.h"],
    "sparse": ["cusparse.h"],
    "solver": ["cusolverDn.h"],
    "rtc": ["nvrtc.h"],
}
_ERROR = re.compile(r"^calls\.hip:(\d+):\d+: error: (.*)$")
_MARK = re.compile(r"// call:(\w+)")


@dataclass
class Failure:
    function: str
    error: str
    reported: list[str]  # the hipify-py codes on the line
    notes: list[str] = field(default_factory=list)
    suggested_casts: dict[int, str] = field(default_factory=dict)


def calls_source(headers: list[str], signatures: dict[str, list[str]], names: list[str]) -> str:
    """One function per call, each on its own line and marked with its name."""
    return signature_check.calls_source(headers, signatures, names, by_name=True)


def callable_names(
    signatures: dict[str, list[str]], libraries: set[str], roc: bool = False
) -> list[str]:
    """The functions of ``libraries`` the tables give a HIP name (with ``roc``:
    a ROC name, rocBLAS's _64 and mixed-precision functions have only that):
    the CI check's, with the calls it leaves to the HIP check kept."""
    chosen, fallback = signature_check.callable_names(signatures, libraries, roc)
    return sorted([*chosen, *fallback])


# the ROC libraries' value types, and the HIP types a translated call passes
_ROC_VALUE = re.compile(r"\b(?:rocblas|rocsparse)_(?:float_complex|double_complex|half|bfloat16)\b")
_HIP_VALUE = re.compile(
    r"\b(?:hipFloatComplex|hipDoubleComplex|hipComplex|__half|__hip_bfloat16)\b"
)
ROC_CASTS = REPO / "mappings" / "roc-casts.yaml"
_AKA = r"(?: \(aka '[^']+'\))?"
_NOTE_ROC = re.compile(
    rf"no known conversion from '([^']+)'{_AKA} to '([^']+)'{_AKA} "
    r"for (\d+)(?:st|nd|rd|th) argument"
)


def roc_value_casts(failure: Failure, arity: int | None = None) -> dict[int, str]:
    """The casts a --roc call of ``arity`` arguments needs from HIP's value
    types to the ROC library's, keyed by CUDA's argument index: where the
    row's ``roc_args`` rewrote the call, hipcc's argument is the template's,
    and only a CUDA argument it keeps (``{i}``) can be cast."""
    from hipify_py.tables.cache import load_table

    row = load_table().names.get(failure.function)
    template = row.roc_template(arity) if row is not None and arity is not None else None
    found: dict[int, str] = {}
    for note in failure.notes:
        convert = _NOTE_ROC.search(note)
        if convert is None:
            continue
        source, target = convert.group(1), convert.group(2)
        # pointers only: a value (rocsparse_*csr2csr_compress's tol) cannot be cast
        if _ROC_VALUE.search(target) and _HIP_VALUE.search(source) and "*" in target:
            index = int(convert.group(3)) - 1
            if template is not None:
                part = template[index] if index < len(template) else ""
                kept = re.fullmatch(r"\{(\d+)\}", part)
                if kept is None:
                    continue  # text the template writes in: not CUDA's argument
                index = int(kept.group(1))
            found[index] = _spelled(target)
    return found


def _spelled(clang_type: str) -> str:
    """'const rocblas_float_complex *const *' -> 'const rocblas_float_complex* const*'."""
    text = re.sub(r"\s*\*", "*", clang_type.strip())
    return re.sub(r"\*(?=\w)", "* ", text)


def roc_differs(failure: Failure) -> str:
    """What hipcc says about a --roc call that fails for more than value types."""
    text = failure.notes[0] if failure.notes else failure.error
    text = text.removeprefix("candidate function not viable: ")
    return re.sub(r" \(aka '[^']+'\)", "", text).replace('"', "'")


def write_roc_casts(
    casts: dict[str, dict[int, str]],
    arity: dict[str, int],
    release: str,
    differs: dict[str, str] | None = None,
) -> None:
    lines = [
        "# With --roc, the casts a call needs where the ROC function takes the ROC",
        "# library's complex, half or bfloat16 types (rocblas_float_complex*, ...) and the",
        "# file's values have HIP's (hipFloatComplex*, __half*, ...; same layout).",
        "# Generated by tools/gen_roc_casts.py --roc --write-roc-casts: every call",
        "# declared with CUDA 12.4's parameter types, translated with --roc and compiled",
        f"# with the hipcc of ROCm {release}; the casts are the parameter types hipcc named",
        "# (pointers only: a complex passed by value cannot be cast).  args: the number",
        "# of arguments of the call they are for (cublas_v2.h's #define cublasCgemm",
        "# cublasCgemm_v2 is that call, legacy cublas.h's cublasCgemm is not).  differs:",
        "# what hipcc says about a call that still fails (another parameter list or",
        "# type), reported with HPY109.",
        "schema: 1",
        "roc_casts:",
    ]
    from hipify_py.tables.cache import load_table

    names = load_table().names
    differs = dict(differs or {})
    rows = {name: casts.get(name, {}) for name in {*casts, *differs}}
    for name in list(rows):  # the names cublas_v2.h #defines as the _v2 functions
        alias = re.sub(r"_v2(?=_64\Z|\Z)", "", name)
        if alias != name and alias in names and names[alias].roc == names[name].roc:
            rows.setdefault(alias, rows[name])
            arity.setdefault(alias, arity[name])
            if name in differs:
                differs.setdefault(alias, differs[name])
    for name in sorted(rows):
        fields = [f"args: {arity[name]}"]
        if rows[name]:
            body = ", ".join(f'{index}: "{cast}"' for index, cast in sorted(rows[name].items()))
            fields.append(f"casts: {{{body}}}")
        if name in differs:
            fields.append(f'differs: "{differs[name]}"')
        lines.append(f"  {name}: {{{', '.join(fields)}}}")
    ROC_CASTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def failures(output: str, compiler_output: str) -> list[Failure]:
    lines = output.splitlines()
    found: dict[int, Failure] = {}
    current: Failure | None = None
    for text in compiler_output.splitlines():
        error = _ERROR.match(text)
        if error is not None:
            number = int(error.group(1))
            if number in found:
                current = None
                continue
            source = lines[number - 1] if 0 < number <= len(lines) else ""
            mark = _MARK.search(source)
            current = found[number] = Failure(
                mark.group(1) if mark else "?",
                error.group(2),
                re.findall(r"hipify-py: (HPY\d+)", source),
            )
            continue
        if current is not None:
            read_note(current, text)
    return list(found.values())


def run(
    libraries: list[str],
    cuda_include: list[Path],
    hip_version: str | None = None,
    release: str | None = None,
    roc: bool = False,
) -> dict[str, Any]:
    """Check ``libraries`` with the hipcc of ``release`` (any when None),
    translating for ``hip_version`` (default: that hipcc's HIP)."""
    from hip_smoke.toolchain import find_amd
    from hipify_py import Options, translate_bytes
    from hipify_py.tables.cache import load_table

    compiler = find_amd(release=release)
    hip_version = hip_version or compiler.hip_version
    resource = _resource_dir(compiler.root)
    report: dict[str, Any] = {
        "compiler": compiler.description,
        "hip_version": hip_version,
        "libraries": {},
    }
    for library in libraries:
        headers = HEADERS[library]
        signatures = cuda_signatures(headers, cuda_include, resource)
        names = callable_names(signatures, {library}, roc)
        source = calls_source(headers, signatures, names)
        options = Options.from_kwargs(hip_version=hip_version, annotate=True, roc=roc)
        output = translate_bytes(source.encode(), load_table(), options).data.decode()
        done = syntax_check(compiler, output)
        failed = failures(output, done.stderr + done.stdout)
        if done.returncode != 0 and not failed:
            raise RuntimeError(f"{library}: hipcc failed outside the calls:\n{done.stderr[-2000:]}")
        report["libraries"][library] = {
            "calls": len(names),
            "failed": len(failed),
            "silent": [asdict(f) for f in failed if not f.reported],
            "reported": [asdict(f) for f in failed if f.reported],
            "arguments": {name: len(signatures[name]) for name in names},
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cuda-include", action="append", type=Path, default=[])
    parser.add_argument(
        "--cuda-root", type=Path, help="a root made by hip_smoke/toolchain/provision.sh nvidia"
    )
    parser.add_argument("--library", default=",".join(HEADERS), help="comma-separated")
    parser.add_argument("--rocm", help="the ROCm release whose hipcc to use (5.7, 6.4, 7.2)")
    parser.add_argument("--hip-version", help="translate for this HIP (default: the hipcc's)")
    parser.add_argument("--json", type=Path, help="write the whole report here")
    parser.add_argument(
        "--roc", action="store_true", help="translate with --roc (the calls become rocBLAS, ...)"
    )
    parser.add_argument(
        "--write-roc-casts",
        action="store_true",
        help="with --roc: write mappings/roc-casts.yaml from hipcc's notes",
    )
    args = parser.parse_args(argv)
    include = args.cuda_include + (root_includes(args.cuda_root) if args.cuda_root else [])
    if not include:
        parser.error("give --cuda-include DIR or --cuda-root ROOT")
    try:
        report = run(args.library.split(","), include, args.hip_version, args.rocm, args.roc)
    except Exception as exc:  # no libclang, no hipcc: say so
        print(f"gen_roc_casts: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.write_roc_casts:
        if not args.roc:
            parser.error("--write-roc-casts needs --roc")
        casts: dict[str, dict[int, str]] = {}
        arity = {
            name: count
            for result in report["libraries"].values()
            for name, count in result["arguments"].items()
        }
        for _ in range(40):  # hipcc notes one argument per call and candidate
            added = 0
            for result in report["libraries"].values():
                for failure in (*result["silent"], *result["reported"]):
                    found = roc_value_casts(Failure(**failure), arity.get(failure["function"]))
                    known = casts.setdefault(failure["function"], {})
                    added += len(set(found) - set(known))
                    known.update(found)
            casts = {name: found for name, found in casts.items() if found}
            if not added:
                break
            write_roc_casts(casts, arity, args.rocm or report["hip_version"])
            report = run(args.library.split(","), include, args.hip_version, args.rocm, args.roc)
        # what still fails unreported: the ROC signature differs otherwise (HPY109)
        differs = {
            failure["function"]: roc_differs(Failure(**failure))
            for result in report["libraries"].values()
            for failure in (*result["silent"], *result["reported"])
            if set(failure["reported"]) <= {"HPY115"} and failure["function"] in arity
        }
        write_roc_casts(casts, arity, args.rocm or report["hip_version"], differs)
        report = run(args.library.split(","), include, args.hip_version, args.rocm, args.roc)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print(f"{report['compiler']}; translated for HIP {report['hip_version']}")
    silent = 0
    for library, result in report["libraries"].items():
        print(
            f"{library}: {result['calls']} calls, {result['failed']} fail to compile, "
            f"{len(result['silent'])} of them silently"
        )
        for failure in result["silent"]:
            silent += 1
            print(f"  {failure['function']}: {failure['error']}{cast_hint(failure)}")
    return 1 if silent else 0


if __name__ == "__main__":
    raise SystemExit(main())
