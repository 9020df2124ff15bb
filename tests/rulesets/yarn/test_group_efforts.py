"""Group efforts of Yarn 0.1 against the book's words and its worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand
from yarnlog.rulesets.yarn.rules.dice import (
    NO_OPTIONS,
    DifficultyFactor,
    OpponentRoll,
    Outcome,
    RollOptions,
    RollSpec,
    read_roll,
    resolve,
)
from yarnlog.rulesets.yarn.rules.group_efforts import combining_dice, either_or, simple_addition, worst_roller
from yarnlog.rulesets.yarn.rules.odds import outcome_odds

BOTCH = RollOptions(botch=True)
SIXES = RollOptions(unstoppable_six=True)

faces = st.integers(1, 6)


def test_simple_addition_lifting_the_stone():
    """ "The GM decides that a roll of 13 is necessary to move it. (That means an average person
    wouldn't have a chance of moving it alone.) They each get two dice for brute strength, and they
    roll a 4 and a 10, for a total of 14. They move the stone" """
    first = read_roll(RollSpec(2), [1, 3])
    second = read_roll(RollSpec(2), [4, 6])
    assert (first.total, second.total) == (4, 10)
    lifted = simple_addition([first, second], DifficultyFactor(13))
    assert (lifted.total, lifted.outcome, lifted.margin) == (14, Outcome.BEATS, 1)
    assert outcome_odds(RollSpec(2), DifficultyFactor(13)).fails == 1


def test_simple_addition_botches_only_when_every_die_is_a_one():
    """ "add the dice of both characters together" into one roll: "When you roll all 1's for a given
    action, you have botched." """
    snake_eyes = read_roll(RollSpec(2), [1, 1])
    assert simple_addition([snake_eyes, snake_eyes], DifficultyFactor(3), BOTCH).outcome is Outcome.FAILS
    assert simple_addition([snake_eyes, read_roll(RollSpec(1), [1])], DifficultyFactor(2), BOTCH).decided_by is not None
    saved = simple_addition([snake_eyes, read_roll(RollSpec(1), [2])], DifficultyFactor(3), BOTCH)
    assert saved.outcome is Outcome.BEATS and saved.decided_by is None


def test_simple_addition_counts_everyones_sixes():
    rolls = [read_roll(RollSpec(2), [6, 1]), read_roll(RollSpec(2), [6, 2])]
    assert simple_addition(rolls, DifficultyFactor(20), SIXES).sixes == 2


def test_combining_dice_the_ancient_texts():
    """ "He rolls four dice, she rolls two, and they take the best four dice between them" /
    "(Effectively, the dice rolled by lesser characters become bonus dice for the best.)" """
    spec = combining_dice([4, 2])
    assert spec == RollSpec(4, bonus=2)
    assert spec.notation() == "6d6kh4"
    assert read_roll(spec, [2, 5, 1, 6, 3, 4]).kept_faces == (5, 6, 3, 4)


def test_combining_dice_the_gang_of_roughs():
    """ "He rolls three dice for 14, while the gang members roll ten dice and take the best two, a 5
    and a 6. The character manages to beat off the gang members, but (because of the unstoppable
    six), he suffers a nasty kick in the groin" """
    gang = combining_dice([2, 2, 2, 2, 2])
    assert gang.notation() == "10d6kh2"
    gang_roll = read_roll(gang, [3, 5, 1, 2, 4, 6, 2, 1, 3, 4], SIXES)
    assert sorted(gang_roll.kept_faces) == [5, 6] and gang_roll.total == 11
    character = read_roll(RollSpec(3), [4, 5, 5], SIXES)
    assert character.total == 14
    assert resolve(character, OpponentRoll.of(gang_roll, SIXES), SIXES).outcome is Outcome.BEATS
    gangs_side = resolve(gang_roll, OpponentRoll.of(character, SIXES), SIXES)
    assert gangs_side.outcome is Outcome.FAILS and gangs_side.sixes == 1 and gangs_side.limited_success


def test_combining_dice_with_the_gms_bonus_and_penalty_dice():
    """The GM's dice for the joint roll cancel as usual ("they cancel each other")."""
    assert combining_dice([3, 2], penalty=1) == RollSpec(3, bonus=2, penalty=1)
    assert combining_dice([3, 2], penalty=1).notation() == "4d6kh3"
    assert combining_dice([3], bonus=1) == RollSpec(3, bonus=1)


@pytest.mark.parametrize("dice", [[], [2, -1]])
def test_combining_dice_needs_dice(dice):
    with pytest.raises(InvalidCommand):
        combining_dice(dice)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=4), st.data())
def test_combining_never_does_worse_than_the_best_alone(dice, data):
    """ "roll all the dice and take the highest": the best character's own dice are among them. """
    best = max(dice)
    own = data.draw(st.lists(faces, min_size=best, max_size=best))
    others = data.draw(st.lists(faces, min_size=sum(dice) - best, max_size=sum(dice) - best))
    combined = read_roll(combining_dice(dice), own + others)
    assert combined.total >= sum(own)
    assert len(combined.kept_faces) == best


def test_either_or_searching_the_bodies():
    """ "The GM rolls and determines that the second character is searching the relevant body.
    Being perceptive, she rolls three dice plus a penalty die for the darkness of the chamber; she
    gets an 8, good enough. Meanwhile, the first character rolls a 4, and the GM tells him he found
    nothing." (the book does not say how many dice he rolls; two here) """
    first = read_roll(RollSpec(2), [1, 3])
    second = read_roll(RollSpec(3, penalty=1), [2, 6, 3, 3])
    assert (first.total, second.total) == (4, 8)
    assert either_or([first, second], counting=1) is second
    assert either_or([first, second], counting=0) is first


def test_either_or_counts_one_of_the_rolls():
    with pytest.raises(InvalidCommand):
        either_or([read_roll(RollSpec(2), [1, 3])], counting=1)
    with pytest.raises(InvalidCommand):
        either_or([], counting=0)


def test_worst_roller_the_security_team():
    """ "three dice for the first character (who is good at manipulating people) and two dice for the
    second. The first character, with his roll of 9, beats the guards' roll of 7, but the second
    character rolls only a 6, and the guards become suspicious." / "they would have been able to
    use combining dice (best three out of their five dice)" """
    first = read_roll(RollSpec(3), [2, 3, 4])
    second = read_roll(RollSpec(2), [5, 1])
    guards = OpponentRoll(7)
    assert resolve(first, guards).outcome is Outcome.BEATS
    worst = worst_roller([first, second])
    assert worst is second
    assert resolve(worst, guards).outcome is Outcome.FAILS
    assert combining_dice([3, 2]).notation() == "5d6kh3"


def test_a_botch_is_the_worst_roll():
    """A botch has "automatically failed", so it is worse than a lower total that did not botch."""
    botched = read_roll(RollSpec(3), [1, 1, 1])
    lower = read_roll(RollSpec(1), [2])
    assert worst_roller([lower, botched], BOTCH) is botched
    assert worst_roller([lower, botched], NO_OPTIONS) is lower


@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.data())
def test_worst_roller_is_the_lowest_total(dice, data):
    results = [read_roll(RollSpec(n), data.draw(st.lists(faces, min_size=n, max_size=n))) for n in dice]
    assert worst_roller(results).total == min(r.total for r in results)


def test_group_efforts_need_a_roll():
    with pytest.raises(InvalidCommand):
        worst_roller([])
    with pytest.raises(InvalidCommand):
        simple_addition([], DifficultyFactor(7))
