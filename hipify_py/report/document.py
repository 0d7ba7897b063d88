"""The migration report as a document: a list of typed blocks (heading,
paragraph, table, list, details, cards, raw HTML) made of typed spans, which
two small renderers write as Markdown and as HTML (report/migration.py builds
the document from a Report).

A span's kind says how each format escapes it: ``text`` is prose whose
balanced `backquoted` pieces are code, ``words`` prose without code spans,
``plain`` a number or a code written as it is in Markdown, ``code`` / ``name``
/ ``path`` code (a CUDA name kept on one line, a path that may break after a
'/'), ``lit`` the report's own trusted wording (its `backquoted` pieces are
code in HTML), ``strong`` bold, ``break`` a line break in HTML.  A block or a
span with ``only`` set appears in that format alone ("md" or "html"): the
Markdown report has a summary table where the page has cards and a chart.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class Span:
    text: str
    kind: str = "lit"
    only: str = ""
    title: str = ""  # HTML: shown on hover


Inline = tuple[Span, ...]


def lit(text: str, only: str = "") -> Span:
    return Span(text, "lit", only)


def plain(text: object, only: str = "", title: str = "") -> Span:
    return Span(str(text), "plain", only, title)


def words(text: str, only: str = "") -> Span:
    return Span(text, "words", only)


def prose(text: str) -> Span:
    return Span(text, "text")


def code(text: str) -> Span:
    return Span(text, "code")


def cuda_name(text: str) -> Span:
    return Span(text, "name")


def file_path(text: str) -> Span:
    return Span(text, "path")


def joined(spans: Sequence[Span], separator: str = ", ", empty: str = "-") -> Inline:
    """``spans`` with ``separator`` between them, or ``empty`` when there are none."""
    if not spans:
        return (lit(empty),)
    out: list[Span] = []
    for index, span in enumerate(spans):
        if index:
            out.append(lit(separator))
        out.append(span)
    return tuple(out)


@dataclass(frozen=True)
class Heading:
    level: int
    text: Inline
    anchor: str = ""  # HTML id
    only: str = ""


@dataclass(frozen=True)
class Paragraph:
    text: Inline
    css: str = ""  # HTML class
    only: str = ""


@dataclass(frozen=True)
class Column:
    title: str
    numeric: bool = False
    css: str = ""  # HTML class of its cells: "path" (breaks after '/'), "names"
    only: str = ""


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: list[tuple[Inline, ...]]
    table_id: str = ""  # HTML id
    only: str = ""


@dataclass(frozen=True)
class BulletList:
    items: list[Inline]
    only: str = ""


@dataclass(frozen=True)
class Details:
    """A folded section in HTML (open when ``opened``); in Markdown its summary
    is a heading of ``md_level`` (0: a paragraph) above the body."""

    summary: Inline
    body: tuple[Block, ...]
    opened: bool = False
    md_level: int = 0
    only: str = ""


@dataclass(frozen=True)
class Cards:
    """Big numbers: (value, what it counts, HTML class of the value)."""

    cards: list[tuple[str, str, str]]
    only: str = "html"


@dataclass(frozen=True)
class Raw:
    """HTML written as it is (an SVG chart)."""

    html: str
    only: str = "html"


Block = Heading | Paragraph | Table | BulletList | Details | Cards | Raw


@dataclass
class Document:
    title: str
    blocks: list[Block] = field(default_factory=list)
    style: str = ""  # the HTML page's CSS


# --------------------------------------------------------------------------- Markdown

_MD_SPECIAL = str.maketrans({**{c: "\\" + c for c in "\\`*[]<>|"}, "\n": " ", "\r": " "})
_MD_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def _md_prose(text: str) -> str:
    return _MD_UNDERSCORE.sub(r"\\_", text.translate(_MD_SPECIAL))


def md_text(text: str) -> str:
    """Text safe in Markdown and in a table cell: markup characters are escaped, and
    balanced `code` spans are kept as code spans (their content is never markup)."""
    pieces = text.split("`")
    if len(pieces) < 3 or len(pieces) % 2 == 0:
        return _md_prose(text)
    return "".join(md_code(p) if i % 2 else _md_prose(p) for i, p in enumerate(pieces))


def md_code(text: str) -> str:
    """``text`` as a code span that survives any backticks in it and table cells."""
    text = " ".join(text.splitlines()).replace("|", "\\|")
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_table(header: list[str], rows: list[list[str]], right: set[int] | None = None) -> str:
    right = right or set()
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|")
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines) + "\n"


_MD_SPANS: dict[str, Callable[[str], str]] = {
    "text": md_text,
    "words": md_text,
    "plain": str,
    "code": md_code,
    "name": md_code,
    "path": md_code,
    "lit": str,
    "strong": lambda text: f"**{text}**",
    "break": lambda text: "",
}


def _md_inline(spans: Inline) -> str:
    return "".join(_MD_SPANS[s.kind](s.text) for s in spans if s.only != "html")


def _md_block(block: Block) -> list[str]:
    """The block's pieces of the page (joined by newlines)."""
    if block.only == "html":
        return []
    if isinstance(block, Heading):
        return [f"{'#' * block.level} {_md_inline(block.text)}\n"]
    if isinstance(block, Paragraph):
        return [f"{_md_inline(block.text)}\n"]
    if isinstance(block, Table):
        kept = [i for i, c in enumerate(block.columns) if c.only != "html"]
        return [
            md_table(
                [block.columns[i].title for i in kept],
                [[_md_inline(row[i]) for i in kept] for row in block.rows],
                {n for n, i in enumerate(kept) if block.columns[i].numeric},
            )
        ]
    if isinstance(block, BulletList):
        return [*(f"- {_md_inline(item)}" for item in block.items), ""]
    if isinstance(block, Details):
        summary = _md_inline(block.summary)
        head = f"{'#' * block.md_level} {summary}\n" if block.md_level else f"{summary}\n"
        return [head, *(piece for b in block.body for piece in _md_block(b))]
    return []  # cards and raw HTML are the page's alone


