"""Dramatis Personae's pure rules against the book (each test quotes its line) and the digest."""

from __future__ import annotations

import pytest

from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.rulesets.dramatis_personae.rules import advancement, characters, contests, dice, difficulty, modifiers
from yarnlog.rulesets.dramatis_personae.rules.characters import Kind, Relevance
from yarnlog.rulesets.dramatis_personae.rules.contests import Outcome, Wound
from yarnlog.rulesets.dramatis_personae.rules.difficulty import Tier
from yarnlog.rulesets.dramatis_personae.rules.modifiers import Band

S, W = Kind.STRENGTH, Kind.WEAKNESS


def test_faust_summons_a_foul_beast():
    # line 37: "His strength in summoning is precisely relevant (+2d6), his strength in magical ability is
    # related (+1d6), and his weakness in courage is related (-1d6). His total adjustment is +2d6"
    ratings = [(S, Relevance.PRECISE), (S, Relevance.RELATED), (W, Relevance.RELATED)]
    assert characters.net_attribute_dice(ratings) == 2
    assert characters.attribute_dice(W, Relevance.PRECISE) == -2
    assert characters.attribute_dice(S, Relevance.IRRELEVANT) == 0  # "Irrelevant attributes do not impact"


@pytest.mark.parametrize("level, more", [(3, 3), (5, 5)])
def test_level_gives_that_many_more_strengths_than_weaknesses(level, more):
    # line 59: "So a 3rd level character can have three more strengths than weaknesses. A 5th level
    # character can have five more."
    for weaknesses in range(4):
        assert characters.strengths_allowed(level, weaknesses) - weaknesses == more
        characters.check_attributes(level, weaknesses + more, weaknesses, Referee())
        with pytest.raises(RuleViolation, match="DP1-DP2"):
            characters.check_attributes(level, weaknesses + more + 1, weaknesses, Referee())


def test_fewer_strengths_are_allowed_and_a_typical_person_is_level_0():
    # reading 12: "can have" (59) means at most; line 59: "A typical person ... is assumed to be 0-level"
    characters.check_attributes(2, 0, 0, Referee())
    characters.check_level(0)
    with pytest.raises(InvalidCommand):
        characters.check_level(-1)


def test_each_initial_minutia_takes_a_quirk():
    # line 43: "for each initial minutia a single quirk must be taken"
    characters.check_quirks(2, 2, Referee())
    with pytest.raises(RuleViolation, match="DP4, line 43"):
        characters.check_quirks(2, 1, Referee())
    referee = Referee.collecting()
    characters.check_quirks(3, 0, referee)
    assert len(referee.broken) == 1


@pytest.mark.parametrize("net, rolled, faces, kept", [
    (0, 3, (2, 5, 1), (5, 2, 1)),
    (2, 5, (1, 6, 2, 6, 3), (6, 6, 3)),  # line 69: "If the net bonuses are positive then the top 3d6"
    (-2, 5, (1, 6, 2, 6, 3), (1, 2, 3)),  # "If they are negative, then the bottom 3d6 are counted"
])
def test_keep_three(net, rolled, faces, kept):
    # line 194: "If total is less than 3d6, add 1d6 for each die under 3, roll dice, and take the lowest 3d6."
    assert dice.dice_to_roll(net) == rolled
    assert dice.kept_three(faces, net) == kept


def test_every_total_is_3_to_18_whatever_the_dice():
    # line 69: "Thus for all rolls there is a minimum roll of 3 and maximum roll of 18."
    # line 180: "There is no limit to the number of dice a character can add to any roll"
    assert sum(dice.kept_three((6,) * 23, 20)) == 18
    assert sum(dice.kept_three((1,) * 23, -20)) == 3
    with pytest.raises(InvalidCommand, match="needs 5d6"):
        dice.kept_three((1, 2, 3), 2)
    with pytest.raises(InvalidCommand, match="1 to 6"):
        dice.kept_three((0, 2, 7), 0)


def test_dice_after_the_roll_retake_the_best_three():
    # reading 8: one extra die rolled, then re-take the best three
    assert dice.improved((1, 2, 3), (6,)) == (6, 3, 2)
    assert dice.improved((5, 5, 4), (1,)) == (5, 5, 4)


