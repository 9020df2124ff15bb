"""Storage that fails cleanly: a read-only journal is still read, a damaged head is not written on,
and what one backend keeps the other keeps too (campaign ids, event ids on import)."""

from __future__ import annotations

import json
import os
import stat
import uuid
from dataclasses import astuple
from pathlib import Path

import pytest
from conftest import seat_lantern
from sqlalchemy import text

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.cli.context import close_journal
from yarnlog.cli.main import EXIT_CODES
from yarnlog.core.chain import GENESIS, seal
from yarnlog.core.envelope import CAMPAIGN_ID_PATTERN, NewEvent, to_line
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.table import CampaignCreated
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.protocol import DamagedJournal, RefusedRecords
from yarnlog.persistence.sqlite import SqliteStore


def note(text_: str) -> NewEvent:
    return NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": text_})


# -- a read-only journal -----------------------------------------------------------------------


def _honour_mode_bits(monkeypatch) -> None:
    """Root may write whatever the mode bits say; the journal asks ``os.access``. As root, answer it
    from the owner's mode bits, as the kernel answers any other user. Only the question is answered
    so: the store then opens the file read-only for real (SQLite's ``mode=ro``, or ``immutable``)."""
    if os.geteuid() != 0:
        return
    real = os.access

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK:
            return bool(os.stat(path).st_mode & stat.S_IWUSR)
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr("yarnlog.persistence.sqlite.os.access", access)


@pytest.mark.parametrize("locked", ["file", "directory"])
def test_a_read_only_journal_is_read_verified_and_exported_and_a_write_says_one_line(cli, tmp_path, monkeypatch,
                                                                                      locked):
    journal_dir = tmp_path / "shelf"
    journal_dir.mkdir()
    db = journal_dir / "harbor.db"
    monkeypatch.setenv("YARNLOG_DB", str(db))
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"),
                 ("note", "The fog rolls in.")):
        assert cli(*args)[0] == 0, args
    close_journal()
    db.chmod(0o444)
    if locked == "directory":
        journal_dir.chmod(0o555)
    _honour_mode_bits(monkeypatch)
    try:
        code, out, err = cli("verify", "--json")
        assert (code, json.loads(out)["ok"], json.loads(out)["events"], err) == (0, True, 3, "")
        code, out, err = cli("tokens", "--json")
        assert code == 0 and err == "" and "Ana" in json.dumps(json.loads(out))
        code, out, err = cli("ledger", "--json")
        assert code == 0 and err == ""
        code, out, err = cli("export")
        assert code == 0 and err == "" and len([line for line in out.splitlines() if '"event_id"' in line]) == 3

        code, out, err = cli("join", "Ben")
        assert code == EXIT_CODES["store"]
        assert err.count("\n") == 1 and "read-only" in err and "nothing written" in err
    finally:
        journal_dir.chmod(0o755)
        db.chmod(0o644)
    close_journal()
    store = open_store(db, create=False)
    assert store.last_sequence("harbor") == 3  # the refused write left nothing
    store.close()


# -- no append on top of a damaged head --------------------------------------------------------


def _corrupt_head(store, campaign: str) -> int:
    """Change the payload of the campaign's last event behind the triggers' back; its sequence."""
    head = store.read(campaign)[-1]
    with store.engine.begin() as conn:
        if isinstance(store, SqliteStore):
            conn.execute(text("DROP TRIGGER events_refuse_update"))
        else:
            conn.execute(text("SET LOCAL session_replication_role = replica"))  # no triggers fire
        conn.execute(text("UPDATE events SET payload = :p WHERE campaign_id = :c AND sequence = :s"),
                     {"p": head.payload.replace("fog", "fig"), "c": campaign, "s": head.sequence})
    return head.sequence


def test_an_append_on_top_of_a_head_that_does_not_match_its_hash_is_refused(db_url):
    writer = Journal(open_store(db_url))
    cid = seat_lantern(writer)
    writer.execute(cid, AddNote(text="The fog rolls in."))
    damaged = _corrupt_head(writer.store, cid)
    writer.close()
    later = Journal(open_store(db_url, create=False))  # the next command, as a new process opens it
    try:
        with pytest.raises(DamagedJournal, match=f"damaged at event {damaged}") as refused:
            later.execute(cid, AddNote(text="Ana lies to Ben."))
        assert "\n" not in str(refused.value) and "verify" in str(refused.value)
        assert later.store.last_sequence(cid) == damaged
        with pytest.raises(DamagedJournal):
            later.store.append(cid, damaged, [note("straight to the store")])
        assert later.store.last_sequence(cid) == damaged
    finally:
        later.close()


