"""What people read of a DramaSystem campaign, through the verbs: sheet, tokens, ledger, explain,
resolutions and recap, for the GM and as a player sees them (``--as``)."""

from __future__ import annotations

import json

import pytest

from .storm_table import want_args

SETUP = (
    ("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
    ("join", "Ana"), ("join", "Ben"), ("join", "Cy"),
    ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking", "--weak", "Knowing,Making",
     "--how", "Fighting=dirty tricks", "--how", "Talking=a sailor's charm", "--role", "smuggler",
     "--desire", "to be respected", "--poles", "loyal,greedy", "--story", "My story is of a woman who pays her debts"),
    ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking", "--weak", "Talking,Enduring"),
    ("character", "create", "Vel", "--player", "Cy", "--custom", "Lockpicking", "--strong", "Making",
     "--weak", "Fighting,Moving,Talking"),
    *want_args(),
    ("episode", "start", "--title", "Fog", "--theme", "trust"),
    ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural"),
)


def _run(cli, db, *args):
    code, out, err = cli("--db", db, *args)
    assert code == 0, (args, err)
    return out


@pytest.fixture
def table(cli, tmp_path):
    """A procedural scene with a simple resolution open: the GM's secret token, the target, two draws."""

    def build(gm_token: str = "yellow", name: str = "journal.db") -> str:
        db = str(tmp_path / name)
        for args in SETUP:
            _run(cli, db, *args)
        _run(cli, db, "oppose", gm_token)
        _run(cli, db, "target", "--card", "KC", "--order", "Ana,Ben,Cy")
        _run(cli, db, "draw", "Ana", "--token", "green", "--cards", "QH,3C")
        _run(cli, db, "draw", "Ben", "--token", "yellow", "--cards", "5D")
        return db

    return build


def test_the_sheet_shows_grades_how_i_do_it_the_story_and_the_procedural_pile(cli, table):
    db = table()
    sheet = json.loads(_run(cli, db, "sheet", "iris", "--json"))
    grades = {t["name"]: t["grade"] for t in sheet["action_types"]}
    # "you designate two of them as your Strong types and two as Weak. The rest are Middling." (SRD 121)
    assert grades == {"Fighting": "strong", "Talking": "strong", "Enduring": "middling", "Moving": "middling",
                      "Sneaking": "middling", "Knowing": "weak", "Making": "weak"}
    assert {t["name"]: t["how_i_do_it"] for t in sheet["action_types"] if t["how_i_do_it"]} == {
        "Fighting": "dirty tricks", "Talking": "a sailor's charm"}
    assert (sheet["role"], sheet["desire"], sheet["poles"]) == ("smuggler", "to be respected", ["loyal", "greedy"])
    assert sheet["story"] == "My story is of a woman who pays her debts"
    # Ana spent green in the resolution: "When you spend a token, set it aside." (SRD 423)
    assert sheet["procedural_tokens"] == {"unspent": ["yellow", "red"], "spent": ["green"]}
    custom = json.loads(_run(cli, db, "sheet", "Vel", "--json"))
    assert custom["custom_type"] == "Lockpicking" and custom["action_types"][0] == {
        "name": "Lockpicking", "grade": "strong", "custom": True, "how_i_do_it": ""}
    # The sheet as it stood before the resolution: every token unspent.
    before = json.loads(_run(cli, db, "sheet", "Iris", "--as-of", "17", "--json"))
    assert before["procedural_tokens"] == {"unspent": ["green", "yellow", "red"], "spent": []}
    out = _run(cli, db, "sheet", "Iris")
    assert "dirty tricks" in out and all(len(line) <= 80 for line in out.splitlines())


def test_an_unknown_character_is_one_line_exit_2(cli, table):
    db = table()
    code, out, err = cli("--db", db, "sheet", "Nobody")
    assert code == 2 and out == "" and err.count("\n") == 1 and "not a player character" in err


