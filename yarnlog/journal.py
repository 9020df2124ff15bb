"""The journal service: commands in, events appended, state replayed.

This is the application layer around the pure deciders: it reads a campaign's events, replays
them into state, asks the deciders (the ruleset's first, then the journal's own) what a command
produces, and appends the result with optimistic concurrency, retrying from a fresh replay when
another writer got there first.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from yarnlog.campaign import CampaignCreated, Table, decide_table, evolve_table
from yarnlog.corrections import Correction, OverriddenRule, OverrideRecorded, Retraction, effective
from yarnlog.events import Payload, Recorded, load_payload
from yarnlog.rules import InvalidCommand, Override, Referee, Rule, invalid
from yarnlog.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from yarnlog.store import ConcurrencyConflict, EventRecord, EventStore, NewEvent
from yarnlog.timeline import Timeline, context, decide_timeline, evolve_timeline

EVERYONE = "everyone"
GM_ONLY = "gm"

#: Event types every campaign may hold, whatever its ruleset.
CORE_EVENT_TYPES = frozenset({
    "campaign.created", "participant.joined", "participant.left", "episode.started", "episode.ended",
    "scene.opened", "scene.closed", "note", "correction", "retraction", "override.recorded",
})

CORRECTIONS_RULE = Rule(
    "yarnlog", "Corrections",
    "A correction must leave a history that still obeys the rules, unless the GM overrides.",
)


@dataclass(frozen=True)
class CampaignState:
    """A campaign as replayed up to ``sequence``."""

    table: Table
    timeline: Timeline
    rules: Any
    ruleset: Ruleset | None
    sequence: int = 0


def empty_state() -> CampaignState:
    return CampaignState(table=Table(), timeline=Timeline(), rules=None, ruleset=None)


def evolve(state: CampaignState, recorded: Recorded) -> CampaignState:
    """Fold one event into campaign state. Never refuses."""
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
        timeline=evolve_timeline(state.timeline, payload),
        rules=rules,
        ruleset=ruleset,
        sequence=recorded.sequence,
    )


def replay(history: Sequence[Recorded]) -> CampaignState:
    """The state after ``history``, with its corrections and retractions applied."""
    state = empty_state()
    for recorded in effective(history):
        state = evolve(state, recorded)
    return replace(state, sequence=history[-1].sequence if history else 0)


def typed(record: EventRecord) -> Recorded:
    """A stored record as a :class:`Recorded` with its payload upcast and validated."""
    try:
        data = json.loads(record.payload)
    except ValueError:
        raise InvalidCommand(
            f"event {record.sequence} ({record.event_type}) has an unreadable payload; run 'yarnlog verify'"
        ) from None
    return Recorded(
        campaign_id=record.campaign_id,
        sequence=record.sequence,
        event_id=record.event_id,
        event_type=record.event_type,
        schema_version=record.schema_version,
        recorded_at=record.recorded_at,
        recorded_by=record.recorded_by,
        visibility=record.visibility,
        payload=load_payload(record.event_type, record.schema_version, data),
    )


def with_context(history: Sequence[Recorded], timeline: Timeline | None = None) -> list[Recorded]:
    """Attach the episode and scene each event was recorded in (derived, never stored).

    ``timeline`` is where the campaign stood before ``history`` (the start, by default).
    """
    out = []
    timeline = timeline or Timeline()
    for rec in history:
        after = evolve_timeline(timeline, rec.payload)
        episode, scene = context(timeline, after)
        out.append(rec.model_copy(update={"episode": episode, "scene": scene}))
        timeline = after
    # An override belongs where the move it lets through ends up (e.g. the scene that move calls).
    for index, rec in enumerate(out):
        if isinstance(rec.payload, OverrideRecorded) and index + 1 < len(out):
            covered = out[min(index + rec.payload.covers, len(out) - 1)]
            out[index] = rec.model_copy(update={"episode": covered.episode, "scene": covered.scene})
    return out


def visible_to(recorded: Recorded, viewer: str | None, table: Table) -> bool:
    """Whether ``viewer`` may see the event (``None`` sees everything, as the GM does)."""
    if viewer is None or table.is_gm(viewer) or recorded.visibility == EVERYONE:
        return True
    return recorded.visibility == f"participant:{viewer}"


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class Correct:
    """Amend event ``sequence``: replace its payload fields with ``changes``."""

    sequence: int
    changes: dict[str, Any]
    reason: str


@dataclass(frozen=True)
class Retract:
    sequence: int
    reason: str


class Journal:
    """A store seen as campaigns that accept commands."""

    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], str] = utc_now,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
    ):
        self.store = store
        self.clock = clock
        self.new_id = new_id
        # campaign -> (history, state after it, timeline of the history as recorded): lets a
        # long-lived process read only the events it has not seen yet.
        self._latest: dict[str, tuple[list[Recorded], CampaignState, Timeline]] = {}

    # -- reading --------------------------------------------------------------------------

    def history(self, campaign_id: str, upto: int | None = None) -> list[Recorded]:
        """Every event of the campaign (as stored, amendments not applied), with context."""
        if upto is None:
            return list(self._current(campaign_id)[0])
        records = self.store.read(campaign_id, upto=upto)
        if not records:
            raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
        return with_context([typed(r) for r in records])

    def state(self, campaign_id: str, upto: int | None = None) -> CampaignState:
        """The campaign replayed to its end, or up to event ``upto``."""
        if upto is None:
            return self._current(campaign_id)[1]
        return replay(self.history(campaign_id, upto))

    def _current(self, campaign_id: str) -> tuple[list[Recorded], CampaignState]:
        """History and state at the journal's end, folding in only the events not seen yet.

        Equal to a full replay (a property test checks it): new events are evolved onto the
        remembered state, except that an amendment of an earlier event forces a full replay.
        """
        cached = self._latest.get(campaign_id)
        history, state, timeline = cached if cached else ([], empty_state(), Timeline())
        records = self.store.read(campaign_id, after=state.sequence)
        if not records:
            if cached is None:
                raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
            return history, state
        new = with_context([typed(r) for r in records], timeline)
        for rec in new:
            timeline = evolve_timeline(timeline, rec.payload)
        history = history + new
        if any(isinstance(r.payload, (Correction, Retraction)) for r in new):
            state = replay(history)
        else:
            for rec in new:
                state = evolve(state, rec)
        self._latest[campaign_id] = (history, state, timeline)
        return history, state

    # -- writing --------------------------------------------------------------------------

    def create_campaign(
        self,
        campaign_id: str,
        *,
        title: str,
        gm: str,
        ruleset: str = DEFAULT_RULESET,
        options: dict[str, bool] | None = None,
    ) -> list[Recorded]:
        rules = get_ruleset(ruleset)
        options = dict(options or {})
        unknown = sorted(set(options) - set(rules.options))
        invalid(not unknown, f"unknown optional rule(s) for {ruleset}: {', '.join(unknown)}"
                + (f"; known: {', '.join(sorted(rules.options))}" if rules.options else ""))
        invalid(self.store.last_sequence(campaign_id) == 0, f"campaign {campaign_id!r} already exists")
        try:
            payload = CampaignCreated(campaign_id=campaign_id, title=title, ruleset=ruleset, gm=gm, options=options)
        except ValueError as exc:
            raise InvalidCommand(f"cannot create campaign: {_first_error(exc)}") from None
        return self._append(campaign_id, 0, [payload], by=gm, visibility=EVERYONE)

    def execute(
        self,
        campaign_id: str,
        command: Any,
        *,
        by: str | None = None,
        visibility: str = EVERYONE,
        override: Override | None = None,
        retries: int = 8,
    ) -> list[Recorded]:
        """Decide ``command`` against the replayed campaign and append what it produces."""
        conflict: ConcurrencyConflict | None = None
        for _ in range(retries):
            history, state = self._current(campaign_id)
            author = by or state.table.gm
            invalid(state.table.knows(author), f"{author} is not at this campaign's table")
            self._check_visibility(visibility, state.table)
            referee = Referee(override)
            if isinstance(command, (Correct, Retract)):
                payloads = [decide_amendment(command, history, referee, author=author)]
            else:
                payloads = decide(command, state, referee)
            if referee.overridden:
                invalid(override is not None and state.table.is_gm(override.by),
                        "only a GM may override the rules")
                invalid(bool(override.reason.strip()), "an override needs a reason")
                payloads = [_override_event(override, referee, len(payloads))] + payloads
            try:
                appended = self._append(campaign_id, state.sequence, payloads, by=author, visibility=visibility)
                return with_context(appended, state.timeline)
            except ConcurrencyConflict as exc:
                conflict = exc
        raise conflict  # type: ignore[misc]

    def _append(self, campaign_id: str, expected: int, payloads: Sequence[Payload], *, by: str,
                visibility: str) -> list[Recorded]:
        new = [
            NewEvent(
                event_id=self.new_id(),
                event_type=p.event_type,
                schema_version=p.schema_version,
                recorded_at=self.clock(),
                recorded_by=by,
                visibility=visibility,
                payload=p.to_data(),
            )
            for p in payloads
        ]
        return [typed(r) for r in self.store.append(campaign_id, expected, new)]

    @staticmethod
    def _check_visibility(visibility: str, table: Table) -> None:
        if visibility in (EVERYONE, GM_ONLY):
            return
        name = visibility.removeprefix("participant:")
        invalid(visibility.startswith("participant:") and table.knows(name),
                f"visibility must be 'everyone', 'gm' or 'participant:NAME' of someone at the table, "
                f"not {visibility!r}")


def decide(command: Any, state: CampaignState, referee: Referee) -> list[Payload]:
    """Ask the ruleset, then the journal's own deciders, what ``command`` produces."""
    invalid(state.ruleset is not None, "the campaign has not been created")
    payloads = state.ruleset.decide(command, state, referee)
    if payloads is None:
        payloads = decide_table(command, state.table)
    if payloads is None:
        payloads = decide_timeline(command, state.timeline)
    if payloads is None:
        raise InvalidCommand(f"{type(command).__name__} is not a command of the {state.ruleset.name} ruleset")
    invalid(bool(payloads), "that command records nothing")
    return list(payloads)


