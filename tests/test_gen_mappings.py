"""tools/gen_mappings.py: the row parser on real HIPIFY lines, the header scanner,
and that the committed mappings/*.yaml are exactly what the generator writes."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
GENERATOR = REPO / "tools" / "gen_mappings.py"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_mappings", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_mappings"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
ROC = gen.Layout(("HIP", "ROC"))
MIOPEN = gen.Layout(("HIP", "MIOPEN"))
CUBLAS_CREATE = (
    "|`cublasCreate_v2`| | | | |`hipblasCreate`|1.8.2| | | | "
    "|`rocblas_create_handle`|1.5.0| | | | |"
)


def _tables_dir() -> Path | None:
    """HIPIFY's tables: $HIPIFY_PY_TABLES, or shared/ inside or beside the checkout."""
    candidates = [os.environ.get("HIPIFY_PY_TABLES", "")]
    candidates += [
        str(base / "shared" / "reference" / "hipify-tables") for base in (REPO, REPO.parent)
    ]
    for candidate in candidates:
        if (
            candidate
            and (Path(candidate) / "CUDA_Runtime_API_functions_supported_by_HIP.md").is_file()
        ):
            return Path(candidate)
    return None


def _out_row(
    line: str, layout: object = None, section: str = "Functions", library: str = "runtime"
) -> object:
    row = gen.parse_row(line, layout)
    return gen.OutRow(
        cuda=row.cuda,
        library=library,
        section=section,
        table=row,
        kind="function",
        kind_from_headers=False,
        hip=row.hip.name or None,
        roc=row.roc.name if row.roc and row.roc.name else None,
    )


# --------------------------------------------------------------------------- row parser


def test_supported_row() -> None:
    row = gen.parse_row("|`cudaChooseDevice`| | | | |`hipChooseDevice`|1.6.0| | | | |")
    assert row.cuda == "cudaChooseDevice"
    assert row.hip == gen.Target("hipChooseDevice", added="1.6.0")
    assert row.roc is None
    assert (row.cuda_added, row.cuda_deprecated, row.cuda_changed, row.cuda_removed) == (
        "",
        "",
        "",
        "",
    )
    out = _out_row("|`cudaChooseDevice`| | | | |`hipChooseDevice`|1.6.0| | | | |")
    assert out.status == "supported"
    line = gen.row_line(out)
    assert (
        line == "    cudaChooseDevice: {hip: hipChooseDevice, kind: function, status: supported, "
        'hip_added: "1.6.0"}'
    )
    assert yaml.safe_load(line.strip()) == {
        "cudaChooseDevice": {
            "hip": "hipChooseDevice",
            "kind": "function",
            "status": "supported",
            "hip_added": "1.6.0",
        }
    }


def test_unsupported_row() -> None:
    line = "|`cudaDeviceFlushGPUDirectRDMAWrites`|11.3| | | | | | | | | |"
    row = gen.parse_row(line)
    assert row.hip == gen.Target()
    assert row.cuda_added == "11.3"
    out = _out_row(line)
    assert out.status == "unsupported"
    assert gen.row_line(out) == (
        "    cudaDeviceFlushGPUDirectRDMAWrites: "
        '{kind: function, status: unsupported, cuda_added: "11.3"}'
    )


def test_row_with_roc_columns() -> None:
    line = CUBLAS_CREATE
    row = gen.parse_row(line, ROC)
    assert row.hip == gen.Target("hipblasCreate", added="1.8.2")
    assert row.roc == gen.Target("rocblas_create_handle", added="1.5.0")
    assert gen.row_line(_out_row(line, ROC, library="blas")) == (
        "    cublasCreate_v2: {hip: hipblasCreate, roc: rocblas_create_handle, kind: function, "
        'status: supported, hip_added: "1.8.2", roc_added: "1.5.0"}'
    )
    # cuDNN: the MIOpen column is the "roc" one; hipDNN names come without versions
    dnn = (
        "|`CUDNN_STATUS_SUCCESS`|1.0.0| | | |`HIPDNN_STATUS_SUCCESS`| | | | | "
        "|`miopenStatusSuccess`|2.1.0| | | | |"
    )
    out = _out_row(dnn, MIOPEN, library="dnn")
    assert (out.hip, out.roc, out.status) == (
        "HIPDNN_STATUS_SUCCESS",
        "miopenStatusSuccess",
        "supported",
    )