def test_printable_sheets_escape_what_people_typed(cli, tmp_path):
    db = str(tmp_path / "hostile.db")
    for args in SETUP[:4]:
        _run(cli, db, *args)
    _run(cli, db, "character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking", "--weak",
         "Knowing,Making", "--story", "<script>alert(1)</script> **bold** \x1b[31m", "--role", "[link](http://x)")
    html = _run(cli, db, "sheet", "Iris", "--format", "html")
    assert "<script>" not in html and "&lt;script&gt;" in html and "\x1b" not in html
    md = _run(cli, db, "sheet", "Iris", "--format", "md")
    assert "**bold**" not in md and "\\*\\*bold\\*\\*" in md and "\x1b" not in md
    assert "[link](http://x)" not in md


def test_the_ledger_ties_each_token_to_its_event_scene_rule_and_the_pile_after(cli, table):
    db = table()
    _run(cli, db, "draw", "Cy", "--pass")
    _run(cli, db, "resolve")
    lines = json.loads(_run(cli, db, "ledger", "--json"))
    moves = [(line["sequence"], line["scene"], line["participant"], line["move"], line["colour"],
              line["rule_number"], line["unspent_after"]) for line in lines]
    assert moves == [
        (16, 1, "Maya", "set aside", "yellow", "DS35", None),  # the GM's own view shows her secret
        (18, 1, "Ana", "spent", "green", "DS37", ["yellow", "red"]),
        (19, 1, "Ben", "spent", "yellow", "DS37", ["green", "red"]),
        (21, 1, "Maya", "spent", "yellow", "DS35", ["green", "red"]),
    ]
    # A player's ledger never has the line of the secret token.
    seen = json.loads(_run(cli, db, "ledger", "--as", "Ana", "--json"))
    assert [line["sequence"] for line in seen] == [18, 19, 21]
    ana = json.loads(_run(cli, db, "ledger", "--participant", "ana", "--json"))
    assert [line["participant"] for line in ana] == ["Ana"]
    out = _run(cli, db, "ledger", "--participant", "Ana", "--quotes")
    assert "DS37" in out and all(len(line) <= 80 for line in out.splitlines())


def test_spending_the_last_token_is_a_refresh_line_with_all_three_back(cli, tmp_path):
    """"When you've spent all three of them, they immediately refresh." (SRD 423)"""
    db = str(tmp_path / "refresh.db")
    for args in SETUP:
        _run(cli, db, *args)
    for scene, (ana, ben) in enumerate((("green", "yellow"), ("yellow", "green"), ("red", "red")), start=1):
        if scene > 1:
            _run(cli, db, "scene", "close")
            _run(cli, db, "scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural")
        _run(cli, db, "oppose", ("red", "yellow", "green")[scene - 1])
        _run(cli, db, "target", "--card", "KC", "--order", "Ana,Ben,Cy")
        _run(cli, db, "draw", "Ana", "--token", ana)
        _run(cli, db, "draw", "Ben", "--token", ben)
        _run(cli, db, "draw", "Cy", "--pass")
        _run(cli, db, "resolve")
    ana = json.loads(_run(cli, db, "ledger", "--participant", "Ana", "--json"))
    assert [(line["move"], line["colour"], line["rule_number"], line["unspent_after"]) for line in ana] == [
        ("spent", "green", "DS37", ["yellow", "red"]),
        ("spent", "yellow", "DS37", ["red"]),
        ("spent", "red", "DS37", []),
        ("refreshed", None, "DS31", ["green", "yellow", "red"]),
    ]
    assert ana[2]["sequence"] == ana[3]["sequence"]  # the refresh is immediate: the same event
    maya = json.loads(_run(cli, db, "ledger", "--participant", "Maya", "--json"))
    assert maya[-1]["move"] == "refreshed" and maya[-1]["rule"].startswith("When you've spent all three")
    # The ledger's last pile of each participant is the board's.
    board = {p["name"]: p["unspent"] for p in json.loads(_run(cli, db, "tokens", "--json"))["participants"]}
    lines = json.loads(_run(cli, db, "ledger", "--json"))
    last = {line["participant"]: line["unspent_after"] for line in lines if line["unspent_after"] is not None}
    assert all(board[name] == pile for name, pile in last.items()) and board["Ben"] == ["green", "yellow", "red"]