def decide_amendment(command: Correct | Retract, history: Sequence[Recorded], referee: Referee, *,
                     author: str) -> Payload:
    """A correction or retraction of an earlier event, approved by a GM.

    Refused (unless overridden) when the amended history would break a rule that the
    recorded history kept, e.g. retracting a grant that a later spend depended on.
    """
    state = replay(history)
    invalid(state.table.is_gm(author), "only a GM may approve a correction or retraction")
    invalid(bool(command.reason.strip()), "a correction or retraction needs a reason")
    target = next((r for r in history if r.sequence == command.sequence), None)
    invalid(target is not None, f"there is no event {command.sequence} to amend")
    invalid(target.event_type != "campaign.created",
            "the campaign's creation cannot be amended: export and start a new campaign instead")
    current = {r.sequence: r for r in effective(history)}.get(command.sequence)
    invalid(current is not None, f"event {command.sequence} is already retracted")
    if isinstance(command, Retract):
        payload: Payload = Retraction(retracts=command.sequence, reason=command.reason, approved_by=author)
    else:
        data = {**current.payload.to_data(), **command.changes}
        load_payload(target.event_type, type(current.payload).schema_version, data)
        payload = Correction(corrects=command.sequence, replacement=data, reason=command.reason,
                             approved_by=author)
    amended = Recorded(
        campaign_id=target.campaign_id, sequence=history[-1].sequence + 1, event_id="pending",
        event_type=payload.event_type, schema_version=payload.schema_version, recorded_at="",
        recorded_by=author, visibility=EVERYONE, payload=payload,
    )
    known = {(f.sequence, f.problem) for f in audit(history)}
    for fault in audit([*history, amended]):
        if (fault.sequence, fault.problem) not in known:
            referee.require(False, CORRECTIONS_RULE,
                            f"after this amendment event {fault.sequence} ({fault.event_type}) would break a rule: "
                            f"{fault.problem}")
    return payload


@dataclass(frozen=True)
class Fault:
    """Something wrong with one stored event."""

    sequence: int
    event_type: str
    problem: str


def audit(history: Sequence[Recorded]) -> list[Fault]:
    """Re-check every event against the rules, given the state before it.

    Events recorded under a GM override are not re-checked: the override event says which
    rules were set aside, and by whom.
    """
    faults: list[Fault] = []
    state = empty_state()
    overridden: set[int] = set()
    for rec in effective(history):
        if isinstance(rec.payload, OverrideRecorded):
            overridden.update(range(rec.sequence + 1, rec.sequence + 1 + rec.payload.covers))
        elif state.ruleset is not None and rec.sequence not in overridden:
            faults.extend(Fault(rec.sequence, rec.event_type, p) for p in state.ruleset.audit(state, rec))
        state = evolve(state, rec)
    return faults


def _override_event(override: Override, referee: Referee, covers: int) -> OverrideRecorded:
    return OverrideRecorded(
        by=override.by,
        reason=override.reason,
        rules=[OverriddenRule(book=r.book, chapter=r.chapter, text=r.text, message=m) for r, m in referee.overridden],
        covers=covers,
    )


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        err = errors()[0]
        return f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg')}"
    return str(exc)
