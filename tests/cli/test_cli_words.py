"""Every write answers in words (issue 10): one sentence per recorded event, in the book's terms, and
one line on what follows (the drama tokens at the table, who calls next), within 80 columns;
``--verbose`` keeps the payload table, ``--json`` is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def table(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
                 ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben")):
        assert cli(*args)[0] == 0, args
    return cli


def said(cli, *args: str) -> list[str]:
    code, out, err = cli(*args)
    assert code == 0, err
    lines = out.splitlines()
    assert lines and all(len(line) <= 80 for line in lines), out
    assert "┃" not in out and "payload" not in out  # sentences, not the payload table
    return lines


def follow_up_matches_tokens(cli, line: str) -> None:
    """The follow-up line's numbers are those of ``yarnlog tokens --json``."""
    report = json.loads(cli("tokens", "--json")[1])
    held = {p["name"]: p["drama_tokens"] for p in report["participants"]}
    expected = ", ".join([f"{n} {held[n]}" for n in ("Ana", "Ben")] + [f"Maya (GM) {held['Maya']}"])
    assert line.startswith(f"Tokens: {expected}."), line


def test_a_scene_answers_in_words(table):
    lines = said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    assert lines[0] == "Scene 1 called by Ana with Iris, Tomas."
    follow_up_matches_tokens(table, lines[-1])
    assert lines[-1].endswith("Next to call: Maya.")

    lines = said(table, "note", "Iris hides the \x1b[31mkey[/b]")
    assert lines[0] == "Note by Maya: Iris hides the \u241b[31mkey[/b]"  # shown, never obeyed nor markup

    lines = said(table, "petition", "refused", "-p", "Iris", "-g", "Tomas")
    assert " ".join(lines[:-1]) == "Iris petitioned Tomas. Refused: Ana gains a token from the kitty (Gaining Tokens)."
    follow_up_matches_tokens(table, lines[-1])
    assert lines[-1].startswith("Tokens: Ana 1, Ben 0, Maya (GM) 0.")

    said(table, "call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic")
    lines = said(table, "petition", "granted", "-p", "Tomas", "-g", "Iris")
    assert lines[0].startswith("Tomas petitioned Iris. Granted: ")
    follow_up_matches_tokens(table, lines[-1])

    lines = said(table, "roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1")
    # The roll: how many dice and why, the kept faces, the total, the outcome and the prior odds.
    assert " ".join(lines[:-1]) == ("Tomas rolled 4 dice for Brawler: 6 + 4 + 3 + 1 = 14 against Hard 11: beats by 3 "
                                    "(Chancy Actions). Chance of success was 76%.")
    follow_up_matches_tokens(table, lines[-1])

    sequence = json.loads(table("log", "--type", "yarn.roll.made", "--json")[1])[-1]["sequence"]
    lines = said(table, "retract", str(sequence), "--reason", "the wrong dice", "--yes")
    assert lines[0] == f"Event {sequence} retracted (approved by Maya): the wrong dice."
    follow_up_matches_tokens(table, lines[-1])


def test_a_summary_that_ends_its_sentence_gets_no_second_full_stop(table):
    said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    assert said(table, "scene", "close", "--summary", "The fog lifts.")[0] == "Scene 1 closed: The fog lifts."
    said(table, "call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic")
    assert said(table, "scene", "close", "--summary", "Who lit the lamp?")[0] == "Scene 2 closed: Who lit the lamp?"
    said(table, "call", "Ben", "--cast", "Tomas,Iris", "--mode", "dramatic")
    assert said(table, "scene", "close", "--summary", "a quiet night")[0] == "Scene 3 closed: a quiet night."


def test_an_override_is_said_with_its_reason(table):
    said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    said(table, "call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic")
    lines = said(table, "challenge", "duck", "Tomas", "--compel", "--token", "--override", "Ben pays next session")
    assert any("Reason: Ben pays next session." in line for line in lines)
    assert any(line.startswith("Tomas (Ben) ducked the scene") for line in lines)
    follow_up_matches_tokens(table, lines[-1])


def test_verbose_shows_the_payload_and_json_is_unchanged(table):
    code, out, _ = table("--verbose", "note", "a plain aside")
    assert code == 0 and "text=a plain aside" in out and "Note by" not in out
    code, out, _ = table("note", "another aside", "--json")
    recorded = json.loads(out)
    assert [r["event_type"] for r in recorded] == ["note"] and recorded[0]["payload"]["text"] == "another aside"
    code, out, _ = table("log", "--type", "note")
    assert "text=a plain aside" in out  # the log shows the full payload


def test_a_long_sentence_is_wrapped_to_80_columns(table):
    lines = said(table, "note", "word " * 60)
    assert len(lines) >= 4


def test_a_roll_against_another_names_it(table):
    said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    said(table, "roll", "Iris", "--trait", "Tough", "--faces", "6,5,4,1")
    sequence = json.loads(table("log", "--type", "yarn.roll.made", "--json")[1])[-1]["sequence"]
    lines = said(table, "roll", "Tomas", "--trait", "Brawler", "--opposed", str(sequence), "--faces", "3,2,2,1",
                 "--by", "Ben")
    assert " ".join(lines[:-1]).startswith(
        "Tomas rolled 4 dice for Brawler: 3 + 2 + 2 + 1 = 8 against Iris's 16: fails by 8 (Comparing Your Roll).")


