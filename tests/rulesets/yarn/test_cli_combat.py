"""The combat commands at the table: fights, initiative, attacks, gestalt rolls and wounds, through the CLI."""

from __future__ import annotations

import json

import pytest

from yarnlog.cli.main import EXIT_CODES
from yarnlog.rulesets.yarn.recap import sentences

IRIS = {
    "name": "Iris", "player": "Ana", "role": "harbour pilot", "desire": "respect", "poles": ["duty", "freedom"],
    "central": "Tough", "sides": ["Agile", "Sly"], "superior": "Tough", "flaw": "Reckless",
    "signs": {"Tough": "big-boned", "Agile": "lithe", "Sly": "smirk", "Reckless": "scars"},
    "hit_point_basis": [{"trait": "Tough", "faces": [6, 5, 4, 3, 1, 1, 1, 1]}], "hit_point_descriptor": "brawn",
    "story": "My story is of a woman who wants respect.", "gm_approved": True,
}
GUNSHOT = ("attack", "Operative", "Iris", "--weapon", "revolver", "--caliber", "light", "--attack-trait", "crack shot",
           "--attack-dice", "4", "--distance", "8")


@pytest.fixture
def table(cli, tmp_path):
    """Lantern Harbor: Maya the GM, Ana playing Iris (22 hit points), and Ben."""
    assert cli("init", "lantern", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    for name in ("Ana", "Ben"):
        assert cli("join", name)[0] == 0
    sheet = tmp_path / "iris.json"
    sheet.write_text(json.dumps(IRIS), encoding="utf-8")
    assert cli("character", "create", "--from-file", str(sheet))[0] == 0
    return cli


def sequence(cli) -> int:
    return json.loads(cli("log", "--json")[1])[-1]["sequence"]


def test_the_easy_gunfire_example_at_the_table(table):
    # "The GM rolls a 16 versus the character's 6 ... The character is wearing a reinforced jacket and rolls 3 for the
    # armor ... The character takes 29 points of damage, dropping him to -7."
    assert table("fight", "start", "--detailed", "--combatant", "Iris", "--combatant", "Operative=21")[0] == 0
    code, out, _ = table("initiative", "Iris@Agile:5,4,1", "GMCs=4:6,5,3,1")
    assert code == 0 and out.startswith("Initiative (rolls): GMCs, Iris (Initiative).")
    before = sequence(table)
    code, out, _ = table(*GUNSHOT, "--bonus", "has leisure to aim", "--odds")
    assert code == 0 and out.startswith("chance to hit: ") and sequence(table) == before
    # --verbose: every die and every step of the damage; the move in words is the recap's sentence.
    code, out, err = table("--verbose", *GUNSHOT, "--bonus", "has leisure to aim", "--attack-faces", "6,5,3,2,1",
                           "--defense-faces", "4,2", "--armor", "reinforced-jacket", "--armor-faces", "3")
    assert code == 0, err
    [attacked] = json.loads(table("log", "--type", "combat.attacked", "--json")[1])
    assert sentences.attacked(attacked["payload"]).endswith(
        "29 damage after regular armor stops 1: 22 → -7 hit points (Attacks).")
    assert "attack 5d6kh4: 6 5 3 2 (1) = 16  vs  defense 2d6: 4 2 = 6: beats" in out
    assert "regular armor stops 1 (half, Armor/Attack Summary) = 29" in out
    assert "29 damage: Iris 22 -> -7 hit points" in out
    [iris] = json.loads(table("wounds", "Iris", "--json")[1])
    assert (iris["current"], iris["maximum"], iris["status"], iris["penalty_dice"]) == (-7, 22, "down", 1)
    [earlier] = json.loads(table("wounds", "Iris", "--as-of", str(before), "--json")[1])
    assert earlier["current"] == 22
    assert table("fight", "end", "--summary", "the operative escapes")[0] == 0
    # "He recovers to halfway between" the wound and the last recovered level, rounded up: -7 + 14.5 -> 8.
    code, out, _ = table("recover", "Iris", "--json")
    assert code == 0 and json.loads(out)[0]["payload"]["after"] == 8
    code, out, _ = table("heal", "Iris", "--days", "2", "--activity", "rest", "--json")
    assert json.loads(out)[0]["payload"]["levels"] == [9, 10]
    assert table("verify")[0] == 0


def test_armor_piercing_from_the_command_line(table):
    # "the 29 points of damage he did to the first character would have been divided in half to 15 points."
    table("fight", "start", "--detailed", "--combatant", "Iris", "--combatant", "Operative=21")
    code, out, _ = table(*GUNSHOT, "--bonus", "has leisure to aim", "--attack-faces", "6,5,3,2,1",
                         "--defense-faces", "4,2", "--armor", "reinforced-jacket", "--ammo", "armor-piercing", "--json")
    attack = json.loads(out)[0]["payload"]
    assert code == 0 and [s["value"] for s in attack["steps"]] == [10, 3, 30, 29, 15]


def test_illegal_moves_are_one_line_errors_and_write_nothing(table):
    table("fight", "start", "--detailed", "--combatant", "Iris", "--combatant", "Operative=21")
    _, before, _ = table("export")
    code, out, err = table(*GUNSHOT, "--attack-faces", "6,5,3,2", "--defense-faces", "6,5,4")
    assert code == EXIT_CODES["invalid"] and out == ""
    assert err == "error: defense roll: a 2-die roll (2d6) needs 2 faces, got 3 [2 dice (8 m with a pistol)]\n"
    code, _, err = table("attack", "Operative", "Ben", "--weapon", "knife")
    assert code == EXIT_CODES["invalid"] and "Ben is not in the fight" in err
    code, _, err = table("attack", "Operative", "Iris", "--weapon", "revolver")
    assert code == EXIT_CODES["invalid"] and "depends on its caliber" in err
    assert table("export")[1] == before
    assert table(*GUNSHOT, "--attack-faces", "1,1,1,1", "--defense-faces", "6,6")[0] == 0
    _, before, _ = table("export")
    code, _, err = table(*GUNSHOT, "--attack-faces", "1,1,1,1,1", "--defense-faces", "6,6")
    assert code == EXIT_CODES["rule"] and "one good shot" not in err and "fires 1 single shot(s) per round" in err
    assert table("export")[1] == before
    code, out, _ = table(*GUNSHOT, "--attack-faces", "1,1,1,1,1", "--defense-faces", "6,6", "--override", "a fast hand",
                         "--json")
    assert code == 0 and [e["event_type"] for e in json.loads(out)] == ["override.recorded", "yarn.combat.attacked"]


def test_the_gmcs_gestalt_total_is_for_the_gms_eyes_only(table):
    # "Whichever side rolls highest wins the fight, but the GM keeps the GMCs' total a secret, so the players don't
    # know who will win."
    assert table("fight", "start", "--combatant", "Iris")[0] == 0
    code, out, _ = table("gestalt", "Iris@Tough:6,5,4,1", "--by", "Ana")
    assert code == 0 and out.startswith("The players' side rolled for the fight: Iris (Tough) 16; total 16")
    code, out, _ = table("gestalt", "--gm", "five roughs=10:6,5,5,4,4,3,3,2,1,1")
    assert code == 0 and "The GMCs win, 34 to 16." in " ".join(out.splitlines())
    seen_by_ana = json.loads(table("log", "--as", "Ana", "--type", "yarn.combat.gestalt", "--json")[1])
    assert [e["payload"]["side"] for e in seen_by_ana] == ["players"]
    seen_by_maya = json.loads(table("log", "--as", "Maya", "--type", "yarn.combat.gestalt", "--json")[1])
    assert [e["visibility"] for e in seen_by_maya] == ["everyone", "gm"]
    assert "gestalt" not in json.loads(table("fight", "status", "--json")[1])
    assert json.loads(table("fight", "status", "--gm", "--json")[1])["gestalt"]["winner"] == "GMCs"


def test_the_tool_rolls_what_is_not_entered(table):
    table("fight", "start", "--detailed", "--combatant", "Iris", "--combatant", "Thug=14")
    code, out, _ = table("attack", "Thug", "Iris", "--weapon", "knife", "--json")
    attack = json.loads(out)[0]["payload"]
    assert code == 0 and attack["attack"]["source"] == "rolled" and len(attack["attack"]["faces"]) == 2
    assert table("verify")[0] == 0


def test_damage_death_and_the_drama_token(table):
    # "A player whose character dies may spend a Drama Token to: Call an immediate scene where their character shares
    # a few last words"
    assert table("damage", "Iris", "--points", "44", "--reason", "a fall from the crane")[0] == 0
    assert json.loads(table("wounds", "Iris", "--json")[1])[0]["status"] == "at death's door"
    code, out, _ = table("death", "face", "Iris", "--json")
    assert code == 0 and json.loads(out)[0]["payload"]["outcome"] == "dies"
    _, before, _ = table("export")
    code, _, err = table("death", "spend", "Iris", "last-words", "--by", "Ana")
    assert code == EXIT_CODES["rule"] and "holds 0" in err
    assert table("export")[1] == before
