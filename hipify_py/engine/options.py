"""Translation options: one frozen value passed explicitly everywhere.

(HIPIFY reads global option flags deep inside its code; we do not.)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from hipify_py.tables.versions import Version, parse_version

LAUNCH_SYNTAXES = ("keep", "hip")
FP8_FORMATS = ("fnuz", "ocp")


@dataclass(frozen=True)
class Options:
    hip_version: Version | None = None  # None: the newest release verified (hip_target)
    roc: bool = False  # emit rocBLAS/rocSPARSE/... names where the tables have them
    launch_syntax: str = "keep"  # "keep" <<<...>>> or rewrite to "hip" (hipLaunchKernelGGL)
    rewrite_strings: bool = False  # also rename CUDA names inside string literals
    insert_runtime_include: bool = True
    select: frozenset[str] = field(default_factory=frozenset)  # only these codes (prefixes)
    ignore: frozenset[str] = field(default_factory=frozenset)  # never these codes (prefixes)
    known_names: frozenset[str] = field(default_factory=frozenset)  # project names, not CUDA API
    fix_warp_size: bool = False  # unsafe: replace 32-lane constants with warpSize where provable
    offload_arch: str = "gfx942"  # the AMD target: decides the default fp8 flavour
    fp8: str | None = None  # "fnuz" or "ocp"; None: what offload_arch has in hardware
    annotate: bool = False  # write a comment at each diagnostic's site in the output
    # provide what HIP lacks through hipify_py_compat.h (engine/compat.py) instead of reporting it
    compat: bool = False
    # #include "old" -> "new" for headers renamed by --rename (set per file)
    include_renames: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.fp8 is not None and self.fp8 not in FP8_FORMATS:
            raise ValueError(f"fp8 must be 'fnuz' or 'ocp', got {self.fp8!r}")
        if self.launch_syntax not in LAUNCH_SYNTAXES:
            raise ValueError(
                f"launch_syntax must be one of {', '.join(LAUNCH_SYNTAXES)}, "
                f"got {self.launch_syntax!r}"
            )

    def fp8_flavour(self) -> str:
        """FNUZ on gfx94x (MI300), OCP on later targets (gfx950, gfx12)."""
        if self.fp8 is not None:
            return self.fp8
        return "fnuz" if self.offload_arch.startswith("gfx94") else "ocp"

    def wants(self, code: str) -> bool:
        if self.select and not any(code.startswith(prefix) for prefix in self.select):
            return False
        return not any(code.startswith(prefix) for prefix in self.ignore)

    def cache_key(self) -> str:
        """Stable across processes (sets sorted: their order depends on the hash seed)."""

        cached = self.__dict__.get("_cache_key")
        if isinstance(cached, str):  # once per value: known_names can be large
            return cached

        def stable(value: Any) -> str:
            if isinstance(value, frozenset | set):
                return repr(sorted(value))
            return repr(value)

        key = repr(sorted((k, stable(getattr(self, k))) for k in self.__dataclass_fields__))
        object.__setattr__(self, "_cache_key", key)
        return key

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> Options:
        """Build Options from keyword arguments as a Python caller writes them."""
        if isinstance(kwargs.get("hip_version"), str):
            kwargs["hip_version"] = parse_version(kwargs["hip_version"])
        for key in ("select", "ignore", "known_names"):
            if key in kwargs and not isinstance(kwargs[key], frozenset):
                kwargs[key] = frozenset(kwargs[key])
        unknown = set(kwargs) - set(cls.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**kwargs)

    def with_changes(self, **changes: Any) -> Options:
        return replace(self, **changes)
