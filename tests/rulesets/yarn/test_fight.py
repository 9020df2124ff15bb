"""The combat part in the journal: Yarn 0.1 "Combat" (gestalt and detailed), "Ranged Attacks",
"How Much Damage?", "Firearms and Tasers", "Ammunition", "Armor", "Attacking from Advantage",
the optional combat rules, and the appendix's gunfire and armor examples, with their exact numbers."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.decide import audit
from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command
from yarnlog.rulesets.yarn.parts.combat import attacks
from yarnlog.rulesets.yarn.parts.combat import part as fight
from yarnlog.rulesets.yarn.parts.combat.fight_records import AdvantageClaim, GMDie, Ranged, Spread, declaration
from yarnlog.rulesets.yarn.parts.combat.part import (
    Attack,
    EndCombat,
    Fighter,
    JoinCombat,
    NextRound,
    RegisterCombatant,
    RollGestalt,
    RollInitiative,
    RollInput,
    SeatingOrder,
    StartCombat,
    WearArmor,
    gestalt_outcome,
)
from yarnlog.rulesets.yarn.parts.combat.wound_reports import wounds_report
from yarnlog.rulesets.yarn.parts.combat.wounds import (
    SeriousWoundFacts,
    TakeDamage,
    penalty_dice_from_wounds,
)
from yarnlog.rulesets.yarn.rules.arsenal import weapon_profile
from yarnlog.rulesets.yarn.rules.combat import Advantage, Side
from yarnlog.rulesets.yarn.rules.damage import Ammunition, FireMode, SeriousWoundKind
from yarnlog.rulesets.yarn.rules.hit_points import MESSED_UP

GM = Override(by="Maya", reason="the GM rules it")
REVOLVER = weapon_profile("revolver", "light")  # ".22 revolver", "the damage multiplier of a small caliber pistol"

IRIS = {
    "name": "Iris", "player": "Ana", "role": "harbour pilot", "desire": "respect", "poles": ["duty", "freedom"],
    "central": {"name": "Military Background", "fighting_skill": True}, "sides": ["Tough", "Agile"],
    "superior": "Tough", "flaw": "Reckless",
    "signs": {"Military Background": "camo", "Tough": "big-boned", "Agile": "lithe", "Reckless": "scars"},
    # 8 dice rolled for Tough (4 dice): 22 hit points, the first character's of the gunfire example.
    "hit_point_basis": [{"trait": "Tough", "faces": [6, 5, 4, 3, 1, 1, 1, 1]}], "hit_point_descriptor": "brawn",
    "story": "My story is of a woman who wants respect.", "gm_approved": True,
}
JUNO = {
    "name": "Juno", "player": "Ben", "role": "thief", "desire": "gold", "poles": ["greed", "loyalty"],
    "central": "Agile", "sides": ["Sly", "Charming"], "superior": "Agile", "flaw": "Greedy",
    "signs": {"Agile": "quick", "Sly": "smirk", "Charming": "smile", "Greedy": "rings"},
    "relationships": {"Iris": "old friend"}, "hit_point_descriptor": "luck",
    "story": "My story is of a thief who wants gold.", "gm_approved": True,
}


@pytest.fixture
def table(journal, campaign):
    """Iris (22 hit points) and Juno (14) as PCs; the operative (21) registered by the GM."""
    journal.execute(campaign, creation_command(IRIS))
    journal.execute(campaign, creation_command(JUNO))
    return journal, campaign


def start(journal, cid, *names, mode="detailed", **hit_points):
    fighters = [Fighter(n) for n in names] + [Fighter(n, hp) for n, hp in hit_points.items()]
    return journal.execute(cid, StartCombat(tuple(fighters), mode))


def attack(journal, cid, faces, *, override=None, **declared):
    return journal.execute(cid, Attack(declaration(**declared), faces), override=override)[-1].payload


def refused(journal, cid, command, error=RuleViolation, match=None):
    before = journal.store.last_sequence(cid)
    with pytest.raises(error, match=match):
        journal.execute(cid, command)
    assert journal.store.last_sequence(cid) == before


def gunshot(defender="Iris", **more):
    """The operative's shot: "a crack shot (4 dice)" with a revolver from 8 m."""
    return dict(attacker="Operative", defender=defender, weapon=REVOLVER.weapon, firearm=REVOLVER.firearm,
                range_class=REVOLVER.range_class, attack_trait="crack shot", attack_dice=4, **more)


AIMED = [GMDie(roll="attack", kind="bonus", why="has leisure to aim")]


# -- the appendix: Easy Gunfire Example ------------------------------------------------------