def test_a_damaged_head_is_one_line_on_the_command_line(cli, tmp_path):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("note", "The fog rolls in.")):
        assert cli(*args)[0] == 0, args
    close_journal()
    store = open_store(tmp_path / "journal.db", create=False)
    _corrupt_head(store, "harbor")
    store.close()
    code, out, err = cli("note", "Ana lies to Ben.")
    assert (code, out) == (EXIT_CODES["store"], "")
    assert err.count("\n") == 1 and "damaged at event 2" in err
    assert cli("verify")[0] == EXIT_CODES["faults"]


# -- what one backend keeps, the other keeps ---------------------------------------------------


def _export_of(campaign: str, notes: int = 1, first_note_id: str | None = None) -> list[str]:
    """An export's lines: a campaign created, then notes (chained as a journal chains them), the first
    note of id ``first_note_id`` if given."""
    created = NewEvent(str(uuid.uuid4()), "campaign.created", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone",
                       {"campaign_id": campaign, "title": "Lantern Harbor", "ruleset": "yarn", "gm": "Maya",
                        "options": {}})
    records, prev = [], GENESIS
    events = [created, *(note(f"note {i}") for i in range(notes))]
    if first_note_id is not None:
        events[1] = NewEvent(first_note_id, *astuple(events[1])[1:])
    for sequence, new in enumerate(events, start=1):
        records.append(seal(campaign, sequence, new, prev))
        prev = records[-1].hash
    return [json.dumps(to_line(r)) for r in records]


def test_the_campaign_id_is_one_pattern_for_the_payload_the_import_and_every_store():
    assert CampaignCreated.model_fields["campaign_id"].metadata[-1].pattern == CAMPAIGN_ID_PATTERN


@pytest.mark.parametrize("campaign", ["h" * 64, "harbor.2-b_c"])
def test_a_campaign_id_that_fits_one_backend_fits_the_other(db_url, campaign):
    store = open_store(db_url)
    try:
        assert import_records(store, parse_lines(_export_of(campaign))) == (0, 2)
        assert [r.sequence for r in store.read(campaign)] == [1, 2]
    finally:
        store.close()


@pytest.mark.parametrize("campaign", ["h" * 65, "Harbor", "-harbor", "harbor\n", "har bor"])
def test_a_campaign_id_no_backend_keeps_alike_is_bad_input_on_every_store(any_store, campaign):
    lines = _export_of(campaign)
    with pytest.raises(InvalidCommand, match="campaign_id"):
        parse_lines(lines)
    records = [seal(campaign, 1, note("a"), GENESIS)]
    with pytest.raises(RefusedRecords, match="not a campaign id") as refused:
        any_store.append_verbatim(records, 0)
    assert refused.value.exit_code == EXIT_CODES["invalid"]
    assert any_store.campaigns() == []


def test_an_import_giving_one_event_id_to_two_events_is_bad_input(cli, tmp_path):
    lines = _export_of("harbor", notes=2)
    second, third = json.loads(lines[1]), json.loads(lines[2])
    third["event_id"] = second["event_id"]
    (tmp_path / "twice.jsonl").write_text("\n".join([*lines[:2], json.dumps(third)]) + "\n")
    code, out, err = cli("import", "--without-trailer", str(tmp_path / "twice.jsonl"))
    assert code == EXIT_CODES["invalid"]
    assert err.count("\n") == 1 and f"event id {second['event_id']} is already that of event 2" in err
    assert not (tmp_path / "journal.db").exists()  # refused before the journal was even opened


def test_an_import_reusing_an_event_id_the_journal_holds_is_bad_input_and_writes_nothing(db_url, cli, monkeypatch):
    monkeypatch.setenv("YARNLOG_DB", db_url)
    lines = _export_of("harbor")
    store = open_store(db_url)
    import_records(store, parse_lines(lines))
    other = _export_of("lantern", notes=3, first_note_id=json.loads(lines[1])["event_id"])
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"reused-{uuid.uuid4().hex}.jsonl"
    path.write_text("\n".join(other) + "\n")
    try:
        code, out, err = cli("import", "--without-trailer", str(path))
    finally:
        path.unlink()
    assert code == EXIT_CODES["invalid"]
    refusal = err.splitlines()[-1]  # after the warning that the file has no trailer
    assert refusal.startswith("error: ") and "event id" in refusal and "nothing imported" in refusal
    assert store.campaigns() == ["harbor"]
    store.close()
