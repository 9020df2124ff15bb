"""Cooperating in a turn (P34) and injured arms and legs (P48), played through the verbs.

Book: ``../shared/seeds/003_e72cdbaaf570012c.txt``; digest ``../shared/rules/003-yarn-polyhedral.md``.
"""

from __future__ import annotations

import json

from .conftest import last


def _board(table):
    code, out, err = table("board", "--json")
    assert code == 0, err
    return json.loads(out)


def test_a_cooperating_group_acts_at_the_lowest_initiative_of_its_members(table):
    # A third character, the narrator's rat, to come too late.
    assert table("character", "create", "Rat", "--player", "Maya", "--points", "90", "--attributes",
                 "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5")[0] == 0
    table("round")
    code, _, err = table("cooperate", "Orc", "--attribute", "strength")
    assert code == 3 and "no turn to join" in err.lower()
    assert last(table, "turn", "Iris", "--attribute", "dexterity")["steps"] == 7
    # "When you are chosen to take the next turn, before initiative is rolled, other characters
    # (including NPCs) can choose to join your turn, subject to your approval." (line 738)
    joined = last(table, "cooperate", "Orc", "--attribute", "strength")
    assert (joined["turn_of"], joined["steps"]) == ("Iris", 7)  # strength 7: 7 steps (P30)
    code, _, err = table("cooperate", "Orc", "--attribute", "strength")
    assert code == 3 and "already in iris's turn" in err.lower()
    # "You then all determine each character's initiative. The actual initiative for the
    # cooperating group is the lowest of the included characters." (line 740)
    # Iris: dexterity 7 d6 + strength 6 d6: 6 + 5 = 11. Orc: strength 7 d6 + dexterity 5 d4: 3 + 2 = 5.
    assert last(table, "feat", "Iris", "--primary", "dexterity", "--secondary", "strength", "--initiative",
                "--faces", "6,5")["total"] == 11
    assert _board(table)["turn"]["acts_at"] == 11
    code, out, _ = table("feat", "Orc", "--primary", "strength", "--secondary", "dexterity", "--initiative",
                         "--faces", "3,2", "--json")
    orc_initiative = json.loads(out)[-1]
    assert orc_initiative["payload"]["total"] == 5
    turn = _board(table)["turn"]
    assert (turn["group"], turn["initiatives"], turn["acts_at"]) == (["Iris", "Orc"], {"Iris": 11, "Orc": 5}, 5)
    code, out, _ = table("board")
    assert code == 0 and "Iris, Orc acting at initiative 5" in " ".join(out.split())
    # Too late: the initiative is rolled (line 738).
    code, out, err = table("cooperate", "Rat", "--attribute", "dexterity")
    assert code == 3 and out == "" and "initiative is rolled" in err.lower() and len(err.strip()) <= 80
    # Each member has its own phase: its steps and its one feat (P33, line 257; line 742).
    assert last(table, "step", "Orc", "shift", "--times", "2")["steps"] == 2
    assert _board(table)["turn"]["steps_left"] == {"Iris": 7, "Orc": 5}
    assert table("feat", "Orc", "--primary", "strength", "--challenge", "4", "--faces", "5")[0] == 0
    code, _, err = table("feat", "Orc", "--primary", "strength", "--challenge", "4", "--faces", "5")
    assert code == 3 and "had its feat" in err
    assert table("feat", "Iris", "--primary", "dexterity", "--challenge", "4", "--faces", "5")[0] == 0
    # The Orc was active in Iris's turn: it takes no turn of its own this round (line 229).
    code, _, err = table("turn", "Orc", "--attribute", "strength")
    assert code == 3 and "Orc has had a turn" in err
    code, _, err = table("step", "Rat", "shift")
    assert code == 2 and "not Rat's turn" in err  # not in the turn
    code, out, _ = table("explain", str(orc_initiative["sequence"]))
    assert "Iris, Orc act at 5, the lowest initiative rolled (P34, line 740)" in " ".join(out.split())
    # A new round: the Orc may take its own turn again.
    table("round")
    assert last(table, "turn", "Orc", "--attribute", "strength")["steps"] == 7



