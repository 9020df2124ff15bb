"""User text is data: made literal for Markdown output, sanitized when Markdown becomes HTML.

Names, notes and situations are typed at the table. In a Markdown recap a name like
``**x**``, ``<script>`` or ``[a](javascript:alert(1))`` must read as those characters, never as
emphasis, raw HTML or a link; in an HTML page a note written in Markdown may keep its emphasis
and lists, but raw HTML in it never passes through and a link keeps only a safe scheme.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element

import markdown
import nh3
from markdown.treeprocessors import Treeprocessor

from yarnlog.core.visible import pictured

#: C0 and C1 control characters but tab and newline: they never reach a terminal, a file or a page
#: raw (an escape sequence in a name could rewrite the reader's terminal); nor do the bidirectional
#: embeddings, overrides and isolates, which make the text after them display in another order
#: than it is written ("Trojan Source"): a recap printed to a terminal or opened in a browser would lie.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

#: Characters with a meaning anywhere in a line of CommonMark/GFM: code spans, emphasis, links and
#: images (no link or image without an unescaped ``[``), raw HTML and autolinks, entities, table
#: cells, strikethrough, and the escape itself. Parentheses and ``!`` need none once ``[`` is
#: escaped, and are left as they are, so a pasted recap reads cleanly as plain text too.
_INLINE = re.compile(r"[\\`*_\[\]<>&|~]")

#: Those written as character references rather than backslash-escaped: Python-Markdown (which
#: MkDocs and many wikis use) does not take a backslash before them, and would show it, or decode
#: an entity the user typed; a reference reads as the very character in every engine, table
#: cells included.
_REFERENCES = {"<": "&lt;", ">": "&gt;", "&": "&amp;", "|": "&#124;", "~": "&#126;"}

#: What makes a block of a line's start: headings, lists, quotes, rules, numbered lists.
_LINE_START = re.compile(r"^(\s*)([#+\-=>]|\d+[.)])")

#: The HTML a note written in Markdown may become: text formatting, lists, quotes, code, links.
_TAGS = {"p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a", "hr",
         "h1", "h2", "h3", "h4", "h5", "h6", "del", "table", "thead", "tbody", "tr", "th", "td"}
_ATTRIBUTES = {"a": {"href", "title"}}
_SCHEMES = {"http", "https", "mailto"}


class MarkdownSafe(str):
    """Markdown a template built itself (a link, emphasis it chose): written out as it is."""


def plain_text(text: object) -> str:
    """``text`` as a string without control characters or bidirectional overrides (tab and newline kept)."""
    return _CONTROL.sub("", str(text))


def markdown_literal(text: object) -> str:
    """``text`` as Markdown that renders as exactly these characters, on one line, each control
    character shown as its picture (an escape as U+241B), as a terminal shows it.

    Every character with a Markdown or HTML meaning is backslash-escaped (CommonMark lets any
    ASCII punctuation be escaped so) or, for ``< > & | ~``, written as a character reference; a
    line's opening ``#``, ``-``, ``1.``... is escaped too, and line breaks become spaces, so a
    value can sit in a list item or a table cell without opening a block.
    """
    if isinstance(text, MarkdownSafe):
        return text
    one_line = " ".join(pictured(_CONTROL, str(text)).split())
    escaped = _INLINE.sub(lambda m: _REFERENCES.get(m.group()) or "\\" + m.group(), one_line)
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if len(m.group(2)) == 1
                           else m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], escaped)


class _NoRawHtml(markdown.Extension):
    """Python-Markdown without its raw-HTML passes: ``<b>`` in a note stays the text ``<b>``."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


class _SafeLinks(markdown.Extension):
    """A link keeps only an http(s) or mailto target, and says where it goes beside its text (a
    link's text may say anything): ``[web](http://x.example/y)`` reads "web (x.example)"."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.treeprocessors.register(_LinkTargets(md), "link_targets", 5)  # after the inline patterns (20)


class _LinkTargets(Treeprocessor):
    def run(self, root: Element) -> None:
        for link in root.iter("a"):
            target = _link_target(link.get("href", ""))
            if target is None:  # not a link a reader may follow: its text alone stays
                link.tag = "span"
                link.attrib.clear()
            elif target != "".join(link.itertext()) and link.get("href") != "".join(link.itertext()):
                link.tail = f" ({target})" + (link.tail or "")


def _link_target(href: str) -> str | None:
    """Where ``href`` goes as a reader should see it (the host, or a mail address), or ``None`` when
    it is no http(s) or mailto link."""
    try:
        parts = urlsplit(href.strip())
        host = parts.hostname
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        return host or None
    if scheme == "mailto" and parts.path:
        return parts.path
    return None


def _safe_href(element: str, attribute: str, value: str) -> str | None:
    """nh3's attribute filter: an ``href`` stays only if it is an http(s) or mailto link."""
    if attribute == "href" and _link_target(value) is None:
        return None
    return value


def markdown_html(text: object) -> str:
    """A note written in Markdown as HTML that is safe to put in a page.

    Raw HTML in the text is escaped, not interpreted (the Markdown parser's HTML passes are
    off), and the result is then cleaned by nh3 against an allow-list of tags, attributes and
    link schemes, so a ``javascript:`` or relative link or an ``onerror`` attribute never survives;
    a link that stays is ``rel="nofollow noopener noreferrer"`` with its host beside its text.
    """
    html = markdown.markdown(plain_text(text), extensions=[_NoRawHtml(), _SafeLinks()], output_format="html")
    return nh3.clean(html, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_SCHEMES,
                     link_rel="nofollow noopener noreferrer", attribute_filter=_safe_href)