def test_gunfire_example_first_character(table):
    # "He is within short range (8m away), so the character gets two dice for his defense roll. The operative is
    # a crack shot (4 dice) and has leisure to aim (bonus die). The GM rolls a 16 versus the character's 6, that's
    # a difference of 10 points, times 3 ... is 30 points of damage. The character is wearing a reinforced jacket
    # and rolls 3 for the armor, but it's divided by 2 ..., so the armor stops only 1 point of damage. The
    # character takes 29 points of damage, dropping him to -7."
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    journal.execute(cid, WearArmor("Iris", ("reinforced jacket",)))
    shot = attack(journal, cid, {"attack": (6, 5, 3, 2, 1), "defense": (4, 2), "regular_armor": (3,)},
                  **gunshot(ranged=Ranged(distance_m=8), gm_dice=AIMED))
    assert (shot.attack.notation, shot.attack.total) == ("5d6kh4", 16)
    assert (shot.defense.notation, shot.defense.total) == ("2d6", 6)
    assert [(e.roll, e.dice, e.bonus, e.chapter) for e in shot.entries] == [
        ("attack", 4, 0, "Mechanics"),
        ("defense", 2, 0, "Combat › Ranged Attacks"),
        ("attack", 0, 1, "Basic Mechanics › How Many Dice Do You Roll?"),
    ]
    assert [s.value for s in shot.steps] == [10, 3, 30, 29]
    assert "regular armor stops 1" in shot.steps[-1].step and shot.steps[-1].chapter == "Combat › Regular Armor"
    assert (shot.damage, shot.hit_points_before, shot.hit_points_after) == (29, 22, -7)
    # "Since 29 points can kill the average person outright": usually a serious wound, the GM decides.
    assert shot.usually_serious
    [iris] = wounds_report(journal.state(cid), "Iris")
    assert (iris.current, iris.status) == (-7, "down")
    assert verify(journal.store.read(cid), cid).ok


def second_character_shot(journal, cid, ammunition=Ammunition.STANDARD, armor_faces=(4,)):
    # "she only gets two dice for distance, but she gets a third die for moving and four bonus dice for dodging
    # ... The GM rolls four dice and gets 17. The player rolls seven dice and takes the best three: 15."
    start(journal, cid, "Juno", Operative=21)
    faces = {"attack": (6, 5, 4, 2), "defense": (6, 5, 4, 1, 1, 2, 3)}
    if armor_faces:
        faces["bullet_proof_armor"] = armor_faces
    return attack(journal, cid, faces, **gunshot(
        "Juno", ammunition=ammunition, defense_trait="Agile", defender_armor=["bullet-proof vest"],
        ranged=Ranged(distance_m=8, target_moving=True, dodging=True)))


def test_gunfire_example_second_character(table):
    # "Her character takes 6 points of damage. Luckily, she is secretly wearing a bullet-proof vest, and she rolls
    # 4 on her one die. Six divided by 4 is one and a half, rounded off is 2 points of damage."
    journal, cid = table
    shot = second_character_shot(journal, cid)
    assert (shot.attack.total, shot.defense.notation, shot.defense.total) == (17, "7d6kh3", 15)
    assert [(e.why, e.dice, e.bonus) for e in shot.entries if e.roll == "defense"] == [
        ("8 m with a pistol", 2, 0), ("target moving", 1, 0), ("dodging", 0, 4)]
    assert [s.value for s in shot.steps] == [2, 3, 6, 2]
    assert shot.damage == 2 and shot.armor_worn == ["Bullet-proof Vest"]
    assert journal.state(cid).rules.combat.armor["Juno"] == ("Bullet-proof Vest",)


def test_armor_piercing_example_first_character(table):
    # "if the operative in the earlier example had been using armor-piercing rounds, the 29 points of damage he did
    # to the first character would have been divided in half to 15 points." The jacket subtracts its rating
    # ("minimum"), so no armor die is rolled.
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    shot = attack(journal, cid, {"attack": (6, 5, 3, 2, 1), "defense": (4, 2)},
                  **gunshot(ranged=Ranged(distance_m=8), gm_dice=AIMED, ammunition="armor-piercing",
                            defender_armor=["reinforced jacket"]))
    assert [s.value for s in shot.steps] == [10, 3, 30, 29, 15]
    assert shot.regular_armor is None and shot.damage == 15


def test_armor_piercing_example_second_character_follows_the_rule_not_the_example(table):
    # The book: "The second character's armor, however, would have reduced the damage only 1 point, rather than
    # dividing it by 4, so she would have taken 5 points instead of 2." Its own rule, stated twice, halves after
    # the armor: "This reduction in armor protection comes off the damage before it is divided by 2" and
    # "*Divide damage from armor piercing bullets by 2 after armor points have been deducted." The example stops
    # at 5 (the step after the vest); by the rule she takes 5 / 2 rounded off = 3. We follow the rule.
    journal, cid = table
    shot = second_character_shot(journal, cid, Ammunition.ARMOR_PIERCING, armor_faces=None)
    assert [s.value for s in shot.steps] == [2, 3, 6, 5, 3]
    assert shot.bullet_proof_armor is None  # "minimum": the vest's rating, no roll
    assert shot.damage == 3


def test_hollow_point_example(table):
    # "his damage factor would have been X5 instead of X3, and he would have done 50 points of damage to the first
    # character. The character's roll of 3 for his armor, however, would have been doubled to 6, so he would have
    # suffered only 44 points total, just enough to kill him."
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    shot = attack(journal, cid, {"attack": (6, 5, 3, 2, 1), "defense": (4, 2), "regular_armor": (3,)},
                  **gunshot(ranged=Ranged(distance_m=8), gm_dice=AIMED, ammunition="hollow point",
                            defender_armor=["reinforced jacket"]))
    assert [s.value for s in shot.steps] == [10, 5, 50, 44]
    assert wounds_report(journal.state(cid), "Iris")[0].status == "at death's door"


