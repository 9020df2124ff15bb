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
from datetime import datetime, timezone
from typing import Any

from yarnlog.core.corrections import Correction, OverriddenRule, OverrideRecorded, Retraction
from yarnlog.core.decide import Correct, Retract, decide, decide_amendment
from yarnlog.core.events import Payload, Recorded, load_payload
from yarnlog.core.referee import InvalidCommand, Override, Referee, invalid
from yarnlog.core.ruleset import DEFAULT_RULESET, get_ruleset
from yarnlog.core.state import EVERYONE, GM_ONLY, CampaignState, empty_state, evolve, replay, with_context
from yarnlog.core.table import CampaignCreated, Table
from yarnlog.core.timeline import Timeline, evolve_timeline
from yarnlog.persistence.store import ConcurrencyConflict, EventRecord, EventStore, NewEvent


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