def test_explain_says_why_the_piles_are_what_they_are_after_an_event(cli, table):
    db = table()
    data = json.loads(_run(cli, db, "explain", "18", "--json"))
    before = {p["name"]: p["unspent"] for p in data["piles_before"]}
    after = {p["name"]: p["unspent"] for p in data["piles_after"]}
    assert before["Ana"] == ["green", "yellow", "red"] and after["Ana"] == ["yellow", "red"]
    assert before["Ben"] == after["Ben"]
    assert [(r["number"], r["chapter"]) for r in data["rules"]] == [("DS37", "Procedural Resolution")]
    assert data["said"].startswith("Ana spends green and draws")
    _run(cli, db, "retract", "19", "--reason", "Ben misread the card", "--yes")
    retracted = json.loads(_run(cli, db, "explain", "19", "--json"))
    assert retracted["standing"] == "retracted" and retracted["lines"] == []
    assert retracted["amendments"][0]["reason"] == "Ben misread the card"
    code, _, err = cli("--db", db, "explain", "16", "--as", "Ana")
    assert code == 2 and "not visible to Ana" in err and err.count("\n") == 1


def test_resolutions_list_each_in_two_lines_at_80_columns_with_the_book_s_words_and_odds(cli, table):
    db = table()
    _run(cli, db, "draw", "Cy", "--pass")
    _run(cli, db, "resolve")
    [report] = json.loads(_run(cli, db, "resolutions", "--json"))
    assert report["kind"] == "simple" and report["target"] == "KC" and report["gm_token"] == "yellow"
    assert report["tokens"] == [["Ana", "green"], ["Ben", "yellow"], ["Cy", None]]
    assert [c["card"] for c in report["cards"]] == ["QH", "3C", "5D"]
    # Digest, section 6: players green then yellow against the GM's yellow succeed with 23/35.
    assert report["odds"] == [{"against": "yellow", "chance": "23/35", "percent": 66}]
    # "On a match, the characters prevail." 3♣ shares the K♣'s suit: "Impressive" (SRD 515, 545-563).
    assert "the characters prevail (impressive)" in report["result"]
    out = _run(cli, db, "resolutions")
    first, *rest = out.splitlines()
    assert first.startswith("#17 scene 1. Simple: target K♣") and all(len(line) <= 80 for line in out.splitlines())
    assert len(rest) <= 2 and all(line.startswith("  ") for line in rest)
    assert "Q♥ 3♣" in out and "23/35" in out


def test_resolutions_of_advanced_and_contests_say_cards_results_and_policy(cli, tmp_path):
    db = str(tmp_path / "more.db")
    for args in SETUP:
        _run(cli, db, *args)
    _run(cli, db, "advanced", "open", "Iris", "--type", "fighting", "--token", "yellow", "--opening", "3S,KH,4D")
    _run(cli, db, "advanced", "primary", "--cards", "2C,9H")
    _run(cli, db, "advanced", "redraw", "Cy", "--absent-green", "--card", "QS")
    _run(cli, db, "advanced", "clinch")
    _run(cli, db, "scene", "close")
    _run(cli, db, "scene", "open", "--caller", "Ben", "--cast", "Iris,Tomas", "--mode", "procedural")
    _run(cli, db, "contest", "start", "Iris", "--type", "Fighting", "--token", "red", "--against", "GM",
         "--against-token", "red")
    _run(cli, db, "contest", "assist", "Ben", "--side", "Iris", "--type", "Moving", "--token", "red")
    _run(cli, db, "contest", "draw", "Iris", "--card", "KS")
    _run(cli, db, "contest", "draw", "GM", "--card", "2H")
    _run(cli, db, "contest", "draw", "Iris", "--card", "3D", "--by", "Ben")
    _run(cli, db, "contest", "end")
    advanced, solo = json.loads(_run(cli, db, "resolutions", "--json"))
    # "A yellow says that it is a run-of-the-mill problem. ... spades or hearts" (SRD 800): Q♠ is an up face.
    assert advanced["result"].startswith("clincher Q♠: an especially impressive success")
    # Digest, section 6: P(up clincher), yellow, Strong = 77/102.
    assert advanced["odds"] == [{"against": "yellow", "chance": "77/102", "percent": 75}]
    assert [c["card"] for c in advanced["cards"]] == ["3S", "KH", "4D", "2C", "9H", "QS"]
    assert solo["kind"] == "solo" and solo["allowance"] == [2, 1]  # Iris red 1, Ben's red assist 1; the GM red 1
    assert solo["odds"] == [{"for": "Iris", "chance": "2/3", "percent": 67}]
    assert solo["result"] == "Iris wins with K♠ over 2♥"
    ledger = json.loads(_run(cli, db, "ledger", "--json"))
    assert [(line["participant"], line["rule_number"]) for line in ledger] == [
        ("Maya", "DS54"), ("Cy", "DS60"), ("Ana", "DS46"), ("Maya", "DS50"), ("Ben", "DS51")]
    out = _run(cli, db, "resolutions")
    assert all(len(line) <= 80 for line in out.splitlines())


