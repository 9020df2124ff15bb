"""Action types, grades, How I Do It and the story sentence against the SRD, lines 117-157."""

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.dramasystem.rules.action_types import (
    STANDARD_TYPES,
    Grade,
    check_grades,
    check_how_i_do_it,
    check_story,
)

S, M, W = Grade.STRONG, Grade.MIDDLING, Grade.WEAK


def layout(*grades):
    return dict(zip(STANDARD_TYPES, grades))


def test_two_strong_two_weak_the_rest_middling():
    # SRD 121.
    check_grades(layout(S, S, M, M, M, W, W), None, Referee(), "Ana")
    with pytest.raises(RuleViolation, match="3 Strong and 1 Weak"):
        check_grades(layout(S, S, S, M, M, M, W), None, Referee(), "Ana")
    with pytest.raises(RuleViolation, match="no grade for Sneaking"):
        check_grades(layout(S, S, M, M, M, W), None, Referee(), "Ana")


def test_a_custom_type_is_strong_and_makes_three_standard_types_weak():
    # SRD 141-145, reading 8: custom + one standard Strong, three Weak, three Middling.
    grades = {**layout(S, M, M, M, W, W, W), "Lockpicking": S}
    check_grades(grades, "Lockpicking", Referee(), "Ana")
    with pytest.raises(RuleViolation, match="beside Lockpicking, Ana has 2 Strong and 2 Weak, not 1 and 3"):
        check_grades({**layout(S, S, M, M, M, W, W), "Lockpicking": S}, "Lockpicking", Referee(), "Ana")
    with pytest.raises(RuleViolation, match="must be Strong"):
        check_grades({**layout(S, M, M, M, W, W, W), "Lockpicking": M}, "Lockpicking", Referee(), "Ana")


def test_the_story_sentence_is_at_most_25_words():
    # SRD 157: "If your sentence is more than 25 words long".
    check_story(" ".join(["word"] * 25), Referee(), "Ana")
    with pytest.raises(RuleViolation, match="26 words"):
        check_story(" ".join(["word"] * 26), Referee(), "Ana")


def test_how_i_do_it_describes_strong_types_only():
    # SRD 149.
    grades = layout(S, S, M, M, M, W, W)
    check_how_i_do_it(grades, {"Enduring": "stubborn as a mule"}, Referee(), "Ana")
    with pytest.raises(RuleViolation, match="Making is not a Strong type"):
        check_how_i_do_it(grades, {"Making": "with duct tape"}, Referee(), "Ana")
