"""The harness's own logic: comparison, sample definitions, prebuilt runs."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from conftest import run_cli

from hip_smoke.compare import compare, expected_for_platform, normalise
from hip_smoke.prebuilt import run_prebuilt
from hip_smoke.samples_index import SampleError, load_sample, select


def test_normalise_line_endings_and_trailing_blanks() -> None:
    assert normalise("a  \r\nb\r\n\n\n") == ["a", "b"]


def test_numbers_within_tolerance_match_and_text_must_be_equal() -> None:
    assert compare("sum = 1.00001\nPASS\n", ["sum = 1.0", "PASS"], 1e-4) is None
    assert compare("sum = 1.01\nPASS\n", ["sum = 1.0", "PASS"], 1e-4) is not None
    assert compare("sum = 1.0\n", ["sum = 1.0"], 0.0) is None
    assert compare("total = 1.0\n", ["sum = 1.0"], 1.0) is not None
    assert "expected 2 lines" in str(compare("x\n", ["x", "PASS"], 0.0))


def test_platform_dependent_lines() -> None:
    expected = ["warpSize = 32", "warpSize agrees: yes", "PASS"]
    amd = expected_for_platform(expected, ("warpSize",), {"warpSize": {"amd": "64"}}, "amd")
    assert amd == ["warpSize = 64", "warpSize agrees: yes", "PASS"]


def test_malformed_sample_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "sample.yaml").write_text("sources: [missing.cu]\n")
    with pytest.raises(SampleError, match=r"missing\.cu"):
        load_sample(tmp_path / "s")
    with pytest.raises(SampleError, match="no such sample"):
        select(["not-a-sample"])


def test_every_shipped_sample_loads_and_has_a_recording_or_is_compile_only() -> None:
    for sample in select([]):
        assert sample.sources
        assert sample.expected_file("cuda").is_file() or not sample.run, sample.name


def _program(path: Path, output: str, code: int = 0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nprintf '%s' '{output}'\nexit {code}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_prebuilt_run_records_the_original_and_compares_the_translation(tmp_path: Path) -> None:
    build = tmp_path / "build"
    _program(build / "cuda" / "s1" / "prog", "warpSize = 32\nPASS\n")
    _program(build / "nvidia" / "s1" / "prog", "warpSize = 32\nPASS\n")
    _program(build / "cuda" / "s2" / "prog", "x = 1\nPASS\n")
    _program(build / "nvidia" / "s2" / "prog", "x = 2\nFAIL\n", code=1)
    manifest = {
        "values": {"warpSize": {"nvidia": "32", "amd": "64"}},
        "samples": [
            {
                "sample": "s1",
                "run": True,
                "tolerance": 0,
                "platform_dependent": ["warpSize"],
                "expected": None,
            },
            {
                "sample": "s2",
                "run": True,
                "tolerance": 0,
                "platform_dependent": [],
                "expected": None,
            },
        ],
    }
    (build / "manifest.json").write_text(json.dumps(manifest))
    record = tmp_path / "expected"
    results = {
        (r["sample"], r["platform"]): r for r in run_prebuilt(build, ["cuda", "nvidia"], record)
    }
    assert (record / "s1.txt").read_text() == "warpSize = 32\nPASS\n"
    assert results[("s1", "nvidia")]["match"] == "ok"
    assert results[("s2", "nvidia")]["run"] == "failed"
    assert results[("s2", "nvidia")]["match"] == "failed"


def test_table_from_a_results_file(tmp_path: Path) -> None:
    results = tmp_path / "r.json"
    results.write_text(
        json.dumps({"results": [{"sample": "s", "platform": "nvidia", "run": "ok", "match": "ok"}]})
    )
    done = run_cli("smoke", "--table-from", str(results))
    assert done.returncode == 0
    assert b"| s | nvidia | - | - | ok | ok |" in done.stdout


@pytest.mark.parametrize("release", ["5.7", "6.4", "7.2"])
def test_docs_record_every_sample_per_rocm_release(release: str) -> None:
    """docs/smoke.md holds, for each ROCm release, the table `--table-from`
    prints for its results file, and that file covers every sample, each
    compiled or skipped with a reason."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    results_file = docs / f"smoke-rocm-{release}.json"
    done = run_cli("smoke", "--table-from", str(results_file))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() in (docs / "smoke.md").read_text(encoding="utf-8")
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]
    assert sorted(r["sample"] for r in results) == sorted(s.name for s in select([]))
    for result in results:
        compiled = result["compile"]
        assert compiled["status"] == "ok" or (
            compiled["status"] == "skipped" and compiled["detail"]
        )


def test_unknown_sample_exits_2() -> None:
    done = run_cli("smoke", "no-such-sample", "--compile-only")
    assert done.returncode == 2
    assert b"no such sample" in done.stderr


# --- hand ports: sites the translator reports for older HIP, ported as the hint says


def _port_sample(tmp_path: Path, source: str, ports: str) -> Path:
    folder = tmp_path / "ported"
    folder.mkdir()
    (folder / "k.cu").write_text(source)
    (folder / "sample.yaml").write_text(f"description: d\nsources: [k.cu]\nhand_ports:\n{ports}")
    return folder


_VOTE = "__global__ void k(unsigned long long* o, int p) { *o = __ballot_sync(0x0000ffff, p); }\n"
_PORT = (
    '  - {source: k.cu, below: "6.2", code: HPY402, find: "__ballot_sync(0x0000ffff, p)",'
    ' replace: "(__ballot(p) & (0x0000ffff))"}\n'
)


def test_hand_port_applies_where_the_translator_reports(tmp_path: Path) -> None:
    from hip_smoke.harness import OK, translate_sample
    from hip_smoke.samples_index import load_sample

    sample = load_sample(_port_sample(tmp_path, _VOTE, _PORT))
    out = tmp_path / "out"
    out.mkdir()
    step = translate_sample(sample, out, "5.7")
    assert step.status == OK and "1 reported site" in step.detail
    assert "*o = (__ballot(p) & (0x0000ffff));" in (out / "k.cu").read_text()
    # HIP 6.2 keeps the _sync call: the port does not apply and is not needed
    step = translate_sample(sample, out, "6.2")
    assert step.status == OK and "__ballot_sync(0x0000ffffULL, p)" in (out / "k.cu").read_text()


def test_stale_or_ambiguous_hand_port_fails_the_translate_step(tmp_path: Path) -> None:
    from hip_smoke.harness import FAILED, translate_sample
    from hip_smoke.samples_index import load_sample

    full = _VOTE.replace("0x0000ffff", "0xffffffff")  # translated: nothing is reported
    stale_port = _PORT.replace("0x0000ffff", "0xffffffff")
    sample = load_sample(_port_sample(tmp_path, full, stale_port))
    out = tmp_path / "out"
    out.mkdir()
    step = translate_sample(sample, out, "5.7")
    assert step.status == FAILED and "stale" in step.detail