def test_a_player_sees_nothing_of_the_gm_s_secret_token_before_its_reveal(cli, table):
    """SRD 445, digest 4.16: every view a player reads is the same whichever token the GM spent."""
    views = (("tokens", "--json"), ("ledger", "--json"), ("resolutions", "--json"), ("resolutions",),
             ("explain", "18", "--json"), ("sheet", "Iris", "--json"), ("recap", "--json"), ("recap",),
             ("recap", "--format", "html"), ("tokens",))
    seen = {}
    for token in ("green", "red"):
        db = table(token, name=f"{token}.db")
        seen[token] = [_run(cli, db, *view, "--as", "Ana") for view in views]
        players = _run(cli, db, "recap", "--players", "--json")
        assert '"gm_token": null' in _run(cli, db, "resolutions", "--as", "Ben", "--json")
        assert "in secret" not in players
    assert seen["green"] == seen["red"]
    tokens = json.loads(seen["green"][0])
    maya = next(p for p in tokens["participants"] if p["gm"])
    assert maya["unspent"] is None and maya["hidden"]
    [report] = json.loads(seen["green"][2])
    assert [o["against"] for o in report["odds"]] == ["red", "yellow", "green"]


def test_the_gm_sees_her_token_and_a_player_sees_it_once_revealed(cli, table):
    db = table("green")
    gm = json.loads(_run(cli, db, "tokens", "--json"))
    maya = next(p for p in gm["participants"] if p["gm"])
    assert maya["set_aside"] == ["green"] and maya["unspent"] == ["green", "yellow", "red"]
    [report] = json.loads(_run(cli, db, "resolutions", "--json"))
    assert report["gm_token"] == "green" and [o["against"] for o in report["odds"]] == ["green"]
    _run(cli, db, "draw", "Cy", "--pass")
    _run(cli, db, "resolve")
    ana = json.loads(_run(cli, db, "tokens", "--as", "Ana", "--json"))
    maya = next(p for p in ana["participants"] if p["gm"])
    assert maya["unspent"] == ["yellow", "red"] and maya["set_aside"] == []
    [report] = json.loads(_run(cli, db, "resolutions", "--as", "Ana", "--json"))
    assert report["gm_token"] == "green" and not report["open"]


def test_the_recap_tells_scenes_moves_and_piles_and_escapes_what_people_typed(cli, table):
    db = table()
    _run(cli, db, "note", "<img src=x onerror=alert(1)> *the docks* \x1b[2J")
    md = _run(cli, db, "recap")
    # The scene told in words, then its cards in short (issue 26: a story, not a move-by-move log).
    assert "## Episode 1: Fog" in md and "Ana called a procedural scene, with Iris and Tomas." in md
    assert "Ana green Q♥ 3♣" in md and "the GM spent yellow in secret" in md  # the GM's recap holds everything
    assert "\x1b" not in md and "<img" not in md and "\\*the docks\\*" in md
    html = _run(cli, db, "recap", "--format", "html")
    assert "<img" not in html and "\x1b" not in html and "The economy: tokens at the end" in html
    player = _run(cli, db, "recap", "--as", "Ana")
    assert "in secret" not in player and "hidden until the resolution ends" in player
    data = json.loads(_run(cli, db, "recap", "--json"))
    [scene] = data["episodes"][0]["scenes"]
    assert scene["resolutions"][0]["target"] == "KC" and scene["cast"] == ["Iris", "Tomas"]


