"""Yarn 0.1, "Damage Effects" (Messed Up, Down for the Count, Character Death), "Recovery" and
"Hit Point Recovery Conventions"."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY
from yarnlog.rulesets.yarn.rules.hit_points import (
    DeathOption,
    DeathOutcome,
    HitPointState,
    action_penalty_dice,
    at_deaths_door,
    death_option_cost,
    down_for_the_count,
    face_death,
    messed_up,
    recover,
    regain,
    take_damage,
)

examples = settings(derandomize=True, database=None, max_examples=60)


def test_gunfire_example_drops_to_minus_seven():
    # "The character takes 29 points of damage, dropping him to -7."
    state = take_damage(HitPointState.unwounded(22), 29)
    assert state.current == -7
    assert down_for_the_count(state)
    assert not at_deaths_door(state)


def test_twenty_nine_points_can_kill_the_average_person():
    # "Since 29 points can kill the average person outright" — lacking a trait, "your hit points are 14".
    assert at_deaths_door(take_damage(HitPointState.unwounded(14), 29))


def test_hollow_point_is_just_enough_to_kill():
    # "he would have suffered only 44 points total, just enough to kill him."
    assert at_deaths_door(take_damage(HitPointState.unwounded(22), 44))
    assert not at_deaths_door(take_damage(HitPointState.unwounded(22), 43))


def test_death_at_minus_the_hit_points():
    # "If you have 21 hit points and drop to -21 through wounds, you are either dead or checking out."
    assert at_deaths_door(take_damage(HitPointState.unwounded(21), 42))
    assert not at_deaths_door(take_damage(HitPointState.unwounded(21), 41))


def test_messed_up_at_half_or_less():
    # "If the target is now at half or less their normal hit points, they suffer a penalty die on all actions
    # until they recover to more than half their normal hit points."
    assert messed_up(take_damage(HitPointState.unwounded(22), 11))
    assert not messed_up(take_damage(HitPointState.unwounded(22), 10))
    assert action_penalty_dice(take_damage(HitPointState.unwounded(21), 11)) == 1  # 10 <= 10.5
    assert action_penalty_dice(take_damage(HitPointState.unwounded(21), 10)) == 0  # 11 > 10.5


def test_down_for_the_count_at_zero_or_below():
    # "If the target is at 0 hit points or below, they are out of the fight."
    assert down_for_the_count(take_damage(HitPointState.unwounded(14), 14))
    assert not down_for_the_count(take_damage(HitPointState.unwounded(14), 13))


def test_recovery_sequence_of_the_conventions():
    # "a character takes 10 points of damage and drops from 22 to 12 hit points. He then recovers half the lost
    # hit points and now has 17 hit points. Again he takes 10 points of damage, dropping to 7 hit points. He
    # recovers to halfway between 7 and 17, not to half-way between 7 and his normal level of 22. He now has
    # 12 hit points"
    levels = []
    state = HitPointState.unwounded(22)
    for step in (lambda s: take_damage(s, 10), recover, lambda s: take_damage(s, 10), recover):
        state = step(state)
        levels.append(state.current)
    assert levels == [12, 17, 7, 12]


def test_recovery_rounds_up():
    # "Round hit points up, if half-way recovery results in a fraction. (This means that being wounded for 7
    # points twice will leave you 6 points down from normal, whereas being wounded for 14 points once will
    # leave you 7 points below normal."
    twice = recover(take_damage(recover(take_damage(HitPointState.unwounded(22), 7)), 7))
    once = recover(take_damage(HitPointState.unwounded(22), 14))
    assert (22 - twice.current, 22 - once.current) == (6, 7)


def test_gm_may_change_the_recovered_fraction():
    # "it might be relatively easy to recover from being beaten with fists (two-thirds of the loss recovered),
    # and relatively difficult to recover from serious gunshot wounds (one-third recovered)."
    wounded = take_damage(HitPointState.unwounded(22), 12)
    assert recover(wounded, fraction=Fraction(2, 3)).current == 18
    assert recover(wounded, fraction=Fraction(1, 3)).current == 14
    with pytest.raises(InvalidCommand):
        recover(wounded, fraction=Fraction(3, 2))


def test_taser_damage_all_comes_back_at_recovery():
    # "All damage from a taser is temporary. Record it separately; it all comes back when the character recovers."
    state = take_damage(take_damage(HitPointState.unwounded(22), 6), 20, temporary=True)
    assert state.current == -4
    assert down_for_the_count(state)
    assert recover(state).current == 19  # the taser's 20 back, then halfway from 16 to 22


def test_taser_damage_does_not_kill():
    # "they do no permanent physical damage (unless you have a weak heart...)."
    assert not at_deaths_door(take_damage(HitPointState.unwounded(14), 40, temporary=True))


def test_healing_raises_the_recovery_base_with_it():
    # "He now has 12 hit points and will only get more through medical attention or prolonged rest." Once
    # healed above the last recovered level, a new wound recovers halfway back to the healed level.
    state = recover(take_damage(HitPointState.unwounded(22), 10))  # 17
    state = regain(state, 3)  # 20
    assert recover(take_damage(state, 10)).current == 15


def test_facing_death_needs_a_reason_to_live_and_medical_attention():
    # "In order to survive, you need medical attention and a reason to live." "Tell your reason to live to the
    # GM; if she agrees it is sufficient, you live. Otherwise, you slip off into the great beyond."
    dying = take_damage(HitPointState.unwounded(21), 42)
    kwargs = dict(attempts_recovery=True, gm_accepts_reason_to_live=True, medical_attention=True)
    assert face_death(Referee(), dying, **kwargs) is DeathOutcome.LIVES
    assert face_death(Referee(), dying, **{**kwargs, "gm_accepts_reason_to_live": False}) is DeathOutcome.DIES
    assert face_death(Referee(), dying, **{**kwargs, "medical_attention": False}) is DeathOutcome.DIES
    # "Letting go is often the easier option"
    assert face_death(Referee(), dying, **{**kwargs, "attempts_recovery": False}) is DeathOutcome.DIES
    with pytest.raises(RuleViolation):
        face_death(Referee(), take_damage(HitPointState.unwounded(21), 30), **kwargs)


def test_dying_character_options_cost_a_drama_token():
    # "A player whose character dies may spend a Drama Token to: Call an immediate scene where their character
    # shares a few last words; Have the character vanish ...; Perform one last act of heroic sacrifice"
    assert len(DeathOption) == 3
    (transfer,) = death_option_cost(Referee(), {"Ann": 1}, player="Ann", option=DeathOption.LAST_WORDS)
    assert (transfer.amount, transfer.source, transfer.destination) == (1, "Ann", KITTY)
    with pytest.raises(RuleViolation):
        death_option_cost(Referee(), {}, player="Ann", option=DeathOption.HEROIC_SACRIFICE)


def test_hit_points_never_exceed_the_maximum():
    with pytest.raises(InvalidCommand):
        HitPointState(maximum=14, current=15, last_recovered=14)
    assert regain(take_damage(HitPointState.unwounded(14), 2), 5).current == 14


wounds = st.lists(st.tuples(st.integers(0, 30), st.booleans()), max_size=6)


@examples
@given(st.integers(1, 40), wounds, st.fractions(0, 1))
def test_recovery_stays_between_the_wound_and_the_last_recovered_level(maximum, hits, fraction):
    state = HitPointState.unwounded(maximum)
    for points, temporary in hits:
        state = take_damage(state, points, temporary=temporary)
    recovered = recover(state, fraction=fraction)
    assert state.lasting_level <= recovered.current <= state.last_recovered <= maximum
    assert recovered.temporary == 0
