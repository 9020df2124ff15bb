"""A DramaSystem campaign replayed in place (``core.state.Replay`` through ``Composition.thaw``) is
the campaign folded one event at a time, as the journal that recorded it remembers it."""

from __future__ import annotations

from dataclasses import replace

from yarnlog.app.journal import Journal
from yarnlog.core.corrections import effective
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import empty_state, evolve, replay

from .storm_table import CAMPAIGN, _played_scene


def test_a_played_scene_replayed_in_place_is_the_state_folded_one_event_at_a_time(journal):
    _played_scene(journal)
    history = journal.history(CAMPAIGN)
    expected = empty_state()
    for recorded in effective(history):
        expected = evolve(expected, recorded)
    assert get_ruleset("dramasystem").rules.thaw is not None
    assert replay(history) == replace(expected, sequence=history[-1].sequence) == journal.state(CAMPAIGN)
    # A journal reading the campaign for the first time streams it through the same replay.
    assert Journal(journal.store).state(CAMPAIGN) == journal.state(CAMPAIGN)
