"""What is kept by scene number (core/timeline.py ``Numbered``): read and set as the persistent map it
replaced, with the numbers' values in a vector; written and read back by the codec (thawed and frozen:
tests/core/test_thawed.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap

from yarnlog.core.codec import Codec
from yarnlog.core.timeline import Numbered

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
