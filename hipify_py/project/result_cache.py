"""Content-hash cache of translations: a second run over an unchanged tree
parses nothing.

Key: sha256 of (cache format, tool version, a digest of the package's own
source files, mapping-table digest, options, file bytes): a code change under
the same version never reuses a stale result.  Value: the FileResult (output
bytes, diagnostics, stats, references), pickled, behind a header holding the
sha256 of the pickle; the checksum is verified before anything is unpickled,
so a corrupt or edited entry is a miss, never trusted.  Entries live under
``<cache dir>/results/`` (the same folder as the compiled table:
``$HIPIFY_PY_CACHE_DIR``, else ``$XDG_CACHE_HOME/hipify-py``) and are written
atomically.  The project-name prescan (project_names.scan_file) is cached the
same way.

A run that translates in place also caches each output's own translation (and
name scan): the translated file is the next run's input, and a rerun over the
translated tree then parses nothing (runner._record_output).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path
from typing import Any

from hipify_py import __version__
from hipify_py.atomic import atomic_write
from hipify_py.engine.options import Options
from hipify_py.engine.translate import FileResult
from hipify_py.tables.cache import cache_dir
from hipify_py.tables.table import MappingTable

FORMAT = 3  # 2: FileResult.edits; 3: checksummed entries, keyed by the source digest
_MAGIC = b"hipify-py result v3\n"
_DIGEST_SIZE = 32
PACKAGE = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=1)
def source_digest(package: Path = PACKAGE) -> str:
    """sha256 of the package's own source files (names and bytes), once per
    process: about a millisecond for the ~50 files."""
    digest = hashlib.sha256()
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith((".py", ".yaml")):
                continue
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                data = b"?"
            digest.update(os.path.relpath(path, package).encode("utf-8", "surrogateescape"))
            digest.update(b"\0%d\0" % len(data) + data)
    return digest.hexdigest()


class ResultCache:
    def __init__(self, table: MappingTable, folder: Path | None = None) -> None:
        self.folder = (folder or cache_dir()) / "results"
        self.salt = f"{FORMAT}\0{__version__}\0{source_digest()}\0{table.digest}\0".encode()

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
                blob = handle.read()
        except OSError:  # missing or unreadable: a miss
            return None
        header = len(_MAGIC) + _DIGEST_SIZE
        if not blob.startswith(_MAGIC) or len(blob) <= header:
            return None
        payload = blob[header:]
        if hashlib.sha256(payload).digest() != blob[len(_MAGIC) : header]:
            return None  # corrupt or edited: never unpickled
        try:
            stored_key, value = pickle.loads(payload)
        except Exception:  # from another version of a class: a miss
            return None
        if stored_key != key or not isinstance(value, expect):
            return None
        return value

    def has(self, key: str) -> bool:
        """Whether an entry is stored (not whether it is sound: get() checks that,
        and a bad entry there is a miss)."""
        return os.path.isfile(self._path(key))

    def put(self, key: str, value: Any) -> None:
        target = self._path(key)
        try:
            payload = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
            target.parent.mkdir(parents=True, exist_ok=True)
            entry = _MAGIC + hashlib.sha256(payload).digest() + payload
            atomic_write(target, entry, durable=False)
        except OSError:
            pass  # an unwritable cache only costs speed

    def result(self, data_hash: str, options: Options) -> FileResult | None:
        found = self.get(self.key("result", data_hash, options), FileResult)
        return found if isinstance(found, FileResult) else None

    def store_result(self, data_hash: str, options: Options, result: FileResult) -> None:
        self.put(self.key("result", data_hash, options), result)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
