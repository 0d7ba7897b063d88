"""Token-level lexing of preprocessor text (``#define`` bodies).

tree-sitter hands a macro body over as one opaque ``preproc_arg`` node.  To
rename inside it without touching its comments and string literals we find
those spans here.  The lexer is deliberately forgiving: an unterminated string
or comment simply runs to the end of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

# One alternation, tried left to right at each interesting position.
_SPECIAL = re.compile(
    # the lookahead lets the engine skip, in one test, every position where no
    # comment or literal can start (ten times faster on real sources)
    r"""
    (?=[/"'uULR])
    (?:
      (?P<line>//[^\n]*(?:\\\r?\n[^\n]*)*)      # line comment (continued by backslashes)
    | (?P<block>/\*.*?(?:\*/|\Z))               # block comment
    | (?P<raw>(?<![\w])(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\(.*?(?:\)(?P=delim)"|\Z)\w*)
    # a string (its prefix only where no identifier precedes it), with any
    # user-defined-literal suffix ("abc"_sv), which is part of the token
    | (?P<str>(?:(?<![\w])(?:u8|u|U|L))?"(?:[^"\\\n]|\\.|\\\n)*(?:"|$|\Z)\w*)
    | (?P<chr>(?<![\w])(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*(?:'|$|\Z))
    )
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)

IDENTIFIER = re.compile(r"(?<![\w$])[A-Za-z_][A-Za-z0-9_]*")


def opaque_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) for every comment and string/char literal in ``text``.

    ``kind`` is "comment" or "string".  Offsets index ``text``.
    """
    spans: list[tuple[int, int, str]] = []
    for match in _SPECIAL.finditer(text):
        kind = "comment" if match.lastgroup in ("line", "block") else "string"
        spans.append((match.start(), match.end(), kind))
    return spans


def span_kind(spans: list[tuple[int, int, str]], start: int, end: int) -> str | None:
    """The kind of the opaque span that contains [start, end), if any."""
    for s, e, kind in spans:
        if s <= start and end <= e:
            return kind
        if s > start:
            break
    return None


class SpanIndex:
    """Opaque spans of a whole file, searchable by position (bisect)."""

    def __init__(self, text: str) -> None:
        self.spans = opaque_spans(text)
        self.starts = [s for s, _, _ in self.spans]

    def spans_past(self, offset: int) -> bool:
        """Is ``offset`` inside a span that goes on after it (a block comment or a
        string that continues onto the next line)?"""
        import bisect

        index = bisect.bisect_right(self.starts, offset) - 1
        if index < 0:
            return False
        s, e, _ = self.spans[index]
        return s < offset < e

    def kind(self, start: int, end: int) -> str | None:
        import bisect

        index = bisect.bisect_right(self.starts, start) - 1
        if index >= 0:
            s, e, kind = self.spans[index]
            if s <= start and end <= e:
                return kind
        return None


def offsets_of(text: str, word: str) -> list[int]:
    """Every offset of ``word`` in ``text`` (inside longer words too)."""
    found = []
    find = text.find
    pos = find(word)
    while pos != -1:
        found.append(pos)
        pos = find(word, pos + 1)
    return found


def matches_at(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """What ``pattern.finditer(text)`` yields, given every offset where one of
    its (never empty) matches can start, e.g. the offsets of a literal each
    match begins with.  A pattern led by a look-behind, ``\\b``, ``^`` or an
    alternation is tried at every offset of the file; a few anchored tries
    cost far less.  (``match`` at an offset sees the text before it, as
    ``finditer`` does.)"""
    last = 0
    for start in sorted(set(starts)):
        if start < last:
            continue  # inside the previous match: finditer goes on after it
        match = pattern.match(text, start)
        if match is not None:
            yield match
            last = match.end()
