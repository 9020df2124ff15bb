"""The command line of procedural play: roll, rolls, read, group, consequences, psychic, spell."""

from __future__ import annotations

import json

import pytest

from yarnlog.cli.main import EXIT_CODES


def sheet(name: str, player: str, central: str, sides: list[str], superior: str, **extra) -> dict:
    signs = {t.split(":")[0]: "a sign" for t in [central, *sides, "Reckless"]}
    return {"name": name, "player": player, "role": "crew", "desire": "respect", "poles": ["loyal", "free"],
            "central": central, "sides": sides, "superior": superior, "flaw": "Reckless", "signs": signs,
            "hit_point_descriptor": "guts", "story": "My story is of a sailor.", "gm_approved": True} | extra


@pytest.fixture
def table(cli, tmp_path):
    """Iris (Ana: Military Background 3, Tough 4, Dreamhaunting 1) and Tom (Ben) in a procedural scene.

    Set up through the journal itself (each CLI call builds the whole command tree: slow).
    """
    from yarnlog.app.journal import Journal
    from yarnlog.core.table import AddParticipant
    from yarnlog.core.timeline import OpenScene, StartEpisode
    from yarnlog.persistence.factory import open_store
    from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command

    store = open_store(tmp_path / "journal.db")
    journal = Journal(store)
    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya", options={"unstoppable_six": True})
    for name in ("Ana", "Ben"):
        journal.execute("lantern", AddParticipant(name=name))
    for data in (sheet("Iris", "Ana", "Military Background:standard", ["Tough:standard", "Dreamhaunting:technical"],
                       "Tough"),
                 sheet("Tom", "Ben", "Manipulating People:standard", ["Strong:standard", "Perceptive:standard"],
                       "Perceptive", relationships={"Iris": "brother"})):
        journal.execute("lantern", creation_command(data))
    journal.execute("lantern", StartEpisode())
    journal.execute("lantern", OpenScene(caller="Maya", cast=("Iris", "Tom"), mode="procedural"))
    store.close()
    return cli


def recorded(out: str) -> list[dict]:
    return json.loads(out)


def test_a_roll_with_faces_from_the_table(table):
    # "You succeed if you beat the GM's roll or the difficulty factor she assigns." Hard is 11.
    code, out, err = table("roll", "Iris", "-t", "military background", "--difficulty", "hard", "--faces", "6,6,2",
                           "--json")
    assert code == 0, err
    made = recorded(out)[0]
    assert made["event_type"] == "yarn.roll.made"
    payload = made["payload"]
    assert (payload["trait"], payload["outcome"], payload["margin"]) == ("Military Background", "beats", 3)
    assert payload["odds"]["beats"] == {"exact": "3/8", "percent": "38%"}
    assert payload["breaks"] == {"good": True, "bad": False}
    code, out, _ = table("roll", "Tom", "--against", "7", "--faces", "3 2")
    assert code == 0 and "Tom rolled 2 dice with no trait: 3 + 2 = 5 against difficulty 7: fails by 2" in out
    code, out, _ = table("--verbose", "roll", "Tom", "--against", "7", "--faces", "3 2")
    assert code == 0 and "Tom rolls no trait (no trait), 2d6: 3 2 = 5, fails against difficulty 7 by 2" in out


def test_the_tool_rolls_when_no_faces_are_given(table):
    code, out, _ = table("roll", "Iris", "-t", "Tough", "--bonus", "1", "--json")
    dice = recorded(out)[0]["payload"]["dice"]
    assert code == 0 and (dice["source"], len(dice["faces"]), dice["notation"]) == ("rolled", 5, "5d6kh4")


