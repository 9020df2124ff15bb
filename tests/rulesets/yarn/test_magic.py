"""Spell-casting in Yarn 0.1: "Appendix: Magic"."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.fringe_powers import PsychicPool, buy_shots
from yarnlog.rulesets.yarn.rules.magic import (
    CAST,
    SAMPLE_SPELLS,
    STUDY_WEEK,
    cast_spell,
    resists_spell,
    sample_spell,
    study_spell,
)


def week(level, before, faces, pool=None, experience=5, hours=2):
    return study_spell(
        Referee(),
        level=level,
        dice_rolled_before=before,
        experience_pool=experience,
        hours_per_day=hours,
        faces=faces,
        psychic_pool=pool,
    )


def test_the_unswerving_arrow_example():
    # "suppose a character tries to learn the 12th level spell, Unswerving Arrow. [...] at the end of a week he
    # expends the experience dice and rolls a single die. He gets a 5, not good enough. [...] after another week
    # and another 5 experience dice, he rolls 2 dice, this time getting a 4 — failure. After two more weeks and
    # 10 more dice, he rolls (on four dice) a 13, good enough. The GM now informs him that he knows the spell and
    # that he has one shot in his Psychic Pool. He immediately takes two more dice from his experience pool and
    # gives himself a second shot in the psychic pool. He has now spent 22 dice from his experience pool, and he
    # can cast his spell twice per day."
    experience, spent = 30, 0
    weeks = [(5,), (1, 3), (2, 2, 1), (4, 3, 3, 3)]  # week 3 is not told; any failing roll will do
    results = []
    for before, faces in enumerate(weeks):
        study = week(12, before, faces, experience=experience - spent, hours=4)
        spent += study.dice_spent
        results.append((sum(faces), study.learned, study.dice_rolled))
    assert results == [(5, False, 1), (4, False, 2), (5, False, 3), (13, True, 4)]
    assert study.psychic_pool == PsychicPool(1, 1)
    pool, cost = buy_shots(Referee(), study.psychic_pool, experience_pool=experience - spent, shots=1)
    spent += cost
    assert spent == 22
    assert pool == PsychicPool(2, 2)  # "he can cast his spell twice per day"


def test_a_week_is_rolled_on_one_more_die_than_the_last():
    # "He repeats this process, rerolling with one more die for each week and 5 experience dice expended"
    with pytest.raises(InvalidCommand):
        week(12, 2, (6, 6))


def test_a_week_needs_two_hours_a_day_and_5_experience_dice():
    # "a character must spend a week studying at least 2 hours per day and sacrifice 5 experience dice."
    for bad in (dict(hours=1.5), dict(experience=4)):
        with pytest.raises(RuleViolation) as caught:
            week(3, 0, (3,), **bad)
        assert caught.value.rule == STUDY_WEEK


def test_learned_when_the_roll_at_least_equals_the_level():
    # "If the number at least equals the spell's level, he has learned the spell."
    assert week(3, 0, (3,)).learned
    assert not week(3, 0, (2,)).learned


def test_an_existing_pool_gains_nothing():
    # "If the character does not have a psychic pool when he learns a spell, he gains 1 shot in that pool."
    assert week(3, 0, (4,), pool=PsychicPool(4, 1)).psychic_pool == PsychicPool(4, 1)


def test_a_botch_is_reported():
    # "If the character botches on any roll to learn a spell, bad things can happen."
    assert week(12, 2, (1, 1, 1)).botched
    assert not week(12, 2, (1, 2, 1)).botched


@given(level=st.integers(1, 24), faces=st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_learning_is_exactly_total_at_least_level(level, faces):
    assert week(level, len(faces) - 1, faces).learned == (sum(faces) >= level)


def test_casting_expends_one_shot():
    # "To cast a spell, a character expends one shot from the psychic pool."
    assert cast_spell(Referee(), PsychicPool(2, 2)) == PsychicPool(2, 1)
    with pytest.raises(RuleViolation) as caught:
        cast_spell(Referee(), PsychicPool(2, 0))
    assert caught.value.rule == CAST


def test_resistance_against_the_level():
    # "the level of the spell always counts as its “strength.” A resistance roll at least equal to the spell's
    # roll generally resists the spell's effects."
    grip = sample_spell("Grip of Stone")
    assert resists_spell(grip.level, 12)
    assert not resists_spell(grip.level, 11)


def test_sample_spell_levels():
    # "Lurking Chains, Level 3 / Blessed Black, Level 6 / Serpent's Tongue, Level 9 / Grip of Stone, Level 12 /
    # Ring of Gyges, Level 15 / Seven Shields of Glory, Level 18"
    assert [(s.name, s.level) for s in SAMPLE_SPELLS] == [
        ("Lurking Chains", 3),
        ("Blessed Black", 6),
        ("Serpent's Tongue", 9),
        ("Grip of Stone", 12),
        ("Ring of Gyges", 15),
        ("Seven Shields of Glory", 18),
    ]
    with pytest.raises(InvalidCommand):
        sample_spell("Unswerving Arrow")  # named in the example, not described among the samples
