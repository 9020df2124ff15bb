"""The journal decides on the campaign it remembers, without reading, and is never wrong for it.

A write decided on a remembered campaign that has moved on is refused by the store (the append
names the sequence it was decided on) and decided again on a fresh read; a refusal is checked
against a fresh read before it stands.
"""

from __future__ import annotations

import pytest
from conftest import Clock, seat_lantern

from yarnlog.app.journal import Journal
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.state import replay
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.memory import MemoryStore
from yarnlog.persistence.protocol import ConcurrencyConflict


class CountingStore(MemoryStore):
    def __init__(self):
        super().__init__()
        self.reads = 0

    def read(self, campaign_id, *, after=0, upto=None):
        self.reads += 1
        return super().read(campaign_id, after=after, upto=upto)


@pytest.fixture
def shared():
    """Two journals (two processes, say) on one store, both having seen the campaign."""
    store = CountingStore()
    mine, theirs = Journal(store, clock=Clock()), Journal(store, clock=Clock())
    cid = seat_lantern(mine)
    theirs.state(cid)
    return store, mine, theirs, cid


def test_commands_on_a_remembered_campaign_read_nothing(shared):
    store, mine, _, cid = shared
    before = store.reads
    for text in ("one", "two", "three"):
        mine.execute(cid, AddNote(text=text))
    assert store.reads == before
    assert mine.state(cid) == replay(Journal(store).history(cid))


def test_a_write_decided_on_a_stale_campaign_is_decided_again_after_the_other_writer(shared):
    store, mine, theirs, cid = shared
    theirs.execute(cid, AddNote(text="theirs"))
    [recorded] = mine.execute(cid, AddNote(text="mine"))
    assert recorded.sequence == store.last_sequence(cid) == 6
    assert [r.payload.text for r in mine.history(cid)[-2:]] == ["theirs", "mine"]
    assert mine.state(cid) == theirs.state(cid) == replay(Journal(store).history(cid))


def test_a_lost_race_without_retries_is_a_conflict_and_the_next_command_reads_afresh(shared):
    store, mine, theirs, cid = shared
    theirs.execute(cid, AddNote(text="theirs"))
    with pytest.raises(ConcurrencyConflict):
        mine.execute(cid, AddNote(text="mine"), retries=1)
    assert store.last_sequence(cid) == 5
    [recorded] = mine.execute(cid, AddNote(text="mine"), retries=1)
    assert recorded.sequence == 6


def test_a_refusal_on_a_stale_campaign_is_checked_against_the_journal_as_it_is(shared):
    store, mine, theirs, cid = shared
    theirs.execute(cid, AddParticipant(name="Dee"))
    # Mine last saw a table without Dee; the journal has her seated now.
    [recorded] = mine.execute(cid, AddNote(text="Dee's aside"), by="Dee")
    assert recorded.recorded_by == "Dee" and recorded.sequence == 6


def test_a_refusal_that_stands_writes_nothing(shared):
    store, mine, _, cid = shared
    with pytest.raises(InvalidCommand, match="Eve is not at this campaign's table"):
        mine.execute(cid, AddNote(text="who?"), by="Eve")
    assert store.last_sequence(cid) == 4