def test_an_injured_arm_is_a_penalty_and_injured_legs_slow_movement(table):
    # The Orc punches Iris's arm: strength 7 d6, dexterity 5 d4: 6 + 4 = 10 against her dexterity 7,
    # margin 3, which buys the arm (line 644: "arm 3"). Damage 7 + 0 (P41, line 626); Iris resists
    # on health 6 d6 + strength 6 d6: 3 + 2 = 5 against 7, severity 1 + 2 = 3 (P46; reading 3).
    hit = last(table, "attack", "Orc", "--target", "Iris", "--weapon", "punch", "--primary", "strength",
               "--secondary", "dexterity", "--location", "arm", "--faces", "6,4")
    assert (hit["margin"], hit["attack"]["cleared"]) == (3, 7)
    assert last(table, "resist", "Iris", "--faces", "3,2")["resistance"] == {"severity": 3, "location": "arm",
                                                                            "injury": "1"}
    # "arm 3 Severity is penalty for that arm" (line 644): a feat with that arm adds 3 to the
    # challenge; total severity 3 is under her health 6, so no other penalty (P47, line 327).
    plain = last(table, "feat", "Iris", "--primary", "dexterity", "--challenge", "5", "--faces", "6")
    assert (plain["penalties"], plain["margin"], plain["success"]) == (0, 1, True)
    armed = last(table, "feat", "Iris", "--primary", "dexterity", "--challenge", "5", "--faces", "6", "--arm", "1")
    assert (armed["penalties"], armed["margin"], armed["success"]) == (3, -2, False)
    assert armed["arms"] == [{"injury": "1", "penalty": 3}]
    # The Orc kicks her leg: 6 + 4 = 10, margin 3, the leg (line 645); 7 + 1 = 8 damage; she
    # resists 4 + 4 = 8: severity 1.
    last(table, "attack", "Orc", "--target", "Iris", "--weapon", "kick", "--primary", "strength",
         "--secondary", "dexterity", "--location", "leg", "--faces", "6,4")
    assert last(table, "resist", "Iris", "--faces", "4,4")["resistance"]["severity"] == 1
    code, _, err = table("feat", "Iris", "--primary", "dexterity", "--faces", "6", "--arm", "2")
    assert code == 2 and "not an arm's" in err
    rows = {c["name"]: c for c in _board(table)["characters"]}
    assert rows["Iris"]["effects"] == ["arm (injury 1): +3 to feats with that arm", "legs: 1 fewer steps to move"]
    # "leg 3 Severity slows relative speed" (line 645): her dexterity turn has 7 steps (P30), of
    # which 7 - 1 = 6 can move.
    table("round")
    turn = last(table, "turn", "Iris", "--attribute", "dexterity")
    assert (turn["steps"], turn["slowed"]) == (7, 1)
    before = table("log", "--json")[1]
    code, out, err = table("step", "Iris", "shift", "--times", "7")
    assert code == 3 and out == "" and "6 steps can move, not 7" in err and len(err.strip()) <= 80
    assert table("log", "--json")[1] == before
    assert last(table, "step", "Iris", "shift", "--times", "6")["steps"] == 6
    assert last(table, "step", "Iris", "grab")["steps"] == 1  # the last step is not movement
    code, out, _ = table("recap")
    assert "7 steps, 1 fewer to move (injured legs)" in " ".join(out.split())
    assert "The injured arm (injury 1) adds 3 to the challenge." in " ".join(out.split())


def test_a_leg_hurt_during_the_turn_slows_the_rest_of_its_movement(table):
    table("round")
    assert last(table, "turn", "Iris", "--attribute", "dexterity")["slowed"] == 0
    assert last(table, "step", "Iris", "shift", "--times", "2")["steps"] == 2
    # The Orc, active before her phase, kicks her leg: 6 + 4 = 10 against 7, margin 3 (line 645);
    # strength 7 + kick 1 = 8 damage; she resists 2 + 1 = 3 against 8: severity 1 + 5 = 6.
    last(table, "attack", "Orc", "--target", "Iris", "--weapon", "kick", "--primary", "strength",
         "--secondary", "dexterity", "--location", "leg", "--faces", "6,4")
    assert last(table, "resist", "Iris", "--faces", "2,1")["resistance"]["severity"] == 6
    # 7 steps less 6 of leg severity is 1 to move, and she has shifted 2: none left to move (P48);
    # her other 5 steps still act.
    code, _, err = table("step", "Iris", "shift")
    assert code == 3 and "0 steps can move, not 1" in err
    assert last(table, "step", "Iris", "grab")["steps"] == 1


def test_a_newcomer_joins_at_the_lowest_player_characters_minimum_not_an_npcs(table):
    # "When bringing in a new character, they start at the minimum points for the lowest level PC in
    # the group." (line 347) The narrator's rat (level 0) is no PC; the Orc (Ben's, level 1) is the
    # lowest: 90 + 10 x T(1) = 100 (P4).
    assert table("character", "create", "Rat", "--player", "Maya", "--points", "90", "--attributes",
                 "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5")[0] == 0
    assert table("join", "Cy")[0] == 0
    made = last(table, "character", "create", "Cyd", "--player", "Cy", "--newcomer", "--attributes",
                "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5")
    assert made["base_points"] == 100


