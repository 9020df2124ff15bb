"""A state snapshot's pieces as rows of their own, on SQLite and PostgreSQL: a journal made before
those tables existed (its snapshot one text) still opens and is read from that snapshot, then keeps
its next one in rows; a write stores only the pieces it changed and lets go of those no snapshot
refers to; a piece row rewritten in the database is named by ``verify``. No test here measures a time."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select, text
from test_snapshots import SAMPLE, records, replayed
from test_tamper_evidence import _imported, writer_role  # noqa: F401, F811 (the writer role's fixture)

from yarnlog.app.journal import Journal
from yarnlog.app.snapshot_rows import is_rows_header
from yarnlog.app.snapshots import STATE, encode_state, state_codec
from yarnlog.core.envelope import to_recorded
from yarnlog.core.state import in_context
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.protocol import Snapshot
from yarnlog.persistence.sql_snapshots import PIECE_REFS, PIECES


def counts(store, cid: str) -> tuple[int, int]:
    with store.engine.connect() as conn:
        pieces = conn.execute(select(func.count()).select_from(PIECES).where(PIECES.c.campaign_id == cid)).scalar()
        refs = conn.execute(select(func.count(PIECE_REFS.c.digest.distinct())).where(
            PIECE_REFS.c.campaign_id == cid)).scalar()
    return pieces, refs


def test_a_journal_made_before_piece_rows_opens_from_its_old_snapshot_then_keeps_rows(db_url):
    store = open_store(db_url)
    try:
        store.append_verbatim(records("sample")[:150], 0)
        codec, fingerprint = state_codec("yarn")
        timeline = in_context([to_recorded(r) for r in records("sample")[:150]])[1][-1]
        old = encode_state(codec, replayed("sample", 150), timeline)  # the snapshot as one text, as before
        store.save_snapshot(Snapshot("lantern", STATE, fingerprint, 150, store.event_hash("lantern", 150), old, "then"))
        with store.engine.begin() as conn:  # the tables this version added, not there yet
            conn.execute(text("DROP TABLE state_piece_refs"))
            conn.execute(text("DROP TABLE state_pieces"))
    finally:
        store.close()
    store = open_store(db_url, create=False)
    try:
        store.append_verbatim(records("sample")[150:196], 150)
        journal = Journal(store, snapshot_every=10**9)
        assert journal.state("lantern") == replayed("sample", 196)  # started from the old snapshot
        assert journal.check_snapshots("lantern")[0].status == "agrees"
        Journal(store, snapshot_every=1).state("lantern")  # keeps one at 196, in rows: the tables made
        kept = {s.kind: s for s in store.snapshots("lantern")}
        assert kept[STATE].sequence == 150 and is_rows_header(kept["state:2"].data)
        pieces, refs = counts(store, "lantern")
        assert pieces == refs > 10
        store.append_verbatim(records("sample")[196:], 196)
        assert Journal(store, snapshot_every=10**9).state("lantern") == replayed("sample", 206)
        assert [c.status for c in Journal(store).check_snapshots("lantern")] == ["agrees", "agrees"]
    finally:
        store.close()


def test_a_write_stores_only_the_pieces_it_changed_and_lets_go_of_those_no_snapshot_refers_to(db_url):
    store = open_store(db_url)
    try:
        store.append_verbatim(records("sample")[:190], 0)
        Journal(store, snapshot_every=1).state("lantern")  # a snapshot at 190
        before, _ = counts(store, "lantern")
        written = []
        save = store.save_state_rows

        def saving(snapshot, pieces, refs):
            written.append((len(pieces), len(refs)))
            save(snapshot, pieces, refs)

        store.save_state_rows = saving
        journal = Journal(store, snapshot_every=1)
        for n in range(191, 207):  # a snapshot after every event, three slots taken in turn
            store.append_verbatim(records("sample")[n - 1:n], n - 1)
            assert journal.state("lantern") == replayed("sample", n)
        assert all(new < refs / 2 for new, refs in written), written  # most pieces referred to, not written
        pieces, refs = counts(store, "lantern")
        assert pieces == refs  # every piece kept is one a snapshot refers to
        assert pieces < before * 2
        assert all(c.status == "agrees" for c in Journal(store).check_snapshots("lantern"))
    finally:
        store.close()


def test_verify_names_a_state_snapshot_whose_piece_row_was_rewritten(cli, db_url):
    assert cli("--db", db_url, "import", str(SAMPLE))[0] == 0
    store = open_store(db_url)
    try:
        Journal(store, snapshot_every=1).state("lantern")  # a state snapshot in rows at the head
        with store.engine.begin() as conn:
            rows = conn.execute(select(PIECES.c.digest, func.length(PIECES.c.data)).where(
                PIECES.c.campaign_id == "lantern")).all()
            largest = max(rows, key=lambda r: r[1])[0]
            smallest = min(rows, key=lambda r: r[1])[0]
            forged = conn.execute(select(PIECES.c.data).where(PIECES.c.digest == smallest)).scalar()
            conn.execute(PIECES.update().where(PIECES.c.digest == largest).values(data=forged))
    finally:
        store.close()
    code, out, _ = cli("--db", db_url, "verify", "--json")
    assert code == 1
    assert [f["event_type"] for f in json.loads(out)["faults"]] == [STATE]


def test_a_forged_row_header_claiming_another_state_is_named_too(cli, db_url):
    assert cli("--db", db_url, "import", str(SAMPLE))[0] == 0
    store = open_store(db_url)
    try:
        Journal(store, snapshot_every=1).state("lantern")
        [kept] = [s for s in store.snapshots("lantern") if s.kind == STATE]
        head = json.loads(kept.data)
        head[4] = 10  # the sequence it claims is not the event it was taken at
        store.save_snapshot(kept._replace(data=json.dumps(head, separators=(",", ":"))))
    finally:
        store.close()
    code, out, _ = cli("--db", db_url, "verify", "--json")
    assert code == 1


@pytest.mark.postgres
def test_the_writer_role_keeps_state_snapshots_in_rows_and_lets_go_of_their_old_pieces(cli, writer_role, request):  # noqa: F811
    """The role that owns nothing (``db grant --writer``) may write a state snapshot's pieces and delete
    those no snapshot refers to any more: caches, unlike the events it may only append."""
    from conftest import _postgres_url
    from sqlalchemy.engine import make_url

    from yarnlog.core.timeline import AddNote
    from yarnlog.persistence.factory import database_url

    owner_url = _postgres_url(request)
    _imported(cli, owner_url)
    assert cli("--db", owner_url, "db", "grant", "--writer", writer_role)[0] == 0
    writer_url = make_url(database_url(owner_url)).set(username=writer_role).render_as_string(hide_password=False)
    store = open_store(writer_url)
    try:
        journal = Journal(store, snapshot_every=1)
        for n in range(5):  # a snapshot after each: the three slots taken in turn, old pieces let go
            journal.execute("lantern", AddNote(text=f"note {n}"))
        kept = [s for s in store.snapshots("lantern") if s.kind.startswith(STATE)]
        assert len(kept) == 3 and all(is_rows_header(s.data) for s in kept)
        pieces, refs = counts(store, "lantern")
        assert pieces == refs
        assert all(c.status == "agrees" for c in Journal(store).check_snapshots("lantern"))
    finally:
        store.close()
