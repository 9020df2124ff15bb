"""Snapshots and views: a snapshot-backed read equals a full replay, at any sequence, on any store;
a snapshot that is stale, of another fingerprint, off the chain or undone by an amendment is
extended or ignored, never trusted; views equal the projection of a full replay; ``verify
--snapshots`` finds a forged one. No test here measures a time."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import Clock, seat_lantern
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.snapshots import (
    STATE,
    STATE_KINDS,
    encode_state,
    encode_view,
    slot_for,
    state_codec,
    view_fingerprint,
    view_kind,
)
from yarnlog.core.decide import Correct, Retract
from yarnlog.core.envelope import canonical, to_recorded
from yarnlog.core.state import in_context, replay
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.memory import MemoryStore
from yarnlog.persistence.protocol import Snapshot, StoreError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "journals" / "lantern-harbor.jsonl"
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

VIEWS = ("tokens", "bennies", "calling-order")


@functools.cache
def records(source: str) -> list:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines() if source == "sample" else \
        [canonical(line) for line in generate.events(700)]
    return parse_lines(lines)


@functools.cache
def replayed(source: str, sequence: int):
    return replay(in_context([to_recorded(r) for r in records(source)[:sequence]])[0])


class CountingStore(MemoryStore):
    """Remembers which windows were read, to tell a snapshot-backed read from a full replay."""

    def __init__(self):
        super().__init__()
        self.reads: list[tuple[int, int | None]] = []

    def read(self, campaign_id, *, after=0, upto=None):
        self.reads.append((after, upto))
        return super().read(campaign_id, after=after, upto=upto)


def windows(reads: list[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """The reads of more than one event (an amended event read on its own, to see what it amends, aside)."""
    return [(after, upto) for after, upto in reads if upto is None or upto - after > 1 or after == 0]


def check_snapshot_backed_read(store, source: str, taken: int, read: int) -> None:
    """Events up to ``taken``, a snapshot there, events up to ``read``: a fresh journal's state is the replay's."""
    cid = records(source)[0].campaign_id
    store.append_verbatim(records(source)[:taken], 0)  # not import: a cut may split an override from its cover
    Journal(store, snapshot_every=1).state(cid)  # keeps a snapshot at ``taken``
    [kept] = [s for s in store.snapshots(cid) if s.kind == STATE]
    assert kept.sequence == taken
    if read > taken:
        store.append_verbatim(records(source)[taken:read], taken)
    fresh = Journal(store, snapshot_every=10**9)  # never keeps another: reads the one above
    assert fresh.state(cid) == replayed(source, read)
    board = replayed(source, read)
    assert fresh.view(cid, "tokens") == json.loads(encode_view(board.ruleset.views.projections["tokens"](board)))


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sample", "generated"]), st.data())
def test_a_snapshot_backed_read_equals_a_full_replay_at_any_sequence_in_memory(source, data):
    total = len(records(source))
    taken = data.draw(st.integers(1, total), label="snapshot taken at")
    read = data.draw(st.integers(taken, total), label="read at")
    check_snapshot_backed_read(MemoryStore(), source, taken, read)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_snapshot_backed_read_equals_a_full_replay_at_any_sequence_on_sqlite(data):
    total = len(records("sample"))
    taken = data.draw(st.integers(1, total), label="snapshot taken at")
    read = data.draw(st.integers(taken, total), label="read at")
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "journal.db")
        try:
            check_snapshot_backed_read(store, "sample", taken, read)
        finally:
            store.close()


def test_a_fresh_journal_reads_only_the_events_after_a_sound_snapshot():
    store = CountingStore()
    store.append_verbatim(records("sample")[:196], 0)  # past the sample's retraction (event 195)
    Journal(store, snapshot_every=100).state("lantern")
    store.append_verbatim(records("sample")[196:], 196)
    store.reads.clear()
    fresh = Journal(store)
    assert fresh.state("lantern") == replayed("sample", len(records("sample")))
    assert (196, None) in store.reads
    assert [r for r in store.reads if r[0] == 0] == [(0, 1)]  # the first event (its ruleset), never the whole log


def test_a_journal_keeps_a_snapshot_once_it_has_folded_enough_events():
    store = MemoryStore()
    journal = Journal(store, clock=Clock(), snapshot_every=5)
    cid = seat_lantern(journal)  # 4 events: not yet
    assert store.snapshots(cid) == []
    for text in ("one", "two", "three"):
        journal.execute(cid, AddNote(text=text))
    [kept] = store.snapshots(cid)
    assert (kept.kind, kept.sequence) == (STATE, 5)
    assert kept.head_hash == store.event_hash(cid, 5)


def forge(store, cid: str, sequence: int, *, state_sequence: int | None = None, fingerprint: str | None = None,
          head_hash: str | None = None) -> None:
    """Store a state snapshot claiming event ``sequence`` but holding the state at ``state_sequence``."""
    codec, fp = state_codec("yarn")
    state = replayed("sample", state_sequence or sequence)
    timeline = in_context([to_recorded(r) for r in records("sample")[:state_sequence or sequence]])[1][-1]
    from dataclasses import replace

    text = encode_state(codec, replace(state, sequence=sequence), timeline)
    store.save_snapshot(Snapshot(cid, STATE, fingerprint or fp, sequence,
                                 head_hash or store.event_hash(cid, sequence), text, "now"))


@pytest.fixture
def sample_store():
    store = CountingStore()
    import_records(store, records("sample"))
    return store


def test_a_snapshot_of_another_fingerprint_is_ignored(sample_store):
    forge(sample_store, "lantern", 150, state_sequence=10, fingerprint="written-by-other-code")
    assert Journal(sample_store).state("lantern") == replayed("sample", 206)


def test_a_snapshot_whose_event_has_another_hash_is_ignored(sample_store):
    forge(sample_store, "lantern", 150, state_sequence=10, head_hash="0" * 64)
    assert Journal(sample_store).state("lantern") == replayed("sample", 206)


def test_a_snapshot_that_cannot_be_read_is_ignored(sample_store):
    _, fp = state_codec("yarn")
    sample_store.save_snapshot(Snapshot("lantern", STATE, fp, 150, sample_store.event_hash("lantern", 150),
                                        '["c", "os:system", {}]', "now"))
    assert Journal(sample_store).state("lantern") == replayed("sample", 206)


def test_a_sound_snapshot_is_trusted_which_is_why_verify_can_check_it(sample_store):
    forge(sample_store, "lantern", 200, state_sequence=10)  # right fingerprint and hash, wrong content
    assert Journal(sample_store).state("lantern") != replayed("sample", 206)
    [check] = Journal(sample_store).check_snapshots("lantern")
    assert (check.kind, check.sequence, check.status) == (STATE, 200, "differs")
    assert not check.ok


def test_amendments_of_events_before_the_newest_snapshot_start_from_the_newest_one_before_them():
    store = CountingStore()
    journal = Journal(store, clock=Clock(), snapshot_every=3)
    cid = seat_lantern(journal)
    for text in ("one", "two", "three", "four"):
        journal.execute(cid, AddNote(text=text))
    kept = sorted(s.sequence for s in store.snapshots(cid) if s.kind in STATE_KINDS)
    first_note = 5
    assert kept == [3, 6]
    other = Journal(store, clock=Clock(), snapshot_every=10**9)
    other.execute(cid, Correct(sequence=first_note, changes={"text": "corrected"}, reason="typo"))
    other.execute(cid, Retract(sequence=first_note + 1, reason="never said"))
    store.reads.clear()
    fresh = Journal(store, snapshot_every=10**9)
    state = fresh.state(cid)
    assert windows(store.reads) == [(0, 1), (6, None), (3, 10)]  # the tail after 6 amends 5: from the snapshot at 3
    assert state == replay(fresh.history(cid))
    assert journal.state(cid) == replay(fresh.history(cid))  # the remembered one, folding the amendments in


def keep_snapshots_at(store, source: str, cuts: list[int], read: int) -> str:
    """The campaign's events up to ``read``, a state snapshot kept at each of ``cuts`` (ascending)."""
    cid = records(source)[0].campaign_id
    at = 0
    for cut in cuts:
        store.append_verbatim(records(source)[at:cut], at)
        at = cut
        Journal(store, snapshot_every=1).state(cid)
    store.append_verbatim(records(source)[at:read], at)
    return cid


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sample", "generated"]), st.data())
def test_a_read_after_snapshots_and_amendments_anywhere_equals_a_full_replay(source, data):
    """Whatever the snapshots kept and wherever the amendments after them reach back to, a fresh
    journal's state (and a remembered one's, folding amendments as they come) is the full replay's."""
    total = len(records(source))
    cuts = sorted(set(data.draw(st.lists(st.integers(1, total), min_size=1, max_size=4), label="snapshots at")))
    read = data.draw(st.integers(cuts[-1], total), label="read at")
    store = MemoryStore()
    cid = keep_snapshots_at(store, source, cuts, read)
    kept = sorted(s.sequence for s in store.snapshots(cid) if s.kind in STATE_KINDS)
    assert kept == cuts[-3:]  # the newest three are kept
    assert Journal(store, snapshot_every=10**9).state(cid) == replayed(source, read)


