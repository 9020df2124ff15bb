"""Tamper evidence that covers the tail and the writer (issue 11), on SQLite and PostgreSQL.

The attacks of the issue, each as it is carried out: the newest events deleted behind the code,
a history rewritten and re-hashed from some event on, a row inserted with the right ``prev_hash``
and a forged ``hash``, an export cut short, a file changed under its hashes and imported over the
campaign it came from, and (PostgreSQL) the application's own role trying to lift the guards.
"""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from yarnlog.core.chain import GENESIS, event_hash, seal, stored_event_hash
from yarnlog.core.envelope import STORED_FIELDS, NewEvent, StoredEvent
from yarnlog.persistence.factory import database_url, open_store
from yarnlog.persistence.sqlite import SqliteStore

SAMPLE = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"
SAMPLE_EVENTS = 206


def _value(out: str, key: str) -> str:
    return json.loads(out)[key]


def _imported(cli, url: str) -> str:
    """The sample imported into ``url``; its digest then."""
    code, _, err = cli("--db", url, "import", str(SAMPLE))
    assert code == 0, err
    code, out, _ = cli("--db", url, "digest", "--json")
    assert code == 0
    return _value(out, "digest")


def _drop_guards(url: str) -> None:
    """What anyone with the owner's rights can do: drop the triggers that refuse UPDATE and DELETE."""
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER events_refuse_update"))
            conn.execute(text("DROP TRIGGER events_refuse_delete"))
        else:
            conn.execute(text("DROP TRIGGER events_refuse_change ON events"))
    engine.dispose()


def _run_sql(url: str, sql: str, rows: list[dict] | None = None) -> None:
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        conn.execute(text(sql), rows or [{}])
    engine.dispose()


# -- the tail ------------------------------------------------------------------------------------


def test_a_cut_tail_passes_the_chain_but_not_a_digest_kept_before_the_cut(cli, db_url):
    """The issue's case: events 200 to 206 deleted verify as a sound journal of 199; the digest taken
    at 206 (pasted in the group chat) names what is missing."""
    digest = _imported(cli, db_url)
    _drop_guards(db_url)
    _run_sql(db_url, "DELETE FROM events WHERE sequence >= 200")
    open_store(db_url).close()  # the owner puts the guards back, so that verify has no more to say

    code, out, _ = cli("--db", db_url, "verify", "--json")
    assert code == 0 and json.loads(out)["events"] == 199  # the chain alone cannot tell
    code, out, err = cli("--db", db_url, "verify", "--digest", digest)
    assert code == 1
    assert "events 200 to 206 were removed" in err


def test_a_history_rewritten_and_rehashed_to_the_head_fails_the_digest(cli, db_url):
    """The owner rewrites event 50 and re-hashes every event after it: a sound chain, not the same history."""
    digest = _imported(cli, db_url)
    _drop_guards(db_url)
    store = open_store(db_url, create=False)
    try:
        records = store.read("lantern")
    finally:
        store.close()
    prev, rows = records[48].hash, []
    for record in records[49:]:
        payload = json.loads(record.payload)
        if record.sequence == 50:
            payload = {**payload, "forged": True} if isinstance(payload, dict) else payload
        new = NewEvent(record.event_id, record.event_type, record.schema_version, record.recorded_at,
                       record.recorded_by, record.visibility, payload)
        sealed = seal(record.campaign_id, record.sequence, new, prev)
        prev = sealed.hash
        rows.append({"p": sealed.payload, "prev": sealed.prev_hash, "h": sealed.hash, "s": sealed.sequence})
    _run_sql(db_url, "UPDATE events SET payload = :p, prev_hash = :prev, hash = :h "
                     "WHERE campaign_id = 'lantern' AND sequence = :s", rows)

    code, out, err = cli("--db", db_url, "verify", "--json")
    assert not any("hash" in f["problem"] for f in json.loads(out)["faults"])  # the chain itself is sound
    code, out, err = cli("--db", db_url, "verify", "--digest", digest)
    assert code == 1
    assert "history was changed" in err


