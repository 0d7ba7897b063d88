"""Content-hash cache of translations: a second run over an unchanged tree
parses nothing.

Key: sha256 of (cache format, tool version, mapping-table digest, options,
file bytes).  Value: the FileResult (output bytes, diagnostics, stats,
references), pickled.  Entries live under ``<cache dir>/results/`` (the same
folder as the compiled table: ``$HIPIFY_PY_CACHE_DIR``, else
``$XDG_CACHE_HOME/hipify-py``), are written atomically, and an entry that
cannot be read or does not match is ignored and rebuilt, never trusted.
The project-name prescan (project_names.scan_file) is cached the same way.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

from . import __version__
from .engine import FileResult
from .options import Options
from .table import MappingTable
from .table_cache import cache_dir

FORMAT = 2  # 2: FileResult.edits


class ResultCache:
    def __init__(self, table: MappingTable, folder: Path | None = None) -> None:
        self.folder = (folder or cache_dir()) / "results"
        self.salt = f"{FORMAT}\0{__version__}\0{table.digest}\0".encode()

    def key(self, kind: str, data_hash: str, options: Options | None = None) -> str:
        h = hashlib.sha256(self.salt + kind.encode() + b"\0")
        if options is not None:
            h.update(options.cache_key().encode())
        h.update(b"\0" + data_hash.encode())
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.pickle"

    def get(self, key: str, expect: type) -> Any:
        try:
            with open(self._path(key), "rb") as handle:
                stored_key, value = pickle.load(handle)
        except Exception:  # missing, truncated, from another version: a miss
            return None
        if stored_key != key or not isinstance(value, expect):
            return None
        return value

    def put(self, key: str, value: Any) -> None:
        target = self._path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".entry-", suffix=".tmp", dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    pickle.dump((key, value), handle, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, target)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            pass  # an unwritable cache only costs speed

    def result(self, data_hash: str, options: Options) -> FileResult | None:
        found = self.get(self.key("result", data_hash, options), FileResult)
        return found if isinstance(found, FileResult) else None

    def store_result(self, data_hash: str, options: Options, result: FileResult) -> None:
        self.put(self.key("result", data_hash, options), result)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
