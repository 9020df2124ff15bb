"""One episode's stretch of the log, read on its own: what a recap of one episode or the ledger of the
episode in play needs, without reading (or typing) the rest of the history.

An episode's events run from its ``episode.started`` to the event before the next episode's start
(what is recorded between two episodes, experience awarded after ``episode end``, belongs to the
episode just ended), or to the head. The starts are found by their type (the store's index, a row
an episode). An amendment recorded later may reach back into the stretch: every correction and
retraction is read too (by type as well). What came before the stretch comes from the newest sound
state snapshot before it and the events after that snapshot (:meth:`StateCache.before`); when an
amendment recorded after the stretch began reaches back before it, the state there is no longer
what the whole history says it was, and the caller reads the whole history instead (None).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yarnlog.core.envelope import to_recorded

if TYPE_CHECKING:
    from yarnlog.app.state_cache import StateCache
    from yarnlog.app.state_snapshots import Remembered
    from yarnlog.core.events import Recorded

#: The event that starts an episode.
STARTED = "episode.started"


@dataclass(frozen=True)
class EpisodeSpan:
    """Episode ``number``'s events (``first`` to ``last``, in context) and every amendment recorded up
    to ``head`` (the campaign's last event, which ``last`` may be)."""

    number: int
    first: int
    last: int
    head: int
    events: list[Recorded]
    amendments: list[Recorded]


def episode_starts(states: StateCache, campaign_id: str, upto: int | None = None) -> dict[int, int]:
    """Each episode's number -> the sequence of its ``episode.started`` (up to event ``upto``)."""
    starts = states.store.iter_read(campaign_id, upto=upto, event_types=(STARTED,))
    return {int(json.loads(r.payload)["number"]): r.sequence for r in starts}  # its number, nothing typed


def amendments_of(states: StateCache, campaign_id: str, upto: int | None = None) -> list[Recorded]:
    """Every correction and retraction of the campaign up to event ``upto`` (by type, nothing else read)."""
    from yarnlog.app.verify import AMENDMENT_TYPES

    return [to_recorded(r) for r in states.store.iter_read(campaign_id, upto=upto, event_types=AMENDMENT_TYPES)]


def events_of(states: StateCache, campaign_id: str, event_types: frozenset[str] | tuple[str, ...],
              upto: int | None = None) -> list[Recorded]:
    """The campaign's events of ``event_types`` up to event ``upto``, typed, without their context."""
    return [to_recorded(r) for r in states.store.iter_read(campaign_id, upto=upto, event_types=event_types)]


def event_at(states: StateCache, campaign_id: str, sequence: int) -> Recorded | None:
    """The campaign's event ``sequence``, typed, without its context; None if there is none."""
    found = states.store.read(campaign_id, after=sequence - 1, upto=sequence)
    return to_recorded(found[0]) if found else None


def episode_span(states: StateCache, campaign_id: str, number: int, *, base: Remembered | None = None,
                 starts: dict[int, int] | None = None) -> EpisodeSpan | None:
    """Episode ``number``'s stretch of the log at the campaign's head; None if it has not started.

    Its events are placed in context from ``base``'s recorded timeline (the campaign just before
    the stretch), or from an empty one: an episode's own events say which episode and scene each
    belongs to, from its start on (only a note filed under an earlier scene reads an older one).
    ``starts``: :func:`episode_starts`, when the caller has read them.
    """
    from yarnlog.core.state import in_context

    head = states.store.head(campaign_id)
    if head is None:
        return None
    starts = episode_starts(states, campaign_id) if starts is None else starts
    if number not in starts:
        return None
    first = starts[number]
    later = [s for s in starts.values() if s > first]
    last = min(later) - 1 if later else head[0]
    records = [to_recorded(r) for r in states.store.read(campaign_id, after=first - 1, upto=last)]
    events = in_context(records, base.timeline if base is not None else None)[0]
    return EpisodeSpan(number, first, last, head[0], events, amendments_of(states, campaign_id, head[0]))
