"""``check_data``'s fast walk finds exactly what the plain walk finds, worded the same.

Every imported and audited payload passes through ``check_data`` (the limits a command is held
to, ``yarnlog.core.limits``), so it skips work for the common case: a place is spelt out only for
the problem found, and an ASCII text or name is passed by a cheap test. The plain walk below is
the rule written out directly (every text, number, list and name checked with the worded
problem functions, places spelt as it goes); generated data, near every limit, must get the same
answer from both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.limits import (
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_NAME,
    MAX_NUMBER,
    MAX_TEXT,
    check_data,
    name_problem,
    number_problem,
    text_problem,
)
from yarnlog.core.names import NAME_FIELDS


def plain_walk(value: Any, name_keys: frozenset[str], where: str = "") -> str | None:
    stack: list[tuple[Any, str, int, bool]] = [(value, where, 0, False)]
    while stack:
        item, place, depth, is_name = stack.pop()
        problem: str | None = None
        if isinstance(item, str):
            problem = name_problem(item) if is_name else text_problem(item)
        elif isinstance(item, bool) or item is None:
            pass
        elif isinstance(item, int):
            problem = number_problem(item)
        elif isinstance(item, float):
            problem = (None if abs(item) <= MAX_NUMBER else f"a number is at most {MAX_NUMBER:,}") \
                if math.isfinite(item) else "a number is finite"
        elif isinstance(item, (list, tuple, Mapping)):
            if depth >= MAX_DEPTH:
                problem = f"data is nested at most {MAX_DEPTH} levels deep"
            elif len(item) > MAX_ITEMS:
                problem = f"a list holds at most {MAX_ITEMS:,} items, not {len(item):,}"
            elif isinstance(item, Mapping):
                for key, child in item.items():
                    if is_name and isinstance(key, str) and name_problem(key) is not None:
                        problem = name_problem(key)
                        break
                    stack.append((child, f"{place}.{key}" if place else str(key), depth + 1, key in name_keys))
            else:
                stack.extend((child, f"{place}.{i}" if place else str(i), depth + 1, is_name)
                             for i, child in enumerate(item))
        if problem is not None:
            return f"{place}: {problem}" if place else problem
    return None


# Texts near each limit: control and direction characters, lone surrogates, non-ASCII, long ones.
_CHARS = st.sampled_from(["a", "Z", " ", "é", "語", "\x00", "\t", "\x1b", "\x7f", "\x85", "\u202e",
                          "\u2028", "\ud800", "\udfff", "[", "<"])
texts = st.one_of(
    st.text(_CHARS, max_size=12),
    st.integers(MAX_NAME - 2, MAX_NAME + 2).map(lambda n: "a" * n),
    st.integers(MAX_NAME - 1, MAX_NAME + 1).map(lambda n: "é" * n),
    st.sampled_from([MAX_TEXT, MAX_TEXT + 1]).flatmap(
        lambda n: st.sampled_from(["x" * n, "é" * n, "x" * (n - 1) + "\ud800"])),
)
numbers = st.one_of(st.integers(-MAX_NUMBER - 2, MAX_NUMBER + 2), st.integers(),
                    st.floats(allow_nan=True, allow_infinity=True))
keys = st.one_of(st.sampled_from(sorted(NAME_FIELDS)[:6] + ["note", "", "0"]), texts)
leaves = st.one_of(texts, numbers, st.booleans(), st.none())
data = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                    st.dictionaries(keys, inner, max_size=4)), max_leaves=30)


def _nested(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = {"name": [leaf]}
    return leaf


@given(data, st.sampled_from(["", "payload"]))
def test_the_fast_walk_agrees_with_the_plain_walk(value: Any, where: str) -> None:
    assert check_data(value, NAME_FIELDS, where=where) == plain_walk(value, NAME_FIELDS, where)


@given(st.integers(MAX_DEPTH // 2 - 2, MAX_DEPTH // 2 + 2), leaves)
def test_depth_and_size_limits_are_found_at_the_same_place(depth: int, leaf: Any) -> None:
    for value in (_nested(depth, leaf), {"cast": ["Ana"] * (MAX_ITEMS + 1)}, [[0] * MAX_ITEMS]):
        assert check_data(value, NAME_FIELDS) == plain_walk(value, NAME_FIELDS)


def test_a_problem_is_worded_with_its_place() -> None:
    assert check_data({"party": [{"name": "Ana\x1b[31m"}]}, NAME_FIELDS, where="payload") == \
        "payload.party.0.name: a name holds no control or text-direction characters"
    assert check_data({"note": "x" * (MAX_TEXT + 1)}, NAME_FIELDS) == \
        f"note: a text is at most {MAX_TEXT:,} characters, not {MAX_TEXT + 1:,}"
    assert check_data({"count": MAX_NUMBER + 1}) == f"count: a number is at most {MAX_NUMBER:,}"
    assert check_data({"name": "a" * MAX_NAME, "note": "é" * MAX_TEXT, "n": -MAX_NUMBER}, NAME_FIELDS) is None
