"""Exact odds of feats: keep the best of mixed dice, explosions bounded by fortune, trouble."""

from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.rulesets.yarn_polyhedral.rules.odds import explosion_chance, feat_odds, rolled_attribute


def brute(sizes, keep, target, trouble=False):
    """Every outcome counted by hand: the highest ``keep`` faces, a 1 forced in by trouble."""
    hits = 0
    for faces in product(*(range(1, s + 1) for s in sizes)):
        kept = sorted(faces, reverse=True)[:keep]
        if trouble and 1 in faces and 1 not in kept:
            kept = [*kept[: keep - 1], 1]
        hits += sum(kept) >= target
    total = 1
    for s in sizes:
        total *= s
    return Fraction(hits, total)


def test_the_digests_reference_values():
    # Digest 003, section 6.
    assert feat_odds([6, 4, 4, 4], 2, 8).success == Fraction(31, 64)
    assert feat_odds([10, 8, 4], 2, 11).success == Fraction(161, 320)
    assert feat_odds([10, 8, 4], 3, 11).success == Fraction(11, 16)  # one fortune kept a third die


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([2, 4, 6, 8, 10, 12]), min_size=1, max_size=4), st.integers(1, 4),
       st.integers(1, 30))
def test_keep_highest_agrees_with_icepool(sizes, keep, target):
    expected = icepool.Pool([icepool.d(s) for s in sizes]).highest(min(keep, len(sizes))).sum()
    assert feat_odds(sizes, keep, target).success == expected.probability(">=", target)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([2, 4, 6, 8]), min_size=1, max_size=4), st.integers(1, 3), st.integers(1, 20))
def test_trouble_agrees_with_a_count_by_hand(sizes, keep, target):
    assert feat_odds(sizes, keep, target, trouble=True).success == brute(sizes, keep, target, trouble=True)


def test_trouble_lowers_the_odds():
    assert feat_odds([8, 6, 6], 2, 9, trouble=True).success < feat_odds([8, 6, 6], 2, 9).success


def test_one_explosion_of_a_single_d4_by_hand():
    # P24, line 207. A d4 with one fortune: 1, 2, 3 at 1/4 each; a 4 adds a re-roll 1-4 (1/16 each).
    totals = feat_odds([4], 1, explode=1).totals
    assert totals == {1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4), 5: Fraction(1, 16),
                      6: Fraction(1, 16), 7: Fraction(1, 16), 8: Fraction(1, 16)}


def test_explosions_are_bounded_by_the_fortune_and_each_chain_is_geometric():
    # Two fortunes: a d4 can reach 4 + 4 + 4 = 12 and no further; a third 4 is not re-rolled.
    totals = feat_odds([4], 1, explode=2).totals
    assert max(totals) == 12 and totals[12] == Fraction(1, 64)
    assert sum(totals.values()) == 1
    assert explosion_chance(4, 2) == Fraction(1, 16)
    # More fortune in hand never lowers the chance of reaching a total.
    chances = [feat_odds([6, 4], 2, 11, explode=f).success for f in range(4)]
    assert chances == sorted(chances) and chances[0] < chances[1]


def test_the_margin_of_a_location():
    odds = feat_odds([8, 6, 4], 2, 5)
    assert odds.margin_at_least(3) == odds.at_least(8)
    assert feat_odds([8], 1).success is None


@pytest.mark.parametrize(("total", "rank"), [(3, 2), (4, 3), (12, 5), (13, 6), (15, 6), (18, 7), (29, 10),
                                             (30, 11)])
def test_rolled_attribute_rounds_up_below_six_and_down_from_six(total, rank):
    # P59, line 724: "roll 3d10 and divide by 3, then add one. If the result is less than 6, round
    # up, otherwise round down."
    assert rolled_attribute(total) == rank
