"""Campaign state and replay: the fold of every event into what a campaign is at one point.

``evolve(state, event) -> state`` never refuses; ``replay`` applies corrections and retractions
first. The journal's own slices (the table, the timeline) sit beside the ruleset's state.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from sys import intern
from typing import Any, Protocol, TypeVar

from yarnlog.core.corrections import Amendments, OverrideRecorded, effective
from yarnlog.core.envelope import StoredEvent, stored_payload
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.ruleset import CampaignState, SliceBuilder, get_ruleset
from yarnlog.core.shared_fields import share_fields_sets, trusted
from yarnlog.core.table import CampaignCreated, Table, evolve_table
from yarnlog.core.timeline import EpisodeEnded, EpisodeStarted, SceneOpened, Timeline, context, evolve_timeline

EVERYONE = "everyone"
GM_ONLY = "gm"


#: Event types every campaign may hold, whatever its ruleset.
CORE_EVENT_TYPES = frozenset({
    "campaign.created", "campaign.options_changed", "participant.joined", "participant.left", "episode.started",
    "episode.ended",
    "scene.opened", "scene.closed", "note", "correction", "retraction", "override.recorded",
    "invite.issued", "invite.revoked",
})


#: What an event is typed from as it is placed in context (a stored row, or an event to copy).
E = TypeVar("E")


def empty_state() -> CampaignState[Any]:
    return CampaignState(table=Table(), timeline=Timeline(), rules=None, ruleset=None)


def evolve(state: CampaignState[Any], recorded: Recorded, timeline: Timeline | None = None) -> CampaignState[Any]:
    """Fold one event into campaign state. Never refuses.

    ``timeline`` is ``state.timeline`` with the event folded in, when the caller has folded it
    already (to find the event's context): the timeline is folded once per event.
    """
    payload = recorded.payload
    ruleset = state.ruleset
    rules = state.rules
    if isinstance(payload, CampaignCreated):
        ruleset = get_ruleset(payload.ruleset)
        rules = ruleset.rules.initial_state()
    if ruleset is not None:
        rules = ruleset.rules.evolve(rules, recorded)
    return CampaignState(
        table=evolve_table(state.table, payload),
        timeline=evolve_timeline(state.timeline, payload) if timeline is None else timeline,
        rules=rules,
        ruleset=ruleset,
        sequence=recorded.sequence,
    )


def advance(state: CampaignState[Any], payloads: Sequence[Payload], *, by: str | None = None) -> CampaignState[Any]:
    """The state after ``payloads`` that are not recorded yet.

    A command that records several events validates each against the state the earlier ones
    leave (an episode ends after its bennie vote is tallied), as ``verify`` will see them.
    """
    for payload in payloads:
        after = evolve_timeline(state.timeline, payload)
        episode, scene = context(state.timeline, after, payload)
        state = evolve(state, Recorded(
            campaign_id=state.table.campaign_id, sequence=state.sequence + 1, event_id="pending",
            event_type=payload.event_type, schema_version=payload.schema_version, recorded_at="",
            recorded_by=by or state.table.gm, visibility=EVERYONE, payload=payload, episode=episode, scene=scene,
        ), after)
    return state


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused for the duration of a replay (restored after).

    A replay allocates millions of small objects and frees almost none of them, and none form
    cycles worth collecting: with the collector on, each of its passes walks the growing heap,
    which made replay superlinear (CPU an event on the in-memory store: 123 µs at 10K events and
    299 at 100K with the collector, 80 and 101 without). Reference counting frees as usual; the
    collector is restored as it was, so a caller that had paused it keeps it paused.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Replay:
    """A replay in progress: events folded in place, the state frozen once, at the end.

    Equal to :func:`evolve` event by event (property tests check it), for many events at a lower
    cost: the ruleset's state is thawed into its builder (``Rules.thaw``: the parts that
    offer one fold into mutable slices) and no :class:`CampaignState` is built per event. A
    ruleset without ``thaw`` is folded with its ``evolve``. :meth:`freeze` hands out a state as
    immutable as ``evolve``'s, and the replay may go on folding after it. A replay may start from
    any state: thawing copies the thawed slices' maps once, which a long tail repays.
    """

    def __init__(self, state: CampaignState[Any] | None = None):
        state = state or empty_state()
        self.table = state.table
        self.timeline = state.timeline
        self.ruleset = state.ruleset
        self.sequence = state.sequence
        self._rules: Any = state.rules  # the ruleset's state, when it is folded with its evolve
        self._builder: SliceBuilder | None = None
        if self.ruleset is not None and self.ruleset.rules.thaw is not None:
            self._builder = self.ruleset.rules.thaw(self._rules)

    def fold(self, recorded: Recorded, timeline: Timeline | None = None) -> None:
        """Fold one event; ``timeline``, as for :func:`evolve`, is the timeline with it folded in already."""
        payload = recorded.payload
        if isinstance(payload, CampaignCreated):
            self.ruleset = get_ruleset(payload.ruleset)
            self._rules = self.ruleset.rules.initial_state()
            self._builder = self.ruleset.rules.thaw(self._rules) if self.ruleset.rules.thaw is not None else None
        if self._builder is not None:
            self._builder.fold(recorded, None)
        elif self.ruleset is not None:
            self._rules = self.ruleset.rules.evolve(self._rules, recorded)
        self.table = evolve_table(self.table, payload)
        self.timeline = evolve_timeline(self.timeline, payload) if timeline is None else timeline
        self.sequence = recorded.sequence

    def freeze(self, sequence: int | None = None) -> CampaignState[Any]:
        """The state folded so far (at ``sequence``, when the last events folded were not the last read)."""
        rules = self._builder.freeze() if self._builder is not None else self._rules
        return CampaignState(table=self.table, timeline=self.timeline, rules=rules, ruleset=self.ruleset,
                             sequence=self.sequence if sequence is None else sequence)


def replay(history: Sequence[Recorded]) -> CampaignState[Any]:
    """The state after ``history``, with its corrections and retractions applied."""
    frame = Replay()
    with paused_gc():
        for recorded in effective(history):
            frame.fold(recorded)
    return frame.freeze(history[-1].sequence if history else 0)


def replay_stream(history: Iterable[tuple[Recorded, Timeline]], amendments: Amendments) -> CampaignState[Any]:
    """:func:`replay` of events that arrive one at a time and are not kept.

    ``history`` is the events in context, each with the timeline after it, as
    :func:`stream_in_context` gives them; ``amendments`` are the corrections and retractions among
    them, gathered beforehand (they reach back to earlier events). The result equals
    ``replay([rec for rec, _ in history])``; memory stays that of the state.

    The timeline is folded once per event: the one that placed the event in context is the
    state's own for as long as they are the same object. An amended or retracted event that is
    not the timeline's leaves them so (``evolve_timeline`` returns its timeline as it is); one that
    is sets them apart, and from there the state's timeline is folded on its own.
    """
    frame = Replay()
    last = 0
    shared = True  # the state's timeline is the context's before this event (equal, or the same object)
    # The events an amendment touches, asked of each event as one set lookup (nearly all are not).
    touched = amendments.retracted | amendments.replaced.keys() if amendments else frozenset()
    with paused_gc():
        for recorded, after in history:
            last = recorded.sequence
            if last not in touched:
                if shared:
                    frame.fold(recorded, after)
                    continue
                amended: Recorded | None = recorded
            else:
                amended = amendments.apply(recorded)
            if amended is not None:
                frame.fold(amended)
            shared = shared and frame.timeline is after
        return frame.freeze(last)


def with_context(history: Sequence[Recorded], timeline: Timeline | None = None) -> list[Recorded]:
    """Attach the episode and scene each event was recorded in (derived, never stored).

    ``timeline`` is where the campaign stood before ``history`` (the start, by default).
    """
    return in_context(history, timeline)[0]


def in_context(history: Sequence[Recorded], timeline: Timeline | None = None) -> tuple[list[Recorded], list[Timeline]]:
    """:func:`with_context`, and the timeline after each event (folded once per event, for reuse)."""
    out: list[Recorded] = []
    afters: list[Timeline] = []
    with paused_gc():
        for rec, after in stream_in_context(history, timeline):
            out.append(rec)
            afters.append(after)
    return out, afters


def stream_in_context(history: Iterable[Recorded], timeline: Timeline | None = None,
                      ) -> Iterator[tuple[Recorded, Timeline]]:
    """:func:`in_context` one event at a time: each event in context, and the timeline after it.

    An override belongs where the move it lets through ends up (e.g. the scene that move calls):
    the event ``covers`` places after it, or the last event if fewer follow (an override that is
    the last event keeps its own context). So an override is held back, with the events after
    it, until that event has arrived; every other event passes straight through.
    """
    return _placed(((rec.payload, rec) for rec in history), _built, timeline)


def stream_stored_in_context(rows: Iterable[StoredEvent], timeline: Timeline | None = None,
                             ) -> Iterator[tuple[Recorded, Timeline]]:
    """:func:`stream_in_context` of stored rows: each typed event built once, in its context.

    ``map(to_recorded, rows)`` placed in context builds each event twice (read, then copied with
    its episode and scene); here the payload is validated first and the event built with its
    context. The header comes from the store's typed columns as the chain hashed them.
    """
    return _placed(((stored_payload(row), row) for row in rows), _built_stored, timeline)


def stream_payloads_in_context(events: Iterable[tuple[Payload, StoredEvent]], timeline: Timeline | None = None,
                               ) -> Iterator[tuple[Recorded, Timeline]]:
    """:func:`stream_stored_in_context` of rows whose payloads are already typed (verify's, which
    typed each payload to check it): each event built once, in its context."""
    return _placed(events, _built, timeline)


def _built(row: StoredEvent | Recorded, payload: Payload, episode: int | None, scene: int | None) -> Recorded:
    # The texts every event repeats (campaign, type, who, visibility) are interned: a replay or an
    # audit keeps many events in the state, and the driver gives each row its own copies. An event
    # typed before (verify's, an import's) is built again in its context the same way.
    recorded = Recorded(campaign_id=intern(row.campaign_id), sequence=row.sequence, event_id=row.event_id,
                        event_type=intern(row.event_type), schema_version=row.schema_version,
                        recorded_at=row.recorded_at, recorded_by=intern(row.recorded_by),
                        visibility=intern(row.visibility), payload=payload, episode=episode, scene=scene)
    share_fields_sets(recorded)  # a replay keeps many of them in the state: see core.shared_fields
    return recorded


def _built_stored(row: StoredEvent, payload: Payload, episode: int | None, scene: int | None) -> Recorded:
    """:func:`_built` of a row read from the store, whose header columns are typed and were hashed as they
    are: the event is built from them without validating them again (the payload is validated)."""
    if type(row.sequence) is not int or type(row.schema_version) is not int:
        return _built(row, payload, episode, scene)
    recorded = trusted(Recorded, {
        "campaign_id": intern(row.campaign_id), "sequence": row.sequence, "event_id": row.event_id,
        "event_type": intern(row.event_type), "schema_version": row.schema_version,
        "recorded_at": row.recorded_at, "recorded_by": intern(row.recorded_by),
        "visibility": intern(row.visibility), "payload": payload, "episode": episode, "scene": scene})
    share_fields_sets(payload)
    return recorded


def _moved(rec: Recorded, episode: int | None, scene: int | None) -> Recorded:
    """``rec`` placed in another context (an override's), sharing its given fields as a replay's events do."""
    moved = rec.model_copy(update={"episode": episode, "scene": scene})
    share_fields_sets(moved)
    return moved


def _placed(events: Iterable[tuple[Payload, E]], place: Callable[[E, Payload, int | None, int | None], Recorded],
            timeline: Timeline | None) -> Iterator[tuple[Recorded, Timeline]]:
    """Each event, typed by ``place(event, payload, episode, scene)`` in its context, and the timeline after it."""
    timeline = timeline or Timeline()
    # Events held back behind an override still waiting for its event: [recorded, after, target index].
    held: list[list[Any]] = []
    for index, (payload, source) in enumerate(events):
        after = evolve_timeline(timeline, payload)
        episode, scene = context(timeline, after, payload)
        timeline = after
        placed = place(source, payload, episode, scene)
        target = index + payload.covers if isinstance(payload, OverrideRecorded) else None
        if not held and target is None:
            yield placed, after
            continue
        # The overrides waiting for this event take its context (as recorded, not an override's own).
        for entry in held:
            if entry[2] == index:
                entry[0] = _moved(entry[0], episode, scene)
                entry[2] = None
        held.append([placed, after, target])
        while held and held[0][2] is None:
            yield held[0][0], held[0][1]
            del held[0]
    # The history ended before some overrides' events: they take the last event's context.
    last = held[-1][0] if held else None
    for entry in held:
        if entry[2] is not None and entry[0] is not last and last is not None:
            entry[0] = _moved(entry[0], last.episode, last.scene)
        yield entry[0], entry[1]


def as_told(history: Sequence[Recorded]) -> list[Recorded]:
    """``history`` (in context, :func:`with_context`) as people read it, scene by scene: an event told
    with the next scene (:attr:`Payload.told_with_next_scene <yarnlog.core.events.Payload>`) that was
    recorded between two scenes of an episode (after one closed, or before its first) is placed in
    the next scene opened in that episode; with none opened after it, it stays outside every scene.

    For the views that show scenes (``log``, ``explain --scene``, ``--end-of-scene``, the ledger).
    Replay keeps the context each event was recorded in: a fold never looks ahead. One pass from the
    end, so linear in the history.
    """
    told = list(history)
    upcoming: int | None = None  # the scene opened next in the episode, reading backwards
    for index in range(len(told) - 1, -1, -1):
        rec = told[index]
        payload = rec.payload
        if isinstance(payload, SceneOpened):
            upcoming = payload.number
        elif isinstance(payload, (EpisodeEnded, EpisodeStarted)):
            upcoming = None
        elif payload.told_with_next_scene and rec.scene is None and rec.episode is not None and upcoming is not None:
            told[index] = rec.model_copy(update={"scene": upcoming})
    return told


class Seen(Protocol):
    """An event, or what a slice keeps of one, with the visibility it was recorded under."""

    @property
    def visibility(self) -> str: ...


def visible_to(recorded: Seen, viewer: str | None, table: Table) -> bool:
    """Whether ``viewer`` may see the event (``None`` sees everything, as the GM does)."""
    if viewer is None or table.is_gm(viewer) or recorded.visibility == EVERYONE:
        return True
    return recorded.visibility == f"participant:{viewer}"
