"""The WaRP dice of Yarn 0.1 against the book's words and examples."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules import dice
from yarnlog.rulesets.yarn.rules.dice import (
    HAND_OF_FATE_DICE,
    NO_OPTIONS,
    NO_TRAIT_DICE,
    Difficulty,
    DifficultyFactor,
    InertForceRoll,
    OpponentRoll,
    Outcome,
    RollOptions,
    RollResult,
    RollSpec,
    TaskRuling,
    compare,
    hand_of_fate,
    is_botch,
    multiple_actions,
    must_blow_top_off,
    read_roll,
    require_roll_allowed,
    resolve,
    roll,
    tangential_trait,
    unstoppable_sixes,
    validate_faces,
)
from yarnlog.rulesets.yarn.rules.personal_consequences import (
    Breaks,
    Consequence,
    breaks,
    consequence_rolls,
    has_consequence,
)

BOTCH = RollOptions(botch=True)
TOP_OFF = RollOptions(blowing_the_top_off=True)
SIXES = RollOptions(unstoppable_six=True)


class ScriptedDice:
    """A dice source that shows the faces it is given, in order."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        assert (low, high) == (1, 6)
        return self.faces.pop(0)


specs = st.builds(
    RollSpec,
    dice=st.integers(0, 5),
    bonus=st.integers(0, 3),
    penalty=st.integers(0, 3),
    experience=st.integers(0, 1),
)


def faces_for(spec: RollSpec) -> st.SearchStrategy[tuple[int, ...]]:
    return st.tuples(*[st.integers(1, 6)] * spec.rolled)


# --- How many dice -------------------------------------------------------------------------


def test_a_trait_rolls_its_score():
    """ "When you use a trait, you roll a number of dice equal to its score (usually three dice, or
    four dice for your superior trait)." """
    assert RollSpec(3).rolled == 3 and RollSpec(3).notation() == "3d6"
    assert RollSpec(4).notation() == "4d6"


def test_no_trait_rolls_two_dice_and_the_nerd_a_penalty_die():
    """ "If the action has nothing to do with any of your traits, you roll two dice." / "A normal
    person would only get to roll two dice, and a nerd would roll two dice but suffer a penalty die" """
    assert NO_TRAIT_DICE == 2
    nerd = RollSpec(NO_TRAIT_DICE, penalty=1)
    assert nerd.rolled == 3 and nerd.notation() == "3d6kl2"


def test_bonus_die_rolls_one_more_and_drops_the_lowest():
    """ "he would get a bonus die on his roll (roll four dice and take the best three)" """
    spec = RollSpec(3, bonus=1)
    assert spec.notation() == "4d6kh3"
    result = read_roll(spec, [2, 5, 3, 6])
    assert result.kept_faces == (5, 3, 6) and result.dropped_faces == (2,)
    assert result.total == 14


def test_penalty_die_rolls_one_more_and_drops_the_highest():
    """ "he would have to roll a penalty die (four dice, take the worst three)" """
    spec = RollSpec(3, penalty=1)
    assert spec.notation() == "4d6kl3"
    result = read_roll(spec, [2, 5, 3, 6])
    assert result.kept_faces == (2, 5, 3) and result.dropped_faces == (6,)
    assert result.total == 10


def test_bonus_and_penalty_cancel():
    """ "If he had done his research and had ketchup on his tie, he would get neither bonus nor
    penalty, as they balance each other out." """
    spec = RollSpec(3, bonus=1, penalty=1)
    assert spec.rolled == 3 and spec.notation() == "3d6"
    assert read_roll(spec, [1, 2, 6]).total == 9


def test_experience_die_is_a_bonus_die_and_cancels_a_penalty_die():
    """ "The dice from your experience pool act as a bonus dice." / "You can use an experience die
    to cancel a penalty die" """
    assert RollSpec(3, experience=1).notation() == "4d6kh3"
    assert RollSpec(3, penalty=1, experience=1).notation() == "3d6"


def test_several_bonus_dice_keep_the_normal_number():
    """ "Someone with 'fast, 4 dice,' for example, would receive 4 bonus dice on the defense roll."
    (Ranged Attacks), on two dice for short range. """
    spec = RollSpec(2, bonus=4)
    assert spec.notation() == "6d6kh2"
    assert read_roll(spec, [1, 6, 2, 5, 3, 4]).kept_faces == (6, 5)


