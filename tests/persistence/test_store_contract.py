"""The store contract: what every :class:`EventStore` guarantees, on memory, SQLite and PostgreSQL.

Modelled on eventsourcing's recorder test cases (AggregateRecorderTestCase,
ApplicationRecorderTestCase): append and read back, windows, ordering, many campaigns,
optimistic conflicts, what the store itself refuses, imports, and writers racing from threads.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import replace

import pytest

from yarnlog.app.verify import check_chain
from yarnlog.core.chain import GENESIS, event_hash, seal
from yarnlog.core.envelope import STORED_FIELDS, NewEvent, StoredEvent
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.memory import MemoryStore
from yarnlog.persistence.protocol import ConcurrencyConflict, Snapshot, StoreError
from yarnlog.persistence.sql import EVENTS


def note(text: str) -> NewEvent:
    return NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": text})


def texts(records: list[StoredEvent]) -> list[str]:
    return [r.payload for r in records]


def chained(campaign: str, words: list[str], after: StoredEvent | None = None) -> list[StoredEvent]:
    """Records of ``campaign`` chained after ``after`` (or from the start), as an import carries them."""
    records, prev, sequence = [], after.hash if after else GENESIS, after.sequence if after else 0
    for word in words:
        sequence += 1
        records.append(seal(campaign, sequence, note(word), prev))
        prev = records[-1].hash
    return records


# -- append and read ----------------------------------------------------------------------------


def test_a_new_store_is_empty(any_store):
    assert any_store.campaigns() == []
    assert any_store.last_sequence("c") == 0
    assert any_store.read("c") == []
    assert any_store.read("c", after=3, upto=9) == []


def test_appended_events_read_back_exactly_as_returned(any_store):
    written = any_store.append("c", 0, [note("a"), note("b")])
    assert [r.sequence for r in written] == [1, 2]
    assert any_store.read("c") == written
    assert all(type(r) is StoredEvent for r in any_store.read("c"))
    assert texts(written) == ['{"text":"a"}', '{"text":"b"}']


def test_append_assigns_gap_free_sequences_and_chains_hashes(any_store):
    any_store.append("c", 0, [note("a"), note("b")])
    any_store.append("c", 2, [note("c")])
    records = any_store.read("c")
    assert [r.sequence for r in records] == [1, 2, 3]
    assert records[0].prev_hash == GENESIS
    assert [r.prev_hash for r in records[1:]] == [r.hash for r in records[:-1]]
    assert all(r.hash == event_hash(r.header(), {"text": text}, r.prev_hash) for r, text in zip(records, "abc"))
    assert check_chain(records, "c") == []


def test_appending_nothing_writes_nothing(any_store):
    assert any_store.append("c", 0, []) == []
    assert any_store.campaigns() == []
    any_store.append_verbatim([], 0)
    assert any_store.campaigns() == []


def test_read_windows_are_after_exclusive_and_upto_inclusive(any_store):
    any_store.append("c", 0, [note(str(i)) for i in range(1, 6)])
    assert [r.sequence for r in any_store.read("c", after=2)] == [3, 4, 5]
    assert [r.sequence for r in any_store.read("c", upto=2)] == [1, 2]
    assert [r.sequence for r in any_store.read("c", after=1, upto=3)] == [2, 3]
    assert any_store.read("c", after=5) == []
    assert any_store.read("c", after=3, upto=3) == []
    assert [r.sequence for r in any_store.read("c", upto=99)] == [1, 2, 3, 4, 5]


# -- streaming reads ----------------------------------------------------------------------------


@pytest.mark.parametrize("batch", [1, 2, 1000])
@pytest.mark.parametrize(("after", "upto"), [(0, None), (2, None), (0, 2), (1, 3), (5, None), (3, 3), (0, 99)])
def test_iter_read_yields_what_read_returns_whatever_the_batch(any_store, batch, after, upto):
    any_store.append("c", 0, [note(str(i)) for i in range(1, 6)])
    any_store.append("other", 0, [note("x")])
    streamed = any_store.iter_read("c", after=after, upto=upto, batch=batch)
    assert iter(streamed) is streamed  # an iterator, not a list built up front
    assert list(streamed) == any_store.read("c", after=after, upto=upto)


def test_iter_read_of_an_unknown_campaign_yields_nothing(any_store):
    assert list(any_store.iter_read("nobody")) == []


def test_iter_read_keeps_only_the_event_types_asked_for(any_store):
    created = NewEvent(str(uuid.uuid4()), "episode.started", 1, "2026-11-21T20:00:00.000000Z", "Maya",
                       "everyone", {"number": 1})
    any_store.append("c", 0, [note("a"), created, note("b")])
    assert [r.sequence for r in any_store.iter_read("c", event_types={"episode.started"}, batch=1)] == [2]
    assert [r.sequence for r in any_store.iter_read("c", event_types=["note", "episode.started"])] == [1, 2, 3]
    assert [r.sequence for r in any_store.iter_read("c", after=1, event_types={"note"})] == [3]
    assert list(any_store.iter_read("c", event_types=set())) == []


def test_iter_read_is_one_view_taken_when_it_starts(any_store):
    any_store.append("c", 0, [note("a"), note("b"), note("c")])
    streamed = any_store.iter_read("c", batch=1)
    first = next(streamed)
    any_store.append("c", 3, [note("d")])  # a writer is not held back by an open read
    assert [first, *streamed] == any_store.read("c", upto=3)
    assert any_store.last_sequence("c") == 4


def test_an_abandoned_iter_read_releases_what_it_holds(any_store):
    any_store.append("c", 0, [note("a"), note("b")])
    for _ in range(12):  # more than a connection pool holds
        streamed = any_store.iter_read("c", batch=1)
        next(streamed)
        streamed.close()
    any_store.append("c", 2, [note("c")])
    assert [r.sequence for r in any_store.iter_read("c")] == [1, 2, 3]


def test_iter_read_refuses_an_empty_batch(any_store):
    with pytest.raises(ValueError, match="batch"):
        list(any_store.iter_read("c", batch=0))


def test_campaigns_have_their_own_sequences_and_chains(any_store):
    any_store.append("two", 0, [note("b")])
    any_store.append("one", 0, [note("a")])
    any_store.append("two", 1, [note("b2")])
    any_store.append("one", 1, [note("a2")])
    assert any_store.campaigns() == ["one", "two"]
    assert any_store.last_sequence("one") == any_store.last_sequence("two") == 2
    assert texts(any_store.read("one")) == ['{"text":"a"}', '{"text":"a2"}']
    assert {r.campaign_id for r in any_store.read("two")} == {"two"}
    assert check_chain(any_store.read("one"), "one") == check_chain(any_store.read("two"), "two") == []


# -- optimistic concurrency ---------------------------------------------------------------------


@pytest.mark.parametrize("expected", [0, 2])
def test_a_stale_or_future_expected_sequence_is_a_conflict_and_writes_nothing(any_store, expected):
    any_store.append("c", 0, [note("a")])
    with pytest.raises(ConcurrencyConflict) as info:
        any_store.append("c", expected, [note("late"), note("later")])
    assert (info.value.campaign_id, info.value.expected, info.value.actual) == ("c", expected, 1)
    assert "retry" in str(info.value)
    assert texts(any_store.read("c")) == ['{"text":"a"}']


def test_a_reused_event_id_is_refused_and_nothing_is_written(any_store):
    first = note("a")
    any_store.append("c", 0, [first])
    with pytest.raises(StoreError):
        any_store.append("c", 1, [note("b"), replace(note("c"), event_id=first.event_id)])
    assert any_store.last_sequence("c") == 1


def test_concurrent_writers_from_threads_one_wins_each_sequence_and_none_is_lost(any_store):
    writers, notes_each = 4, 8
    any_store.append("c", 0, [note("start")])
    start = threading.Barrier(writers)
    wins: list[int] = []
    conflicts = []
    errors = []

    def write(writer: int) -> None:
        start.wait()
        try:
            for i in range(notes_each):
                while True:
                    seen = any_store.last_sequence("c")
                    try:
                        [won] = any_store.append("c", seen, [note(f"w{writer} n{i}")])
                    except ConcurrencyConflict:
                        conflicts.append(writer)
                        continue
                    assert won.sequence == seen + 1
                    wins.append(won.sequence)
                    break
        except Exception as exc:  # surfaced below: a thread's failure must fail the test
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    records = any_store.read("c")
    assert sorted(wins) == list(range(2, writers * notes_each + 2))  # exactly one winner per sequence
    assert [r.sequence for r in records] == list(range(1, writers * notes_each + 2))
    assert len(set(texts(records))) == len(records)  # nothing lost, nothing written twice
    assert check_chain(records, "c") == []


def test_a_writer_that_saw_an_older_head_gets_a_conflict_from_the_database(db_url):
    """A store remembers the last head it saw to append without reading; another writer moving the
    campaign on makes the database refuse that append, and it is still reported as a conflict."""
    first, second = open_store(db_url), open_store(db_url, create=False)
    try:
        first.append("c", 0, [note("a")])
        assert len(second.read("c")) == 1  # the second store has seen event 1
        first.append("c", 1, [note("b")])
        with pytest.raises(ConcurrencyConflict) as info:
            second.append("c", 1, [note("late")])
        assert (info.value.expected, info.value.actual) == (1, 2)
        second.append("c", 2, [note("c")])
        first.append("c", 3, [note("d")])  # the first store's memory is now old: it reads the head instead
        assert texts(first.read("c")) == texts(second.read("c")) == [f'{{"text":"{t}"}}' for t in "abcd"]
        assert check_chain(first.read("c"), "c") == []
    finally:
        first.close()
        second.close()


# -- what the store itself refuses: imports ---------------------------------------------------


def test_append_verbatim_writes_chained_records_as_they_are(any_store):
    records = chained("c", ["a", "b", "c"])
    any_store.append_verbatim(records[:2], 0)
    any_store.append_verbatim(records[2:], 2)
    assert any_store.read("c") == records
    any_store.append("c", 3, [note("d")])
    assert check_chain(any_store.read("c"), "c") == []


def test_append_verbatim_at_the_wrong_place_is_a_conflict(any_store):
    records = chained("c", ["a", "b"])
    any_store.append_verbatim(records[:1], 0)
    with pytest.raises(ConcurrencyConflict):
        any_store.append_verbatim(records[1:], 0)
    assert any_store.last_sequence("c") == 1


@pytest.mark.parametrize("broken", ["sequence gap", "wrong prev_hash", "wrong first prev_hash", "repeated"])
def test_the_store_refuses_records_that_do_not_extend_its_chain(any_store, broken):
    any_store.append("c", 0, [note("stored")])
    [stored] = any_store.read("c")
    good = chained("c", ["a", "b", "c"], after=stored)
    bad = {
        "sequence gap": [good[0], good[2]],
        "wrong prev_hash": [good[0], replace(good[1], prev_hash=stored.hash)],
        "wrong first prev_hash": chained("c", ["a"], after=replace(stored, hash="e" * 64)),
        "repeated": [good[0], replace(good[0], event_id=str(uuid.uuid4()))],
    }[broken]
    with pytest.raises(StoreError) as info:
        any_store.append_verbatim(bad, 1)
    assert not isinstance(info.value, ConcurrencyConflict)
    assert any_store.read("c") == [stored]  # all or nothing


@pytest.mark.parametrize("forged", ["a forged hash", "a payload changed under its hash", "another header"])
def test_the_store_refuses_a_record_whose_hash_is_not_that_of_its_bytes(any_store, forged):
    """The chain holds (right sequence, right prev_hash) but the hash is not the record's own."""
    any_store.append("c", 0, [note("stored")])
    [stored] = any_store.read("c")
    [good] = chained("c", ["a"], after=stored)
    bad = {
        "a forged hash": replace(good, hash="f" * 64),
        "a payload changed under its hash": replace(good, payload='"forged"'),
        "another header": replace(good, recorded_by="Mallory"),
    }[forged]
    with pytest.raises(StoreError, match="must carry their own hash") as info:
        any_store.append_verbatim([bad], 1)
    assert not isinstance(info.value, ConcurrencyConflict)
    assert any_store.read("c") == [stored]


