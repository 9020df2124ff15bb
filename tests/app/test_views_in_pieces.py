"""Views kept in pieces (bennies, scene-casts): a write works out and rewrites only the blocks whose
pieces may have changed, yet the view served always equals the projection of a full replay, at any
sequence, whatever amendments were recorded, however the journal was read; an amendment reaching
back before the stored view works every piece out again; ``verify --snapshots`` checks the manifest
and every block it lists. No test here measures a time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import Clock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_snapshots import records, replayed

from yarnlog.app.interchange import import_records
from yarnlog.app.journal import Journal
from yarnlog.app.snapshots import encode_view, view_fingerprint, view_kind
from yarnlog.core.decide import Retract
from yarnlog.core.referee import Override, YarnlogError
from yarnlog.core.state import replay
from yarnlog.core.timeline import AddNote
from yarnlog.core.views import BLOCK, LIST, MAP, Update, assemble, blocks
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.memory import MemoryStore

PIECED = ("bennies", "scene-casts")


def projected(state, name: str):
    """The view as the projection gives it, in JSON (what a reader gets back)."""
    return json.loads(encode_view(state.ruleset.views.projections[name](state)))


def rows(store, cid: str, name: str) -> dict:
    """The stored rows of view ``name`` (its manifest and blocks), by kind."""
    return {s.kind: s for s in store.snapshots(cid) if s.kind.partition("#")[0] == view_kind(name)}


class RecordingStore(MemoryStore):
    """Remembers the kinds of the snapshots each call wrote."""

    def __init__(self):
        super().__init__()
        self.written: list[str] = []

    def save_snapshot(self, snapshot):
        self.written.append(snapshot.kind)
        super().save_snapshot(snapshot)


def test_a_view_assembled_from_every_piece_equals_the_projection():
    """The hook's own contract (Yarn's two views), on the generated campaign and the sample."""
    for source in ("sample", "generated"):
        state = replayed(source, len(records(source)))
        for name in PIECED:
            pieces = state.ruleset.views.pieces[name]
            update = pieces.update(state, None)
            stored = json.loads(encode_view(blocks(update.pieces)))
            assert assemble(update.head, pieces.layout, stored) == projected(state, name)


def test_pieces_fill_the_view_in_their_order_as_a_list_or_a_map():
    update = Update({"as_of": 7}, None, {("spent", 40): "c", ("spent", 0): "a", ("spent", 3): "b", ("", 2): "y",
                                          ("", BLOCK + 1): "z", ("spent", 5): None})
    stored = json.loads(json.dumps(blocks(update.pieces)))
    assert sorted(stored) == [".0", ".1", "spent.0", "spent.1"]  # BLOCK pieces a block; None is no piece
    assert assemble(update.head, [("spent", LIST), ("", MAP)], stored) == {
        "as_of": 7, "spent": ["a", "b", "c"], "2": "y", str(BLOCK + 1): "z"}
    assert assemble({}, [("spent", LIST)], {}) == {"spent": []}  # a family with no piece is still there


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sample", "generated"]), st.data())
def test_a_view_kept_in_pieces_equals_a_full_replay_at_any_sequence_with_amendments(source, data):
    """Events arrive in batches (cuts anywhere: amendments of the batch's own events or of earlier
    ones fall where they fall); after each, the views are brought to the head by a journal that
    remembers the campaign or by a fresh one; then a retraction of any event. Every view served is the
    projection of the full replay at that event, and ``verify --snapshots`` finds every row sound."""
    total = len(records(source))
    cid = records(source)[0].campaign_id
    cuts = sorted(set(data.draw(st.lists(st.integers(1, total), min_size=1, max_size=5), label="cuts")))
    store = MemoryStore()
    store.append_verbatim(records(source)[:cuts[0]], 0)
    remembering = Journal(store, snapshot_every=data.draw(st.sampled_from([0, 50]), label="snapshot every"))
    for name in PIECED:
        assert remembering.view(cid, name) == projected(replayed(source, cuts[0]), name)
    at = cuts[0]
    for cut in cuts[1:]:
        store.append_verbatim(records(source)[at:cut], at)
        at = cut
        journal = remembering if data.draw(st.booleans(), label="remembering journal") else Journal(store)
        journal.state(cid)
        journal.refresh_views(cid)
        for name in PIECED:
            assert Journal(store).view(cid, name) == projected(replayed(source, cut), name)
    target = data.draw(st.integers(1, at), label="retracted")
    try:
        remembering.execute(cid, Retract(sequence=target, reason="misheard"))
    except YarnlogError:
        pass  # the rules refuse retracting that one: nothing recorded
    remembering.refresh_views(cid)
    full = replay(Journal(store).history(cid))
    for name in PIECED:
        assert Journal(store).view(cid, name) == projected(full, name)
    assert all(check.ok for check in Journal(store).check_snapshots(cid)), Journal(store).check_snapshots(cid)


def test_a_write_rewrites_only_the_blocks_it_may_have_changed():
    """On the generated campaign (several blocks of scenes and spends), a note rewrites the manifest
    and at most the block of the scene in play and of the episode's vote; the other blocks stay as
    they were stored, at the events they were stored at."""
    store = RecordingStore()
    store.append_verbatim(records("generated"), 0)
    cid = records("generated")[0].campaign_id
    journal = Journal(store, clock=Clock())
    for name in PIECED:
        journal.view(cid, name)
    before = {name: rows(store, cid, name) for name in PIECED}
    assert len(before["scene-casts"]) > 3 and len(before["bennies"]) > 2  # a manifest and several blocks
    store.written.clear()
    [note] = journal.execute(cid, AddNote(text="The fog lifts."))
    journal.refresh_views(cid)
    for name in PIECED:
        written = [kind for kind in store.written if kind.partition("#")[0] == view_kind(name)]
        assert written[-1] == view_kind(name) and len(written) <= 3
        after = rows(store, cid, name)
        assert after[view_kind(name)].sequence == note.sequence
        untouched = set(after) - set(written)
        assert untouched and all(after[kind].sequence == before[name][kind].sequence for kind in untouched)
        assert Journal(store).view(cid, name) == projected(replay(journal.history(cid)), name)


def test_an_amendment_reaching_back_before_the_stored_view_works_every_piece_out_again():
    store = RecordingStore()
    store.append_verbatim(records("sample"), 0)
    journal = Journal(store, clock=Clock())
    for name in PIECED:
        journal.view("lantern", name)
    store.written.clear()
    # Event 115 is a bennie spent in scene 6 (the GM sets aside what later events relied on).
    journal.execute("lantern", Retract(sequence=115, reason="never spent"),
                    override=Override(by="Maya", reason="the table agrees"))
    journal.refresh_views("lantern")
    full = replay(journal.history("lantern"))
    assert len(full.rules.drama.bennie_spends) == len(replayed("sample", 206).rules.drama.bennie_spends) - 1
    for name in PIECED:
        stored = rows(store, "lantern", name)
        assert {kind for kind in store.written if kind.partition("#")[0] == view_kind(name)} == set(stored)
        assert Journal(store).view("lantern", name) == projected(full, name)


def test_a_block_stored_at_another_event_than_listed_is_not_read(caplog):
    store = MemoryStore()
    store.append_verbatim(records("sample"), 0)
    Journal(store).view("lantern", "bennies")
    [block] = [s for kind, s in rows(store, "lantern", "bennies").items() if "#spent" in kind]
    store.save_snapshot(block._replace(sequence=205, head_hash=store.event_hash("lantern", 205), data="[]"))
    full = replayed("sample", 206)
    assert Journal(store).view("lantern", "bennies") == projected(full, "bennies")  # worked out again
    assert rows(store, "lantern", "bennies")[block.kind].sequence == 206  # and kept again
    assert [check.status for check in Journal(store).check_snapshots("lantern")] == ["agrees"] * 3


def test_verify_snapshots_names_a_forged_block_and_leaves_an_unlisted_one(cli, tmp_path):
    store = open_store(tmp_path / "journal.db")
    import_records(store, records("sample"))
    Journal(store).view("lantern", "scene-casts")
    fingerprint = view_fingerprint("yarn", "scene-casts")
    block = store.load_snapshot("lantern", view_kind("scene-casts") + "#.0", fingerprint)
    data = json.loads(block.data)
    data["1"]["cast"] = ["Nobody"]
    store.save_snapshot(block._replace(data=json.dumps(data)))
    store.save_snapshot(block._replace(kind=view_kind("scene-casts") + "#.9"))  # listed by no manifest
    store.close()
    code, out, _ = cli("verify", "--snapshots", "--json")
    statuses = {(s["kind"], s["status"]) for s in json.loads(out)["snapshots"]}
    assert code == 1
    assert statuses == {("view:scene-casts", "differs"), ("view:scene-casts#.0", "differs"),
                        ("view:scene-casts#.9", "unused")}


def test_the_bennies_board_prints_as_the_projection_says_at_the_end_and_as_of_an_event(cli, tmp_path):
    """``yarnlog bennies`` reads the stored pieces at the end: the same text as the replay gives as of
    the last event, before and after a write brought them to the new head (``status`` shows the
    scene casts from the projection itself, the same either way)."""
    store = open_store(tmp_path / "journal.db")
    import_records(store, records("sample"))
    store.close()
    for flags in ((), ("--json",)):
        code, at_end, _ = cli("bennies", *flags)
        assert code == 0 and cli("bennies", *flags, "--as-of", "206")[1] == at_end
    assert cli("note", "The fog lifts.")[0] == 0
    for verb in ("bennies", "status"):
        code, at_end, _ = cli(verb, "--json")
        assert code == 0 and at_end == cli(verb, "--json", "--as-of", "207")[1]
    assert '"spent": [' in cli("bennies", "--json")[1]
    code, out, _ = cli("verify", "--snapshots", "--json")
    assert code == 0 and all(s["status"] == "agrees" for s in json.loads(out)["snapshots"])


def test_reading_a_view_kept_in_pieces_imports_no_rules(tmp_path):
    db = tmp_path / "journal.db"
    store = open_store(db)
    import_records(store, records("sample"))
    Journal(store).view("lantern", "bennies")
    store.close()
    code = (
        "import sys\n"
        "from yarnlog.app.bootstrap import bootstrap\n"
        f"data = bootstrap({str(db)!r}).view('lantern', 'bennies')\n"
        "assert data['as_of'] == 206 and data['spent'], data\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('yarnlog.rulesets.yarn.'))\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_on_every_database_the_pieces_follow_a_write(db_url):
    store = open_store(db_url)
    try:
        store.append_verbatim(records("sample"), 0)
        journal = Journal(store, clock=Clock())
        for name in PIECED:
            journal.view("lantern", name)
        journal.execute("lantern", AddNote(text="later"))
        journal.refresh_views("lantern")
        full = replay(journal.history("lantern"))
        for name in PIECED:
            assert Journal(store).view("lantern", name) == projected(full, name)
        assert all(check.status == "agrees" for check in Journal(store).check_snapshots("lantern"))
    finally:
        store.close()
