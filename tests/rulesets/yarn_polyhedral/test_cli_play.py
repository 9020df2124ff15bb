"""The polyhedral Yarn played through the verbs, as at the table: every figure worked by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from .conftest import last


def board(table):
    code, out, _ = table("board", "--json")
    return {c["name"]: c for c in json.loads(out)["characters"]}, json.loads(out)


def test_a_feat_from_the_sheet_keeps_two_and_carries_its_exact_odds(table):
    # Base d6 (dexterity 7 rounds down, line 23), level 4 d4, secondary strength 6 d6, sword 3 d6.
    feat = last(table, "feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--skill", "sword",
                "--level", "--challenge", "9", "--faces", "6,4,5,2")
    assert feat["sizes"] == [6, 4, 6, 6] and feat["labels"] == ["base", "level", "secondary", "skill"]
    assert (feat["kept"], feat["total"], feat["margin"], feat["success"]) == ([0, 2], 11, 2, True)
    # P(two best of d6, d4, d6, d6 >= 9), counted by hand over the 864 outcomes.
    hits = sum(sum(sorted(f)[-2:]) >= 9 for f in product(range(1, 7), range(1, 5), range(1, 7), range(1, 7)))
    assert feat["odds"] == feat["odds_plain"]
    assert Fraction(feat["odds"]) == Fraction(hits, 864)


def test_fortune_is_the_level_each_session_and_feeds_the_narrators_trouble(table):
    assert board(table)[0]["Iris"]["fortune"] == 4  # P7, line 48
    # One fortune keeps a third die, two explode the kept 6 (6, then 6 again, then 3): P23, P24.
    feat = last(table, "feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--level",
                "--fortune-keep", "1", "--challenge", "20", "--faces", "6,4,5", "--explosions", "6,3")
    assert (feat["total"], feat["margin"]) == (6 + 4 + 5 + 6 + 3, 4)
    rows, whole = board(table)
    assert rows["Iris"]["fortune"] == 1 and whole["trouble"] == 3  # P26, line 754
    # Trouble carries into the next session; fortune is set to the level again (reading 6).
    table("episode", "end")
    table("episode", "start", "--title", "Two")
    rows, whole = board(table)
    assert rows["Iris"]["fortune"] == 4 and whole["trouble"] == 3
    # The narrator forces a rolled 1 into the kept dice (P27).
    feat = last(table, "feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--trouble", "1",
                "--challenge", "7", "--faces", "6,1", "--kept", "1,2")
    assert (feat["total"], feat["success"]) == (7, True)
    assert board(table)[1]["trouble"] == 2
    code, out, _ = table("ledger", "--json")
    rules = {line["rule"] for line in json.loads(out)}
    assert {"P7 (line 48)", "P26 (line 754)", "P27 (line 756)", "P23, P24 (205-207)"} <= rules


def test_a_refused_feat_says_the_rule_on_one_line_and_writes_nothing(table):
    before = table("log", "--json")[1]
    code, out, err = table("feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--challenge", "9",
                           "--faces", "6,4", "--kept", "1")
    assert code == 3 and out == ""
    assert len(err.strip().splitlines()) == 1 and len(err.strip()) <= 80 and "2 dice are kept" in err
    assert table("log", "--json")[1] == before
    # The GM's override records the move, and the reason with it.
    code, out, err = table("feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--challenge", "9",
                           "--faces", "6,4", "--kept", "1", "--override", "house rule", "--json")
    assert code == 0, err
    assert any(e["event_type"] == "override" or "override" in e["event_type"] for e in json.loads(out))


def test_an_attack_a_resistance_roll_an_injury_and_its_healing(table):
    # Orc's defense 5 + 1 cover = 6; Iris rolls d6 (dex) + d6 (str) + d6 (sword): 6, 5, 2 keeps 11, margin 5:
    # the arm costs 3 (reading 5), 2 more damage (at most strength 6, P41).
    hit = last(table, "attack", "Iris", "--target", "Orc", "--weapon", "long sword", "--defense", "6",
               "--secondary", "strength", "--skill", "sword", "--location", "arm", "--damage", "2",
               "--protection", "2", "--faces", "6,5,2")
    assert hit["margin"] == 5
    # Damage = strength 6 + long sword 4 + 2 = 12, less leather 2 = 10 cleared (P41-P44).
    assert (hit["attack"]["damage"], hit["attack"]["cleared"]) == (12, 10)
    # Orc resists on health 6 (d6) + strength 7 (d6): 4 and 3 = 7 against 10, severity 1 + 3 = 4 (reading 3).
    resisted = last(table, "resist", "Orc", "--faces", "4,3")
    assert resisted["challenge"] == 10 and resisted["resistance"]["severity"] == 4
    rows, _ = board(table)
    assert rows["Orc"]["injuries"] == {"1": {"severity": 4, "location": "arm"}} and rows["Orc"]["penalty"] == 0
    table("heal", "Orc", "1")
    code, out, err = table("heal", "Orc", "1")  # not the same injury twice in a row (P50)
    assert code == 3 and "healed last" in err
    assert board(table)[0]["Orc"]["total_severity"] == 3
    code, out, err = table("verify")
    assert code == 0, err


def test_a_margin_spent_past_the_margin_is_refused(table):
    code, out, err = table("attack", "Iris", "--target", "Orc", "--weapon", "long sword", "--defense", "6",
                           "--secondary", "strength", "--location", "head", "--faces", "6,5")
    assert code == 3 and "margin is 5; 6 cannot be spent (Attacking)" in err


def test_points_raise_training_and_the_library_flashback(table):
    # Iris: 190 + 3 (colour blind) - 116 spent = 77 unspent.
    assert board(table)[0]["Iris"]["unspent"] == 190 + 3 - (21 + 28 + 21 + 15 + 15 + 10 + 6) == 77
    raised = last(table, "raise", "Iris", "sword")
    assert (raised["quality"]["rank"], raised["cost"]) == (4, 4)  # P53, line 369
    code, _, err = table("award", "Iris", "0")
    assert code == 3 and "at least one point" in err  # P52
    # Book-14 (line 697): 3 points of a new drawback, the group's point, the rest saved: rank 3 for 6.
    flash = last(table, "flashback", "Iris", "librarian", "--rank", "3", "--drawbacks", "fired=2", "--discount")
    assert (flash["cost"], flash["how"]) == (5, "flashback")
    rows, _ = board(table)
    assert rows["Iris"]["flashbacks_left"] == 3 and rows["Iris"]["unspent"] == 77 - 4 - 5 + 3


def test_the_tool_rolls_from_a_secure_source_and_records_the_faces(table):
    feat = last(table, "feat", "Orc", "--primary", "strength", "--secondary", "health", "--challenge", "8")
    assert feat["source"] == "rolled" and len(feat["faces"]) == 2
    assert all(1 <= f <= 6 for f in feat["faces"])
    assert feat["total"] == sum(sorted(feat["faces"])[-2:])


def test_tension_moves_one_tier_at_a_time_and_rulings_are_recorded(table):
    code, _, err = table("tension", "danger")
    assert code == 3 and "one tier at a time" in err
    assert table("tension", "risk")[0] == 0
    ruling = last(table, "ruling", "complication", "The bow string breaks.")
    assert ruling["topic"] == "complication"


def test_a_round_of_turns_steps_and_one_feat_a_phase(table):
    table("round")
    turn = last(table, "turn", "Iris", "--attribute", "will")
    assert turn["steps"] == 5  # will 5 (P30, line 249)
    shift = last(table, "step", "Iris", "shift", "--times", "2")
    assert shift["steps"] == 4  # a mental turn: two steps a shift (P31, line 259)
    code, _, err = table("step", "Iris", "grab", "--times", "2")
    assert code == 3 and "2 steps needed; 1 are left" in err
    # Initiative is not the phase's feat; the perception roll is (line 607), and a second is refused.
    table("feat", "Iris", "--primary", "will", "--secondary", "dexterity", "--initiative", "--faces", "3,4")
    assert table("feat", "Iris", "--primary", "intelligence", "--secondary", "will", "--challenge", "6",
                 "--faces", "3,4")[0] == 0
    code, _, err = table("feat", "Iris", "--primary", "intelligence", "--challenge", "6", "--faces", "3")
    assert code == 3 and "had its feat" in err
    # Ana picks the next player; Iris cannot go twice in the round (line 217).
    code, _, err = table("turn", "Iris", "--attribute", "dexterity")
    assert code == 3 and "Iris has had a turn" in err
    assert last(table, "turn", "Orc", "--attribute", "strength")["steps"] == 7


@pytest.fixture
def optioned(cli):
    for args in (("init", "opt", "--title", "Opt", "--gm", "Maya", "--ruleset", "yarn-polyhedral",
                  "--option", "death,skill-limit,rolled-attributes"),
                 ("join", "Ana"), ("join", "Ben"), ("join", "Cy")):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
    return cli


def test_rolled_attributes_the_skill_limit_a_newcomer_and_death(optioned):
    table = optioned
    # P59 (line 724): 15 -> 6, 21 -> 8, 12 -> 5, 9 -> 4, 18 -> 7, 6 -> 3; 15 points each (line 724).
    made = last(table, "character", "create", "Iris", "--player", "Ana", "--points", "150", "--rolled",
                "strength=15,dexterity=21,health=12,intelligence=9,will=18,charisma=6", "--skills", "sword=4")
    ranks = {q["name"]: q["rank"] for q in made["qualities"]}
    assert ranks == {"sword": 4, "strength": 6, "dexterity": 8, "health": 5, "intelligence": 4, "will": 7,
                     "charisma": 3}
    # Level 3 (150 - 90 = 60, P4): one skill may be rank 4, not two (P14, line 383).
    code, _, err = table("character", "create", "Bo", "--player", "Ben", "--points", "150", "--attributes",
                         "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5",
                         "--skills", "sword=4,bow=4")
    assert code == 3 and "skills stop at level 3, one at 4 (Skill Ranks)" in err
    # No attribute at 7 or more: re-roll (line 726).
    code, _, err = table("character", "create", "Bo", "--player", "Ben", "--points", "150", "--rolled",
                         "strength=15,dexterity=15,health=15,intelligence=15,will=15,charisma=15")
    assert code == 3 and "re-roll" in err
    # A newcomer starts at the lowest PC's minimum: level 3 is 90 + 60 = 150 (P51, line 347).
    newcomer = last(table, "character", "create", "Cyd", "--player", "Cy", "--newcomer", "--attributes",
                    "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5")
    assert newcomer["base_points"] == 150
    # Death at (1 + 3) x health 5 = 20 (P49, line 341): a 20-severity injury kills.
    assert table("character", "create", "Orc", "--player", "Ben", "--points", "200", "--attributes",
                 "strength=12,dexterity=5,health=5,intelligence=3,will=4,charisma=2")[0] == 0
    # Strength 12 (d12) + dexterity 5 (d4): 12 + 4 = 16 against 5, margin 11, all of it damage (at most
    # strength 12, P41): 12 + great axe 6 + 11 = 29.
    hit = last(table, "attack", "Orc", "--target", "Cyd", "--weapon", "great axe", "--primary", "strength",
               "--defense", "5", "--secondary", "dexterity", "--faces", "12,4", "--damage", "11")
    assert (hit["margin"], hit["attack"]["cleared"]) == (11, 29)
    resisted = last(table, "resist", "Cyd", "--faces", "1,1")
    assert resisted["challenge"] == 12 + 6 + 11 and resisted["resistance"]["severity"] == 1 + 29 - 2
    rows, _ = board(table)
    assert rows["Cyd"]["fatal_severity"] == 20 and rows["Cyd"]["dead"] is True


def test_defense_from_the_sheet_active_defense_and_evasion(table):
    # The Orc learns to fight, then actively defends with it: dexterity 5 + cover 1 + fight rank 2.
    assert table("attain", "Orc", "fight")[0] == 0
    assert table("raise", "Orc", "fight")[0] == 0
    assert table("raise", "Orc", "fight")[0] == 0
    assert table("stance", "Orc", "active-defense", "--skill", "fight")[0] == 0
    hit = last(table, "attack", "Iris", "--target", "Orc", "--weapon", "knife", "--factors", "1",
               "--secondary", "strength", "--faces", "4,3")
    assert hit["challenge"] == 5 + 1 + 2  # P37, line 307
    # The Orc's next turn ends the stance (P35); evading, the attacker keeps one less die (line 197).
    table("round")
    table("turn", "Orc", "--attribute", "dexterity")
    table("stance", "Orc", "evade")
    hit = last(table, "attack", "Iris", "--target", "Orc", "--weapon", "knife", "--secondary", "strength",
               "--faces", "4,3")
    assert hit["challenge"] == 5 and hit["modifiers"] == ["evading-target"] and hit["total"] == 4


def test_point_blank_the_marksmans_aim_and_the_time_die(table):
    # A pistol in the same zone keeps one more (P22, line 201); at 4 zones +2 challenge (P38, line 303).
    close = last(table, "attack", "Iris", "--target", "Orc", "--weapon", "pistol", "--defense", "5",
                 "--secondary", "strength", "--level", "--faces", "5,3,2")
    assert close["modifiers"] == ["point-blank"] and close["total"] == 10
    far = last(table, "attack", "Iris", "--target", "Orc", "--weapon", "pistol", "--defense", "5", "--zones", "4",
               "--secondary", "strength", "--faces", "5,3")
    assert (far["penalties"], far["margin"]) == (2, 1)
    code, _, err = table("attack", "Iris", "--target", "Orc", "--weapon", "pistol", "--defense", "5", "--zones",
                         "4", "--aim", "--faces", "5")
    assert code == 3 and "no marksman" in err  # P39, line 462
    # Sword 3: time doubles the steps at most three times, d6 at most (P18, line 181).
    ok = last(table, "feat", "Iris", "--primary", "dexterity", "--skill", "sword", "--bonus", "time=6",
              "--faces", "2,3,6")
    assert ok["labels"] == ["base", "skill", "time"]
    code, _, err = table("feat", "Iris", "--primary", "dexterity", "--skill", "sword", "--bonus", "time=8",
                         "--faces", "2,3,6")
    assert code == 3 and "Time gives at most d6 here" in err


def test_the_tool_rolls_attributes_3d10_each_and_keeps_the_dice(optioned):
    made = last(optioned, "character", "create", "Iris", "--player", "Ana", "--points", "150", "--roll",
                "strength,dexterity,health,intelligence,will,charisma", "--override", "a re-roll is a new character")
    faces = made["rolled_faces"]
    assert len(faces) == 18 and all(1 <= f <= 10 for f in faces)
    totals = [sum(faces[i:i + 3]) for i in range(0, 18, 3)]
    assert made["rolled_totals"] == totals and made["rolled_attributes"][0] == "strength"
    assert optioned("verify")[0] == 0


def test_a_scenes_end_ends_its_last_turn(table):
    table("scene", "open", "--caller", "Ana", "--cast", "Iris,Orc")
    table("round")
    table("turn", "Iris", "--attribute", "dexterity")
    assert table("feat", "Iris", "--primary", "dexterity", "--faces", "3")[0] == 0
    assert table("feat", "Iris", "--primary", "dexterity", "--faces", "3")[0] == 3  # one feat a phase (P33)
    table("scene", "close")
    assert table("feat", "Iris", "--primary", "dexterity", "--faces", "3")[0] == 0


def test_verify_finds_a_session_without_its_point(table):
    # P52, line 367: "You get at least one point per session." Ana's Iris got one, Ben's Orc none.
    table("award", "Iris", "1")
    table("episode", "end")
    table("episode", "start", "--title", "Two")
    code, out, err = table("verify")
    assert code == 1 and "Orc was awarded no point last session" in out + err
    assert "Iris was awarded" not in out + err


def test_a_range_of_results_lifting_with_strength_7(table):
    # Book-16, line 734: "With a strength of 7, the point cost is 28, so the minimum is 280 pounds. If
    # your margin is 5, add 50% to that, to lift 420 lbs." The Orc's strength is 7.
    lift = last(table, "feat", "Orc", "--primary", "strength", "--secondary", "will", "--challenge", "5",
                "--minimum", "280", "--faces", "6,4")
    assert (lift["margin"], lift["range_result"]) == (5, "420")


def test_a_feat_corrected_with_its_real_faces_gets_its_total_margin_and_odds_anew(table):
    feat = last(table, "feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--challenge", "9",
                "--faces", "2,3")
    assert (feat["total"], feat["success"]) == (5, False)
    code, out, _ = table("log", "--json")
    seq = json.loads(out)[-1]["sequence"]
    code, out, err = table("correct", str(seq), "--reason", "the d6 showed 6", "--faces", "6,3", "--yes")
    assert code == 0, err
    code, out, _ = table("rolls", "--json")
    [fixed] = [f for f in json.loads(out) if f["sequence"] == seq]
    assert (fixed["faces"], fixed["total"], fixed["margin"], fixed["success"]) == ([6, 3], 9, 0, True)
    assert fixed["odds"] == feat["odds"]  # the prior odds do not depend on the faces
    assert table("verify")[0] == 0


def test_a_phobia_that_applies_keeps_one_fewer_and_adds_its_rank(table):
    # Iris has "colour blind" at rank 2 (conftest): taken here as an impaired sight, then a phobia.
    p = last(table, "feat", "Iris", "--primary", "strength", "--secondary", "dexterity", "--skill", "sword",
             "--challenge", "9", "--drawback", "colour blind=sight-or-hearing", "--faces", "5,4,2")
    # The penalty is the rank for sight and hearing (P62, line 549): 9 + 2.
    assert (p["penalties"], p["hindrances"][0]["penalty"]) == (2, 2)
    p = last(table, "feat", "Iris", "--primary", "strength", "--secondary", "dexterity", "--skill", "sword",
             "--challenge", "9", "--drawback", "colour blind=phobia", "--faces", "5,4,2")
    # A phobia: "keep one fewer die. Your rank is also added to penalties." (line 561): three dice,
    # one kept (5), against 9 + 2.
    assert "phobia" in p["modifiers"] and p["kept"] == [0] and p["penalties"] == 2
    assert (p["total"], p["success"]) == (5, False)
    code, _, err = table("feat", "Iris", "--primary", "strength", "--drawback", "sword=phobia", "--faces", "5")
    assert code != 0 and "sword is not one of Iris's drawbacks" in err


@pytest.mark.parametrize(("agreed", "dead"), [(28, True), (29, False)])
def test_death_at_the_total_severity_the_group_agreed_at_init(cli, agreed, dead):
    # Lines 339-341 (reading 15): "you should all agree to a total severity that, if reached, is fatal";
    # (1 + level) x health is only the suggestion. The agreed number is a setting chosen at init.
    for args in (("init", "agreed", "--title", "Agreed", "--gm", "Maya", "--ruleset", "yarn-polyhedral",
                  "--setting", f"fatal_severity={agreed}"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Cyd", "--player", "Ana", "--points", "150", "--attributes",
                  "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5"),
                 ("character", "create", "Orc", "--player", "Ben", "--points", "200", "--attributes",
                  "strength=12,dexterity=5,health=5,intelligence=3,will=4,charisma=2")):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
    assert last(cli, "attack", "Orc", "--target", "Cyd", "--weapon", "great axe", "--primary", "strength",
                "--defense", "5", "--secondary", "dexterity", "--faces", "12,4", "--damage", "11")["margin"] == 11
    # The same blow as above: severity 1 + 29 - 2 = 28, against the agreed total, not (1 + 3) x 5 = 20.
    assert last(cli, "resist", "Cyd", "--faces", "1,1")["resistance"]["severity"] == 28
    rows, _ = board(cli)
    assert rows["Cyd"]["fatal_severity"] == agreed and rows["Cyd"]["dead"] is dead
    code, out, _ = cli("options", "--json")
    assert code == 0 and {"setting": "fatal-severity", "value": agreed} in [
        {k: row[k] for k in ("setting", "value")} for row in json.loads(out) if "setting" in row]
