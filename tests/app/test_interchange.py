"""JSON Lines export and import: round trips, and all-or-nothing refusal of bad files."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.interchange import export_lines, import_records, parse_lines, read_export
from yarnlog.app.journal import Journal
from yarnlog.app.verify import Parsed, verify
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.timeline import AddNote, OpenScene, StartEpisode
from yarnlog.persistence.factory import open_store


def _played(journal, campaign):
    journal.execute(campaign, StartEpisode(title="Fog"))
    journal.execute(campaign, OpenScene(caller="Ana", title="Docks", cast=("Iris", "Tom")))
    journal.execute(campaign, AddNote(text="Ünïcödé «quotes» & <tags>"))
    return list(export_lines(journal.store, campaign))


def test_export_import_export_is_byte_identical(journal, campaign, any_store):
    """Whatever store exported it, the same bytes come back from a fresh store of any backend."""
    first = _played(journal, campaign)
    assert import_records(any_store, parse_lines(first)) == (0, len(first) - 1)  # the last line is the trailer
    assert list(export_lines(any_store, campaign)) == first


def test_a_journal_on_a_database_exports_what_it_recorded_byte_for_byte(any_store, tmp_path):
    """Played on each backend, exported, imported into SQLite: the same lines, the same hashes."""
    from conftest import Clock, seat_lantern

    journal = Journal(any_store, clock=Clock())
    first = _played(journal, seat_lantern(journal))
    sqlite = open_store(tmp_path / "x.db")
    try:
        import_records(sqlite, parse_lines(first))
        assert list(export_lines(sqlite, "lantern")) == first
    finally:
        sqlite.close()


def test_each_line_is_canonical_json_with_hashes(journal, campaign):
    lines = _played(journal, campaign)
    for line in lines:
        data = json.loads(line)
        assert line == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    for line in lines[:-1]:
        data = json.loads(line)
        assert len(data["hash"]) == 64 and len(data["prev_hash"]) == 64


def test_reimport_is_a_no_op_and_an_extension_appends_the_new_tail(journal, campaign):
    lines = _played(journal, campaign)
    other = open_store("memory://")
    import_records(other, parse_lines(lines[:5]))
    assert import_records(other, parse_lines(lines)) == (5, len(lines) - 6)  # the last line is the trailer
    assert import_records(other, parse_lines(lines)) == (len(lines) - 1, 0)
    assert list(export_lines(other, campaign)) == lines


def _import_fails(store, lines, match):
    before = store.campaigns()
    with pytest.raises(InvalidCommand, match=match):
        import_records(store, parse_lines(lines))
    assert store.campaigns() == before


def test_bad_json_names_the_line(store, journal, campaign):
    lines = _played(journal, campaign)
    with pytest.raises(InvalidCommand, match="line 3: not valid JSON"):
        parse_lines(lines[:2] + ['{"oops"\n'] + lines[2:])


def test_well_formed_json_whose_value_cannot_be_read_names_the_line(journal, campaign):
    lines = _played(journal, campaign)  # an integer past Python's 4300-digit limit: a ValueError, not a JSONDecodeError
    with pytest.raises(InvalidCommand, match="line 2: not valid JSON"):
        parse_lines(lines[:1] + ['{"sequence": ' + "1" * 5000 + "}\n"] + lines[1:])


def test_a_missing_or_mistyped_field_names_the_line_and_field(journal, campaign):
    lines = _played(journal, campaign)
    broken = json.loads(lines[3])
    broken["sequence"] = "four"
    with pytest.raises(InvalidCommand, match="line 4, field sequence"):
        parse_lines(lines[:3] + [json.dumps(broken)] + lines[4:])
    broken["sequence"] = 4
    del broken["hash"]
    with pytest.raises(InvalidCommand, match="line 4, field hash"):
        parse_lines(lines[:3] + [json.dumps(broken)])


@pytest.mark.parametrize("field, value", [
    ("sequence", True), ("sequence", 4.0), ("sequence", 0), ("schema_version", "1"), ("recorded_by", ""),
    ("recorded_by", "Ma\ud800ya"), ("hash", "A" * 64), ("prev_hash", "0" * 63), ("event_id", "x"),
    ("recorded_at", "2026-11-21T20:00:00Z\n"), ("recorded_at", "2026-11-21 20:00:00Z"), ("payload", []),
])
def test_each_envelope_field_is_checked_exactly_and_named(journal, campaign, field, value):
    lines = _played(journal, campaign)
    broken = json.loads(lines[3])
    broken[field] = value
    with pytest.raises(InvalidCommand, match=f"line 4, field {field}: "):
        parse_lines(lines[:3] + [json.dumps(broken)] + lines[4:])
    broken = json.loads(lines[3])
    broken["extra"] = 1
    with pytest.raises(InvalidCommand, match="line 4, field extra: Extra inputs are not permitted"):
        parse_lines(lines[:3] + [json.dumps(broken)] + lines[4:])


def test_a_line_in_any_valid_spelling_reads_as_the_same_event(journal, campaign):
    """Key order, white space and escapes do not matter: the event, its payload canonical, is the same."""
    lines = _played(journal, campaign)
    respelled = [json.dumps(json.loads(line), indent=1, ensure_ascii=True).replace("\n", " ") for line in lines]
    assert parse_lines(respelled) == parse_lines(lines)


def test_a_tampered_line_is_refused_and_nothing_is_written(journal, campaign):
    lines = _played(journal, campaign)
    tampered = [line.replace("Docks", "Dunes") for line in lines]
    other = open_store("memory://")
    _import_fails(other, tampered, r"event 6 \(scene.opened\): hash mismatch")
    assert other.read(campaign) == []


def test_an_invalid_payload_is_refused_and_nothing_is_written(journal, campaign):
    from yarnlog.core.chain import event_hash

    lines = _played(journal, campaign)[:-1]  # (no trailer: the file is built here)
    data = json.loads(lines[-1])
    data["payload"] = {"text": ""}  # a note needs text
    data["hash"] = event_hash(data, data["payload"], data["prev_hash"])
    other = open_store("memory://")
    _import_fails(other, lines[:-1] + [json.dumps(data)], "note payload is invalid")


def test_a_diverging_journal_is_refused(journal, campaign):
    lines = _played(journal, campaign)
    other = open_store("memory://")
    import_records(other, parse_lines(lines))
    journal.execute(campaign, AddNote(text="only here"))
    theirs = Journal(other)
    theirs.execute(campaign, AddNote(text="only there"))
    with pytest.raises(InvalidCommand, match="diverges"):
        import_records(other, parse_lines(list(export_lines(journal.store, campaign))))


def test_a_file_mixing_campaigns_is_refused(journal, campaign):
    lines = _played(journal, campaign)
    journal.create_campaign("other", title="Other", gm="Maya")
    with pytest.raises(InvalidCommand, match="mixes"):
        parse_lines(lines[:-1] + list(export_lines(journal.store, "other"))[:-1])


@pytest.mark.parametrize("tamper", ["payload", "hash", "prev_hash", "event_type"])
def test_an_import_checks_new_lines_from_their_parse_and_finds_what_a_check_of_the_text_finds(
        journal, campaign, tamper):
    """The import checks its new events from the payloads it parsed (no second parse, no second
    serialization): it names the same faults, at the same events, as the check of the stored text."""
    lines = _played(journal, campaign)[:-1]  # the events, without the trailer (it would refuse the file first)
    data = json.loads(lines[5])
    if tamper == "payload":
        data["payload"]["title"] = "Dunes"
    elif tamper == "event_type":
        data["event_type"] = "note"
    else:
        data[tamper] = "f" * 64
    export = read_export(lines[:5] + [json.dumps(data)] + lines[6:], require_trailer=False)
    from_parse = verify(list(map(Parsed, export.records, export.payloads)), campaign)
    from_text = verify(list(export.records), campaign)
    assert not from_text.ok and from_parse.faults == from_text.faults
    assert from_parse.faults[0].sequence == 6
    with pytest.raises(InvalidCommand, match="line 6: event 6"):
        import_records(open_store("memory://"), export.records, payloads=export.payloads)
