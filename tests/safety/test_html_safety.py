"""User text is inert in the pages and Markdown yarnlog writes: the hostile campaign's sheets (and
recaps), in HTML and Markdown, are valid HTML (html5lib, strict), hold nothing that runs (no
script, no on* attribute, no javascript: URL, nothing a browser builds from what a user typed),
and every corpus string in the data reads back whole as one run of text. The sample campaign's
pages are drawn by headless Chromium, not blank.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import markdown
import pytest
from corpus import CORPUS
from hostile import ANA, BEN, IRIS, TOMAS, hostile_db_fixture, run  # noqa: F401 (the fixture hostile_db)
from htmlcheck import (
    assert_inert,
    assert_not_blank,
    assert_valid_html,
    rendered_dom,
    screenshot,
    text_nodes,
)

from yarnlog.core.visible import pictured

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "journals" / "lantern-harbor.jsonl"
SAMPLE_RECAP = ROOT / "journals" / "lantern-harbor-recap.html"
#: Elements a page may hold only if a template wrote them; here none does, so one in the body was
#: built from what a user typed. (The recap draws its charts in inline SVG: an SVG a user typed is
#: caught by assert_inert, its script, handler or link, and by reading its text back whole.)
TYPED_ELEMENTS = re.compile(r"<(img|iframe|u|b|textarea|style)[\s>/]")
#: What the render layer leaves out of user text (yarnlog.render.text.plain_text).
_DROPPED = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

SHEETS = [(IRIS,), (TOMAS,), (IRIS, "--end-of-scene", "1")]


def shown(text: str) -> str:
    """``text`` as a page shows it: without what the render layer drops, blanks collapsed."""
    return " ".join(_DROPPED.sub("", text).split())


def shown_in_markdown(text: str) -> str:
    """``text`` as a Markdown document shows it: each control character as its picture (an escape
    as U+241B, as the README says), blanks collapsed."""
    return " ".join(pictured(_DROPPED, text).split())


def strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def corpus_in(data, *, leave_out: str = "") -> set[str]:
    """The corpus strings some text of ``data`` holds (but under the key ``leave_out``)."""

    def kept(value):
        if isinstance(value, dict):
            return {k: kept(v) for k, v in value.items() if k != leave_out}
        if isinstance(value, list):
            return [kept(v) for v in value]
        return value

    texts = strings(kept(data))
    return {c for c in CORPUS if any(c in t for t in texts)}


def _marker(text: str) -> str | None:
    """A word of ``text`` that no other corpus string holds (to tell where a page shows it)."""
    words = sorted(set(re.findall(r"[A-Za-z]{4,}", shown(text))), key=lambda w: (-len(w), w))
    others = [shown(c) for c in CORPUS if c != text]
    return next((w for w in words if not any(w in c for c in others)), None)


MARKERS = {c: m for c in CORPUS if (m := _marker(c))}


def prose(page: str) -> str:
    """``page`` without its code blocks (a Markdown recap's Mermaid diagrams: source text with
    Mermaid's own entity codes, shown as code, checked inert with the rest of the page)."""
    return re.sub(r"<pre>.*?</pre>", "", page, flags=re.S)


def shown_somewhere(html: str) -> set[str]:
    """The corpus strings of which a page shows at least a telling word."""
    body = " ".join(text_nodes(html))
    return {c for c, marker in MARKERS.items() if marker in body}


def assert_reads_back(html: str, expected: set[str], what: str, as_shown=shown) -> None:
    runs = text_nodes(html)
    missing = sorted(c for c in expected if not any(as_shown(c) in run for run in runs))
    assert not missing, f"{what}: typed text not shown whole as text (taken for markup?): {missing}"


def command_output(db: Path, *args: str) -> str:
    code, out, err = run(db, *args)
    assert code == 0, err
    return out


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("sample") / "lantern-harbor.db"
    code, _, err = run(db, "import", str(SAMPLE))
    assert code == 0, err
    return db


@pytest.mark.parametrize("args", SHEETS, ids=lambda a: " ".join(a)[:12])
def test_the_hostile_sheet_in_html_is_valid_inert_and_shows_every_text_as_typed(hostile_db, args):
    db, _ = hostile_db
    html = command_output(db, "sheet", *args, "--format", "html")
    assert_valid_html(html)
    assert_inert(html)
    data = json.loads(command_output(db, "sheet", *args, "--json"))
    expected = corpus_in(data)
    assert len(expected) >= 10, "the sheet shows too few of the corpus strings for this test to mean much"
    assert_reads_back(html, expected, f"sheet {args[0][:5]} --format html")


@pytest.mark.parametrize("args", SHEETS, ids=lambda a: " ".join(a)[:12])
def test_the_hostile_sheet_in_markdown_stays_text_when_rendered(hostile_db, args):
    # Rendered as a wiki, a chat or Obsidian would, raw HTML on: Python-Markdown and CommonMark.
    from markdown_it import MarkdownIt

    db, _ = hostile_db
    text = command_output(db, "sheet", *args, "--format", "md")
    engines = {"python-markdown": lambda t: markdown.markdown(t, extensions=["tables", "fenced_code"]),
               "commonmark": MarkdownIt("commonmark", {"html": True}).enable("table").render}
    for engine, render in engines.items():
        page = f"<!DOCTYPE html><html><head><title>sheet</title></head><body>{render(text)}</body></html>"
        assert_inert(page)
        # (the Markdown sheet shows less than the page: what it shows at all, it shows whole)
        expected = shown_somewhere(page)
        assert len(expected) >= 10
        assert_reads_back(page, expected, f"sheet --format md, rendered by {engine}", shown_in_markdown)


@pytest.mark.slow
def test_a_browser_builds_nothing_from_the_hostile_sheet(hostile_db, tmp_path):
    db, _ = hostile_db
    page = tmp_path / "sheet.html"
    page.write_text(command_output(db, "sheet", IRIS, "--format", "html"), encoding="utf-8")
    dom = rendered_dom(page)
    assert_inert(dom)
    assert not re.search(r"<(img|svg|iframe|u|b)[\s>]", dom), "an element typed by a user was built"
    assert_reads_back(dom, corpus_in(json.loads(command_output(db, "sheet", IRIS, "--json"))), "the loaded sheet")


@pytest.mark.slow
def test_the_sample_sheet_is_valid_and_drawn(sample_db, tmp_path):
    page = tmp_path / "iris-vane.html"
    html = command_output(sample_db, "sheet", "Iris Vane", "--format", "html")
    assert_valid_html(html)
    assert_inert(html)
    page.write_text(html, encoding="utf-8")
    assert_not_blank(screenshot(page))


# -- recaps -------------------------------------------------------------------------------------

AUDIENCES = {"gm": (), "players": ("--players",), "as-ana": ("--as", ANA), "as-ben": ("--as", BEN)}


def body_of(html: str) -> str:
    return html.split("<body", 1)[-1]


@pytest.mark.parametrize("audience", AUDIENCES)
def test_the_hostile_recap_in_html_is_valid_inert_and_shows_every_text_as_typed(hostile_db, audience):
    db, _ = hostile_db
    args = ("recap", "--series", *AUDIENCES[audience])
    html = command_output(db, *args, "--format", "html")
    assert_valid_html(html)
    assert_inert(html)
    assert not TYPED_ELEMENTS.search(body_of(html)), TYPED_ELEMENTS.search(body_of(html))
    for href in re.findall(r'<a [^>]*href="([^"]*)"', html):
        assert href.startswith(("#", "http://", "https://", "mailto:")), href
    # Everything but the notes is plain text; a note is Markdown, its raw HTML kept as text.
    data = json.loads(command_output(db, *args, "--json"))
    expected = corpus_in(data, leave_out="notes")
    assert len(expected) >= 10
    assert_reads_back(html, expected, f"recap {audience} --format html")
    if "*emphasis* __strong__ `code` <b>bold</b> <u>u</u>" in strings(data):
        assert any("<b>bold</b> <u>u</u>" in run for run in text_nodes(html))
        assert "<em>emphasis</em>" in html  # the note's own Markdown still formats


@pytest.mark.parametrize("audience", AUDIENCES)
def test_the_hostile_recap_in_markdown_stays_text_when_rendered(hostile_db, audience):
    from markdown_it import MarkdownIt

    db, _ = hostile_db
    text = command_output(db, "recap", "--series", *AUDIENCES[audience], "--format", "md")
    engines = {"python-markdown": lambda t: markdown.markdown(t, extensions=["tables", "fenced_code"]),
               "commonmark": MarkdownIt("commonmark", {"html": True}).enable("table").render}
    for engine, render in engines.items():
        page = f"<!DOCTYPE html><html><head><title>recap</title></head><body>{render(text)}</body></html>"
        assert_inert(page)
        assert not TYPED_ELEMENTS.search(body_of(page)), (engine, TYPED_ELEMENTS.search(body_of(page)))
        expected = shown_somewhere(prose(page))
        assert len(expected) >= 10
        assert_reads_back(prose(page), expected, f"recap {audience} --format md, rendered by {engine}",
                          shown_in_markdown)


def test_a_players_recap_holds_no_note_kept_for_the_gm(hostile_db):
    db, _ = hostile_db
    secret = [r["payload"]["text"] for r in json.loads(command_output(db, "log", "--json"))
              if r["event_type"] == "note" and r["visibility"] == "gm"]
    assert secret
    for args in (("--players",), ("--as", ANA)):
        for fmt in ("html", "md"):
            page = command_output(db, "recap", "--series", *args, "--format", fmt)
            assert not any(MARKERS[s] in page for s in secret if s in MARKERS), (args, fmt)


@pytest.mark.slow
def test_a_browser_builds_nothing_from_the_hostile_recap(hostile_db, tmp_path):
    db, _ = hostile_db
    page = tmp_path / "recap.html"
    code, _, err = run(db, "recap", "--series", "--format", "html", "-o", str(page))
    assert code == 0, err
    dom = rendered_dom(page)
    assert_inert(dom)
    assert not TYPED_ELEMENTS.search(body_of(dom)), TYPED_ELEMENTS.search(body_of(dom))


@pytest.mark.slow
def test_the_sample_recap_is_valid_inert_and_drawn(tmp_path):
    html = SAMPLE_RECAP.read_text(encoding="utf-8")
    assert_valid_html(html)
    assert_inert(html)
    page = tmp_path / SAMPLE_RECAP.name
    page.write_text(html, encoding="utf-8")
    assert_not_blank(screenshot(page))


def test_the_sample_recaps_screenshot_is_committed_beside_it():
    # journals/lantern-harbor-recap.png: headless Chromium's picture of the committed recap
    # (`python tests/htmlcheck.py journals/lantern-harbor-recap.html` takes it again).
    png = SAMPLE_RECAP.with_suffix(".png")
    assert png.is_file(), f"{png.name} is missing beside {SAMPLE_RECAP.name}"
    assert_not_blank(png)
