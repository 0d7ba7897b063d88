"""The Python API: translate a string or bytes, or a file on disk."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hipify_py.engine.diagnostics import Diagnostic
from hipify_py.engine.options import Options
from hipify_py.engine.stats import Stats
from hipify_py.engine.translate import FileResult, translate_bytes
from hipify_py.project.files import DEFAULT_EXTENSIONS, Discovery, discover
from hipify_py.project.runner import DEFAULT_MAX_BYTES, FileReport, Job, Mode, remove_leftovers, run
from hipify_py.tables.cache import load_table
from hipify_py.tables.table import MappingTable

if TYPE_CHECKING:
    from hipify_py.project.config import Config


@dataclass
class Result:
    """What ``translate`` returns: the output, its diagnostics and stats."""

    text: str | bytes  # same type as the input
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    changed: bool = False
    file: FileResult | None = None


def translate(code: str | bytes, *, table: MappingTable | None = None, **options: Any) -> Result:
    """Translate CUDA source to HIP.

    ``options`` are the fields of :class:`hipify_py.engine.options.Options`, e.g.
    ``translate(src, launch_syntax="hip", hip_version="5.7")``.
    """
    opts = Options.from_kwargs(**options)
    data = code.encode("utf-8") if isinstance(code, str) else code
    result = translate_bytes(data, table or load_table(), opts)
    text: str | bytes = (
        result.data.decode("utf-8", errors="surrogateescape")
        if isinstance(code, str)
        else result.data
    )
    return Result(
        text=text,
        diagnostics=result.diagnostics,
        stats=result.stats,
        changed=result.changed,
        file=result,
    )


def translate_file(
    path: str | Path, *, table: MappingTable | None = None, options: Options | None = None
) -> FileResult:
    """Read one file and translate it (writes nothing; see hipify_py.project.runner)."""
    data = Path(path).read_bytes()
    return translate_bytes(data, table or load_table(), options or Options())


@dataclass
class PathRun:
    """A planned run over files and folders; ``reports()`` does the work."""

    discovery: Discovery
    table: MappingTable
    job: Job
    jobs: int = 0
    # the folders a writing run locks (lock.tree_lock): the project root in
    # place, the output folder with --output-dir; none for the other modes
    lock_roots: tuple[Path, ...] = ()
    removed: list[Path] = field(default_factory=list)  # leftover temporary files deleted
    _held: bool = False

    def reports(self) -> Iterator[FileReport]:
        """Translate every target (writing as the mode says), one report each, in order.

        The project's own CUDA-like helpers (CUDA_CHECK...), found first in the
        files and the local headers they include, are not reported as unknown API.
        A writing run holds the lock of its tree meanwhile (see ``locked``;
        lock.LockHeld at the first report when another run holds it).
        """
        if self._held or not self.lock_roots:
            return run(self.discovery.targets, self.job, self.table, self.jobs, prescan=True)
        return self._locked_reports()

    def _locked_reports(self) -> Iterator[FileReport]:
        with self.locked():
            yield from run(self.discovery.targets, self.job, self.table, self.jobs, prescan=True)

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the tree's lock (raises lock.LockHeld when another writing run
        holds it), and remove the temporary files an interrupted run left."""
        from hipify_py.project.lock import tree_lock

        if self._held:
            yield
            return
        with contextlib.ExitStack() as stack:
            for root in self.lock_roots:
                stack.enter_context(tree_lock(root))
            self._held = True
            try:
                if self.job.mode is Mode.IN_PLACE:
                    self.removed = remove_leftovers(self.discovery.leftovers)
                yield
            finally:
                self._held = False