def test_hollow_point_example_second_character(table):
    # "The bullet hitting the second character would have done 10 points of damage instead of 6, but her roll of 4
    # would have been doubled to 8, so the bullet would have only done 1 point of damage."
    journal, cid = table
    shot = second_character_shot(journal, cid, Ammunition.HOLLOW_POINT)
    assert [s.value for s in shot.steps] == [2, 5, 10, 1]


# -- illegal moves write nothing ---------------------------------------------------------------


def test_a_sixth_die_on_a_five_die_defense_roll_is_refused(table):
    # "The target rolls the number of dice indicated from among the above factors as his defense roll."
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    shot = Attack(declaration(**gunshot(ranged=Ranged(distance_m=15, cover=2))),
                  {"attack": (6, 5, 3, 2), "defense": (6, 5, 4, 3, 2, 1)})
    refused(journal, cid, shot, InvalidCommand,
            match=r"5-die roll \(5d6\) needs 5 faces, got 6 \[3 dice \(15 m with a pistol\); 2 dice \(cover\)\]")


def test_attacking_a_character_not_in_the_fight_is_refused(table):
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    refused(journal, cid, Attack(declaration(**gunshot("Juno", ranged=Ranged(distance_m=3)))), InvalidCommand,
            match="Juno is not in the fight")
    refused(journal, cid, Attack(declaration(**gunshot("Ghost", ranged=Ranged(distance_m=3)))), InvalidCommand)


def test_attacks_belong_to_detailed_combat_and_a_fight_in_play(table):
    journal, cid = table
    refused(journal, cid, Attack(declaration(attacker="Iris", defender="Juno", weapon="knife")), InvalidCommand,
            match="no fight is in play")
    start(journal, cid, "Iris", "Juno", mode="gestalt")
    refused(journal, cid, Attack(declaration(attacker="Iris", defender="Juno", weapon="knife")), InvalidCommand,
            match="gestalt combat, not detailed")
    refused(journal, cid, StartCombat((Fighter("Iris"),)), InvalidCommand, match="fight 1 is in play: end it first")


def test_a_missile_weapon_needs_the_distance_and_dice_that_are_not_rolled_are_refused(table):
    # "With missile weapons, the target receives a defense roll based on such factors as range, movement, cover"
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    refused(journal, cid, Attack(declaration(**gunshot())), InvalidCommand, match="missile weapon")
    refused(journal, cid, Attack(declaration(**gunshot(ranged=Ranged(distance_m=8))),
                                 {"attack": (6, 5, 3, 2), "defense": (1, 1), "regular_armor": (3,)}),
            InvalidCommand, match="rolls no regular_armor dice")


def test_a_revolver_fires_one_good_shot_a_round_unless_the_gm_overrides(table):
    # "You can get one good shot per round with a revolver."
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    shot = dict(ranged=Ranged(distance_m=8))
    attack(journal, cid, {"attack": (1, 1, 1, 1), "defense": (6, 6)}, **gunshot(**shot))
    second = Attack(declaration(**gunshot(**shot)), {"attack": (1, 1, 1, 1, 1), "defense": (6, 6)})
    refused(journal, cid, second, RuleViolation, match="fires 1 single shot")
    recorded = journal.execute(cid, second, override=GM)
    assert [r.event_type for r in recorded] == ["override.recorded", "yarn.combat.attacked"]
    journal.execute(cid, NextRound())
    attack(journal, cid, {"attack": (1, 1, 1, 1), "defense": (6, 6)}, **gunshot(**shot))
    assert verify(journal.store.read(cid), cid).ok


def test_second_shot_of_an_automatic_pistol_takes_a_penalty_die(table):
    # "You can get up to two shots per round, but the second receives a penalty die due to recoil from the first."
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    pistol = weapon_profile("automatic pistol", "medium")
    shot = dict(attacker="Operative", defender="Iris", weapon=pistol.weapon, firearm=pistol.firearm,
                range_class=pistol.range_class, attack_dice=3, ranged=Ranged(distance_m=15))
    attack(journal, cid, {"attack": (1, 1, 1), "defense": (6, 6, 6)}, **shot)
    second = attack(journal, cid, {"attack": (1, 1, 1, 1), "defense": (6, 6, 6)}, **shot)
    assert [(e.penalty, e.chapter) for e in second.entries if e.penalty] == [(1, "Combat › Automatic Pistols")]
    refused(journal, cid, Attack(declaration(**shot)), RuleViolation)


# -- the dice of a roll, each with its rule ----------------------------------------------------


def test_messed_up_puts_a_penalty_die_on_every_roll_recorded_with_its_rule(table):
    # "If the target is now at half or less their normal hit points, they suffer a penalty die on all actions until
    # they recover to more than half their normal hit points."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    journal.execute(cid, TakeDamage("Iris", "a fall down the gangway", points=11))
    assert penalty_dice_from_wounds(journal.state(cid), "Iris") == 1
    blow = attack(journal, cid, {"attack": (3, 3, 3, 6), "defense": (1, 2, 1, 1)}, attacker="Iris", defender="Juno",
                  weapon="unarmed", attack_trait="Military Background", defense_trait="Agile")
    assert [(e.roll, e.penalty, e.chapter, e.rule) for e in blow.entries if e.penalty] == [
        ("attack", 1, MESSED_UP.chapter, MESSED_UP.text)]
    assert (blow.attack.total, blow.defense.total, blow.damage) == (9, 5, 4)


