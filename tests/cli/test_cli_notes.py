"""A note can be filed under a scene already called (``note --scene N``, schema version 2 of ``note``,
version 1 notes still replay); an order the tool shuffles itself is said to be so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yarnlog.cli.main import EXIT_CODES
from yarnlog.core.events import load_payload
from yarnlog.core.timeline import Note

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def two_scenes(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris"),
                 ("call", "Ben", "--cast", "Tomas")):
        assert cli(*args)[0] == 0, args
    return cli


def test_a_note_filed_under_an_earlier_scene_belongs_to_it(two_scenes):
    code, out, err = two_scenes("note", "Iris had palmed the key", "--scene", "1", "--json")
    assert code == 0, err
    recorded = json.loads(out)[0]
    assert recorded["schema_version"] == 2 and recorded["payload"]["scene"] == 1
    assert (recorded["episode"], recorded["scene"]) == (1, 1)
    _, out, _ = two_scenes("log", "--scene", "1", "--type", "note", "--json")
    assert [e["payload"]["text"] for e in json.loads(out)] == ["Iris had palmed the key"]
    # Scene 1 still ended where it ended: the note was filed afterwards.
    _, out, _ = two_scenes("status", "--end-of-scene", "1", "--json")
    assert [s["number"] for s in json.loads(out)["scenes"]] == [1]
    assert two_scenes("verify")[0] == 0


def test_a_note_is_filed_only_under_a_scene_already_called(two_scenes):
    code, _, err = two_scenes("note", "later", "--scene", "3")
    assert code == EXIT_CODES["invalid"] and err == \
        "error: there is no scene 3 yet: a note is filed under a scene already called\n"


def test_a_version_1_note_reads_as_filed_where_it_was_recorded():
    assert load_payload("note", 1, {"text": "old"}) == Note(text="old", scene=None)


def test_an_order_the_tool_shuffles_is_said_to_be_shuffled(two_scenes):
    code, out, err = two_scenes("precedence", "draw", "--purpose", "other", "--json")
    assert code == 0 and json.loads(out)[0]["payload"]["source"] == "shuffled"
    assert err.startswith("the tool shuffled this order itself: ") and "--order" in err
    code, _, err = two_scenes("precedence", "draw", "--purpose", "other", "--order", "Ben,Ana")
    assert code == 0 and err == ""


def test_a_link_in_a_note_reaches_the_players_html_recap_safe_and_named(two_scenes):
    """Issue 21 item 8: the link stays, but only http(s) and mailto, with rel nofollow noopener
    noreferrer and its host beside its text."""
    assert two_scenes("note", "see [web](http://evil.example/x) and [here](javascript:alert(1))")[0] == 0
    code, page, err = two_scenes("recap", "--players", "--format", "html")
    assert code == 0, err
    assert '<a href="http://evil.example/x" rel="nofollow noopener noreferrer">web</a> (evil.example)' in page
    assert "javascript:" not in page and ">here</a>" not in page and "and here" in page


def test_the_markdown_recap_shows_an_escape_as_the_readme_says(two_scenes):
    """Issue 21 item 9: an ESC in a note is shown as \u241b in the Markdown recap, never dropped nor raw."""
    assert two_scenes("note", "the \x1b[31mred door")[0] == 0
    code, text, err = two_scenes("recap", "--format", "md")
    assert code == 0, err
    assert "the \u241b\\[31mred door" in text and "\x1b" not in text
