"""providers.yaml: the loader's `providers:` and `releases:` keys (used by verify)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipify_py.tables.table import TableError, load_directory

RUNTIME = "schema: 1\nlibrary: blas\nsections:\n  S:\n    cublasCreate: {hip: hipblasCreate, kind: function}\n"
INCLUDES = "schema: 1\nheaders:\n  cublas_v2.h: {hip: hipblas/hipblas.h, roc: rocblas/rocblas.h, library: blas}\n"


def tables(folder: Path, providers: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "blas.yaml").write_text(RUNTIME)
    (folder / "includes.yaml").write_text(INCLUDES)
    (folder / "providers.yaml").write_text("schema: 1\n" + providers)
    return folder


def test_providers_and_releases_load(tmp_path: Path) -> None:
    table = load_directory(
        tables(
            tmp_path,
            "providers:\n"
            "  blas: {header: cublas_v2.h, prefixes: {cublasLt: cublasLt.h, cublasLtMatmul: x.h}, roc_defines: {ROCBLAS_BETA: [rocblas_beta_, rocblas_x]}}\n"
            "releases:\n"
            '  hipblas: {version: [hipblasVersionMajor, hipblasVersionMinor], rocm: {"0.54": "5.5.1"}}\n',
        )
    )
    blas = table.providers["blas"]
    assert blas.header == "cublas_v2.h"
    assert blas.prefixes[0] == ("cublasLtMatmul", "x.h")  # longest prefix first
    assert blas.origin.endswith("providers.yaml:3")
    assert blas.roc_defines == (("ROCBLAS_BETA", ("rocblas_beta_", "rocblas_x")),)
    release = table.releases["hipblas"]
    assert release.macros == ("hipblasVersionMajor", "hipblasVersionMinor")
    assert release.rocm == (("0.54", "5.5.1"),)


@pytest.mark.parametrize(
    ("providers", "message"),
    [
        ("providers:\n  blas: {header: cudnn.h}\n", "is not a header of includes.yaml"),
        ("providers:\n  blas: {prefixes: {a: b}}\n", "misses the required field\\(s\\) 'header'"),
        ("providers:\n  blas: {header: cublas_v2.h, colour: red}\n", "unknown field"),
        ("providers:\n  blas: {header: cublas_v2.h, prefixes: [a]}\n", "must map prefix"),
        ("providers: [1]\n", "'providers' must be a mapping"),
        ("providers:\n  blas: {header: cublas_v2.h, roc_defines: {1x: [a]}}\n", "must map macro"),
        ("providers:\n  blas: {header: cublas_v2.h, roc_defines: {X: []}}\n", "must map macro"),
        ("providers:\n  blas: {header: cublas_v2.h, roc_defines: [X]}\n", "must map macro"),
        ("releases:\n  hipblas: {version: x, rocm: {}}\n", "must list macro names"),
        ('releases:\n  hipblas: {version: [a], rocm: {"1.0": "five"}}\n', "not a version"),
        ("releases:\n  hipblas: {version: [a]}\n", "misses the required field\\(s\\) 'rocm'"),
        ("releases:\n  hipblas: {version: [a], rocm: [1]}\n", "field 'rocm' must map version"),
    ],
)
def test_schema_errors_name_file_and_line(tmp_path: Path, providers: str, message: str) -> None:
    with pytest.raises(TableError, match=message) as info:
        load_directory(tables(tmp_path, providers))
    assert str(info.value).startswith(str(tmp_path / "providers.yaml") + ":")


def test_shipped_providers_name_known_headers() -> None:
    from hipify_py.tables.cache import load_table

    table = load_table()
    assert table.providers["blas"].header == "cublas_v2.h"
    assert table.headers[table.providers["dnn"].header].hip == "hipdnn.h"
    assert table.providers["dnn"].roc_defines[0][0] == "MIOPEN_BETA_API"
    assert "hipsolver" in table.releases
    libraries = {row.library for row in table.names.values()}
    assert libraries <= set(table.providers), "every library needs a provider header"
