#!/usr/bin/env python3
"""Show what the engine currently makes of a golden fixture, for review.

    python tools/update_fixture.py 012-define-bodies-strings-comments
    python tools/update_fixture.py fixtures/012-* --diff
    python tools/update_fixture.py 012 --write

By default it only prints: the translation on stdout (exact bytes) and the
diagnostics on stderr, or with --diff a unified diff against expected.* and
meta.yaml's diagnostics.  Nothing is written unless --write is given; then the
current translation replaces expected.* and its diagnostics replace the
``diagnostics:`` list of meta.yaml (description, options and compile stay).
Expected outputs are reviewed by hand: never --write without reading the diff.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from hipify_py import Options, load_table, translate_bytes  # noqa: E402

FIXTURES = REPO / "fixtures"
EXPECTED_EXTENSION = {".cu": ".hip", ".cuh": ".cuh", ".cpp": ".cpp", ".h": ".h"}


def find(spec: str) -> Path:
    path = Path(spec)
    if path.is_dir():
        return path.resolve()
    matches = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name.startswith(spec))
    exact = [p for p in matches if p.name == spec]
    if exact:
        return exact[0]
    if len(matches) != 1:
        names = ", ".join(p.name for p in matches) or "none"
        raise SystemExit(f"{spec!r} names {len(matches)} fixtures ({names})")
    return matches[0]


def translate(folder: Path) -> tuple[Path, bytes, list[Any], dict[str, Any]]:
    meta = yaml.safe_load((folder / "meta.yaml").read_text(encoding="utf-8")) or {}
    (source,) = sorted(folder.glob("input.*"))
    options = Options.from_kwargs(**(meta.get("options") or {}))
    result = translate_bytes(source.read_bytes(), load_table(), options)
    target = folder / ("expected" + EXPECTED_EXTENSION[source.suffix])
    diagnostics = sorted(result.diagnostics, key=lambda d: (d.line, d.column, d.code))
    return target, result.data, diagnostics, meta


def diagnostics_block(entries: list[str]) -> str:
    if not entries:
        return "diagnostics: []\n"
    return "diagnostics:\n" + "".join(f'  - "{entry}"\n' for entry in entries)


def write_meta(folder: Path, entries: list[str]) -> None:
    path = folder / "meta.yaml"
    text = path.read_text(encoding="utf-8")
    block = re.compile(r"^diagnostics:.*?(?=^\S)", re.M | re.S)
    if not block.search(text):
        raise SystemExit(f"{path}: no diagnostics: section to replace")
    updated = block.sub(lambda _: diagnostics_block(entries), text, count=1)
    path.write_text(updated, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fixtures", nargs="+", help="fixture folder, name or unique name prefix")
    parser.add_argument(
        "--diff", action="store_true", help="show a diff against expected.* and meta.yaml instead"
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="overwrite expected.* and meta.yaml's diagnostics with the output",
    )
    args = parser.parse_args(argv)
    differs = False
    for spec in args.fixtures:
        folder = find(spec)
        target, output, diagnostics, meta = translate(folder)
        entries = [f"{d.code} {d.line}:{d.column}" for d in diagnostics]
        if args.diff or args.write:
            old = target.read_bytes() if target.exists() else b""
            want = list(meta.get("diagnostics") or [])
            text = list(
                difflib.unified_diff(
                    old.decode("latin-1").splitlines(keepends=True),
                    output.decode("latin-1").splitlines(keepends=True),
                    f"{folder.name}/{target.name} (expected)",
                    f"{folder.name}/{target.name} (current)",
                )
            )
            text += [
                line + "\n"
                for line in difflib.unified_diff(
                    want,
                    entries,
                    f"{folder.name} diagnostics (expected)",
                    f"{folder.name} diagnostics (current)",
                    lineterm="",
                )
            ]
            if text:
                differs = True
                sys.stdout.write("".join(text))
            else:
                print(f"{folder.name}: matches", file=sys.stderr)
            if args.write and text:
                target.write_bytes(output)
                write_meta(folder, entries)
                print(f"{folder.name}: wrote {target.name} and meta.yaml", file=sys.stderr)
            continue
        if len(args.fixtures) > 1:
            print(f"===== {folder.name}/{target.name}", file=sys.stderr)
        sys.stdout.flush()
        sys.stdout.buffer.write(output)
        sys.stdout.buffer.flush()
        for d in diagnostics:
            print(
                f"{folder.name}:{d.line}:{d.column}: {d.code} {d.severity.value}: {d.message}",
                file=sys.stderr,
            )
    return 1 if differs and args.diff and not args.write else 0


if __name__ == "__main__":
    raise SystemExit(main())