def test_a_digest_of_the_same_history_verifies_and_a_later_one_is_proved_to_extend_it(cli, db_url, tmp_path):
    old = _imported(cli, db_url)
    assert old.startswith("yarnlog1:lantern:206:") and len(old) < 100
    code, out, _ = cli("--db", db_url, "verify", "--digest", old)
    assert code == 0 and "extends the digest of event 206" in out
    assert cli("--db", db_url, "note", "One more line for the recap.")[0] == 0

    code, out, _ = cli("--db", db_url, "digest", "--prove-from", old, "--json")
    assert code == 0
    proof = json.loads(out)
    new = proof["to"]
    assert new.startswith("yarnlog1:lantern:207:") and proof["from"] == old
    path = tmp_path / "proof.json"
    path.write_text(out, encoding="utf-8")
    # The player's check needs no journal at all.
    code, out, _ = cli("--db", str(tmp_path / "none.db"), "check-proof", str(path), "--from", old, "--to", new)
    assert (code, out.strip()) == (0, "ok: lantern at event 207 extends your digest of event 206.")
    assert not (tmp_path / "none.db").exists()

    bad = {**proof, "proof": [proof["proof"][0][::-1], *proof["proof"][1:]]}
    path.write_text(json.dumps(bad), encoding="utf-8")
    code, _, err = cli("check-proof", str(path), "--from", old)
    assert code == 1 and "that history was changed or cut" in err
    path.write_text(json.dumps(proof), encoding="utf-8")
    other = old[:-1] + ("0" if old[-1] != "0" else "1")
    code, _, err = cli("check-proof", str(path), "--from", other)
    assert code == 1 and "another digest than the one you kept" in err


def test_a_tail_cut_after_the_old_digest_cannot_be_proved_to_extend_a_later_one(cli, db_url):
    """Today's journal cut back below an old digest: no proof can be made, and verify says what is missing."""
    _imported(cli, db_url)
    code, out, _ = cli("--db", db_url, "digest", "--json")
    digest = _value(out, "digest")
    _drop_guards(db_url)
    _run_sql(db_url, "DELETE FROM events WHERE sequence > 190")
    code, _, err = cli("--db", db_url, "digest", "--prove-from", digest)
    assert code == 2 and "events 191 to 206 were removed" in err


# -- signing ---------------------------------------------------------------------------------------


