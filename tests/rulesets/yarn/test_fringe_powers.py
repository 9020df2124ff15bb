"""Fringe powers of Yarn 0.1: "Appendix: Fringe Powers" and the psychic pool of "Creating Characters"."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.experience import Training
from yarnlog.rulesets.yarn.rules.fringe_powers import (
    BUY_SHOTS,
    HEALING_DISEASE_DIFFICULTY,
    LEARNING_DICE,
    PUSH,
    RESIST_WITH_SHOT,
    ROLL_PER_POWER,
    SAMPLE_FRINGE_POWERS,
    STUDY,
    USE_SHOT,
    MindScanResult,
    PsychicPool,
    Resistance,
    buy_shots,
    healing_points,
    is_psi_mute,
    learn_fringe_power,
    mind_scan_result,
    ordinary_resistance,
    psychic_resistance,
    pushed_roll,
    recover_shots,
    sample_fringe_power,
    starting_psychic_pool,
    use_fringe_power,
)

A_MONTH = Training(months=1, full_time=True)


def refused(rule, call):
    with pytest.raises(RuleViolation) as caught:
        call(Referee())
    assert caught.value.rule == rule


# -- the starting psychic pool ---------------------------------------------------------------------


def test_three_shots_or_a_rolled_die():
    # "This pool may contain 3 shots (uses per day), or you can roll a die to see how many shots it contains."
    assert starting_psychic_pool(Referee(), powers=1, rolls=None) == PsychicPool(3, 3)
    assert starting_psychic_pool(Referee(), powers=1, rolls=(5,)) == PsychicPool(5, 5)


def test_several_powers_roll_for_each_and_keep_the_highest():
    # "(If you have several fringe powers, you can roll the die once for each and take the highest roll.)"
    assert starting_psychic_pool(Referee(), powers=3, rolls=(2, 6, 1)) == PsychicPool(6, 6)
    refused(ROLL_PER_POWER, lambda r: starting_psychic_pool(r, powers=1, rolls=(2, 6)))
    with pytest.raises(InvalidCommand):
        starting_psychic_pool(Referee(), powers=1, rolls=(7,))


# -- Learning Fringe Powers ------------------------------------------------------------------------


def learn(**kwargs):
    args = dict(experience_pool=10, faces=(3, 6), psychic_pool=None, study=A_MONTH, knowledgeable_teacher=True) | kwargs
    return learn_fringe_power(Referee(), **args)


def test_learned_only_on_a_six():
    # "rolls the dice, and only if at least one of the dice is a 6 does the character acquire the power."
    assert learn(faces=(3, 6)).learned
    failed = learn(faces=(5, 5, 5))
    assert not failed.learned
    assert failed.dice_spent == 3  # the dice are given up either way
    assert failed.psychic_pool is None


def test_first_power_brings_a_pool_of_one_shot():
    # "Upon learning his first fringe power, the character gains a psychic pool with one die in it."
    study = learn(faces=(6,))
    assert study.psychic_pool == PsychicPool(1, 1)
    assert study.score == 1  # a technical or unusual trait developed in play (our reading)


def test_a_new_power_does_not_add_shots():
    # "(If a character already has a pool, developing a new power does not increase the number of shots in the pool.)"
    assert learn(faces=(6,), psychic_pool=PsychicPool(4, 2)).psychic_pool == PsychicPool(4, 2)


def test_learning_needs_a_month_of_full_time_study_and_a_teacher():
    # "It generally takes a month of full-time study to learn a fringe power, and access to a knowledgeable teacher."
    base = dict(experience_pool=10, faces=(6,), psychic_pool=None)
    refused(STUDY, lambda r: learn_fringe_power(r, **base, study=Training(1), knowledgeable_teacher=True))
    refused(STUDY, lambda r: learn_fringe_power(r, **base, study=A_MONTH, knowledgeable_teacher=False))
    # "generally": the GM may let a shorter study through.
    referee = Referee(override=Override(by="gm", reason="prodigy"))
    assert learn_fringe_power(referee, **base, study=Training(Fraction(1, 2), True), knowledgeable_teacher=True).learned


def test_the_dice_come_from_the_experience_pool():
    # "the player decides how many dice from his experience pool to use"
    refused(
        LEARNING_DICE,
        lambda r: learn_fringe_power(
            r, experience_pool=2, faces=(6, 6, 6), psychic_pool=None, study=A_MONTH, knowledgeable_teacher=True
        ),
    )


def test_the_gm_may_alter_the_odds():
    # "(Better or lesser teachers, improper preparation, native inclination, and other factors may, at the
    # GM's discretion, alter these odds.)"
    assert learn(faces=(5,), success_face=5).learned


def test_psi_mute():
    # "roll a die in secret. If the roll is a 1, that character is psi-mute and cannot learn fringe powers."
    assert is_psi_mute(1)
    assert not is_psi_mute(2)
    assert not learn(faces=(6, 6), psi_mute=True).learned


@given(st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_learned_exactly_when_a_six_shows(faces):
    assert learn(faces=faces).learned == (6 in faces)


# -- Trading experience dice for shots -------------------------------------------------------------


def test_two_experience_dice_per_shot():
    # "So a character can give up four experience dice and add two shots to his psychic pool."
    pool, cost = buy_shots(Referee(), PsychicPool(1, 1), experience_pool=4, shots=2)
    assert (pool, cost) == (PsychicPool(3, 3), 4)
    refused(BUY_SHOTS, lambda r: buy_shots(r, PsychicPool(1, 1), experience_pool=3, shots=2))


def test_shots_are_not_converted_back():
    # "He may not convert shots to experience dice."
    refused(BUY_SHOTS, lambda r: buy_shots(r, PsychicPool(3, 3), experience_pool=0, shots=-1))


# -- Using and pushing ----------------------------------------------------------------------------


def test_a_use_costs_one_shot_and_a_push_two():
    # "When a character uses a fringe power, he loses 1 shot from the psychic pool. He may also “push” the
    # power, which means he loses 2 shots from the pool"
    assert use_fringe_power(Referee(), PsychicPool(3, 3)) == PsychicPool(3, 2)
    assert use_fringe_power(Referee(), PsychicPool(3, 3), pushed=True) == PsychicPool(3, 1)
    refused(USE_SHOT, lambda r: use_fringe_power(r, PsychicPool(3, 0)))
    refused(PUSH, lambda r: use_fringe_power(r, PsychicPool(3, 1), pushed=True))


def test_an_overridden_use_leaves_an_empty_pool():
    referee = Referee(override=Override(by="gm", reason="it fits the plot"))
    assert use_fringe_power(referee, PsychicPool(3, 1), pushed=True) == PsychicPool(3, 0)


def test_the_dreamhaunting_push():
    # "if you have two dice in “dreamhaunting,” you can use 2 shots for a single use of that power, roll
    # four dice, and then count the best two as your roll."
    assert pushed_roll(2, (1, 5, 3, 6)) == 11
    with pytest.raises(InvalidCommand):
        pushed_roll(2, (1, 5, 3))


def _power_and_pushed_faces(dice):
    return st.tuples(st.just(dice), st.lists(st.integers(1, 6), min_size=2 * dice, max_size=2 * dice))


@given(st.integers(1, 4).flatmap(_power_and_pushed_faces))
def test_a_push_counts_the_better_half(case):
    dice, faces = case
    total = pushed_roll(dice, faces)
    assert total >= sum(faces) - total  # the better half is never worse than the rest


# -- Resisting -------------------------------------------------------------------------------------


def test_most_people_resist_with_two_dice():
    # "If the power works against a being, that being gets a dice roll to resist. Most people get 2 dice."
    assert ordinary_resistance() == Resistance(2)
    assert ordinary_resistance(3) == Resistance(3)  # "strong will" at the GM's discretion


def test_a_telepath_and_a_pyrokineticist_resist_a_mind_scan():
    # "A 2 die telepath can expend a shot to get 2 more dice than normal when resisting a mind scan. A 2 die
    # pyrokineticist, on the other hand, can expend a shot to resist a mind scan, but he would only get two
    # bonus dice, not two extra dice."
    pool = PsychicPool(3, 3)
    telepath, after = psychic_resistance(
        Referee(), pool, knows_power_used=True, best_power_dice=2, countering_power_dice=2
    )
    assert (telepath, after) == (Resistance(4, 0), PsychicPool(3, 2))
    pyro, after = psychic_resistance(Referee(), pool, knows_power_used=True, best_power_dice=2)
    assert (pyro, after) == (Resistance(2, 2), PsychicPool(3, 2))


def test_resisting_with_a_shot_needs_knowing_the_power_is_used():
    # "if he knows the power is being used against him."
    for pool, knows in ((PsychicPool(3, 3), False), (PsychicPool(3, 0), True)):
        refused(RESIST_WITH_SHOT, lambda r: psychic_resistance(r, pool, knows_power_used=knows, best_power_dice=2))


# -- Recovery --------------------------------------------------------------------------------------


def test_shots_return_in_24_hours():
    # "Psychic shots return 100% in 24 hours. If a character has six shots in his pool, he recovers one die
    # every 4 hours."
    empty_six = PsychicPool(6, 0)
    assert recover_shots(empty_six, 4).shots == 1
    assert recover_shots(empty_six, 3).shots == 0
    assert recover_shots(empty_six, 24).shots == 6
    assert recover_shots(empty_six, 48).shots == 6


def test_the_druid_recovers_at_twice_or_half_the_rate():
    # "A druid [...] may be able to recover shots at twice the normal rate when sky-clad [...] He may,
    # however, recover shots at half the normal rate when not in contact with at least one natural element"
    assert recover_shots(PsychicPool(6, 0), 12, rate=2).shots == 6
    assert recover_shots(PsychicPool(6, 0), 24, rate=Fraction(1, 2)).shots == 3


@given(capacity=st.integers(1, 12), shots=st.integers(0, 12), hours=st.integers(0, 100))
def test_recovery_never_overfills_and_24_hours_fill(capacity, shots, hours):
    pool = PsychicPool(capacity, min(shots, capacity))
    after = recover_shots(pool, hours)
    assert pool.shots <= after.shots <= capacity
    if hours >= 24:
        assert after.shots == capacity


# -- Sample Fringe Powers --------------------------------------------------------------------------


def test_all_twelve_sample_powers_are_listed():
    assert [p.name for p in SAMPLE_FRINGE_POWERS] == [
        "Aura Sight", "Healing", "Hunches", "Lightning Strike", "Mind Scan", "Pre-Reaction",
        "Roaming Eyes", "Sending", "Skin of Iron", "Telekinesis", "Telekinetic Punch", "Telepathy",
    ]  # fmt: skip
    with pytest.raises(InvalidCommand):
        sample_fringe_power("Pyrokinesis")


def test_the_mind_scan_example_across_a_bar():
    # "The target is 7 meters away. A roll of 3 or lower means that contact is not even made. A roll of 4 or
    # higher means contact is made" ("If the target is in sight, the range for the power becomes 2 meters
    # times the roll.")
    in_sight = sample_fringe_power("mind scan").per_roll[1]
    assert [in_sight.of(roll) >= 7 for roll in (3, 4)] == [False, True]


def test_mind_scan_against_the_targets_roll():
    # "If the character beats the target's roll, he learns what that person is thinking. If the character
    # rolls double the target's roll, he finds clear information"
    assert mind_scan_result(7, 7) is MindScanResult.NOTHING
    assert mind_scan_result(8, 7) is MindScanResult.THOUGHTS
    assert mind_scan_result(14, 7) is MindScanResult.CLEAR


def test_telekinesis_lifts_a_tenth_of_what_it_pushes():
    # "up to 100g times his roll (or one-tenth the weight he can push)."
    push, _, _, lift = sample_fringe_power("Telekinesis").per_roll
    assert (push.of(9), push.unit, lift.of(9), lift.unit) == (9, "kg", 900, "g")


def test_healing():
    # "the roll on the trait equals the number of points that the character recovers. If the wounded character
    # has not yet recovered half his lost hit points as per the recovery rules, the healer heals twice the points"
    assert healing_points(5, half_recovered=True) == 5
    assert healing_points(5, half_recovered=False) == 10
    # "Common cold, cold sores, acne: 5 / Addiction to nicotine or cocaine, pneumonia: 10 / Leprosy, [...]: 15"
    assert sorted(HEALING_DISEASE_DIFFICULTY.values()) == [5, 10, 15]
