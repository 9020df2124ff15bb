"""Replaying a campaign straight from its store, one event at a time: memory flat in its length.

The journal service remembers a campaign's history to serve later commands and reads; this is
the replay that keeps nothing but the state, for whoever wants only the state at the end (a
report, a board, a snapshot), whatever the length of the history.
"""

from __future__ import annotations

from typing import Any

from yarnlog.app.verify import AMENDMENT_TYPES
from yarnlog.core.corrections import Amendments
from yarnlog.core.envelope import to_recorded
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.state import paused_gc, replay_stream, stream_stored_in_context
from yarnlog.persistence.protocol import EventRecorder


def replay_stored(store: EventRecorder, campaign_id: str, *, upto: int | None = None,
                  batch: int = 1000) -> CampaignState[Any]:
    """The campaign replayed from its stored events (up to event ``upto``), none of them kept.

    Equal to :func:`yarnlog.core.state.replay` of the whole history in context. The store is
    read twice, both times up to the event that was last when the replay began: first the
    corrections and retractions (by their type, through the index), since they reach back to
    earlier events, then every event, ``batch`` at a time.
    """
    last = store.last_sequence(campaign_id)
    if not last:
        raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
    end = last if upto is None else min(upto, last)
    with paused_gc():
        amendments = Amendments(map(to_recorded, store.iter_read(campaign_id, upto=end, batch=batch,
                                                                 event_types=AMENDMENT_TYPES)))
        return replay_stream(stream_stored_in_context(store.iter_read(campaign_id, upto=end, batch=batch)),
                             amendments)
