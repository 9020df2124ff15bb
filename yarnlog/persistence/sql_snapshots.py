"""The snapshots table on SQLModel: the caches of folded state and views beside the events.

One row per campaign and kind, replaced when a newer one is written: they are not history, carry
no triggers, and are never trusted over the events (see :class:`~yarnlog.persistence.protocol.Snapshot`).
A state snapshot kept in rows has its pieces in ``state_pieces`` (keyed by campaign and the digest of
the piece's text, so a piece unchanged from one snapshot to the next keeps its row) and the pieces
each snapshot refers to in ``state_piece_refs``; a piece no snapshot refers to is deleted when a
snapshot is written. Caches all: rows are replaced and deleted at will, unlike events.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import Connection, Index, Table, Text, and_, delete, exists, func, literal, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Field, SQLModel

from yarnlog.persistence.protocol import Snapshot, StoreError


class SnapshotRecord(SQLModel, table=True):
    """The row mapping of :class:`~yarnlog.persistence.protocol.Snapshot`: a cache, replaced at will.

    One row per campaign and kind; ``fingerprint`` and ``sequence`` say what it was written under
    and at, ``head_hash`` the hash of event ``sequence`` then (checked before it is used).
    """

    __tablename__ = "snapshots"

    campaign_id: str = Field(primary_key=True, max_length=64)
    kind: str = Field(primary_key=True, max_length=80)
    fingerprint: str = Field(max_length=64)
    sequence: int
    head_hash: str = Field(max_length=64)
    data: str = Field(sa_type=Text)
    saved_at: str


class StatePieceRecord(SQLModel, table=True):
    """A piece of a state snapshot kept in rows, keyed by the digest of its text."""

    __tablename__ = "state_pieces"

    campaign_id: str = Field(primary_key=True, max_length=64)
    digest: str = Field(primary_key=True, max_length=64)
    data: str = Field(sa_type=Text)


class StatePieceRefRecord(SQLModel, table=True):
    """That the state snapshot ``kind`` of the campaign refers to piece ``digest`` (it must be kept)."""

    __tablename__ = "state_piece_refs"
    __table_args__ = (Index("state_piece_refs_by_digest", "campaign_id", "digest"),)

    campaign_id: str = Field(primary_key=True, max_length=64)
    kind: str = Field(primary_key=True, max_length=80)
    digest: str = Field(primary_key=True, max_length=64)


#: The snapshots table (disposable caches beside the events).
SNAPSHOTS: Table = SQLModel.metadata.tables[SnapshotRecord.__tablename__]
#: A state snapshot's pieces and which snapshot refers to which (caches too).
PIECES: Table = SQLModel.metadata.tables[StatePieceRecord.__tablename__]
PIECE_REFS: Table = SQLModel.metadata.tables[StatePieceRefRecord.__tablename__]
#: Every table of caches.
CACHE_TABLES = (SNAPSHOTS, PIECES, PIECE_REFS)
#: Rows a statement names at most (within every driver's limit on parameters).
_BATCH = 500


class SqlSnapshotRecorder:
    """The :class:`~yarnlog.persistence.protocol.SnapshotRecorder` of a SQL database; the store that
    keeps the events gives the engine and its connections."""

    engine: Engine

    def _connection(self) -> AbstractContextManager[Connection]:
        """A connection to read on."""
        raise NotImplementedError

    def _writing(self) -> AbstractContextManager[Connection]:
        """A write transaction."""
        raise NotImplementedError

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self.save_snapshots([snapshot])

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        if not snapshots:
            return
        try:
            self._upsert_snapshots(snapshots)
        except DBAPIError:
            # A journal created before snapshots existed (opened without ``create``): add the
            # table, which touches no event, and try once more.
            try:
                self._create_cache_tables()
                self._upsert_snapshots(snapshots)
            except DBAPIError as exc:
                raise StoreError(f"cannot keep a snapshot: {str(exc.orig).strip().splitlines()[0]}") from None

    def _create_cache_tables(self) -> None:
        with self._writing() as conn:
            SQLModel.metadata.create_all(conn, tables=list(CACHE_TABLES))

    def _insert(self) -> Any:
        # Both dialects spell the upsert alike (INSERT ... ON CONFLICT), each with its own class.
        from sqlalchemy.dialects import postgresql, sqlite

        return postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert

    def _upsert_snapshots(self, snapshots: Sequence[Snapshot], conn: Connection | None = None) -> None:
        statement = self._insert()(SNAPSHOTS)
        statement = statement.on_conflict_do_update(
            index_elements=[SNAPSHOTS.c.campaign_id, SNAPSHOTS.c.kind],
            set_={name: statement.excluded[name] for name in Snapshot._fields if name not in ("campaign_id", "kind")},
        )
        if conn is not None:
            conn.execute(statement, [s._asdict() for s in snapshots])
            return
        with self._writing() as conn:  # one transaction, however many rows
            conn.execute(statement, [s._asdict() for s in snapshots])

    def save_state_rows(self, snapshot: Snapshot, pieces: Mapping[str, str], refs: Collection[str]) -> None:
        try:
            self._save_state_rows(snapshot, pieces, refs)
        except DBAPIError:
            try:  # a journal created before these tables existed: add them (no event touched), once more
                self._create_cache_tables()
                self._save_state_rows(snapshot, pieces, refs)
            except DBAPIError as exc:
                raise StoreError(f"cannot keep a snapshot: {str(exc.orig).strip().splitlines()[0]}") from None

    def _save_state_rows(self, snapshot: Snapshot, pieces: Mapping[str, str], refs: Collection[str]) -> None:
        cid, kind, wanted = snapshot.campaign_id, snapshot.kind, set(refs)
        with self._writing() as conn:  # one transaction: the pieces, what refers to them, the header
            if pieces:
                statement = self._insert()(PIECES).on_conflict_do_nothing(
                    index_elements=[PIECES.c.campaign_id, PIECES.c.digest])
                rows = [{"campaign_id": cid, "digest": d, "data": t} for d, t in pieces.items()]
                for start in range(0, len(rows), _BATCH):
                    conn.execute(statement, rows[start:start + _BATCH])
            # The pieces referred to and not written now must still be there (another writer may
            # have let them go since they were read): else no snapshot rather than one with holes.
            others = sorted(wanted.difference(pieces))
            found = 0
            for start in range(0, len(others), _BATCH):
                found += conn.execute(select(func.count()).select_from(PIECES).where(
                    PIECES.c.campaign_id == cid, PIECES.c.digest.in_(others[start:start + _BATCH]))).scalar_one()
            if found != len(others):
                raise StoreError("a piece of the state this snapshot was read from is no longer kept")
            held = set(conn.execute(select(PIECE_REFS.c.digest).where(
                PIECE_REFS.c.campaign_id == cid, PIECE_REFS.c.kind == kind)).scalars())
            dropped, added = sorted(held - wanted), sorted(wanted - held)
            for start in range(0, len(dropped), _BATCH):
                conn.execute(delete(PIECE_REFS).where(PIECE_REFS.c.campaign_id == cid, PIECE_REFS.c.kind == kind,
                                                      PIECE_REFS.c.digest.in_(dropped[start:start + _BATCH])))
            if added:
                rows = [{"campaign_id": cid, "kind": kind, "digest": d} for d in added]
                for start in range(0, len(rows), _BATCH):
                    conn.execute(PIECE_REFS.insert(), rows[start:start + _BATCH])
            self._upsert_snapshots([snapshot], conn)
            if dropped:  # the pieces no snapshot of the campaign refers to any more
                referred = exists().where(and_(PIECE_REFS.c.campaign_id == PIECES.c.campaign_id,
                                               PIECE_REFS.c.digest == PIECES.c.digest))
                conn.execute(delete(PIECES).where(PIECES.c.campaign_id == cid, ~referred))

    def load_pieces(self, campaign_id: str, digests: Collection[str]) -> dict[str, str]:
        wanted, found = sorted(set(digests)), dict[str, str]()
        try:
            with self._connection() as conn:
                for start in range(0, len(wanted), _BATCH):
                    query = select(PIECES.c.digest, PIECES.c.data).where(
                        PIECES.c.campaign_id == campaign_id, PIECES.c.digest.in_(wanted[start:start + _BATCH]))
                    found.update((digest, data) for digest, data in conn.execute(query))
        except DBAPIError:
            return {}  # no table of pieces yet: nothing cached
        return found

    def load_snapshot(self, campaign_id: str, kind: str, fingerprint: str) -> Snapshot | None:
        query = select(*(SNAPSHOTS.c[name] for name in Snapshot._fields)).where(
            SNAPSHOTS.c.campaign_id == campaign_id, SNAPSHOTS.c.kind == kind, SNAPSHOTS.c.fingerprint == fingerprint)
        try:
            with self._connection() as conn:
                row = conn.execute(query).first()
        except DBAPIError:
            return None  # no snapshots table yet (an older journal opened read-only): nothing cached
        return Snapshot(*row) if row is not None else None

    def load_snapshots(self, campaign_id: str, kinds: Collection[str], fingerprint: str) -> list[Snapshot]:
        return self.load_each(campaign_id, dict.fromkeys(kinds, fingerprint))

    def load_each(self, campaign_id: str, wanted: Mapping[str, str]) -> list[Snapshot]:
        kinds, found = sorted(wanted), list[Snapshot]()
        try:
            with self._connection() as conn:
                for start in range(0, len(kinds), 500):  # within every driver's limit on parameters
                    query = select(*(SNAPSHOTS.c[name] for name in Snapshot._fields)).where(
                        SNAPSHOTS.c.campaign_id == campaign_id, SNAPSHOTS.c.kind.in_(kinds[start:start + 500]))
                    # One row a kind (its key): one written under another fingerprint is not the one wanted.
                    found.extend(s for s in map(Snapshot._make, conn.execute(query)) if s.fingerprint == wanted[s.kind])
        except DBAPIError:
            return []  # no snapshots table yet (an older journal opened read-only): nothing cached
        return found

    def snapshots(self, campaign_id: str, *, data: bool = True) -> list[Snapshot]:
        columns = (SNAPSHOTS.c[name] if data or name != "data" else literal("").label(name)
                   for name in Snapshot._fields)
        query = select(*columns).where(
            SNAPSHOTS.c.campaign_id == campaign_id).order_by(SNAPSHOTS.c.kind)
        try:
            with self._connection() as conn:
                return [Snapshot(*row) for row in conn.execute(query)]
        except DBAPIError:
            return []
