"""The mapping-table loader: schema checks with file:line, duplicates, cache."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema
import pytest

from hipify_py.tables.cache import load_table
from hipify_py.tables.table import (
    SCHEMA_FILE,
    SCHEMA_VERSION,
    TEXT_FIELDS,
    VERSION_FIELDS,
    Row,
    TableError,
    load_directory,
)
from hipify_py.tables.versions import parse_version

HEAD = "schema: 1\nlibrary: runtime\nsections:\n  S:\n"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_rows_load_with_derived_status(tmp_path: Path) -> None:
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + '    cudaMalloc: {hip: hipMalloc, kind: function, hip_added: "1.5.0"}\n'
        "    cudaInitDevice: {kind: function}\n",
    )
    table = load_directory(tmp_path)
    assert table.names["cudaMalloc"].hip == "hipMalloc"
    assert table.names["cudaMalloc"].status == "supported"
    assert table.names["cudaMalloc"].origin.endswith("runtime.yaml:5")
    assert table.names["cudaInitDevice"].status == "unsupported"
    assert table.names["cudaInitDevice"].hip is None


def test_duplicate_key_in_one_file_names_both_lines(tmp_path: Path) -> None:
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + "    cudaFree: {hip: hipFree, kind: function}\n"
        "    cudaFree: {hip: hipFree, kind: function}\n",
    )
    with pytest.raises(
        TableError, match=r"runtime\.yaml:6: duplicate key 'cudaFree' \(first at line 5\)"
    ):
        load_directory(tmp_path)


def test_duplicate_name_across_sections_is_rejected(tmp_path: Path) -> None:
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + "    cudaFree: {hip: hipFree, kind: function}\n"
        "  T:\n    cudaFree: {hip: hipFree, kind: function}\n",
    )
    with pytest.raises(TableError, match=r"runtime\.yaml:7: duplicate CUDA name 'cudaFree'"):
        load_directory(tmp_path)


def test_curated_override_must_be_explicit(tmp_path: Path) -> None:
    write(tmp_path, "runtime.yaml", HEAD + "    cudaFree: {kind: function}\n")
    write(tmp_path, "runtime.curated.yaml", HEAD + "    cudaFree: {hip: hipFree, kind: function}\n")
    with pytest.raises(TableError, match="override: true"):
        load_directory(tmp_path)
    write(
        tmp_path,
        "runtime.curated.yaml",
        HEAD + "    cudaFree: {hip: hipFree, kind: function, override: true}\n",
    )
    assert load_directory(tmp_path).names["cudaFree"].hip == "hipFree"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("{hip: hipFree, kind: func}", "field 'kind' must be one of"),
        ("{hip: hipFree, kind: function, colour: red}", "unknown field"),
        ("{hip: hipFree, kind: function, status: unsupported}", "contradicts"),
        ('{hip: hipFree, kind: function, hip_added: "six"}', "not a version"),
        ("{kind: function, status: supported}", "contradicts"),
        ("[1, 2]", "must be a mapping"),
        ('{hip: hipFree, kind: function, value: "1"}', "value is for unsupported macros"),
        ('{kind: function, value: "1"}', "value is for unsupported macros"),
    ],
)
def test_schema_errors_name_file_and_line(tmp_path: Path, row: str, message: str) -> None:
    write(tmp_path, "runtime.yaml", HEAD + f"    cudaFree: {row}\n")
    with pytest.raises(TableError, match=message) as info:
        load_directory(tmp_path)
    assert str(info.value).startswith(str(tmp_path / "runtime.yaml") + ":")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        # wrong type
        ("{hip: [hipFree], kind: function}", "field 'hip' must be a string"),
        ("{hip: hipFree, kind: function, cuda_added: 9.0}", "field 'cuda_added' is not a version"),
        (
            "{hip: hipFree, kind: function, override: yes please}",
            "field 'override' must be true or false",
        ),
        (
            '{hip: hipFree, kind: function, arg_casts: {x: "int*"}}',
            "field 'arg_casts' must map numbers to text",
        ),
        (
            "{hip: hipFree, kind: function, arg_casts: {1: 2}}",
            "field 'arg_casts.1' must map numbers to text",
        ),
        (
            '{hip: hipFree, kind: function, caution: c, arg_from: {3: "f 1"}}',
            "field 'arg_from.3' must be 'callee key take'",
        ),
        # unknown field
        (
            "{hip: hipFree, kind: function, hipp: hipFree2}",
            "row 'cudaFree' has unknown field\\(s\\): hipp",
        ),
        # missing required field
        ("{hip: hipFree}", "row 'cudaFree' misses the required field\\(s\\) 'kind'"),
    ],
)
def test_json_schema_rejects_a_bad_row_at_its_line(tmp_path: Path, row: str, message: str) -> None:
    """The rows are checked against data/mappings.schema.json (jsonschema); the
    error names the file, the row's line, the row and the field."""
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + "    cudaMalloc: {hip: hipMalloc, kind: function}\n" + f"    cudaFree: {row}\n",
    )
    with pytest.raises(
        TableError, match=rf"^{re.escape(str(tmp_path))}/runtime\.yaml:6: .*{message}"
    ):
        load_directory(tmp_path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "schema: 2\nheaders: {}\n",
            r"runtime\.yaml:1: mapping file: field 'schema' must be 1, got 2",
        ),
        (
            "schema: 1\ncolour: red\nheaders: {}\n",
            r"runtime\.yaml:1: mapping file has unknown field\(s\): colour",
        ),
        (
            "library: runtime\nsections: {}\n",
            r"runtime\.yaml:1: mapping file misses the required field\(s\) 'schema'",
        ),
        (
            "schema: 1\nheaders:\n  a.h: {hip: b.h}\n  c.h: {hip: d.h, needs_runtime: 1}\n",
            r"runtime\.yaml:4: header 'c\.h': field 'needs_runtime' must be true or false",
        ),
        (
            "schema: 1\nheaders:\n  a.h: {hip: b.h, hip_added: six}\n",
            r"runtime\.yaml:3: header 'a\.h': field 'hip_added' is not a version",
        ),
        (
            "schema: 1\nlegacy:\n  cublasSscal: {params: 'int n', v2: 'x(n)'}\n  cublasDscal: {params: 'int n'}\n",
            r"runtime\.yaml:4: legacy function 'cublasDscal' misses the required field\(s\) 'v2'",
        ),
        (
            "schema: 1\nlegacy_letters:\n  cublasOperation_t: {NN: CUBLAS_OP_N}\n",
            r"runtime\.yaml:3: legacy_letters 'cublasOperation_t' must map letters to enumerators",
        ),
        (
            "schema: 1\nroc_casts:\n  cublasCgemm_v2: {args: 0, casts: {6: x}}\n",
            r"runtime\.yaml:3: roc_casts 'cublasCgemm_v2': field 'args' must be the number of arguments",
        ),
        (
            "schema: 1\nroc_casts:\n  cublasCgemm_v2: {args: 14, casts: {six: x}}\n",
            r"runtime\.yaml:3: roc_casts 'cublasCgemm_v2': field 'casts' must map numbers to text",
        ),
    ],
)
def test_json_schema_checks_the_file_and_header_rows(
    tmp_path: Path, text: str, message: str
) -> None:
    write(tmp_path, "runtime.yaml", text)
    with pytest.raises(TableError, match=message):
        load_directory(tmp_path)


