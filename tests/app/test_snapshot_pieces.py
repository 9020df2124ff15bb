"""A state snapshot in pieces, each a row of its own: a state read from one fetches and decodes a piece
(a slice of a part, a field of the timeline, a chunk of a long map) only when something reads it,
refers in the next snapshot to the pieces still as read instead of writing them again, and is
equal, once written to, to a full replay; a piece that turns out not to decode, or whose row is
gone, is replayed from the log, never an error of the command. No test here measures a time."""

from __future__ import annotations

import contextlib
import logging
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_snapshots import records, replayed  # the sample and a generated campaign, replayed

from yarnlog.app import snapshot_rows
from yarnlog.app.journal import Journal
from yarnlog.app.snapshot_rows import encode_state_rows
from yarnlog.app.snapshots import STATE, STATE_KINDS, state_codec
from yarnlog.core import chunked_map as chunks_module
from yarnlog.core import timeline as timeline_module
from yarnlog.core.chunked_map import ChunkedMap
from yarnlog.core.deferred import deferred_fields
from yarnlog.core.envelope import to_recorded
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import in_context, replay
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.memory import MemoryStore
from yarnlog.persistence.protocol import Snapshot
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.yarn import ruleset as yarn


def recorded_timeline(source: str, sequence: int):
    return in_context([to_recorded(r) for r in records(source)[:sequence]])[1][-1]


def newest(store: MemoryStore, cid: str) -> Snapshot:
    return max((s for s in store.snapshots(cid) if s.kind in STATE_KINDS), key=lambda s: s.sequence)


@contextlib.contextmanager
def small_chunks():
    """Maps of 4 entries or more kept in chunks of about 2 (the sample's maps are short: the layout of
    a long campaign's, at a test's size), and scenes by number in blocks of 2 (so their map of blocks is
    chunked too)."""
    with mock.patch.object(snapshot_rows, "CHUNKED_AT", 4), mock.patch.object(chunks_module, "CHUNK_EVERY", 2), \
            mock.patch.object(timeline_module, "BLOCK", 2):
        replayed.cache_clear()  # the replays remembered are in blocks of the size in force
        try:
            yield
        finally:
            replayed.cache_clear()


def unused_fetch(digest: str) -> str:
    raise AssertionError("a replay's state refers to no stored piece")


def assert_kept_as_replayed(store: MemoryStore, cid: str, kept: Snapshot, source_state, recorded) -> None:
    """The snapshot kept is, row for row, what a full replay's state writes: its header, and the text
    of every piece it refers to (those never read were referred to where they were read)."""
    codec, _ = state_codec("yarn")
    rows = encode_state_rows(codec, source_state, recorded, unused_fetch)
    assert kept.data == rows.header
    assert store.load_pieces(cid, rows.refs) == rows.pieces
    assert store._piece_refs[(cid, kept.kind)] == rows.refs


def snapshot_at(source: str, taken: int) -> tuple[MemoryStore, str]:
    store = MemoryStore()
    cid = records(source)[0].campaign_id
    store.append_verbatim(records(source)[:taken], 0)
    Journal(store, snapshot_every=1).state(cid)  # keeps a snapshot at ``taken``
    return store, cid


@pytest.fixture
def folds_as_routed():
    """Yarn's own fold, as a command runs it: the suite's routing check (``fold_routes.py``) also
    folds every event in the parts it is not routed to, which reads (so decodes) every slice."""
    rules = get_ruleset("yarn").rules
    checking = rules.evolve
    object.__setattr__(rules, "evolve", yarn.evolve)
    yield
    object.__setattr__(rules, "evolve", checking)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sample", "generated"]), st.data(), st.booleans())
