"""The real-code benchmark's projects (benchmarks/realcode/projects.yaml) and
how they are fetched (sources.py): by package name and version with pip,
checked against the pinned sha256, never from a URL; the development and
validation sets, and the report that keeps the validation set's failures out
of sight.  No toolchain is needed; the fetch test makes its own sdist and
gives it to pip from a local folder (PIP_NO_INDEX, PIP_FIND_LINKS).
"""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO

REALCODE = REPO / "benchmarks" / "realcode"
PROJECTS = REALCODE / "projects.yaml"
sys.path.insert(0, str(REALCODE))

import report  # noqa: E402
import sources  # noqa: E402

# what a download host looks like: a scheme, or a dotted name ending in a
# top-level domain (sources.py, cuda-wheels.txt and the like end otherwise)
HOST = re.compile(
    r"://|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:org|com|net|io|dev|edu|gov|ai|co|cloud|host)\b",
    re.IGNORECASE,
)


def test_projects_yaml_names_no_download_host() -> None:
    text = PROJECTS.read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if HOST.search(line)]
    for needle in ("pythonhosted", "github", "gitlab"):
        assert needle not in text.lower(), needle
    data = yaml.safe_load(text)
    for project in data["projects"]:
        assert "url" not in project, project["name"]
    assert all(not hasattr(p, "url") for p in sources.load()[0])


def test_the_host_pattern_finds_hosts() -> None:
    for line in (
        "url: https://files.example.org/a.tar.gz",
        "from files.pythonhosted.org",
        "see www.example",
        "mirror.example.com/x",
    ):
        assert HOST.search(line), line
    for line in ("sources.py", "hip_smoke/toolchain/cuda-wheels.txt", "ggml-cuda.cu"):
        assert not HOST.search(line), line


def test_every_project_is_in_a_set_and_the_validation_set_is_held_out() -> None:
    projects, ci = sources.load()
    by_set: dict[str, list[str]] = {}
    for project in projects:
        assert project.set in sources.SETS, project.name
        by_set.setdefault(project.set, []).append(project.name)
    assert len(by_set["validation"]) >= 3
    assert len(by_set["dev"]) >= 3
    assert len({p.name for p in projects}) == len(projects)
    # the CI slice is looked at whenever it fails: dev projects only
    assert {u.project for u in ci} <= set(by_set["dev"])


def test_every_project_is_pinned_and_its_fetch_needs_too() -> None:
    data = yaml.safe_load(PROJECTS.read_text(encoding="utf-8"))
    pins = data["fetch_pins"]
    for name in sources.FETCH_BASE:
        assert name in pins, name
    entries = {p["name"]: p for p in data["projects"]}
    for project in sources.load()[0]:
        assert re.fullmatch(r"[0-9a-f]{64}", project.sha256), project.name
        assert project.version and project.units, project.name
        assert set(sources.FETCH_BASE) <= {n.split("==")[0] for n in project.fetch_needs}
        own = [n for n in entries[project.name].get("fetch_needs") or [] if "==" in n]
        for need in project.fetch_needs:
            name, _, version = need.partition("==")
            assert need in own or version == str(pins[name]), need


def test_a_project_without_a_set_or_with_an_unpinned_need_is_refused(tmp_path: Path) -> None:
    entry: dict[str, Any] = {
        "name": "p",
        "version": "1",
        "sha256": "0" * 64,
        "root": ".",
        "units": ["*.cu"],
    }
    path = tmp_path / "projects.yaml"
    path.write_text(yaml.safe_dump({"fetch_pins": {}, "projects": [entry]}), encoding="utf-8")
    with pytest.raises(sources.ProjectsError, match="set must be"):
        sources.load(path)
    entry["set"] = "dev"
    entry["fetch_needs"] = ["numpy"]
    pins = {"pip": "1", "setuptools": "1", "wheel": "1"}
    path.write_text(yaml.safe_dump({"fetch_pins": pins, "projects": [entry]}), encoding="utf-8")
    with pytest.raises(sources.ProjectsError, match="numpy"):
        sources.load(path)
    # a need pinned by the project itself wins over fetch_pins
    entry["fetch_needs"] = ["numpy==2", "setuptools==0.5"]
    path.write_text(yaml.safe_dump({"fetch_pins": pins, "projects": [entry]}), encoding="utf-8")
    project = sources.load(path)[0][0]
    assert project.fetch_needs == ["numpy==2", "pip==1", "setuptools==0.5", "wheel==1"]


