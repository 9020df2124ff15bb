"""The event store on a PostgreSQL server: its triggers (row and TRUNCATE guards, the chain check)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Any, ClassVar, get_type_hints

from sqlalchemy import Connection, create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, OperationalError

from yarnlog.core.chain import GENESIS, HASHED_FIELDS
from yarnlog.core.envelope import STORED_FIELDS, StoredEvent
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.protocol import HASH_REFUSED, StoreError
from yarnlog.persistence.sql import EVENTS, SqlStore, astuple


def _canonical_body() -> str:
    """The SQL text of :func:`~yarnlog.core.chain.stored_event_hash`'s body for the row ``NEW``: the
    hashed fields in sorted order, text as JSON strings, integers as numbers, the payload as stored."""
    kinds = get_type_hints(StoredEvent)
    parts: list[str] = []
    for name in sorted((*HASHED_FIELDS, "payload", "prev_hash")):
        if name == "payload":
            value = "NEW.payload"
        elif kinds[name] is int:
            value = f"NEW.{name}::text"
        else:
            value = f"to_json(NEW.{name})::text"
        parts.append(f"'{',' if parts else '{'}\"{name}\":' || {value}")
    return "(" + " || ".join(parts) + " || '}')"


_CANONICAL_BODY = _canonical_body()

#: The first key of the journal's advisory locks (``yrlg`` in ASCII): keeps them apart from any other
#: application's advisory locks on the same server; the second key is the campaign's.
LOCK_SPACE = 0x79726C67


#: Every guard function runs with this search path, and names the journal's own tables with their
#: schema: a role that may only insert (the writer) cannot put an object of its own in the function's
#: way, neither a temporary table (``pg_temp`` comes last here, where it is otherwise searched first
#: for tables) nor a function or operator in a schema it may create in (only ``pg_catalog`` is searched).
PINNED = "pg_catalog, pg_temp"
PINNED_PATH = f"SET search_path = {PINNED}"


def guards(schema: str) -> tuple[str, ...]:
    """The statements that create the guard functions and triggers of the events table in ``schema``
    (a quoted identifier): the row and TRUNCATE guards, the campaign's append lock, the chain and
    hash checks."""
    events = f"{schema}.events"

    def function(name: str, body: str) -> str:
        return (f"CREATE OR REPLACE FUNCTION {schema}.{name}() RETURNS trigger LANGUAGE plpgsql {PINNED_PATH} "
                f"AS $$ {body} $$")

    def trigger(name: str, when: str, each: str, function: str) -> str:
        return (f"CREATE OR REPLACE TRIGGER {name} BEFORE {when} ON {events} "
                f"FOR EACH {each} EXECUTE FUNCTION {schema}.{function}()")

    return (
        function("yarnlog_refuse_change",
                 "BEGIN RAISE EXCEPTION 'yarnlog events are append-only: % refused', TG_OP; END"),
        trigger("events_refuse_change", "UPDATE OR DELETE", "ROW", "yarnlog_refuse_change"),
        trigger("events_refuse_truncate", "TRUNCATE", "STATEMENT", "yarnlog_refuse_change"),
        function("yarnlog_check_chain", f"""
           DECLARE last_sequence integer; last_hash text;
           BEGIN
             SELECT sequence, hash INTO last_sequence, last_hash FROM {events}
              WHERE campaign_id = NEW.campaign_id ORDER BY sequence DESC LIMIT 1;
             IF NEW.sequence <> COALESCE(last_sequence, 0) + 1
                OR NEW.prev_hash <> COALESCE(last_hash, '{GENESIS}') THEN
               RAISE EXCEPTION 'yarnlog events must extend the chain: sequence gap or wrong prev_hash'
                 USING ERRCODE = 'unique_violation';
             END IF;
             RETURN NEW;
           END"""),
        trigger("events_chain_on_insert", "INSERT", "ROW", "yarnlog_check_chain"),
        # The hash must be the SHA-256 of the row's own bytes, the canonical JSON stored_event_hash
        # builds, spelled in SQL (PostgreSQL's to_json escapes text exactly as Python's
        # json.dumps(ensure_ascii=False) does). sha256() is built into PostgreSQL 11+, so no extension
        # (pgcrypto) has to be installed by a superuser.
        function("yarnlog_check_hash", f"""
           BEGIN
             IF NEW.hash IS DISTINCT FROM encode(sha256(convert_to({_CANONICAL_BODY}, 'UTF8')), 'hex') THEN
               RAISE EXCEPTION '{HASH_REFUSED}' USING ERRCODE = 'check_violation';
             END IF;
             RETURN NEW;
           END"""),
        trigger("events_hash_on_insert", "INSERT", "ROW", "yarnlog_check_hash"),
        # Appends to one campaign take turns: each insert first takes the campaign's transaction-scoped
        # advisory lock, so a second writer waits for the first to commit and then meets its event (the
        # chain check that follows reads afresh) instead of racing it into the unique key. Named to
        # fire before ``events_chain_on_insert`` (PostgreSQL runs a table's triggers in name order).
        # Inside the insert's own round trip: no extra exchange with the server per append.
        function("yarnlog_serialize_append",
                 f"BEGIN PERFORM pg_advisory_xact_lock({LOCK_SPACE}, hashtext(NEW.campaign_id)); RETURN NEW; END"),
        trigger("events_append_serialized", "INSERT", "ROW", "yarnlog_serialize_append"),
    )


class PostgresStore(SqlStore):
    """Events in a PostgreSQL database (a ``postgresql+psycopg://`` URL)."""

    GUARDS = ("events_refuse_change", "events_refuse_truncate", "events_append_serialized", "events_chain_on_insert",
              "events_hash_on_insert")
    # The table of the journal's own schema (never one of the session's temporary tables); 'D': disabled. A
    # trigger whose function runs with the caller's search path (made by an older yarnlog) is no guard.
    ENABLED_TRIGGERS_SQL = (
        "SELECT t.tgname FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid "
        f"WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND p.proconfig @> ARRAY['search_path={PINNED}'] "
        "AND t.tgrelid = pg_catalog.to_regclass(pg_catalog.quote_ident(pg_catalog.current_schema()) "
        "|| '.' || pg_catalog.quote_ident(:table))")
    #: A pooled connection idle longer than this (seconds) is pinged before it is used again.
    PING_AFTER_IDLE: ClassVar[float] = 1.0
    #: How long a writer waits for its turn at a campaign (seconds), as SQLite's busy timeout.
    TURN_WAIT: ClassVar[float] = 30.0

    def __init__(self, url: str, *, create: bool = True):
        engine = create_engine(url)
        self._ping_when_idle(engine)
        super().__init__(engine, create=create)
        quote = self.engine.dialect.identifier_preparer.quote
        self._copy_sql = (f"COPY {quote(EVENTS.name)} ({', '.join(quote(name) for name in STORED_FIELDS)}) "
                          "FROM STDIN")

    def _busy(self, exc: OperationalError) -> bool:
        return getattr(exc.orig, "sqlstate", None) == "55P03"  # lock_not_available: the turn did not come

    def _lock_campaign(self, conn: Connection, campaign_id: str) -> None:
        """Take the lock every insert of the campaign takes (``events_append_serialized``) for the turn's
        transaction; waited for no longer than the turn may wait (``lock_timeout``)."""
        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(self.TURN_WAIT * 1000)}")
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_SPACE, campaign_id))

    def _lock_schema(self, conn: Connection) -> None:
        """Processes that open a new journal at once (concurrent ``init``s) create its tables and
        guards in turn, so none of them meets another's half-made table or trigger."""
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s, hashtext(current_schema()))", (LOCK_SPACE,))

    def _guards(self, conn: Connection) -> tuple[str, ...]:
        schema = conn.execute(text("SELECT current_schema()")).scalar_one()
        return guards(self.engine.dialect.identifier_preparer.quote(schema))

    def create_schema(self) -> None:
        """Create the tables and guards, unless another role owns them (the owner ran the migrations).

        The application may connect as a writer role that owns nothing (``yarnlog db grant``); such
        a role may not, and need not, create or replace anything.
        """
        try:
            with self.engine.connect() as conn:
                owned = conn.execute(text("SELECT pg_has_role(relowner, 'USAGE') FROM pg_class "
                                          "WHERE oid = to_regclass('events')")).scalar()
        except OperationalError as exc:
            raise StoreError(f"cannot open the journal database: {exc.orig}") from None
        if owned is False:
            return
        super().create_schema()

    def grant_writer(self, role: str) -> list[str]:
        """Let ``role`` read and append events and nothing else; run as the tables' owner.

        The writer gets SELECT and INSERT on the events (and the position sequence INSERT draws
        from), and may rewrite the snapshot caches; without ownership it cannot ALTER (so not
        DISABLE TRIGGER), DROP or TRUNCATE, and without those privileges not UPDATE or DELETE.
        What was granted, as SQL.
        """
        quote = self.engine.dialect.identifier_preparer.quote
        with self._writing() as conn:
            found = conn.execute(text("SELECT rolsuper FROM pg_roles WHERE rolname = :role"), {"role": role}).first()
            if found is None:
                raise InvalidCommand(f"no role {role!r} on this server: create it first (CREATE ROLE ... LOGIN)")
            if found[0]:
                raise InvalidCommand(f"{role} is a superuser, whom no privilege binds: the writer must be an "
                                     "ordinary role")
            mine = conn.execute(text("SELECT bool_and(pg_has_role(relowner, 'USAGE')) FROM pg_class "
                                     "WHERE oid IN (to_regclass('events'), to_regclass('snapshots'))")).scalar()
            if not mine:  # a non-owner's GRANT is a warning, not an error: it would say nothing and do nothing
                raise InvalidCommand("run 'db grant' as the role that owns the journal's tables (it ran the "
                                     "migrations), not as the writer")
            owns = conn.execute(text("SELECT pg_has_role(:role, relowner, 'USAGE') FROM pg_class "
                                     "WHERE oid IN (to_regclass('events'), to_regclass('snapshots'))"),
                                {"role": role}).scalars().all()
            if any(owns):
                raise InvalidCommand(f"{role} owns the journal's tables (or is a member of their owner): the "
                                     "writer must own nothing, so that it cannot alter them")
            schema = conn.execute(text("SELECT current_schema()")).scalar_one()
            sequence = conn.execute(text("SELECT pg_get_serial_sequence('events', 'position')")).scalar_one()
            who = quote(role)
            statements = [
                f"REVOKE ALL ON events, snapshots, state_pieces, state_piece_refs FROM {who}",
                f"GRANT USAGE ON SCHEMA {quote(schema)} TO {who}",
                f"GRANT SELECT, INSERT ON events TO {who}",
                f"GRANT USAGE ON SEQUENCE {sequence} TO {who}",
                f"GRANT SELECT, INSERT, UPDATE ON snapshots TO {who}",
                # A state snapshot's pieces: caches, so deleted once no snapshot refers to them.
                f"GRANT SELECT, INSERT, DELETE ON state_pieces, state_piece_refs TO {who}",
            ]
            for statement in statements:
                conn.execute(text(statement))
        return statements

    def _ping_when_idle(self, engine: Engine) -> None:
        """Test a pooled connection before use if it has been idle, and replace it if it is dead.

        ``pool_pre_ping`` would ping at every checkout: one more round trip for each durable
        append. A connection dies while it sits in the pool
        (a server restart, an idle timeout), so only one that has sat there is pinged; raising
        ``DisconnectionError`` from a checkout makes the pool discard it and connect afresh.
        """

        @event.listens_for(engine, "checkin")
        def _checked_in(_dbapi_connection: Any, record: Any) -> None:
            record.info["yarnlog_idle_since"] = time.monotonic()

        @event.listens_for(engine, "checkout")
        def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
            since = record.info.get("yarnlog_idle_since")
            if since is None or time.monotonic() - since <= self.PING_AFTER_IDLE:
                return  # a new connection, or one just used
            try:
                engine.dialect.do_ping(dbapi_connection)
            except Exception as exc:  # noqa: BLE001 - any failure to answer means: replace it
                raise DisconnectionError(f"the pooled connection is dead ({exc})") from exc

    def _streaming_cursor(self, dbapi_connection: Any) -> Any:
        """A server-side (named) cursor: PostgreSQL sends the rows ``fetchmany`` asks for, no more.

        It lives in the read's transaction (psycopg's ``ServerCursor``; the name is unique in
        the process, so concurrent reads on pooled connections never collide).
        """
        return dbapi_connection.cursor(name=f"yarnlog_read_{next(_CURSOR_NUMBERS)}")

    def _insert_appended(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """An append's rows in one exchange with the server: one INSERT of every row, run in autocommit
        on a pooled connection, so the statement is its own transaction (atomic, committed when it
        returns) and neither BEGIN nor COMMIT costs a round trip of its own (two of the three a
        transaction of one INSERT takes). The triggers are those of any insert: the campaign's lock,
        then the chain and hash checks of each row (a row-level trigger sees the rows the statement
        inserted before it). Inside a turn, in the turn's transaction as before."""
        if getattr(self._turn, "conn", None) is not None:
            super()._insert_appended(rows)
            return
        sql = self._append_sql if len(rows) == 1 else \
            f"{self._append_into} VALUES {', '.join([self._append_row] * len(rows))}"
        pooled = self.engine.raw_connection()  # the pool's checkout, so a connection long idle is pinged
        driver: Any = pooled.dbapi_connection
        try:
            driver.autocommit = True
            with self._pooled_cursor(pooled, sql, pooled.invalidate) as cursor:
                cursor.execute(sql, [value for row in rows for value in row])
            driver.autocommit = False  # as the pool hands its connections out
        except BaseException:
            if not driver.closed:
                driver.autocommit = False  # the statement rolled itself back: idle again
            raise
        finally:
            pooled.close()

    def _insert_all(self, conn: Connection, records: Sequence[StoredEvent]) -> None:
        """An import's records by COPY: the same rows and the same triggers, in fewer exchanges than INSERTs."""
        with self._driver(conn, self._copy_sql, many=True) as cursor, cursor.copy(self._copy_sql) as copy:
            for record in records:
                copy.write_row(astuple(record))


#: Numbers for the names of server-side cursors (``next`` on it is atomic under the GIL).
_CURSOR_NUMBERS = itertools.count(1)
