"""What only the databases do: triggers that refuse changes behind the code's back, and several
processes writing at once. On SQLite and PostgreSQL alike; what every store guarantees is in
``test_store_contract.py``."""

from __future__ import annotations

import multiprocessing as mp
import uuid

import pytest
from conftest import seat_lantern
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.chain import event_hash
from yarnlog.core.envelope import NewEvent
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.protocol import ConcurrencyConflict, StoreError
from yarnlog.persistence.sqlite import SqliteStore


def note(text_: str) -> NewEvent:
    return NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": text_})


@pytest.fixture
def journal(sql_store) -> Journal:
    """A journal on a database (overrides the in-memory default: these tests go behind the code)."""
    return Journal(sql_store)


@pytest.fixture
def campaign(journal) -> str:
    return seat_lantern(journal)


@pytest.mark.parametrize("statement", [
    "UPDATE events SET payload = '{\"text\":\"edited\"}'",
    "DELETE FROM events",
])
def test_database_refuses_update_and_delete(sql_store, statement):
    sql_store.append("c", 0, [note("a")])
    with pytest.raises(DBAPIError, match="append-only"):
        with sql_store.engine.begin() as conn:
            conn.execute(text(statement))
    assert sql_store.read("c")[0].payload == '{"text":"a"}'


def test_postgresql_refuses_truncate(sql_store):
    if isinstance(sql_store, SqliteStore):
        pytest.skip("SQLite has no TRUNCATE (its DELETE guard covers it)")
    sql_store.append("c", 0, [note("a")])
    with pytest.raises(DBAPIError, match="append-only: TRUNCATE refused"):
        with sql_store.engine.begin() as conn:
            conn.execute(text("TRUNCATE events"))
    assert sql_store.last_sequence("c") == 1


def test_database_refuses_a_sequence_gap_inserted_behind_the_code(sql_store):
    sql_store.append("c", 0, [note("a")])
    first = sql_store.read("c")[0]
    with pytest.raises(DBAPIError):
        with sql_store.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO events (campaign_id, sequence, event_id, event_type, schema_version, recorded_at, "
                "recorded_by, visibility, payload, prev_hash, hash) VALUES "
                "('c', 3, :id, 'note', 1, 'x', 'Maya', 'everyone', '{}', :prev, :h)"),
                {"id": str(uuid.uuid4()), "prev": first.hash, "h": "f" * 64})
    assert sql_store.last_sequence("c") == 1


def test_database_keeps_insertion_order_in_its_own_position_column(sql_store):
    sql_store.append("one", 0, [note("a")])
    sql_store.append("two", 0, [note("b")])
    sql_store.append("one", 1, [note("c")])
    with sql_store.engine.connect() as conn:
        rows = list(conn.execute(text("SELECT campaign_id, sequence FROM events ORDER BY position")))
    assert [tuple(r) for r in rows] == [("one", 1), ("two", 1), ("one", 2)]


def _drop_guards(store) -> None:
    with store.engine.begin() as conn:
        if isinstance(store, SqliteStore):
            conn.execute(text("DROP TRIGGER events_refuse_update"))
        else:
            conn.execute(text("DROP TRIGGER events_refuse_change ON events"))


def test_verify_finds_a_byte_changed_behind_the_codes_back(journal, campaign):
    journal.execute(campaign, AddNote(text="The fog rolls in."))
    journal.execute(campaign, AddNote(text="Ana lies to Ben."))
    target = journal.stored_events(campaign)[-2]
    assert journal.verify(campaign).ok

    _drop_guards(journal.store)
    with journal.store.engine.begin() as conn:
        conn.execute(text("UPDATE events SET payload = :p WHERE campaign_id = :c AND sequence = :s"),
                     {"p": target.payload.replace("fog", "fig"), "c": campaign, "s": target.sequence})

    report = journal.verify(campaign)
    assert not report.ok
    first = report.faults[0]
    assert (first.sequence, first.event_type) == (target.sequence, "note")
    assert "hash mismatch" in first.problem


