"""A map read from a snapshot in chunks of its entries behaves as the persistent map it stands for:
the same answers to every read, the same map after every change, equal both ways; a key read or
set decodes only the chunk it falls in. No test here measures a time."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st
from pyrsistent import PMap, pmap

from yarnlog.core.chunked_map import ChunkedMap, chunked
from yarnlog.core.codec import Codec, CodecError
from yarnlog.core.deferred import Deferred

CODEC = Codec([])

keys = st.one_of(st.integers(-50, 50), st.tuples(st.sampled_from(["scene", "episode"]), st.integers(0, 30)),
                 st.text(max_size=3))
maps = st.dictionaries(keys, st.integers(), min_size=1, max_size=80)


def read_back(items: dict) -> tuple[ChunkedMap, list[Deferred]]:
    """``items`` as a snapshot writes them (:func:`chunked`), read back as a chunked map whose chunks
    are decoded from their text when first read."""
    chunks = chunked(CODEC, items.items())
    cells = [Deferred(text, 0, len(text), CODEC.decode_value, None, f"chunk {n}")
             for n, text in enumerate(CODEC.encode_value(chunk) for _, chunk in chunks)]
    return ChunkedMap(CODEC, [first for first, _ in chunks], cells, [len(c) for _, c in chunks]), cells


operations = st.lists(st.tuples(st.sampled_from(["set", "discard", "remove", "get", "in", "getitem"]), keys,
                                st.integers()), max_size=30)


@given(maps, operations)
def test_a_chunked_map_answers_and_changes_as_the_pmap_it_stands_for(items, ops):
    lazy, _ = read_back(items)
    plain: PMap = pmap(items)
    for op, key, value in ops:
        if op == "set":
            lazy, plain = lazy.set(key, value), plain.set(key, value)
        elif op == "discard":
            lazy, plain = lazy.discard(key), plain.discard(key)
        elif op == "remove":
            if key in plain:
                lazy, plain = lazy.remove(key), plain.remove(key)
            else:
                try:
                    lazy.remove(key)
                    raise AssertionError("removed a key that is not there")
                except KeyError:
                    pass
        elif op == "get":
            assert lazy.get(key, "none") == plain.get(key, "none")
        elif op == "in":
            assert (key in lazy) == (key in plain)
        else:
            assert (lazy[key] if key in lazy else "none") == (plain[key] if key in plain else "none")
        assert len(lazy) == len(plain)
    assert lazy == plain and plain == lazy and dict(lazy) == dict(plain)
    assert hash(lazy) == hash(plain) and sorted(lazy.items(), key=repr) == sorted(plain.items(), key=repr)
    assert isinstance(lazy, PMap)


@given(st.dictionaries(st.integers(0, 5000), st.integers(), min_size=200, max_size=400), st.data())
def test_reading_or_setting_a_key_decodes_only_the_chunk_it_falls_in(items, data):
    lazy, cells = read_back(items)
    # A chunk starts at a key whose CRC-32 is 0 modulo 32, or after 256 entries: a few hundred keys
    # may all fall in one or two chunks (about one draw in 600), where there is nothing to tell.
    assume(len(cells) > 2)
    key = data.draw(st.sampled_from(sorted(items)))
    assert lazy[key] == items[key]
    changed = lazy.set(key, "new").set(max(items) + 1, "added")
    assert sum(cell.decoded for cell in cells) <= 2  # the key's chunk, and the last (where the new key falls)
    assert changed[key] == "new" and changed == pmap({**items, key: "new", max(items) + 1: "added"})


def test_a_key_no_snapshot_can_hold_is_in_no_chunk():
    lazy, cells = read_back({n: n for n in range(100)})
    assert lazy.get(object()) is None and object() not in lazy
    assert not any(cell.decoded for cell in cells)


def test_a_chunk_whose_text_does_not_decode_is_a_codec_error_without_a_fallback():
    lazy, cells = read_back({n: n for n in range(100)})
    broken = Deferred('["d",["x"]]', 0, 11, CODEC.decode_value)
    lazy = ChunkedMap(CODEC, [first for first, _, _ in lazy.chunks], [broken, *cells[1:]],
                      [count for _, count, _ in lazy.chunks])
    try:
        dict(lazy)
        raise AssertionError("decoded a broken chunk")
    except CodecError:
        pass


@given(maps, st.lists(st.tuples(st.sampled_from(["set", "discard"]), keys, st.integers()), max_size=30),
       st.sampled_from([(2, 3), (4, 256), (1, 2)]))
def test_a_chunked_map_changed_is_written_as_the_map_it_stands_for_would_be(items, ops, sizes):
    """The chunks a snapshot refers to as read and those it writes again make the same index as the
    map written whole (a key let go that started a chunk, a chunk cut for length), so a snapshot
    written after a change is the one a full replay writes."""
    from unittest import mock

    from yarnlog.app import snapshot_rows
    from yarnlog.app.snapshot_rows import _RowWriter, piece_digest
    from yarnlog.core import chunked_map as chunks_module

    every, most = sizes
    with mock.patch.object(snapshot_rows, "CHUNKED_AT", 1), mock.patch.object(chunks_module, "CHUNK_EVERY", every), \
            mock.patch.object(chunks_module, "CHUNK_MOST", most):
        chunks = chunked(CODEC, items.items())
        texts = [CODEC.encode_value(chunk) for _, chunk in chunks]
        cells = [Deferred(text, 0, len(text), CODEC.decode_value, None, piece_digest(text)) for text in texts]
        lazy = ChunkedMap(CODEC, [first for first, _ in chunks], cells, [len(c) for _, c in chunks])
        plain = pmap(items)
        for op, key, value in ops:
            lazy, plain = (lazy.set(key, value), plain.set(key, value)) if op == "set" else \
                (lazy.discard(key), plain.discard(key))
        stored = {piece_digest(text): text for text in texts}
        as_read, whole = _RowWriter(CODEC, stored.__getitem__, True), _RowWriter(CODEC, stored.__getitem__, True)
        if len(plain):
            assert as_read._leaf(lazy) == whole._leaf(plain)
            assert as_read.refs == whole.refs