def test_append_verbatim_refuses_records_of_two_campaigns(any_store):
    with pytest.raises(StoreError, match="one campaign"):
        any_store.append_verbatim(chained("a", ["x"]) + chained("b", ["y"]), 0)
    assert any_store.campaigns() == []


def test_a_closed_store_can_be_opened_again_on_a_database(db_url):
    """Closing releases connections; the events stay in the database for the next opening."""
    first = open_store(db_url)
    written = first.append("c", 0, [note("kept")])
    first.close()
    again = open_store(db_url, create=False)
    try:
        assert again.read("c") == written
    finally:
        again.close()


# -- opening stores -----------------------------------------------------------------------------


def test_open_store_picks_the_implementation_from_the_url(tmp_path):
    from yarnlog.persistence.sqlite import SqliteStore

    memory = open_store("memory://")
    assert isinstance(memory, MemoryStore)
    assert open_store("memory://") is not memory  # each opening is a fresh, empty store
    sqlite = open_store(tmp_path / "j.db")
    assert isinstance(sqlite, SqliteStore)
    sqlite.close()
    with pytest.raises(InvalidCommand, match="unsupported journal database 'mysql'"):
        open_store("mysql://x/y")
    with pytest.raises(StoreError, match="no journal database at"):
        open_store(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()


def test_the_events_table_maps_exactly_the_envelope_and_the_command_beside_it():
    assert [c.name for c in EVENTS.columns] == ["position", *STORED_FIELDS, "command_id", "command_digest"]


# -- the head, one event's hash, and snapshots (caches beside the events) ------------------------


def snap(campaign: str, kind: str = "state", fingerprint: str = "fp1", sequence: int = 1, head_hash: str = "h",
         data: str = '["x"]') -> Snapshot:
    return Snapshot(campaign, kind, fingerprint, sequence, head_hash, data, "2026-11-23T13:00:00.000000Z")


def test_the_head_and_an_events_hash_are_read_alone(any_store):
    assert any_store.head("c") is None
    assert any_store.event_hash("c", 1) is None
    first, second = any_store.append("c", 0, [note("a"), note("b")])
    assert any_store.head("c") == (2, second.hash)
    assert any_store.event_hash("c", 1) == first.hash
    assert any_store.event_hash("c", 2) == second.hash
    assert any_store.event_hash("c", 3) is None
    assert any_store.event_hash("c", 0) is None
    assert any_store.head("other") is None


def test_a_snapshot_is_kept_per_campaign_and_kind_and_read_back_under_its_fingerprint(any_store):
    big = "[" + ",".join(['"' + "x" * 100 + '"'] * 2000) + "]"  # 200 KB: a TEXT column, not a short string
    any_store.save_snapshot(snap("c", data=big))
    any_store.save_snapshot(snap("c", kind="view:tokens", data='{"a": 1}'))
    any_store.save_snapshot(snap("d"))
    assert any_store.load_snapshot("c", "state", "fp1") == snap("c", data=big)
    assert any_store.load_snapshot("c", "view:tokens", "fp1").data == '{"a": 1}'
    assert any_store.load_snapshot("c", "state", "fp2") is None  # another code's snapshot is not this one's
    assert any_store.load_snapshot("e", "state", "fp1") is None
    assert [s.kind for s in any_store.snapshots("c")] == ["state", "view:tokens"]
    assert any_store.snapshots("e") == []
    # Without their text: what a reader chooses one by, the large state not fetched.
    assert any_store.snapshots("c", data=False) == [s._replace(data="") for s in any_store.snapshots("c")]


def test_several_snapshots_are_read_at_once_each_under_its_own_fingerprint(any_store):
    any_store.save_snapshot(snap("c", kind="view:tokens", fingerprint="tok", data="[1]"))
    any_store.save_snapshot(snap("c", kind="view:bennies", fingerprint="ben-old", data="[2]"))
    any_store.save_snapshot(snap("c", kind="view:scene-casts", fingerprint="cast", data="[3]"))
    any_store.save_snapshot(snap("d", kind="view:tokens", fingerprint="tok", data="[4]"))
    found = any_store.load_each("c", {"view:tokens": "tok", "view:bennies": "ben", "view:calling-order": "order",
                                      "view:scene-casts": "cast"})
    # the bennies view kept by another code is not the one wanted; none is kept for the calling order
    assert sorted((s.kind, s.data) for s in found) == [("view:scene-casts", "[3]"), ("view:tokens", "[1]")]
    assert any_store.load_each("c", {}) == [] and any_store.load_each("e", {"view:tokens": "tok"}) == []
    assert sorted(s.kind for s in any_store.load_snapshots("c", ["view:tokens", "view:bennies"], "tok")) == [
        "view:tokens"]


def test_a_snapshot_is_a_cache_replaced_by_the_next_one_while_events_stay(any_store):
    records = any_store.append("c", 0, [note("a"), note("b")])
    any_store.save_snapshot(snap("c", sequence=1, head_hash=records[0].hash))
    any_store.save_snapshot(snap("c", fingerprint="fp2", sequence=2, head_hash=records[1].hash, data="[2]"))
    assert any_store.load_snapshot("c", "state", "fp1") is None
    assert any_store.load_snapshot("c", "state", "fp2") == snap("c", fingerprint="fp2", sequence=2,
                                                              head_hash=records[1].hash, data="[2]")
    assert len(any_store.snapshots("c")) == 1
    assert any_store.read("c") == records  # snapshots never touch the history
    assert any_store.campaigns() == ["c"]  # nor make a campaign exist


def test_a_journal_made_before_snapshots_gets_the_table_when_one_is_first_kept(tmp_path):
    from sqlalchemy import text

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = open_store(url)
    store.append("c", 0, [note("a")])
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE snapshots"))
    store.close()
    old = open_store(url, create=False)  # as the command line opens an existing journal
    assert old.load_snapshot("c", "state", "fp1") is None
    assert old.snapshots("c") == []
    old.save_snapshot(snap("c"))
    assert old.load_snapshot("c", "state", "fp1") == snap("c")
    old.close()
