"""A ruleset's recap and sheet render in Markdown and in HTML, and the HTML is valid and inert."""

from __future__ import annotations

import pytest
from htmlcheck import assert_inert, assert_valid_html, visible_text


@pytest.mark.parametrize("what", ["recap", "sheet"])
def test_recap_and_sheet_render_in_markdown_and_valid_html(played, what):
    args = ("recap",) if what == "recap" else ("sheet", played.material.SHEET)
    markdown = played.run(*args, "--format", "md")
    assert markdown.code == 0, markdown
    assert markdown.out.lstrip().startswith("#"), markdown.out[:200]  # a Markdown document, headed
    page = played.run(*args, "--format", "html")
    assert page.code == 0, page
    assert_valid_html(page.out)
    assert_inert(page.out)
    if what == "sheet":
        assert played.material.SHEET in visible_text(page.out)
