"""Translation rules, one per module.  Each rule is a function of a Context
that appends edits and diagnostics; ``RULES`` is their order of application
(later rules may use facts that earlier ones recorded on the context)."""

from __future__ import annotations

from collections.abc import Callable

from hipify_py.engine.context import Context

Rule = Callable[[Context], None]


def all_rules() -> list[Rule]:
    from hipify_py.rules import (
        arch,
        asm,
        cub_blocks,
        cxx17,
        device_hazards,
        guards,
        half2_minmax,
        hip_paths,
        identifiers,
        includes,
        launch,
        overloads,
        unchecked_errors,
        vector_ops,
        warp,
        warp_size,
        warp_size_constant,
    )

    return [
        identifiers.run,
        half2_minmax.run,
        hip_paths.run,
        guards.run,
        warp.run,
        warp_size.run,
        warp_size_constant.run,
        asm.run,
        device_hazards.run,
        unchecked_errors.run,
        arch.run,
        launch.run,
        cxx17.run,
        cub_blocks.run,
        overloads.run,
        vector_ops.run,
        includes.run,
    ]