def test_an_amendment_in_the_tail_of_events_after_the_snapshot_folds_on_from_the_snapshot():
    """The sample retracts event 194 at event 195: from a snapshot at 150 the tail holds both, so the
    fold goes on from the snapshot, the retraction applied (no read from the first event)."""
    store = CountingStore()
    cid = keep_snapshots_at(store, "sample", [150], len(records("sample")))
    store.reads.clear()
    fresh = Journal(store, snapshot_every=10**9)
    assert fresh.state(cid) == replayed("sample", len(records("sample")))
    assert store.reads == [(0, 1), (150, None)]  # the ruleset, then the tail only


def test_an_amendment_of_an_event_before_the_newest_snapshot_starts_from_an_older_one():
    """Snapshots at 120 and 194, the retraction (195) of event 194: the newest state holds event 194
    folded, so the fold starts from the snapshot at 120, never from the first event."""
    store = CountingStore()
    cid = keep_snapshots_at(store, "sample", [120, 194], len(records("sample")))
    store.reads.clear()
    fresh = Journal(store, snapshot_every=10**9)
    assert fresh.state(cid) == replayed("sample", len(records("sample")))
    assert windows(store.reads) == [(0, 1), (194, None), (120, len(records("sample")))]


def test_a_remembered_campaign_amended_starts_from_the_snapshot_before_the_event_amended():
    store = CountingStore()
    journal = Journal(store, clock=Clock(), snapshot_every=3)
    cid = seat_lantern(journal)
    for text in ("one", "two", "three", "four", "five", "six", "seven"):
        journal.execute(cid, AddNote(text=text))
    kept = sorted(s.sequence for s in store.snapshots(cid) if s.kind in STATE_KINDS)
    assert len(kept) == 3
    store.reads.clear()
    [retraction] = journal.execute(cid, Retract(sequence=kept[1] + 1, reason="never said"))
    # The amendment is decided on the history (its audit needs it); the fold then reads only the
    # events after the snapshot before the event retracted.
    assert windows(store.reads) == [(0, retraction.sequence - 1), (kept[1], retraction.sequence)]
    assert journal.state(cid) == replay(journal.history(cid))