def _sdist(folder: Path, name: str, version: str) -> Path:
    """A minimal sdist with one CUDA unit, whose in-tree build backend only
    writes its metadata: pip prepares it with nothing installed."""
    backend = "\n".join(
        [
            "import os",
            "def prepare_metadata_for_build_wheel(directory, config_settings=None):",
            f"    info = '{name.replace('-', '_')}-{version}.dist-info'",
            "    os.makedirs(os.path.join(directory, info))",
            "    with open(os.path.join(directory, info, 'METADATA'), 'w') as out:",
            f"        out.write('Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n')",
            "    return info",
            "def build_wheel(directory, config_settings=None, metadata_directory=None):",
            "    raise NotImplementedError",
            "",
        ]
    )
    files = {
        "pyproject.toml": (
            '[build-system]\nrequires = []\nbuild-backend = "probe_backend"\nbackend-path = ["."]\n'
        ),
        "probe_backend.py": backend,
        "PKG-INFO": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        "csrc/k.cu": "__global__ void k() {}\n",
    }
    archive = folder / f"{name}-{version}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for rel, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{name}-{version}/{rel}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return archive


def test_an_sdist_is_fetched_by_name_and_version_and_checked_against_its_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = tmp_path / "index"
    index.mkdir()
    archive = _sdist(index, "hipify-py-realcode-probe", "1.0")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    # the environment pip prepares the metadata in: this one, not a fetch
    # environment made from PyPI
    monkeypatch.setattr(sources, "fetch_environment", lambda cache, wanted: Path(sys.executable))
    cache = tmp_path / "cache"
    project = sources.Project(
        name="probe",
        package="hipify-py-realcode-probe",
        version="1.0",
        sha256=sources.sha256_of(archive),
        root="csrc",
        units=["*.cu"],
    )
    wrong = dataclasses.replace(project, sha256="0" * 64)
    with pytest.raises(sources.FetchError, match="pip download"):
        sources.fetch(wrong, cache)
    assert not list((cache / "sdists").rglob("*.tar.gz"))

    tree = sources.fetch(project, cache) / project.root
    assert sources.unit_files(tree, project) == ["k.cu"]
    kept = cache / "sdists" / "probe-1.0" / archive.name
    assert sources.sha256_of(kept) == project.sha256
    # fetched once: the cache answers without pip
    archive.unlink()
    (cache / "src").joinpath("probe-1.0", ".unpacked").unlink()
    assert sources.unit_files(sources.fetch(project, cache) / "csrc", project) == ["k.cu"]


def test_an_archive_of_the_url_layout_is_adopted_without_fetching(tmp_path: Path) -> None:
    """Caches filled when sdists came from a URL keep serving."""
    sdists = tmp_path / "sdists"
    sdists.mkdir()
    archive = _sdist(sdists, "hipify_py_realcode_probe", "2.0")
    project = sources.Project(
        name="probe",
        package="hipify-py-realcode-probe",
        version="2.0",
        sha256=sources.sha256_of(archive),
        root=".",
        units=["csrc/*.cu"],
    )
    got = sources.download(project, tmp_path)
    assert got == sdists / "probe-2.0" / archive.name


def _results(name: str, project_set: str, compiled: bool) -> dict[str, Any]:
    failed = {
        "compiled": False,
        "first_error": {
            "file": "secret.cu",
            "line": 3,
            "message": f"{name}-only error",
            "label": "undeclared identifier",
        },
    }
    return {
        "name": name,
        "version": "1",
        "set": project_set,
        "units": [
            {
                "unit": f"{name}.cu",
                "cuda": {"compiled": True},
                "7.2": {"compiled": True} if compiled else failed,
            }
        ],
    }


def test_the_report_shows_both_sets_and_itemizes_the_development_set_only() -> None:
    projects = [
        _results("devproj", "dev", compiled=False),
        _results("heldout", "validation", compiled=False),
        _results("heldout2", "validation", compiled=True),
    ]
    doc: dict[str, Any] = {
        "command": "python benchmarks/realcode/run.py --set all",
        "started": "2026-01-01 00:00 UTC",
        "minutes": 1,
        "hipify_py": "x",
        "targets": ["cuda", "7.2"],
        "sets": ["dev", "validation"],
        "projects": projects,
    }
    page = report.markdown(doc)
    dev = page.index("## Development set")
    validation = page.index("## Validation set")
    assert dev < validation
    assert "| **all** | ROCm 7.2 | 1 | 1 | 0 | 0% | 0 (0) | 1 |" in page[dev:validation]
    assert "| **all** | ROCm 7.2 | 2 | 2 | 1 | 50% | 0 (0) | 1 |" in page[validation:]
    assert "devproj-only error" in page
    assert "heldout-only error" not in page
    # results written before the sets existed are the development set's
    for project in projects:
        del project["set"]
    assert "## Validation set" not in report.markdown(doc)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REALCODE / "run.py"), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_validation_project_is_refused_outside_its_set() -> None:
    held_out = next(p.name for p in sources.load()[0] if p.set == "validation")
    done = _run("--projects", held_out, "--json", "/dev/null", "--md", "/dev/null")
    assert done.returncode == 2
    assert held_out in done.stderr and "--set validation" in done.stderr
