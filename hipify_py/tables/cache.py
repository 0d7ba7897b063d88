"""Fast loading of the mapping table: a pickle keyed by the YAML content hash.

Parsing ~10,000 YAML rows costs most of a second; a pre-commit hook cannot pay
that on every run.  The compiled table is stored under the user cache folder
(``$HIPIFY_PY_CACHE_DIR``, else ``$XDG_CACHE_HOME/hipify-py``, else
``~/.cache/hipify-py``) as ``table-<content sha256>-<folder hash>.pickle``,
written atomically.  A cache file that cannot be read or does not match is
ignored and rebuilt.  The key names the mappings folder too: each row keeps the
``file:line`` it came from (``mappings query`` prints it), and two installations
with identical tables (two virtualenvs) must each show their own files.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from hipify_py.atomic import atomic_write
from hipify_py.tables.table import (
    MappingTable,
    content_digest,
    default_mappings_dir,
    load_directory,
    mapping_files,
)

_MEMO: dict[tuple[str, str], MappingTable] = {}


def cache_dir() -> Path:
    explicit = os.environ.get("HIPIFY_PY_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hipify-py"


def load_table(directory: Path | None = None, use_cache: bool = True) -> MappingTable:
    """Load (and cache) the mapping table of ``directory`` (default: the shipped tables)."""
    directory = directory or default_mappings_dir()
    files = mapping_files(directory)
    digest = content_digest(files)
    key = (str(directory), digest)
    if key in _MEMO:
        return _MEMO[key]
    target = _cache_file(digest, directory)
    table = _read_cache(target, digest) if use_cache else None
    if table is None:
        table = load_directory(directory, digest=digest)
        table.newest_hip_version()  # computed once, kept in the cache
        if use_cache:
            _write_cache(target, table)
    _MEMO[key] = table
    return table


def _cache_file(digest: str, directory: Path) -> Path:
    try:
        folder = str(directory.resolve())
    except OSError:
        folder = str(directory.absolute())
    where = hashlib.sha256(folder.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return cache_dir() / f"table-{digest}-{where}.pickle"


def _read_cache(path: Path, digest: str) -> MappingTable | None:
    try:
        with open(path, "rb") as handle:
            table = pickle.load(handle)
    except Exception:  # missing, truncated or from another version: rebuild
        return None
    if not isinstance(table, MappingTable) or table.digest != digest:
        return None
    return table


def _write_cache(target: Path, table: MappingTable) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        payload = pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL)
        atomic_write(target, payload, durable=False)
    except OSError:
        pass  # a read-only home is no reason to fail; we just load slower