def test_illegal_rolls_exit_with_their_code_and_write_nothing(table):
    code, _, err = table("roll", "Iris", "-t", "Tough", "--bonus", "1", "--faces", "1,2,3,4,5,6")
    assert code == EXIT_CODES["invalid"] and "a 5-die roll (5d6kh4) needs 5 faces, got 6" in err
    assert table("roll", "Iris", "-t", "Tough", "--xp", "1", "--why", "a sailor", "--for", "climb",
                 "--faces", "1,2,3,4,5")[0] == 0
    _, before, _ = table("log", "--json")
    code, _, err = table("roll", "Iris", "-t", "Tough", "--xp", "1", "--why", "again", "--for", "climb",
                         "--faces", "1,2,3,4,5")
    assert code == EXIT_CODES["rule"]
    assert err == "Refused. 1 of 1 experience dice are used this session (Experience Pool).\n"
    assert table("log", "--json")[1] == before
    code, out, _ = table("roll", "Iris", "-t", "Tough", "--xp", "1", "--why", "again", "--for", "climb",
                         "--faces", "1,2,3,4,5", "--override", "a heroic moment", "--json")
    assert code == 0 and [e["event_type"] for e in recorded(out)] == ["override.recorded", "yarn.roll.made"]
    code, _, err = table("roll", "Iris", "-t", "Tough", "--against", "7", "--opposed", "3")
    assert code == EXIT_CODES["invalid"] and "against one thing" in err


def test_secret_gmc_rolls_the_rolls_list_and_the_gms_reading(table):
    _, out, _ = table("roll", "guard", "-t", "Alert", "--dice", "2", "--faces", "3,4", "--secret", "--json")
    guard = recorded(out)[0]["sequence"]
    code, out, _ = table("roll", "Tom", "-t", "Manipulating People", "--opposed", str(guard), "--faces", "2,3,4",
                         "--json")
    assert code == 0 and recorded(out)[0]["payload"]["against"]["number"] is None
    tom = recorded(out)[0]["sequence"]
    assert table("read", str(tom), "the guard believes him, for now")[0] == 0
    _, out, _ = table("rolls", "--json")
    gm_view = recorded(out)
    assert [r["sequence"] for r in gm_view] == [guard, tom]
    assert (gm_view[1]["against"]["number"], gm_view[1]["margin"], gm_view[1]["readings"]) == (
        7, 2, ["the guard believes him, for now"])
    _, out, _ = table("rolls", "--as", "Ben", "--json")
    assert [(r["sequence"], r["against"]["number"]) for r in recorded(out)] == [(tom, None)]
    code, out, _ = table("rolls", "--scene", "1")
    assert code == 0 and "guard" in out


def test_group_efforts_on_the_command_line(table):
    # Simple addition: "they roll a 4 and a 10, for a total of 14" against 13.
    a = recorded(table("roll", "Iris", "--faces", "1,3", "--json")[1])[0]["sequence"]
    b = recorded(table("roll", "Tom", "--faces", "4,6", "--json")[1])[0]["sequence"]
    code, out, _ = table("group", "add", str(a), str(b), "--against", "13", "--json")
    group = recorded(out)[0]["payload"]
    assert code == 0 and (group["total"], group["outcome"]) == (14, "beats")
    # Combining dice: "He rolls four dice, she rolls two, and they take the best four dice between them"
    code, out, err = table("group", "combine", "Iris=Tough", "Tom", "--faces", "1,5,2,6,3,4", "--json")
    assert code == 0, err
    assert recorded(out)[0]["payload"]["dice"]["notation"] == "6d6kh4"
    code, out, _ = table("group", "combine", "rough:2", "rough:2", "--faces", "6,1,2,6", "--secret", "--json")
    assert code == 0 and recorded(out)[0]["payload"]["gmc"] is True
    _, out, _ = table("group", "list", "--json")
    assert [g["method"] for g in recorded(out)] == ["simple addition", "combining dice", "combining dice"]
    _, out, _ = table("group", "list", "--as", "Ana", "--json")
    assert len(recorded(out)) == 2


