"""hipify-py prove's runner on a build folder (what --run-prebuilt runs), with
shell scripts standing in for the GPU programs: each run in a fresh folder
with the inputs, the same seed and environment on both sides, written files
kept, timeouts, recordings for a machine without an NVIDIA GPU, reports."""

from __future__ import annotations

import json
import stat
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

from conftest import run_cli

from hip_smoke.prove_run import MANIFEST, run_and_judge

# prints its seed (argument) and environment, reads its input, writes a file
GOOD = """#!/bin/sh
echo "seed $2 env $PROVE_SEED"
echo "bins $(cat data/bins.txt)"
echo "elapsed: $$ ms"
echo "7 8" > out.txt
echo PASS
"""


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def _build(tmp_path: Path, scripts: dict[str, dict[str, str]], **rules: Any) -> Path:
    """A build folder: scripts[program][platform] is the 'binary' of that side."""
    build = tmp_path / "build"
    (build / "inputs" / "p" / "data").mkdir(parents=True)
    (build / "inputs" / "p" / "data" / "bins.txt").write_text("16\n")
    programs = []
    for name, sides in scripts.items():
        entry: dict[str, Any] = {
            "name": name,
            "args": ["--seed", "99"],
            "env": {"PROVE_SEED": "99"},
            "timeout": 5,
            "runs": 2,
            "rules": {"ignore": ["^elapsed:"], "files": ["out.txt"], "exit_code": 0, **rules},
            "inputs": "inputs/p",
            "sides": {},
        }
        for platform, text in sides.items():
            _script(build / platform / name / "prog", text)
            entry["sides"][platform] = {"built": "ok", "binary": f"{platform}/{name}/prog"}
        programs.append(entry)
    (build / MANIFEST).write_text(json.dumps({"schema": 1, "programs": programs}))
    return build


def _everywhere(vendor: str) -> bool:
    return True


def _results(build: Path, **kwargs: Any) -> dict[tuple[str, str], dict[str, Any]]:
    manifest = json.loads((build / MANIFEST).read_text())
    results = run_and_judge(build, manifest, **{"present": _everywhere, **kwargs})
    return {(r["program"], r["platform"]): r for r in results}


def test_same_program_is_the_same_with_its_inputs_seed_and_files(tmp_path: Path) -> None:
    build = _build(tmp_path, {"p": {"cuda": GOOD, "nvidia": GOOD, "amd": GOOD}})
    results = _results(build)
    for platform in ("amd", "nvidia"):
        result = results[("p", platform)]
        assert result["verdict"] == "same", result
        assert (result["original"], result["translation"]) == ("ran", "ran")
        first = result["runs"]["translation"][0]
        assert first["stdout"].startswith("seed 99 env 99\nbins 16\n")
        assert first["files"] == {"out.txt": "NyA4Cg=="}  # base64 of "7 8\n"


def test_a_different_file_and_a_crash_and_a_hang(tmp_path: Path) -> None:
    build = _build(
        tmp_path,
        {
            "p": {"cuda": GOOD, "amd": GOOD.replace("7 8", "7 9")},
            "q": {"cuda": GOOD, "amd": GOOD + "exit 3\n"},
            "r": {"cuda": GOOD, "amd": "#!/bin/sh\nsleep 30\n"},
        },
    )
    results = _results(build)
    p, q, r = results[("p", "amd")], results[("q", "amd")], results[("r", "amd")]
    assert p["verdict"] == "different"
    assert p["difference"]["where"] == "file out.txt line 1"
    assert (p["difference"]["expected"], p["difference"]["got"]) == ("7 8", "7 9")
    assert q["verdict"] == "different" and "exit code 3, expected 0" in q["detail"]
    assert r["verdict"] == "different" and "timed out after 5 s" in r["detail"]


def test_a_program_that_is_not_reproducible_is_flagged(tmp_path: Path) -> None:
    # prints its process id: differs between its own two runs
    noisy = GOOD.replace('echo "elapsed: $$ ms"', 'echo "pid $$"')
    build = _build(tmp_path, {"p": {"cuda": noisy, "nvidia": noisy}})
    result = _results(build)[("p", "nvidia")]
    assert result["verdict"] == "unstable"
    assert "the CUDA original is not reproducible" in result["detail"]
    assert result["difference"]["where"] == "run 1 vs run 2: stdout line 3"
    # masking the number makes it comparable
    build = _build(tmp_path / "masked", {"p": {"cuda": noisy, "nvidia": noisy}}, mask=["pid \\d+"])
    assert _results(build)[("p", "nvidia")]["verdict"] == "same"


def test_recorded_originals_stand_in_where_no_nvidia_gpu_is(tmp_path: Path) -> None:
    build = _build(tmp_path, {"p": {"cuda": GOOD, "amd": GOOD}})
    records = tmp_path / "records"
    _results(build, record_into=records)
    assert json.loads((records / "p.json").read_text())["runs"][0]["exit_code"] == 0
    # an AMD machine: the CUDA original cannot run there
    (build / "cuda" / "p" / "prog").write_text("#!/bin/sh\nexit 99\n")
    manifest = json.loads((build / MANIFEST).read_text())
    results = run_and_judge(build, manifest, present=lambda v: v == "amd", recordings=records)
    assert (results[0]["original"], results[0]["verdict"]) == ("recorded", "same")
    without = run_and_judge(build, manifest, present=lambda v: v == "amd")
    assert without[0]["verdict"] == "not run"
    assert "no recording" in without[0]["detail"]


def test_run_prebuilt_without_a_gpu_writes_the_reports(tmp_path: Path) -> None:
    build = _build(tmp_path, {"p": {"cuda": GOOD, "amd": GOOD, "nvidia": GOOD}})
    manifest = json.loads((build / MANIFEST).read_text())
    manifest["programs"][0]["sides"]["nvidia"] = {
        "built": "skipped",
        "detail": "cublas: hipBLAS built for NVIDIA is not packaged by Debian",
    }
    (build / MANIFEST).write_text(json.dumps(manifest))
    junit, report, markdown = tmp_path / "j.xml", tmp_path / "r.json", tmp_path / "r.md"
    done = run_cli(
        "prove",
        "--run-prebuilt",
        str(build),
        "--junit",
        str(junit),
        "--json",
        str(report),
        "--markdown",
        str(markdown),
        "--report",
        "md",
        env={"PATH": "/usr/bin:/bin"},  # no nvidia-smi: no NVIDIA GPU
    )
    assert done.returncode == 0, done.stderr.decode()
    assert "note: nothing was compared" in done.stderr.decode()
    assert done.stdout.decode() == markdown.read_text()
    data = json.loads(report.read_text())
    verdicts = {r["platform"]: r["verdict"] for r in data["results"]}
    assert verdicts == {"amd": "not run", "nvidia": "skipped"}
    suite = ElementTree.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("skipped"), suite.get("failures")) == ("2", "1", "0")
    skipped = suite.find("testcase[@classname='prove.nvidia']/skipped")
    assert skipped is not None and "hipBLAS built for NVIDIA" in str(skipped.get("message"))
