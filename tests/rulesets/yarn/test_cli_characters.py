"""The characters commands of the CLI: sheets, the cast, precedence and experience at the table."""

from __future__ import annotations

import json

import pytest

from yarnlog.cli.main import EXIT_CODES


@pytest.fixture
def table(cli):
    assert cli("init", "lantern", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    for name in ("Ana", "Ben"):
        assert cli("join", name)[0] == 0
    return cli


IRIS = (
    "character", "create", "Iris", "--player", "Ana", "--role", "harbour pilot", "--desire", "respect",
    "--pole", "loyal daughter", "--pole", "free spirit",
    "--central", "Military Background:standard", "--side", "Tough:standard", "--side", "Medicine:technical",
    "--superior", "Tough", "--flaw", "Prone to Reckless Violence", "--fighting", "Military Background",
    "--sign", "Military Background=battle scars", "--sign", "Tough=Big-boned", "--sign", "Medicine=doctor's bag",
    "--sign", "Prone to Reckless Violence=Sullen demeanor", "--describe", "Tough=Resist poisons, pain, and fatigue.",
    "--hp-from", "Tough", "--hp-descriptor", "brawn", "--equipment", "a sextant",
    "--story", "My story is of a woman who wants her father's respect.", "--approved",
)


def run_json(table, *args):
    code, out, err = table(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_create_a_character_with_options_and_read_the_sheet(table):
    # "If this trait is ranked as 4 dice, your hit points are 28."
    recorded = run_json(table, *IRIS)
    assert recorded[0]["event_type"] == "yarn.character.created"
    sheet = run_json(table, "sheet", "Iris")
    assert {t["name"]: t["dice"] for t in sheet["traits"]} == {"Military Background": 3, "Tough": 4, "Medicine": 1}
    assert (sheet["hit_points"]["normal"], sheet["hit_points"]["current"], sheet["experience"]["pool"],
            sheet["equipment"]) == (28, 28, 1, ["a sextant"])
    code, out, _ = table("sheet", "Iris")
    assert code == 0 and "Iris" in out and "brawn" in out and "Tough (superior)" in out


def test_create_from_a_sheet_file_with_options_on_top(table, tmp_path):
    sheet = {
        "name": "Jon", "player": "Ben", "role": "cook", "desire": "love", "poles": ["glutton", "ascetic"],
        "central": "Cooking:standard", "sides": ["Strong:standard", "Brawling:standard"], "superior": "Strong",
        "flaw": {"name": "Coward", "signs": ["Darting eyes"]},
        "signs": {"Cooking": "Apron", "Strong": "Thick arms", "Brawling": "Broken nose"},
        "hit_point_basis": [{"trait": "Strong", "faces": [6, 6, 6, 6, 5, 5, 4, 4]}],
        "hit_point_descriptor": "guts", "story": "My story is of a man who cooks.", "gm_approved": True,
    }
    path = tmp_path / "jon.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    recorded = run_json(table, "character", "create", "--from-file", str(path), "--desire", "approval")
    payload = recorded[0]["payload"]
    assert (payload["desire"], payload["hit_points"], payload["hit_point_basis"][0]["source"]) == ("approval", 42,
                                                                                                  "entered")


def test_the_tool_rolls_hit_points_on_request(table):
    # "Simply roll double the number of appropriate dice [...] and your total is your hit points."
    args = [a for a in IRIS if a not in ("--hp-from",)]
    args[args.index("Tough", args.index("--superior") + 2)] = "--hp-roll"
    args.insert(args.index("--hp-roll") + 1, "Tough")
    payload = run_json(table, *args)[0]["payload"]
    basis = payload["hit_point_basis"][0]
    assert basis["source"] == "rolled" and len(basis["faces"]) == 8
    assert payload["hit_points"] == sum(basis["faces"])


def test_a_long_story_is_refused_with_the_rule_and_nothing_is_written(table):
    # "If your sentence is more than 25 words long, your idea isn't simple enough."
    _, before, _ = table("export")
    story = "My story is of a woman who " + "truly " * 20
    args = list(IRIS)
    args[args.index("--story") + 1] = story
    code, out, err = table(*args)
    assert code == EXIT_CODES["rule"] and out == ""
    assert err == "Refused. The story sentence has 27 words (Your Story).\n"
    code, out, err = table(*args, "--json")  # the rule's own words, in full
    assert code == EXIT_CODES["rule"] and err.count("\n") == 1 and "more than 25 words long" in err
    assert table("export")[1] == before
    recorded = run_json(table, *args, "--override", "a long tale, allowed")
    assert [r["event_type"] for r in recorded] == ["override.recorded", "yarn.character.created"]


def test_precedence_drawn_by_the_tool_or_entered_and_the_theme_rota(table):
    order = run_json(table, "precedence", "draw", "--purpose", "creation")[0]["payload"]
    assert sorted(order["order"]) == ["Ana", "Ben"] and order["source"] == "shuffled"
    code, _, err = table("precedence", "draw", "--purpose", "theme-rota", "--order", "Ben,Ana")
    assert code == EXIT_CODES["rule"] and "end of the first session" in err
    table("episode", "start")  # drawn at the end of the first session, before it is closed
    run_json(table, "precedence", "draw", "--purpose", "theme-rota", "--order", "Ben,Ana")
    shown = run_json(table, "precedence", "show")
    assert [(r["episode"], r["chooser"]) for r in shown["theme_rota"]] == [(2, "Ben"), (3, "Ana")]
    assert table("precedence", "show")[0] == 0
    code, _, err = table("precedence", "draw", "--purpose", "whim")
    assert code == EXIT_CODES["invalid"] and "--purpose is one of" in err


def test_experience_at_the_table(table):
    # "It costs 5 dice from your pool [...] to develop a new trait." / "The GM must approve every
    # trait improvement"
    table(*IRIS)
    table("episode", "start")
    table("call", "Ana", "--cast", "Iris", "--kind", "training")
    # Line 1465: "Awarding these dice is entirely up to the GM." A player's award is refused, nothing written.
    before = run_json(table, "xp", "status")
    code, out, err = table("xp", "award", "5", "--reason", "we earned it", "--by", "Ana")
    assert (code, out, err) == (EXIT_CODES["invalid"], "", "error: an experience award is the GM's: record it --by "
                                "Maya, not Ana\n")
    assert run_json(table, "xp", "status") == before
    run_json(table, "xp", "award", "5", "--reason", "a session's play")
    code, _, err = table("xp", "develop", "Iris", "Brawling", "--sign", "Split knuckles")
    assert code == EXIT_CODES["rule"] and "approve" in err
    developed = run_json(table, "xp", "develop", "Iris", "Brawling", "--sign", "Split knuckles", "--approved",
                         "--months", "1", "--training-scene", "1", "--hp", "roll")[0]["payload"]
    assert developed["score"] == 3 and len(developed["hit_point_gain"]["faces"]) == 6
    status = run_json(table, "xp", "status")
    assert status == [{"character": "Iris", "player": "Ana", "pool": 1, "used": 0, "available": 1}]
    code, _, err = table("xp", "raise", "Iris", "Medicine", "--approved")
    assert code == EXIT_CODES["rule"] and "the pool has 1" in err
    code, _, err = table("xp", "raise", "Iris", "Juggling", "--approved")
    assert code == EXIT_CODES["invalid"] and "no trait 'Juggling'" in err
    assert table("verify")[0] == 0


def test_the_supporting_cast_locations_and_relationships(table):
    table(*IRIS)
    table("episode", "start")
    table("call", "Ana", "--cast", "Iris")
    run_json(table, "supporting", "add", "Old Tom", "--description", "the harbour master", "--introduced-by", "Ana")
    run_json(table, "supporting", "promote", "Old Tom", "--pc", "Iris", "--need", "his blessing")
    run_json(table, "supporting", "detail", "Old Tom", "lost a hand")
    run_json(table, "location", "add", "The Quay", "--description", "wet stone and gulls")
    run_json(table, "location", "detail", "The Quay", "a chapel at its end")
    cast = run_json(table, "cast")
    assert [c["name"] for c in cast["recurring"]] == ["Old Tom"] and cast["minor"] == []
    assert cast["locations"][0]["introduced_by"] == "Maya"
    relationships = run_json(table, "relationships")
    assert relationships["needs"] == [{"character": "Iris", "recurring": "Old Tom", "need": "his blessing"}]
    assert table("cast")[0] == 0 and table("relationships")[0] == 0
    code, _, err = table("character", "relate", "Iris", "Old Tom", "--nature", "godfather")
    assert code == EXIT_CODES["rule"] and "Iris and Old Tom share no scene" in err
    assert err.rstrip().endswith("(Recurring Characters).")


def test_the_sheet_as_of_an_earlier_event(table):
    table(*IRIS)
    table("episode", "start")
    table("call", "Ana", "--cast", "Iris")
    table("xp", "award", "5")
    table("call", "Ana", "--cast", "Iris")
    table("xp", "develop", "Iris", "Brawling", "--sign", "Fists", "--approved")
    assert run_json(table, "sheet", "Iris", "--end-of-scene", "1")["experience"]["pool"] == 6
    assert run_json(table, "sheet", "Iris")["experience"]["pool"] == 1
    code, _, err = table("sheet", "Nobody")
    assert code == EXIT_CODES["invalid"] and "Nobody is not a player character" in err


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_sheet_is_written_to_a_file_with_o(table, tmp_path, fmt):
    """Issue 26: ``sheet NAME -o FILE`` writes the page, says so on stderr, prints nothing else."""
    assert table(*IRIS)[0] == 0
    target = tmp_path / f"iris.{fmt}"
    code, out, err = table("sheet", "Iris", "--format", fmt, "-o", str(target))
    assert (code, out) == (0, ""), err
    assert err == f"Wrote Iris's sheet to {target}\n"
    assert target.read_text(encoding="utf-8") == table("sheet", "Iris", "--format", fmt)[1]
    code, _, err = table("sheet", "Iris", "-o", str(target))  # the terminal's text is no file
    assert code == 2 and err == "error: -o FILE writes the sheet as md or html: give --format md or html\n"
