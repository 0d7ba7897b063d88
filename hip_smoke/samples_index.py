"""The sample programs: hip_smoke/samples/<name>/ with sources and sample.yaml."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SAMPLES_DIR = Path(__file__).resolve().parent / "samples"
EXPECTED_DIR = Path(__file__).resolve().parent / "expected"


class SampleError(Exception):
    """A sample folder is malformed (the message names the file)."""


@dataclass(frozen=True)
class HandPort:
    """A site the translator reports and leaves unchanged for older HIP, ported
    by hand as its diagnostic's hint says (what a user does after translating).

    Applied to the translation of ``source`` when the target HIP is below
    ``below``; the translation must report ``code`` on the line holding ``find``.
    """

    source: str
    below: str  # HIP version X.Y
    code: str  # the diagnostic that asks for it (HPY402)
    find: str  # text of the translated file, occurring exactly once
    replace: str
    why: str = ""


@dataclass(frozen=True)
class Sample:
    name: str
    folder: Path
    description: str
    sources: tuple[str, ...]
    libraries: tuple[str, ...] = ()
    run: bool = True
    platform_dependent: tuple[str, ...] = ()
    tolerance: float = 0.0
    notes: str = ""
    hand_ports: tuple[HandPort, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def expected_file(self, platform: str) -> Path:
        """Expected output of the CUDA original (platform-specific file first)."""
        specific = EXPECTED_DIR / f"{self.name}.{platform}.txt"
        return specific if specific.is_file() else EXPECTED_DIR / f"{self.name}.txt"


def load_sample(folder: Path) -> Sample:
    import yaml

    meta_path = folder / "sample.yaml"
    try:
        meta = yaml.safe_load(meta_path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise SampleError(f"{meta_path}: {exc}") from None
    if not isinstance(meta, dict):
        raise SampleError(f"{meta_path}: must be a mapping")
    known = {
        "description",
        "sources",
        "libraries",
        "run",
        "platform_dependent",
        "tolerance",
        "notes",
        "hand_ports",
    }
    unknown = set(meta) - known
    if unknown:
        raise SampleError(f"{meta_path}: unknown key(s): {', '.join(sorted(unknown))}")
    sources = meta.get("sources") or sorted(p.name for p in folder.glob("*.cu"))
    if not isinstance(sources, list) or not sources:
        raise SampleError(f"{meta_path}: 'sources' must list the files to compile")
    for source in sources:
        if not (folder / str(source)).is_file():
            raise SampleError(f"{meta_path}: source {source!r} does not exist")
    return Sample(
        name=folder.name,
        folder=folder,
        description=str(meta.get("description", "")),
        sources=tuple(str(s) for s in sources),
        libraries=tuple(str(lib) for lib in meta.get("libraries") or ()),
        run=bool(meta.get("run", True)),
        platform_dependent=tuple(str(p) for p in meta.get("platform_dependent") or ()),
        tolerance=float(meta.get("tolerance", 0.0) or 0.0),
        notes=str(meta.get("notes", "")),
        hand_ports=_hand_ports(meta.get("hand_ports") or [], meta_path, sources),
    )


_PORT_KEYS = {"source", "below", "code", "find", "replace", "why"}


def _hand_ports(raw: Any, meta_path: Path, sources: list[Any]) -> tuple[HandPort, ...]:
    if not isinstance(raw, list):
        raise SampleError(f"{meta_path}: 'hand_ports' must be a list")
    ports = []
    for entry in raw:
        if (
            not isinstance(entry, dict)
            or set(entry) - _PORT_KEYS
            or not {"source", "below", "code", "find", "replace"} <= set(entry)
        ):
            raise SampleError(
                f"{meta_path}: each hand port needs source, below, code, find, replace (and "
                f"may have why); got {entry!r}"
            )
        if str(entry["source"]) not in {str(s) for s in sources}:
            raise SampleError(f"{meta_path}: hand port source {entry['source']!r} is not a source")
        ports.append(HandPort(**{k: str(v) for k, v in entry.items()}))
    return tuple(ports)


def all_samples(root: Path = SAMPLES_DIR) -> list[Sample]:
    return [
        load_sample(folder)
        for folder in sorted(root.iterdir())
        if (folder / "sample.yaml").is_file()
    ]


def select(names: list[str], root: Path = SAMPLES_DIR) -> list[Sample]:
    """The named samples (folder names or paths), or all of them."""
    if not names:
        return all_samples(root)
    chosen = []
    for name in names:
        path = Path(name)
        folder = path if (path / "sample.yaml").is_file() else root / name
        if not (folder / "sample.yaml").is_file():
            raise SampleError(f"{name}: no such sample (looked for {folder / 'sample.yaml'})")
        chosen.append(load_sample(folder))
    return chosen
