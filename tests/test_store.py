"""The append-only store, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import multiprocessing as mp
import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.chain import GENESIS
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.store import ConcurrencyConflict, EventStore, NewEvent


def note(text_: str) -> NewEvent:
    return NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": text_})


def test_append_assigns_gap_free_sequences_and_chains_hashes(store):
    store.append("c", 0, [note("a"), note("b")])
    store.append("c", 2, [note("c")])
    records = store.read("c")
    assert [r.sequence for r in records] == [1, 2, 3]
    assert records[0].prev_hash == GENESIS
    assert [r.prev_hash for r in records[1:]] == [r.hash for r in records[:-1]]
    assert [r.position for r in records] == sorted(r.position for r in records)


def test_campaigns_have_their_own_sequences(store):
    store.append("one", 0, [note("a")])
    store.append("two", 0, [note("b")])
    assert store.last_sequence("one") == store.last_sequence("two") == 1
    assert store.campaigns() == ["one", "two"]


def test_stale_expected_sequence_is_a_conflict_and_writes_nothing(store):
    store.append("c", 0, [note("a")])
    with pytest.raises(ConcurrencyConflict) as info:
        store.append("c", 0, [note("late"), note("later")])
    assert "retry" in str(info.value)
    assert [r.payload for r in store.read("c")] == ['{"text":"a"}']


@pytest.mark.parametrize("statement", [
    "UPDATE events SET payload = '{\"text\":\"edited\"}'",
    "DELETE FROM events",
])
def test_database_refuses_update_and_delete(store, statement):
    store.append("c", 0, [note("a")])
    with pytest.raises(DBAPIError, match="append-only"):
        with store.engine.begin() as conn:
            conn.execute(text(statement))
    assert store.read("c")[0].payload == '{"text":"a"}'


def test_database_refuses_a_sequence_gap_inserted_behind_the_code(store):
    store.append("c", 0, [note("a")])
    first = store.read("c")[0]
    with pytest.raises(DBAPIError):
        with store.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO events (campaign_id, sequence, event_id, event_type, schema_version, recorded_at, "
                "recorded_by, visibility, payload, prev_hash, hash) VALUES "
                "('c', 3, :id, 'note', 1, 'x', 'Maya', 'everyone', '{}', :prev, :h)"),
                {"id": str(uuid.uuid4()), "prev": first.hash, "h": "f" * 64})
    assert store.last_sequence("c") == 1


def _drop_guards(store: EventStore) -> None:
    with store.engine.begin() as conn:
        if store.is_sqlite:
            conn.execute(text("DROP TRIGGER events_refuse_update"))
        else:
            conn.execute(text("DROP TRIGGER events_refuse_change ON events"))


def test_verify_finds_a_byte_changed_behind_the_codes_back(journal, campaign):
    journal.execute(campaign, AddNote(text="The fog rolls in."))
    journal.execute(campaign, AddNote(text="Ana lies to Ben."))
    target = journal.store.read(campaign)[-2]
    assert verify(journal.store.read(campaign), campaign).ok

    _drop_guards(journal.store)
    with journal.store.engine.begin() as conn:
        conn.execute(text("UPDATE events SET payload = :p WHERE campaign_id = :c AND sequence = :s"),
                     {"p": target.payload.replace("fog", "fig"), "c": campaign, "s": target.sequence})

    report = verify(journal.store.read(campaign), campaign)
    assert not report.ok
    first = report.faults[0]
    assert (first.sequence, first.event_type) == (target.sequence, "note")
    assert "hash mismatch" in first.problem


def test_verify_finds_a_rehashed_forgery_at_the_next_link(journal, campaign):
    """A forger who also recomputes the edited event's hash breaks the next event's prev_hash."""
    from yarnlog.core.chain import event_hash

    journal.execute(campaign, AddNote(text="true"))
    journal.execute(campaign, AddNote(text="after"))
    records = journal.store.read(campaign)
    target = records[-2]
    forged = {**target.envelope(), "payload": {"text": "forged"}}
    _drop_guards(journal.store)
    with journal.store.engine.begin() as conn:
        conn.execute(text("UPDATE events SET payload = :p, hash = :h WHERE campaign_id = :c AND sequence = :s"),
                     {"p": '{"text":"forged"}', "h": event_hash(forged, forged["payload"], target.prev_hash),
                      "c": campaign, "s": target.sequence})
    faults = verify(journal.store.read(campaign), campaign).faults
    assert [(f.sequence, "prev_hash" in f.problem) for f in faults] == [(records[-1].sequence, True)]


# -- several processes writing at once ------------------------------------------------------

WRITERS = 4
NOTES_EACH = 12


def _writer(url: str, campaign: str, writer: int, conflicts) -> None:
    journal = Journal(EventStore(url, create=False))
    for i in range(NOTES_EACH):
        while True:
            try:
                journal.execute(campaign, AddNote(text=f"writer {writer} note {i}"), retries=1)
                break
            except ConcurrencyConflict:
                with conflicts.get_lock():
                    conflicts.value += 1


def test_concurrent_writer_processes_leave_no_gap_and_no_duplicate(journal, campaign, db_url):
    ctx = mp.get_context("spawn")
    conflicts = ctx.Value("i", 0)
    before = journal.store.last_sequence(campaign)
    procs = [ctx.Process(target=_writer, args=(db_url, campaign, w, conflicts)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    records = journal.store.read(campaign)
    assert [r.sequence for r in records] == list(range(1, before + WRITERS * NOTES_EACH + 1))
    texts = [r.payload for r in records[before:]]
    assert len(set(texts)) == WRITERS * NOTES_EACH
    assert verify(records, campaign).ok
