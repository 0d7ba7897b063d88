"""Per-file and aggregate counts (what --stats and the reports print)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Stats:
    converted: Counter[tuple[str, str]] = field(default_factory=Counter)  # (library, kind) -> refs
    unconverted: Counter[str] = field(default_factory=Counter)  # CUDA name -> refs left as is
    unconverted_library: Counter[str] = field(default_factory=Counter)  # library -> refs left
    lines_changed: int = 0
    lines_total: int = 0

    def merge(self, other: Stats) -> None:
        self.converted.update(other.converted)
        self.unconverted.update(other.unconverted)
        self.unconverted_library.update(other.unconverted_library)
        self.lines_changed += other.lines_changed
        self.lines_total += other.lines_total

    @property
    def converted_total(self) -> int:
        return sum(self.converted.values())

    @property
    def unconverted_total(self) -> int:
        return sum(self.unconverted.values())

    def by_library(self) -> dict[str, tuple[int, int]]:
        """library -> (converted, unconverted)."""
        out: dict[str, list[int]] = {}
        for (library, _), count in self.converted.items():
            out.setdefault(library, [0, 0])[0] += count
        for library, count in self.unconverted_library.items():
            out.setdefault(library, [0, 0])[1] += count
        return {k: (v[0], v[1]) for k, v in sorted(out.items())}

    def to_dict(self) -> dict[str, object]:
        by_kind: dict[str, int] = Counter()
        for (_, kind), count in self.converted.items():
            by_kind[kind] += count
        return {
            "converted": self.converted_total,
            "unconverted": self.unconverted_total,
            "lines_changed": self.lines_changed,
            "lines_total": self.lines_total,
            "by_library": {
                k: {"converted": c, "unconverted": u} for k, (c, u) in self.by_library().items()
            },
            "by_kind": dict(sorted(by_kind.items())),
            "unconverted_names": dict(self.unconverted.most_common()),
        }
