"""No input breaks it, and every failure says what it is (issue 11): each case reported there, on a
fresh journal, through the real entry point. A rejection exits 2 (bad input) or 3 (the rules), says
so in one line on stderr, and leaves the journal's events exactly as they were."""

from __future__ import annotations

import hashlib
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from yarnlog.app.interchange import MAX_LINE_BYTES, file_lines, import_records, parse_lines
from yarnlog.app.verify import verify_stored
from yarnlog.cli.main import EXIT_CODES
from yarnlog.core.chain import GENESIS, event_hash
from yarnlog.core.envelope import from_line
from yarnlog.core.limits import MAX_NAME, MAX_TEXT
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.factory import open_store
from yarnlog.rulesets.yarn.rules.dice import MAX_DICE
from yarnlog.rulesets.yarn.rules.experience import MAX_AWARD

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"
OSC = re.compile(r"\x1b\]")


def events_digest(db: Path) -> str:
    """A hash of every stored event (what a rejection must leave unchanged); empty journal: ''."""
    if not db.exists():
        return ""
    with sqlite3.connect(db) as conn:
        try:
            rows = conn.execute("SELECT * FROM events ORDER BY campaign_id, sequence").fetchall()
        except sqlite3.OperationalError:  # no table yet
            return ""
    return hashlib.sha256(repr(rows).encode()).hexdigest()


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "journal.db"  # the cli fixture's YARNLOG_DB