def test_verify_finds_a_rehashed_forgery_at_the_next_link(journal, campaign):
    """A forger who also recomputes the edited event's hash breaks the next event's prev_hash."""
    journal.execute(campaign, AddNote(text="true"))
    journal.execute(campaign, AddNote(text="after"))
    records = journal.stored_events(campaign)
    target = records[-2]
    _drop_guards(journal.store)
    with journal.store.engine.begin() as conn:
        conn.execute(text("UPDATE events SET payload = :p, hash = :h WHERE campaign_id = :c AND sequence = :s"),
                     {"p": '{"text":"forged"}', "h": event_hash(target.header(), {"text": "forged"}, target.prev_hash),
                      "c": campaign, "s": target.sequence})
    journal.store.create_schema()  # the forger puts the guards back, so that only the chain can tell
    faults = journal.verify(campaign).faults
    assert [(f.sequence, "prev_hash" in f.problem) for f in faults] == [(records[-1].sequence, True)]


# -- several processes writing at once ------------------------------------------------------

WRITERS = 4
NOTES_EACH = 12


def _writer(url: str, campaign: str, writer: int, conflicts) -> None:
    journal = Journal(open_store(url, create=False))
    for i in range(NOTES_EACH):
        while True:
            try:
                journal.execute(campaign, AddNote(text=f"writer {writer} note {i}"), retries=1)
                break
            except ConcurrencyConflict:
                with conflicts.get_lock():
                    conflicts.value += 1


@pytest.mark.slow
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
    records = journal.stored_events(campaign)
    assert [r.sequence for r in records] == list(range(1, before + WRITERS * NOTES_EACH + 1))
    texts = [r.payload for r in records[before:]]
    assert len(set(texts)) == WRITERS * NOTES_EACH
    assert verify(records, campaign).ok


def test_a_pooled_postgresql_connection_that_died_while_idle_is_replaced(sql_store, monkeypatch):
    if isinstance(sql_store, SqliteStore):
        pytest.skip("a SQLite connection has no server to lose")
    sql_store.append("c", 0, [note("a")])
    with sql_store.engine.connect() as conn:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    with open_store(str(sql_store.engine.url.render_as_string(hide_password=False))).engine.connect() as admin:
        admin.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    monkeypatch.setattr(type(sql_store), "PING_AFTER_IDLE", 0.0)  # whatever sat in the pool is pinged
    sql_store.append("c", 1, [note("b")])
    assert [r.sequence for r in sql_store.read("c")] == [1, 2]


def test_a_sqlite_append_of_one_event_is_one_statement_and_of_several_one_immediate_transaction(sql_store):
    """Outside a turn one event is one INSERT in autocommit (SQLite's own transaction for a statement);
    several are inserted between BEGIN IMMEDIATE and COMMIT; a reused id refuses them all."""
    if not isinstance(sql_store, SqliteStore):
        pytest.skip("SQLite's statements")
    from sqlalchemy import event

    sql_store.append("c", 0, [note("a")])
    sent: list[tuple[str, str]] = []

    def traced(sql: str) -> None:
        # SQLite traces a statement again for each trigger program it runs: one statement sent, once.
        if not sent or sent[-1][1] != sql:
            sent.append((sql.split()[0], sql))

    sql_store.engine.dispose()  # connections made from here on are traced
    event.listen(sql_store.engine, "connect", lambda dbapi, _record: dbapi.set_trace_callback(traced))
    sql_store.append("c", 1, [note("b")])
    assert [word for word, _ in sent] == ["INSERT"]
    sent.clear()
    sql_store.append("c", 2, [note("c"), note("d")])
    assert [word for word, _ in sent] == ["BEGIN", "INSERT", "INSERT", "COMMIT"]
    reused = sql_store.read("c")[-1].event_id
    sent.clear()
    with pytest.raises(StoreError):
        sql_store.append("c", 4, [note("e"), NewEvent(reused, "note", 1, "2026-11-21T20:00:00.000000Z", "Maya",
                                                      "everyone", {"text": "f"})])
    assert sent[0][0] == "BEGIN" and sent[-1][0] == "ROLLBACK"
    assert sql_store.last_sequence("c") == 4
    assert [r.sequence for r in sql_store.read("c")] == [1, 2, 3, 4]


