"""Exact odds of Dramatis Personae's rolls, against the digest's figures (section 6) and an exact count."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from yarnlog.rulesets.dramatis_personae.rules import contests, dice, odds
from yarnlog.rulesets.dramatis_personae.rules.difficulty import Tier


def test_the_chasm_is_19_in_972():
    # line 152: "a difficult task 14+ ... (net -2d6": the digest's exact figure
    assert odds.success_chance(-2, 14) == Fraction(19, 972)


def test_plain_and_boosted_rolls():
    assert odds.success_chance(0, 10) == Fraction(5, 8)
    assert odds.success_chance(2, 14) == Fraction(4087, 7776)


@pytest.mark.parametrize("net", [-2, -1, 0, 1, 3])
def test_distribution_equals_an_exact_count(net):
    counts: dict[int, int] = {}
    throws = list(itertools.product(range(1, 7), repeat=dice.dice_to_roll(net)))
    for faces in throws:
        total = sum(dice.kept_three(faces, net))
        counts[total] = counts.get(total, 0) + 1
    assert odds.total_distribution(net) == {t: Fraction(c, len(throws)) for t, c in counts.items()}


def test_tier_split_of_a_plain_roll_against_typical():
    assert odds.tier_odds(0, 10) == {
        Tier.CRITICAL_FAILURE: Fraction(5, 108), Tier.COMPLETE_FAILURE: Fraction(5, 108),
        Tier.PARTIAL_FAILURE: Fraction(61, 216), Tier.PARTIAL_SUCCESS: Fraction(25, 54),
        Tier.COMPLETE_SUCCESS: Fraction(17, 108), Tier.CRITICAL_SUCCESS: Fraction(1, 216)}


def test_contest_of_two_plain_rolls_from_each_side():
    # digest, section 6: "Contest 3d6 v 3d6 (net 0 each): each side partial 427/1728, complete 3185/23328,
    # critical 3263/46656; tie 361/3888"; what one side wins by, the other loses by (line 158)
    a, b = odds.contest_odds((0, 0))
    assert a == b == {Tier.CRITICAL_FAILURE: Fraction(3263, 46656), Tier.COMPLETE_FAILURE: Fraction(3185, 23328),
                      Tier.PARTIAL_FAILURE: Fraction(427, 1728), None: Fraction(361, 3888),
                      Tier.PARTIAL_SUCCESS: Fraction(427, 1728), Tier.COMPLETE_SUCCESS: Fraction(3185, 23328),
                      Tier.CRITICAL_SUCCESS: Fraction(3263, 46656)}
    assert list(a) == list(odds.OUTCOMES)  # worst first, the standoff between


def test_one_die_up_wins_more_often():
    # digest, section 6: "Net +1 v 0: A wins 62.2 %, B wins 29.2 %, tie 8.6 %."
    a, b = odds.contest_odds((1, 0))
    wins = [sum(p for tier, p in side.items() if tier is not None and tier.success) for side in (a, b)]
    assert [round(float(w), 3) for w in wins] == [0.622, 0.292] and round(float(a[None]), 3) == 0.086
    for tier in contests.CONTEST_TIERS:  # A's success at a tier is B's failure at its mirror
        assert a[tier] == b[contests.mirrored(tier)] and b[tier] == a[contests.mirrored(tier)]


# How many of the 216 throws of 3d6 give each total, 3..18.
COUNTS = dict(zip(range(3, 19), (1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1)))


def _at_most(total: int) -> int:
    return sum(c for t, c in COUNTS.items() if t <= total)


def test_three_plain_rolls_by_hand():
    # line 158: "If the roll is twice as high as the opponent (or is a natural 18) ... a critical": with three,
    # the winner's tier is the one over the runner-up, so A's critical is a total t with both others at most
    # t // 2, or an 18 with both others under 18:
    #   t=6: 10*1*1 + t=7: 15*1 + t=8: 21*4² + t=9: 25*4² + t=10: 27*10² + t=11: 27*10² + t=12: 25*20²
    #   + t=13: 21*20² + t=14: 15*35² + t=15: 10*35² + t=16: 6*56² + t=17: 3*56² + t=18: 1*215²
    #   = 10 + 15 + 336 + 400 + 2700 + 2700 + 10000 + 8400 + 18375 + 12250 + 18816 + 9408 + 46225 = 129635
    by_hand = sum(COUNTS[t] * _at_most(t // 2) ** 2 for t in range(3, 18)) + 215 ** 2
    assert by_hand == 129635
    sides = odds.contest_odds((0, 0, 0))
    assert all(side[Tier.CRITICAL_SUCCESS] == Fraction(129635, 216 ** 3) for side in sides)
    # a standoff: no one alone on top, where A alone on top is a total t with both others under it
    alone = sum(COUNTS[t] * _at_most(t - 1) ** 2 for t in COUNTS)
    assert sides[0][None] == 1 - 3 * Fraction(alone, 216 ** 3) == Fraction(112865, 839808)
    # A loses to a critical: B or C alone on top at t, A at most t // 2 (or B/C at 18 and A under), the third
    # under t
    lost = 2 * (sum(COUNTS[t] * _at_most(t // 2) * _at_most(t - 1) for t in range(3, 18)) + 215 * 215)
    assert sides[0][Tier.CRITICAL_FAILURE] == Fraction(lost, 216 ** 3) == Fraction(21223, 209952)
    assert all(sum(side.values()) == 1 for side in sides)


@pytest.mark.parametrize("nets", [(1, 0, -1), (2, -1, 0, 0), (-2, 3)])
def test_every_side_of_a_contest_agrees_with_a_count_of_every_result(nets):
    # Each combination of totals weighed by its chance, each side's result read by contests.side_tier from the
    # result contests.contest_result gives (DP24, readings 2, 10): the sum is the formula's, exactly.
    names = [f"s{i}" for i in range(len(nets))]
    counted = [{outcome: Fraction(0) for outcome in odds.OUTCOMES} for _ in nets]
    distributions = [odds.total_distribution(net) for net in nets]
    for totals in itertools.product(*(d.items() for d in distributions)):
        chance = Fraction(1)
        for _, p in totals:
            chance *= p
        result = contests.contest_result({n: t for n, (t, _) in zip(names, totals)})
        for i, name in enumerate(names):
            counted[i][contests.side_tier(result, name)] += chance
    assert list(odds.contest_odds(nets)) == counted


def test_wound_odds_add_up():
    split = odds.wound_odds(-2)
    assert sum(split.values()) == 1
    assert split[odds.Wound.DEAD] == odds.total_distribution(-2)[3]
