"""Will & Descriptors at the command line, as the table types it: every move answers in words and
in --json; a refused move says the rule in one line and writes nothing; the GM's override is recorded."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest


@pytest.fixture
def table(cli):
    for args in (("init", "ropes", "--title", "Ropes", "--gm", "Maya", "--ruleset", "will-descriptors",
                  "--setting", "track=5"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Christopher", "--player", "Ana", "-d", "Knots=3:Abilities", "-d", "Strong=2",
                  "--key", "Bind them all=motivation", "--background", "Old navy friend"),
                 ("character", "create", "Bob", "--player", "Ben", "-d", "Slippery=2", "-d", "Proud=2:Values"),
                 ("episode", "start", "--title", "Tied"), ("scene", "open", "--caller", "Maya")):
        code, out, err = cli(*args)
        assert code == 0, (args, out, err)
    return cli


def events(cli) -> int:
    code, out, _ = cli("log", "--json")
    assert code == 0
    return len(json.loads(out))


def test_opposed_roll_in_words_and_json(table):
    """W6, line 4: Bob's Proud used against him gives him 1 Will; W7-W8, line 5: 3 successes over a 6."""
    code, out, _ = table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--use", "Bob:Proud",
                         "--oppose", "Slippery", "--faces", "9,8,7,3,1", "--against-faces", "6,2")
    assert code == 0
    assert "Christopher wins with 3 successes over 6" in out
    assert "Will: Christopher 7, Bob 9." in out
    code, out, _ = table("ledger", "--json", "--character", "bob")
    assert [(r["amount"], r["rule"]) for r in json.loads(out)] == [(1, "W6, line 4"), (-1, "W5, line 4")]
    code, out, _ = table("rolls", "--json")
    [row] = json.loads(out)
    assert (row["winner"], row["successes"], row["faces_a"]) == ("a", 3, "9,8,7,3,1")
    assert abs(row["p_a"] + row["p_b"] + row["p_stalemate"] - 1) < 1e-12


def test_the_tool_rolls_when_no_faces_are_given(table):
    code, out, _ = table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--oppose", "Slippery",
                         "--json")
    assert code == 0
    [event] = json.loads(out)
    payload = event["payload"]
    assert len(payload["a"]["faces"]) == 3 and len(payload["b"]["faces"]) == 2
    assert all(1 <= f <= 10 for f in payload["a"]["faces"] + payload["b"]["faces"])


def test_a_refused_move_says_the_rule_in_one_line_and_writes_nothing(table):
    """W21, line 14: "you can't get one in the middle of a scene."."""
    before = events(table)
    code, out, err = table("refresh", "Bob")
    assert code == 3
    assert err.count("\n") == 1 and len(err.rstrip("\n")) <= 80
    assert "middle of a scene" in err
    assert events(table) == before
    code, _, err = table("harm", "Bob")
    assert code == 2 and "no roll" in err
    assert events(table) == before


def test_the_gms_override_is_recorded(table):
    """W27, line 24: "Every 5 XP is an Advance." Without one, the GM overrides with a reason."""
    code, _, err = table("advance", "Christopher", "new-descriptor", "Rigging")
    assert code == 3 and "0 unspent Advances" in err
    code, out, _ = table("advance", "Christopher", "new-descriptor", "Rigging", "--override", "a gift of the sea",
                         "--json")
    assert code == 0
    types = [e["event_type"] for e in json.loads(out)]
    assert "override.recorded" in types and "will-descriptors.advance.spent" in types


def test_sheet_in_markdown_and_html_keeps_user_text_literal(table):
    table("character", "create", "<b>Eve</b>", "-d", "*Sly*=1")
    code, out, _ = table("sheet", "<b>Eve</b>", "--format", "html")
    assert code == 0 and "<b>Eve</b>" not in out and "&lt;b&gt;Eve&lt;/b&gt;" in out
    code, out, _ = table("sheet", "<b>Eve</b>", "--format", "md")
    assert code == 0 and "\\*Sly\\*" in out


def test_board_and_sheet_as_of_an_earlier_event(table):
    table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--oppose", "Slippery", "--faces",
          "9,8,7", "--against-faces", "6,2")
    table("harm", "Bob")
    code, out, _ = table("board", "--json")
    bob = next(c for c in json.loads(out)["characters"] if c["name"] == "Bob")
    assert bob["crossed"] == [3] and bob["will"] == 8
    code, out, _ = table("sheet", "Bob", "--json", "--end-of-scene", "1")
    assert json.loads(out)["crossed"] == [3]
    code, out, _ = table("sheet", "Bob", "--json", "--as-of", "6")
    assert json.loads(out)["will"] == 9 and json.loads(out)["crossed"] == []


def test_odds_are_exact(table):
    """Digest 004, section 6: 2D v 1D, P(A wins) = 143/200."""
    code, out, _ = table("odds", "2", "1", "--json")
    rows = json.loads(out)
    assert sum(Fraction(r["chance"]) for r in rows if r["outcome"] == "A wins") == Fraction(143, 200)


def test_recap_for_a_player_leaves_out_what_only_the_gm_sees(table):
    table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--oppose", "Slippery", "--faces",
          "9,8,7", "--against-faces", "6,2")
    table("note", "The sea god watches <Bob>", "--visibility", "gm")
    code, out, _ = table("recap", "--as", "Ana")
    assert code == 0 and "Christopher wins with 3 successes over 6" in out and "sea god" not in out
    code, out, _ = table("recap")
    assert "sea god" in out
    code, out, _ = table("recap", "--format", "html")
    assert code == 0 and "&lt;Bob&gt;" in out and "<Bob>" not in out


