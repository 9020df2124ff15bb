"""Attacks: defense, distance, the margin as a budget, damage, protection, severity (P37-P48)."""

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules.combat import (
    ARMOR,
    WEAPONS,
    MarginUse,
    cleared,
    damage,
    defense,
    distance_penalty,
    effect_threshold,
    location_margin,
    severity,
    severity_penalty,
    spend_margin,
)


def test_defense_is_dexterity_plus_factors_plus_skill_when_actively_defending():
    # P37, line 307.
    assert defense(6, 1) == 7 and defense(6, 1, active_skill=3) == 10
    with pytest.raises(RuleViolation, match="both evade and actively defend"):
        defense(6, active_skill=2, evading=True, referee=Referee())


def test_a_marksman_aiming_has_a_longer_increment():
    # P39, line 462: "This increases the increment by one as long as you take one step to aim."
    assert distance_penalty(6, 2) == 3 and distance_penalty(6, 2, aiming_marksman=True) == 2


def test_the_location_costs_its_number_and_the_rest_goes_to_damage_or_knock_back():
    # P40, line 279 "You can split your margin up between uses"; reading 5: the location is spent.
    sword = WEAPONS["long sword"]
    use = spend_margin(7, MarginUse("head", damage=1), sword, strength=6, referee=Referee())
    assert use.spent == 7
    with pytest.raises(RuleViolation, match="the margin is 6; 7 cannot"):
        spend_margin(6, MarginUse("head", damage=1), sword, strength=6, referee=Referee())
    # An existing injury there needs one more (line 653).
    assert location_margin("arm", existing_injury=True) == 4


def test_extra_damage_is_melee_only_and_at_most_strength():
    # P41, line 283: "For melee attacks, the limit for extra damage is your strength rank."
    with pytest.raises(RuleViolation, match="at most the strength rank, 4"):
        spend_margin(9, MarginUse(damage=5), WEAPONS["knife"], strength=4, referee=Referee())
    # Reading 10: only melee weapons carry "+m" (lines 625-637).
    with pytest.raises(RuleViolation, match="cannot raise a pistol's damage"):
        spend_margin(9, MarginUse(damage=1), WEAPONS["pistol"], strength=4, referee=Referee())
    spend_margin(9, MarginUse("arm", knock_back=2), WEAPONS["pistol"], strength=4, referee=Referee())
    with pytest.raises(RuleViolation, match="a miss has no margin"):
        spend_margin(-2, MarginUse(knock_back=1), WEAPONS["punch"], strength=4, referee=Referee())


def test_damage_is_fixed_and_protection_comes_off():
    # P41-P44, lines 311-319, 625-637, 655-670.
    assert damage(WEAPONS["long sword"], strength=6, extra=2) == 12
    assert damage(WEAPONS["rifle"], strength=6, extra=2) == 12
    assert cleared(12, ARMOR["chain mail"]) == 8
    assert cleared(14, ARMOR["scale mail"], armor_doubled=WEAPONS["shotgun"].armor_doubled) == 4
    assert cleared(3, ARMOR["plate mail"]) == 0


def test_severity_on_resistance():
    # P46, line 325: "If you succeed, the injury is severity of one. If you miss the roll, increase
    # the severity by the difference." Reading 3: 1 + the difference.
    assert severity(9, 8) == 1 and severity(8, 8) == 1
    assert severity(5, 8) == 4


def test_total_severity_penalty_per_full_health():
    # P47, line 327.
    assert [severity_penalty(s, 5) for s in (0, 4, 5, 9, 10, 16)] == [0, 0, 1, 1, 2, 3]


def test_location_effects_against_health():
    # P48, lines 643-653; reading 11: "½ health blinds" rounds down.
    assert effect_threshold("head", 7) == 7
    assert effect_threshold("eye", 7) == 3
    assert effect_threshold("arm", 7) is None