def test_a_new_state_snapshot_replaces_the_oldest_and_never_a_newer_one():
    def mark(kind, sequence, fingerprint="fp"):
        return Snapshot("c", kind, fingerprint, sequence, "h", "", "now")

    assert slot_for([], "fp") == STATE_KINDS[0]
    assert slot_for([mark(STATE_KINDS[0], 10), mark("view:tokens", 30)], "fp") == STATE_KINDS[1]
    full = [mark(kind, sequence) for kind, sequence in zip(STATE_KINDS, (30, 10, 20))]
    assert slot_for(full, "fp") == STATE_KINDS[1]
    assert slot_for([*full[:2], mark(STATE_KINDS[2], 99, "other code")], "fp") == STATE_KINDS[2]


def test_a_failed_snapshot_write_never_fails_a_command(caplog):
    class Refusing(MemoryStore):
        def save_snapshot(self, snapshot):
            raise StoreError("disk full")

    store = Refusing()
    journal = Journal(store, clock=Clock(), snapshot_every=1)
    cid = seat_lantern(journal)
    [recorded] = journal.execute(cid, AddNote(text="still recorded"))
    assert recorded.sequence == 5
    assert journal.view(cid, "tokens")["as_of"] == 5
    assert "disk full" in caplog.text


@pytest.mark.parametrize("name", VIEWS)
def test_a_view_equals_the_projection_of_a_full_replay_and_follows_new_events(sample_store, name):
    journal = Journal(sample_store)
    full = replayed("sample", 206)
    assert journal.view("lantern", name) == json.loads(json.dumps(full.ruleset.views.projections[name](full)))
    [kept] = [s for s in sample_store.snapshots("lantern") if s.kind == view_kind(name)]
    assert (kept.sequence, kept.head_hash) == sample_store.head("lantern")
    # Stale once an event is appended (by anyone): computed again, at the new head.
    Journal(sample_store, clock=Clock()).execute("lantern", AddNote(text="later"))
    again = Journal(sample_store)
    later = replay(again.history("lantern"))
    assert again.view("lantern", name) == json.loads(json.dumps(later.ruleset.views.projections[name](later)))


