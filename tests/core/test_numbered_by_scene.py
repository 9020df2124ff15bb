"""What is kept by scene number (core/timeline.py ``Numbered``): read and set as the persistent map it
replaced, with the numbers' values in blocks of a vector each; written and read back by the codec (thawed and frozen:
tests/core/test_thawed.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap

from yarnlog.core.codec import Codec
from yarnlog.core.timeline import BLOCK, Numbered

NUMBERS = st.integers(1, 12)


def _numbered(items: dict[int, str]) -> Numbered[str]:
    numbered: Numbered[str] = Numbered()
    for number, value in items.items():
        numbered = numbered.set(number, value)
    return numbered


@given(st.dictionaries(NUMBERS, st.text(max_size=3)), st.integers(-2, 15))
def test_numbered_reads_as_the_map_of_the_same_items(items, asked):
    numbered, kept = _numbered(items), pmap(items)
    assert numbered == kept and kept == numbered and numbered == items
    assert list(numbered.items()) == sorted(items.items())  # lowest number first
    assert list(numbered) == sorted(items) and list(numbered.values()) == [items[n] for n in sorted(items)]
    assert len(numbered) == len(items)
    assert (asked in numbered) == (asked in items) and numbered.get(asked, "none") == items.get(asked, "none")
    if asked in items:
        assert numbered[asked] == items[asked]
    else:
        with pytest.raises(KeyError):
            numbered[asked]


@given(st.dictionaries(NUMBERS, st.text(max_size=3)), NUMBERS, st.text(max_size=3))
def test_setting_a_number_leaves_the_numbered_it_was_set_on_as_it_was(items, number, value):
    before = _numbered(items)
    after = before.set(number, value)
    assert before == items and after == {**items, number: value}
    with pytest.raises(KeyError):
        before.set(0, value)  # scenes are numbered from 1


@given(st.dictionaries(NUMBERS, st.text(max_size=3)))
def test_the_codec_writes_a_numbered_and_reads_back_an_equal_one(items):
    codec = Codec([Numbered])
    back = codec.decode(codec.encode(_numbered(items)))
    assert isinstance(back, Numbered) and back == _numbered(items) and hash(back) == hash(_numbered(items))


#: A move on a Numbered and on the dict it should read as: ("set", n, value), ("none", n) (set to None:
#: not set), or ("evolve", [(n, value or None), ...]) (through an evolver: None removes).
MOVES = st.one_of(
    st.tuples(st.just("set"), st.integers(1, 300), st.text(max_size=2)),
    st.tuples(st.just("none"), st.integers(1, 300)),
    st.tuples(st.just("evolve"), st.lists(st.tuples(st.integers(1, 300), st.none() | st.text(max_size=2)),
                                          max_size=8)),
)


@given(st.lists(MOVES, max_size=40))
def test_any_sequence_of_sets_and_removes_reads_as_a_dict_and_keeps_its_count(moves):
    numbered: Numbered[str] = Numbered()
    items: dict[int, str] = {}
    for move in moves:
        if move[0] == "set":
            numbered = numbered.set(move[1], move[2])
            items[move[1]] = move[2]
        elif move[0] == "none":
            numbered = numbered.set(move[1], None)  # type: ignore[arg-type]
            items.pop(move[1], None)
        else:
            evolver = numbered.evolver()
            for number, value in move[1]:
                if value is None:
                    evolver.remove(number)
                    items.pop(number, None)
                else:
                    evolver[number] = value
                    items[number] = value
            numbered = evolver.persistent()
        assert len(numbered) == numbered.count == len(items)
    assert numbered == items and list(numbered.items()) == sorted(items.items())
    fresh = _numbered(items)
    assert numbered == fresh and hash(numbered) == hash(fresh)  # blocks left empty are dropped
    assert all(any(v is not None for v in block) for block in numbered.blocks.values())
    codec = Codec([Numbered])
    assert codec.decode(codec.encode(numbered)) == items


def test_a_number_reads_only_its_own_block():
    numbered = _numbered({n: str(n) for n in range(1, BLOCK * 3 + 1)})
    assert sorted(numbered.blocks) == [0, 1, 2] and len(numbered.blocks[1]) == BLOCK
    assert numbered.blocks[1][0] == str(BLOCK + 1) and numbered[BLOCK + 1] == str(BLOCK + 1)
    assert numbered.set(BLOCK * 3 + 1, "next").blocks[3][0] == "next"  # the next number opens a block
    assert numbered.set(2, "x").blocks[1] is numbered.blocks[1]  # the other blocks shared
