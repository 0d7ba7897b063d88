"""`hipify-py check --format sarif`: regions with end positions, fixes that are
exactly hipify-py's translation, helpUri from this installation's package
metadata (or none), and the SARIF 2.1.0 structure of every object emitted.
All through the real CLI."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_cli

from hipify_py import __version__

# one line with several non-ASCII characters before the edits (SARIF columns
# count code points), a line with two edits, an unsupported call, a hazard
UNICODE = """\
#include <cuda_runtime.h>
// größe: ü
void f(float* p, size_t n) { /* é ü */ cudaMalloc(&p, n); cudaFree(p); }
void g(void* c, const void* fn) { cudaGetDriverEntryPointByVersion(c, fn, 0); }
__global__ void k(int* out) {
  unsigned m = __ballot_sync(0xffffffff, out[0] > 0);
  int lane = threadIdx.x % 32;
  out[lane] = m;
}
"""


def _tree(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _sarif(root: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = run_cli("check", *args, "--format", "sarif", cwd=root, env=env)
    assert result.returncode in (0, 1), result.stderr.decode()
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _results(document: dict[str, Any]) -> list[dict[str, Any]]:
    (run,) = document["runs"]
    results: list[dict[str, Any]] = run["results"]
    return results


def _region(result: dict[str, Any]) -> dict[str, int]:
    region: dict[str, int] = result["locations"][0]["physicalLocation"]["region"]
    return region


def _text_of(text: str, region: dict[str, int]) -> str:
    """The text a region covers (lines and code-point columns from 1, end exclusive)."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: region["startLine"] - 1])
    start += region["startColumn"] - 1
    end = sum(len(line) + 1 for line in lines[: region["endLine"] - 1])
    end += region["endColumn"] - 1
    return text[start:end]


def apply_fixes(text: str, results: list[dict[str, Any]], uri: str) -> str:
    """Apply every fix of ``results`` for ``uri``, as a SARIF consumer would."""
    replacements = []
    for result in results:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                if change["artifactLocation"]["uri"] != uri:
                    continue
                for replacement in change["replacements"]:
                    region = replacement["deletedRegion"]
                    lines = text.split("\n")
                    start = sum(len(line) + 1 for line in lines[: region["startLine"] - 1])
                    start += region["startColumn"] - 1
                    end = sum(len(line) + 1 for line in lines[: region["endLine"] - 1])
                    end += region["endColumn"] - 1
                    replacements.append((start, end, replacement["insertedContent"]["text"]))
    replacements.sort()
    for (_, end, _), (start, _, _) in itertools.pairwise(replacements):
        assert end <= start, "fixes overlap"
    for start, end, inserted in reversed(replacements):
        text = text[:start] + inserted + text[end:]
    return text


