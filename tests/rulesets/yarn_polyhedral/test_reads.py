"""What people read: the sheet (text, Markdown, printable HTML), explain, the board as of an event."""

from __future__ import annotations

import json

from htmlcheck import assert_inert, assert_not_blank, assert_valid_html, screenshot, visible_text

from .conftest import last


def test_the_sheet_in_markdown_has_every_quality_with_its_die_and_cost(table):
    code, out, err = table("sheet", "Iris", "-f", "md")
    assert code == 0, err
    # Dexterity 7: d6 (line 23), 28 points (line 16); sword 3: d6 (twice the rank, line 89), 6 points.
    assert "| dexterity | attribute | 7 | d6 | 28 |" in out
    assert "| sword | skill | 3 | d6 | 6 |" in out
    assert "| colour blind | drawback | 2 |  | -3 |" in out
    assert "Level 4 (d4)" in out and "190 base, 3 from drawbacks, 116 spent, 77 saved" in out


def test_the_sheet_as_of_an_earlier_event(table):
    table("award", "Iris", "2")
    now = json.loads(table("sheet", "Iris", "--json")[1])
    before = json.loads(table("sheet", "Iris", "--json", "--as-of", "6")[1])
    assert now["base_points"] == before["base_points"] + 2 and before["as_of"] == 6


def test_the_printable_sheet_is_valid_inert_html_that_escapes_what_was_typed(table, tmp_path):
    assert table("character", "create", "<b>Vex</b>", "--player", "Ben", "--points", "90", "--attributes",
                 "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5")[0] == 0
    code, page, err = table("sheet", "<b>Vex</b>", "-f", "html")
    assert code == 0, err
    assert_valid_html(page)
    assert_inert(page)
    assert "<b>Vex</b>" in visible_text(page) and "&lt;b&gt;" in page
    path = tmp_path / "sheet.html"
    path.write_text(page)
    assert_not_blank(screenshot(path), min_text_rows=8)


def test_explain_names_the_rules_behind_each_figure(table):
    last(table, "feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--level", "--fortune-keep",
         "1", "--challenge", "12", "--faces", "6,4,5", "--explosions", "2")
    code, out, _ = table("log", "--json")
    seq = json.loads(out)[-1]["sequence"]
    code, out, _ = table("explain", str(seq))
    assert code == 0
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "Explosions (P24, line 207): 2" in out and "P26 (line 754)" in out


def test_the_players_recap_leaves_out_what_only_the_gm_may_read(table):
    assert table("note", "The ghoul is the librarian's son.", "--visibility", "gm")[0] == 0
    table("feat", "Iris", "--primary", "dexterity", "--challenge", "4", "--faces", "5")
    gm = table("recap")[1]
    players = table("recap", "--players")[1]
    assert "librarian's son" in gm and "librarian's son" not in players
    assert "Iris rolls d6 5" in players and "For the players" in players


def test_every_read_takes_as_of_and_end_of_scene(table):
    # Scene 1: Iris uses a fortune to keep a third die (P23), giving the narrator one trouble (P26).
    for args in (("scene", "open", "--caller", "Ana", "--title", "The gate", "--cast", "Iris,Orc"),
                 ("feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--level", "--fortune-keep",
                  "1", "--challenge", "4", "--faces", "5,2,3"),
                 ("scene", "close"),
                 # Then, outside it: a second fortune, a point and a tier of tension.
                 ("feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--level", "--fortune-keep",
                  "1", "--challenge", "4", "--faces", "3,2,1"),
                 ("award", "Iris", "1"), ("tension", "risk")):
        code, _, err = table(*args)
        assert code == 0, (args, err)

    def read(*args):
        code, out, err = table(*args, "--json")
        assert code == 0, err
        return json.loads(out)

    for when in (("--end-of-scene", "1"), ("--as-of", str(_scene_end(table)))):
        board = read("board", *when)
        iris = next(c for c in board["characters"] if c["name"] == "Iris")
        assert (iris["fortune"], board["trouble"], board["tension"]) == (3, 1, "safe")  # level 4 less 1
        assert [x["change"] for x in read("ledger", *when) if x["currency"] == "trouble"] == [1]
        assert len(read("rolls", *when)) == 1
        assert read("sheet", "Iris", *when)["base_points"] == 190
        recap = read("recap", *when)
        assert recap["board"]["trouble"] == 1 and "risk" not in json.dumps(recap["episodes"])
    board = read("board")
    assert (board["trouble"], board["tension"], len(read("rolls"))) == (2, "risk", 2)


def _scene_end(table):
    code, out, _ = table("log", "--json")
    return next(e["sequence"] for e in json.loads(out) if e["event_type"] == "scene.closed")
