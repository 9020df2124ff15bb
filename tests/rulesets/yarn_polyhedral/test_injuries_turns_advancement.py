"""Healing, effort, steps and turns, tension, advancement (P19, P30-P36, P49-P57, P65)."""

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules.advancement import (
    Flashback,
    check_award,
    check_flashback,
    check_spend,
    training_due,
)
from yarnlog.rulesets.yarn_polyhedral.rules.injuries import (
    Injury,
    check_heal,
    location_effect,
    rest,
    spend_effort,
    total_severity,
)
from yarnlog.rulesets.yarn_polyhedral.rules.options import rolled_character
from yarnlog.rulesets.yarn_polyhedral.rules.turns import (
    Tension,
    check_next_turn,
    check_tension,
    initiative_order,
    movement_shifts,
    off_attribute_steps,
    step_cost,
    steps_for,
)


def test_healing_one_severity_never_the_same_injury_twice_running():
    # P50, line 351: "the same injury can't heal twice in a row."
    wounds = {"1": Injury(3, "arm"), "2": Injury(2)}
    assert total_severity(wounds) == 5
    check_heal(wounds, "1", None, Referee())
    check_heal(wounds, "2", "1", Referee())
    with pytest.raises(RuleViolation, match="injury 1 healed last"):
        check_heal(wounds, "1", "1", Referee())


def test_a_head_injury_of_the_health_rank_knocks_out():
    # Line 343: "a called shot to the head, with severity equal to your character's health, means
    # unconsciousness".
    assert location_effect(Injury(7, "head"), 7) and not location_effect(Injury(6, "head"), 7)
    assert not location_effect(Injury(20), 7)


def test_effort_is_spent_one_a_die_and_restored_by_rest():
    # P19, lines 62, 183-185; reading 7.
    assert spend_effort(5, 1, Referee()) == 4
    with pytest.raises(RuleViolation, match="2 effort spent; 1 is left"):
        spend_effort(1, 2, Referee())
    assert rest(1, 6, full=True) == 6
    assert rest(1, 6, full=False, regained=2) == 3 and rest(5, 6, full=False, regained=4) == 6


def test_steps_shifts_and_zones():
    # P30, lines 249-251; P31, line 259; P32, lines 267-269; P35, lines 674-685.
    assert steps_for(7) == 7 and off_attribute_steps(1) == 2
    assert step_cost("shift", "dexterity") == 1 and step_cost("shift", "will") == 2
    assert step_cost("active defense", "intelligence") == 2 and step_cost("evade", "will") == 1
    assert movement_shifts(1) == 2 and movement_shifts(0, close=True) == 1


def test_turn_order_and_initiative():
    # Line 217: each player picks the next; P34, line 740: a cooperating group acts at its lowest.
    check_next_turn(["Ana"], ["Ana", "Ben"], "Ben", Referee())
    with pytest.raises(RuleViolation, match="Ana has had a turn"):
        check_next_turn(["Ana"], ["Ana", "Ben"], "Ana", Referee())
    order = initiative_order({"Ana": 9, "Ben": 12, "orc": 10}, groups=[["Ben", "Ana"]])
    assert order == ["orc", "Ana", "Ben"]


def test_tension_moves_one_tier_at_a_time():
    # P65, line 776.
    check_tension(Tension.SAFE, Tension.RISK, Referee())
    with pytest.raises(RuleViolation, match="safe cannot become danger"):
        check_tension(Tension.SAFE, Tension.DANGER, Referee())


def test_awards_spending_training_and_flashback_supply():
    # P52, line 367; P54, lines 373-377; P57, lines 357-361; reading 17.
    check_award(1, Referee())
    with pytest.raises(RuleViolation, match="at least one point"):
        check_award(0, Referee())
    with pytest.raises(RuleViolation, match="5 points are needed; 4 are saved"):
        check_spend(5, 4, Referee())
    assert training_due(3, 3) and not training_due(3, 2)
    with pytest.raises(RuleViolation, match="no flashback is left"):
        check_flashback(Flashback(1), saved=5, flashbacks_left=0, referee=Referee())
    # "a new rank 1 quality could be free" (line 361).
    assert Flashback(1, discount=1).cost == 0


def test_rolled_characters():
    # P59, line 726: none at 7+ re-rolls; only one at 7+ raises the next highest to 7.
    assert rolled_character((9, 9, 9, 9, 9, 9)).reroll
    one_high = rolled_character((21, 12, 15, 9, 9, 9))
    assert one_high.ranks == (8, 5, 7, 4, 4, 4) and one_high.raised == 2
    assert rolled_character((21, 21, 9, 9, 9, 9)).raised is None