def test_keygen_needs_a_file_path_not_standard_output(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("keygen", "-")
    assert code == 2 and "give a file path" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing written, not even a file called '-'


def test_a_signed_digest_verifies_only_with_the_gms_key(cli, tmp_path):
    _imported(cli, str(tmp_path / "journal.db"))
    gm, other = tmp_path / "gm.key", tmp_path / "other.key"
    assert cli("keygen", str(gm))[0] == 0 and cli("keygen", str(other))[0] == 0
    assert oct(gm.stat().st_mode & 0o777) == "0o600"
    code, _, err = cli("keygen", str(gm))
    assert code == 2 and "never overwritten" in err

    code, out, _ = cli("digest", "--sign", str(gm), "--json")
    signed = _value(out, "digest")
    assert json.loads(out)["signed"]
    assert cli("verify", "--digest", signed, "--key", f"{gm}.pub")[0] == 0
    code, _, err = cli("verify", "--digest", signed, "--key", f"{other}.pub")
    assert code == 1 and "not by the key" in err
    forged = signed[:-3] + ("AAA" if not signed.endswith("AAA") else "BBB")
    code, _, err = cli("verify", "--digest", forged, "--key", f"{gm}.pub")
    assert code == 1 and "not by the key" in err
    unsigned = signed.rsplit(":", 1)[0]
    code, _, err = cli("verify", "--digest", unsigned, "--key", f"{gm}.pub")
    assert code == 1 and "not signed" in err


@pytest.mark.parametrize("given", ["yarnlog1:lantern:206:abc", "lantern 206", "yarnlog1:Lantern:206:" + "0" * 64])
def test_a_mistyped_digest_is_one_line_of_bad_input(cli, given):
    code, out, err = cli("verify", "--digest", given)
    assert (code, out) == (2, "")
    assert err.startswith("error: not a yarnlog digest") and err.count("\n") == 1


# -- the writer: the database recomputes the hash ------------------------------------------------------


def _header(campaign_id: str, sequence: int, event_id: str) -> dict:
    return {"campaign_id": campaign_id, "sequence": sequence, "event_id": event_id, "event_type": "note",
            "schema_version": 1, "recorded_at": "2026-11-21T20:00:00.000000Z", "recorded_by": "Maya",
            "visibility": "everyone"}


def _insert(store, row: dict) -> None:
    with store.engine.begin() as conn:
        conn.execute(text("INSERT INTO events (campaign_id, sequence, event_id, event_type, schema_version, "
                          "recorded_at, recorded_by, visibility, payload, prev_hash, hash) VALUES (:campaign_id, "
                          ":sequence, :event_id, :event_type, :schema_version, :recorded_at, :recorded_by, "
                          ":visibility, :payload, :prev_hash, :hash)"), row)


def test_a_row_with_the_right_prev_hash_and_a_forged_hash_is_refused(sql_store):
    first = _header("c", 1, str(uuid.uuid4()))
    payload = '{"text":"the true first line"}'
    _insert(sql_store, {**first, "payload": payload, "prev_hash": GENESIS,
                        "hash": stored_event_hash(first, payload, GENESIS)})  # its own hash: accepted
    head = sql_store.head("c")
    second = _header("c", 2, str(uuid.uuid4()))
    forged = {**second, "payload": '{"text":"forged"}', "prev_hash": head[1], "hash": "f" * 64}
    with pytest.raises(DBAPIError, match="must carry their own hash"):
        _insert(sql_store, forged)
    # The hash of other bytes than the row's (a payload swapped after hashing) is as forged.
    swapped = {**forged, "hash": stored_event_hash(second, '{"text":"true"}', head[1])}
    with pytest.raises(DBAPIError, match="must carry their own hash"):
        _insert(sql_store, swapped)
    assert sql_store.last_sequence("c") == 1


#: Text the trigger must hash exactly as Python's json.dumps(ensure_ascii=False) spells it.
AWKWARD = ["".join(map(chr, range(1, 0x20))), '"quoted" \\back\\slashed/', "\x7f\u0085\u2028\u2029",
           "Ünïcödé «quotes» & <tags> 🎲", "\U0010fffd", "'; DROP TABLE events; --"]


@pytest.mark.parametrize("awkward", AWKWARD)
def test_the_trigger_hashes_any_text_as_the_journal_does(sql_store, awkward):
    """Every field of text through the store: the database's hash of the row is the journal's own."""
    new = NewEvent(str(uuid.uuid4()), awkward, 1, "2026-11-21T20:00:00.000000Z", awkward, awkward,
                   {awkward: awkward, "nul": "\x00", "n": [1, -2.5, None, True]})
    recorded = sql_store.append("c", 0, [new])
    assert sql_store.read("c") == recorded
    assert recorded[0].hash == event_hash(recorded[0].header(), new.payload, GENESIS)


def test_the_trigger_agrees_with_the_journal_on_random_text(sql_store):
    """Two hundred texts of random code points (every plane, no surrogate; no NUL, which PostgreSQL's
    text refuses anywhere) in the envelope's text fields: every row is accepted under its own hash."""
    rng = random.Random(11)
    points = [p for p in range(1, 0x110000) if not 0xD800 <= p <= 0xDFFF]
    texts = ["".join(chr(rng.choice(points if rng.random() < 0.5 else range(1, 0x80))) for _ in range(12))
             for _ in range(200)]
    events = [NewEvent(str(uuid.uuid4()), t, 1, "2026-11-21T20:00:00.000000Z", t, t, {t: t}) for t in texts]
    recorded = sql_store.append("c", 0, events)
    assert [r.recorded_by for r in sql_store.read("c")] == texts == [r.recorded_by for r in recorded]


# -- exports ------------------------------------------------------------------------------------------


def test_an_export_ends_with_a_trailer_matching_the_digest(cli, tmp_path):
    _imported(cli, str(tmp_path / "journal.db"))
    code, out, _ = cli("export", "--json", "-o", str(tmp_path / "x.jsonl"))
    assert code == 0 and json.loads(out)["events"] == SAMPLE_EVENTS
    lines = (tmp_path / "x.jsonl").read_text(encoding="utf-8").splitlines()
    trailer = json.loads(lines[-1])["trailer"]
    last = json.loads(lines[-2])
    digest = _value(cli("digest", "--json")[1], "digest")
    assert trailer == {"campaign_id": "lantern", "events": SAMPLE_EVENTS, "head_hash": last["hash"],
                       "merkle_root": digest.rsplit(":", 1)[1]}


@pytest.mark.parametrize("cut, message", [
    (lambda lines: lines[:-1], "without its trailer: it was cut short"),
    (lambda lines: lines[:-8] + lines[-1:], "the trailer counts 206 events but the file holds 199"),
    (lambda lines: lines[:-2] + [lines[-2][:len(lines[-2]) // 2]], "line 206: not valid JSON"),
])
def test_a_truncated_export_is_refused_and_nothing_is_written(cli, db_url, tmp_path, cut, message):
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(cut(lines)), encoding="utf-8")
    code, out, err = cli("--db", db_url, "import", str(path))
    assert code == 2 and message in err
    store = open_store(db_url)
    try:
        assert store.campaigns() == []
    finally:
        store.close()


def test_an_old_export_without_a_trailer_imports_only_when_asked_and_with_a_warning(cli, tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_text("".join(SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)[:-1]), encoding="utf-8")
    code, _, err = cli("import", str(path))
    assert code == 2 and "--without-trailer" in err
    code, out, err = cli("import", "--without-trailer", str(path))
    assert code == 0 and "imported 206 events" in out
    assert err.startswith("warning:") and "cannot be told" in err


def _changed_line(number: int, change) -> str:
    """The sample with line ``number``'s event changed by ``change`` (its hashes, and the trailer, kept)."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    data = json.loads(lines[number - 1])
    change(data)
    lines[number - 1] = json.dumps(data, ensure_ascii=False) + "\n"
    return "".join(lines)


def test_a_file_changed_under_its_hashes_is_refused_even_over_its_own_campaign(cli, db_url, tmp_path):
    """The issue's case: a tampered file re-imported over the campaign said "imported 0 events (206
    already present)". Its own bytes are checked now, and the file's line is named."""
    path = tmp_path / "tampered.jsonl"
    path.write_text(_changed_line(50, lambda d: d.update(recorded_by="Mallory")), encoding="utf-8")
    code, _, err = cli("--db", db_url, "import", str(path))  # into an empty journal
    assert code == 2 and err.startswith("error: line 50: event 50") and "hash mismatch" in err
    _imported(cli, db_url)
    code, _, err = cli("--db", db_url, "import", str(path))  # over the campaign it came from
    assert code == 2 and err.startswith("error: line 50: event 50 differs from the stored one")


def test_the_file_line_is_named_not_the_sequence(cli, tmp_path):
    text_ = SAMPLE.read_text(encoding="utf-8").replace("\n", "\n\n", 3)  # three blank lines near the top
    lines = text_.splitlines(keepends=True)
    target = next(i for i, line in enumerate(lines) if '"sequence":40,' in line)
    data = json.loads(lines[target])
    data["recorded_by"] = "Mallory"
    lines[target] = json.dumps(data) + "\n"
    path = tmp_path / "blank.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    code, _, err = cli("import", str(path))
    assert code == 2 and err.startswith(f"error: line {target + 1}: event 40 ") and target + 1 == 43


def _resealed(campaign_id: str, change_payload=None) -> str:
    """The sample as if recorded under ``campaign_id``, hashes recomputed, with no trailer."""
    out, prev = [], GENESIS
    for line in SAMPLE.read_text(encoding="utf-8").splitlines()[:-1]:
        data = json.loads(line)
        payload = data["payload"]
        if data["sequence"] == 1 and change_payload:
            payload = change_payload(payload)
        record = StoredEvent(**{**data, "campaign_id": campaign_id, "payload": "", "prev_hash": prev, "hash": ""})
        data.update(campaign_id=campaign_id, payload=payload, prev_hash=prev,
                    hash=event_hash(record.header(), payload, prev))
        prev = data["hash"]
        out.append(json.dumps(data) + "\n")
    return "".join(out)


def test_the_envelopes_campaign_id_is_checked_against_its_pattern_and_the_created_payload(cli, tmp_path):
    path = tmp_path / "ids.jsonl"
    path.write_text(_resealed("Bad Id"), encoding="utf-8")
    code, _, err = cli("import", "--without-trailer", str(path))
    assert code == 2 and "line 1, field campaign_id: String should match pattern" in err
    path.write_text(_resealed("other"), encoding="utf-8")  # the envelope says other, the payload lantern
    code, _, err = cli("import", "--without-trailer", str(path))
    assert code == 2 and "creates campaign 'lantern' but is filed under 'other'" in err
    path.write_text(_resealed("other", lambda p: {**p, "campaign_id": "other"}), encoding="utf-8")
    code, out, err = cli("import", "--without-trailer", str(path))
    assert code == 0, err


# -- the writer role (PostgreSQL) ---------------------------------------------------------------------


@pytest.fixture
def writer_role(request):
    """A login role of its own for this test (roles are the server's, not the schema's): dropped after."""
    from conftest import PG_URL

    if not PG_URL:
        pytest.skip("no PostgreSQL server (set YARNLOG_TEST_PG_URL)")
    role = f"yarnlog_writer_{uuid.uuid4().hex[:12]}"
    admin = create_engine(database_url(PG_URL))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE ROLE {role} LOGIN"))

    def drop() -> None:
        with admin.begin() as conn:
            conn.execute(text(f"DROP OWNED BY {role}"))
            conn.execute(text(f"DROP ROLE {role}"))
        admin.dispose()

    request.addfinalizer(drop)
    return role


WRITER_REFUSED = {
    "DISABLE TRIGGER": "ALTER TABLE events DISABLE TRIGGER ALL",
    "TRUNCATE": "TRUNCATE events",
    "UPDATE": "UPDATE events SET visibility = 'gm'",
    "DELETE": "DELETE FROM events WHERE sequence > 200",
    "DROP": "DROP TABLE events",
    "ALTER": "ALTER TABLE events ADD COLUMN note text",
    "DROP TRIGGER": "DROP TRIGGER events_hash_on_insert ON events",
}


@pytest.mark.postgres
def test_the_writer_role_appends_and_is_refused_everything_else(cli, tmp_path, writer_role, request):
    from conftest import _postgres_url

    owner_url = _postgres_url(request)
    _imported(cli, owner_url)
    code, out, err = cli("--db", owner_url, "db", "grant", "--writer", writer_role, "--json")
    assert code == 0, err
    assert f"GRANT SELECT, INSERT ON events TO {writer_role}" in json.loads(out)["granted"]
    writer_url = make_url(database_url(owner_url)).set(username=writer_role).render_as_string(hide_password=False)

    # The application as the writer: it reads, it appends (chain and hash checked), it keeps its caches.
    assert cli("--db", writer_url, "note", "Written by the writer role.")[0] == 0
    assert cli("--db", writer_url, "tokens")[0] == 0
    code, out, _ = cli("--db", writer_url, "verify", "--json")
    assert code == 0 and json.loads(out)["events"] == SAMPLE_EVENTS + 1

    engine = create_engine(writer_url)
    refused = []
    try:
        for name, statement in WRITER_REFUSED.items():
            try:
                with engine.begin() as conn:
                    conn.execute(text(statement))
            except DBAPIError as exc:
                if "must be owner" in str(exc.orig) or "permission denied" in str(exc.orig):
                    refused.append(name)
    finally:
        engine.dispose()
    assert refused == list(WRITER_REFUSED)
    code, _, err = cli("--db", writer_url, "db", "grant", "--writer", writer_role)
    assert code == 2 and "as the role that owns the journal's tables" in err
    code, out, _ = cli("--db", owner_url, "verify", "--json")
    assert code == 0 and json.loads(out)["events"] == SAMPLE_EVENTS + 1


@pytest.mark.postgres
def test_the_owner_cannot_be_made_the_writer(cli, request):
    from conftest import _postgres_url

    owner_url = _postgres_url(request)
    _imported(cli, owner_url)
    code, _, err = cli("--db", owner_url, "db", "grant", "--writer", "postgres")
    assert code == 2 and "superuser" in err
    code, _, err = cli("--db", owner_url, "db", "grant", "--writer", "nobody_by_that_name")
    assert code == 2 and "no role 'nobody_by_that_name'" in err


def test_a_sqlite_journal_has_no_roles_to_grant(cli, tmp_path):
    _imported(cli, str(tmp_path / "journal.db"))
    code, _, err = cli("db", "grant", "--writer", "app")
    assert code == 2 and "only a PostgreSQL journal has roles" in err


def test_sqlite_cannot_insert_an_event_without_the_journals_hash_function(tmp_path):
    """A program that opens the file without yarnlog's function (the sqlite3 shell) cannot add events."""
    import sqlite3

    store = SqliteStore(f"sqlite:///{tmp_path / 'j.db'}")
    store.append("c", 0, [NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya",
                                    "everyone", {"text": "a"})])
    store.close()
    raw = sqlite3.connect(tmp_path / "j.db")
    try:
        with pytest.raises(sqlite3.OperationalError, match="no such function: yarnlog_event_hash"):
            raw.execute("INSERT INTO events (campaign_id, sequence, event_id, event_type, schema_version, "
                        "recorded_at, recorded_by, visibility, payload, prev_hash, hash) "
                        "SELECT campaign_id, 2, 'x', event_type, 1, recorded_at, recorded_by, visibility, payload, "
                        "hash, hash FROM events")
    finally:
        raw.close()


# -- the writer's own objects in the guards' way (PostgreSQL) -------------------------------------------

#: What the writer puts in the way of the guards, each under a name a guard uses. A temporary table
#: or view needs no privilege at all; a function or operator goes in a schema the writer may create in
#: (the public schema before PostgreSQL 15), named before pg_catalog in its own search path.
SHADOWS = {
    "temporary table events": [
        "CREATE TEMP TABLE events (campaign_id text, sequence integer, hash text)",
        f"INSERT INTO pg_temp.events VALUES ('lantern', {SAMPLE_EVENTS}, '{'ab' * 32}')",
    ],
    "temporary view events": [
        f"CREATE TEMP VIEW events AS SELECT 'lantern'::text AS campaign_id, {SAMPLE_EVENTS} AS sequence, "
        f"'{'ab' * 32}'::text AS hash",
    ],
    **{f"function {name}": [f"CREATE FUNCTION {{own}}.{name}({arguments}) RETURNS {returns} LANGUAGE plpgsql "
                            f"AS $$ BEGIN RAISE EXCEPTION 'the writer''s {name} ran'; END $$"]
       for name, arguments, returns in [
           ("encode", "bytea, text", "text"), ("sha256", "bytea", "bytea"), ("convert_to", "text, name", "bytea"),
           ("to_json", "anyelement", "json"), ("hashtext", "text", "integer"),
           ("pg_advisory_xact_lock", "integer, integer", "void")]},
    **{f"operator {op} ({kind})": [
        f"CREATE FUNCTION {{own}}.shadow_op(a {kind}, b {kind}) RETURNS {returns} LANGUAGE plpgsql "
        f"AS $$ BEGIN RAISE EXCEPTION 'the writer''s {op} ran'; END $$",
        f"CREATE OPERATOR {{own}}.{op} (LEFTARG = {kind}, RIGHTARG = {kind}, FUNCTION = {{own}}.shadow_op)"]
       for op, kind, returns in [("||", "text", "text"), ("<>", "integer", "boolean"), ("=", "text", "boolean")]},
}


def _event_row(sequence: int, prev_hash: str) -> dict:
    record = seal("lantern", sequence, NewEvent(event_id=str(uuid.uuid4()), event_type="note",
                                                schema_version=1, recorded_at="2026-11-28T20:00:00.000000Z",
                                                recorded_by="Maya", visibility="everyone",
                                                payload={"text": "slipped past the chain"}), prev_hash)
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


@pytest.mark.postgres
@pytest.mark.parametrize("shadow", list(SHADOWS))
def test_the_writers_own_objects_never_stand_in_for_the_journals(cli, writer_role, request, shadow):
    """Issue 21: the writer's temporary ``events`` slipped a row past the chain check. Each object a
    guard reads, shadowed in the writer's own session: a forged link is still refused, a true one
    taken, and the guards never run the writer's code."""
    from conftest import PG_URL, _postgres_url

    owner_url = _postgres_url(request)
    _imported(cli, owner_url)
    assert cli("--db", owner_url, "db", "grant", "--writer", writer_role)[0] == 0
    own = f"w_{uuid.uuid4().hex[:12]}"  # a schema the writer may create in
    admin = create_engine(database_url(PG_URL))
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {own}"))
        conn.execute(text(f"GRANT USAGE, CREATE ON SCHEMA {own} TO {writer_role}"))
    writer_url = make_url(database_url(owner_url)).set(username=writer_role).render_as_string(hide_password=False)
    engine = create_engine(writer_url, poolclass=NullPool)
    columns = ", ".join(STORED_FIELDS)
    insert = text(f"INSERT INTO {{schema}}.events ({columns}) VALUES ({', '.join(':' + n for n in STORED_FIELDS)})")
    try:
        with engine.connect() as conn:
            schema = conn.execute(text("SELECT current_schema()")).scalar_one()
            head = conn.execute(text(f"SELECT hash FROM {schema}.events WHERE sequence = {SAMPLE_EVENTS}")).scalar_one()
            conn.execute(text(f"SET search_path = {own}, pg_catalog, pg_temp, {schema}"))
            for statement in SHADOWS[shadow]:
                conn.execute(text(statement.format(own=own)))
            conn.commit()
            insert = text(insert.text.format(schema=schema))
            with pytest.raises(DBAPIError) as refused:
                with conn.begin():
                    conn.execute(insert, _event_row(SAMPLE_EVENTS + 1, "ab" * 32))
            assert "must extend the chain" in str(refused.value.orig)
            with conn.begin():
                conn.execute(insert, _event_row(SAMPLE_EVENTS + 1, head))
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {own} CASCADE"))
        admin.dispose()
    code, out, err = cli("--db", owner_url, "verify", "--json")
    assert code == 0, err
    assert json.loads(out)["events"] == SAMPLE_EVENTS + 1


# -- guards dropped or switched off -------------------------------------------------------------------


def test_verify_names_each_guard_dropped_or_switched_off_and_the_owners_open_restores_it(cli, db_url):
    """Issue 21: with the append-only triggers dropped (by an owner, or a file edited by hand), verify
    passed. It names every guard gone or disabled (exit 1); the owner opening the journal again puts
    them back."""
    _imported(cli, db_url)
    assert cli("--db", db_url, "verify")[0] == 0
    postgres = db_url.startswith("postgresql")
    guards = ["events_refuse_change", "events_refuse_truncate", "events_append_serialized", "events_chain_on_insert",
              "events_hash_on_insert"] if postgres else \
        ["events_refuse_update", "events_refuse_delete", "events_chain_on_insert", "events_hash_on_insert"]
    attacks = [(name, f"DROP TRIGGER {name}" + (" ON events" if postgres else "")) for name in guards]
    if postgres:
        attacks += [(name, f"ALTER TABLE events DISABLE TRIGGER {name}") for name in guards]
    for name, statement in attacks:
        _run_sql(db_url, statement)
        code, out, err = cli("--db", db_url, "verify")
        assert code == 1, statement
        assert f"no longer enforces append-only: {name} dropped, disabled or out of date" in " ".join(err.split())
        code, out, _ = cli("--db", db_url, "verify", "--json")
        assert code == 1 and [f["problem"] for f in json.loads(out)["faults"]] == [
            f"the database no longer enforces append-only: {name} dropped, disabled or out of date"]
        open_store(db_url).close()  # the owner's open creates what is missing
        assert cli("--db", db_url, "verify")[0] == 0, statement


@pytest.mark.postgres
@pytest.mark.parametrize(("function", "triggers"), [
    ("yarnlog_check_chain", "events_chain_on_insert"), ("yarnlog_check_hash", "events_hash_on_insert"),
    ("yarnlog_refuse_change", "events_refuse_change, events_refuse_truncate")])
def test_verify_names_a_guard_whose_function_runs_with_the_callers_search_path(cli, request, function, triggers):
    """A guard made by an older yarnlog (or reset by hand) reads whatever the session's search path
    finds, a writer's temporary table first: it is named until the owner opens the journal again."""
    from conftest import _postgres_url

    url = _postgres_url(request)
    _imported(cli, url)
    _run_sql(url, f"ALTER FUNCTION {function}() RESET search_path")
    code, _, err = cli("--db", url, "verify")
    assert code == 1
    assert f"no longer enforces append-only: {triggers} dropped, disabled or out of date" in " ".join(err.split())
    open_store(url).close()
    assert cli("--db", url, "verify")[0] == 0


def test_the_digest_alone_is_on_standard_output_so_a_shell_variable_takes_it_whole(cli, tmp_path):
    """Issue 26: ``d=$(yarnlog digest)`` captures the one line ``verify --digest "$d"`` takes; the hint
    goes to standard error (and so do the words around a proof's new digest)."""
    _imported(cli, str(tmp_path / "journal.db"))
    code, out, err = cli("digest")
    assert code == 0 and len(out.splitlines()) == 1 and "verify --digest" in err
    digest = out.strip()
    assert cli("verify", "--digest", digest)[0] == 0
    code, out, err = cli("digest", "--prove-from", digest)
    assert code == 0 and out.strip() == digest and len(out.splitlines()) == 1, out
    assert "extends yours of event" in err