def test_a_state_started_from_a_snapshot_in_pieces_then_written_to_equals_a_full_replay(source, data, chunks):
    total = len(records(source))
    taken = data.draw(st.integers(1, total - 1), label="snapshot taken at")
    read = data.draw(st.integers(taken + 1, total), label="written to up to")
    with small_chunks() if chunks else contextlib.nullcontext():
        store, cid = snapshot_at(source, taken)
        store.append_verbatim(records(source)[taken:read], taken)
        fresh = Journal(store, snapshot_every=1)  # reads the snapshot's pieces as it folds, keeps one at ``read``
        assert fresh.state(cid).sequence == read
        kept = newest(store, cid)
        assert kept.sequence == read
        # The pieces as read were referred to, the others written: row for row, the full replay's.
        assert_kept_as_replayed(store, cid, kept, replayed(source, read), recorded_timeline(source, read))
        assert fresh.state(cid) == replayed(source, read)
        assert Journal(store, snapshot_every=10**9).state(cid) == replayed(source, read)
        # No row is kept that no snapshot refers to.
        assert set(k for c, k in store._pieces if c == cid) == set().union(
            *(refs for (c, _), refs in store._piece_refs.items() if c == cid))


def test_a_note_decodes_none_of_the_slices_it_does_not_read(folds_as_routed):
    store, cid = snapshot_at("generated", 650)
    journal = Journal(store, snapshot_every=10**9)
    journal.execute(cid, AddNote(text="a one-shot note"))
    rules = journal.state(cid).rules
    assert "tallies" in deferred_fields(rules.drama)
    assert "blocks" in deferred_fields(rules.drama.scenes)  # split into its fields: its blocks not read
    assert {"rolls", "consequences"} <= set(deferred_fields(rules.procedure))
    assert "pcs" in deferred_fields(rules.characters)
    assert journal.state(cid) == replay(in_context([to_recorded(r) for r in store.read(cid)])[0])


def test_an_economy_write_decodes_none_of_the_slices_it_does_not_read_and_equals_a_full_replay(folds_as_routed):
    store, cid = snapshot_at("generated", 650)
    journal = Journal(store, snapshot_every=1)
    state = journal.state(cid)
    journal.execute(cid, TransferTokens(source="kitty", destination=state.table.gm, amount=1, reason="a ruling"),
                    by=state.table.gm)
    rules = journal.state(cid).rules
    assert "tallies" in deferred_fields(rules.drama)
    assert "blocks" in deferred_fields(rules.drama.scenes)  # split into its fields: its blocks not read
    assert {"rolls", "consequences"} <= set(deferred_fields(rules.procedure))
    kept = newest(store, cid)
    history = in_context([to_recorded(r) for r in store.read(cid)])
    full = replay(history[0])
    assert kept.sequence == full.sequence > 650
    assert_kept_as_replayed(store, cid, kept, full, history[1][-1])  # what was not read, referred to as read
    assert journal.state(cid) == full


def largest_piece(store: MemoryStore, cid: str) -> str:
    [kept] = [s for s in store.snapshots(cid) if s.kind == STATE]
    refs = store._piece_refs[(cid, STATE)]
    return max(refs, key=lambda d: len(store._pieces[(cid, d)]))


@pytest.mark.parametrize("damage", ["does not decode", "is gone"])
def test_a_piece_that_does_not_decode_or_is_gone_is_replayed_from_the_log_and_the_command_goes_on(caplog, damage):
    store, cid = snapshot_at("generated", 650)
    digest = largest_piece(store, cid)
    if damage == "is gone":
        del store._pieces[(cid, digest)]
    else:  # damaged, though the header and every other piece are sound
        store._pieces[(cid, digest)] = '["pm",["not a tag"]]'
    journal = Journal(store, snapshot_every=10**9)
    with caplog.at_level(logging.WARNING):
        journal.execute(cid, AddNote(text="after the damage"))
        journal.execute(cid, TransferTokens(source="kitty", destination=journal.state(cid).table.gm, amount=1,
                                            reason="a ruling"), by=journal.state(cid).table.gm)
        state = journal.state(cid)
        assert state == replay(in_context([to_recorded(r) for r in store.read(cid)])[0])
    assert "cannot be read at " in caplog.text