def test_a_template_of_the_user_s_replaces_the_sheet_s_one_file(cli, table, tmp_path):
    db = table()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "sheet.md.j2").write_text("{{ sheet.name }} holds {{ sheet.procedural_tokens.unspent|join('+') }}\n")
    assert _run(cli, db, "sheet", "Iris", "--format", "md", "--templates", str(mine)) == "Iris holds yellow+red\n"
    assert "<!DOCTYPE html>" in _run(cli, db, "sheet", "Iris", "--format", "html", "--templates", str(mine))
    (mine / "sheet.md.j2").write_text("{% if %}")
    code, _, err = cli("--db", db, "sheet", "Iris", "--format", "md", "--templates", str(mine))
    assert code == 2 and err.count("\n") == 1 and "template" in err


def test_explain_a_scene_tells_each_event_the_tokens_it_moved_and_the_piles_around_it(cli, table):
    db = table()
    _run(cli, db, "draw", "Cy", "--pass")
    _run(cli, db, "resolve")
    data = json.loads(_run(cli, db, "explain", "--scene", "1", "--json"))
    before = {p["name"]: p["unspent"] for p in data["piles_before"]}
    after = {p["name"]: p["unspent"] for p in data["piles_after"]}
    assert before["Maya"] == ["green", "yellow", "red"] and after["Maya"] == ["green", "red"]
    moved = {e["sequence"]: [(line["participant"], line["rule_number"]) for line in e["lines"]]
             for e in data["events"]}
    assert moved[18] == [("Ana", "DS37")] and moved[21] == [("Maya", "DS35")]
    assert moved[16] == [("Maya", "DS35")]  # the GM's view: her token set aside
    seen = json.loads(_run(cli, db, "explain", "--scene", "1", "--as", "Ana", "--json"))
    assert 16 not in [e["sequence"] for e in seen["events"]]
    out = _run(cli, db, "explain", "--scene", "1")
    assert "Scene 1 called by Ana" in out and all(len(line) <= 80 for line in out.splitlines())
    code, _, err = cli("--db", db, "explain", "18", "--scene", "1")
    assert code == 2 and "one of them" in err


def test_the_advanced_resolution_s_token_is_public_so_nothing_is_hidden(cli, tmp_path):
    """"A red token indicates that the task at hand is unusually easy." (SRD 798): everyone plays to it."""
    db = str(tmp_path / "open.db")
    for args in SETUP:
        _run(cli, db, *args)
    _run(cli, db, "advanced", "open", "Iris", "--type", "Talking", "--token", "red", "--opening", "3S,4C")
    [report] = json.loads(_run(cli, db, "resolutions", "--as", "Ben", "--json"))
    assert report["gm_token"] == "red" and report["open"]
    maya = next(p for p in json.loads(_run(cli, db, "tokens", "--as", "Ben", "--json"))["participants"] if p["gm"])
    assert maya["unspent"] == ["green", "yellow"]


def test_an_outright_win_lists_no_token_and_no_card(cli, tmp_path):
    """"If one primary is using a Strong ability and another a Weak ability, the Strong character
    automatically wins, no resolution system required." (SRD 581)"""
    db = str(tmp_path / "outright.db")
    for args in SETUP:
        _run(cli, db, *args)
    _run(cli, db, "contest", "start", "Iris", "--type", "Talking", "--token", "green", "--against", "Tomas",
         "--against-type", "Talking", "--against-token", "red")
    _run(cli, db, "contest", "end")
    [report] = json.loads(_run(cli, db, "resolutions", "--json"))
    assert report["tokens"] == [] and report["cards"] == [] and report["odds"] == []
    assert report["result"].startswith("Iris wins outright") and not report["open"]
    assert json.loads(_run(cli, db, "ledger", "--json")) == []
    assert _run(cli, db, "resolutions").startswith("#16 scene 1. Contest: Iris v Tomas\n  Iris wins outright")
