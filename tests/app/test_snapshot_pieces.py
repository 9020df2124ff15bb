"""A state snapshot in pieces: a state read from one decodes a piece (a slice of a part, a field of the
timeline) only when something reads it, writes back the pieces never read as the text they were
read from, and is equal, once written to, to a full replay; a piece that turns out not to decode
is replayed from the log, never an error of the command. No test here measures a time."""

from __future__ import annotations

import json
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_snapshots import records, replayed  # the sample and a generated campaign, replayed

from yarnlog.app.journal import Journal
from yarnlog.app.snapshots import STATE, STATE_KINDS, encode_state, state_codec
from yarnlog.core.codec import deferred_fields
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
@given(st.sampled_from(["sample", "generated"]), st.data())
def test_a_state_started_from_a_snapshot_in_pieces_then_written_to_equals_a_full_replay(source, data):
    total = len(records(source))
    taken = data.draw(st.integers(1, total - 1), label="snapshot taken at")
    read = data.draw(st.integers(taken + 1, total), label="written to up to")
    store, cid = snapshot_at(source, taken)
    store.append_verbatim(records(source)[taken:read], taken)
    fresh = Journal(store, snapshot_every=1)  # reads the snapshot's pieces as it folds, keeps one at ``read``
    assert fresh.state(cid).sequence == read
    kept = newest(store, cid)
    assert kept.sequence == read
    # The pieces never decoded were written back as they were read: the text is the full replay's.
    codec, _ = state_codec("yarn")
    assert kept.data == encode_state(codec, replayed(source, read), recorded_timeline(source, read))
    assert fresh.state(cid) == replayed(source, read)
    assert Journal(store, snapshot_every=10**9).state(cid) == replayed(source, read)


def test_a_note_decodes_none_of_the_slices_it_does_not_read(folds_as_routed):
    store, cid = snapshot_at("generated", 650)
    journal = Journal(store, snapshot_every=10**9)
    journal.execute(cid, AddNote(text="a one-shot note"))
    rules = journal.state(cid).rules
    assert {"tallies", "scenes"} <= set(deferred_fields(rules.drama))
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
    assert {"tallies", "scenes"} <= set(deferred_fields(rules.drama))
    assert {"rolls", "consequences"} <= set(deferred_fields(rules.procedure))
    kept = newest(store, cid)
    history = in_context([to_recorded(r) for r in store.read(cid)])
    full = replay(history[0])
    assert kept.sequence == full.sequence > 650
    codec, _ = state_codec("yarn")
    assert kept.data == encode_state(codec, full, history[1][-1])  # what was not read, written back as read
    assert journal.state(cid) == full


def test_a_piece_that_does_not_decode_is_replayed_from_the_log_and_the_command_goes_on(caplog):
    store, cid = snapshot_at("generated", 650)
    [kept] = [s for s in store.snapshots(cid) if s.kind == STATE]
    header, *pieces = kept.data.split("\n")
    head = json.loads(header)
    tallies = max(range(len(pieces)), key=lambda i: len(pieces[i]) if pieces[i].startswith('["pm"') else 0)
    pieces[tallies] = '["pm",["not a tag"]]'  # damaged, though the header and every other piece are sound
    head[6] = [len(p) for p in pieces]
    store.save_snapshot(kept._replace(data="\n".join([json.dumps(head, separators=(",", ":")), *pieces])))
    journal = Journal(store, snapshot_every=10**9)
    with caplog.at_level(logging.WARNING):
        journal.execute(cid, AddNote(text="after the damage"))
        assert journal.state(cid) == replay(in_context([to_recorded(r) for r in store.read(cid)])[0])
    assert "cannot be read at rules." in caplog.text