def test_technical_trait_the_character_lacks_rolls_no_dice():
    """ "the average person has no skill (0 dice) in that trait": no dice add up to 0, which fails
    every difficulty factor. """
    result = read_roll(RollSpec(0), [])
    assert result.total == 0
    assert resolve(result, DifficultyFactor.of(Difficulty.EASY)).outcome is Outcome.FAILS


def test_equal_faces_drop_the_first_rolled():
    """The book does not say which of two equal dice is dropped; it makes no difference to the total."""
    result = read_roll(RollSpec(2, bonus=1), [3, 3, 5])
    assert result.kept == (1, 2) and result.kept_faces == (3, 5)


@pytest.mark.parametrize("field", ["dice", "bonus", "penalty", "experience"])
def test_negative_or_fractional_dice_are_invalid(field):
    with pytest.raises(InvalidCommand):
        RollSpec(**{"dice": 2, field: -1})
    with pytest.raises(InvalidCommand):
        RollSpec(**{"dice": 2, field: 1.5})


@given(specs.flatmap(lambda s: st.tuples(st.just(s), faces_for(s))))
def test_the_kept_dice_are_the_highest_or_lowest(spec_faces):
    """ "Bonus Die: [...] Drop out the lowest die before tallying the total for the roll." / "Penalty
    Die: [...] Drop out the highest die before totalling the roll." (Glossary) """
    spec, faces = spec_faces
    result = read_roll(spec, faces)
    assert len(result.kept_faces) == spec.dice
    ordered = sorted(faces, reverse=spec.net_bonus > 0)
    assert sorted(result.kept_faces) == sorted(ordered[: spec.dice])
    assert sorted(result.kept_faces + result.dropped_faces) == sorted(faces)


# --- Multiple actions, tangential traits, hand of fate, general actions ------------------


def test_multiple_actions():
    """ "If you attempt one extra action, you suffer a penalty die on all actions [...]. If you
    attempt two extra actions, you roll one fewer die [...]. Three extra actions means two fewer
    dice than normal, four extra actions means three fewer dice, and so on." """
    spec = RollSpec(4, bonus=1)
    assert multiple_actions(spec, 0) == spec
    assert multiple_actions(spec, 1) == RollSpec(4, bonus=1, penalty=1)
    assert multiple_actions(spec, 2) == RollSpec(3, bonus=1)
    assert multiple_actions(spec, 3) == RollSpec(2, bonus=1)
    assert multiple_actions(spec, 4) == RollSpec(1, bonus=1)
    assert multiple_actions(RollSpec(2), 5) == RollSpec(0)
    with pytest.raises(InvalidCommand):
        multiple_actions(spec, -1)


def test_tangential_traits():
    """ "the GM may allow a bonus die (if the trait is 3 dice) or an extra die (if the trait is 4
    dice or better)." / a 3-dice model doing make-up: "give her two dice plus a bonus die" """
    assert tangential_trait(3) == RollSpec(2, bonus=1)
    assert tangential_trait(3).notation() == "3d6kh2"
    assert tangential_trait(4) == RollSpec(3)
    assert tangential_trait(6) == RollSpec(3)
    assert tangential_trait(2) == RollSpec(2)
    assert tangential_trait(4, untrained_dice=0) == RollSpec(1)


def test_hand_of_fate_rolls_two_dice():
    """ "In this case, roll two dice." / "The GM lets him roll the dice, and he gets a 5." """
    assert HAND_OF_FATE_DICE == 2 and hand_of_fate() == RollSpec(2)
    assert read_roll(hand_of_fate(), [1, 4]).total == 5


def test_an_impossible_task_allows_no_roll():
    """ "The task might be automatic (no roll required), chancy, or impossible (no roll allowed),
    as ruled by the GM." """
    require_roll_allowed(Referee(), TaskRuling.CHANCY)
    require_roll_allowed(Referee(), TaskRuling.AUTOMATIC)
    with pytest.raises(RuleViolation):
        require_roll_allowed(Referee(), TaskRuling.IMPOSSIBLE)
    referee = Referee(Override(by="gm", reason="the storm parts"))
    require_roll_allowed(referee, TaskRuling.IMPOSSIBLE)
    assert [rule for rule, _ in referee.overridden] == [dice.GENERAL_ACTIONS]