def test_a_non_combat_trait_cannot_attack_and_defend_in_one_round(table):
    # "A non-combat trait cannot be used for both attack and defense in a single round. If you are “Agile,” you must
    # decide each round whether to use that trait for your attack or defense roll."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    attack(journal, cid, {"attack": (1, 1, 1), "defense": (6, 6, 6, 6)}, attacker="Iris", defender="Juno",
           weapon="unarmed", attack_trait="Agile", defense_trait="Agile")
    back = Attack(declaration(attacker="Juno", defender="Iris", weapon="unarmed", defense_trait="Agile"),
                  {"attack": (1, 1), "defense": (6, 6, 6)})
    refused(journal, cid, back, RuleViolation, match="Agile")
    journal.execute(cid, NextRound())
    journal.execute(cid, back)


def test_a_combat_trait_serves_attack_and_defense(table):
    # "A specifically combat oriented trait, such as “Good Knife- Fighter” can be used for both attack and defense."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    attack(journal, cid, {"attack": (1, 1, 1), "defense": (6, 6, 6, 6)}, attacker="Iris", defender="Juno",
           weapon="knife", attack_trait="Military Background", defense_trait="Agile")
    back = attack(journal, cid, {"attack": (1, 1), "defense": (6, 6, 6)}, attacker="Juno", defender="Iris",
                  weapon="knife", defense_trait="Military Background")
    assert back.defense_trait_combat


def test_advantages_each_give_their_die_with_their_rule(table):
    # "Whenever you have the edge over an opponent because of something besides your traits, you can ask the GM to
    # give you a bonus die on your combat roll." / "If you hit the guy when he's totally unaware, the GM might grant
    # you more than just a bonus die."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    blow = attack(journal, cid, {"attack": (6, 5, 4, 1, 1, 1, 2), "defense": (1, 1, 1, 1)},
                  attacker="Iris", defender="Juno", weapon="sword", attack_trait="Military Background",
                  defense_trait="Agile", advantages=[
                      AdvantageClaim(advantage=Advantage.SURPRISE, extra_dice=1, why="from behind, unaware"),
                      AdvantageClaim(advantage=Advantage.BETTER_WEAPONRY, why="a sword against bare hands"),
                      AdvantageClaim(advantage=Advantage.BETTER_POSITION, why="above her on the stairs")])
    assert [(e.bonus, e.chapter) for e in blow.entries if e.bonus] == [
        (2, "Combat › Attacking With Surprise"),
        (1, "Combat › Attacking from Advantage"),
        (1, "Combat › Attacking from Advantage"),
    ]
    assert (blow.attack.notation, blow.attack.total, blow.damage) == ("7d6kh3", 15, (15 - 4) * 3)
    journal.execute(cid, NextRound())
    extra = AdvantageClaim(advantage=Advantage.BETTER_POSITION, extra_dice=1)
    refused(journal, cid, Attack(declaration(attacker="Iris", defender="Juno", weapon="knife", advantages=[extra])),
            RuleViolation, match="only total surprise")


def test_ganging_up_gives_the_defenders_chosen_attacker_a_bonus_die(table):
    # "Someone can defend normally against one opponent for each die they have in fighting ability. ... Each
    # additional attacker receives a bonus die on attacks against that character. The defender gets to choose which
    # attackers get the bonus die."
    journal, cid = table
    start(journal, cid, "Iris", Thug1=14, Thug2=14, Thug3=14)
    gang = dict(attackers=["Thug1", "Thug2", "Thug3"], chosen_by_defender=["Thug3"], defender_fighting_dice=2)
    claim = AdvantageClaim(advantage=Advantage.GANGING_UP, **gang)
    blow = attack(journal, cid, {"attack": (1, 1, 1), "defense": (6, 6, 6)}, attacker="Thug3", defender="Iris",
                  weapon="lead pipe", advantages=[claim], defense_trait="Military Background")
    assert [(e.bonus, e.chapter) for e in blow.entries if e.bonus] == [(1, "Combat › Ganging Up")]
    refused(journal, cid, Attack(declaration(attacker="Thug1", defender="Iris", weapon="unarmed", advantages=[claim])),
            RuleViolation, match="did not choose Thug1")


def test_psychological_advantage_lasts_the_next_round_only(table):
    # "The next round (only) you get a bonus die on your rolls."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    claim = AdvantageClaim(advantage=Advantage.PSYCHOLOGICAL, gained_round=1)
    now = Attack(declaration(attacker="Iris", defender="Juno", weapon="unarmed", advantages=[claim]),
                 {"attack": (1, 1, 1), "defense": (6, 6)})
    refused(journal, cid, now, RuleViolation, match="next round only")
    journal.execute(cid, NextRound())
    assert journal.execute(cid, now)[-1].payload.entries[-1].chapter == "Combat › Psychological Advantage"