def test_consequences_due_and_rolled(table):
    # "At the end of a procedural scene where you have a good break roll 1d6 [...] on a 6 you have a
    # good consequence."
    table("roll", "Iris", "-t", "Tough", "--faces", "6,6,1,2")
    _, out, _ = table("consequences", "--json")
    assert recorded(out)["due"] == [{"character": "Iris", "kind": "good", "breaks": [8]}]
    code, out, _ = table("consequences", "--roll", "--face", "Iris:good=6", "--json")
    assert code == 0 and [e["event_type"] for e in recorded(out)] == ["yarn.consequence.rolled", "scene.closed"]
    _, out, _ = table("consequences", "--scene", "1")
    assert "yes" in out
    code, _, err = table("consequences", "--roll", "--face", "Iris=6")
    assert code == EXIT_CODES["invalid"] and "CHARACTER:good=N" in err


def test_psychic_pools_and_spells_on_the_command_line(table):
    code, out, err = table("psychic", "pool", "Iris", "--power", "dreamhaunting", "--three", "--name", "ch'i pool",
                           "--json")
    assert code == 0, err
    code, out, err = table("psychic", "use", "Iris", "Dreamhaunting", "--push", "--faces", "2,5", "--json")
    assert code == 0, err
    assert recorded(out)[0]["payload"]["psychic"] == {"kind": "push", "power": "Dreamhaunting", "shots": 2,
                                                      "bonus_dice": 1, "extra_dice": 0}
    _, out, _ = table("psychic", "show", "--json")
    assert recorded(out)[0] | {"spells": []} == {"character": "Iris", "pool": "ch'i pool", "shots": 1,
                                                 "capacity": 3, "powers": {"Dreamhaunting": 1}, "spells": []}
    code, out, _ = table("psychic", "recover", "Iris", "--hours", "8", "--json")
    assert code == 0 and recorded(out)[0]["payload"]["shots"] == 2
    code, out, err = table("psychic", "learn", "Tom", "Hunches", "--dice", "1", "--faces", "6", "--secret", "--json")
    assert code == 0 and recorded(out)[0]["payload"]["learned"] is True and recorded(out)[0]["visibility"] == "gm"
    code, out, err = table("spell", "study", "Tom", "Lurking Chains", "--faces", "4", "--json")
    assert code == EXIT_CODES["rule"] and "costs 5 experience dice" in err
    code, out, err = table("spell", "cast", "Wizard", "Grip of Stone", "--level", "12", "--secret", "--json")
    cast = recorded(out)[0]["sequence"]
    code, out, err = table("spell", "resist", "Tom", "--cast", str(cast), "-t", "Strong", "--faces", "4,4,4")
    assert code == 0 and "resisted" not in err
    _, out, _ = table("rolls", "--json", "--character", "Tom")
    assert recorded(out)[-1]["resisted"] is True


def test_rolls_says_what_its_percentage_is(table):
    # Issue 26: "fails by 1, 5%" where the roll said "Chance of success was 90%": the percentage is the
    # prior chance of the outcome the roll had, and the table says so.
    code, out, _ = table("roll", "Iris", "-t", "military background", "--difficulty", "hard", "--faces", "6,6,2",
                         "--json")
    assert code == 0
    [row] = [r for r in json.loads(table("rolls", "--json")[1]) if r["sequence"] == recorded(out)[0]["sequence"]]
    code, out, _ = table("rolls")
    flat = " ".join(out.split())
    assert row["outcome"] == "beats" and f"beats by 3 ({row['odds_of_outcome']} chance)" in flat, out


def test_rolls_never_splits_a_word_within_80_columns(cli, monkeypatch):
    # Issue 26: `rolls` broke words mid-word ("characte/r", "Sharpsho/oter").
    from pathlib import Path

    monkeypatch.setenv("COLUMNS", "80")
    sample = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"
    assert cli("import", str(sample))[0] == 0
    rows = json.loads(cli("rolls", "--json")[1])
    code, out, _ = cli("rolls")
    assert code == 0 and all(len(line) <= 80 for line in out.splitlines())
    words = {"character", "trait", "outcome"} | {w for r in rows
                                                 for w in (r["character"] + " " + (r["trait"] or "")).split()}
    shown = set(out.split())
    assert not [w for w in words if w not in shown and len(w) <= 24], out
