"""Dice facts: entered dice are checked, rolled dice are recorded, replay never re-rolls."""

from __future__ import annotations

import random

import pytest

from yarnlog.core.referee import DiceNeeded, InvalidCommand
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import DiceFacts, take_dice, throw
from yarnlog.rulesets.yarn.rules.dice import NO_OPTIONS, RollOptions, RollSpec


def test_entered_faces_are_kept_as_the_book_says():
    """A bonus die: "roll an extra die and drop the lowest"; a 5d6kh4 roll keeps the best four."""
    facts = take_dice(RollSpec(4, bonus=1), [6, 1, 3, 4, 2])
    assert facts.notation == "5d6kh4" and facts.total == 15 and facts.source == "entered"
    assert sorted(facts.faces[i] for i in facts.kept) == [2, 3, 4, 6]


def test_a_sixth_die_on_a_five_die_roll_is_refused():
    with pytest.raises(InvalidCommand, match="needs 5 faces, got 6"):
        take_dice(RollSpec(5), [1, 2, 3, 4, 5, 6])


def test_missing_faces_ask_for_dice_instead_of_rolling():
    with pytest.raises(DiceNeeded) as asked:
        take_dice(RollSpec(3, penalty=1), None, name="trait")
    assert (asked.value.roll, asked.value.dice, asked.value.sides) == ("trait", 4, 6)


def test_rolled_dice_are_recorded_and_rebuild_identically():
    spec = RollSpec(3, penalty=1)
    thrown = throw(spec, NO_OPTIONS, random.Random(7))
    facts = take_dice(spec, None, rolled={"roll": thrown})
    assert facts.source == "rolled" and len(facts.faces) == 4
    again = DiceFacts.model_validate(facts.model_dump(mode="json"))
    assert again == facts and again.result().total == facts.total


def test_blowing_the_top_off_needs_the_extra_dice_entered():
    options = RollOptions(blowing_the_top_off=True)
    with pytest.raises(InvalidCommand, match="blowing the top off"):
        take_dice(RollSpec(2), [6, 6], options)
    facts = take_dice(RollSpec(2), [6, 6], options, top_off=[6, 2])
    assert facts.total == 20
