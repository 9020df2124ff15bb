"""Undo takes back the whole entry (issue 26): a retraction of an event recorded with a GM's
override retracts the override and every event it let through, and the projections forget them all."""

from __future__ import annotations

from yarnlog.app.verify import verify
from yarnlog.core.corrections import effective
from yarnlog.core.decide import Retract
from yarnlog.core.referee import Override
from yarnlog.core.timeline import EndEpisode

from .drama_table import GM, seat_characters


def test_retracting_one_event_of_an_overridden_entry_retracts_the_whole_entry(journal, campaign):
    seat_characters(journal, campaign)
    entry = journal.execute(campaign, EndEpisode(), override=Override(by=GM, reason="no vote tonight"))
    assert entry[0].event_type == "override.recorded" and len(entry) > 2
    assert entry[0].payload.covers == len(entry) - 1
    middle = entry[len(entry) // 2]
    retractions = journal.execute(campaign, Retract(middle.sequence, "the episode is not over"))
    assert [r.payload.retracts for r in retractions][0] == middle.sequence  # the event named first
    assert sorted(r.payload.retracts for r in retractions) == [r.sequence for r in entry]
    live = {r.sequence for r in effective(journal.history(campaign))}
    assert not live & {r.sequence for r in entry}
    state = journal.state(campaign)
    assert state.timeline.episode == 1  # the episode is back in play
    assert verify(journal.stored_events(campaign), campaign).ok


def test_a_retraction_of_an_event_recorded_alone_retracts_it_alone(journal, campaign):
    seat_characters(journal, campaign)
    from yarnlog.core.timeline import AddNote

    [note] = journal.execute(campaign, AddNote("a note"))
    [retraction] = journal.execute(campaign, Retract(note.sequence, "wrong table"))
    assert retraction.payload.retracts == note.sequence
