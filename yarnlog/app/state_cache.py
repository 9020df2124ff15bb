"""The state cache: each campaign's state as this process last saw it.

A campaign is served from what this process remembers, folding in only the events it has not seen
yet; a campaign not seen yet starts from the newest sound state snapshot
(:mod:`yarnlog.app.state_snapshots`), else from a replay of the log streamed from the store. After
folding ``snapshot_every`` events or more since the last snapshot it keeps a new one (0: it neither
keeps nor reads state snapshots).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from yarnlog.app.state_snapshots import SNAPSHOT_EVERY, Remembered, StateSnapshots
from yarnlog.core.envelope import StoredEvent, to_recorded
from yarnlog.core.referee import InvalidCommand, invalid
from yarnlog.persistence.protocol import EventStore

if TYPE_CHECKING:
    from yarnlog.core.corrections import Correction, Retraction
    from yarnlog.core.events import Recorded
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.timeline import Timeline


class StateCache:
    """Each campaign's state at the store's head, read and folded as little as possible."""

    def __init__(self, store: EventStore, *, clock: Callable[[], str], snapshot_every: int = SNAPSHOT_EVERY):
        self.store = store
        self.snapshots = StateSnapshots(store, clock=clock, every=snapshot_every)
        self.rulesets: dict[str, str] = {}
        # What this process last saw of each campaign: a long-lived process reads only the events it
        # has not seen yet, and a command is decided without reading at all.
        self.latest: dict[str, Remembered] = {}
        # Campaigns whose remembered state lost a race: read before deciding on them again.
        self.stale: set[str] = set()

    def ruleset_name(self, campaign_id: str) -> str:
        """The ruleset the campaign plays, from its first event alone (no replay).

        The command line asks this before it knows which verbs exist, so it must stay cheap
        whatever the length of the history.
        """
        if campaign_id in self.latest:
            return self.latest[campaign_id].state.table.ruleset
        if campaign_id not in self.rulesets:
            first = self.store.read(campaign_id, upto=1)
            invalid(bool(first), f"no campaign {campaign_id!r} in this journal")
            # A campaign's first event never changes: its ruleset is asked once per process.
            self.rulesets[campaign_id] = str(json.loads(first[0].payload)["ruleset"])
        return self.rulesets[campaign_id]

    def history(self, campaign_id: str, upto: int | None = None) -> list[Recorded]:
        """Every event of the campaign up to ``upto`` (as stored, amendments not applied), with context,
        read from the store each time: the cache does not keep the history to serve state."""
        from yarnlog.core.state import with_context

        records = self.store.read(campaign_id, upto=upto)
        if not records:
            raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
        return with_context([to_recorded(r) for r in records])

    def current(self, campaign_id: str) -> CampaignState[Any]:
        """The state at the store's head, folding in only the events not seen yet."""
        from yarnlog.core.state import paused_gc

        remembered = self.latest.get(campaign_id)
        if remembered is None:
            remembered = self._from_snapshot(campaign_id)
        if remembered is None:
            return self._replay_from_log(campaign_id)
        records = self.store.read(campaign_id, after=remembered.state.sequence)
        self.stale.discard(campaign_id)
        if not records:
            self.latest[campaign_id] = remembered
            return remembered.state
        with paused_gc():  # a first read may replay the whole history: see paused_gc
            return self._fold(campaign_id, remembered, records)[0]

    def follow(self, campaign_id: str, upto: int | None = None) -> tuple[Remembered, list[Recorded]]:
        """For a reader that follows the log as it grows (the players' page): the campaign as remembered
        once brought to event ``upto`` (to the store's head for a campaign not seen yet, from its
        snapshot or a streamed replay), and the events folded to get there from what was remembered
        before, in context (none for a campaign not seen yet)."""
        from yarnlog.core.state import paused_gc

        remembered = self.latest.get(campaign_id)
        if remembered is None:
            self.current(campaign_id)
            return self.latest[campaign_id], []
        if upto is None or upto <= remembered.state.sequence:
            return remembered, []
        records = self.store.read(campaign_id, after=remembered.state.sequence, upto=upto)
        if not records:
            return remembered, []
        with paused_gc():
            new = self._fold(campaign_id, remembered, records)[1]
        return self.latest[campaign_id], new

    def taken_in(self, campaign_id: str, expected: int, stored: list[StoredEvent],
                 context: Timeline | None) -> list[Recorded]:
        """Events just appended after event ``expected``, folded into what is remembered when they
        follow it; in the ``context`` of that timeline when one is given."""
        from yarnlog.core.state import with_context
        from yarnlog.core.timeline import Timeline

        remembered = self.latest.get(campaign_id)
        if (remembered.state.sequence if remembered else 0) == expected:
            # The append follows what is remembered: fold it in rather than read it back.
            folded = self._fold(campaign_id, remembered, stored)[1]
            recorded_in = remembered.timeline if remembered else Timeline()
            # An event's context depends only on the episode and scene in play before it: when the
            # remembered timeline has the same as ``context``, the events just folded are in context.
            if context is not None and (recorded_in.episode, recorded_in.scene) == (context.episode, context.scene):
                return folded
        appended = [to_recorded(r) for r in stored]
        return appended if context is None else with_context(appended, context)

    def amended_since(self, campaign_id: str, after: int, upto: int) -> bool:
        """Whether an amendment recorded after event ``after`` (up to ``upto``) changes an event at or
        before it (found by the amendments' type: no other event is read)."""
        from yarnlog.app.verify import AMENDMENT_TYPES

        if upto <= after:
            return False
        tail = [to_recorded(r) for r in self.store.iter_read(campaign_id, after=after, upto=upto,
                                                              event_types=AMENDMENT_TYPES)]
        return bool(tail) and self._reach(campaign_id, tail, after) <= after

    def before(self, campaign_id: str, sequence: int) -> Remembered | None:
        """The campaign just before event ``sequence`` (its state at ``sequence - 1`` and the timeline
        as recorded there), from the newest sound state snapshot before it and the events after
        that, or from the first event; not remembered. None when an amendment among those events
        reaches back before the snapshot (the caller replays instead)."""
        from yarnlog.core.corrections import Correction, Retraction
        from yarnlog.core.state import empty_state, in_context

        base = self._from_snapshot(campaign_id, before=sequence)
        if base is None:
            empty = empty_state()
            base = Remembered(empty, empty.timeline, "")
        records = self.store.read(campaign_id, after=base.state.sequence, upto=sequence - 1)
        if not records:
            return base
        tail, afters = in_context([to_recorded(r) for r in records], base.timeline)
        if any(isinstance(r.payload, (Correction, Retraction)) for r in tail) \
                and self._reach(campaign_id, tail, base.state.sequence) <= base.state.sequence:
            return None
        return Remembered(_fold_amended(base, tail, afters), afters[-1], records[-1].hash)

    def _from_snapshot(self, campaign_id: str, before: int | None = None) -> Remembered | None:
        """The campaign from its newest sound state snapshot (before event ``before``, if given)."""
        try:
            ruleset = self.ruleset_name(campaign_id)
        except InvalidCommand:
            return None  # no such campaign: the read that follows says so
        return self.snapshots.newest(campaign_id, ruleset, before)

    def _replay_from_log(self, campaign_id: str) -> CampaignState[Any]:
        """Remember a campaign seen for the first time, with no sound snapshot: its stored events
        replayed as they stream from the store, none kept, so memory is the state's, not the history's.

        Equal to folding the whole history at once (:meth:`_fold` from nothing; the property tests
        of both compare them with a full replay). The corrections and retractions are read first,
        by their type, since they reach back to earlier events; both reads stop at the head read first.
        """
        from yarnlog.app.verify import AMENDMENT_TYPES
        from yarnlog.core.corrections import Amendments
        from yarnlog.core.state import paused_gc, replay_stream, stream_stored_in_context

        head = self.store.head(campaign_id)
        if head is None:
            raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
        end, head_hash = head
        recorded: list[Timeline] = []  # the timeline as recorded after the last event (not amended)

        def in_context_streamed() -> Iterator[tuple[Recorded, Timeline]]:
            for rec, after in stream_stored_in_context(self.store.iter_read(campaign_id, upto=end)):
                recorded[:] = [after]
                yield rec, after

        with paused_gc():
            amendments = Amendments(map(to_recorded, self.store.iter_read(campaign_id, upto=end,
                                                                          event_types=AMENDMENT_TYPES)))
            state = replay_stream(in_context_streamed(), amendments)
        self.stale.discard(campaign_id)
        timeline = recorded[0] if recorded else state.timeline
        if state.timeline == timeline:
            state = replace(state, timeline=timeline)  # shared, so later folds take the recorded one as it is
        self.latest[campaign_id] = latest = Remembered(state, timeline, head_hash)
        self.snapshots.keep_if_due(campaign_id, latest)
        return state

    def _fold(self, campaign_id: str, remembered: Remembered | None,
              stored: Sequence[StoredEvent]) -> tuple[CampaignState[Any], list[Recorded]]:
        """Remember the campaign with the ``stored`` events (the ones right after ``remembered``)
        folded in: the state, and the new events in context (each typed once, with its context).

        Equal to a full replay (property tests check it): new events are evolved onto the
        remembered state; with amendments among them, from the latest state that no amendment
        reaches back before (:meth:`_amended`).
        """
        from yarnlog.core.corrections import Correction, Retraction
        from yarnlog.core.state import empty_state, evolve, paused_gc, stream_stored_in_context

        if remembered is None:
            state = empty_state()
            timeline = state.timeline
        else:
            state, timeline = remembered.state, remembered.timeline
        with paused_gc():
            placed = list(stream_stored_in_context(stored, timeline))
        new, afters = [rec for rec, _ in placed], [after for _, after in placed]
        head_hash = stored[-1].hash
        if any(isinstance(r.payload, (Correction, Retraction)) for r in new):
            state = self._amended(campaign_id, remembered, new, afters)
        else:
            for rec, after in zip(new, afters):
                # The timeline is folded once per event: the state's is the one recorded (the same
                # object) unless an amendment changed it, and then it is folded on its own.
                state = evolve(state, rec, after if state.timeline is timeline else None)
                timeline = after
        # Remembered only once the fold has succeeded.
        self.latest[campaign_id] = latest = Remembered(state, afters[-1] if afters else timeline, head_hash)
        self.snapshots.keep_if_due(campaign_id, latest)
        return state, new

    def _amended(self, campaign_id: str, remembered: Remembered | None, new: list[Recorded],
                 afters: list[Timeline]) -> CampaignState[Any]:
        """The state after ``new`` (in context, with the recorded timeline after each), some of which
        amend earlier events: equal to a full replay of the stored history up to the last of them.

        An amendment changes the event it names, and, when that event is an earlier amendment, what
        that one changed (retracting an amendment undoes it: :class:`Amendments`). So a state at
        event s is still right when every event the amendments after s change comes after s
        (:meth:`_reach`): the fold goes on from the remembered state if that holds, else from the
        newest sound state snapshot before the earliest event changed (an older snapshot's tail may
        change an earlier one: then an older one still), else from the first event.
        """
        from yarnlog.core.state import in_context, replay

        end = new[-1].sequence
        base: Remembered | None = remembered
        tail, tail_afters = new, afters
        while base is not None:
            reach = self._reach(campaign_id, tail, base.state.sequence)
            if reach > base.state.sequence:
                return _fold_amended(base, tail, tail_afters)
            base = self._from_snapshot(campaign_id, before=reach)
            if base is not None:
                tail, tail_afters = in_context([to_recorded(r) for r in self.store.read(
                    campaign_id, after=base.state.sequence, upto=end)], base.timeline)
        # From the start, ``new`` is the whole history already; otherwise read it back.
        state = replay(new if new[0].sequence == 1 else self.history(campaign_id, upto=end))
        if afters and state.timeline == afters[-1]:
            # Amendments that leave the timeline as recorded: share it again (see _fold).
            state = replace(state, timeline=afters[-1])
        return state

    def _reach(self, campaign_id: str, tail: Sequence[Recorded], after: int) -> int:
        """The earliest event the amendments in ``tail`` (the events after event ``after``) change:
        the events they name and, for a named event at or before ``after`` that is itself an
        amendment (undone, or settled otherwise, by one in the tail), what it names in turn,
        read from the store one event at a time. Past the tail's end if it amends nothing."""
        from yarnlog.app.verify import AMENDMENT_TYPES
        from yarnlog.core.corrections import Correction, Retraction

        pending = [_named(r.payload) for r in tail if isinstance(r.payload, (Correction, Retraction))]
        earliest = tail[-1].sequence + 1 if tail else after + 1
        seen: set[int] = set()
        while pending:
            named = pending.pop()
            if named in seen:
                continue
            seen.add(named)
            earliest = min(earliest, named)
            if named <= after:  # not in the tail: whether it amends something further back
                found = self.store.read(campaign_id, after=named - 1, upto=named)
                if found and found[0].event_type in AMENDMENT_TYPES:
                    payload = to_recorded(found[0]).payload
                    if isinstance(payload, (Correction, Retraction)):
                        pending.append(_named(payload))
        return earliest

def _named(amendment: Correction | Retraction) -> int:
    """The event an amendment names."""
    from yarnlog.core.corrections import Correction

    return amendment.corrects if isinstance(amendment, Correction) else amendment.retracts


def _fold_amended(base: Remembered, tail: list[Recorded], afters: list[Timeline]) -> CampaignState[Any]:
    """``base`` with ``tail`` (the events right after it, in context) folded in, the amendments among
    them applied; every event they name is in ``tail``. Equal to a full replay (as :func:`replay_stream`
    folds: an event retracted is skipped, a corrected one folded as corrected, timeline included)."""
    from yarnlog.core.corrections import Amendments
    from yarnlog.core.state import evolve

    amendments = Amendments(tail)
    state, timeline = base.state, base.timeline
    for rec, after in zip(tail, afters):
        seen = amendments.apply(rec)
        if seen is not None:
            # The recorded timeline is shared only while no amendment has changed the state's.
            state = evolve(state, seen, after if seen is rec and state.timeline is timeline else None)
        timeline = after
    if tail and state.sequence != tail[-1].sequence:
        state = replace(state, sequence=tail[-1].sequence)  # the last event was retracted
    if afters and state.timeline == afters[-1]:
        state = replace(state, timeline=afters[-1])
    return state
