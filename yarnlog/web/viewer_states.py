"""A player's view of a campaign kept up to date: replayed once from what they may see, folded
forward with each new event they may see, and kept in the store as a snapshot so that a server
started later folds only the events since (never a replay of the whole history when one exists).

A player's state is the replay of the events they may see alone (:mod:`yarnlog.web.seen`), so it
cannot be taken from the GM's state: it has a snapshot of its own, kind ``seen:NAME``, written with
the campaign state's codec (:mod:`yarnlog.app.snapshots`) under a fingerprint that also covers the
rule of who sees what. It holds the player's state and the campaign's timeline as recorded at the
event it was taken at (``sequence``, with that event's hash): the timeline places the events after
it in their episode and scene. Like every snapshot it is a cache, read only while it matches the
log; one that cannot be read or kept is logged and ignored.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from yarnlog.app.snapshots import decode_state, encode_state, state_codec
from yarnlog.app.state_snapshots import SNAPSHOT_EVERY, load_snapshot, save_snapshot
from yarnlog.core.corrections import Amendments, Correction, Retraction
from yarnlog.core.envelope import to_recorded
from yarnlog.core.events import Recorded
from yarnlog.core.state import CampaignState, Replay, evolve, paused_gc, stream_stored_in_context, visible_to
from yarnlog.persistence.protocol import Snapshot

if TYPE_CHECKING:
    from yarnlog.core.table import Table
    from yarnlog.core.timeline import Timeline
    from yarnlog.persistence.protocol import EventStore

log = logging.getLogger(__name__)

#: The snapshot kind of a participant's view.
KIND = "seen:"
#: The event types that change an earlier event: a view that sees one is replayed again.
AMENDMENT_TYPES = frozenset({"correction", "retraction"})


@functools.cache
def seen_fingerprint(ruleset: str) -> str:
    """The campaign state's fingerprint and the rule of who sees what (its code), together."""
    material = [state_codec(ruleset)[1], inspect.getsource(visible_to)]
    return hashlib.sha256(repr(material).encode()).hexdigest()[:24]


@dataclass(frozen=True)
class ViewerState:
    """What ``name`` may see, folded to event ``at`` of the campaign: ``state`` is the replay of the
    events they may see up to there (its sequence is the last of them, 0 if none); ``folded`` counts
    the events folded since it was last kept in the store (``kept``)."""

    name: str
    state: CampaignState[Any]
    at: int
    folded: int = 0
    kept: bool = False

    @property
    def upto(self) -> int:
        """The last event the viewer may see (a player's point: the head would count hidden ones after it)."""
        return self.state.sequence

    def fold(self, new: Iterable[Recorded], table: Table, at: int) -> ViewerState | None:
        """This view with the ``new`` events (the campaign's, in context, right after ``self.at``) it
        may see folded in, at event ``at``; ``None`` when one of them amends an earlier event (the view
        must be replayed again)."""
        visible = [r for r in new if visible_to(r, self.name, table)]
        if any(isinstance(r.payload, (Correction, Retraction)) for r in visible):
            return None
        state = self.state
        for recorded in visible:
            state = evolve(state, recorded)
        return replace(self, state=state, at=at, folded=self.folded + len(visible))


def replayed(store: EventStore, campaign_id: str, name: str, table: Table, upto: int) -> tuple[ViewerState, Timeline]:
    """``name``'s view at event ``upto``, replayed from the store as it streams (the history is never
    held whole), and the campaign's timeline as recorded there. Equal to ``replay`` of the events the
    viewer may see, their amendments applied (the amendments they may not see change nothing for them)."""
    from yarnlog.core.state import empty_state

    amendments = Amendments(r for r in map(to_recorded, store.iter_read(campaign_id, upto=upto,
                                                                      event_types=AMENDMENT_TYPES))
                            if visible_to(r, name, table))
    frame = Replay()
    last = 0
    timeline = empty_state().timeline
    with paused_gc():
        for recorded, timeline in stream_stored_in_context(store.iter_read(campaign_id, upto=upto)):
            if not visible_to(recorded, name, table):
                continue
            last = recorded.sequence
            amended = amendments.apply(recorded) if amendments else recorded
            if amended is not None:
                frame.fold(amended)
    return ViewerState(name, frame.freeze(last), upto), timeline


def read_kept(store: EventStore, campaign_id: str, name: str, ruleset: str) -> tuple[ViewerState, Timeline] | None:
    """``name``'s view as last kept in the store, if it still matches the log; else ``None``."""
    try:
        codec = state_codec(ruleset)[0]
        snapshot = load_snapshot(store, campaign_id, KIND + name, seen_fingerprint(ruleset))
        if snapshot is None or store.event_hash(campaign_id, snapshot.sequence) != snapshot.head_hash:
            return None
        state, timeline = decode_state(codec, snapshot.data)
        if state.table.campaign_id != campaign_id or state.sequence > snapshot.sequence:
            return None
    except Exception as exc:  # a cache that cannot be used is a cache missed, whatever went wrong
        log.warning("cannot use the kept view of %s in %s (%s); replaying", name, campaign_id, exc)
        return None
    return ViewerState(name, state, snapshot.sequence, kept=True), timeline


def keep(store: EventStore, campaign_id: str, view: ViewerState, timeline: Timeline, head_hash: str,
         clock: Callable[[], str], *, every: int = SNAPSHOT_EVERY) -> ViewerState:
    """``view``, kept in the store (``timeline``: the campaign's as recorded at ``view.at``, whose hash
    is ``head_hash``) when it was never kept or has folded ``every`` events since it was."""
    if every <= 0 or (view.kept and view.folded < every):
        return view
    ruleset = view.state.table.ruleset
    try:
        text = encode_state(state_codec(ruleset)[0], view.state, timeline)
    except Exception as exc:
        log.warning("cannot encode the view of %s in %s (%s): not kept", view.name, campaign_id, exc)
        return view
    if save_snapshot(store, Snapshot(campaign_id, KIND + view.name, seen_fingerprint(ruleset), view.at, head_hash,
                                     text, clock())):
        return replace(view, folded=0, kept=True)
    return view
