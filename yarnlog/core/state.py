"""Campaign state and replay: the fold of every event into what a campaign is at one point.

``evolve(state, event) -> state`` never refuses; ``replay`` applies corrections and retractions
first. The journal's own slices (the table, the timeline) sit beside the ruleset's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from yarnlog.core.corrections import OverrideRecorded, effective
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.ruleset import Ruleset, get_ruleset
from yarnlog.core.table import CampaignCreated, Table, evolve_table
from yarnlog.core.timeline import Timeline, context, evolve_timeline

EVERYONE = "everyone"
GM_ONLY = "gm"


#: Event types every campaign may hold, whatever its ruleset.
CORE_EVENT_TYPES = frozenset({
    "campaign.created", "campaign.options_changed", "participant.joined", "participant.left", "episode.started",
    "episode.ended",
    "scene.opened", "scene.closed", "note", "correction", "retraction", "override.recorded",
})


#: The state a ruleset keeps for a campaign (``YarnState`` for Yarn).
S = TypeVar("S")


@dataclass(frozen=True)
class CampaignState(Generic[S]):
    """A campaign as replayed up to ``sequence``: the journal's own slices and the ruleset's ``rules``.

    Typed by the ruleset's state, so a Yarn decider sees ``CampaignState[YarnState]``. Before
    ``campaign.created`` has been folded there is no ruleset and ``rules`` is None.
    """

    table: Table
    timeline: Timeline
    rules: S
    ruleset: Ruleset | None
    sequence: int = 0


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
        rules = ruleset.initial_state()
    if ruleset is not None:
        rules = ruleset.evolve(rules, recorded)
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


def replay(history: Sequence[Recorded]) -> CampaignState[Any]:
    """The state after ``history``, with its corrections and retractions applied."""
    state = empty_state()
    for recorded in effective(history):
        state = evolve(state, recorded)
    return replace(state, sequence=history[-1].sequence if history else 0)


def with_context(history: Sequence[Recorded], timeline: Timeline | None = None) -> list[Recorded]:
    """Attach the episode and scene each event was recorded in (derived, never stored).

    ``timeline`` is where the campaign stood before ``history`` (the start, by default).
    """
    return in_context(history, timeline)[0]


def in_context(history: Sequence[Recorded], timeline: Timeline | None = None) -> tuple[list[Recorded], list[Timeline]]:
    """:func:`with_context`, and the timeline after each event (folded once per event, for reuse)."""
    out: list[Recorded] = []
    afters: list[Timeline] = []
    timeline = timeline or Timeline()
    for rec in history:
        after = evolve_timeline(timeline, rec.payload)
        episode, scene = context(timeline, after, rec.payload)
        out.append(rec.model_copy(update={"episode": episode, "scene": scene}))
        afters.append(after)
        timeline = after
    # An override belongs where the move it lets through ends up (e.g. the scene that move calls).
    for index, rec in enumerate(out):
        if isinstance(rec.payload, OverrideRecorded) and index + 1 < len(out):
            covered = out[min(index + rec.payload.covers, len(out) - 1)]
            out[index] = rec.model_copy(update={"episode": covered.episode, "scene": covered.scene})
    return out, afters


def visible_to(recorded: Recorded, viewer: str | None, table: Table) -> bool:
    """Whether ``viewer`` may see the event (``None`` sees everything, as the GM does)."""
    if viewer is None or table.is_gm(viewer) or recorded.visibility == EVERYONE:
        return True
    return recorded.visibility == f"participant:{viewer}"