@pytest.mark.parametrize("name, number, example", [
    # lines 87-96: each row of the chart with the book's example task
    ("Simple", 5, "Simple (5+) Driving on a relatively straight road at moderate speeds."),
    ("Routine", 6, "Routine (6+) Finding edible plants in a wooded environment with survival skills"),
    ("Mundane", 8, "Mundane (8+) Using thief skills to pick someone's pocket in a crowd."),
    ("Typical", 10, "Typical (10+) Use computer skill Accessing unencrypted data from a strange computer."),
    ("Challenging", 12, "Challenging (12+) Using social skills to bribe a DMV employee for access to private "
                        "records."),
    ("Difficult", 14, "Difficult (14+) Using ones contacts to get passage aboard a military vessel."),
    ("very difficult", 15, "Very Difficult (15+) Using linguistics to translate an alien message."),
    ("Heroic", 16, "Heroic (16+) Using Mechanics to build an ultra-light airplane from a parachute and washing "
                   "machine parts"),
    ("Incredible", 17, "Incredible (17+) Using one's physical strength to lift a small car off of a small child."),
    ("LEGENDARY", 18, "Legendary (18+) Using Medical ability to re-attach a severed limb with only primitive "
                      "tools."),
    ("11", 11, "line 98: Number indicates roll needed on 3d6."),
])
def test_difficulty_chart(name, number, example):
    assert f"({number}+)" in example or name.isdigit()
    assert difficulty.needed(name) == number
    assert difficulty.chart_name(number) in (None, example.split(" (")[0])


def test_a_difficulty_off_the_chart_is_bad_input():
    for text in ("Hard", "19", "3"):
        with pytest.raises(InvalidCommand):
            difficulty.needed(text)


# Per needed number: (complete success from, critical success from, complete failure to, critical failure to),
# the digest's table (section 2), None where the total cannot occur.
THRESHOLDS = {5: (9, 10, None, 3), 6: (10, 12, None, 3), 8: (12, 16, 4, 4), 10: (14, 18, 6, 5),
              11: (15, 18, 7, 5), 12: (16, 18, 8, 6), 14: (18, 18, 10, 7), 15: (None, 18, 11, 7),
              16: (None, 18, 12, 8), 17: (None, 18, 13, 8), 18: (None, 18, 14, 9)}


@pytest.mark.parametrize("number", sorted(THRESHOLDS))
def test_six_tiers(number):
    # line 77: "A roll of less than needed results in a partial failure."
    # line 79: "A roll of 4 more than needed indicate complete success."
    # line 83: "twice the needed number or 18 (whatever is lower) will result in a critical success ... half of
    # what is needed or 3 (whichever is higher) results in a critical failure."
    complete, critical, complete_failure, critical_failure = THRESHOLDS[number]
    for total in range(3, 19):
        tier = difficulty.challenge_tier(total, number)
        if total >= critical:
            assert tier is Tier.CRITICAL_SUCCESS
        elif complete is not None and total >= complete:
            assert tier is Tier.COMPLETE_SUCCESS
        elif total >= number:  # reading 15: meeting the number succeeds ("must be met", line 75)
            assert tier is Tier.PARTIAL_SUCCESS
        elif total <= critical_failure:
            assert tier is Tier.CRITICAL_FAILURE
        elif complete_failure is not None and total <= complete_failure:  # reading 1
            assert tier is Tier.COMPLETE_FAILURE
        else:
            assert tier is Tier.PARTIAL_FAILURE


def test_ranged_base_is_11_as_written():
    # line 202: "A ranged attack against a motionless target approximately man-sized at short range is
    # Typical (11+)." The chart says Typical (10+) (line 90); reading 4: the specific rule wins.
    assert difficulty.RANGED_BASE == 11 != difficulty.needed("Typical") == 10
    assert difficulty.chart_name(11) is None


@pytest.mark.parametrize("normal, taken, dice_", [
    # line 130: "Defusing a bomb normally takes 30 minutes. Our hero has only 10 seconds ... 3 steps lower ...
    # a penalty of -6 (-2 x 3)"
    ("30 minutes", "10 seconds", -6),
    # "Reading a 300 page book normally takes 1 week. ... takes a whole month ... He gets a +2"
    ("1 week", "1 month", 2),
])
def test_time_chart_examples(normal, taken, dice_):
    # line 126: "For each step in the time chart (up or down) ... add or subtract 2d6"
    assert modifiers.time_dice(normal, taken) == dice_


