"""Exact odds of Dramatis Personae's rolls, against the digest's figures (section 6) and an exact count."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from yarnlog.rulesets.dramatis_personae.rules import dice, odds
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


def test_contest_of_two_plain_rolls():
    a, b, tie = odds.contest_odds(0, 0)
    assert a == b == {Tier.PARTIAL_SUCCESS: Fraction(427, 1728), Tier.COMPLETE_SUCCESS: Fraction(3185, 23328),
                      Tier.CRITICAL_SUCCESS: Fraction(3263, 46656)}
    assert tie == Fraction(361, 3888)
    assert sum(a.values()) + sum(b.values()) + tie == 1


def test_one_die_up_wins_more_often():
    a, b, tie = odds.contest_odds(1, 0)
    assert round(float(sum(a.values())), 3) == 0.622 and round(float(sum(b.values())), 3) == 0.292
    assert round(float(tie), 3) == 0.086


def test_wound_odds_add_up():
    split = odds.wound_odds(-2)
    assert sum(split.values()) == 1
    assert split[odds.Wound.DEAD] == odds.total_distribution(-2)[3]


def test_the_winner_of_a_contest_of_any_size():
    # two sides: the same figures as the tier split (digest, section 6)
    (a, b), tie = odds.winner_odds((0, 0))
    assert a == b == Fraction(427, 1728) + Fraction(3185, 23328) + Fraction(3263, 46656)
    assert tie == Fraction(361, 3888)
    # three plain rolls are alike: each wins alone with the same chance; an exact count of 216^3 throws agrees
    wins, standoff = odds.winner_odds((0, 0, 0))
    counts = {t: 0 for t in range(3, 19)}
    for faces in itertools.product(range(1, 7), repeat=3):
        counts[sum(faces)] += 1
    alone = sum(counts[t] * sum(counts[u] for u in range(3, t)) ** 2 for t in range(3, 19))
    assert wins == (Fraction(alone, 216 ** 3),) * 3 and standoff == 1 - 3 * Fraction(alone, 216 ** 3)
