"""Persistent maps and vectors thawed for a replay (core/thawed.py): each freeze equals the map or vector
as set so far, and what an earlier freeze handed out never changes. What is kept by scene number
(``core.timeline.Numbered``) thaws as a map does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap, pvector

from yarnlog.core.thawed import ThawedMap, ThawedVector
from yarnlog.core.timeline import Numbered

#: ("set", key, value), ("discard", key, None) or ("freeze", None, None), on a handful of keys (numbers:
#: a Numbered's start at 1).
MAP_STEPS = st.lists(st.one_of(
    st.tuples(st.just("set"), st.integers(1, 6), st.integers()),
    st.tuples(st.just("discard"), st.integers(1, 6), st.none()),
    st.tuples(st.just("freeze"), st.none(), st.none()),
), max_size=40)


def _numbered(items: dict) -> Numbered:
    numbered: Numbered = Numbered()
    for number, value in items.items():
        numbered = numbered.set(number, value)
    return numbered


@pytest.mark.parametrize("persistent", [pmap, _numbered], ids=["pmap", "numbered"])
@given(start=st.dictionaries(st.integers(1, 6), st.integers()), steps=MAP_STEPS)
def test_a_thawed_map_freezes_to_what_was_set_and_never_changes_what_it_handed_out(persistent, start, steps):
    thawed, model = ThawedMap(persistent(start)), dict(start)
    handed_out = []
    for op, key, value in steps:
        if op == "set":
            thawed[key] = value
            model[key] = value
        elif op == "discard":
            thawed.discard(key)
            model.pop(key, None)
        else:
            handed_out.append((thawed.freeze(), dict(model)))
        assert (key in thawed) == (key in model) and thawed.get(key) == model.get(key)
    assert thawed.freeze() == pmap(model) and type(thawed.freeze()) is type(persistent(start))
    for frozen, then in handed_out:
        assert frozen == pmap(then)


@given(st.lists(st.integers()), st.lists(st.one_of(st.integers(), st.none()), max_size=30))
def test_a_thawed_vector_freezes_to_what_was_appended_and_never_changes_what_it_handed_out(start, steps):
    thawed, model = ThawedVector(pvector(start)), list(start)
    handed_out = []
    for item in steps:  # None: a freeze
        if item is None:
            handed_out.append((thawed.freeze(), list(model)))
        else:
            thawed.append(item)
            model.append(item)
        assert len(thawed) == len(model)
    assert thawed.freeze() == pvector(model)
    for frozen, then in handed_out:
        assert frozen == pvector(then)