def test_the_book_counts_three_steps_from_30_minutes_to_10_seconds():
    # line 130 says 3 steps; the chart (lines 133-138) has 1 minute and 5 minutes between: the steps add up.
    assert modifiers.time_step("30 Minutes") - modifiers.time_step("10 seconds") == 3


def test_retry_after_a_failure():
    # line 128: "a person who fails to pick a lock on the first challenge roll (taking 1 minute) could continue
    # to work on it and after 5 minutes get another roll. (Note this extra time does not grant any bonus)."
    assert modifiers.retry_time_from("1 minute") == "5 minutes"
    with pytest.raises(InvalidCommand):
        modifiers.retry_time_from("1 year")


def test_the_chasm_nets_minus_two():
    # line 152: "it is windy and rainy. This causes the GM to add 3d6 of penalty onto the roll. Also the party
    # has a skilled mountain climber assisting them, this the GM decides will give them +1d6 ... (net -2d6"
    net = modifiers.modifier(modifiers.CIRCUMSTANCES, "distracting", -3) + 1
    assert net == -2
    assert difficulty.needed("Difficult") == 14  # "a difficult task 14+"


def test_modifier_ranges():
    # line 107: "-1d6 to -3d6 Lacking needed equipment or tools"
    assert modifiers.modifier(modifiers.CIRCUMSTANCES, "lacking-equipment", -3) == -3
    with pytest.raises(InvalidCommand, match="-3d6 to -1d6"):
        modifiers.modifier(modifiers.CIRCUMSTANCES, "lacking-equipment", -4)
    with pytest.raises(InvalidCommand, match="say how many"):
        modifiers.modifier(modifiers.CIRCUMSTANCES, "good-equipment", None)
    # line 188: "+1d6 If armed against an unarmed opponent"
    assert modifiers.modifier(modifiers.MELEE, "armed-vs-unarmed", None) == 1
    # lines 213-215: concealed 30% -2d6, 70% -4d6, 90% -6d6
    assert [modifiers.modifier(modifiers.RANGED, f"concealed-{p}", None) for p in (30, 70, 90)] == [-2, -4, -6]


def test_size_modifiers_read_bigger_as_easier():
    # lines 207-208 print "-1d6* For targets twice the size ... (-4 for x4 ...)" and "-1d6* ... half the size
    # ... (+4 for 1/4 ...)"; reading 5 turns the signs, keeping the printed sizes of the steps.
    sizes = ("x2", "x4", "x8", "x16", "half", "quarter", "eighth", "sixteenth")
    assert [modifiers.modifier(modifiers.RANGED, f"size-{s}", None) for s in sizes] == [1, 4, 6, 8, -1, -4, -6, -8]


def test_evasion_with_agility():
    # line 211: "-2d6 Target is evading (if target has strong agility +1, weak -1)"; reading 6
    assert [modifiers.modifier(modifiers.RANGED, label, None)
            for label in ("evading", "evading-strong-agility", "evading-weak-agility")] == [-2, -3, -1]


@pytest.mark.parametrize("distance, weapon, band", [
    (4, "vision", Band.POINT_BLANK), (5, "vision", Band.SHORT), (79, "vision", Band.VERY_LONG),
    (80, "vision", Band.EXTREME),  # reading 11: "<80m" and ">80m": the limit is in the farther band
    (60, "bow", Band.LONG), (100, "bow", Band.VERY_LONG), (75, "pistol", Band.EXTREME),
    (250, "rifle", Band.EXTREME), (29, "rifle", Band.SHORT),
])
def test_range_bands(distance, weapon, band):
    # lines 118-124
    assert modifiers.band_at(distance, weapon) is band


def test_range_band_dice():
    # lines 119-124: "+2d6 Point Blank", "0 Short", "-2d6 Medium", "-4d6 Long", "-6d6 Very Long", "-8d6 Extreme"
    assert [band.dice for band in Band] == [2, 0, -2, -4, -6, -8]


@pytest.mark.parametrize("winner, loser, tier", [
    (10, 9, Tier.PARTIAL_SUCCESS), (13, 9, Tier.COMPLETE_SUCCESS), (12, 6, Tier.CRITICAL_SUCCESS),
    (18, 17, Tier.CRITICAL_SUCCESS),  # "(or is a natural 18)", reading 10
    (7, 4, Tier.PARTIAL_SUCCESS), (8, 4, Tier.CRITICAL_SUCCESS),
])
def test_contest_tier_from_the_difference(winner, loser, tier):
    # line 158: "whoever rolls highest is considered to have a partial success. If the roll of one opponent is 4
    # greater than the other, that one has a complete success. If the roll is twice as high as the opponent
    # (or is a natural 18), then the higher character is considered to have a critical."
    assert contests.contest_tier(winner, loser) is tier


