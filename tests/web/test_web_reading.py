"""What a participant sees after the journal moves is worked out from their previous view, the new
events they may see folded in: it equals a replay of everything they may see, amendments included."""

from __future__ import annotations

import pytest
from tables import GM_NOTE, run, yarn_table

from yarnlog.app.bootstrap import bootstrap
from yarnlog.web.pages import pages_for
from yarnlog.web.reading import Reader


def views(reader: Reader, name: str):
    seen = reader.seen("harbor", name)
    board = pages_for("yarn").board(seen)
    pages = pages_for("yarn")
    return [r.sequence for r in seen.history], seen.upto, board, pages.ledger(seen), pages.dice(seen)


ROLL = ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "easy", "--faces", "6,5,3,1")


@pytest.mark.parametrize("moves", [
    [ROLL, ("note", GM_NOTE + " twice", "--visibility", "gm"), (*ROLL, "--secret")],
    [ROLL, ("retract", "{head}", "--reason", "recorded twice", "--yes")],  # an amendment: replayed again
])
def test_a_view_folded_forward_equals_a_fresh_replay(tmp_path, moves):
    db = tmp_path / "journal.db"
    yarn_table(db)
    journal = bootstrap(str(db))
    kept = Reader(journal)
    before = {name: views(kept, name) for name in ("Ana", "Ben", "Maya")}
    for move in moves:
        run(db, *(word.format(head=journal.store.head("harbor")[0]) for word in move))
    kept.poll()
    fresh = Reader(bootstrap(str(db)))
    for name in ("Ana", "Ben", "Maya"):
        folded = views(kept, name)
        assert folded != before[name]
        assert folded == views(fresh, name), name


def test_a_server_started_later_reads_each_view_from_its_snapshot_and_replays_nothing(tmp_path, monkeypatch):
    """A player's view is kept in the store (``seen:NAME``) and the campaign's state has its own
    snapshot: a reader started later folds only the events since, and sees what a replay shows."""
    import yarnlog.web.reading as reading
    from yarnlog.app.journal import Journal
    from yarnlog.persistence.factory import open_store

    db = tmp_path / "journal.db"
    yarn_table(db)
    first = Reader(Journal(open_store(str(db)), snapshot_every=1))  # the campaign's state snapshot kept too
    before = {name: views(first, name) for name in ("Ana", "Ben", "Maya")}
    kinds = {s.kind for s in first.journal.store.snapshots("harbor", data=False)}
    assert {"seen:Ana", "seen:Ben"} <= kinds and "seen:Maya" not in kinds  # the GM's view is the state
    for move in [ROLL, ("note", GM_NOTE + " again", "--visibility", "gm"), (*ROLL, "--secret")]:
        run(db, *move)
    expected = {name: views(Reader(bootstrap(str(db))), name) for name in ("Ana", "Ben", "Maya")}

    def no_replay(*args, **kwargs):
        raise AssertionError("replayed although a snapshot was kept")

    later = Reader(Journal(open_store(str(db)), snapshot_every=1))
    monkeypatch.setattr(reading, "replayed", no_replay)
    monkeypatch.setattr(later.journal.states, "_replay_from_log", no_replay)
    for name in ("Ana", "Ben", "Maya"):
        assert views(later, name) == expected[name] != before[name], name
    assert GM_NOTE not in str(later.seen("harbor", "Ana").state)
