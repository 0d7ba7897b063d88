"""`hipify-py check`: the CI migration check, run for real (the CLI in a
subprocess) on small trees, plus the pure parts of hipify_py.report.check."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from conftest import run_cli

from hipify_py.report.baseline import parse_shard, shard_of
from hipify_py.report.check import CheckError, fingerprint
from hipify_py.rules.catalogue import CATALOGUE

CUDA = """\
#include <cuda_runtime.h>
int main() {
  float* d;
  cudaMalloc(&d, 16);
  cudaFree(d);
  return 0;
}
"""

UNSUPPORTED = """\
#include <hip/hip_runtime.h>
int main() {
  cudaInitDevice(0, 0, 0);
  return 0;
}
"""

HAZARD = """\
#include <hip/hip_runtime.h>
__global__ void k(int* out) {
  int lane = threadIdx.x % 32;
  out[lane] = 1;
}
"""

HIP = """\
#include <hip/hip_runtime.h>
int main() {
  float* d;
  hipMalloc(&d, 16);
  hipFree(d);
  return 0;
}
"""


def _tree(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)  # the root reports are relative to
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _check(root: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return run_cli("check", *args, cwd=cwd or root)


def _json(root: Path, *args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    result = _check(root, *args, "--format", "json", cwd=cwd)
    assert result.returncode in (0, 1), result.stderr.decode()
    return result.returncode, json.loads(result.stdout)


def _findings(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for file in document["files"] for f in file["findings"]]


# --------------------------------------------------------------------------- text


def test_text_lists_file_line_and_name_and_exits_1(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/kernel.cu": CUDA, "src/clean.cpp": HIP})
    result = _check(root, "src")
    out = result.stdout.decode()
    assert result.returncode == 1, out + result.stderr.decode()
    assert "src/kernel.cu:4:3: warning:" in out and "cudaMalloc" in out and "[HPY100]" in out
    assert "src/kernel.cu:1:10:" in out and "<cuda_runtime.h>" in out
    assert "src/clean.cpp" not in out.split("\n\n")[0]  # a clean file has no section
    assert re.search(r"^\s+runtime\s+3\s+0\s+0$", out, re.MULTILINE), out  # by library
    assert "2 files (1 clean), 3 findings (3 warnings); 3 failing (--fail-on warning)" in out


def test_hip_only_file_passes(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"ok.cu": HIP})
    result = _check(root, "ok.cu")
    assert result.returncode == 0, result.stdout.decode()
    assert "0 findings" in result.stdout.decode()


def test_unsupported_api_and_hazards_are_findings(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"u.cu": UNSUPPORTED, "h.cu": HAZARD})
    _, document = _json(root, ".")
    codes = {(f["path"], f["code"], f.get("name", "")) for f in _findings(document)}
    assert ("u.cu", "HPY101", "cudaInitDevice") in codes
    assert ("h.cu", "HPY420", "") in codes
    unsupported = next(f for f in _findings(document) if f["code"] == "HPY101")
    assert unsupported["severity"] == "error" and unsupported["library"] == "runtime"
    assert document["summary"]["by_library"]["runtime"]["unsupported"] == 1


def test_notes_only_with_notes(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"d.cu": "void f() { cudaThreadSynchronize(); }\n"})
    _, plain = _json(root, ".")
    assert all(f["severity"] != "info" for f in _findings(plain))
    code, noted = _json(root, ".", "--notes", "--ignore", "HPY100")
    notes = [f for f in _findings(noted) if f["severity"] == "info"]
    assert notes and all(not f["failing"] for f in notes)
    assert code == 0  # notes never fail


# --------------------------------------------------------------------------- formats


def test_json_document(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": CUDA})
    code, document = _json(root, ".")
    assert code == 1 and document["exit_code"] == 1
    assert document["tool"]["name"] == "hipify-py" and document["fail_on"] == "warning"
    (file,) = document["files"]
    assert file["path"] == "a.cu"
    malloc = next(f for f in file["findings"] if f.get("name") == "cudaMalloc")
    assert malloc == {
        "path": "a.cu",
        "line": 4,
        "column": 3,
        "code": "HPY100",
        "rule": "translatable-cuda-reference",
        "severity": "warning",
        "message": malloc["message"],
        "name": "cudaMalloc",
        "library": "runtime",
        "hip": "hipMalloc",
        "fingerprint": malloc["fingerprint"],
        "baselined": False,
        "failing": True,
    }
    assert re.fullmatch(r"[0-9a-f]{32}", malloc["fingerprint"])
    assert len({f["fingerprint"] for f in file["findings"]}) == len(file["findings"])
    assert document["summary"]["findings"] == 3 and document["summary"]["failing"] == 3


def test_sarif_has_the_structure_code_scanning_requires(tmp_path: Path) -> None:
    root = _tree(
        tmp_path, {"src/a.cu": CUDA, "src/u.cu": UNSUPPORTED, "src/h.cu": HAZARD, "ok.cpp": HIP}
    )
    # run from a subfolder: locations stay relative to the repository root
    result = _check(root, ".", "--format", "sarif", cwd=root / "src")
    assert result.returncode == 1, result.stderr.decode()
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0"
    assert sarif["$schema"].endswith("sarif-2.1.0.json")
    (run,) = sarif["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "hipify-py" and driver["version"]
    # informationUri and helpUri come from the package metadata (tests/test_sarif.py)
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(CATALOGUE)
    for rule in rules:
        assert rule["id"] and rule["name"]
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    results = run["results"]
    assert {r["ruleId"] for r in results} >= {"HPY100", "HPY101", "HPY420"}
    for entry in results:
        assert rules[entry["ruleIndex"]]["id"] == entry["ruleId"]
        assert entry["level"] in ("error", "warning", "note")
        assert entry["message"]["text"]
        (location,) = entry["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert uri.startswith("src/") and "\\" not in uri and not uri.startswith("/")
        assert physical["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert physical["region"]["startLine"] >= 1 and physical["region"]["startColumn"] >= 1
        assert entry["partialFingerprints"]["hipifyPy/v1"]
        assert "baselineState" not in entry
    malloc = next(r for r in results if r.get("properties", {}).get("cudaName") == "cudaMalloc")
    region = malloc["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (4, 3)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    assert run["invocations"][0]["executionSuccessful"] is True


def test_github_annotations(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/a.cu": CUDA, "src/h.cu": HAZARD})
    result = _check(root, "src", "--format", "github")
    assert result.returncode == 1
    lines = result.stdout.decode().splitlines()
    assert (
        "::error file=src/a.cu,line=4,col=3,title=HPY100 translatable-cuda-reference::"
        in "\n".join(lines)
    )
    commands = [line for line in lines if line.startswith("::")]
    assert len(commands) == 4
    for line in commands:
        assert re.fullmatch(
            r"::error file=src/[ah]\.cu,line=\d+,col=\d+,title=HPY\d+ [\w.-]+::.+", line
        )
    assert "%25 32" in "\n".join(commands)  # "% 32" escaped as workflow commands need
    # with --fail-on error nothing fails: the same findings become warnings
    relaxed = _check(root, "src", "--format", "github", "--fail-on", "error")
    assert relaxed.returncode == 0
    assert all(
        line.startswith("::warning ")
        for line in relaxed.stdout.decode().splitlines()
        if line.startswith("::")
    )


def test_junit_parses_with_a_suite_per_file(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": CUDA, "u.cu": UNSUPPORTED, "ok.cpp": HIP})
    result = _check(root, ".", "--format", "junit", "--fail-on", "error")
    assert result.returncode == 1
    suites = ET.fromstring(result.stdout)
    assert suites.tag == "testsuites"
    by_name = {suite.get("name"): suite for suite in suites.findall("testsuite")}
    assert set(by_name) == {"a.cu", "u.cu", "ok.cpp"}
    clean = by_name["ok.cpp"].findall("testcase")
    assert len(clean) == 1 and not list(clean[0])  # one passing testcase
    unsupported = by_name["u.cu"]
    assert unsupported.get("failures") == "1"
    failure = unsupported.find("testcase/failure")
    assert failure is not None and failure.get("type") == "HPY101"
    assert "u.cu:3:3" in (failure.text or "")
    a_cases = by_name["a.cu"].findall("testcase")
    assert len(a_cases) == 3 and all(c.find("skipped") is not None for c in a_cases)
    assert suites.get("tests") == "5" and suites.get("failures") == "1"
    # with the default --fail-on warning, translatable references are failures
    strict = ET.fromstring(_check(root, ".", "--format", "junit").stdout)
    assert strict.get("failures") == "4"


def test_output_file(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": CUDA})
    result = _check(root, ".", "--format", "sarif", "--output", "out/report.sarif")
    assert result.returncode == 2  # the folder does not exist
    (root / "out").mkdir()
    result = _check(root, ".", "--format", "sarif", "--output", "out/report.sarif")
    assert result.returncode == 1 and result.stdout == b""
    assert json.loads((root / "out" / "report.sarif").read_text())["version"] == "2.1.0"


# --------------------------------------------------------------------------- exit codes


def test_fail_on_levels(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"w.cu": CUDA, "e.cu": UNSUPPORTED})
    assert _check(root, "w.cu").returncode == 1  # default: warning
    assert _check(root, "w.cu", "--fail-on", "warning").returncode == 1
    assert _check(root, "w.cu", "--fail-on", "error").returncode == 0
    assert _check(root, "e.cu", "--fail-on", "error").returncode == 1
    assert _check(root, ".", "--fail-on", "never").returncode == 0
    assert _check(root, ".", "--fail-on", "sometimes").returncode == 2


def test_usage_and_input_errors_exit_2(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": HIP})
    missing = _check(root, "nope.cu")
    assert missing.returncode == 2 and b"nope.cu" in missing.stderr
    (root / "bad.json").write_text("{not json")
    bad = _check(root, ".", "--baseline", "bad.json")
    assert bad.returncode == 2 and b"not valid JSON" in bad.stderr
    absent = _check(root, ".", "--baseline", "absent.json")
    assert absent.returncode == 2 and b"cannot read baseline" in absent.stderr
    (root / "other.json").write_text('{"version": 7, "findings": []}')
    assert _check(root, ".", "--baseline", "other.json").returncode == 2
    assert _check(root, ".", "--format", "xml").returncode == 2
    empty = _check(root)
    assert empty.returncode == 2 and b"no paths given" in empty.stderr


def test_setup_errors_name_the_check_command(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": HIP})
    empty = _check(root)
    assert empty.returncode == 2
    assert empty.stderr.decode().startswith(
        "hipify-py: error: no paths given (try: hipify-py check src/, "
    )
    (root / "tables").mkdir()
    (root / "tables" / "bad.yaml").write_text("x: [\n")
    broken = _check(root, "a.cu", "--mappings", "tables")
    assert broken.returncode == 2
    assert broken.stderr.decode().startswith("hipify-py: error: mapping tables: ")
    assert "bad.yaml" in broken.stderr.decode() and broken.stdout == b""


def test_suppression_comment_and_ignore(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "a.cu": "void f(float** p) {\n  cudaMalloc(p, 4);  // hipify-py: ignore[HPY100]\n  cudaFree(*p);\n}\n"
        },
    )
    _, document = _json(root, ".")
    assert [f["name"] for f in _findings(document)] == ["cudaFree"]
    code, ignored = _json(root, ".", "--ignore", "HPY100")
    assert code == 0 and _findings(ignored) == []


def test_configuration_paths_and_select(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/a.cu": CUDA, "src/h.cu": HAZARD, "other/b.cu": CUDA})
    (root / "pyproject.toml").write_text('[tool.hipify-py]\npaths = ["src"]\nselect = ["HPY4"]\n')
    _, document = _json(root)
    assert {f["path"] for f in _findings(document)} == {"src/h.cu"}
    assert {f["code"] for f in _findings(document)} == {"HPY420"}
    # flags override the configuration
    _, flagged = _json(root, "--select", "HPY100")
    assert {f["path"] for f in _findings(flagged)} == {"src/a.cu"}


# --------------------------------------------------------------------------- baseline


def test_baseline_ratchet(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/a.cu": CUDA, "src/u.cu": UNSUPPORTED})
    written = _check(root, "src", "--write-baseline", "baseline.json")
    assert written.returncode == 0, written.stderr.decode()
    assert b"4 findings" in written.stderr and written.stdout == b""
    baseline = json.loads((root / "baseline.json").read_text())
    assert baseline["version"] == 1
    entries = baseline["findings"]
    assert len(entries) == 4
    assert entries == sorted(
        entries, key=lambda e: (e["path"], e["code"], e["name"], e["fingerprint"])
    )
    assert {"path", "code", "name", "fingerprint"} == set(entries[0])
    assert (root / "baseline.json").stat().st_mode & 0o044  # readable by others, not 0600

    assert _check(root, "src", "--baseline", "baseline.json").returncode == 0
    # the same findings, moved down by new lines and reindented: still baselined
    moved = "// a comment\n\n" + CUDA.replace("  cudaMalloc", "      cudaMalloc")
    (root / "src" / "a.cu").write_text(moved)
    assert _check(root, "src", "--baseline", "baseline.json").returncode == 0
    # one new finding fails, and only that one
    (root / "src" / "a.cu").write_text(
        moved.replace("  return 0;", "  cudaDeviceSynchronize();\n  return 0;")
    )
    code, document = _json(root, "src", "--baseline", "baseline.json")
    assert code == 1
    failing = [f for f in _findings(document) if f["failing"]]
    assert [f["name"] for f in failing] == ["cudaDeviceSynchronize"]
    assert sum(f["baselined"] for f in _findings(document)) == 4
    text = _check(root, "src", "--baseline", "baseline.json").stdout.decode()
    assert "(baselined)" in text and "1 failing" in text and "4 baselined" in text
    sarif = json.loads(
        _check(root, "src", "--baseline", "baseline.json", "--format", "sarif").stdout
    )
    states = sorted(r["baselineState"] for r in sarif["runs"][0]["results"])
    assert states == ["new", "unchanged", "unchanged", "unchanged", "unchanged"]
    github = _check(
        root, "src", "--baseline", "baseline.json", "--format", "github"
    ).stdout.decode()
    assert [line for line in github.splitlines() if line.startswith("::")] == [
        line for line in github.splitlines() if "cudaDeviceSynchronize" in line
    ]
    # fixing a baselined finding is reported; writing the baseline again tightens it
    (root / "src" / "u.cu").write_text(HIP)
    _, fixed = _json(root, "src", "--baseline", "baseline.json")
    assert fixed["summary"]["stale_baseline"] == 1
    assert _check(root, "src", "--write-baseline", "baseline.json").returncode == 0
    assert len(json.loads((root / "baseline.json").read_text())["findings"]) == 4


def test_baseline_distinguishes_repeated_lines(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": "void f(float** p) {\n  cudaFree(*p);\n}\n"})
    assert _check(root, ".", "--write-baseline", "b.json").returncode == 0
    (root / "a.cu").write_text("void f(float** p) {\n  cudaFree(*p);\n  cudaFree(*p);\n}\n")
    code, document = _json(root, ".", "--baseline", "b.json")
    assert code == 1
    assert [f["failing"] for f in _findings(document)] == [False, True]


def test_write_baseline_refuses_a_shard(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.cu": CUDA})
    result = _check(root, ".", "--shard", "1/2", "--write-baseline", "b.json")
    assert result.returncode == 2 and b"--shard" in result.stderr
    assert not (root / "b.json").exists()


# --------------------------------------------------------------------------- shards


def test_shards_partition_the_files(tmp_path: Path) -> None:
    files = {f"d{i % 3}/f{i}.cu": CUDA if i % 2 else HIP for i in range(11)}
    # a project helper defined in a header and used in another file: a shard
    # that does not contain the definition must not report it as unknown CUDA
    # API (what a source file defines is its own: only headers are shared)
    files["d0/helpers.cuh"] = "#define cudaCheckThing(x) (x)\n"
    files["d1/uses.cu"] = "void f(float** p) { cudaCheckThing(cudaMalloc(p, 4)); }\n"
    root = _tree(tmp_path, files)
    _, whole = _json(root, ".")
    all_paths = sorted(f["path"] for f in whole["files"])
    assert len(all_paths) == len(files)
    all_fingerprints = sorted(f["fingerprint"] for f in _findings(whole))
    assert "HPY102" not in {f["code"] for f in _findings(whole)}
    for count in (1, 2, 3, 5):
        seen: list[str] = []
        fingerprints: list[str] = []
        for index in range(1, count + 1):
            _, part = _json(root, ".", "--shard", f"{index}/{count}")
            assert part["shard"] == [index, count]
            seen += [f["path"] for f in part["files"]]
            fingerprints += [f["fingerprint"] for f in _findings(part)]
        assert sorted(seen) == all_paths, count  # every file exactly once
        assert sorted(fingerprints) == all_fingerprints, count


@pytest.mark.parametrize("value", ["0/3", "4/3", "1/0", "x", "1-3", "-1/3"])
def test_bad_shard_is_a_usage_error(tmp_path: Path, value: str) -> None:
    root = _tree(tmp_path, {"a.cu": HIP})
    result = _check(root, ".", "--shard", value)
    assert result.returncode == 2
    assert b"--shard" in result.stderr


def test_shard_of_and_parse_shard() -> None:
    paths = [f"p{i:02}" for i in range(10)][::-1]
    parts = [shard_of(paths, i, 3) for i in (1, 2, 3)]
    flat = sorted(p for part in parts for p in part)
    assert flat == list(range(10))
    assert [len(p) for p in parts] == [4, 3, 3]
    assert parse_shard("2/4") == (2, 4) and parse_shard(" 1 / 1 ") == (1, 1)
    for bad in ("0/1", "2/1", "a/b", "3"):
        with pytest.raises(CheckError):
            parse_shard(bad)


def test_fingerprint_ignores_line_numbers_and_spacing_only() -> None:
    a = fingerprint("src/a.cu", "HPY100", "cudaMalloc", b"cudaMalloc(&d, 16);", 0)
    assert a == fingerprint("src/a.cu", "HPY100", "cudaMalloc", b"cudaMalloc(&d, 16);", 0)
    assert a != fingerprint("src/b.cu", "HPY100", "cudaMalloc", b"cudaMalloc(&d, 16);", 0)
    assert a != fingerprint("src/a.cu", "HPY100", "cudaMalloc", b"cudaMalloc(&d, 32);", 0)
    assert a != fingerprint("src/a.cu", "HPY100", "cudaMalloc", b"cudaMalloc(&d, 16);", 1)


def test_check_is_listed_in_help() -> None:
    result = run_cli("--help")
    assert b"check" in result.stdout
    sub = run_cli("check", "--help")
    assert sub.returncode == 0
    for option in (b"--format", b"--baseline", b"--write-baseline", b"--fail-on", b"--shard"):
        assert option in sub.stdout


# ------------------------------------------------- check agrees with the translator

WARP_SYNC = """\
__global__ void k(float* x) {
  unsigned long long m = __ballot_sync(0xffffffff, x[0] > 0);
  x[0] = m;
}
"""


@pytest.mark.parametrize("hip_version", [None, "6.2", "5.7"])
def test_translated_warp_sync_code_checks_clean(tmp_path: Path, hip_version: str | None) -> None:
    """HPY100 is what the translator would change: after `hipify-py X` (any target
    HIP version), `hipify-py check X` at the same version finds nothing."""
    root = _tree(tmp_path, {"k.cu": WARP_SYNC})
    version = ["--hip-version", hip_version] if hip_version else []
    code, before = _json(root, "k.cu", *version)
    names = {f.get("name") for f in _findings(before) if f["code"] == "HPY100"}
    assert code == 1
    if hip_version == "5.7":  # the mask-less legacy form: the name itself changes
        assert "__ballot_sync" in names
        (ballot,) = [f for f in _findings(before) if f.get("name") == "__ballot_sync"]
        assert ballot["hip"] == "__ballot"
    else:  # HIP >= 6.2 keeps __ballot_sync; only the mask is widened
        assert "__ballot_sync" not in names
        assert any("0xffffffffffffffffULL" in f["message"] for f in _findings(before))
    translated = run_cli("k.cu", "-q", *version, cwd=root)
    assert translated.returncode == 0, translated.stderr.decode()
    again = run_cli("k.cu", "--check", "-q", *version, cwd=root)
    assert again.returncode == 0, again.stderr.decode()
    code, after = _json(root, "k.cu", *version)
    assert code == 0, _findings(after)
    assert _findings(after) == []


def test_no_reference_is_left_after_translating_every_fixture(tmp_path: Path) -> None:
    """Every fixture input, translated by the CLI, then checked: no HPY100 left."""
    from conftest import REPO

    tree = tmp_path / "tree"
    (tmp_path / ".git").mkdir()
    for fixture in sorted((REPO / "fixtures").iterdir()):
        for source in fixture.glob("input.*"):
            (tree / fixture.name).mkdir(parents=True)
            (tree / fixture.name / source.name).write_bytes(source.read_bytes())
    for version in ([], ["--hip-version", "5.7"]):
        done = run_cli("tree", "-q", "--no-cache", *version, cwd=tmp_path)
        assert done.returncode in (0, 1), done.stderr.decode()
        code, document = _json(tmp_path, "tree", "--select", "HPY100", *version)
        assert _findings(document) == [], [
            (f["path"], f["line"], f["message"]) for f in _findings(document)
        ]
        assert code == 0


def test_paths_and_fingerprints_do_not_depend_on_the_current_folder(tmp_path: Path) -> None:
    """`hipify-py check /abs/repo/src --baseline /abs/repo/base.json` finds the
    same paths and fingerprints from any folder."""
    repo = _tree(tmp_path / "repo", {"src/kernel.cu": CUDA})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    src = str(repo / "src")
    baseline = repo / "base.json"
    written = _check(repo, src, "--write-baseline", str(baseline), cwd=repo)
    assert written.returncode == 0, written.stderr.decode()
    documents = {}
    for cwd in (repo, repo / "src", elsewhere, Path("/")):
        code, document = _json(repo, src, "--baseline", str(baseline), cwd=cwd)
        assert code == 0, (cwd, _findings(document))
        documents[str(cwd)] = sorted((f["path"], f["fingerprint"]) for f in _findings(document))
        assert all(f["baselined"] for f in _findings(document))
    assert len({repr(found) for found in documents.values()}) == 1, documents
    assert {path for path, _ in documents[str(repo)]} == {"src/kernel.cu"}
    sarif = _check(repo, src, "--format", "sarif", cwd=elsewhere)
    (run,) = json.loads(sarif.stdout)["runs"]
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    assert uris == {"src/kernel.cu"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.as_uri() + "/"


def test_output_files_get_the_usual_permissions(tmp_path: Path) -> None:
    """-o of check and report: 0666 less the umask for a new file (not mkstemp's
    0600); an existing file keeps its mode."""
    import os
    import sys

    from conftest import REPO

    root = _tree(tmp_path, {"a.cu": CUDA})
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for args, name in (
        (["check", "a.cu", "-o", "c.txt"], "c.txt"),
        (["report", "a.cu", "-o", "r.html", "--format", "html"], "r.html"),
        (["check", "a.cu", "--write-baseline", "b.json"], "b.json"),
    ):
        command = " ".join([sys.executable, "-m", "hipify_py", *args])
        done = subprocess.run(
            ["sh", "-c", f"umask 022 && {command}"], cwd=root, env=env, capture_output=True
        )
        assert done.returncode in (0, 1), done.stderr.decode()
        assert (root / name).stat().st_mode & 0o777 == 0o644, name
        (root / name).chmod(0o640)
        done = subprocess.run(["sh", "-c", f"umask 022 && {command}"], cwd=root, env=env)
        assert (root / name).stat().st_mode & 0o777 == 0o640, name
