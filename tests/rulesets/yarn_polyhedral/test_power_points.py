"""Power points (P58, line 569): "Your character has regular points for the usual qualities
(attributes, skills, advantages), and a separate set of power points. If this is the case, the game
may allow for exchange rate of one power point for two regular points when assigning ranks to your
other qualities"."""

from __future__ import annotations

import json

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules.options import power_budget
from yarnlog.rulesets.yarn_polyhedral.rules.points import Kind, Quality

ATTRS = [Quality(n, Kind.ATTRIBUTE, 5) for n in ("strength", "dexterity", "health", "intelligence", "will",
                                                   "charisma")]  # 15 points each (P1): 90


def test_powers_are_paid_from_the_power_points_alone():
    # Flight at rank 4 costs 1 + 2 + 3 + 4 = 10 (P1): ten power points, no regular point.
    made = power_budget(12, 90, [*ATTRS, Quality("flight", Kind.POWER, 4)], Referee())
    assert (made.powers, made.exchanged, made.regular_spent, made.power_points_left) == (10, 0, 90, 2)


def test_other_qualities_short_of_regular_points_take_power_points_at_one_for_two():
    # The attributes cost 90 and a skill at rank 2 costs 3: 93 against 90 regular points. The 3
    # short take two power points (4 regular points), so one regular point is left unspent.
    made = power_budget(5, 90, [*ATTRS, Quality("sword", Kind.SKILL, 2)], Referee())
    assert (made.exchanged, made.regular_spent, made.power_points_left) == (2, 89, 3)


def test_powers_past_the_power_points_are_refused_with_the_rule():
    with pytest.raises(RuleViolation, match=r"11 power points needed \(10 on powers\), 10 held") as refused:
        power_budget(10, 90, [*ATTRS, Quality("sword", Kind.SKILL, 1), Quality("flight", Kind.POWER, 4)],
                     Referee())
    assert refused.value.rule.chapter == "Power points" and "(line 569)" in refused.value.rule.text
