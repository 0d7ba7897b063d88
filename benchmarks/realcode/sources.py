"""The pinned projects: reading projects.yaml, fetching and unpacking the sdists."""

from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PROJECTS_YAML = HERE / "projects.yaml"


@dataclass
class Project:
    name: str
    version: str
    sha256: str
    url: str
    root: str
    units: list[str]
    include: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    cuda_flags: list[str] = field(default_factory=list)
    hip_defines: list[str] = field(default_factory=list)  # the project's own ROCm build's
    # CUDA library headers no Debian package ships, from the pinned NVIDIA
    # wheels (hip_smoke/cuda_wheels.py: "nccl", "cudnn"), for nvcc's targets
    cuda_wheels: list[str] = field(default_factory=list)

    @property
    def archive_name(self) -> str:
        return self.url.rsplit("/", 1)[-1]


@dataclass
class SliceUnit:
    project: str
    unit: str
    expect: dict[str, str]  # release ("cuda", "7.2", "5.7", "nvidia") -> compiled / failed


def load(path: Path = PROJECTS_YAML) -> tuple[list[Project], list[SliceUnit]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    projects = [
        Project(
            name=str(p["name"]),
            version=str(p["version"]),
            sha256=str(p["sha256"]),
            url=str(p["url"]),
            root=str(p.get("root", ".")),
            units=[str(u) for u in p["units"]],
            include=[str(i) for i in p.get("include") or []],
            defines=[str(d) for d in p.get("defines") or []],
            cuda_flags=[str(f) for f in p.get("cuda_flags") or []],
            hip_defines=[str(d) for d in p.get("hip_defines") or []],
            cuda_wheels=[str(w) for w in p.get("cuda_wheels") or []],
        )
        for p in data["projects"]
    ]
    ci = [
        SliceUnit(
            str(u["project"]), str(u["unit"]), {str(k): str(v) for k, v in u["expect"].items()}
        )
        for u in data.get("ci_slice") or []
    ]
    return projects, ci


def cache_dir() -> Path:
    """$HIPIFY_PY_REALCODE_CACHE, else ~/.cache/hipify-py/realcode: its own
    variable, so a run with a throwaway translation cache (the tests') still
    finds the sdists and compile results of earlier runs."""
    base = os.environ.get("HIPIFY_PY_REALCODE_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "hipify-py" / "realcode"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class FetchError(Exception):
    pass


def fetch(project: Project, cache: Path) -> Path:
    """The unpacked sdist (downloaded once, sha256-checked), as a folder in ``cache``."""
    sdists = cache / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    archive = sdists / project.archive_name
    if not archive.is_file() or sha256_of(archive) != project.sha256:
        partial = archive.with_name(archive.name + ".part")
        try:
            with (
                urllib.request.urlopen(project.url, timeout=120) as response,
                partial.open("wb") as out,
            ):
                shutil.copyfileobj(response, out)
        except OSError as exc:
            raise FetchError(f"{project.name}: cannot download {project.url}: {exc}") from exc
        got = sha256_of(partial)
        if got != project.sha256:
            partial.unlink()
            raise FetchError(
                f"{project.name}: {project.url} has sha256 {got}, projects.yaml pins "
                f"{project.sha256}"
            )
        partial.replace(archive)
    unpacked = cache / "src" / f"{project.name}-{project.version}"
    marker = unpacked / ".unpacked"
    if not marker.is_file():
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir(parents=True)
        with tarfile.open(archive) as tar:
            tar.extractall(unpacked, filter="data")
        marker.write_text(project.sha256, encoding="utf-8")
    tops = [p for p in unpacked.iterdir() if p.is_dir()]
    return tops[0] if len(tops) == 1 else unpacked


def unit_files(tree: Path, project: Project) -> list[str]:
    """The project's units, relative to its root, sorted."""
    found: set[str] = set()
    for pattern in project.units:
        found.update(p.relative_to(tree).as_posix() for p in tree.glob(pattern) if p.is_file())
    return sorted(found)