def test_predictable_attacks_take_a_penalty_die_but_not_for_gmcs(table):
    # "If you ever make a predictable or boring attack on an opponent, the GM has the right to give you a penalty die
    # on the attack." "The “predictable attacks” rule does not apply to GMCs."
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    swing = attack(journal, cid, {"attack": (6, 1, 1, 1), "defense": (6, 6)}, attacker="Iris", defender="Operative",
                   weapon="unarmed", attack_trait="Military Background", predictable=True)
    assert [(e.penalty, e.chapter) for e in swing.entries if e.penalty] == [(1, "Combat › Predictable Attacks")]
    refused(
        journal,
        cid,
        Attack(declaration(attacker="Operative", defender="Iris", weapon="unarmed", predictable=True)),
        InvalidCommand,
        match="does not apply to GMCs",
    )


def test_heavy_and_stacked_armor_cost_penalty_dice_but_not_on_a_firearm_attack(table):
    # "someone wearing thick leathers under their plate mail would roll 2 dice and add 1 point for protection, but
    # they would also suffer two penalty dice on agility-related actions" / "Note that encumbrance from armor does
    # not affect firearm attack rolls."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    journal.execute(cid, WearArmor("Iris", ("plate mail", "leathers")))
    blow = attack(journal, cid, {"attack": (2, 2, 2, 2), "defense": (6, 6, 1, 1, 1), "regular_armor": (2, 3)},
                  attacker="Juno", defender="Iris", weapon="knife", attack_trait="Agile",
                  defense_trait="Military Background")
    assert [(e.penalty, e.chapter) for e in blow.entries if e.penalty] == [
        (1, "Combat › Regular Armor"), (1, "Combat › Regular Armor")]
    assert [e.why for e in blow.entries if e.penalty] == ["Iris wears heavy armor", "Iris wears 2 layers"]
    assert [s.value for s in blow.steps] == [8 - 3, 2, 10, 10 - (2 + 3 + 1)]
    journal.execute(cid, NextRound())
    gun = weapon_profile("rifle", "light")
    shot = attack(
        journal,
        cid,
        {"attack": (1, 1, 1), "defense": (6, 6)},
        attacker="Iris",
        defender="Juno",
        weapon=gun.weapon,
        firearm=gun.firearm,
        range_class=gun.range_class,
        attack_trait="Military Background",
        ranged=Ranged(distance_m=30),
    )
    assert not [e for e in shot.entries if e.penalty]


# -- firearms, tasers and special attacks -----------------------------------------------------


def test_burst_at_close_range_adds_a_bonus_die_and_one_to_the_multiplier(table):
    # "A burst adds a bonus die to the roll to hit regardless of range. At point-blank or close range, it also adds
    # +1 to the weapon's damage multiplier"
    journal, cid = table
    start(journal, cid, "Iris", Gunman=14)
    smg = weapon_profile("sub-machine gun", "medium")
    burst = attack(journal, cid, {"attack": (6, 5, 3, 1), "defense": (2, 2)}, attacker="Gunman", defender="Iris",
                   weapon=smg.weapon, firearm=smg.firearm, range_class=smg.range_class, attack_dice=3,
                   fire_mode=FireMode.THREE_ROUND_BURST, rounds_in_clip=30, ranged=Ranged(distance_m=20))
    assert [(e.bonus, e.chapter) for e in burst.entries if e.bonus] == [(1, "Combat › Three Round Burst")]
    assert [s.value for s in burst.steps] == [14 - 4, 5, 50]


def test_full_auto_needs_ten_rounds_in_the_clip(table):
    # "You must have at least 10 rounds in your clip to qualify as "full auto.""
    journal, cid = table
    start(journal, cid, "Iris", Gunman=14)
    smg = weapon_profile("sub-machine gun", "light")
    spray = dict(attacker="Gunman", defender="Iris", weapon=smg.weapon, firearm=smg.firearm,
                 range_class=smg.range_class, attack_dice=3, fire_mode=FireMode.FULL_AUTO_ONE_TARGET,
                 ranged=Ranged(distance_m=20))
    refused(journal, cid, Attack(declaration(rounds_in_clip=9, **spray)), RuleViolation, match="do not qualify")
    shot = attack(journal, cid, {"attack": (6, 5, 3, 1), "defense": (2, 2)}, rounds_in_clip=10, **spray)
    assert shot.steps[1].value == 3 + 2  # "full auto trained on a single target provides ... +2"


def test_full_auto_spread_cannot_skip_the_friend_in_between(table):
    # "You can target one person for every five bullets fired. You cannot skip a target between two people who you
    # do target. For instance, if your friend is between two enemies that you fire on, you must target the friend."
    journal, cid = table
    start(journal, cid, "Iris", "Juno", Gunman=14, Thug=14)
    rifle = weapon_profile("automatic rifle", "light")
    line = Spread(line_of_fire=["Thug", "Juno", "Operative"], first="Thug", last="Juno", bullets_fired=10)
    sweep = dict(attacker="Iris", weapon=rifle.weapon, firearm=rifle.firearm, range_class=rifle.range_class,
                 attack_trait="Military Background", fire_mode=FireMode.FULL_AUTO_SPREAD, rounds_in_clip=20,
                 ranged=Ranged(distance_m=60))
    miss = {"attack": (1, 1, 1), "defense": (6, 6, 6)}  # medium range: no bonus, no penalty
    first = attack(journal, cid, miss, defender="Thug", spread=line, **sweep)
    assert first.spread_targets == ["Thug", "Juno"]
    refused(journal, cid, Attack(declaration(defender="Gunman", **sweep), miss), RuleViolation,
            match="not a target left")
    attack(journal, cid, miss, defender="Juno", **sweep)
    refused(journal, cid, Attack(declaration(defender="Juno", **sweep), miss), RuleViolation)


