"""Persistent maps and vectors thawed for a replay (core/thawed.py): each freeze equals the map or vector
as set so far, and what an earlier freeze handed out never changes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap, pvector

from yarnlog.core.thawed import ThawedMap, ThawedVector

#: ("set", key, value), ("discard", key, None) or ("freeze", None, None), on a handful of keys.
MAP_STEPS = st.lists(st.one_of(
    st.tuples(st.just("set"), st.integers(0, 5), st.integers()),
    st.tuples(st.just("discard"), st.integers(0, 5), st.none()),
    st.tuples(st.just("freeze"), st.none(), st.none()),
), max_size=40)


@given(st.dictionaries(st.integers(0, 5), st.integers()), MAP_STEPS)
def test_a_thawed_map_freezes_to_what_was_set_and_never_changes_what_it_handed_out(start, steps):
    thawed, model = ThawedMap(pmap(start)), dict(start)
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
    assert thawed.freeze() == pmap(model)
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