# --- Entering and rolling faces -----------------------------------------------------------


def test_wrong_number_of_faces_is_invalid():
    with pytest.raises(InvalidCommand, match=r"a 5-die roll \(5d6kh4\) needs 5 faces, got 6"):
        validate_faces(RollSpec(4, bonus=1), [1, 2, 3, 4, 5, 6])
    with pytest.raises(InvalidCommand, match="a 1-die roll .* needs 1 face, got 0"):
        validate_faces(RollSpec(1), [])


@pytest.mark.parametrize("bad", [0, 7, -1, True, 2.0, "3"])
def test_a_face_is_one_to_six(bad):
    with pytest.raises(InvalidCommand, match="die 2 shows"):
        validate_faces(RollSpec(3), [1, bad, 3])


def test_roll_draws_from_the_given_source():
    result = roll(RollSpec(3, penalty=1), ScriptedDice(4, 6, 1, 2))
    assert result.faces == (4, 6, 1, 2) and result.total == 7


def test_roll_uses_a_secure_source_by_default(monkeypatch):
    monkeypatch.setattr(dice.secrets, "SystemRandom", lambda: ScriptedDice(5, 5))
    assert roll(RollSpec(2)).faces == (5, 5)


def test_roll_with_a_real_generator_is_valid():
    result = roll(RollSpec(4, bonus=2), random.Random(7))
    assert len(result.faces) == 6 and all(1 <= f <= 6 for f in result.faces)


def test_describe_marks_dropped_and_extra_dice():
    assert read_roll(RollSpec(3, penalty=1), [5, 1, 1, 1]).describe() == "4d6kl3: (5) 1 1 1 = 3"
    assert read_roll(RollSpec(2), [6, 6], TOP_OFF, [6, 2]).describe() == "2d6: 6 6 +6 +2 = 20"


# --- Comparing the roll -------------------------------------------------------------------


def test_sample_difficulty_factors():
    """Easy 4 (1 die), Moderate 7 (2), Hard 11 (3), Really Difficult 14 (4), Near Impossible 18+
    (5 or 6)."""
    table = [(d.label, d.factor, d.dice) for d in Difficulty]
    assert table == [
        ("Easy", 4, (1,)),
        ("Moderate", 7, (2,)),
        ("Hard", 11, (3,)),
        ("Really Difficult", 14, (4,)),
        ("Near Impossible", 18, (5, 6)),
    ]
    assert DifficultyFactor.of(Difficulty.HARD) == DifficultyFactor(11)


@pytest.mark.parametrize(
    ("faces", "outcome", "margin"),
    [((5, 3), Outcome.BEATS, 1), ((4, 3), Outcome.EQUALS, 0), ((1, 2), Outcome.FAILS, -4)],
)
@pytest.mark.parametrize("target", [DifficultyFactor(7), InertForceRoll(7), OpponentRoll(7)])
def test_three_results_are_possible(faces, outcome, margin, target):
    """ "1) Your total beats the number. [...] 2) Your total equals the number. Draw, stalemate, or
    inconclusive results are thus indicated. 3) Your total is less than the number. You fail" """
    resolution = resolve(read_roll(RollSpec(2), faces), target)
    assert (resolution.outcome, resolution.margin, resolution.target) == (outcome, margin, 7)
    assert resolution.decided_by is None


@given(st.integers(0, 40), st.integers(0, 40))
def test_compare_is_the_order_of_the_numbers(total, number):
    """ "Your total beats the number." / "Your total equals the number." / "Your total is less than
    the number." """
    assert (compare(total, number) is Outcome.BEATS) == (total > number)
    assert (compare(total, number) is Outcome.EQUALS) == (total == number)


# --- Optional rules -----------------------------------------------------------------------


def test_roll_options_from_campaign_options():
    options = RollOptions.from_campaign({"botch": True, "serious_wounds": True, "unstoppable_six": False})
    assert options == RollOptions(botch=True)


def test_botch_snake_eyes():
    """ "He rolls two dice, and they come up snake-eyes." — a botch. """
    result = read_roll(RollSpec(2), [1, 1], BOTCH)
    assert is_botch(result, BOTCH)
    assert not is_botch(result, NO_OPTIONS)