def test_a_chunk_that_is_gone_is_taken_from_a_replay_and_the_rest_of_its_map_from_its_rows(caplog):
    with small_chunks():
        store, cid = snapshot_at("generated", 650)
        journal = Journal(store, snapshot_every=10**9)
        drama = journal.state(cid).rules.drama
        assert isinstance(drama.calling, ChunkedMap) and len(drama.calling.chunks) > 2
        [(_, _, cell), *_] = drama.calling.chunks
        del store._pieces[(cid, cell.origin)]
        full = replayed("generated", 650)
        with caplog.at_level(logging.WARNING):
            assert dict(drama.calling) == dict(full.rules.drama.calling)
        assert "cannot be read at rules.drama.calling" in caplog.text


def test_a_note_decodes_one_chunk_of_the_long_maps_it_reads(folds_as_routed):
    """A note reads the calling order and the cast's draws of the episode in play: a chunk of each
    map keyed by episode, not the map."""
    with small_chunks():
        store, cid = snapshot_at("generated", 650)
        journal = Journal(store, snapshot_every=10**9)
        journal.execute(cid, AddNote(text="a one-shot note"))
        state = journal.state(cid)
        for value in (state.rules.drama.calling, state.rules.characters.cast.latest):
            assert isinstance(value, ChunkedMap) and len(value.chunks) > 2
            assert sum(cell.decoded for _, _, cell in value.chunks) <= 2
        assert state == replay(in_context([to_recorded(r) for r in store.read(cid)])[0])


def test_a_process_whose_pieces_were_let_go_meanwhile_still_keeps_its_next_snapshot(caplog):
    """A long-lived process reads pieces when first read; if the rows it read from were let go
    meanwhile (newer snapshots by other processes refer to none of them), its next snapshot cannot
    refer to them: it is written whole from the state, the pieces gone replayed from the log."""
    store, cid = snapshot_at("generated", 650)
    journal = Journal(store, snapshot_every=1)
    journal.state(cid)  # read from the snapshot at 650, its pieces not fetched yet
    for key in [k for k in store._pieces if k[0] == cid]:
        del store._pieces[key]
    store._piece_refs.clear()
    store.append_verbatim(records("generated")[650:660], 650)
    with caplog.at_level(logging.WARNING):
        assert journal.state(cid) == replayed("generated", 660)
    kept = newest(store, cid)
    assert kept.sequence == 660
    assert_kept_as_replayed(store, cid, kept, replayed("generated", 660), recorded_timeline("generated", 660))
    assert "cannot be read at " in caplog.text


def test_a_note_after_a_scene_opened_in_the_tail_decodes_one_chunk_of_the_scenes(folds_as_routed):
    """The scenes by number (the timeline's, the drama part's calls: ``Numbered``) are kept in blocks,
    the map of blocks in chunks: a scene opened after the snapshot sets one block, and the note after
    it decodes the chunk that block falls in, not every scene."""
    with small_chunks():
        taken = 640
        store, cid = snapshot_at("generated", taken)
        opened = next(i for i, r in enumerate(records("generated")) if i >= taken and r.event_type == "scene.opened")
        store.append_verbatim(records("generated")[taken:opened + 1], taken)
        journal = Journal(store, snapshot_every=10**9)
        journal.execute(cid, AddNote(text="a note in the scene just opened"))
        state = journal.state(cid)
        for numbered in (state.timeline.scenes, state.timeline.scene_episode, state.rules.drama.scenes):
            assert isinstance(numbered.blocks, ChunkedMap) and len(numbered.blocks.chunks) > 4
            assert sum(cell.decoded for _, _, cell in numbered.blocks.chunks) <= 1
        assert state.timeline.scene == state.timeline.last_scene and state.timeline.scene in state.rules.drama.scenes
        assert state == replay(in_context([to_recorded(r) for r in store.read(cid)])[0])