def translate_paths(
    paths: Iterable[str | Path],
    *,
    mode: Mode | str = Mode.IN_PLACE,
    output_dir: str | Path | None = None,
    jobs: int = 0,
    extensions: Iterable[str] = DEFAULT_EXTENSIONS,
    excludes: Iterable[str] = (),
    use_gitignore: bool = True,
    backup: bool = False,
    copy_other: bool = False,
    table: MappingTable | None = None,
    options: Options | None = None,
    references: bool = False,
    use_cache: bool = True,
    project_headers: bool = True,
    rename: bool = False,
    config_excludes: Iterable[str] = (),
    include_dirs: Iterable[str | Path] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    config: Config | None = None,
) -> PathRun:
    """Plan the translation of files and folders (the function the CLI uses).

    ``excludes`` are relative to each folder given (and to the current folder
    for files given); ``config_excludes`` to the folder of the configuration
    file found from the first path (``[tool.hipify-py] exclude``).
    ``include_dirs``: where project mode looks up ``#include`` names.
    ``max_bytes``: larger files are skipped, unread, and reported (0: no limit).
    ``config``: the configuration (a config.Config, e.g. from ``--config``)
    instead of the one found above the first path.

    Raises files.DiscoveryError for unusable arguments (for example an output
    folder inside the input) and table.TableError for broken tables.
    """
    from hipify_py.project.config import find_config
    from hipify_py.project.files import Excludes

    paths_list = list(paths)
    extensions = tuple(extensions)
    excludes = tuple(excludes)
    if config is None and paths_list:
        config = find_config(Path(paths_list[0]))
    anchored = Excludes()
    if config is not None:
        anchored = anchored.plus(config.root, config_excludes)
    discovery = discover(
        paths_list,
        extensions=extensions,
        excludes=excludes,
        use_gitignore=use_gitignore,
        output_dir=Path(output_dir) if output_dir is not None else None,
        copy_other=copy_other,
        anchored=anchored,
    )
    if (project_headers or rename) and discovery.targets and config is not None:
        from hipify_py.project.headers import IncludeSearch, add_local_headers, project_root

        root = project_root(Path(paths_list[0]), config.path.parent if config.path else None)
        search = IncludeSearch.make(root, (Path(d) for d in include_dirs))
        # --exclude: relative to each folder given and to the current folder
        everywhere = anchored.plus(Path.cwd(), excludes)
        for given in paths_list:
            if Path(given).is_dir():
                everywhere = everywhere.plus(Path(given), excludes)
        if project_headers and Mode(mode) is not Mode.STDOUT:
            # --stdout prints the one file asked for; its headers are not written
            discovery.added_headers += add_local_headers(
                discovery,
                root,
                Path(output_dir) if output_dir is not None else None,
                search=search,
                excludes=everywhere,
            )
        if rename:
            from hipify_py.project.headers import plan_renames

            plan_renames(
                discovery,
                search=search,
                scan_project=Mode(mode) not in (Mode.OUTPUT_DIR, Mode.STDOUT),
                extensions=extensions,
                use_gitignore=use_gitignore,
                excludes=everywhere,
            )
    table = table or load_table()
    options = options or Options()
    job = Job(
        mode=Mode(mode),
        options=options,
        backup=backup,
        references=references,
        use_cache=use_cache,
        max_bytes=max_bytes,
        compat_dir=compat_dir(paths_list, Mode(mode), output_dir) if options.compat else None,
    )
    roots: tuple[Path, ...] = ()
    if job.mode is Mode.IN_PLACE and discovery.targets:
        roots = _write_roots(paths_list, config)
    elif job.mode is Mode.OUTPUT_DIR and output_dir is not None:
        roots = (Path(output_dir),)
    return PathRun(discovery, table, job, jobs, lock_roots=roots)


def _write_roots(paths: list[str | Path], config: Any) -> tuple[Path, ...]:
    """The folders an in-place run may write under: each input's project root
    (its git work tree, else the configuration's folder, else its own folder),
    without those inside another."""
    from hipify_py.project.headers import project_root

    config_root = config.path.parent if config is not None and config.path else None
    roots = {project_root(Path(p), config_root) for p in paths if Path(p).exists()}
    return tuple(sorted(r for r in roots if not any(o != r and o in r.parents for o in roots)))


def compat_dir(paths: list[str | Path], mode: Mode, output_dir: str | Path | None) -> Path | None:
    """Where --compat writes hipify_py_compat.h: the output folder (-o), else
    the folder of the paths given (their common folder when several); None
    for --stdout, which includes it by its plain name."""
    if mode is Mode.STDOUT:
        return None
    if mode is Mode.OUTPUT_DIR and output_dir is not None:
        return Path(os.path.abspath(output_dir))
    folders = [Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent for p in paths]
    if not folders:
        return None
    return Path(os.path.commonpath([str(f) for f in folders]))