def test_a_postgresql_append_is_one_statement_that_is_its_own_transaction(sql_store, monkeypatch):
    """Outside a turn an append of any number of events is one INSERT run in autocommit: one exchange
    with the server, no BEGIN or COMMIT of its own; all its events or none (a reused id refuses all)."""
    if isinstance(sql_store, SqliteStore):
        pytest.skip("PostgreSQL's round trips")
    import psycopg

    sql_store.append("c", 0, [note("a")])
    sent: list[tuple[str, bool]] = []
    execute, commit = psycopg.Cursor.execute, psycopg.Connection.commit

    def traced_execute(cursor, query, *args, **kwargs):
        sent.append((str(query).split()[0], cursor.connection.autocommit))
        return execute(cursor, query, *args, **kwargs)

    def traced_commit(connection):
        sent.append(("COMMIT", connection.autocommit))
        return commit(connection)

    monkeypatch.setattr(psycopg.Cursor, "execute", traced_execute)
    monkeypatch.setattr(psycopg.Connection, "commit", traced_commit)
    sql_store.append("c", 1, [note("b"), note("c"), note("d")])
    assert sent == [("INSERT", True)]
    assert [r.sequence for r in sql_store.read("c")] == [1, 2, 3, 4]
    reused = sql_store.read("c")[-1].event_id
    with pytest.raises(StoreError):
        sql_store.append("c", 4, [note("e"), NewEvent(reused, "note", 1, "2026-11-21T20:00:00.000000Z", "Maya",
                                                      "everyone", {"text": "f"})])
    assert sql_store.last_sequence("c") == 4
    with sql_store.engine.connect() as conn:  # the pooled connection is handed out as the pool hands them
        assert conn.connection.dbapi_connection.autocommit is False


# -- several processes creating one campaign at once --------------------------------------------------

#: Each process imports the command line first, then waits for the same instant to run ``init``, so
#: that they meet in the database (its tables created or not yet, the first event written or not yet).
_INIT_AT = """
import sys, time
from yarnlog.cli.main import main
start, sys.argv = float(sys.argv[1]), ["yarnlog", *sys.argv[2:]]
time.sleep(max(0.0, start - time.time()))
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("round_", ["a fresh database", "tables made already"])
def test_concurrent_inits_of_one_campaign_make_it_once_and_the_others_are_told_it_exists(db_url, round_):
    """Issue 21: the losers of concurrent ``init``s exited 4 ("deadlock detected", a raw "duplicate
    key") or 5 ("retry"), where a retry can only say "already exists". Each loser says so, exit 3."""
    import subprocess
    import sys
    import time

    if round_ == "tables made already":
        open_store(db_url).close()
    racers = 6
    start = time.time() + 3.0
    procs = [subprocess.Popen([sys.executable, "-c", _INIT_AT, str(start), "--db", db_url, "init", "harbor",
                               "--title", "Lantern Harbor", "--gm", "Maya"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(racers)]
    results = [(p.wait(120), *p.communicate()) for p in procs]
    won = [r for r in results if r[0] == 0]
    lost = [r for r in results if r[0] != 0]
    assert len(won) == 1, results
    assert [(code, err) for code, _, err in lost] == [(3, "error: campaign 'harbor' already exists\n")] * (racers - 1)
    store = open_store(db_url, create=False)
    try:
        assert [r.event_type for r in store.read("harbor")] == ["campaign.created"]
    finally:
        store.close()
