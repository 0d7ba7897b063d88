"""``hipify-py check``'s baselines (the fingerprints of accepted findings, so CI
fails only on new ones) and shards (one slice of the files per CI job)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from hipify_py.report.check import CheckError, CheckResult, Finding

BASELINE_VERSION = 1


# --------------------------------------------------------------------------- shards


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` -> (I, N), 1 <= I <= N; CheckError otherwise."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if match is None:
        raise CheckError(f"expected I/N (for example 2/4), got {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1:
        raise CheckError(f"the number of shards must be at least 1, got {text!r}")
    if not 1 <= index <= count:
        raise CheckError(f"the shard number must be between 1 and {count}, got {text!r}")
    return index, count


def shard_of(paths: Sequence[str], index: int, count: int) -> list[int]:
    """Positions (into ``paths``) of shard ``index`` of ``count``: the sorted
    paths dealt out in turn, so every file is in exactly one shard and the
    shards differ in size by at most one file."""
    order = sorted(range(len(paths)), key=lambda i: paths[i])
    return sorted(order[i] for i in range(index - 1, len(order), count))


# --------------------------------------------------------------------------- baselines


def baseline_json(findings: Iterable[Finding]) -> str:
    entries = sorted(
        {(f.path, f.code, f.name, f.fingerprint) for f in findings},
    )
    document = {
        "version": BASELINE_VERSION,
        "tool": "hipify-py",
        "findings": [
            {"path": path, "code": code, "name": name, "fingerprint": fp}
            for path, code, name, fp in entries
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def read_baseline(path: Path) -> set[str]:
    """The fingerprints of a baseline file; CheckError if it is missing or malformed."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CheckError(f"cannot read baseline {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CheckError(f"baseline {path} is not valid JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("version") != BASELINE_VERSION:
        raise CheckError(
            f"baseline {path}: not a hipify-py baseline of version {BASELINE_VERSION} "
            "(write one with --write-baseline)"
        )
    entries = document.get("findings")
    if not isinstance(entries, list):
        raise CheckError(f"baseline {path}: 'findings' must be a list")
    fingerprints = set()
    for entry in entries:
        value = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(value, str):
            raise CheckError(f"baseline {path}: every finding needs a 'fingerprint' string")
        fingerprints.add(value)
    return fingerprints


def apply_baseline(result: CheckResult, fingerprints: set[str], source: str) -> None:
    """Mark the findings the baseline knows; count the entries no longer found."""
    result.baseline = source
    seen = set()
    for finding in result.findings:
        if finding.fingerprint in fingerprints:
            finding.baselined = True
            seen.add(finding.fingerprint)
    if result.shard is None:
        result.stale_baseline = len(fingerprints - seen)
