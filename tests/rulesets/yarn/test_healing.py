"""Yarn 0.1, "Healing" (Long-Term Healing table) and the healing side of "Serious Wounds"."""

from fractions import Fraction
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.damage import SeriousWound, SeriousWoundKind
from yarnlog.rulesets.yarn.rules.healing import (
    LONG_TERM_HEALING,
    Activity,
    Condition,
    HealingDay,
    HealingRate,
    heal_one_day,
    healing_condition,
)
from yarnlog.rulesets.yarn.rules.hit_points import HitPointState, take_damage

examples = settings(derandomize=True, database=None, max_examples=60)
FRACTURE = SeriousWound("compound fracture", SeriousWoundKind.MIS_HEALS)
INFECTION = SeriousWound("severe infection", SeriousWoundKind.LETHAL, daily_loss=3)


def wounded(maximum: int, points: int) -> HitPointState:
    return take_damage(HitPointState.unwounded(maximum), points)


def days(state: HitPointState, *each: HealingDay) -> HitPointState:
    return reduce(lambda s, day: heal_one_day(Referee(), s, day), each, state)


def test_long_term_healing_table():
    # Activity / Mobile / Bed-Ridden / Critical: Active 0* — —; Rest 1, 1 per 2 days*, 0*;
    # Medical Care 2, 1, 1 per 2 days.  "*May lose hit points, at the GM's option."
    half = Fraction(1, 2)
    assert LONG_TERM_HEALING == {
        Activity.ACTIVE: {Condition.MOBILE: HealingRate(0, True), Condition.BED_RIDDEN: None, Condition.CRITICAL: None},
        Activity.REST: {
            Condition.MOBILE: HealingRate(1),
            Condition.BED_RIDDEN: HealingRate(half, True),
            Condition.CRITICAL: HealingRate(0, True),
        },
        Activity.MEDICAL_CARE: {
            Condition.MOBILE: HealingRate(2),
            Condition.BED_RIDDEN: HealingRate(1),
            Condition.CRITICAL: HealingRate(half),
        },
    }


def test_conditions():
    # "Mobile means you have 1+ hit points (and can move around). Bed-Ridden means you have 0 or fewer hit
    # points. Critical means you are severely wounded (GM's option)."
    assert healing_condition(wounded(14, 13)) is Condition.MOBILE
    assert healing_condition(wounded(14, 14)) is Condition.BED_RIDDEN
    assert healing_condition(wounded(14, 3), gm_rules_critical=True) is Condition.CRITICAL


def test_resting_mobile_regains_one_a_day_and_medical_care_two():
    # "Hit points are regained each day, with the points regained based on the activity undertaken that day."
    assert days(wounded(22, 10), HealingDay(Activity.REST)).current == 13
    assert days(wounded(22, 10), HealingDay(Activity.MEDICAL_CARE)).current == 14


def test_bed_ridden_rest_is_one_point_per_two_days():
    # Rest, Bed-Ridden: "1 per 2 days*"
    state = wounded(22, 25)
    after_one = days(state, HealingDay(Activity.REST))
    assert after_one.current == -3
    assert days(after_one, HealingDay(Activity.REST)).current == -2


def test_medical_care_gets_a_bed_ridden_character_up_and_then_faster():
    # Medical Care: Bed-Ridden 1, Mobile 2.
    state = days(wounded(22, 22), *[HealingDay(Activity.MEDICAL_CARE)] * 3)
    assert state.current == 0 + 1 + 2 + 2


def test_active_mobile_character_heals_nothing():
    # Active, Mobile: "0*"
    assert days(wounded(22, 5), HealingDay(Activity.ACTIVE)).current == 17


def test_bed_ridden_character_has_no_active_day():
    # Active, Bed-Ridden: "—"
    with pytest.raises(RuleViolation):
        heal_one_day(Referee(), wounded(22, 22), HealingDay(Activity.ACTIVE))
    overruled = Referee(Override("gm", "adrenaline"))
    assert heal_one_day(overruled, wounded(22, 22), HealingDay(Activity.ACTIVE)).current == 0


def test_gm_may_take_hit_points_only_on_starred_cells():
    # "*May lose hit points, at the GM's option."
    assert days(wounded(22, 5), HealingDay(Activity.ACTIVE, gm_loss=2)).current == 15
    with pytest.raises(RuleViolation):
        heal_one_day(Referee(), wounded(22, 5), HealingDay(Activity.MEDICAL_CARE, gm_loss=2))


def test_healing_stops_at_normal_hit_points():
    state = days(wounded(22, 1), HealingDay(Activity.MEDICAL_CARE))
    assert (state.current, state.healing_progress) == (22, 0)


def test_mis_healing_wound_heals_at_half_rate_without_medical_attention():
    # "A serious wound that mis-heals without medical attention ... heals at half the normal rate"
    rest = HealingDay(Activity.REST, serious_wounds=(FRACTURE,))
    assert days(wounded(22, 10), rest).current == 12
    assert days(wounded(22, 10), rest, rest).current == 13
    care = HealingDay(Activity.MEDICAL_CARE, serious_wounds=(FRACTURE,))
    assert days(wounded(22, 10), care).current == 14


def test_lethal_wound_loses_hit_points_every_day_until_medical_attention():
    # "causes the character to lose hit points every day until proper medical attention is applied. Hit points
    # lost can be anywhere from 1 to 15 per day, depending on the wound."
    rest = HealingDay(Activity.REST, serious_wounds=(INFECTION,))
    assert days(wounded(22, 10), rest, rest).current == 6
    care = HealingDay(Activity.MEDICAL_CARE, serious_wounds=(INFECTION,))
    assert days(wounded(22, 10), care).current == 14


healing_days = st.builds(HealingDay, st.sampled_from([Activity.REST, Activity.MEDICAL_CARE]), st.booleans())


@examples
@given(st.integers(1, 40), st.integers(0, 80), st.lists(healing_days, max_size=10))
def test_healing_never_passes_the_maximum_nor_loses_without_a_cause(maximum, damage, each_day):
    start = wounded(maximum, damage)
    state = days(start, *each_day)
    assert start.current <= state.current <= maximum
    assert 0 <= state.healing_progress < 1