def test_deprecated_removed_and_experimental_rows() -> None:
    deprecated = _out_row("|`cudaThreadExit`| |10.0| | |`hipDeviceReset`|1.6.0| | | | |")
    assert deprecated.status == "deprecated"
    assert deprecated.table.cuda_deprecated == "10.0"
    assert 'cuda_deprecated: "10.0"' in gen.row_line(deprecated)
    removed = _out_row("|`cudaBindTexture`| |11.0| |12.0|`hipBindTexture`|1.6.0|3.8.0| | | |")
    assert removed.status == "removed"  # removed wins over deprecated
    assert gen.row_line(removed).endswith(
        'cuda_deprecated: "11.0", cuda_removed: "12.0", '
        'hip_added: "1.6.0", hip_deprecated: "3.8.0"}'
    )
    experimental = _out_row(
        "|`cudaGraphExecGetFlags`|12.0| | | |`hipGraphExecGetFlags`|6.3.0| | | |6.3.0|"
    )
    assert experimental.status == "experimental"
    assert experimental.table.hip.experimental == "6.3.0"


def test_malformed_rows_are_rejected() -> None:
    with pytest.raises(ValueError, match="expected 11 cells"):
        gen.parse_row("|`cudaFree`| | | | |`hipFree`|1.5.0| | | |")
    with pytest.raises(ValueError, match="not a version"):
        gen.parse_row("|`cudaFree`|soon| | | |`hipFree`|1.5.0| | | | |")
    with pytest.raises(ValueError, match="versions given without"):
        gen.parse_row("|`cudaFree`| | | | | |1.5.0| | | | |")


def test_header_line_layouts() -> None:
    plain = "|**CUDA**|**A**|**D**|**C**|**R**|**HIP**|**A**|**D**|**C**|**R**|**E**|"
    assert gen.parse_header(plain) == gen.Layout(("HIP",))
    both = plain + "**MIOPEN**|**A**|**D**|**C**|**R**|**E**|"
    assert gen.parse_header(both) == MIOPEN


def test_odd_target_names_are_quoted() -> None:
    line = gen.row_line(
        _out_row("|`CUoccupancyB2DSize`| | | | |`void*`| | | | | |", section="Data types")
    )
    assert '{hip: "void*"' in line
    assert yaml.safe_load(line.strip())["CUoccupancyB2DSize"]["hip"] == "void*"


# --------------------------------------------------------------------------- tables


def _md(path: Path, title: str, header: str, rows: list[str]) -> None:
    align = (
        "|:--|:-:|:-:|:-:|:-:|"
        + "|".join([":--", ":-:", ":-:", ":-:", ":-:", ":-:"] * (header.count("**E**")))
        + "|"
    )
    path.write_text(
        f"# {title}\n\n## **1. Functions**\n\n{header}\n{align}\n" + "\n".join(rows) + "\n"
    )


def test_plain_files_must_agree_with_the_combined_one(tmp_path: Path) -> None:
    head = "|**CUDA**|**A**|**D**|**C**|**R**|**HIP**|**A**|**D**|**C**|**R**|**E**|"
    full = tmp_path / "full.md"
    _md(
        full,
        "X",
        head + "**ROC**|**A**|**D**|**C**|**R**|**E**|",
        [CUBLAS_CREATE],
    )
    hip = tmp_path / "hip.md"
    _md(hip, "X", head, ["|`cublasCreate_v2`| | | | |`hipblasCreate`|1.8.2| | | | |"])
    roc = tmp_path / "roc.md"
    _md(
        roc,
        "X",
        head.replace("HIP", "ROC"),
        ["|`cublasCreate_v2`| | | | |`rocblas_create_handle`|1.6.0| | | | |"],
    )
    table = gen.read_table(full)
    gen.verify_subset(table, gen.read_table(hip), "hip")
    with pytest.raises(gen.GenError, match=r"roc\.md:7: row 'cublasCreate_v2' disagrees"):
        gen.verify_subset(table, gen.read_table(roc), "roc")


def test_chains_are_resolved_with_a_note() -> None:
    a = _out_row("|`cuFoo`| | | | |`cudaFoo`|1.0.0| | | | |", library="driver")
    b = _out_row("|`cudaFoo`| | | | |`hipFoo`|1.0.0| | | | |")
    found = gen.resolve_chains({"cuFoo": a, "cudaFoo": b})
    assert len(found) == 1 and "cuFoo -> hip cudaFoo" in found[0]
    assert a.hip is None and a.status == "unsupported" and "idempotent" in a.notes[0]
    assert b.hip == "hipFoo"