def test_botch_with_a_penalty_die_fails_against_a_lower_roll():
    """ "He rolls four dice, and they come up 5, 1, 1, 1. That comes to 3, total, and a botch. The
    gullible GMC rolls one die [...] and gets a 2. Even though this is lower than the 3, the
    character's roll was a botch, so he fails." """
    result = read_roll(RollSpec(3, penalty=1), [5, 1, 1, 1], BOTCH)
    assert result.total == 3 and is_botch(result, BOTCH)
    twerp = read_roll(RollSpec(1), [2], BOTCH)
    resolution = resolve(result, OpponentRoll.of(twerp, BOTCH), BOTCH)
    assert resolution.outcome is Outcome.FAILS and resolution.decided_by == dice.BOTCH
    assert resolve(result, OpponentRoll.of(twerp, NO_OPTIONS)).outcome is Outcome.BEATS


def test_a_bonus_die_can_save_a_roll_from_botching():
    """ "Likewise, a bonus die greatly decreases botch frequency." """
    assert not is_botch(read_roll(RollSpec(2, bonus=1), [1, 1, 4], BOTCH), BOTCH)
    assert is_botch(read_roll(RollSpec(2, penalty=1), [1, 1, 4], BOTCH), BOTCH)


def test_no_dice_cannot_botch():
    assert not is_botch(read_roll(RollSpec(0, penalty=1), [1], BOTCH), BOTCH)


def test_an_opponent_botch_means_the_roll_succeeds():
    """ "Not only have you automatically failed in your attempted action": the opponent's failed
    resistance lets the roller succeed; the roller's own botch comes first. """
    mine = read_roll(RollSpec(2), [2, 1], BOTCH)
    theirs = OpponentRoll(5, botched=True)
    assert resolve(mine, theirs, BOTCH).outcome is Outcome.BEATS
    assert resolve(mine, theirs, NO_OPTIONS).outcome is Outcome.FAILS
    assert resolve(read_roll(RollSpec(2), [1, 1], BOTCH), OpponentRoll(3, botched=True), BOTCH).outcome is Outcome.FAILS


def test_blowing_the_top_off_adds_dice_while_they_show_six():
    """ "If the player rolls all 6's on any given roll, he rolls another die and adds it to the
    total he already rolled. If that die is a 6, he rolls it again and adds it, and so on." """
    result = read_roll(RollSpec(2), [6, 6], TOP_OFF, [6, 6, 3])
    assert result.total == 27
    assert roll(RollSpec(2), ScriptedDice(6, 6, 6, 1), options=TOP_OFF).top_off == (6, 1)
    assert roll(RollSpec(2), ScriptedDice(6, 6), options=NO_OPTIONS).total == 12


def test_blowing_the_top_off_needs_the_extra_dice_and_only_then():
    with pytest.raises(InvalidCommand, match="every kept die is a 6"):
        read_roll(RollSpec(2), [6, 6], TOP_OFF)
    with pytest.raises(InvalidCommand, match="only entered when blowing the top off"):
        read_roll(RollSpec(2), [6, 6], NO_OPTIONS, [3])
    with pytest.raises(InvalidCommand, match="only entered when blowing the top off"):
        read_roll(RollSpec(2), [6, 5], TOP_OFF, [3])
    with pytest.raises(InvalidCommand, match="stop at the first"):
        read_roll(RollSpec(2), [6, 6], TOP_OFF, [3, 4])
    with pytest.raises(InvalidCommand, match="stop at the first"):
        read_roll(RollSpec(2), [6, 6], TOP_OFF, [6])
    with pytest.raises(InvalidCommand, match="extra die 1 shows"):
        read_roll(RollSpec(2), [6, 6], TOP_OFF, [7])


def test_blowing_the_top_off_reads_the_kept_dice():
    """ "if you use this optional rule, penalty dice and bonus dice are going to have a bigger
    impact": a bonus die drops a low die and can leave all sixes; a penalty die drops a six. """
    assert must_blow_top_off(RollSpec(2, bonus=1), [6, 1, 6], TOP_OFF)
    assert not must_blow_top_off(RollSpec(2, penalty=1), [6, 5, 6], TOP_OFF)
    assert not must_blow_top_off(RollSpec(0), [], TOP_OFF)