def render_markdown(document: Document) -> str:
    out = [piece for block in document.blocks for piece in _md_block(block)]
    return "\n".join(out).rstrip("\n") + "\n"


# --------------------------------------------------------------------------- HTML


def html_escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def html_text(text: str) -> str:
    """Escaped text, with balanced `code` spans shown as <code>."""
    pieces = text.split("`")
    if len(pieces) < 3 or len(pieces) % 2 == 0:
        return html_escape(text)
    return "".join(
        f"<code>{html_escape(p)}</code>" if i % 2 else html_escape(p) for i, p in enumerate(pieces)
    )


def html_path(text: str) -> str:
    """A path as code that may break after each '/' and nowhere else."""
    return "<code>" + "/<wbr>".join(html_escape(part) for part in text.split("/")) + "</code>"


def _html_lit(text: str) -> str:
    """The report's own wording: written as it is, `backquoted` pieces as code."""
    pieces = text.split("`")
    if len(pieces) < 3 or len(pieces) % 2 == 0:
        return text
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


_HTML_SPANS: dict[str, Callable[[str], str]] = {
    "text": html_text,
    "words": html_escape,
    "plain": html_escape,
    "code": lambda text: f"<code>{html_escape(text)}</code>",
    "name": lambda text: f'<code class="name">{html_escape(text)}</code>',  # kept on one line
    "path": html_path,
    "lit": _html_lit,
    "strong": lambda text: f"<b>{html_escape(text)}</b>",
    "break": lambda text: "<br>",
}


def _html_span(span: Span) -> str:
    shown = _HTML_SPANS[span.kind](span.text)
    return f'<span title="{html_escape(span.title)}">{shown}</span>' if span.title else shown


def _html_inline(spans: Inline) -> str:
    return "".join(_html_span(s) for s in spans if s.only != "md")


def _html_table(table: Table) -> str:
    kept = [i for i, c in enumerate(table.columns) if c.only != "md"]

    def klass(column: Column) -> str:
        if column.numeric:
            return ' class="n"'
        return f' class="{column.css}"' if column.css else ""

    columns = [table.columns[i] for i in kept]
    head = "".join(f"<th{klass(c)}>{html_escape(c.title)}</th>" for c in columns)
    body = "".join(
        "<tr>"
        + "".join(f"<td{klass(table.columns[i])}>{_html_inline(row[i])}</td>" for i in kept)
        + "</tr>\n"
        for row in table.rows
    )
    ident = f' id="{html_escape(table.table_id)}"' if table.table_id else ""
    return (
        f'<div class="scroll"><table{ident}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}'
        "</tbody>\n</table></div>\n"
    )


def _html_block(block: Block) -> list[str]:
    """The block's pieces of the page (joined by newlines)."""
    if block.only == "md":
        return []
    if isinstance(block, Heading):
        ident = f' id="{html_escape(block.anchor)}"' if block.anchor else ""
        return [f"<h{block.level}{ident}>{_html_inline(block.text)}</h{block.level}>"]
    if isinstance(block, Paragraph):
        css = f' class="{block.css}"' if block.css else ""
        return [f"<p{css}>{_html_inline(block.text)}</p>"]
    if isinstance(block, Table):
        return [_html_table(block)]
    if isinstance(block, BulletList):
        return ["<ul>" + "".join(f"<li>{_html_inline(i)}</li>" for i in block.items) + "</ul>"]
    if isinstance(block, Details):
        opened = " open" if block.opened else ""
        return [
            f"<details{opened}><summary>{_html_inline(block.summary)}</summary>",
            *(piece for b in block.body for piece in _html_block(b)),
            "</details>",
        ]
    if isinstance(block, Cards):
        cards = []
        for value, what, css in block.cards:
            klass = f' class="{css}"' if css else ""
            shown = f"<b{klass}>{html_escape(value)}</b><span>{html_escape(what)}</span>"
            cards.append(f'<div class="card">{shown}</div>')
        return ['<div class="cards">', *cards, "</div>"]
    return [block.html]


def render_html(document: Document) -> str:
    """One self-contained page: no script, no outside resource (the CSP says so)."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html_escape(document.title)}</title>",
        f"<style>{document.style}</style>",
        "</head>",
        "<body>",
        *(piece for block in document.blocks for piece in _html_block(block)),
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"