# --------------------------------------------------------------------------- headers and kinds


def test_header_scanner_kinds(tmp_path: Path) -> None:
    (tmp_path / "cuda_runtime_api.h").write_text(
        """
#define CUDART_VERSION 12040
#define CUDARTAPI
#define __dv(v) = v
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaGetDeviceProperties cudaGetDeviceProperties_v2
#if defined(__cplusplus)
extern "C" {
#endif
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 << 0, cudaErrorX } cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef void (CUDARTAPI *cudaHostFn_t)(void *userData);
struct __attribute__((aligned(8))) cudaDeviceProp { int major; int minor(void); };
extern __host__ cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size);
extern __host__ cudaError_t CUDARTAPI
    cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int d __dv(0));
static inline int helper(int x) { return notAFunction(x); }
extern __device__ int warpSize;
#if defined(__cplusplus)
}
#endif
"""
    )
    (tmp_path / "cuda.h").write_text("#define CUDA_VERSION 12040\n")
    scan = gen.scan_headers(tmp_path)
    assert scan.cuda_version == "12.4"
    kind = {name: scan.kind_of(name)[0] for name in scan.kinds}
    assert kind["cudaSuccess"] == kind["cudaErrorInvalidValue"] == kind["cudaErrorX"] == "enum"
    assert (
        kind["cudaError"]
        == kind["cudaError_t"]
        == kind["cudaStream_t"]
        == kind["CUstream_st"]
        == "type"
    )
    assert kind["cudaHostFn_t"] == kind["cudaDeviceProp"] == "type"
    assert kind["cudaMalloc"] == kind["helper"] == "function"
    assert kind["warpSize"] == "variable"
    assert kind["cudaStreamPerThread"] == kind["CUDART_VERSION"] == "macro"
    assert scan.kind_of("cudaGetDeviceProperties") == ("function", True)  # alias of a function
    assert "notAFunction" not in kind and "minor" not in kind


def test_heuristic_kinds() -> None:
    types = frozenset(
        {
            "cudaError",
            "cudaErrorMemoryAllocation",
            "cudaAddressModeClamp",
            "cudaAddressModeWrap",
            "cudaStream_t",
            "CUDA_SUCCESS",
            "CUDA_VERSION",
        }
    )
    assert gen.heuristic_kind("cudaError", "Data types", "runtime", types) == "type"
    assert gen.heuristic_kind("cudaErrorMemoryAllocation", "Data types", "runtime", types) == "enum"
    assert gen.heuristic_kind("cudaAddressModeClamp", "Data types", "runtime", types) == "enum"
    assert gen.heuristic_kind("cudaStream_t", "Data types", "runtime", types) == "type"
    assert gen.heuristic_kind("CUDA_SUCCESS", "Data types", "runtime", types) == "enum"
    assert gen.heuristic_kind("CUDA_VERSION", "Data types", "runtime", types) == "macro"
    assert (
        gen.heuristic_kind("cudaMalloc", "Memory Management", "runtime", frozenset()) == "function"
    )
    assert gen.heuristic_kind("CUB_MAX", "CUB Data types", "cub", frozenset()) == "macro"


# --------------------------------------------------------------------------- committed files


def test_committed_mappings_are_up_to_date() -> None:
    """Stale generated files fail: regenerate with tools/gen_mappings.py."""
    tables = _tables_dir()
    if tables is None:
        pytest.skip("HIPIFY tables not found (set HIPIFY_PY_TABLES)")
    command = [
        sys.executable,
        str(GENERATOR),
        "--tables",
        str(tables),
        "--out",
        str(REPO / "mappings"),
        "--check",
        "--quiet",
    ]
    include = gen.cuda_include_from_env()  # a folder, or a list of headers as for verify
    if include is not None:
        command += ["--cuda-include", str(include)]
    else:
        command.append("--ignore-kind")  # kinds need the CUDA headers; compare the rest
    env = {k: v for k, v in os.environ.items() if k != "HIPIFY_PY_CUDA_INCLUDE"}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr[-6000:]


def test_committed_mappings_load() -> None:
    from hipify_py.tables.table import load_directory

    table = load_directory(REPO / "mappings")
    assert len(table.names) > 8000
    assert table.names["cudaMalloc"].hip == "hipMalloc"
    assert table.names["cudaMalloc"].kind == "function"
    assert table.names["CUstream_st"].library == "driver"  # merged duplicate, owner by prefix
    assert "merged" in table.names["CUstream_st"].note
