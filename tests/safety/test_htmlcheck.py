"""The HTML checks themselves: they pass what they should and name what they fail."""

from __future__ import annotations

import pytest
from htmlcheck import (
    assert_inert,
    assert_not_blank,
    assert_valid_html,
    ink,
    rendered_dom,
    require_chromium,
    screenshot,
    visible_text,
)

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Lantern Harbor</title>
<style>body { font: 16px sans-serif; margin: 2em; } h1 { color: #223; }</style></head>
<body><h1>Lantern Harbor</h1>
<p>&lt;script&gt;alert(1)&lt;/script&gt; is what Ana typed, and <em>fog</em> on the water.</p>
%s
</body></html>
"""
TEXT = "".join(f"<p>Scene {n}: Iris asks Jonah for an apology; he refuses, she takes a token.</p>" for n in range(12))


def failure(check, *args) -> str:
    with pytest.raises(pytest.fail.Exception) as failed:
        check(*args)
    return str(failed.value)


def test_a_valid_page_passes_and_the_first_error_is_placed():
    assert_valid_html(PAGE % TEXT)
    message = failure(assert_valid_html, PAGE % "<p><b>unclosed</p>")
    assert message.startswith("invalid HTML at line 6, column ") and "unclosed" in message
    assert "at line 1, column 6: Unexpected start tag (html). Expected DOCTYPE" in failure(
        assert_valid_html, "<html><body>no doctype</body></html>")
    message = failure(assert_valid_html, PAGE % "<p>a bell \x07 rings</p>")
    assert message.startswith("invalid HTML at line 6, column 11: the code point '\\x07'")


def test_inert_pages_and_what_is_not():
    assert_inert(PAGE % TEXT)
    for hostile in ('<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<a href=" jav&#x09;ascript:x">a</a>',
                    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>', '<iframe src="x"></iframe>',
                    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'):
        assert "not inert" in failure(assert_inert, PAGE % hostile), hostile


def test_visible_text_reads_back_what_was_typed():
    assert "<script>alert(1)</script> is what Ana typed, and fog on the water." in visible_text(PAGE % "")
    assert "font:" not in visible_text(PAGE % "")


def test_a_drawn_page_is_not_blank_and_a_blank_one_is(tmp_path):
    from PIL import Image, ImageDraw

    blank = tmp_path / "blank.png"
    Image.new("RGB", (400, 300), "white").save(blank)
    assert "looks blank" in failure(assert_not_blank, blank)
    boxed = tmp_path / "box.png"
    image = Image.new("RGB", (400, 300), "white")
    ImageDraw.Draw(image).rectangle((50, 50, 350, 250), fill="navy")
    image.save(boxed)
    assert ink(boxed)["text_rows"] == 0
    assert "looks blank" in failure(assert_not_blank, boxed)


@pytest.mark.slow
def test_headless_chromium_draws_a_page_and_runs_no_typed_script(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE % TEXT, encoding="utf-8")
    assert_not_blank(screenshot(page, width=800, height=600))  # (a blank picture: the test above)
    hostile = tmp_path / "hostile.html"
    hostile.write_text(PAGE % '<img src=x onerror="document.body.dataset.ran=1">', encoding="utf-8")
    assert 'data-ran="1"' in rendered_dom(hostile)  # the probe works: a page that runs script shows it


def test_no_browser_skips_unless_one_is_required(tmp_path, monkeypatch):
    monkeypatch.delenv("YARNLOG_TEST_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("YARNLOG_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no headless Chromium"):
        require_chromium()
    monkeypatch.setenv("YARNLOG_REQUIRE_BROWSER", "1")
    assert "YARNLOG_REQUIRE_BROWSER=1 but no Chromium" in failure(require_chromium)
