"""compile_commands.json (-p BUILD_DIR): the flags each file was built with.

Only the flags that change what the preprocessor and the parser see are
kept (-I, -isystem, -iquote, -D, -U, -include, -std); everything else
(nvcc's -gencode and -Xcompiler, optimisation, output files) is build
detail that clang would reject or ignore.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

_PATH_FLAGS = ("-I", "-isystem", "-iquote", "-include", "--include-path")
_VALUE_FLAGS = ("-D", "-U", "--define-macro", "--undefine-macro")
_STD_FLAGS = ("-std", "--std")


@dataclass(frozen=True)
class CompileDatabase:
    source: str  # the compile_commands.json it came from
    entries: tuple[tuple[str, tuple[str, ...]], ...]  # (absolute file, kept flags)

    def flags_for(self, path: Path) -> list[str]:
        """The file's own entry; else the entry of the nearest file (a header
        or a new file gets the flags of its neighbours, as clangd does)."""
        wanted = str(path.resolve())
        best: tuple[int, tuple[str, ...]] = (-1, ())
        for file, flags in self.entries:
            if file == wanted:
                return list(flags)
            shared = len(os.path.commonpath([file, wanted])) if file[:1] == wanted[:1] else 0
            if shared > best[0]:
                best = (shared, flags)
        return list(best[1])


def load_compile_database(build_path: Path) -> CompileDatabase:
    file = build_path / "compile_commands.json" if build_path.is_dir() else build_path
    if not file.is_file():
        raise LookupError(f"-p {build_path}: no compile_commands.json there")
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{file}: not valid JSON: {exc}") from None
    if not isinstance(raw, list):
        raise ValueError(f"{file}: expected a list of compile commands")
    entries = []
    for index, entry in enumerate(raw):
        if not isinstance(entry, dict) or "file" not in entry:
            raise ValueError(f"{file}: entry {index} has no 'file'")
        directory = Path(entry.get("directory") or file.parent)
        if "arguments" in entry:
            words = [str(w) for w in entry["arguments"]]
        else:
            words = shlex.split(str(entry.get("command", "")))
        source = (directory / entry["file"]).resolve()
        entries.append((str(source), tuple(kept_flags(words[1:], directory))))
    return CompileDatabase(str(file), tuple(entries))


def kept_flags(words: list[str], directory: Path) -> list[str]:
    """The preprocessor-relevant flags of one command line, paths made absolute."""
    kept: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        for flag in _PATH_FLAGS:
            if word == flag and index < len(words):
                value, index = words[index], index + 1
            elif word.startswith(flag) and not word.startswith(flag + "-") and word != flag:
                value = word[len(flag) :].lstrip("=")
            else:
                continue
            spelled = "-I" if flag == "--include-path" else flag
            path = value if os.path.isabs(value) else str(directory / value)
            kept += (
                [spelled, path]
                if spelled in ("-isystem", "-iquote", "-include")
                else [spelled + path]
            )
            break
        else:
            for flag in _VALUE_FLAGS:
                if word == flag and index < len(words):
                    value, index = words[index], index + 1
                elif word.startswith(flag) and word != flag and not flag.startswith("--"):
                    value = word[len(flag) :]
                elif flag.startswith("--") and word.startswith(flag + "="):
                    value = word[len(flag) + 1 :]
                else:
                    continue
                kept.append(("-U" if flag in ("-U", "--undefine-macro") else "-D") + value)
                break
            else:
                for flag in _STD_FLAGS:
                    if word.startswith(flag + "="):
                        kept.append("-std=" + word.split("=", 1)[1])
                    elif word == flag and index < len(words):
                        kept.append("-std=" + words[index])
                        index += 1
    return kept