def test_schema_file_is_a_json_schema_of_the_rows_the_loader_reads() -> None:
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"] == {"const": SCHEMA_VERSION}
    fields = set(schema["$defs"]["row"]["properties"])
    assert set(TEXT_FIELDS + VERSION_FIELDS) <= fields
    assert set(Row._fields) - {"cuda", "library", "section", "origin"} <= fields
    version = re.compile(schema["$defs"]["version"]["pattern"])
    for text in ("1.5", "6.2.0", " 7.0 ", "1.2.3.4", "7.x", "six", "1.2.3.4.5", "", "6."):
        try:
            parse_version(text)
            parsed = True
        except ValueError:
            parsed = False
        assert bool(version.search(text)) == parsed, text


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    write(tmp_path, "runtime.yaml", HEAD + "    cudaFree: {hip: hipFree, kind: function\n")
    with pytest.raises(TableError, match=r"runtime\.yaml:\d+: invalid YAML"):
        load_directory(tmp_path)


def test_non_idempotent_chain_is_rejected(tmp_path: Path) -> None:
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + "    cudaA: {hip: cudaB, kind: function}\n    cudaB: {hip: hipB, kind: function}\n",
    )
    with pytest.raises(TableError, match="idempotent"):
        load_directory(tmp_path)


def test_headers_file(tmp_path: Path) -> None:
    write(tmp_path, "runtime.yaml", HEAD + "    cudaFree: {hip: hipFree, kind: function}\n")
    write(
        tmp_path,
        "includes.yaml",
        "schema: 1\nheaders:\n  cuda_runtime.h: {hip: hip/hip_runtime.h}\n"
        "  mma.h: {hint: use rocWMMA}\n",
    )
    table = load_directory(tmp_path)
    assert table.headers["cuda_runtime.h"].hip == "hip/hip_runtime.h"
    assert table.headers["mma.h"].status == "unsupported"


