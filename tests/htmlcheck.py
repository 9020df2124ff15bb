"""Checks for the HTML yarnlog writes: valid, inert, and drawn.

- :func:`assert_valid_html`: html5lib's parser in strict mode (the HTML5 parsing algorithm, which
  stops at the first parse error); the error names its line and column and quotes the line.
- :func:`assert_inert` and :func:`visible_text`: nothing in a page can run (no ``<script>``, no
  ``on*`` attribute, no ``javascript:`` URL, no frame or object) and what a user typed reads back
  as the text it was.
- :func:`screenshot` and :func:`assert_not_blank`: the page drawn by headless Chromium (Debian's
  ``chromium``: ``YARNLOG_TEST_CHROMIUM`` or the one on PATH; skipped without one unless
  ``YARNLOG_REQUIRE_BROWSER=1``, as ``.ci/run`` sets, where a missing browser fails), and the
  picture checked for something drawn: ink beyond the background, many colours (anti-aliased
  glyphs), and rows crossed by many short strokes (text, not a box or a rule).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from xml.etree import ElementTree

import html5lib
import pytest
from html5lib.constants import E as HTML5LIB_MESSAGES

#: What html5lib calls an invalid code point in the input stream (controls but whitespace,
#: noncharacters, lone surrogates): it reports them where its reader stands, so we find them first.
_INVALID_CODEPOINT = re.compile(
    "[\x01-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff\ud800-\udfff]|\x00"
)
#: Attributes that hold a URL a browser may follow or load.
_URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "srcset", "background"}
_DANGEROUS_ELEMENTS = {"script", "iframe", "frame", "object", "embed", "applet", "base", "form", "meta"}
#: A <meta> may say the charset, name the page, or restrict it (a Content-Security-Policy); not refresh.
_HARMLESS_HTTP_EQUIV = {"", "content-security-policy", "content-type", "x-ua-compatible"}


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _quote(text: str, line: int, column: int) -> str:
    lines = text.splitlines() or [""]
    source = lines[min(line, len(lines)) - 1]
    start = max(column - 40, 0)
    return repr(source[start:start + 80])


def assert_valid_html(text: str) -> None:
    """Fail, naming the first error's line and column, unless ``text`` parses without a single
    parse error by html5lib in strict mode (the doctype included)."""
    bad = _INVALID_CODEPOINT.search(text)
    if bad:
        line, column = _where(text, bad.start())
        pytest.fail(f"invalid HTML at line {line}, column {column}: the code point {bad.group()!r} is "
                    f"not allowed in HTML: {_quote(text, line, column)}", pytrace=False)
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    try:
        parser.parse(text)
    except html5lib.html5parser.ParseError:
        (line, column), code, data = parser.errors[0]
        message = HTML5LIB_MESSAGES.get(code, code) % (data or {})
        pytest.fail(f"invalid HTML at line {line}, column {column}: {message} ({code}): "
                    f"{_quote(text, line, column)}", pytrace=False)


def parse(text: str) -> ElementTree.Element:
    """The document as an ElementTree (no namespaces on HTML elements), as a browser would build it."""
    return html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False)


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1].lower()


def assert_inert(text: str) -> None:
    """Fail if anything in the page can run or navigate on its own: a script, frame, object, base,
    form or meta element, an ``on*`` event attribute, or a ``javascript:``/``vbscript:``/``data:``
    URL (entity-encoded or with blanks inside, as a browser reads it)."""
    problems = []
    for element in parse(text).iter():
        if not isinstance(element.tag, str):
            continue
        tag = _local(element.tag)
        if tag in _DANGEROUS_ELEMENTS and not (tag == "meta" and element.get("http-equiv", "").lower()
                                               in _HARMLESS_HTTP_EQUIV):
            problems.append(f"<{tag}{' http-equiv=' + element.get('http-equiv', '') if tag == 'meta' else ''}> element")
        for name, value in element.attrib.items():
            attribute = _local(name) if name.startswith("{") else name.lower()
            if attribute.startswith("on"):
                problems.append(f"{attribute}= on <{tag}>")
            if attribute in _URL_ATTRIBUTES or name.endswith("}href"):
                url = re.sub(r"[\x00-\x20]+", "", value).lower()
                image = tag == "img" and url.startswith("data:image/") and not url.startswith("data:image/svg")
                if url.startswith(("javascript:", "vbscript:")) or (url.startswith("data:") and not image):
                    problems.append(f"{attribute}={value!r} on <{tag}>")
            if attribute == "style" and ("url(" in value.lower() or "expression(" in value.lower()):
                problems.append(f"style={value!r} on <{tag}>")
    if problems:
        pytest.fail("the HTML is not inert: " + "; ".join(sorted(set(problems))), pytrace=False)


def text_nodes(text: str) -> list[str]:
    """Every run of text in the page's body as the parser built it, blanks collapsed: a string a user
    typed that reads back whole inside one of them was shown as text, not taken for markup."""
    body = parse(text).find("body")
    runs: list[str] = []
    for element in body.iter() if body is not None else ():
        own = element.text if isinstance(element.tag, str) else None  # a comment's text is not shown
        for run in (own, element.tail if element is not body else None):
            if run and run.strip():
                runs.append(" ".join(run.split()))
    return runs


def visible_text(text: str) -> str:
    """The page's text as a reader sees it (``<head>``, ``<style>``, ``<script>`` and
    ``<template>`` left out), blanks collapsed to single spaces."""
    root = parse(text)
    body = root.find("body")
    hidden = {"style", "script", "template", "noscript", "head"}
    parts: list[str] = []

    def walk(element: ElementTree.Element) -> None:
        if isinstance(element.tag, str) and _local(element.tag) in hidden:
            if element.tail:
                parts.append(element.tail)
            return
        if isinstance(element.tag, str) and element.text:
            parts.append(element.text)
        for child in element:
            walk(child)
        if element.tail and element is not body:
            parts.append(element.tail)

    walk(body if body is not None else root)
    return " ".join("".join(parts).split())


# -- the browser ------------------------------------------------------------------------------------


def chromium() -> str | None:
    """The headless Chromium to use: ``YARNLOG_TEST_CHROMIUM``, else ``chromium`` on PATH."""
    return (os.environ.get("YARNLOG_TEST_CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser"))


def require_chromium() -> str:
    browser = chromium()
    if browser is None:
        if os.environ.get("YARNLOG_REQUIRE_BROWSER") == "1":
            pytest.fail("YARNLOG_REQUIRE_BROWSER=1 but no Chromium: install Debian's chromium or set "
                        "YARNLOG_TEST_CHROMIUM", pytrace=False)
        pytest.skip("no headless Chromium (install Debian's chromium or set YARNLOG_TEST_CHROMIUM)")
    return browser


#: Flags for a quiet, offline, throw-away headless run (as root: no sandbox).
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--no-default-browser-check",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
    "--hide-scrollbars", "--force-device-scale-factor=1",
)


def _chromium(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    browser = require_chromium()
    with tempfile.TemporaryDirectory(prefix="yarnlog-chromium-") as profile:
        try:
            done = subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"headless Chromium took more than {timeout:.0f} s", pytrace=False)
    return done


def screenshot(html_path: Path, png_path: Path | None = None, *, width: int = 1000, height: int = 1400,
               timeout: float = 60) -> Path:
    """A PNG of ``html_path`` as headless Chromium draws it (``width`` x ``height`` pixels)."""
    html_path = Path(html_path).resolve()
    png_path = Path(png_path or html_path.with_suffix(".png")).resolve()
    png_path.unlink(missing_ok=True)
    done = _chromium([f"--window-size={width},{height}", f"--screenshot={png_path}", html_path.as_uri()], timeout)
    if done.returncode != 0 or not png_path.is_file():
        last = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        pytest.fail(f"headless Chromium made no screenshot of {html_path.name} (exit {done.returncode}): {last}",
                    pytrace=False)
    return png_path


def rendered_dom(html_path: Path, *, timeout: float = 60) -> str:
    """The document as headless Chromium holds it once loaded (scripts, if any, have run)."""
    done = _chromium(["--dump-dom", Path(html_path).resolve().as_uri()], timeout)
    if done.returncode != 0:
        pytest.fail(f"headless Chromium could not load {Path(html_path).name} (exit {done.returncode})", pytrace=False)
    return done.stdout


def ink(png: Path) -> dict[str, float]:
    """What is drawn on ``png``: the share of pixels off the background (its commonest colour), the
    number of distinct colours, and the number of rows crossed by at least 6 strokes."""
    from PIL import Image, ImageChops

    with Image.open(png) as opened:
        image = opened.convert("RGB")
    width, height = image.size
    colours = image.getcolors(maxcolors=width * height) or []
    background = max(colours)[1]
    distance = ImageChops.difference(image, Image.new("RGB", image.size, background)).convert("L")
    mask = distance.point(lambda v: 255 if v > 48 else 0).tobytes()
    inked = mask.count(255)
    text_rows = sum(1 for y in range(height) if mask[y * width:(y + 1) * width].count(b"\x00\xff") >= 6)
    return {"share": inked / (width * height), "colours": len(colours), "text_rows": text_rows}


def assert_not_blank(png: Path, *, min_share: float = 0.002, min_colours: int = 16, min_text_rows: int = 20) -> None:
    """Fail unless ``png`` shows something drawn: at least ``min_share`` of its pixels off the
    background, ``min_colours`` colours, and ``min_text_rows`` rows that cross many glyph strokes."""
    found = ink(png)
    if found["share"] < min_share or found["colours"] < min_colours or found["text_rows"] < min_text_rows:
        pytest.fail(f"{Path(png).name} looks blank: {found['share']:.2%} of its pixels inked (at least "
                    f"{min_share:.2%}), {found['colours']:.0f} colours (at least {min_colours}), "
                    f"{found['text_rows']:.0f} rows of text strokes (at least {min_text_rows})", pytrace=False)


if __name__ == "__main__":  # python tests/htmlcheck.py PAGE.html: PAGE.png beside it, checked
    import sys

    for name in sys.argv[1:]:
        shot = screenshot(Path(name))
        assert_not_blank(shot)
        print(f"{shot} {ink(shot)}")
