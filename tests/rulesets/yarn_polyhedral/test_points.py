"""Qualities, points and level (P1-P15, P51, P53, P56, P58), against the book's lines."""

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules.points import (
    Kind,
    Quality,
    build,
    drawback_points,
    flashbacks_for,
    fortune_for,
    level_for,
    minimum_points,
    newcomer_points,
    pay_down_cost,
    raise_cost,
    rank_cost,
    rank_for_cost,
)

SIX = [Quality(n, Kind.ATTRIBUTE, 5) for n in ("strength", "dexterity", "health", "intelligence", "will",
                                                  "charisma")]


def test_rank_zero_is_free_and_costs_round_down():
    # Line 87: a skill learned in play starts at rank 0; line 23 rounds points down to a rank.
    assert rank_cost(0) == 0
    assert rank_for_cost(9) == 3 and rank_for_cost(10) == 4


def test_a_build_counts_points_and_drawbacks_fund_qualities_but_not_level():
    # P9, line 111: "A drawback may also have a rank that gives you extra points. These do not count
    # towards level."
    qualities = [*SIX, Quality("sword", Kind.SKILL, 3), Quality("fame", Kind.DRAWBACK, 2)]
    made = build(6 * 15 + 10, qualities, Referee())
    assert (made.spent, made.drawbacks, made.unspent, made.level) == (90 + 6, 3, 100 + 3 - 96, 1)
    # Spending the drawbacks' points does not lower the level; the level is the base points'.
    assert build(100, [*qualities, Quality("first aid", Kind.SKILL, 2)], Referee()).level == 1


def test_a_build_past_its_points_is_refused():
    # Line 7: ranks are assigned "using starting points".
    with pytest.raises(RuleViolation, match="cost 101 points; only 100"):
        build(100, [*SIX, Quality("sword", Kind.SKILL, 4), Quality("knife", Kind.SKILL, 1)], Referee())


def test_ranks_run_to_12_and_skills_to_6():
    # P2, line 7 "from 1 to 12"; P12, line 89 "This caps skill ranks at 6 (+d12)."
    with pytest.raises(RuleViolation, match="ranks run 0 to 12"):
        build(500, [Quality("strength", Kind.ATTRIBUTE, 13)], Referee())
    with pytest.raises(RuleViolation, match="cannot pass rank 6"):
        build(500, [Quality("sword", Kind.SKILL, 7)], Referee())
    build(500, [Quality("strength", Kind.ATTRIBUTE, 12)], Referee())


def test_level_needs_fifteen_per_attribute_first_and_extra_attributes_add_fifteen():
    # P4, line 27; P10, line 711: "For each additional attribute, give each player an additional 15
    # points to start."
    assert level_for(99) == 0 and level_for(100) == 1
    assert level_for(100, attributes=7) == 0 and level_for(115, attributes=7) == 1
    assert minimum_points(3) == 90 + 60 and minimum_points(3, attributes=7) == 105 + 60


def test_fortune_and_flashbacks_follow_the_level():
    # P7, line 48 "your level in fortune each session"; P8, line 50 "one flashback with each level".
    assert [fortune_for(level) for level in (0, 3, 12)] == [0, 3, 12]
    assert [flashbacks_for(level) for level in (0, 3, 12)] == [0, 3, 12]


def test_a_newcomer_starts_at_the_lowest_pcs_minimum():
    # P51, line 347: "they start at the minimum points for the lowest level PC in the group."
    assert newcomer_points([5, 3, 7]) == minimum_points(3) == 150


def test_raising_costs_the_new_rank_and_paying_down_the_current():
    # P53, line 369; P56, line 533: "This costs the current rank in points. You can't usually go
    # below rank 0".
    assert [raise_cost(r, r + 1, Referee()) for r in range(0, 6)] == [1, 2, 3, 4, 5, 6]
    assert raise_cost(11, 12, Referee(), kind=Kind.ATTRIBUTE) == 12
    assert pay_down_cost(3, Referee()) == 3
    with pytest.raises(RuleViolation, match="rank 0 cannot be paid down"):
        pay_down_cost(0, Referee())


def test_raising_0_to_3_one_rank_at_a_time_costs_the_triangular_number():
    # Lines 369-371: the raises 1 + 2 + 3 add up to T(3), the cost a build pays outright (line 11).
    assert sum(raise_cost(r, r + 1, Referee()) for r in range(3)) == rank_cost(3)


def test_drawback_points_are_the_triangular_cost_of_their_rank():
    assert drawback_points([Quality("phobia", Kind.DRAWBACK, 4)]) == 10