def test_shotgun_damage_is_divided_by_the_distance_dice(table):
    # "Divide damage by the number of defense dice rolled for distance. For example, at 10m the defender gets 3 dice
    # for distance, so you divide your damage by 3."
    journal, cid = table
    start(journal, cid, "Iris", Farmer=14)
    shotgun = weapon_profile("shotgun")
    blast = attack(journal, cid, {"attack": (6, 6), "defense": (1, 2, 1)}, attacker="Farmer", defender="Iris",
                   weapon=shotgun.weapon, firearm=shotgun.firearm, range_class=shotgun.range_class,
                   ranged=Ranged(distance_m=10))
    assert [s.value for s in blast.steps] == [8, 10, 80, 27]


def test_taser_damage_is_temporary_and_armor_either_stops_it_or_not(table):
    # "All damage from a taser is temporary. Record it separately; it all comes back when the character recovers."
    # "If the dice match or exceed the number by which the attack roll exceeded the defense roll, the armor has
    # prevented the taser from penetrating, and you take no damage."
    journal, cid = table
    start(journal, cid, "Iris", "Juno", Guard=14)
    taser = dict(attacker="Guard", weapon="taser", range_class="taser", attack_dice=3, ranged=Ranged(distance_m=2))
    zap = attack(journal, cid, {"attack": (4, 4, 4), "defense": (5, 4), "regular_armor": (3,)}, defender="Iris",
                 defender_armor=["reinforced jacket"], **taser)
    assert (zap.damage, zap.steps[-1].step) == (0, "armor stops the taser (margin 3)")
    journal.execute(cid, NextRound())
    zap = attack(journal, cid, {"attack": (4, 4, 4), "defense": (5, 4)}, defender="Juno", **taser)
    assert (zap.damage, zap.temporary) == (15, True)
    [juno] = wounds_report(journal.state(cid), "Juno")
    assert (juno.current, juno.temporary) == (-1, 15)


def test_special_effect_attacks_do_half_damage_and_succeed_by_the_gms_margin(table):
    # "the attack roll is made normally, but only half the normal damage is done. The special effect succeeds only
    # if the attack roll exceeds the defense roll by an amount the GM judges to be sufficient."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    tackle = attack(journal, cid, {"attack": (6, 5, 1), "defense": (2, 3, 1, 1)}, attacker="Iris", defender="Juno",
                    weapon="unarmed", attack_trait="Military Background", defense_trait="Agile",
                    special_effect="tackle", sufficient_margin=4)
    assert tackle.special_effect_succeeds and [s.value for s in tackle.steps] == [5, 1, 5, 3]  # 2.5 rounded off
    refused(journal, cid, Attack(declaration(attacker="Juno", defender="Iris", weapon="unarmed",
                                             special_effect="disarm")), InvalidCommand, match="margin")


# -- optional rules ----------------------------------------------------------------------------


def test_optional_combat_rules_need_the_campaigns_option(table):
    # "The GM decides when and whether to use these rules."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    knife = dict(attacker="Iris", defender="Juno", weapon="knife", attack_trait="Military Background")
    refused(journal, cid, Attack(declaration(alternate_damage=True, **knife), {"attack": (6, 6, 6), "defense": (1, 1)}),
            RuleViolation, match="Alternate Damage")
    refused(
        journal, cid, Attack(declaration(desperate_defense=True, **knife)), RuleViolation, match="Desperate Defense"
    )
    wound = SeriousWoundFacts(description="severed tendon", kind=SeriousWoundKind.MIS_HEALS)
    refused(journal, cid, Attack(declaration(serious_wound=wound, **knife), {"attack": (6, 6, 6), "defense": (1, 1)}),
            RuleViolation, match="Serious Wounds")


@pytest.fixture
def optional(journal):
    journal.create_campaign("tides", title="Tides", gm="Maya",
                            options={"alternate_damage": True, "desperate_defense": True, "serious_wounds": True})
    journal.execute("tides", StartCombat((Fighter("Knifer", 21), Fighter("Mark", 21)), "detailed"))
    return journal, "tides"


def test_alternate_damage_rolls_a_die_per_point_of_the_factor(optional):
    # "For example, a knife does 2 dice of damage, or 2 dice times two if the attack roll is at least double the
    # defense roll."
    journal, cid = optional
    stab = attack(journal, cid, {"attack": (6, 6), "defense": (3, 3), "damage": (3, 5)}, attacker="Knifer",
                  defender="Mark", weapon="knife", alternate_damage=True)
    assert (stab.damage_dice.notation, stab.damage) == ("2d6", 16)
    assert stab.steps[-1].chapter == "Optional Rules for Combat › Alternate Damage"