def test_a_tie_is_a_standoff_and_three_way_contests_go_by_each_margin():
    # reading 2: a tie is a standoff (the book only says "whoever rolls highest", line 158)
    assert contests.contest_result({"A": 18, "B": 18}) == contests.ContestResult(None, ())
    result = contests.contest_result({"A": 15, "B": 14, "C": 7})
    assert result.winner == "A"
    assert dict(result.over) == {"B": Tier.PARTIAL_SUCCESS, "C": Tier.CRITICAL_SUCCESS}
    with pytest.raises(InvalidCommand):
        contests.contest_result({"A": 3})


def test_combat_results():
    # lines 170-172: "Partial Success Loser suffers 1 penalty die / Complete Success Loser suffers 2 penalty dice
    # and winner can finish fight with a challenge 14+ blow. / Critical Success Loser is Finished."
    assert contests.MELEE_RESULTS[Tier.PARTIAL_SUCCESS] == (1, Outcome.PENALTY)
    assert contests.MELEE_RESULTS[Tier.COMPLETE_SUCCESS] == (2, Outcome.FINISHING_OPTION)
    assert contests.MELEE_RESULTS[Tier.CRITICAL_SUCCESS][1] is Outcome.FINISHED
    assert contests.FINISHING_BLOW == difficulty.needed("Difficult") == 14


def test_pool_dice_after_a_melee_roll_go_two_for_one():
    # line 192: "+1d6 For every two dice from dice pool applied after the roll."
    assert contests.pool_dice_after_roll(4) == 2
    with pytest.raises(InvalidCommand):
        contests.pool_dice_after_roll(3)


@pytest.mark.parametrize("total, kind", [(18, Wound.NONE), (11, Wound.NONE), (10, Wound.COSMETIC),
                                         (8, Wound.COSMETIC), (7, Wound.DEBILITATING), (6, Wound.DEBILITATING),
                                         (5, Wound.DISABLED), (4, Wound.DISABLED), (3, Wound.DEAD)])
def test_wounds(total, kind):
    # line 221: "If total result ... is less than 11, then the character may have received some cosmetic injury,
    # if the result is 7- the character received some debilitating injure ..., if the result is 5-, the character
    # is disabled, if the result equals 3 dead."
    assert contests.wound(total) is kind


@pytest.mark.parametrize("level, dice_", [(1, 1), (2, 4), (3, 9), (4, 16), (0, 0)])
def test_pool_is_level_squared(level, dice_):
    # line 67: "Thus at 1st level one has +1d6, at 2nd level +4d6, 3rd level +9d6, 4th level +16d6, etc..."
    assert advancement.pool_size(level) == dice_


@pytest.mark.parametrize("level, cost", [(1, 10), (2, 20), (3, 30)])
def test_level_cost(level, cost):
    # line 65: "Thus 1st level require 10 bonus dice, 2nd level 20 bonus dice, 3rd level requires 30"
    assert advancement.level_cost(level) == cost


def test_dice_debt():
    # line 69: "Characters may add dice to the to a roll even if they have no more bonus dice left. However this
    # incurs a dice debt. For every die added in this way, two penalty dice are added to the dice pool."
    draw = advancement.draw_pool(1, 3)
    assert (draw.from_pool, draw.borrowed, draw.debt) == (1, 2, 4)
    assert advancement.draw_pool(4, 3).debt == 0


def test_buying_a_level():
    # lines 61, 65: 10 x the new level, between adventures, one level at a time
    advancement.check_level_purchase(1, 2, 20, False, Referee())
    with pytest.raises(RuleViolation, match="costs 20"):
        advancement.check_level_purchase(1, 2, 19, False, Referee())
    with pytest.raises(RuleViolation, match="between adventures"):
        advancement.check_level_purchase(1, 2, 25, True, Referee())
    with pytest.raises(RuleViolation, match="buys level 2 next"):
        advancement.check_level_purchase(1, 3, 100, False, Referee())
