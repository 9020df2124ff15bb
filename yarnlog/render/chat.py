"""A recap cut into chat messages: each within a chat service's limit (2,000 characters), cut between
paragraphs, or between sentences when one paragraph alone is longer, never inside a word."""

from __future__ import annotations

import re

#: The longest message a chat service takes (Discord's limit).
LIMIT = 2000


def _pieces(paragraph: str, limit: int) -> list[str]:
    """A paragraph cut into pieces within ``limit``: at sentence ends, else at spaces."""
    if len(paragraph) <= limit:
        return [paragraph]
    out: list[str] = []
    current = ""
    for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
        words = [sentence] if len(sentence) <= limit else sentence.split(" ")
        for word in words:
            candidate = f"{current} {word}" if current else word
            if len(candidate) <= limit:
                current = candidate
            else:
                out.append(current)
                current = word[:limit]
    return [*out, current] if current else out


def messages(text: str, limit: int = LIMIT) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, paragraphs kept whole where they fit."""
    out: list[str] = []
    current = ""
    for paragraph in (p.strip() for p in re.split(r"\n\s*\n", text)):
        if not paragraph:
            continue
        for piece in _pieces(paragraph, limit):
            candidate = f"{current}\n\n{piece}" if current else piece
            if len(candidate) <= limit:
                current = candidate
            else:
                out.append(current)
                current = piece
    return [*out, current] if current else out


#: The line between two messages in ``recap --format chat``: post each part as its own message.
SEPARATOR = "\n\n-- 8< --\n\n"


def chat_text(text: str, limit: int = LIMIT) -> str:
    """The messages of ``text``, with :data:`SEPARATOR` between them."""
    return SEPARATOR.join(messages(text, limit)) + "\n"


def _table_lines(rows: list[str]) -> list[str]:
    """A Markdown table as one line per row: ``Bryn: Level 2, Good 0, Bad 1``."""
    cells = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]
    header, body = cells[0], [row for row in cells[1:] if not all(set(cell) <= set("-: ") for cell in row)]
    return [f"{row[0]}: " + ", ".join(f"{name} {value}" for name, value in zip(header[1:], row[1:]) if value)
            for row in body]


def chat_markdown(markdown: str) -> str:
    """A Markdown recap as a chat shows it: fenced blocks (Mermaid diagrams) left out, HTML blocks too,
    and each table told as one line per row; for a ruleset that has no chat template of its own."""
    out: list[str] = []
    table: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or line.lstrip().startswith("<"):
            continue
        if line.lstrip().startswith("|"):
            table.append(line)
            continue
        if table:
            out += _table_lines(table)
            table = []
        out.append(line)
    if table:
        out += _table_lines(table)
    return "\n".join(out)