def test_regions_end_where_the_name_ends(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/u.cu": UNICODE})
    results = _results(_sarif(root, "src"))
    text = UNICODE
    by_name = {r.get("properties", {}).get("cudaName"): r for r in results}
    # translatable references and an unsupported API: the region is the name
    for name in ("cudaMalloc", "cudaFree", "cudaGetDriverEntryPointByVersion", "<cuda_runtime.h>"):
        region = _region(by_name[name])
        assert _text_of(text, region) == name, (name, region)
    # a hazard: the span of the node the rule matched, or else its CUDA name
    lane = next(r for r in results if r["ruleId"] == "HPY420")
    assert _text_of(text, _region(lane)) == "threadIdx.x % 32"
    ballot = next(r for r in results if r["ruleId"] == "HPY403")
    assert _text_of(text, _region(ballot)) == "__ballot_sync"
    # the widened mask: the rewritten text itself
    mask = next(r for r in results if r.get("properties", {}).get("cudaName") == "0xffffffff")
    assert _text_of(text, _region(mask)) == "0xffffffff"
    malloc = _region(by_name["cudaMalloc"])
    assert (malloc["startLine"], malloc["startColumn"]) == (3, 40)  # code points, not bytes
    assert malloc["endColumn"] == 40 + len("cudaMalloc")
    for result in results:
        region = _region(result)
        if "endLine" in region:
            assert (region["endLine"], region["endColumn"]) > (
                region["startLine"],
                region["startColumn"],
            )


def test_fixes_are_the_translation(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/u.cu": UNICODE})
    results = _results(_sarif(root, "src"))
    fixed = [r for r in results if "fixes" in r]
    assert {r["ruleId"] for r in fixed} == {"HPY100"}  # only edits known exactly
    # the unsupported API and the hazards have no fix
    assert all("fixes" not in r for r in results if r["ruleId"] != "HPY100")
    malloc = next(r for r in fixed if r["properties"]["cudaName"] == "cudaMalloc")
    (fix,) = malloc["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "src/u.cu", "uriBaseId": "%SRCROOT%"}
    (replacement,) = change["replacements"]
    assert replacement == {
        "deletedRegion": {"startLine": 3, "startColumn": 40, "endLine": 3, "endColumn": 50},
        "insertedContent": {"text": "hipMalloc"},
    }
    # applying every fix gives exactly what hipify-py writes (check does not
    # insert the runtime include)
    out = tmp_path / "out"
    done = run_cli("src", "-o", str(out), "--no-runtime-include", cwd=root)
    assert done.returncode in (0, 1), done.stderr.decode()
    translated = (out / "u.cu").read_text(encoding="utf-8")
    assert translated != UNICODE
    assert apply_fixes(UNICODE, results, "src/u.cu") == translated


def test_fixes_reproduce_the_translation_of_every_fixture(tmp_path: Path) -> None:
    """Over the translation fixtures (140 real-world shapes: includes, launches,
    warp masks, macros, driver API...): for every file whose edits are all
    known exactly, applying the SARIF fixes gives hipify-py's output."""
    src = tmp_path / "src"
    src.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    for folder in sorted((REPO / "fixtures").iterdir()):
        for source in folder.glob("input.*"):
            shutil.copyfile(source, src / f"{folder.name}{source.suffix}")
    results = _results(_sarif(tmp_path, "src", "-j", "2"))
    out = tmp_path / "out"
    done = run_cli("src", "-o", str(out), "--no-runtime-include", "-j", "2", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr.decode()
    compared = differing = 0
    for path in sorted(src.iterdir()):
        uri = f"src/{path.name}"
        mine = [r for r in results if _uri(r) == uri]
        if any(r["ruleId"] == "HPY100" and "fixes" not in r for r in mine):
            continue  # an edit not known exactly (a quoted include the rules name by <...>)
        original = path.read_text(encoding="utf-8", errors="surrogateescape")
        written = out / path.name
        translated = (
            written.read_text(encoding="utf-8", errors="surrogateescape")
            if written.exists()
            else original
        )
        compared += 1
        if apply_fixes(original, mine, uri) != translated:
            differing += 1
            print("differs:", uri)
    assert differing == 0
    assert compared >= 130, compared


def _uri(result: dict[str, Any]) -> str:
    uri: str = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    return uri


# --------------------------------------------------------------------------- helpUri


def _metadata(folder: Path, version: str, *urls: str) -> dict[str, str]:
    """A dist-info for hipify-py in ``folder``, first on the path (the package
    itself still comes from the repository)."""
    info = folder / f"hipify_py-{version}.dist-info"
    info.mkdir(parents=True)
    lines = ["Metadata-Version: 2.1", "Name: hipify-py", f"Version: {version}"]
    lines += [url if url.startswith("Home-page:") else f"Project-URL: {url}" for url in urls]
    (info / "METADATA").write_text("\n".join(lines) + "\n")
    return {"PYTHONPATH": f"{folder}{os.pathsep}{REPO}"}


def test_help_uri_is_the_docs_of_this_version(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t", {"src/a.cu": UNICODE})
    env = _metadata(
        tmp_path / "meta",
        __version__,
        "Documentation, https://example.org/docs",
        "Repository, https://github.com/example/hipify-py.git",
    )
    (run,) = _sarif(root, "src", env=env)["runs"]
    driver = run["tool"]["driver"]
    assert driver["informationUri"] == "https://github.com/example/hipify-py"
    docs = f"https://github.com/example/hipify-py/blob/v{__version__}/docs/diagnostics.md"
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert rules["HPY100"]["helpUri"] == f"{docs}#hpy100-translatable-cuda-reference-warning"
    assert all(rule["helpUri"].startswith(f"{docs}#hpy") for rule in rules.values())
    # the anchors are those of docs/diagnostics.md's headings
    page = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert "\n### HPY100 `translatable-cuda-reference` (warning)\n" in page


def test_help_uri_from_a_home_page_on_gitlab(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t", {"src/a.cu": UNICODE})
    env = _metadata(
        tmp_path / "meta", __version__, "Home-page: https://gitlab.com/example/hipify-py/"
    )
    (run,) = _sarif(root, "src", env=env)["runs"]
    driver = run["tool"]["driver"]
    assert driver["informationUri"] == "https://gitlab.com/example/hipify-py"
    assert driver["rules"][0]["helpUri"] == (
        f"https://gitlab.com/example/hipify-py/-/blob/v{__version__}/docs/diagnostics.md"
        "#hpy001-self-check-failed-error"
    )


@pytest.mark.parametrize(
    ("version", "urls"),
    [
        (__version__, ()),  # no URL in the metadata (as today's pyproject.toml)
        (__version__, ("Tracker, https://github.com/example/hipify-py/issues",)),
        ("0.0.0.dev1", ("Repository, https://github.com/example/hipify-py",)),  # another install
    ],
)
def test_no_help_uri_without_a_repository(
    tmp_path: Path, version: str, urls: tuple[str, ...]
) -> None:
    root = _tree(tmp_path / "t", {"src/a.cu": UNICODE})
    (run,) = _sarif(root, "src", env=_metadata(tmp_path / "meta", version, *urls))["runs"]
    driver = run["tool"]["driver"]
    assert "informationUri" not in driver
    assert all("helpUri" not in rule for rule in driver["rules"])
    assert driver["rules"][0]["help"]["markdown"]  # the help itself is still there


# --------------------------------------------------------------------------- structure
#
# The properties SARIF 2.1.0 (sarif-schema-2.1.0.json) allows on each object
# hipify-py writes (the schema forbids any other: additionalProperties false),
# and those it requires.  No PyPI package ships the schema, so it is checked
# here object by object.

ALLOWED = {
    "log": {"$schema", "version", "runs", "inlineExternalProperties", "properties"},
    "run": {
        "tool",
        "invocations",
        "conversion",
        "language",
        "versionControlProvenance",
        "originalUriBaseIds",
        "artifacts",
        "logicalLocations",
        "graphs",
        "results",
        "automationDetails",
        "runAggregates",
        "baselineGuid",
        "redactionTokens",
        "defaultEncoding",
        "defaultSourceLanguage",
        "newlineSequences",
        "columnKind",
        "externalPropertyFileReferences",
        "threadFlowLocations",
        "taxonomies",
        "addresses",
        "translations",
        "policies",
        "webRequests",
        "webResponses",
        "specialLocations",
        "properties",
    },
    "driver": {
        "guid",
        "name",
        "organization",
        "product",
        "productSuite",
        "shortDescription",
        "fullDescription",
        "fullName",
        "version",
        "semanticVersion",
        "dottedQuadFileVersion",
        "releaseDateUtc",
        "downloadUri",
        "informationUri",
        "globalMessageStrings",
        "notifications",
        "rules",
        "taxa",
        "locations",
        "language",
        "contents",
        "isComprehensive",
        "localizedDataSemanticVersion",
        "minimumRequiredLocalizedDataSemanticVersion",
        "associatedComponent",
        "translationMetadata",
        "supportedTaxonomies",
        "properties",
    },
    "rule": {
        "id",
        "deprecatedIds",
        "guid",
        "deprecatedGuids",
        "name",
        "deprecatedNames",
        "shortDescription",
        "fullDescription",
        "messageStrings",
        "defaultConfiguration",
        "helpUri",
        "help",
        "relationships",
        "properties",
    },
    "result": {
        "ruleId",
        "ruleIndex",
        "rule",
        "kind",
        "level",
        "message",
        "analysisTarget",
        "locations",
        "guid",
        "correlationGuid",
        "occurrenceCount",
        "partialFingerprints",
        "fingerprints",
        "stacks",
        "codeFlows",
        "graphs",
        "graphTraversals",
        "relatedLocations",
        "suppressions",
        "baselineState",
        "rank",
        "attachments",
        "hostedViewerUri",
        "workItemUris",
        "provenance",
        "fixes",
        "taxa",
        "webRequest",
        "webResponse",
        "properties",
    },
    "physicalLocation": {"address", "artifactLocation", "region", "contextRegion", "properties"},
    "artifactLocation": {"uri", "uriBaseId", "index", "description", "properties"},
    "region": {
        "startLine",
        "startColumn",
        "endLine",
        "endColumn",
        "charOffset",
        "charLength",
        "byteOffset",
        "byteLength",
        "snippet",
        "message",
        "sourceLanguage",
        "properties",
    },
    "fix": {"description", "artifactChanges", "properties"},
    "artifactChange": {"artifactLocation", "replacements", "properties"},
    "replacement": {"deletedRegion", "insertedContent", "properties"},
    "artifactContent": {"text", "binary", "rendered", "properties"},
    "message": {"text", "markdown", "id", "arguments", "properties"},
}
REQUIRED = {
    "log": {"version", "runs"},
    "run": {"tool"},
    "driver": {"name"},
    "rule": {"id"},
    "result": {"message"},
    "fix": {"artifactChanges"},
    "artifactChange": {"artifactLocation", "replacements"},
    "replacement": {"deletedRegion"},
}


def _object(kind: str, value: Any) -> None:
    assert isinstance(value, dict), (kind, value)
    assert set(value) <= ALLOWED[kind], (kind, set(value) - ALLOWED[kind])
    assert REQUIRED.get(kind, set()) <= set(value), (kind, value)


def _check_region(region: Any) -> None:
    _object("region", region)
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        if key in region:
            assert isinstance(region[key], int) and region[key] >= 1, region
    if "endLine" in region:
        assert region["endLine"] >= region["startLine"], region
    if region.get("endLine") == region["startLine"] and "endColumn" in region:
        assert region["endColumn"] >= region["startColumn"], region


def validate(document: dict[str, Any]) -> None:
    _object("log", document)
    assert document["version"] == "2.1.0"
    assert len(document["runs"]) == 1
    for run in document["runs"]:
        _object("run", run)
        assert set(run["tool"]) <= {"driver", "extensions", "properties"}
        driver = run["tool"]["driver"]
        _object("driver", driver)
        for rule in driver["rules"]:
            _object("rule", rule)
            for key in ("shortDescription", "fullDescription", "help"):
                _object("message", rule[key])
            if "helpUri" in rule:
                assert rule["helpUri"].startswith("https://")
        assert run["columnKind"] in ("utf16CodeUnits", "unicodeCodePoints")
        for result in run["results"]:
            _object("result", result)
            _object("message", result["message"])
            assert result["level"] in ("none", "note", "warning", "error")
            for location in result["locations"]:
                physical = location["physicalLocation"]
                _object("physicalLocation", physical)
                _object("artifactLocation", physical["artifactLocation"])
                _check_region(physical["region"])
            for fix in result.get("fixes", []):
                _object("fix", fix)
                if "description" in fix:
                    _object("message", fix["description"])
                assert fix["artifactChanges"], fix
                for change in fix["artifactChanges"]:
                    _object("artifactChange", change)
                    _object("artifactLocation", change["artifactLocation"])
                    assert change["replacements"], change
                    for replacement in change["replacements"]:
                        _object("replacement", replacement)
                        _check_region(replacement["deletedRegion"])
                        _object("artifactContent", replacement["insertedContent"])


def test_the_structure_is_sarif_2_1_0(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"src/u.cu": UNICODE})
    document = _sarif(root, "src")
    validate(document)
    assert any("fixes" in r for r in _results(document))
    assert any("endLine" in _region(r) for r in _results(document))
    # and the check is not blind
    broken = json.loads(json.dumps(document))
    broken["runs"][0]["results"][0]["fixes"] = [{"artifactChanges": [{"replacements": []}]}]
    with pytest.raises(AssertionError):
        validate(broken)
    broken = json.loads(json.dumps(document))
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["end"] = 3
    with pytest.raises(AssertionError):
        validate(broken)
