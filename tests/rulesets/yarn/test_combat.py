"""Yarn 0.1, "Combat": gestalt and detailed combat, initiative, attacks, ranged attacks, advantages."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.combat import (
    INITIATIVE_DICE_WITHOUT_TRAIT,
    MOVEMENT,
    WEAPON_RANGES,
    Advantage,
    DefenseDice,
    RangeBand,
    RangeClass,
    Side,
    Speed,
    advantage_bonus_dice,
    check_trait_use,
    desperate_defense_bonus_dice,
    dodge_bonus_dice,
    ganging_up_bonus,
    gestalt_combat,
    hit_margin,
    initiative_order,
    meters_moved,
    predictable_attack_penalty_dice,
    psychological_bonus_dice,
    range_band,
    ranged_defense,
    seating_order,
    special_effect_succeeds,
)

examples = settings(derandomize=True, database=None, max_examples=40)


def strict() -> Referee:
    return Referee()


# --- Gestalt combat


def test_gestalt_example_character_beats_the_gang():
    # "He rolls three dice for 14, while the gang members roll ten dice and take the best two, a 5 and a 6.
    # The character manages to beat off the gang members" ... "This fight was an example of “gestalt” combat."
    assert gestalt_combat([14], gm_secret_total=5 + 6).winner is Side.PLAYERS


def test_gestalt_totals_all_player_rolls_against_the_secret_total():
    # "The players total all their rolls, and the GM totals all the GMCs' combat rolls. ... Whichever side
    # rolls highest wins the fight"
    result = gestalt_combat([7, 9, 4], gm_secret_total=21)
    assert (result.players_total, result.gmcs_total, result.winner) == (20, 21, Side.GMCS)


def test_gestalt_tie_is_left_to_the_gm():
    # The book names no winner for equal totals: "the GM adjudicating the actions based on the rolls already made."
    assert gestalt_combat([10, 10], gm_secret_total=20).winner is None


# --- Rounds and movement


def test_movement_table_matches_its_speeds():
    # "Assuming a 3 second round, you can move at the following speeds: Walking 2.5 3 ... Sprinting 20 24"
    assert [(rate.meters_per_round, rate.km_per_hour) for rate in MOVEMENT.values()] == [
        (Fraction(5, 2), 3), (5, 6), (Fraction(15, 2), 9), (10, 12), (15, 18), (20, 24)
    ]
    for rate in MOVEMENT.values():
        assert rate.meters_per_round == Fraction(rate.km_per_hour * 1000 * 3, 3600)


def test_movement_scales_with_the_gms_round_length():
    # "Unless the GM rules otherwise, assume a round is about three seconds long."
    assert meters_moved(Speed.SPRINTING) == 20
    assert meters_moved(Speed.WALKING, round_seconds=6) == 5


# --- Initiative


def test_initiative_from_highest_roll_to_lowest():
    # "The GM or a helpful player writes down the characters from highest roll to lowest. This is the order in
    # which they will act each round." "The GM can roll for all the GMCs with one roll"
    assert initiative_order({"Ann": 7, "GMCs": 11, "Bo": 9}) == ("GMCs", "Bo", "Ann")


def test_initiative_ties_need_the_gms_order():
    # The book gives no rule for equal initiative rolls: the GM orders them.
    with pytest.raises(InvalidCommand):
        initiative_order({"Ann": 9, "Bo": 9, "Cy": 3})
    assert initiative_order({"Ann": 9, "Bo": 9, "Cy": 3}, gm_tie_order=["Bo", "Ann"]) == ("Bo", "Ann", "Cy")


def test_lacking_a_trait_initiative_is_two_dice():
    # "Lacking any such trait, a character rolls 2 dice."
    assert INITIATIVE_DICE_WITHOUT_TRAIT == 2


def test_seating_order_with_the_gm_first_or_last():
    # "Or have each of the players act in the order they are seated around the table, with the GM acting first or last."
    assert seating_order(["Ann", "Bo"], gm="Gail", gm_first=True) == ("Gail", "Ann", "Bo")
    assert seating_order(["Ann", "Bo"], gm="Gail", gm_first=False) == ("Ann", "Bo", "Gail")


@examples
@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(0, 30), min_size=1, max_size=6))
def test_initiative_is_a_descending_ordering_of_everyone(rolls):
    order = initiative_order(rolls, gm_tie_order=sorted(rolls))
    assert sorted(order) == sorted(rolls)
    assert [rolls[name] for name in order] == sorted(rolls.values(), reverse=True)


# --- Attacks


def test_non_combat_trait_cannot_attack_and_defend_in_one_round():
    # "If you are “Agile,” you must decide each round whether to use that trait for your attack or defense roll."
    with pytest.raises(RuleViolation):
        check_trait_use(strict(), attack_trait="Agile", defense_traits=["Agile"], combat_traits=[])


def test_combat_trait_may_attack_and_defend():
    # "A specifically combat oriented trait, such as “Good Knife- Fighter” can be used for both attack and
    # defense rolls."
    check_trait_use(strict(), attack_trait="Good Knife-Fighter", defense_traits=["Good Knife-Fighter"],
                    combat_traits=["Good Knife-Fighter"])
    # "someone who is “Strong as an Ox” and has “Good Reflexes” to boot could use “Strong as an Ox” for the
    # attack roll and “Good Reflexes” for the defense roll."
    check_trait_use(strict(), attack_trait="Strong as an Ox", defense_traits=["Good Reflexes"], combat_traits=[])


def test_hit_margin():
    # "If your attack roll is less than or equal to the defense roll, you have failed to connect ...
    # Subtract the defender’s (lower) roll from your (higher) roll."
    assert hit_margin(9, 9) == 0
    assert hit_margin(8, 9) == 0
    assert hit_margin(16, 6) == 10


def test_special_effect_needs_the_gms_margin():
    # "The special effect succeeds only if the attack roll exceeds the defense roll by an amount the GM judges
    # to be sufficient."
    assert special_effect_succeeds(12, 9, gm_sufficient_margin=3)
    assert not special_effect_succeeds(11, 9, gm_sufficient_margin=3)


def test_predictable_attacks_penalty_not_for_gmcs():
    # "the GM has the right to give you a penalty die on the attack." "The “predictable attacks” rule does not
    # apply to GMCs."
    assert predictable_attack_penalty_dice(gm_rules_predictable=True, attacker_is_gmc=False) == 1
    assert predictable_attack_penalty_dice(gm_rules_predictable=True, attacker_is_gmc=True) == 0
    assert predictable_attack_penalty_dice(gm_rules_predictable=False, attacker_is_gmc=False) == 0


def test_desperate_defense():
    # "if you give up your attack, you may get a bonus die on each defense roll for that round."
    assert desperate_defense_bonus_dice(gives_up_attack=True) == 1
    assert desperate_defense_bonus_dice(gives_up_attack=False) == 0


# --- Ranged attacks


def test_weapon_ranges_table():
    # Table 3, Weapon Ranges.
    assert WEAPON_RANGES == {
        RangeClass.THROWN_BALANCED: (2, 4, 8, 16, 32),
        RangeClass.THROWN_AWKWARD: (2, 4, 6, 8, 10),
        RangeClass.CROSSBOW: (2, 10, 20, 40, 80),
        RangeClass.TASER: (1, 2, 5),
        RangeClass.PISTOL: (2, 10, 20, 40, 80),
        RangeClass.SMG: (2, 25, 50, 100, 200),
        RangeClass.RIFLE: (2, 50, 100, 200, 400),
        RangeClass.SHOTGUN: (4, 8, 16, 32, 64),
    }


def test_smg_at_thirty_meters_gives_three_dice():
    # "if someone opens up with a sub-machine gun while you are 30m away, you will get 3 defense dice for range"
    assert range_band(30, WEAPON_RANGES[RangeClass.SMG]) == 3


def test_baseball_at_six_meters_gives_three_dice():
    # "if you throw a baseball (“thrown, balanced”) at someone 6m away, the target gets 3 dice for the defense roll"
    assert range_band(6, WEAPON_RANGES[RangeClass.THROWN_BALANCED]) == RangeBand.MEDIUM


def test_gunfire_example_short_range():
    # "He is within short range (8m away), so the character gets two dice for his defense roll."
    assert range_band(8, WEAPON_RANGES[RangeClass.PISTOL]) == RangeBand.SHORT == 2


def test_equal_distance_stays_in_the_band():
    # "find the number that is equal to or higher than the distance to the target."
    assert range_band(25, WEAPON_RANGES[RangeClass.SMG]) == RangeBand.SHORT
    assert range_band(Fraction(51, 2), WEAPON_RANGES[RangeClass.SMG]) == RangeBand.MEDIUM


def test_taser_cords_do_not_reach_past_five_meters():
    # "†Their electric cords don’t extend past 5m."
    assert range_band(5, WEAPON_RANGES[RangeClass.TASER]) == RangeBand.MEDIUM
    with pytest.raises(InvalidCommand):
        range_band(6, WEAPON_RANGES[RangeClass.TASER])


@examples
@given(st.sampled_from(list(RangeClass)), st.integers(0, 80), st.integers(0, 80))
def test_farther_is_never_easier_to_hit(weapon, near, far):
    limits = WEAPON_RANGES[weapon]
    near, far = sorted((near, far))
    if far <= limits[-1]:
        assert range_band(near, limits) <= range_band(far, limits)


def test_gunfire_example_second_character_defense():
    # "she only gets two dice for distance, but she gets a third die for moving and four bonus dice for dodging.
    # ... The player rolls seven dice and takes the best three"
    defense = ranged_defense(strict(), 2, target_moving=True, dodging_bonus_dice=dodge_bonus_dice(4))
    assert defense == DefenseDice(dice=3, bonus_dice=4)


def test_every_factor_of_the_ranged_attacks_table_adds_up():
    # Table 2: Cover 1 or 2; Target Moving 1; Attacker Moving 1; Darkness, fog, etc. 1 or 2.
    defense = ranged_defense(strict(), 4, cover=2, target_moving=True, attacker_moving=True, obscured=1)
    assert defense == DefenseDice(dice=4 + 2 + 1 + 1 + 1)


def test_cover_gives_one_or_two_dice():
    # "Cover 1 or 2"
    with pytest.raises(RuleViolation):
        ranged_defense(strict(), 2, cover=3)
    assert ranged_defense(Referee(Override("gm", "a bunker")), 2, cover=3).dice == 5


def test_half_dice_are_bonus_dice():
    # "someone standing 5m from a knife-thrower might get 2 dice plus a bonus die for range"
    assert ranged_defense(strict(), 2, half_dice=1) == DefenseDice(dice=2, bonus_dice=1)


def test_dodging_bonus_dice():
    # "Defender gets bonus dice equal to the number of dice normally rolled for “agility,” “quick reflexes,”
    # etc. (The default is 2 dice.) Someone with “fast, 4 dice,” for example, would receive 4 bonus dice on
    # the defense roll. A clumsy character receives only one bonus die for dodging."
    assert dodge_bonus_dice() == 2
    assert dodge_bonus_dice(4) == 4
    assert dodge_bonus_dice(clumsy=True) == 1


# --- Attacking from advantage


def test_average_person_defends_normally_against_two_attackers():
    # "Someone can defend normally against one opponent for each die they have in fighting ability. (An average
    # person, therefore, can defend normally against two attackers.) Each additional attacker receives a bonus
    # die ... The defender gets to choose which attackers get the bonus die."
    attackers = ["thug 1", "thug 2", "thug 3"]
    chosen = ganging_up_bonus(strict(), defender_fighting_dice=2, attackers=attackers, chosen_by_defender=["thug 2"])
    assert chosen == {"thug 2"}
    assert ganging_up_bonus(strict(), defender_fighting_dice=2, attackers=attackers[:2], chosen_by_defender=[]) == set()
    with pytest.raises(RuleViolation):
        ganging_up_bonus(strict(), defender_fighting_dice=2, attackers=attackers, chosen_by_defender=[])


def test_advantages_give_a_bonus_die_and_surprise_may_give_more():
    # "you can ask the GM to give you a bonus die on your combat roll."
    assert advantage_bonus_dice(strict(), Advantage.BETTER_POSITION) == 1
    # "If you hit the guy when he's totally unaware, the GM might grant you more than just a bonus die."
    assert advantage_bonus_dice(strict(), Advantage.SURPRISE, gm_extra_dice=1) == 2
    with pytest.raises(RuleViolation):
        advantage_bonus_dice(strict(), Advantage.BETTER_WEAPONRY, gm_extra_dice=1)


def test_psychological_advantage_lasts_the_next_round_only():
    # "The next round (only) you get a bonus die on your rolls."
    assert psychological_bonus_dice(round_gained=3, current_round=4, for_whole_combat=False) == 1
    assert psychological_bonus_dice(round_gained=3, current_round=5, for_whole_combat=False) == 0
    # "you get a bonus die on your rolls for the duration of the combat."
    assert psychological_bonus_dice(round_gained=1, current_round=9, for_whole_combat=True) == 1
