"""The journal service: commands in, events appended, state replayed.

This is the application layer around the pure deciders: it reads a campaign's events, replays
them into state, asks the deciders (the ruleset's first, then the journal's own) what a command
produces, and appends the result with optimistic concurrency, deciding again on a fresh read
when another writer got there first. It is also the one door to the stored journal (campaigns,
verify, export, import), so callers never reach past it into the store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, NamedTuple

from yarnlog.app.interchange import export_lines, import_records
from yarnlog.app.verify import Report, verify_stored
from yarnlog.core.corrections import Correction, OverriddenRule, OverrideRecorded, Retraction
from yarnlog.core.decide import Correct, Retract, decide, decide_amendment
from yarnlog.core.envelope import NewEvent, StoredEvent, to_recorded
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.referee import InvalidCommand, Override, Referee, YarnlogError, invalid, present
from yarnlog.core.ruleset import DEFAULT_RULESET
from yarnlog.core.state import (
    EVERYONE,
    GM_ONLY,
    CampaignState,
    empty_state,
    evolve,
    in_context,
    paused_gc,
    replay,
    with_context,
)
from yarnlog.core.table import CampaignCreated, Table, validate_created
from yarnlog.core.timeline import Timeline
from yarnlog.persistence.protocol import ConcurrencyConflict, EventStore


class _Remembered(NamedTuple):
    """A campaign as this journal last saw it: history, state after it, timeline as recorded."""

    history: list[Recorded]
    state: CampaignState[Any]
    timeline: Timeline


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


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
        # What this journal last saw of each campaign: a long-lived process reads only the
        # events it has not seen yet, and a command is decided without reading at all.
        self._latest: dict[str, _Remembered] = {}
        # Campaigns whose remembered state lost a race: read before deciding on them again.
        self._stale: set[str] = set()

    # -- the journal as stored ------------------------------------------------------------

    def campaigns(self) -> list[str]:
        """The ids of the campaigns in this journal, sorted."""
        return self.store.campaigns()

    def stored_events(self, campaign_id: str, upto: int | None = None) -> list[StoredEvent]:
        """The campaign's events exactly as stored, up to event ``upto`` (empty if there is no such campaign)."""
        return self.store.read(campaign_id, upto=upto)

    def ruleset_name(self, campaign_id: str) -> str:
        """The ruleset the campaign plays, from its first event alone (no replay).

        The command line asks this before it knows which verbs exist, so it must stay cheap
        whatever the length of the history.
        """
        if campaign_id in self._latest:
            return self._latest[campaign_id].state.table.ruleset
        first = self.store.read(campaign_id, upto=1)
        invalid(bool(first), f"no campaign {campaign_id!r} in this journal")
        return str(json.loads(first[0].payload)["ruleset"])

    def verify(self, campaign_id: str) -> Report:
        """Check the campaign's stored events: the chain, the payloads and the rules."""
        return verify_stored(self.store, campaign_id)

    def export_lines(self, campaign_id: str) -> list[str]:
        """The campaign as JSON Lines, one canonical event per line."""
        return list(export_lines(self.store, campaign_id))

    def import_events(self, records: list[StoredEvent]) -> tuple[int, int]:
        """Write the events of an export the journal lacks: (already present, newly written)."""
        return import_records(self.store, records)

    def close(self) -> None:
        self.store.close()

    # -- reading --------------------------------------------------------------------------

    def history(self, campaign_id: str, upto: int | None = None) -> list[Recorded]:
        """Every event of the campaign (as stored, amendments not applied), with context."""
        if upto is None:
            return list(self._current(campaign_id)[0])
        records = self.store.read(campaign_id, upto=upto)
        if not records:
            raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
        return with_context([to_recorded(r) for r in records])

    def state(self, campaign_id: str, upto: int | None = None) -> CampaignState[Any]:
        """The campaign replayed to its end, or up to event ``upto``."""
        if upto is None:
            return self._current(campaign_id)[1]
        return replay(self.history(campaign_id, upto))

    def _current(self, campaign_id: str) -> tuple[list[Recorded], CampaignState[Any]]:
        """History and state at the journal's end, folding in only the events not seen yet."""
        remembered = self._latest.get(campaign_id)
        records = self.store.read(campaign_id, after=remembered.state.sequence if remembered else 0)
        self._stale.discard(campaign_id)
        if not records:
            if remembered is None:
                raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
            return remembered.history, remembered.state
        with paused_gc():  # a first read replays the whole history: see paused_gc
            return self._fold(campaign_id, remembered, [to_recorded(r) for r in records])

    def _fold(self, campaign_id: str, remembered: _Remembered | None,
              new: list[Recorded]) -> tuple[list[Recorded], CampaignState[Any]]:
        """Remember the campaign with ``new`` events (the ones right after ``remembered``) added.

        Equal to a full replay (a property test checks it): new events are evolved onto the
        remembered state, except that an amendment of an earlier event forces a full replay.
        """
        if remembered is None:
            state = empty_state()
            history: list[Recorded] = []
            timeline = state.timeline
        else:
            history, state, timeline = remembered
        new, afters = in_context(new, timeline)
        if any(isinstance(r.payload, (Correction, Retraction)) for r in new):
            state = replay([*history, *new])
            if afters and state.timeline == afters[-1]:
                # Amendments that leave the timeline as recorded: share it again (see below).
                state = replace(state, timeline=afters[-1])
        else:
            for rec, after in zip(new, afters):
                # The timeline is folded once per event: the state's is the one recorded (the same
                # object) unless an amendment changed it, and then it is folded on its own.
                state = evolve(state, rec, after if state.timeline is timeline else None)
                timeline = after
        # The remembered history is this journal's own (``history()`` hands out copies): extended in
        # place rather than copied on every command, and only once the fold has succeeded, so that
        # history and state never disagree.
        history.extend(new)
        self._latest[campaign_id] = _Remembered(history, state, afters[-1] if afters else timeline)
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
        invalid(self.store.last_sequence(campaign_id) == 0, f"campaign {campaign_id!r} already exists")
        try:
            payload = CampaignCreated(campaign_id=campaign_id, title=title, ruleset=ruleset, gm=gm,
                                      options=dict(options or {}))
        except ValueError as exc:
            raise InvalidCommand(f"cannot create campaign: {_first_error(exc)}") from None
        # The same validator verify runs on the first event: the ruleset exists and knows the options.
        payload = validate_created(payload, empty_state(), Referee())
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
        """Decide ``command`` against the campaign and append what it produces.

        The decision is made on the remembered campaign when there is one, without reading:
        the append names the sequence it was decided on, so a decision made on a campaign
        that has moved on is never written (the store raises a conflict, and the command is
        decided again on a fresh read). A refusal is checked against a fresh read as well.
        """
        conflict: ConcurrencyConflict | None = None
        for _ in range(retries):
            state, author, payloads = self._decide(campaign_id, command, by, visibility, override)
            try:
                return self._append(campaign_id, state.sequence, payloads, by=author, visibility=visibility,
                                    context=state.timeline)
            except ConcurrencyConflict as exc:
                conflict = exc
                self._stale.add(campaign_id)
        raise conflict  # type: ignore[misc]

    def _decide(self, campaign_id: str, command: Any, by: str | None, visibility: str,
                override: Override | None) -> tuple[CampaignState[Any], str, list[Payload]]:
        """The state decided on, the author, and the payloads the command produces (or a refusal)."""
        remembered = campaign_id in self._latest and campaign_id not in self._stale
        history, state = self._latest[campaign_id][:2] if remembered else self._current(campaign_id)
        try:
            return (state, *_decision(command, history, state, by, visibility, override))
        except YarnlogError:
            if not remembered:
                raise
            # A refusal must stand on the journal as it is now, not as this process last saw it.
            history, fresh = self._current(campaign_id)
            if fresh.sequence == state.sequence:
                raise
            return (fresh, *_decision(command, history, fresh, by, visibility, override))

    def _append(self, campaign_id: str, expected: int, payloads: Sequence[Payload], *, by: str,
                visibility: str, context: Timeline | None = None) -> list[Recorded]:
        """Append ``payloads`` after event ``expected``: the events appended, in the ``context`` of
        that timeline when one is given (as :func:`with_context` gives them)."""
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
        appended = [to_recorded(r) for r in self.store.append(campaign_id, expected, new)]
        remembered = self._latest.get(campaign_id)
        if (remembered.state.sequence if remembered else 0) == expected:
            # The append follows what this journal remembers: fold it in rather than read it back.
            history = self._fold(campaign_id, remembered, appended)[0]
            recorded_in = remembered.timeline if remembered else Timeline()
            # An event's context depends only on the episode and scene in play before it: when the
            # remembered timeline has the same as ``context``, the events just folded are in context.
            if context is not None and (recorded_in.episode, recorded_in.scene) == (context.episode, context.scene):
                return history[len(history) - len(appended):]
        return appended if context is None else with_context(appended, context)


def _decision(command: Any, history: list[Recorded], state: CampaignState[Any], by: str | None, visibility: str,
              override: Override | None) -> tuple[str, list[Payload]]:
    """Who records ``command`` and what it produces on ``state``, or a refusal quoting the rule."""
    author = by or state.table.gm
    invalid(state.table.knows(author), f"{author} is not at this campaign's table")
    _check_visibility(visibility, state.table)
    referee = Referee(override)
    if isinstance(command, (Correct, Retract)):
        payloads = [decide_amendment(command, history, referee, author=author)]
    else:
        payloads = decide(command, state, referee)
    if referee.overridden:
        override = present(override, "only a GM may override the rules")
        invalid(state.table.is_gm(override.by), "only a GM may override the rules")
        invalid(bool(override.reason.strip()), "an override needs a reason")
        payloads = [_override_event(override, referee, len(payloads))] + payloads
    return author, payloads


def _check_visibility(visibility: str, table: Table) -> None:
    if visibility in (EVERYONE, GM_ONLY):
        return
    name = visibility.removeprefix("participant:")
    invalid(visibility.startswith("participant:") and table.knows(name),
            f"visibility must be 'everyone', 'gm' or 'participant:NAME' of someone at the table, "
            f"not {visibility!r}")


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