def test_token_movements_outside_a_move_are_said():
    from yarnlog.rulesets.yarn.recap.sentences import sentence

    moved = {"transfers": [{"source": "kitty", "destination": "Ana", "amount": 1}], "reason": "a ruling"}
    assert sentence("yarn.tokens.transferred", moved, {}, {}) == \
        "By the GM's ruling (a ruling): Ana gains a token from the kitty."
    back = {"transfers": [{"source": "Ana", "destination": "kitty", "amount": 2}]}
    assert sentence("yarn.tokens.returned", back, {}, {}) == \
        "Unspent drama tokens revert to the kitty: Ana pays 2 tokens to the kitty (Tokens)."


def test_creating_a_campaign_answers_in_words_with_the_title_as_typed(cli):
    lines = said(cli, "init", "harbor", "--title", "[bold]Harbor<b>", "--gm", "Maya")
    assert lines[0].startswith("Campaign harbor") and "[bold]Harbor<b>" in lines[0] and "Maya" in lines[0]
    assert json.loads(cli("log", "--json")[1])[0]["payload"]["title"] == "[bold]Harbor<b>"


def test_a_roll_says_how_many_dice_and_why(table):
    # "If you get a bonus and a penalty die for the same roll, they cancel each other, and you roll normally"
    # ("How Many Dice Do You Roll?"); a messed-up character "suffer[s] a penalty die on all actions" ("Messed Up").
    said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    said(table, "call", "Maya", "--cast", "Tomas", "--mode", "procedural")
    said(table, "damage", "Tomas", "--points", "20", "--reason", "a fall into the hold")  # 28 -> 8: messed up
    lines = said(table, "roll", "Tomas", "--trait", "Brawler", "--bonus", "1", "--faces", "5,4,3,1")
    assert " ".join(lines[:-1]).startswith(
        "Tomas rolled 4 dice for Brawler (4 for the trait, a bonus die, a penalty die for being messed up, "
        "a bonus die cancels a penalty die): 5 + 4 + 3 + 1 = 13.")
    lines = said(table, "roll", "Tomas", "--trait", "Brawler", "--faces", "6,5,4,1,1")
    # "Now drop out the highest rolling die and use the total of the remaining dice as your roll."
    assert " ".join(lines[:-1]).startswith(
        "Tomas rolled 5 dice for Brawler (4 for the trait, a penalty die for being messed up): "
        "5 + 4 + 1 + 1 = 11 (6 dropped).")


SAMPLE = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"


@pytest.mark.parametrize("read", [("rolls",), ("ledger",), ("ledger", "--participant", "Ana"), ("log",),
                                  ("log", "--type", "combat.attacked"), ("status",)])
def test_read_commands_are_legible_in_80_columns(cli, monkeypatch, read):
    monkeypatch.setenv("COLUMNS", "80")
    assert cli("import", str(SAMPLE))[0] == 0
    code, out, err = cli(*read)
    assert code == 0, err
    assert all(len(line) <= 80 for line in out.splitlines()), out
    assert "…" not in out  # nothing cut short
    if read == ("rolls",):
        lines = out.splitlines()
        for roll in json.loads(cli("rolls", "--json")[1]):
            # The dice as rolled on one line, the outcome whole.
            assert any(roll["dice"].split(": ", 1)[1] in line for line in lines), roll["dice"]
            if roll["outcome"]:
                assert any(f"{roll['outcome']} by {abs(roll['margin'])}" in line if roll["margin"] else
                           roll["outcome"] in line for line in lines), roll


def test_a_refusal_says_the_rule_short_and_json_keeps_it_whole(table):
    # "Forcing": "the petitioner may, by spending two drama tokens, force the granter [...]"; Ana holds none.
    said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    before = table("log", "--json")[1]
    code, out, err = table("force", "-p", "Iris", "-g", "Tomas")
    assert code == 3 and out == ""
    assert err == "Refused. Ana must pay 2 drama tokens but holds 0 (Forcing).\n"
    assert len(err.rstrip("\n")) <= 80
    code, out, err = table("force", "-p", "Iris", "-g", "Tomas", "--json")
    assert code == 3 and err.count("\n") == 1
    assert err.startswith("error: Ana must pay 2") and 'Yarn 0.1, "Forcing": the petitioner may' in err
    assert table("log", "--json")[1] == before  # nothing written


def test_a_refused_retraction_says_the_rule_it_would_break_in_one_line(table):
    # "Ducking a Scene": "You can duck this compulsion by spending a drama token, which goes to the caller."
    # Ana's only token came from the petition she lost; retracting that petition leaves the duck unpaid.
    said(table, "call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")
    petition = json.loads(table("petition", "refused", "-p", "Iris", "-g", "Tomas", "--json")[1])[0]["sequence"]
    said(table, "call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic")
    duck = json.loads(table("challenge", "duck", "Iris", "--compel", "--token", "--json")[1])[-1]["sequence"]
    before = table("log", "--json")[1]
    code, out, err = table("retract", str(petition), "--reason", "misheard", "--yes")
    assert code == 3 and out == ""
    # "Ducking a Scene" would take the line past 80 columns: the rule is named by its book and line.
    assert err == f"Refused. Event {duck} fails: Ana must pay 1 drama token but holds 0 (Yarn 514).\n"
    code, _, err = table("retract", str(petition), "--reason", "misheard", "--yes", "--json")
    assert code == 3 and err.count("\n") == 1  # --json quotes the rule broken whole, still on one line
    assert 'Yarn 0.1, "Ducking a Scene": You can duck this compulsion by spending a drama token' in err
    assert table("log", "--json")[1] == before  # nothing written