def test_a_stored_view_at_the_head_is_served_without_a_replay(sample_store):
    Journal(sample_store).view("lantern", "tokens")
    sample_store.reads.clear()
    assert Journal(sample_store).view("lantern", "tokens")["as_of"] == 206
    assert sample_store.reads == [(0, 1)]  # the first event (the ruleset's name); no events folded


def test_an_unknown_view_is_refused(sample_store):
    with pytest.raises(Exception, match="no view called 'nope'"):
        Journal(sample_store).view("lantern", "nope")


def test_verify_names_a_forged_view_at_the_head_and_verify_snapshots_checks_every_row(cli, tmp_path):
    store = open_store(tmp_path / "journal.db")
    import_records(store, records("sample"))
    Journal(store).view("lantern", "tokens")
    Journal(store).view("lantern", "bennies")
    forged = store.load_snapshot("lantern", view_kind("tokens"), view_fingerprint("yarn", "tokens"))
    data = json.loads(forged.data)
    data["participants"][0]["drama_tokens"] += 5
    store.save_snapshot(forged._replace(data=json.dumps(data)))
    store.close()

    code, out, _ = cli("verify", "--json")
    assert code == 1 and [(f["sequence"], f["event_type"]) for f in json.loads(out)["faults"]] == [(206, "view:tokens")]
    code, out, _ = cli("verify", "--snapshots", "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]
    # The bennies view is kept in pieces: its manifest and each of its blocks agree.
    assert {(s["kind"], s["status"]) for s in report["snapshots"]} == {
        ("view:bennies", "agrees"), ("view:bennies#results.0", "agrees"), ("view:bennies#spent.0", "agrees"),
        ("view:tokens", "differs")}
    code, _, err = cli("verify", "--snapshots")
    assert code == 1 and "view:tokens at event 206: differs" in err


def test_the_board_at_the_end_is_the_stored_view_and_as_of_an_event_the_replay(cli, tmp_path):
    store = open_store(tmp_path / "journal.db")
    import_records(store, records("sample"))
    store.close()
    code, out, _ = cli("tokens", "--json")
    assert code == 0
    code, as_of, _ = cli("tokens", "--json", "--as-of", "206")
    assert out == as_of
    code, out, _ = cli("verify", "--snapshots", "--json")
    assert code == 0 and [s["status"] for s in json.loads(out)["snapshots"]] == ["agrees"]


def test_a_command_brings_the_views_people_read_to_the_new_head(cli, tmp_path):
    store = open_store(tmp_path / "journal.db")
    import_records(store, records("sample"))
    store.close()
    assert cli("tokens", "--json")[0] == 0  # someone reads the tokens board: its view is kept
    assert cli("note", "The fog lifts.", "--json")[0] == 0
    store = open_store(tmp_path / "journal.db")
    try:
        views = {s.kind: s for s in store.snapshots("lantern")}
        assert set(views) == {"view:tokens"}  # only the views someone reads
        assert (views["view:tokens"].sequence, views["view:tokens"].head_hash) == store.head("lantern")
        later = replay(Journal(store).history("lantern"))
        expected = json.loads(encode_view(later.ruleset.views.projections["tokens"](later)))
        assert json.loads(views["view:tokens"].data) == expected
    finally:
        store.close()


def test_reading_a_stored_view_imports_no_rules(tmp_path):
    """The board at the campaign's end is a few rows: the ruleset's parts (pydantic payloads, every
    fold) are not even imported (a fresh process, as the command line starts)."""
    db = tmp_path / "journal.db"
    store = open_store(db)
    import_records(store, records("sample"))
    Journal(store).view("lantern", "tokens")
    store.close()
    code = (
        "import sys\n"
        "from yarnlog.app.bootstrap import bootstrap\n"
        f"data = bootstrap({str(db)!r}).view('lantern', 'tokens')\n"
        "assert data['as_of'] == 206, data\n"
        # (the bare package ``yarnlog.rulesets.yarn`` is, to find its source for the fingerprint)
        "loaded = sorted(m for m in sys.modules if m.startswith('yarnlog.rulesets.yarn.'))\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
def test_a_state_snapshot_kept_by_one_process_is_the_start_of_the_next(tmp_path):
    """The state's fingerprint is the same in every process (no memory address of a validator in
    the structure it hashes), so a fresh process, as every one-shot command is, starts from the
    snapshot the last one kept: it reads no event before it but the first (its ruleset's name).
    Both are fresh processes: this one's fingerprint also covers the event types tests register."""
    db = tmp_path / "journal.db"
    store = open_store(db)
    import_records(store, records("sample"))
    store.close()
    code = (
        "import json, sys\n"
        "from yarnlog.app.journal import Journal\n"
        "from yarnlog.app.snapshots import state_codec\n"
        "from yarnlog.persistence.factory import open_store\n"
        f"store = open_store({str(db)!r})\n"
        "reads = []\n"
        "read, iter_read = store.read, store.iter_read\n"
        "store.read = lambda c, **kw: reads.append([kw.get('after', 0), kw.get('upto')]) or read(c, **kw)\n"
        "store.iter_read = lambda c, **kw: reads.append([kw.get('after', 0), kw.get('upto')]) or iter_read(c, **kw)\n"
        "keeps = sys.argv[1] == 'keep'\n"
        "assert Journal(store, snapshot_every=1 if keeps else 500).state('lantern').sequence == 206\n"
        "print(json.dumps([state_codec('yarn')[1], reads]))\n"
    )
    (kept_under, _), (read_under, reads) = (
        json.loads(subprocess.run([sys.executable, "-c", code, mode], check=True, capture_output=True,
                                  text=True).stdout) for mode in ("keep", "read"))
    assert kept_under == read_under
    # the events after the snapshot (none), and the first event alone (the ruleset's name)
    assert reads and all(after == 206 or upto == 1 for after, upto in reads), reads


def test_on_every_database_a_read_starts_from_the_snapshot_and_a_view_from_its_row(db_url):
    store = open_store(db_url)
    try:
        store.append_verbatim(records("sample")[:196], 0)
        Journal(store, snapshot_every=1).view("lantern", "tokens")
        store.append_verbatim(records("sample")[196:], 196)
        fresh = Journal(store)
        assert fresh.state("lantern") == replayed("sample", 206)
        full = replayed("sample", 206)
        tokens = full.ruleset.views.projections["tokens"]
        assert fresh.view("lantern", "tokens") == json.loads(encode_view(tokens(full)))
        assert [c.status for c in Journal(store).check_snapshots("lantern")] == ["agrees", "agrees"]
    finally:
        store.close()


def test_retracting_an_amendment_from_before_the_snapshots_starts_from_before_what_it_undoes():
    """Retracting a retraction undoes it: the note it had retracted, before every snapshot but one,
    comes back. The fold starts before that note (from the first snapshot), not merely before the
    retraction undone, and a fresh journal's state, like the remembered one's, is the full replay's."""
    store = CountingStore()
    journal = Journal(store, clock=Clock(), snapshot_every=3)
    cid = seat_lantern(journal)  # a snapshot at 3
    [note] = journal.execute(cid, AddNote(text="said"))
    [undo] = journal.execute(cid, Retract(sequence=note.sequence, reason="never said"))
    for text in ("two", "three", "four", "five"):
        journal.execute(cid, AddNote(text=text))
    kept = sorted(s.sequence for s in store.snapshots(cid) if s.kind in STATE_KINDS)
    assert kept[0] < note.sequence < undo.sequence <= kept[1]
    [redo] = journal.execute(cid, Retract(sequence=undo.sequence, reason="she said it after all"))
    assert journal.state(cid) == replay(journal.history(cid))
    assert any(n.payload.text == "said" for n in journal.history(cid) if n.sequence == note.sequence)
    store.reads.clear()
    fresh = Journal(store, snapshot_every=10**9)
    assert fresh.state(cid) == replay(fresh.history(cid))
    assert (kept[0], redo.sequence) in store.reads  # the tail read again from the snapshot before the note


def test_verify_names_a_state_snapshot_that_lies(cli, tmp_path):
    """A read starts from the newest sound state snapshot: a forged one (right fingerprint and hash)
    makes every board lie, so plain ``verify`` compares it with the replay at its event."""
    store = open_store(tmp_path / "journal.db")
    import_records(store, records("sample"))
    forge(store, "lantern", 200, state_sequence=10)
    store.close()
    code, out, _ = cli("verify", "--json")
    assert code == 1
    assert [(f["sequence"], f["event_type"]) for f in json.loads(out)["faults"]] == [(200, STATE)]


@pytest.mark.parametrize("view", ["tokens", "bennies"])
def test_a_cached_view_rewritten_in_the_database_is_named_by_plain_verify(cli, db_url, view):
    """Issue 21: the writer may rewrite the cache rows; with one UPDATE ``tokens`` showed Ana holding
    42 while ``verify`` passed. Plain verify now compares each view at the head with the replay (the
    bennies view is kept in pieces: its block is rewritten)."""
    from sqlalchemy import create_engine, text

    from yarnlog.persistence.factory import database_url

    assert cli("--db", db_url, "import", str(SAMPLE))[0] == 0
    assert cli("--db", db_url, "verify")[0] == 0
    assert cli("--db", db_url, view, "--json")[0] == 0  # read once: its view is kept
    engine = create_engine(database_url(db_url))
    with engine.begin() as conn:
        field = '"drama_tokens":0' if view == "tokens" else '"Ana":1'
        changed = conn.execute(text("UPDATE snapshots SET data = replace(data, :was, :now) WHERE kind LIKE :kind"),
                               {"was": field, "now": field[:-1] + "42", "kind": f"view:{view}%"}).rowcount
    engine.dispose()
    assert changed
    code, out, _ = cli("--db", db_url, view, "--json")
    assert code == 0 and "42" in out  # the read serves the cache as it is
    code, _, err = cli("--db", db_url, "verify")
    assert code == 1
    assert f"view:{view}" in err and f"the {view} view differs from a full replay" in err
    code, _, err = cli("--db", db_url, "verify", "--snapshots")
    assert code == 1 and "differs" in err