def test_desperate_defense_gives_a_bonus_die_for_the_attack_given_up(optional):
    # "if you give up your attack, you may get a bonus die on each defense roll for that round."
    journal, cid = optional
    knife = dict(weapon="knife", attack_dice=3, defense_dice=2)
    first = attack(journal, cid, {"attack": (1, 1, 1), "defense": (6, 6, 1)}, attacker="Knifer", defender="Mark",
                   desperate_defense=True, **knife)
    assert [e.chapter for e in first.entries if e.bonus] == ["Optional Rules for Combat › Desperate Defense"]
    refused(journal, cid, Attack(declaration(attacker="Mark", defender="Knifer", **knife)), RuleViolation,
            match="gave up attacking")


def test_a_serious_wound_is_recorded_with_the_blow(optional):
    # "A wound is usually a “serious wound” when at least 20 points of damage are suffered in a single blow"
    journal, cid = optional
    wound = SeriousWoundFacts(description="severe damage to the liver", kind=SeriousWoundKind.LETHAL, daily_loss=3)
    blow = attack(journal, cid, {"attack": (6, 6, 6), "defense": (1, 1)}, attacker="Knifer", defender="Mark",
                  weapon="sword", attack_dice=3, serious_wound=wound)
    assert (blow.damage, blow.usually_serious) == (48, True)
    assert wounds_report(journal.state(cid), "Mark")[0].serious_wounds == (
        "severe damage to the liver (leads to death)",
    )


# -- gestalt combat ----------------------------------------------------------------------------


def test_gestalt_totals_each_side_and_keeps_the_gmcs_total_secret(table):
    # "The players total all their rolls, and the GM totals all the GMCs' combat rolls. ... Whichever side rolls
    # highest wins the fight, but the GM keeps the GMCs' total a secret, so the players don't know who will win."
    journal, cid = table
    start(journal, cid, "Iris", "Juno", mode="gestalt")
    players = journal.execute(cid, RollGestalt(Side.PLAYERS, (RollInput("Iris", trait="Tough", faces=(6, 5, 4, 1)),
                                                              RollInput("Juno", trait="Agile", faces=(3, 3, 3, 3)))),
                              by="Ana")[-1]
    assert (players.payload.total, players.visibility) == (28, "everyone")
    assert gestalt_outcome(journal.state(cid)) is None
    secret = journal.execute(cid, RollGestalt(Side.GMCS, (RollInput("five roughs", dice=10, faces=(6,) * 10),)),
                             visibility="gm")[-1]
    assert secret.visibility == "gm"
    outcome = gestalt_outcome(journal.state(cid))
    assert (outcome.players_total, outcome.gmcs_total, outcome.winner) == (28, 60, Side.GMCS)
    refused(journal, cid, RollGestalt(Side.GMCS, (RollInput("more", dice=2),)), InvalidCommand, match="already rolled")
    refused(
        journal, cid, RollGestalt(Side.PLAYERS, (RollInput("Iris", dice=3),)), InvalidCommand, match="already rolled"
    )
    journal.execute(cid, EndCombat("the roughs drive them off"))
    assert journal.state(cid).rules.combat.in_play is None
    assert verify(journal.store.read(cid), cid).ok


def test_the_gm_decides_the_gestalt_rolls_and_wounds_still_cost_a_die(table):
    # "(The GM determines what rolls are made and how, depending on the circumstances of the fight.)"
    journal, cid = table
    start(journal, cid, "Iris", mode="gestalt")
    journal.execute(cid, TakeDamage("Iris", "an earlier brawl", points=12))
    # "If you get a bonus and a penalty die for the same roll, they cancel each other, and you roll normally."
    roll = journal.execute(cid, RollGestalt(Side.PLAYERS, (RollInput("Iris", dice=3, bonus=1, faces=(6, 3, 1)),)))
    entries = roll[-1].payload.rolls[0].entries
    assert [(e.dice, e.bonus, e.penalty) for e in entries] == [(3, 0, 0), (0, 1, 0), (0, 0, 1)]
    assert (roll[-1].payload.rolls[0].dice.notation, roll[-1].payload.total) == ("3d6", 10)


def test_a_public_gmc_total_is_flagged_by_verify(table):
    journal, cid = table
    start(journal, cid, "Iris", mode="gestalt")
    gestalt = RollGestalt(Side.GMCS, (RollInput("the gang", dice=4),),
                          rolled={"gestalt of the gang": ((6, 5, 2, 1), ())})
    [payload] = fight.decide(gestalt, journal.state(cid), Referee())
    journal.commands.append(cid, journal.store.last_sequence(cid), [payload], by="Maya", visibility="everyone")
    faults = audit(journal.history(cid))
    assert [f.event_type for f in faults] == ["yarn.combat.gestalt_rolled"] and "kept secret" in faults[0].problem


# -- initiative, rounds, combatants -----------------------------------------------------------


def test_initiative_from_highest_to_lowest_with_one_roll_for_the_gmcs(table):
    # "The GM can roll for all the GMCs with one roll for simplicity’s sake. The GM or a helpful player writes down
    # the characters from highest roll to lowest." "Lacking any such trait, a character rolls 2 dice."
    journal, cid = table
    start(journal, cid, "Iris", "Juno", Thug1=14, Thug2=14)
    order = journal.execute(cid, RollInitiative((
        RollInput("Iris", faces=(5, 4)), RollInput("Juno", trait="Agile", faces=(6, 5, 4, 1)),
        RollInput("GMCs", faces=(6, 2)))))[-1].payload
    assert order.order == ["Juno", "Iris", "GMCs"]
    assert order.rolls[0].entries[0].chapter == "Combat › Initiative"
    refused(journal, cid, RollInitiative((RollInput("Iris", faces=(6, 6)),)), InvalidCommand, match="already set")


