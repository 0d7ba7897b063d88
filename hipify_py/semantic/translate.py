"""One file through the clang engine: libclang's facts, then the shared rules
(engine.translate_bytes), with the content-hash result cache.

The cache key holds what the answer depends on besides the file's bytes and
the options: the engine, the file's path (its includes are found from it, and
compile_commands.json has flags per file), every flag clang gets, and the
libclang version.  The entry also lists the project headers the translation
unit read, with their sha256; it is used only while they are unchanged.  A
file that fell back to the default engine is not cached (the missing header
may appear).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from hipify_py.engine.options import Options
from hipify_py.engine.source import inspect
from hipify_py.engine.translate import FileResult, translate_bytes
from hipify_py.project.result_cache import ResultCache, digest
from hipify_py.semantic.setup import ClangSetup
from hipify_py.tables.table import MappingTable

ENGINE = "clang"


def cache_key(
    cache: ResultCache, path: Path, data: bytes, options: Options, setup: ClangSetup
) -> str:
    material = "\0".join(
        [
            ENGINE,
            setup.library_version,
            str(path.resolve()),
            *setup.arguments_for(path.resolve()),
            digest(data),
        ]
    )
    return cache.key(f"{ENGINE}-result", hashlib.sha256(material.encode()).hexdigest(), options)


def _unchanged(dependencies: tuple[tuple[str, str], ...]) -> bool:
    for name, sha in dependencies:
        try:
            with open(name, "rb") as handle:
                if hashlib.sha256(handle.read()).hexdigest() != sha:
                    return False
        except OSError:
            return False
    return True


def translate_file(
    path: Path,
    data: bytes,
    table: MappingTable,
    options: Options,
    setup: ClangSetup,
    cache: ResultCache | None = None,
) -> FileResult:
    """Translate ``data`` (the bytes of ``path``) with the clang engine; a file
    that does not compile is translated by the default engine (HPY701 says why)."""
    if inspect(data).binary_reason is not None:
        return translate_bytes(data, table, options)  # skipped, with its diagnostic
    key = cache_key(cache, path, data, options, setup) if cache is not None else ""
    if cache is not None:
        found = cache.get(key, tuple)
        if (
            found is not None
            and len(found) == 2
            and isinstance(found[1], FileResult)
            and _unchanged(found[0])
        ):
            result: FileResult = found[1]
            result.original = data
            if not result.data:
                result.data = data
            return result
    from hipify_py.semantic.analysis import analyse

    facts = analyse(path, data, setup, table, options)
    result = translate_bytes(data, table, options, facts)
    if cache is not None and not facts.fell_back:
        stored = replace(result, original=b"", data=result.data if result.changed else b"")
        cache.put(key, (facts.dependencies, stored))
    return result
