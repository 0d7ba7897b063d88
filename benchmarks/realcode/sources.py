"""The pinned projects: reading projects.yaml, fetching and unpacking the sdists.

An sdist is fetched by package name and version with pip, PyPI's own client
(``pip download --no-deps --no-binary :all: --no-build-isolation
--require-hashes``, the pinned sha256 in a requirements file), never from a
URL: projects.yaml names no host.  pip prepares an sdist's metadata before it
keeps the file, which runs the project's build backend; ``--no-build-isolation``
runs it in a small virtual environment of the cache folder that holds the
backends the project's ``fetch_needs`` name (pinned in ``fetch_pins``), so
that no build requirement (PyTorch, CUDA) is installed for a download.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PROJECTS_YAML = HERE / "projects.yaml"
# the sets a project belongs to: fixes are made looking at the development
# set only; the validation set measures them on projects no one looked at
SETS = ("dev", "validation")
# in every fetch environment, whatever the project's needs
FETCH_BASE = ("pip", "setuptools", "wheel")
ARCHIVES = (".tar.gz", ".tgz", ".tar.bz2", ".zip")


@dataclass
class Project:
    name: str
    version: str
    sha256: str
    root: str
    units: list[str]
    include: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    cuda_flags: list[str] = field(default_factory=list)
    hip_defines: list[str] = field(default_factory=list)  # the project's own ROCm build's
    # CUDA library headers no Debian package ships, from the pinned NVIDIA
    # wheels (hip_smoke/cuda_wheels.py: "nccl", "cudnn"), for nvcc's targets
    cuda_wheels: list[str] = field(default_factory=list)
    set: str = "dev"  # SETS
    # the PyPI package when it is not ``name`` (two projects from one sdist)
    package: str = ""
    # what pip needs to prepare the sdist's metadata (FETCH_BASE and the
    # project's fetch_needs, as NAME==VERSION from fetch_pins unless the
    # project pins a need itself), and the
    # environment variables that let it (CuPy's: no CUDA here)
    fetch_needs: list[str] = field(default_factory=list)
    fetch_vars: dict[str, str] = field(default_factory=dict)

    @property
    def distribution(self) -> str:
        return self.package or self.name


@dataclass
class SliceUnit:
    project: str
    unit: str
    expect: dict[str, str]  # release ("cuda", "7.2", "5.7", "nvidia") -> compiled / failed


class ProjectsError(Exception):
    pass


def load(path: Path = PROJECTS_YAML) -> tuple[list[Project], list[SliceUnit]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    pins = {str(k): str(v) for k, v in (data.get("fetch_pins") or {}).items()}
    projects = [
        Project(
            name=str(p["name"]),
            version=str(p["version"]),
            sha256=str(p["sha256"]),
            root=str(p.get("root", ".")),
            units=[str(u) for u in p["units"]],
            include=[str(i) for i in p.get("include") or []],
            defines=[str(d) for d in p.get("defines") or []],
            cuda_flags=[str(f) for f in p.get("cuda_flags") or []],
            hip_defines=[str(d) for d in p.get("hip_defines") or []],
            cuda_wheels=[str(w) for w in p.get("cuda_wheels") or []],
            set=str(p.get("set", "")),
            package=str(p.get("package", "")),
            fetch_needs=[*FETCH_BASE, *(str(n) for n in p.get("fetch_needs") or [])],
            fetch_vars={str(k): str(v) for k, v in (p.get("fetch_vars") or {}).items()},
        )
        for p in data["projects"]
    ]
    for project in projects:
        if project.set not in SETS:
            raise ProjectsError(
                f"{path}: {project.name}: set must be one of {', '.join(SETS)}, "
                f"not {project.set or 'missing'}"
            )
        # a need may carry its own pin (NAME==VERSION), which wins over fetch_pins
        own = dict(n.split("==", 1) for n in project.fetch_needs if "==" in n)
        names = [n for n in project.fetch_needs if "==" not in n]
        unpinned = [n for n in names if n not in pins and n not in own]
        if unpinned:
            raise ProjectsError(
                f"{path}: {project.name}: fetch_needs not pinned in fetch_pins: "
                + ", ".join(unpinned)
            )
        versions = {**{n: pins[n] for n in names if n not in own}, **own}
        project.fetch_needs = sorted(f"{n}=={v}" for n, v in versions.items())
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


def fetch_environment(cache: Path, wanted: list[str]) -> Path:
    """The python of a virtual environment (in ``cache``, made once) that holds
    the requirements ``wanted`` (NAME==VERSION).  It is made beside its place
    and renamed into it, so that two runs at once never share a half-made one
    (pip runs as ``python -m pip``: nothing in it names its folder)."""
    key = hashlib.sha256("\n".join([sys.version, *wanted]).encode()).hexdigest()[:16]
    folder = cache / "fetch-env" / key
    if (folder / ".complete").is_file():
        return folder / "bin" / "python"
    staged = folder.with_name(f".{key}.{os.getpid()}")
    shutil.rmtree(staged, ignore_errors=True)
    staged.parent.mkdir(parents=True, exist_ok=True)
    steps = [
        [sys.executable, "-m", "venv", str(staged)],
        [str(staged / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check",
         "-q", *wanted],
    ]  # fmt: skip
    try:
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode != 0:
                raise FetchError(
                    f"cannot make the fetch environment {folder} ({' '.join(step[3:])}): "
                    + (done.stdout + done.stderr).strip()[-1500:]
                )
        (staged / ".complete").write_text("\n".join(wanted) + "\n", encoding="utf-8")
        if (folder / ".complete").is_file():  # another run's, made meanwhile
            return folder / "bin" / "python"
        shutil.rmtree(folder, ignore_errors=True)  # left half-made by a killed run
        try:
            staged.rename(folder)
        except OSError:  # another run's came first
            if not (folder / ".complete").is_file():
                raise
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return folder / "bin" / "python"


def _archives(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(ARCHIVES))


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def download(project: Project, cache: Path) -> Path:
    """The project's sdist in ``cache`` (fetched once with pip by name and
    version, sha256-checked by pip and again here)."""
    sdists = cache / "sdists"
    folder = sdists / f"{project.name}-{project.version}"
    if folder.is_dir():
        for archive in _archives(folder):
            if sha256_of(archive) == project.sha256:
                return archive
    # an archive an earlier layout kept directly in sdists/ (fetched from a URL)
    if sdists.is_dir():
        prefix = _normalized(f"{project.distribution}-{project.version}.")
        for archive in _archives(sdists):
            if (
                _normalized(archive.name).startswith(prefix)
                and sha256_of(archive) == project.sha256
            ):
                folder.mkdir(parents=True, exist_ok=True)
                return archive.replace(folder / archive.name)
    python = fetch_environment(cache, project.fetch_needs)
    partial = sdists / f".{project.name}-{project.version}.{os.getpid()}.part"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    requirement = f"{project.distribution}=={project.version}"
    (partial / "requirements.txt").write_text(
        f"{requirement} --hash=sha256:{project.sha256}\n", encoding="utf-8"
    )
    argv = [
        str(python), "-m", "pip", "download", "--disable-pip-version-check",
        "--no-deps", "--no-binary", ":all:", "--no-build-isolation",
        # a newer sdist may ask for a newer Python than the one that fetches;
        # only its metadata is prepared here
        "--ignore-requires-python",
        "--require-hashes", "-r", str(partial / "requirements.txt"),
        "-d", str(partial / "out"),
    ]  # fmt: skip
    done = subprocess.run(
        argv, capture_output=True, text=True, env={**os.environ, **project.fetch_vars}
    )
    got = _archives(partial / "out") if (partial / "out").is_dir() else []
    if done.returncode != 0 or len(got) != 1:
        shutil.rmtree(partial, ignore_errors=True)
        raise FetchError(
            f"{project.name}: pip download {requirement} failed (exit {done.returncode}): "
            + (done.stdout + done.stderr).strip()[-2000:]
        )
    digest = sha256_of(got[0])
    if digest != project.sha256:
        shutil.rmtree(partial, ignore_errors=True)
        raise FetchError(
            f"{project.name}: pip fetched {got[0].name} with sha256 {digest}, "
            f"projects.yaml pins {project.sha256}"
        )
    folder.mkdir(parents=True, exist_ok=True)
    archive = got[0].replace(folder / got[0].name)  # the same bytes if another run's is there
    shutil.rmtree(partial, ignore_errors=True)
    return archive


def fetch(project: Project, cache: Path) -> Path:
    """The unpacked sdist (fetched once, sha256-checked), as a folder in ``cache``."""
    unpacked = cache / "src" / f"{project.name}-{project.version}"
    marker = unpacked / ".unpacked"
    if not marker.is_file() or marker.read_text(encoding="utf-8") != project.sha256:
        archive = download(project, cache)
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir(parents=True)
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zipped:
                zipped.extractall(unpacked)
        else:
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