def test_the_narrators_office_passes_between_sessions_round_the_circle(table):
    # "The current narrator always chooses the next, until every player has had their time. The
    # office can pass each session" (line 800). Maya narrates first.
    code, _, err = table("narrator", "Ana")
    assert code == 3 and "between sessions" in err  # session One is in play
    table("award", "Iris", "1")
    table("award", "Orc", "1")
    table("episode", "end")
    assert last(table, "narrator", "Ana")["narrator"] == "Ana"
    assert _board(table)["narrator"] == "Ana"
    code, _, err = table("narrator", "Ana")
    assert code == 3 and "Ana is the narrator already" in err
    code, _, err = table("narrator", "Maya")
    assert code == 3 and "Maya has narrated: every player first" in err
    table("episode", "start", "--title", "Two")
    # "their character may play a subsidiary role, not gaining points for those sessions" (line 802):
    # Ana's Iris gets no point in the session Ana narrates, and verify finds nothing wrong.
    table("award", "Orc", "1")
    table("episode", "end")
    assert table("narrator", "Ben")[0] == 0
    table("episode", "start", "--title", "Three")
    code, out, err = table("verify")
    assert code == 0, out + err
    table("award", "Iris", "1")
    table("episode", "end")
    # Every player has had a time (Maya, Ana, Ben): a new circle, Maya may narrate again.
    assert table("narrator", "Maya")[0] == 0
    code, out, _ = table("recap")
    assert "Ana is the narrator from the next session." in out


def test_a_session_without_a_point_for_a_playing_character_is_still_found(table):
    table("award", "Orc", "1")  # Iris, whose player does not narrate, gets none (P52, line 367)
    table("episode", "end")
    table("episode", "start", "--title", "Two")
    code, out, err = table("verify")
    assert code != 0 and "Iris was awarded no point last session" in out + err


def test_melee_reach_the_own_zone_and_a_long_weapon_the_next(table):
    # "A standard melee weapon (or a kick) can hit a target in the same zone without closing. A long
    # weapon can attack someone in an adjacent zone." (lines 291-293)
    before = table("log", "--json")[1]
    code, out, err = table("attack", "Iris", "--target", "Orc", "--weapon", "long sword", "--zones", "1",
                           "--faces", "6")
    assert code == 3 and out == "" and "reaches its own zone, not 1 zones away" in err and len(err.strip()) <= 80
    assert table("log", "--json")[1] == before
    spear = last(table, "attack", "Iris", "--target", "Orc", "--weapon", "spear", "--zones", "1", "--faces", "6")
    assert spear["attack"]["zones"] == 1 and spear["penalties"] == 0  # no distance penalty in melee
    code, _, err = table("attack", "Iris", "--target", "Orc", "--weapon", "spear", "--zones", "2", "--faces", "6")
    assert code == 3 and "reaches the next zone, not 2 zones away" in err
    # The narrator may allow it anyway, with the reason recorded.
    assert table("attack", "Iris", "--target", "Orc", "--weapon", "spear", "--zones", "2", "--faces", "6",
                 "--override", "the spear is thrown")[0] == 0


def test_an_unconscious_character_takes_no_turn_and_rolls_no_feat(table):
    # Iris: dexterity 7 d6, level 4 d4, strength 6 d6, sword 3 d6: 6 + 6 = 12 against the Orc's
    # dexterity 5, margin 7: the head (6, line 649) and 1 more damage: 6 + 4 + 1 = 11. The Orc: 1 + 1
    # = 2 against 11, severity 10, past its health 6: "1xhealth causes unconsciousness" (line 649).
    last(table, "attack", "Iris", "--target", "Orc", "--weapon", "long sword", "--primary", "dexterity",
         "--secondary", "strength", "--skill", "sword", "--level", "--location", "head", "--damage", "1",
         "--faces", "6,4,6,6")
    assert last(table, "resist", "Orc", "--faces", "1,1")["resistance"]["severity"] == 10
    before = table("log", "--json")[1]
    code, out, err = table("feat", "Orc", "--primary", "strength", "--challenge", "4", "--faces", "5")
    assert code == 3 and out == "" and "Orc is unconscious" in err and len(err.strip()) <= 80
    assert table("log", "--json")[1] == before
    table("round")
    code, _, err = table("turn", "Orc", "--attribute", "strength")
    assert code == 3 and "Orc is unconscious" in err
    # The narrator may rule otherwise, with the reason kept.
    assert table("turn", "Orc", "--attribute", "strength", "--override", "smelling salts")[0] == 0


def test_the_console_completes_cooperate_and_narrator_with_the_campaigns_names(table):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from yarnlog.cli.completion import PlayCompleter, verb_tree, vocabulary
    from yarnlog.cli.context import campaign_state

    words = vocabulary(campaign_state("poly", None, None))
    completer = PlayCompleter(verb_tree(None, "poly"), lambda: words)

    def offered(text):
        return {c.text for c in completer.get_completions(Document(text), CompleteEvent())}

    assert {"cooperate", "narrator"} <= offered("")
    assert "Orc" in offered("cooperate O")
    assert "--attribute" in offered("cooperate Orc --at")
    assert "Ben" in offered("narrator B")