def test_cache_is_used_and_rebuilt_when_yaml_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(cache))
    tables = tmp_path / "t"
    write(tables, "runtime.yaml", HEAD + "    cudaFree: {hip: hipFree, kind: function}\n")
    assert load_table(tables).names["cudaFree"].hip == "hipFree"
    files = list(cache.glob("table-*.pickle"))
    assert len(files) == 1
    write(tables, "runtime.yaml", HEAD + "    cudaFree: {hip: hipFreeX, kind: function}\n")
    assert load_table(tables).names["cudaFree"].hip == "hipFreeX"
    assert len(list(cache.glob("table-*.pickle"))) == 2


def test_corrupt_cache_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hipify_py.tables.cache as tc

    cache = tmp_path / "cache"
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(cache))
    tables = tmp_path / "t"
    write(tables, "runtime.yaml", HEAD + "    cudaFree: {hip: hipFree, kind: function}\n")
    load_table(tables)
    (entry,) = cache.glob("table-*.pickle")
    entry.write_bytes(b"not a pickle")
    tc._MEMO.clear()
    assert load_table(tables).names["cudaFree"].hip == "hipFree"


def test_shipped_tables_load() -> None:
    table = load_table()
    assert table.names["cudaMalloc"].hip == "hipMalloc"
    assert table.headers["cuda_runtime.h"].hip == "hip/hip_runtime.h"
    assert len(table.names) > 5000


def test_unwritable_cache_folder_does_not_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("HIPIFY_PY_CACHE_DIR", str(blocker / "sub"))
    tables = tmp_path / "t"
    write(tables, "runtime.yaml", HEAD + "    cudaFree: {hip: hipFree, kind: function}\n")
    assert load_table(tables).names["cudaFree"].hip == "hipFree"
    assert os.path.isfile(blocker)


def test_in_call_must_map_prefixes_to_names(tmp_path: Path) -> None:
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + "    CUBLAS_OP_N: {hip: HIPBLAS_OP_N, kind: enum, in_call: [x]}\n",
    )
    with pytest.raises(TableError, match="field 'in_call' must map"):
        load_directory(tmp_path)
    write(
        tmp_path,
        "runtime.yaml",
        HEAD
        + "    CUBLAS_OP_N: {hip: HIPBLAS_OP_N, kind: enum, in_call: {cusolver: HIPSOLVER_OP_N}}\n",
    )
    assert load_directory(tmp_path).names["CUBLAS_OP_N"].in_call == (
        ("cusolver", "HIPSOLVER_OP_N"),
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ('casts_until: "7.0.0"', "casts_until needs arg_casts"),
        ('caution_until: "7.0.0"', "caution_until needs a caution"),
        ('arg_casts: {1: "int*"}, casts_until: "7.x"', "'casts_until' is not a version"),
    ],
)
def test_version_limits_of_casts_and_cautions_need_what_they_limit(
    tmp_path: Path, fields: str, message: str
) -> None:
    write(
        tmp_path,
        "runtime.yaml",
        HEAD + f"    cudaFree: {{hip: hipFree, kind: function, {fields}}}\n",
    )
    with pytest.raises(TableError, match=rf"runtime\.yaml:5: .*{message}"):
        load_directory(tmp_path)


def test_one_list_of_cxx_words_for_the_translator_and_the_verifier() -> None:
    """data/cxx_words.yaml: the words no header declares, read once."""
    from hipify_py.rules.identifiers import is_plain_identifier
    from hipify_py.tables.cxx_words import keywords, reserved
    from hipify_py.tables.verify import identifiers

    assert {"constexpr", "volatile", "alignas", "thread_local", "co_await"} <= keywords()
    assert keywords() < reserved()
    for word in ("constexpr", "volatile", "size_t", "uint64_t", "__global__", "__restrict__"):
        assert not is_plain_identifier(word), word
    assert is_plain_identifier("hipMalloc") and is_plain_identifier("size_type")
    assert identifiers("const engine<false>*") == [("engine", False)]
    assert identifiers("thread_local hipStream_t") == [("hipStream_t", False)]


def test_cxx_words_read_without_pyyaml_as_pyyaml_reads_them() -> None:
    import yaml

    from hipify_py.tables import cxx_words

    doc = yaml.safe_load(cxx_words.WORDS_FILE.read_text(encoding="utf-8"))
    assert cxx_words._groups() == {group: frozenset(words) for group, words in doc.items()}


def test_release_list_read_without_pyyaml_as_pyyaml_reads_it() -> None:
    import yaml

    from hipify_py.engine.hip_target import verified_releases
    from hipify_py.tables.flow_lists import flow_lists
    from hipify_py.tables.versions import parse_version

    path = Path(__file__).resolve().parent.parent / "hipify_py" / "data" / "hip_releases.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert flow_lists(path) == doc
    assert verified_releases() == tuple(sorted(parse_version(v) for v in doc["verified"]))
