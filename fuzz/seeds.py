"""Fill fuzz/corpus/ (ignored by git) with seed inputs for fuzz_engine.py: the
fixtures' inputs and the hip_smoke samples, each with a zero options byte."""

from __future__ import annotations

import hashlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    corpus = REPO / "fuzz" / "corpus"
    corpus.mkdir(exist_ok=True)
    sources = [*REPO.glob("fixtures/*/input.*"), *REPO.glob("hip_smoke/samples/*/*.cu")]
    for path in sources:
        data = path.read_bytes()[:8000]
        for flags in (0, 1, 2):
            blob = bytes([flags]) + data
            (corpus / hashlib.sha256(blob).hexdigest()[:16]).write_bytes(blob)
    print(f"{len(sources) * 3} seeds in {corpus}")


if __name__ == "__main__":
    main()