def test_unstoppable_six_the_ghost_of_the_atlantean_priest():
    """ "He rolls a 13, against the priest's roll of 6, 3, 1, for a total of 10. The character wins
    [...] the ghost rolled a 6, and [...] the GM decides that this result means that the ghost has
    kept itself from being completely controlled." """
    character = read_roll(RollSpec(4), [4, 2, 4, 3], SIXES)
    ghost = read_roll(RollSpec(3), [6, 3, 1], SIXES)
    assert (character.total, ghost.total) == (13, 10)
    assert resolve(character, OpponentRoll.of(ghost, SIXES), SIXES).outcome is Outcome.BEATS
    ghosts_side = resolve(ghost, OpponentRoll.of(character, SIXES), SIXES)
    assert ghosts_side.outcome is Outcome.FAILS
    assert ghosts_side.sixes == 1 and ghosts_side.limited_success
    assert not resolve(ghost, OpponentRoll(13), NO_OPTIONS).limited_success


def test_unstoppable_sixes_count_the_kept_dice():
    """ "the more 6's you get, the more powerful your 'loser's revenge' will be." """
    assert unstoppable_sixes(read_roll(RollSpec(3), [6, 6, 2], SIXES), SIXES) == 2
    assert unstoppable_sixes(read_roll(RollSpec(2, penalty=1), [6, 2, 3], SIXES), SIXES) == 0
    assert unstoppable_sixes(read_roll(RollSpec(3), [6, 6, 2]), NO_OPTIONS) == 0
    winner = resolve(read_roll(RollSpec(3), [6, 6, 2], SIXES), DifficultyFactor(7), SIXES)
    assert winner.sixes == 2 and not winner.limited_success


# --- Breaks and personal consequences -----------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "faces", "expected"),
    [
        (RollSpec(3), [6, 6, 2], Breaks(good=True, bad=False)),
        (RollSpec(3), [1, 5, 1], Breaks(good=False, bad=True)),
        (RollSpec(4), [6, 1, 6, 1], Breaks(good=True, bad=True)),
        (RollSpec(3), [6, 1, 3], Breaks(good=False, bad=False)),
        (RollSpec(1), [6], Breaks(good=False, bad=False)),
        # the dropped die is not part of the roll
        (RollSpec(2, penalty=1), [6, 6, 2], Breaks(good=False, bad=False)),
        (RollSpec(2, bonus=1), [1, 1, 2], Breaks(good=False, bad=False)),
        (RollSpec(2, bonus=1), [6, 1, 6], Breaks(good=True, bad=False)),
    ],
)
def test_breaks(spec, faces, expected):
    """ "When you roll 2 or more 6's or 2 or more 1's for a given action, you've had a break. Keep a
    record that you've had a good break for 2 or more 6's or a bad break for 2 or more 1's." """
    assert breaks(read_roll(spec, faces)) == expected


def test_consequence_rolls_at_the_end_of_a_procedural_scene():
    """ "roll 1d6 if you had a good break - on a 6 you have a good consequence" / "where you have a
    bad break roll 1d6 [...] - on a 1 you have a bad consequence." / "It is possible to have both a
    good and a bad consequence from the same procedural scene." """
    good, bad, none = Breaks(True, False), Breaks(False, True), Breaks(False, False)
    assert consequence_rolls([]) == ()
    assert consequence_rolls([none, none]) == ()
    assert consequence_rolls([good, good, none]) == (Consequence.GOOD,)
    assert consequence_rolls([bad]) == (Consequence.BAD,)
    assert consequence_rolls([good, bad]) == (Consequence.GOOD, Consequence.BAD)
    assert consequence_rolls([Breaks(True, True)]) == (Consequence.GOOD, Consequence.BAD)


@pytest.mark.parametrize("face", range(1, 7))
def test_a_consequence_comes_on_a_six_or_a_one(face):
    assert has_consequence(Consequence.GOOD, face) == (face == 6)
    assert has_consequence(Consequence.BAD, face) == (face == 1)


def test_a_consequence_roll_is_one_die():
    with pytest.raises(InvalidCommand):
        has_consequence(Consequence.GOOD, 7)


@settings(max_examples=50)
@given(specs.flatmap(lambda s: st.tuples(st.just(s), faces_for(s))))
def test_a_result_is_only_made_of_valid_faces(spec_faces):
    """ "Your total is still composed of the same number of dice as normal" """
    spec, faces = spec_faces
    result = RollResult(spec, faces)
    assert spec.dice <= result.total <= 6 * spec.dice