def test_initiative_must_cover_everyone_and_ties_are_the_gms(table):
    journal, cid = table
    start(journal, cid, "Iris", "Juno", Thug=14)
    refused(
        journal, cid, RollInitiative((RollInput("Iris", faces=(5, 4)),)), InvalidCommand, match="missing for Juno, Thug"
    )
    tied = (RollInput("Iris", faces=(5, 4)), RollInput("Juno", dice=2, faces=(6, 3)), RollInput("Thug", faces=(1, 1)))
    refused(journal, cid, RollInitiative(tied), InvalidCommand, match="the GM orders them")
    assert journal.execute(cid, RollInitiative(tied, ("Juno", "Iris")))[-1].payload.order == ["Juno", "Iris", "Thug"]


def test_seating_order_with_the_gm_first_or_last(table):
    # "Or have each of the players act in the order they are seated around the table, with the GM acting first or last."
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    assert journal.execute(cid, SeatingOrder(("Ben", "Ana"), gm_first=False))[-1].payload.order == [
        "Ben",
        "Ana",
        "Maya",
    ]


def test_combatants_without_a_sheet_are_registered_by_the_gm(table):
    journal, cid = table
    refused(journal, cid, StartCombat((Fighter("Nameless"),), "detailed"), InvalidCommand, match="has no hit points")
    refused(journal, cid, StartCombat((Fighter("Iris", 30),), "detailed"), InvalidCommand, match="from the sheet")
    refused(journal, cid, RegisterCombatant("Ana", 14), InvalidCommand, match="participant")
    recorded = start(journal, cid, "Iris", Rough=14)
    assert [r.event_type for r in recorded] == ["yarn.combat.combatant_registered", "yarn.combat.started"]
    journal.execute(cid, JoinCombat((Fighter("Rough2", 7), Fighter("Juno"))))
    assert journal.state(cid).rules.combat.in_play.combatants == ("Iris", "Rough", "Rough2", "Juno")
    assert wounds_report(journal.state(cid), "Rough2")[0].maximum == 7


def test_the_exact_odds_of_an_attack_before_its_dice(table):
    # "If your attack roll is higher than the target’s defense roll, you’ve scored a hit": two dice against two.
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    chances = attacks.attack_odds(journal.state(cid), declaration(attacker="Iris", defender="Juno", weapon="unarmed"))
    assert chances.beats == Fraction(575, 1296)
    assert chances.beats + chances.equals + chances.fails == 1


def test_the_tool_rolls_when_no_faces_are_given(table):
    journal, cid = table
    start(journal, cid, "Iris", "Juno")
    command = Attack(declaration(attacker="Iris", defender="Juno", weapon="knife", attack_trait="Military Background"))
    blow = execute_rolling(journal, cid, command, rng=random.Random(7))[-1].payload
    assert (blow.attack.source, len(blow.attack.faces), blow.defense.source) == ("rolled", 3, "rolled")
    assert verify(journal.store.read(cid), cid).ok


# -- history and audit -------------------------------------------------------------------------


def test_an_attack_forced_in_with_wrong_arithmetic_is_flagged(table):
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    shot = Attack(declaration(**gunshot(ranged=Ranged(distance_m=8))), {"attack": (6, 5, 3, 2), "defense": (4, 2)})
    [legal] = fight.decide(shot, journal.state(cid), Referee())
    assert legal.damage == 3 * (16 - 6)
    forged = legal.model_copy(update={"damage": 5, "hit_points_after": 17})
    journal.commands.append(cid, journal.store.last_sequence(cid), [forged], by="Maya", visibility="everyone")
    problems = [f.problem for f in audit(journal.history(cid))]
    assert problems == ["damage is recorded as 5 but the rules give 30",
                        "hit_points_after is recorded as 17 but the rules give -8"]


def test_an_attack_forced_in_against_the_rules_is_flagged(table):
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    shot = gunshot(ranged=Ranged(distance_m=8))
    attack(journal, cid, {"attack": (1, 1, 1, 1), "defense": (6, 6)}, **shot)
    second = attack(journal, cid, {"attack": (1, 1, 1, 1, 1), "defense": (6, 6)}, override=GM, **shot)
    assert not audit(journal.history(cid))  # the override event covers the second shot
    journal.commands.append(cid, journal.store.last_sequence(cid), [second], by="Maya", visibility="everyone")
    [fault] = audit(journal.history(cid))
    assert "a revolver fires 1 single shot(s) per round" in fault.problem and "Gunfire Options" in fault.problem


def test_wounds_as_of_any_point_of_the_journal(table):
    journal, cid = table
    start(journal, cid, "Iris", Operative=21)
    before = journal.store.last_sequence(cid)
    attack(journal, cid, {"attack": (6, 5, 3, 2), "defense": (4, 2)}, **gunshot(ranged=Ranged(distance_m=8)))
    assert wounds_report(journal.state(cid, upto=before), "Iris")[0].current == 22
    assert wounds_report(journal.state(cid), "Iris")[0].current == -8
