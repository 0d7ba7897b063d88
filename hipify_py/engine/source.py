"""Exact source bytes and the facts about them that must survive translation.

We never decode-and-re-encode: the engine works on bytes, so latin-1 or
Shift-JIS text, a BOM and CRLF line endings come out exactly as they went in
wherever nothing was translated.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class SourceInfo:
    bom: bool
    newline: bytes  # the dominant line ending: b"\n", b"\r\n" or b"\r"
    utf8: bool
    binary_reason: str | None  # why the bytes are not source text, or None


def inspect(data: bytes) -> SourceInfo:
    bom = data.startswith(UTF8_BOM)
    binary_reason: str | None = None
    if data.startswith(_UTF16_BOMS):
        binary_reason = "UTF-16 text is not supported (convert it to UTF-8)"
    elif b"\0" in data:
        binary_reason = "contains NUL bytes (binary file?)"
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    cr = data.count(b"\r") - crlf
    if crlf >= lf and crlf >= cr and crlf:
        newline = b"\r\n"
    elif cr > lf:
        newline = b"\r"
    else:
        newline = b"\n"
    try:
        data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        utf8 = False
    return SourceInfo(bom=bom, newline=newline, utf8=utf8, binary_reason=binary_reason)


@dataclass
class LineIndex:
    """Byte offset -> 1-based (line, column); the column counts characters when
    the line is valid UTF-8 and bytes otherwise."""

    data: bytes
    _starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        starts = [0]
        find = self.data.find
        pos = find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        self._starts = starts

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        start = self._starts[line - 1]
        prefix = self.data[start:offset]
        if line == 1 and prefix.startswith(UTF8_BOM):
            prefix = prefix[len(UTF8_BOM) :]
        try:
            column = len(prefix.decode("utf-8")) + 1
        except UnicodeDecodeError:
            column = len(prefix) + 1
        return line, column

    def offset_of_line(self, line: int) -> int:
        return self._starts[line - 1]

    def line_text(self, line: int) -> bytes:
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.data)
        return self.data[start:end].rstrip(b"\r\n")