@pytest.fixture
def played(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris,Tomas")):
        assert cli(*args)[0] == 0, args
    return cli


def refused(cli, db: Path, *args: str, code: int = EXIT_CODES["invalid"]) -> str:
    """Run ``args``: it must exit ``code`` with one line on stderr, print nothing, write nothing; the line."""
    before = events_digest(db)
    got, out, err = cli(*args)
    assert (got, out) == (code, ""), (args, got, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, (args, err)
    assert events_digest(db) == before, f"{args}: the journal changed"
    return err


def export_of(cli) -> list[dict]:
    code, out, err = cli("export")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines() if not line.startswith('{"trailer"')]


SAMPLE = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"


def resealed(lines: list[dict]) -> str:
    """``lines`` as an export file with a sound hash chain: a forged file only the limits can refuse."""
    prev, text = GENESIS, ""
    for line in lines:
        line = {**line, "prev_hash": prev}
        line["hash"] = prev = event_hash(line, line["payload"], prev)
        text += json.dumps(line, ensure_ascii=False) + "\n"
    return text


# -- user text is text: no Rich markup, no terminal control ----------------------------------------


def test_a_combatant_named_like_markup_is_recorded_and_printed_as_typed(played, db, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = played("fight", "start", "--detailed", "--combatant", "Tomas", "--combatant", "[/oops]=12")
    assert code == 0, err
    code, out, err = played("initiative", "Tomas:6,5", "[/oops]=2:2,1")
    assert code == 0, err
    assert "[/oops]" in out
    code, out, err = played("fight", "status")
    assert code == 0 and "[/oops]: 12 hit points" in out, err
    assert played("fight", "end")[0] == 0
    assert played("fight", "start", "--combatant", "Tomas", "--combatant", "[/oops]")[0] == 0
    code, out, err = played("gestalt", "--gm", "[/oops]=3:2,2,1")
    assert code == 0 and "[/oops] " in out, err


def test_markup_in_any_text_is_never_applied_on_a_colour_terminal(played, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    link = "[link=http://evil.example]the pier[/link]"
    assert played("init", "other", "--title", link, "--gm", "[bold]Maya[/]")[0] == 0
    for args in (("campaigns",), ("status", "-c", "other"), ("verify", "-c", "other")):
        code, out, err = played(*args)
        assert code == 0, err
        assert not OSC.search(out), f"{args}: a hyperlink reached the terminal"
    assert link in played("campaigns")[1] and "[bold]Maya[/]" in played("status", "-c", "other")[1]


@pytest.mark.parametrize("name", ["\x1b[31mAna", "Ana\u202e", "Ana\r", "A\x07na", "Ana\x9b2J", "An\na"])
def test_control_and_text_direction_characters_are_refused_in_names(played, db, name):
    err = refused(played, db, "join", name)
    assert "a name holds no control or text-direction characters" in err
    err = refused(played, db, "combatant", name, "--hit-points", "10")
    assert "no control or text-direction characters" in err


@pytest.mark.parametrize("cid", ["lantern[/oops]", "x[link=http://evil.example]y", "x\x1b[2Jy", "x\u202ey", "a" * 65,
                                 "Harbor"])
def test_a_campaign_id_no_campaign_can_have_is_refused_before_any_query(played, db, cid):
    for args in (("-c", cid, "status"), ("verify", "-c", cid), ("note", "hi", "-c", cid),
                 ("init", cid, "--title", "T", "--gm", "Maya")):
        assert "a campaign id is 1 to 64 lowercase letters" in refused(played, db, *args), args


def test_verify_of_a_campaign_that_is_not_there_is_bad_input(played, db):
    err = refused(played, db, "verify", "-c", "nope")
    assert err == "error: no campaign 'nope' in this journal\n"


# -- bad input: one line, exit 2 -------------------------------------------------------------------


def test_a_name_of_81_characters_says_the_limit(played, db):
    err = refused(played, db, "join", "A" * (MAX_NAME + 1))
    assert err == f"error: name: a name is at most {MAX_NAME} characters, not {MAX_NAME + 1}\n"
    assert played("join", "A" * MAX_NAME)[0] == 0
    err = refused(played, db, "init", "other", "--title", "T", "--gm", "G" * (MAX_NAME + 1))
    assert f"a name is at most {MAX_NAME} characters" in err


def test_a_note_says_the_limit_of_a_text(played, db):
    err = refused(played, db, "note", "x" * (MAX_TEXT + 1))
    assert f"a text is at most {MAX_TEXT:,} characters" in err
    assert played("note", "x" * MAX_TEXT)[0] == 0


@pytest.mark.parametrize("option", ["--as-of", "--end-of-scene"])
def test_an_event_number_beyond_any_journal_is_bad_input(played, db, option):
    err = refused(played, db, "status", option, "99999999999999999999999")
    assert "at most 1,000,000,000" in err


def test_export_to_a_folder_that_does_not_exist_says_so(played, db, tmp_path):
    target = tmp_path / "nonexistent" / "dir" / "x"
    err = refused(played, db, "export", "-o", str(target))
    assert err == f"error: cannot write {target}: No such file or directory\n" and not target.exists()


def test_a_database_url_of_another_kind_is_bad_input(cli, db):
    err = refused(cli, db, "--db", "mysql://user@host/db", "campaigns")
    assert "unsupported journal database 'mysql'" in err


def test_a_usage_error_is_one_line(played, db):
    err = refused(played, db, "roll", "Tomas", "--no-such-option")
    assert "no such option" in err


# -- bounds: every count has one ---------------------------------------------------------------------


def test_a_roll_of_more_dice_than_any_table_throws_is_refused_at_once(played, db):
    assert played("combatant", "Smuggler", "--hit-points", "18")[0] == 0
    err = refused(played, db, "roll", "Smuggler", "--dice", "99999999999999999999")
    assert "at most 1,000,000,000" in err
    err = refused(played, db, "roll", "Smuggler", "--dice", "1000000")
    assert err == "error: a roll uses at most 100 dice, not 1,000,000\n"
    err = refused(played, db, "roll", "Smuggler", "--dice", str(MAX_DICE - 1), "--bonus", "2")
    assert f"at most {MAX_DICE} dice, not {MAX_DICE + 1}" in err
    code, out, err = played("roll", "Smuggler", "--dice", str(MAX_DICE), "--json")
    assert code == 0, err
    assert len(json.loads(out)[-1]["payload"]["dice"]["faces"]) == MAX_DICE


def test_an_experience_award_beyond_the_dearest_improvement_is_refused(played, db):
    err = refused(played, db, "xp", "award", "99999999999999999999")
    assert "at most 1,000,000,000" in err
    err = refused(played, db, "xp", "award", str(MAX_AWARD + 1))
    assert err == f"error: an award is at most {MAX_AWARD} experience dice\n"
    assert played("xp", "award", str(MAX_AWARD))[0] == 0


def test_numbers_the_rules_forbid_are_refused_in_one_line_writing_nothing(played, db):
    """Issue 21 item 7: a negative difficulty factor, an award of no dice, a range past the limit."""
    err = refused(played, db, "roll", "Tomas", "--no-trait", "--against", "-1", "--faces", "3,4")
    assert err == "error: a difficulty factor is 0 or more (Sample Difficulty Factors), not -1\n"
    err = refused(played, db, "xp", "award", "0")
    assert err == "error: an award is at least one experience die (Awarding Experience Pool Dice)\n"
    for option in ("--scenes", "--episodes"):
        err = refused(played, db, "recap", option, "1-999999999999")
        assert err == f"error: {option} 1-999999999999: a number is at most 1,000,000,000\n"
    assert played("roll", "Tomas", "--no-trait", "--against", "0", "--faces", "3,4")[0] == 0


# -- import: decoding, size, depth and limits ----------------------------------------------------------


def import_refused(cli, db: Path, tmp_path: Path, content: bytes | str) -> str:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return refused(cli, db, "import", "--without-trailer", str(path))


def test_an_import_file_that_is_not_utf8_names_the_line_and_byte(played, db, tmp_path):
    lines = [json.dumps(line, ensure_ascii=False) for line in export_of(played)]
    latin1 = ("\n".join(lines[:2]) + "\n" + lines[2].replace("Ben", "Benoît")).encode("latin-1")
    assert "Benoît" in latin1.decode("latin-1")
    err = import_refused(played, db, tmp_path, latin1)
    assert err.startswith("error: line 3: not UTF-8 text (byte 0xee at column ")
    err = import_refused(played, db, tmp_path, bytes(range(256)) * 4)
    assert err.startswith("error: line 1: not ")


def test_json_nested_100000_deep_is_refused_without_exhausting_the_stack(played, db, tmp_path):
    err = import_refused(played, db, tmp_path, "[" * 100_000 + "]" * 100_000 + "\n")
    assert err == "error: line 1: data is nested at most 16 levels deep\n"
    line = export_of(played)[0]
    nested: object = "deep"
    for _ in range(40):
        nested = [nested]
    err = import_refused(played, db, tmp_path, resealed([{**line, "payload": {**line["payload"], "title": nested}}]))
    assert "nested at most 16 levels deep" in err


def test_nan_and_infinity_are_not_json_numbers(played, db, tmp_path):
    line = json.dumps(export_of(played)[0]).replace('"schema_version": 1', '"schema_version": NaN')
    assert "NaN is not a number JSON allows" in import_refused(played, db, tmp_path, line + "\n")


def test_a_line_longer_than_the_limit_is_refused_after_reading_no_more_than_the_limit(played, db, tmp_path):
    line = export_of(played)[0]
    huge = json.dumps({**line, "payload": {**line["payload"], "title": "x" * (50 << 20)}}) + "\n"
    err = import_refused(played, db, tmp_path, huge)
    assert err == f"error: line 1: a line of an export is at most {MAX_LINE_BYTES:,} bytes; nothing imported\n"

    class Counting(io.BytesIO):
        read_so_far = 0

        def readline(self, size=-1):
            got = super().readline(size)
            Counting.read_so_far += len(got)
            return got

    assert [len(chunk) for chunk in file_lines(Counting(huge.encode()))] == [MAX_LINE_BYTES + 1]
    assert Counting.read_so_far == MAX_LINE_BYTES + 1  # the 50 MB line is never read whole


def test_a_forged_import_cannot_carry_what_no_command_could(played, db, tmp_path):
    """Lines with a sound hash chain, refused by the limits the commands obey (and the payload schemas)."""
    lines = [{**line, "campaign_id": "forged"} for line in export_of(played)]
    lines[0]["payload"] = {**lines[0]["payload"], "campaign_id": "forged"}
    joined = next(i for i, line in enumerate(lines) if line["event_type"] == "participant.joined")
    cases = {
        "a name is at most 80 characters": ("payload", {"name": "A" * 81}),
        "a name holds no control or text-direction characters": ("payload", {"name": "A\x1b[2Jna"}),
        "field recorded_by: a name holds no control": ("recorded_by", "Ma\x00ya"),
        "field campaign_id: ": ("campaign_id", "lantern[/oops]"),  # (the line's pattern words it)
        "a text is at most 20,000 characters": ("payload", {"name": "Ana", "role": "x" * 20_001}),
        "a number is at most 1,000,000,000": ("payload", {"name": "Ana", "role": 10 ** 30}),
    }
    for message, (field, value) in cases.items():
        forged = [dict(line) for line in lines[:joined + 1]]
        if field == "payload":
            forged[joined]["payload"] = {**forged[joined]["payload"], **value}  # type: ignore[dict-item]
        else:
            forged[joined][field] = value
        err = import_refused(played, db, tmp_path, resealed(forged))
        assert message in err and err.startswith(f"error: line {joined + 1}, field "), (message, err)
    # An award beyond the limit passes the parser (a small number) and is refused by the award's validator.
    award = {**lines[-1], "sequence": len(lines) + 1, "event_type": "yarn.experience.awarded",
             "event_id": "00000000-0000-4000-8000-00000000a3a4",  # an id of its own: ids are unique
             "payload": {"episode": 1, "awards": {"Iris": MAX_AWARD + 1}, "reason": ""}}
    assert f"an award is at most {MAX_AWARD}" in import_refused(played, db, tmp_path, resealed([*lines, award]))


def test_what_no_command_could_carry_is_found_once_stored_however_it_was_written():
    """A journal written by another program (not by a command, not by an import) is held to the same
    limits by ``verify``: a number of a trillion passes the award's schema, and is the event's fault."""
    lines = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if "trailer" not in line]
    award = {**lines[-1], "sequence": len(lines) + 1, "event_type": "yarn.experience.awarded",
             "event_id": "00000000-0000-4000-8000-00000000a3a5",
             "payload": {"episode": 1, "awards": {"Mara": 10 ** 12}, "reason": ""}}
    records = [from_line(json.loads(line)) for line in resealed([*lines, award]).splitlines()]
    store = open_store("sqlite://", create=True)
    store.append_verbatim(records, expected_sequence=0)
    report = verify_stored(store, records[0].campaign_id)
    assert [(f.sequence, f.problem) for f in report.faults] == \
        [(award["sequence"], "awards.Mara: a number is at most 1,000,000,000")]
    # The same file, imported, is refused at the parser's check of the line, naming it.
    export = "".join(f"{line}\n" for line in resealed([*lines, award]).splitlines())
    refusal = rf"^line {len(lines) + 1}, field payload.awards.Mara: a number is at most"
    with pytest.raises(InvalidCommand, match=refusal):
        import_records(open_store("sqlite://", create=True), parse_lines(export.splitlines()))


@pytest.mark.postgres
def test_a_failed_write_on_postgresql_is_one_line(cli, tmp_path, monkeypatch):
    """psycopg logs "error ignored terminating ..." when a COPY fails: that line never reaches stderr."""
    from conftest import PG_URL, _postgres_url  # noqa: F401 (a schema of its own)

    class Request:
        def addfinalizer(self, fn):
            self.fn = fn

    request = Request()
    url = _postgres_url(request)
    try:
        monkeypatch.setenv("YARNLOG_DB", url)
        assert cli("init", "harbor", "--title", "H", "--gm", "Maya")[0] == 0
        assert cli("join", "Ana")[0] == 0
        lines = [{**line, "campaign_id": "copy"} for line in export_of(cli)]
        lines[0]["payload"] = {**lines[0]["payload"], "campaign_id": "copy"}  # the same event ids: COPY fails
        path = tmp_path / "copy.jsonl"
        path.write_text(resealed(lines), encoding="utf-8")
        code, out, err = cli("import", "--without-trailer", str(path))
        assert code in (EXIT_CODES["invalid"], EXIT_CODES["store"]) and out == "", err
        assert err.startswith("error: ") and err.count("\n") == 1, err
        assert cli("campaigns", "--json")[1].count("campaign_id") == 1
    finally:
        from yarnlog.cli.context import close_journal

        close_journal()  # its connections go before its schema does
        request.fn()


def test_verify_names_a_stored_event_beyond_the_limits_whatever_its_type(journal, campaign):
    """An event written past the shells (straight into the store) with a name no command accepts: verify
    names it with the limit, as it names any event no command could have produced."""
    from uuid import uuid4

    from yarnlog.core.envelope import NewEvent

    head = journal.store.last_sequence(campaign)
    journal.store.append(campaign, head, [NewEvent(
        event_id=str(uuid4()), event_type="yarn.supporting.introduced", schema_version=1,
        recorded_at="2026-11-21T21:00:00.000000Z", recorded_by="Maya", visibility="everyone",
        payload={"name": "Old Tom", "description": "x" * 20_001, "introduced_by": "Maya\u202e"})])
    report = journal.verify(campaign)
    assert [(f.sequence, f.problem) for f in report.faults] == [
        (head + 1, "introduced_by: a name holds no control or text-direction characters")]
