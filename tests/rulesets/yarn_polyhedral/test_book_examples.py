"""The book's 19 worked examples (digest 003, section 3), each quoting its line."""

from fractions import Fraction

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules import combat, dice, feats, injuries, odds, options, points, turns
from yarnlog.rulesets.yarn_polyhedral.rules.advancement import Flashback, check_flashback
from yarnlog.rulesets.yarn_polyhedral.rules.feats import BonusType


def test_book_1_rank_costs():
    # Lines 9-21: "rank points / 1 1 / 2 3 / 3 6 / ... / 12 78"
    assert [points.rank_cost(r) for r in range(1, 13)] == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]


def test_book_2_fifteen_points_per_attribute_buy_rank_5():
    # Line 27: "You get 15 points for each attribute, enough for rank 5."
    assert points.rank_for_cost(points.POINTS_PER_ATTRIBUTE) == 5
    assert points.level_for(6 * 15) == 0


def test_book_3_level_thresholds_and_benefits():
    # Lines 29-42: "10 1 S / 30 2 d2 / 60 3 S / 100 4 d4 ... 780 12 d12"
    thresholds = [10, 30, 60, 100, 150, 210, 280, 360, 450, 550, 660, 780]
    assert [points.level_threshold(level) for level in range(1, 13)] == thresholds
    for level, above in enumerate(thresholds, start=1):
        assert points.level_for(90 + above) == level
        assert points.level_for(90 + above - 1) == level - 1
    benefits = ["S" if level % 2 else f"d{dice.level_die(level)}" for level in range(1, 13)]
    assert benefits == ["S", "d2", "S", "d4", "S", "d6", "S", "d8", "S", "d10", "S", "d12"]
    # Line 46: "a new specialty at odd levels": the S rows.
    assert [points.specialties_for(level) for level in range(1, 13)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    # ... and the odd levels' own dice round down (line 23; reading 1): level 3 gives d2, level 1 none.
    assert dice.level_die(3) == 2 and dice.level_die(1) is None


def test_book_4_skill_rank_6_is_d12_the_cap():
    # Line 89: "Most skills give a bonus die of twice the rank. This caps skill ranks at 6 (+d12)."
    assert dice.skill_die(6) == 12
    with pytest.raises(RuleViolation, match="past the cap of 6"):
        points.raise_cost(6, 7, Referee())


def test_book_5_time_doublings():
    # Line 181: "The first x2 adds a +d2, then x4 to make it a d4, or x8 for a d6, x16 gives a d8"
    assert [dice.time_die(k, 6) for k in (1, 2, 3, 4)] == [2, 4, 6, 8]
    assert [dice.time_steps(1, k) for k in (1, 2, 3, 4)] == [2, 4, 8, 16]
    # "as many times as your skill rank": rank 2 stops at x4.
    assert dice.time_die(3, 2) is None


def test_book_6_dancing_dexterity_primary_charisma_secondary():
    # Lines 167, 173: "when dancing, dexterity is the primary" ... "the narrator may allow you a
    # bonus die for your charisma."
    dex, cha = 7, 5
    made = feats.pool(dice.die_for(dex), [(BonusType.SECONDARY, dice.die_for(cha))], Referee())
    assert made.dice == (6, 4) and made.labels == ("base", "secondary")


def test_book_7_pistol_increment_two():
    # Line 303: "anything less than 2 zones away has no penalty. If your target is 2 zones away, add
    # one to the challenge, at 4 zones, add two, at 6 zones, add three"
    pistol = combat.WEAPONS["pistol"]
    assert [combat.distance_penalty(z, pistol.increment) for z in (0, 1, 2, 3, 4, 6)] == [0, 0, 1, 1, 2, 3]


def test_book_8_death_at_one_plus_level_times_health():
    # Line 341: "with a health rank of 7, at level 0 you would die at 7 severity; at level 1 you
    # would die at 14 severity; at level 2, you 'd die at 21 severity"
    assert [points.fatal_severity(level, 7) for level in (0, 1, 2)] == [7, 14, 21]
    assert injuries.is_dead(14, points.fatal_severity(1, 7))
    assert not injuries.is_dead(13, points.fatal_severity(1, 7))


def test_book_9_sword_rank_4_to_5_costs_5():
    # Line 369: "if you are rank 4 with sword, it would cost 5 points to raise your skill rank to 5."
    assert points.raise_cost(4, 5, Referee()) == 5
    # Line 371: "You can't raise a quality more than one rank at a time."
    with pytest.raises(RuleViolation, match="one rank at a time"):
        points.raise_cost(4, 6, Referee())


def test_book_10_rank_7_magic_sword():
    # Line 501: "a rank 7 magic sword could be four ranks for +d8 to hit, and three ranks to add 3
    # to active defense."
    assert dice.item_die(4) == 8
    assert combat.defense(5, active_skill=3) == 5 + 3


def test_book_11_wealth_and_the_arithmetic_that_does_not_add_up():
    # Line 505: "$5000, plus another 5,000 in assets for every year past 18 ... at rank 11, you could
    # have over 200 billion dollars". At 18 the rule gives about 21 billion (reading 12) ...
    assert options.wealth(options.modern_starting_money(18), 11) == 20_971_520_000
    assert options.wealth(options.modern_starting_money(18), 11) < 200_000_000_000
    # ... and the book's figure holds only from about $47,700 of starting money, e.g. at 27.
    assert options.wealth(options.modern_starting_money(27), 11) == 209_715_200_000


def test_book_12_physical_impairment_points():
    # Line 541: "as a limp (for perhaps 3 points), to being missing an arm (which could be 36
    # points), to being a disembodied brain (78 points)": ranks 2, 8 and 12 of a drawback.
    limp, arm, brain = (points.Quality(n, points.Kind.DRAWBACK, r) for n, r in
                        (("limp", 2), ("missing arm", 8), ("disembodied brain", 12)))
    assert [points.drawback_points([q]) for q in (limp, arm, brain)] == [3, 36, 78]
    assert points.rank_for_cost(78) == 12


def test_book_13_dependents():
    # Line 553: "A retired grandparent ... might be worth 21 points. A younger child ... 36 points. A
    # whole family or small group could be worth up to 45 points."
    assert [points.rank_for_cost(p) for p in (21, 36, 45)] == [6, 8, 9]
    assert [points.rank_cost(r) for r in (6, 8, 9)] == [21, 36, 45]


def test_book_14_flashback_in_the_library():
    # Line 697: "we also learn that your character is color blind. This gives you 3 points, to go with
    # 2 you have saved. The group thinks it's a cool idea and gives you an extra point, so you spend 6
    # points to be rank 3 in librarian."
    colour_blind = points.Quality("colour blind", points.Kind.DRAWBACK, 2)
    flashback = Flashback(rank=3, drawback_points=points.drawback_points([colour_blind]), discount=1)
    assert points.rank_cost(3) == 6  # the 6 points the rank costs
    assert flashback.drawback_points + 2 + 1 == 6
    assert check_flashback(flashback, saved=2, flashbacks_left=1, referee=Referee()) == 2
    # One saved point fewer and the flashback is refused.
    with pytest.raises(RuleViolation, match="needs 2 saved points; 1"):
        check_flashback(flashback, saved=1, flashbacks_left=1, referee=Referee())


def test_book_15_rolled_attributes_one_in_a_thousand():
    # Line 728: "you have one in a thousand chance of starting with an 11. It also means you have one
    # in a thousand chance of starting with a 2."
    chances = odds.rolled_attribute_odds()
    assert chances[11] == Fraction(1, 1000) and chances[2] == Fraction(1, 1000)
    assert sum(chances.values()) == 1


def test_book_16_lifting_with_strength_7():
    # Line 734: "With a strength of 7, the point cost is 28, so the minimum is 280 pounds. If your
    # margin is 5, add 50% to that, to lift 420 lbs."
    assert options.lifting_minimum(7) == 280
    assert options.ranged_result(280, 5) == 420
    assert options.lifting_minimum(7, kilograms=True) == 140


def test_book_17_miss_by_5_opens_a_complication():
    # Line 750: "if you miss your roll by 5 the group might rule that you broke your bow string."
    roll = feats.Roll(sizes=(8, 6), faces=(3, 2), kept=(0, 1), challenge=10)
    assert roll.margin == -5
    assert feats.complication_due(roll.margin)
    assert not feats.complication_due(0)


def test_book_18_npc_extras():
    # Line 862: "a rookie cop might be challenge of 7 to hit, and have 3d6 (keep two) for feats ... A
    # worthy opponent might be challenge 11, with d8+3d6 (keep three)."
    cop = options.extra(7, "3d6 keep 2")
    worthy = options.extra(11, "d8+3d6 keep 3")
    assert (cop.challenge, cop.dice, cop.keep) == (7, (6, 6, 6), 2)
    assert (worthy.challenge, worthy.dice, worthy.keep) == (11, (8, 6, 6, 6), 3)
    # Their odds against a challenge (digest, section 6).
    assert odds.feat_odds(cop.dice, cop.keep, 5).success == Fraction(205, 216)
    assert odds.feat_odds(worthy.dice, worthy.keep, 7).success == Fraction(47, 48)


def test_book_19_checking_the_chest_uses_the_feat():
    # Line 609: "If you want to determine if the chest is booby trapped, that would require a roll."
    # Line 607: "This counts as your feat." So a second feat in the phase is refused.
    assert turns.step_cost("perception", "will") == 1
    turns.check_feat(0, Referee())
    with pytest.raises(RuleViolation, match="had its feat"):
        turns.check_feat(1, Referee())
