"""The fast copy of a frozen dataclass with some fields changed (core/frozen.py)."""

from __future__ import annotations

import dataclasses

import pytest

from yarnlog.core.frozen import replace
from yarnlog.core.referee import InvalidCommand
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Drama, Recall
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import Support


def test_it_equals_dataclasses_replace_and_leaves_the_original_as_it_was():
    before = Drama(gm="Maya")
    after = replace(before, recall=Recall("Ana", "a montage ended"), overridden_through=3)
    assert after == dataclasses.replace(before, recall=Recall("Ana", "a montage ended"), overridden_through=3)
    assert before == Drama(gm="Maya")
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.gm = "Ben"  # type: ignore[misc]


def test_it_refuses_a_field_the_class_does_not_have():
    with pytest.raises(TypeError, match="no field colour"):
        replace(Drama(), colour="red")


def test_a_class_that_validates_itself_still_does():
    # Support's __post_init__: "must give at least one token".
    with pytest.raises(InvalidCommand, match="at least one token"):
        replace(Support("Ana", 2), tokens=0)
    assert replace(Support("Ana", 2), tokens=1) == Support("Ana", 1)