def test_explain_quotes_the_rule_and_the_odds(table):
    code, out, _ = table("opposed", "Christopher", "--against", "Bob", "--use", "Strong", "--oppose", "Slippery",
                         "--faces", "7,4", "--against-faces", "4,7", "--json")
    event = json.loads(out)[0]["sequence"]
    code, out, _ = table("explain", str(event), "--json")
    data = json.loads(out)
    assert any("real stalemate" in line for line in data["lines"])
    assert any(line.startswith("The rule: If both sides have the same size pools") for line in data["lines"])
    assert Fraction([o for o in data["odds"] if o["side"] == "stalemate"][0]["chance"]) == Fraction(19, 1000)


def test_the_readme_session_runs_as_written(cli):
    """README.md, "A Will & Descriptors session": every command succeeds; the comments' figures hold."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from test_readme_examples import blocks, run_all

    commands = blocks("## A Will & Descriptors session")
    run_all(cli, commands)
    code, out, _ = cli("explain", "8", "--json")
    assert any("Christopher wins with 3 successes over 6" in line for line in json.loads(out)["lines"])
    code, out, _ = cli("sheet", "Bob", "--json")
    bob = json.loads(out)
    assert bob["crossed"] == [] and bob["will"] == 9  # box 3 crossed, then restored with Christopher (W22)
    code, out, _ = cli("sheet", "Christopher", "--json")
    assert json.loads(out)["advances"] == 0 and json.loads(out)["xp"] == 13
    code, out, _ = cli("verify")
    assert code == 0 and out.startswith("ok: ropes")


def test_a_character_is_played_by_someone_at_the_table(table):
    """Found by the contract suite: a character whose player nobody registered is refused, and writes nothing."""
    before = events(table)
    code, _, err = table("character", "create", "Abigail", "--player", "Nobody", "-d", "Persuasive=3")
    assert code == 2 and "Nobody is not at the table" in err
    assert events(table) == before
    assert table("character", "create", "Rook", "-d", "Cutlass=3")[0] == 0  # the GM's own character


def test_board_ledger_and_rolls_as_of_an_event_and_the_end_of_a_scene(table):
    """The reads at the head come from the stored views; --as-of 7 is before the roll (event 8) and its
    harm (event 9); --end-of-scene 1 is after both (W5: 1 Will per descriptor; W15: box 3)."""
    table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--oppose", "Slippery", "--faces",
          "9,8,7", "--against-faces", "6,2")
    assert table("harm", "Bob")[0] == 0
    assert table("scene", "close")[0] == 0

    def read(*args):
        code, out, err = table(*args, "--json")
        assert code == 0, err
        return json.loads(out)

    def bob(board):
        return next(c for c in board["characters"] if c["name"] == "Bob")

    assert (bob(read("board", "--as-of", "7"))["will"], bob(read("board", "--as-of", "7"))["crossed"]) == (9, [])
    for at in ((), ("--end-of-scene", "1")):
        assert (bob(read("board", *at))["will"], bob(read("board", *at))["crossed"]) == (8, [3])
        assert [(r["event"], r["amount"]) for r in read("ledger", "--character", "bob", *at)] == [(8, -1)]
        assert [r["event"] for r in read("rolls", *at)] == [8]
    assert read("ledger", "--as-of", "7") == [] and read("rolls", "--as-of", "7") == []
    code, _, err = table("ledger", "--character", "Nobody")
    assert code == 2 and "no character is called Nobody" in err


def test_an_out_character_is_refused_naming_the_rule_once(table):
    """W18, line 11: "If the last (highest) box of the Power track is crossed off, you're out of the scene."
    Box 5 of 5 crossed by 5 successes; the refusal names W18 once."""
    assert table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--use", "Strong", "--oppose",
                 "Slippery", "--faces", "9,9,9,9,9", "--against-faces", "2,1")[0] == 0
    assert table("harm", "Bob")[0] == 0
    code, _, err = table("opposed", "Bob", "--against", "Christopher", "--use", "Slippery", "--faces", "9,9",
                         "--against-faces", "")
    assert code == 3
    assert err.strip() == "Refused. Bob is out of the scene: the highest box crossed (W18)."


def test_a_third_characters_descriptor_joins_no_pool_unless_the_gm_overrides(table):
    """W5-W6, line 4: "spend one point of your Will for each Descriptor that contributes dice to your pool.
    Your Descriptors can contribute dice to your opponent's pool": the roller's own, or the opponent's
    used against them; a character outside the roll adds nothing."""
    assert table("character", "create", "Abigail", "-d", "Persuasive=3")[0] == 0
    before = events(table)
    code, _, err = table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--use",
                         "Abigail:Persuasive", "--faces", "9,8,7,3,1,1", "--against-faces", "")
    assert code == 3
    assert err.startswith("Refused. Abigail's Persuasive: Abigail is not in this roll (")
    assert err.count("\n") == 1 and len(err.rstrip()) <= 80 and err.rstrip().endswith("W5-W6).")
    assert events(table) == before
    code, out, _ = table("opposed", "Christopher", "--against", "Bob", "--use", "Knots", "--use",
                         "Abigail:Persuasive", "--faces", "9,8,7,3,1,1", "--against-faces", "", "--override",
                         "Abigail shouts the knot's name", "--json")
    assert code == 0 and json.loads(out)[0]["event_type"] == "override.recorded"
    code, out, _ = table("verify")
    assert code == 0
