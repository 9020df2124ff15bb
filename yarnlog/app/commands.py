"""Handling a command: decided against the campaign, appended with optimistic concurrency, answered
with the events it recorded, the state after them and the views brought to it.

The decision asks the ruleset's deciders first, then the journal's own (:mod:`yarnlog.core.decide`),
on the state the cache remembers (:class:`~yarnlog.app.state_cache.StateCache`); the append names
the sequence it was decided on, so a decision made on a campaign that has moved on is never
written: it is decided again on a fresh read.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from yarnlog.app.state_cache import StateCache
from yarnlog.app.stored_views import StoredViews
from yarnlog.core.envelope import NewEvent, StoredEvent
from yarnlog.core.referee import InvalidCommand, Override, Referee, YarnlogError, invalid, present
from yarnlog.persistence.protocol import CommandKey, ConcurrencyConflict, EventStore

if TYPE_CHECKING:
    from yarnlog.core.corrections import OverrideRecorded
    from yarnlog.core.events import Payload, Recorded
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.table import Table
    from yarnlog.core.timeline import Timeline

#: How long a command keeps trying when other writers get there first (seconds, all attempts
#: together), and the backoff between attempts: a random wait up to FIRST_WAIT, doubling each
#: time up to LONGEST_WAIT ("full jitter"), so writers that collided spread out instead of
#: colliding again in step.
PATIENCE = 60.0
FIRST_WAIT = 0.002
LONGEST_WAIT = 0.25


class Recording(list["Recorded"]):
    """The events a command recorded, with what a write answers: ``state``, the campaign after them
    (None until the command is handled), and ``views``, the names of the stored views brought to it.
    ``already_recorded`` when its command id had recorded them before and this call wrote nothing."""

    already_recorded: bool = False
    state: CampaignState[Any] | None = None
    views: tuple[str, ...] = ()


class CampaignExists(InvalidCommand):
    """A campaign id taken already (by an earlier ``init``, or one that won the race to it)."""

    exit_code = 3

    def __init__(self, campaign_id: str):
        super().__init__(f"campaign {campaign_id!r} already exists")


def backoff(attempt: int, rng: random.Random | None = None) -> float:
    """The wait (seconds) before attempt ``attempt + 1`` after ``attempt`` lost races: full jitter."""
    return (rng or random).uniform(0, min(LONGEST_WAIT, FIRST_WAIT * 2 ** (attempt - 1)))


class CommandHandler:
    """Commands in, events appended, the state and the views brought to them."""

    def __init__(self, store: EventStore, states: StateCache, views: StoredViews, *, clock: Callable[[], str],
                 new_id: Callable[[], str]):
        self.store = store
        self.states = states
        self.views = views
        self.clock = clock
        self.new_id = new_id

    def execute(
        self,
        campaign_id: str,
        command: Any,
        *,
        by: str | None = None,
        visibility: str = "everyone",  # core.state.EVERYONE
        override: Override | None = None,
        command_key: CommandKey | None = None,
        new_command: bool = False,
        retries: int | None = None,
        patience: float = PATIENCE,
        refresh_views: bool = False,
    ) -> Recording:
        """Decide ``command`` against the campaign and append what it produces; the events, with the
        state after them and (``refresh_views``) the stored views brought to it.

        The decision is made on the remembered campaign when there is one, without reading:
        the append names the sequence it was decided on, so a decision made on a campaign
        that has moved on is never written (the store raises a conflict, and the command is
        decided again on a fresh read, after a random wait that doubles with each lost race:
        :func:`backoff`). It gives up with the conflict after ``patience`` seconds (or
        ``retries`` attempts, if given). A refusal is checked against a fresh read as well.

        ``command_key`` (see :mod:`yarnlog.app.command_ids`) is kept with the events: if its id
        recorded already, the events it recorded come back (``already_recorded``) and nothing
        is written. ``new_command`` says the id was just minted, so no earlier attempt can have
        used it: the first lookup is skipped.
        """
        deadline = time.monotonic() + patience
        if command_key is not None and not new_command:
            again = self.recorded(campaign_id, command_key)
            if again is not None:
                return self._answered(campaign_id, again, refresh_views)
        state, author, payloads = self._decide(campaign_id, command, by, visibility, override)
        try:  # optimistic: a lone writer appends in one round trip
            return self._answered(campaign_id, Recording(self.append(
                campaign_id, state.sequence, payloads, by=author, visibility=visibility, context=state.timeline,
                command=command_key)), refresh_views)
        except ConcurrencyConflict:
            self.states.stale.add(campaign_id)
        attempt = 1
        while (retries is None or attempt < retries) and time.monotonic() < deadline:
            # Another writer got there first: wait a little, then take turns, deciding again on
            # the journal as it is, where no other writer can get there first.
            time.sleep(backoff(attempt))
            try:
                # Catch up before the turn, so that in it (other writers waiting) only what was
                # written meanwhile is read and folded: the turn is as short as a decision.
                self.states.current(campaign_id)
                with self.store.turn(campaign_id):
                    self.states.stale.add(campaign_id)
                    if command_key is not None:
                        again = self.recorded(campaign_id, command_key)
                        if again is not None:
                            return self._answered(campaign_id, again, refresh_views)
                    state, author, payloads = self._decide(campaign_id, command, by, visibility, override)
                    stored = self._store_append(campaign_id, state.sequence, payloads, by=author,
                                                visibility=visibility, command=command_key)
                # Committed: only now is what was written taken into what the cache remembers.
                return self._answered(campaign_id, Recording(
                    self.states.taken_in(campaign_id, state.sequence, stored, state.timeline)), refresh_views)
            except ConcurrencyConflict:
                self.states.stale.add(campaign_id)
                attempt += 1
        raise ConcurrencyConflict(campaign_id, None, None)

    def preview(self, campaign_id: str, command: Any, *, by: str | None = None, visibility: str = "everyone",
                override: Override | None = None) -> list[Payload]:
        """What ``command`` would record now, or its refusal, as :meth:`execute` decides it; nothing is
        written (the shell shows an amendment this way before asking to confirm it; ``yarnlog play``'s
        ``dice?`` learns from the :class:`~yarnlog.core.referee.DiceNeeded` it raises how many dice a move uses)."""
        return self._decide(campaign_id, command, by, visibility, override)[2]

    def create_campaign(
        self,
        campaign_id: str,
        *,
        title: str,
        gm: str,
        ruleset: str | None = None,
        options: dict[str, bool] | None = None,
        settings: dict[str, int] | None = None,
        command: CommandKey | None = None,
        new_command: bool = False,
    ) -> Recording:
        """Record the campaign's first event; ``settings`` are the numbers the ruleset's book leaves
        open, those not given recorded at the book's default; ``command`` as for :meth:`execute`.
        Without ``ruleset``, the campaign plays the default system
        (:func:`~yarnlog.core.ruleset.default_ruleset`)."""
        from yarnlog.core.limits import check_campaign_id, check_data
        from yarnlog.core.ruleset import chosen_settings, default_ruleset, get_ruleset
        from yarnlog.core.state import EVERYONE, empty_state
        from yarnlog.core.table import CampaignCreated
        from yarnlog.core.validation import validate_created

        if ruleset is None:
            ruleset = default_ruleset()
        check_campaign_id(campaign_id)
        problem = check_data({"title": title, "gm": gm, "ruleset": ruleset, "options": options or {},
                              "settings": settings or {}}, {"gm"})
        invalid(problem is None, problem or "")
        if command is not None and not new_command:
            again = self.recorded(campaign_id, command)
            if again is not None:
                return self._answered(campaign_id, again, False)
        if self.store.last_sequence(campaign_id) != 0:
            raise CampaignExists(campaign_id)
        try:
            payload = CampaignCreated(campaign_id=campaign_id, title=title, ruleset=ruleset, gm=gm,
                                      options=dict(options or {}),
                                      settings=chosen_settings(get_ruleset(ruleset), settings or {}))
        except ValueError as exc:
            raise InvalidCommand(f"cannot create campaign: {_first_error(exc)}") from None
        # The same validator verify runs on the first event: the ruleset exists and knows the options
        # and settings.
        payload = validate_created(payload, empty_state(), Referee())
        try:
            created = Recording(self.append(campaign_id, 0, [payload], by=gm, visibility=EVERYONE, command=command))
        except ConcurrencyConflict:
            # Another process created it first: this same command (a retry of it) or another one.
            again = self.recorded(campaign_id, command) if command is not None else None
            if again is not None:
                return self._answered(campaign_id, again, False)
            if self.store.last_sequence(campaign_id) != 0:
                raise CampaignExists(campaign_id) from None
            raise
        return self._answered(campaign_id, created, False)

    def recorded(self, campaign_id: str, command: CommandKey) -> Recording | None:
        """What ``command``'s id recorded in the campaign (a :class:`Recording` marked already
        recorded), None if it recorded nothing; the same id given with another command is refused."""
        found = self.store.recorded_command(campaign_id, command.id)
        if found is None:
            return None
        first = found.events[0].sequence if found.events else 0
        invalid(found.digest == command.digest,
                f"command id {command.id!r} already recorded another command (event {first}): "
                "nothing written; give this command a new id")
        last = found.events[-1].sequence if found.events else 0
        again = Recording(self.states.history(campaign_id, upto=last)[first - 1:] if found.events else [])
        again.already_recorded = True
        return again

    def append(self, campaign_id: str, expected: int, payloads: Sequence[Payload], *, by: str,
               visibility: str, context: Timeline | None = None, command: CommandKey | None = None) -> list[Recorded]:
        """Append ``payloads`` after event ``expected``, decided elsewhere: the events appended, in the
        ``context`` of that timeline when one is given (as :func:`with_context` gives them)."""
        stored = self._store_append(campaign_id, expected, payloads, by=by, visibility=visibility, command=command)
        return self.states.taken_in(campaign_id, expected, stored, context)

    def _answered(self, campaign_id: str, recording: Recording, refresh_views: bool) -> Recording:
        """``recording`` with the campaign's state after it (the one remembered when it is the head:
        nothing read) and, if asked, the stored views brought to that state."""
        remembered = self.states.latest.get(campaign_id)
        last = recording[-1].sequence if recording else None
        fresh = remembered is not None and campaign_id not in self.states.stale and \
            remembered.state.sequence == last and not recording.already_recorded
        recording.state = remembered.state if fresh and remembered is not None else self.states.current(campaign_id)
        recording.views = tuple(self.views.refresh(campaign_id)) if refresh_views else ()
        return recording

    def _decide(self, campaign_id: str, command: Any, by: str | None, visibility: str,
                override: Override | None) -> tuple[CampaignState[Any], str, list[Payload]]:
        """The state decided on, the author, and the payloads the command produces (or a refusal)."""
        remembered = campaign_id in self.states.latest and campaign_id not in self.states.stale
        state = self.states.latest[campaign_id].state if remembered else self.states.current(campaign_id)
        try:
            return (state, *self._decision(campaign_id, command, state, by, visibility, override))
        except YarnlogError:
            if not remembered:
                raise
            # A refusal must stand on the journal as it is now, not as this process last saw it.
            fresh = self.states.current(campaign_id)
            if fresh.sequence == state.sequence:
                raise
            return (fresh, *self._decision(campaign_id, command, fresh, by, visibility, override))

    def _decision(self, campaign_id: str, command: Any, state: CampaignState[Any], by: str | None, visibility: str,
                  override: Override | None) -> tuple[str, list[Payload]]:
        """:func:`decision`, reading the history (up to ``state``) only for an amendment, which needs it."""
        def history() -> list[Recorded]:
            return self.states.history(campaign_id, upto=state.sequence)

        return decision(command, history, state, by, visibility, override)

    def _store_append(self, campaign_id: str, expected: int, payloads: Sequence[Payload], *, by: str,
                      visibility: str, command: CommandKey | None) -> list[StoredEvent]:
        """``payloads`` as events appended to the store after event ``expected``, as stored."""
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
        # A store wrapped by a test may not know command ids: it is told of one only when there is one.
        return self.store.append(campaign_id, expected, new, **({"command": command} if command else {}))


def decision(command: Any, history: Callable[[], list[Recorded]], state: CampaignState[Any], by: str | None,
             visibility: str, override: Override | None) -> tuple[str, list[Payload]]:
    """Who records ``command`` and what it produces on ``state``, or a refusal quoting the rule
    (``history()`` gives the events up to ``state``, for an amendment)."""
    from pydantic import ValidationError

    from yarnlog.core.decide import Correct, Retract, decide, decide_amendment
    from yarnlog.core.names import canonical, did_you_mean, starting_with, which_match

    _check_limits(command, by, visibility, override)
    author = canonical(by, state.table.roles) if by else state.table.gm
    if not state.table.knows(author):  # a first name or prefix of one at the table is that one; else refused
        begun = starting_with(author, state.table.roles)
        if len(begun) != 1:
            raise InvalidCommand(f"{author} is not at this campaign's table"
                                 + (which_match(author, state.table.roles) or did_you_mean(author, state.table.roles)))
        author = begun[0]
    _check_visibility(visibility, state.table)
    if override is not None:  # the GM named as typed, like every other name (yarnlog.core.names)
        override = replace(override, by=canonical(override.by, state.table.roles))
    referee = Referee(override)
    try:
        if isinstance(command, (Correct, Retract)):
            payloads = list(decide_amendment(command, history(), referee, author=author))
        else:
            payloads = decide(command, state, referee)
    except ValidationError as exc:  # a payload's own schema refused what the command carried
        raise InvalidCommand(_first_error(exc)) from None
    for payload in payloads:
        # A ruling or an award is the GM's: recorded --by anyone else, it would move tokens on a player's word.
        invalid(not payload.gm_only() or state.table.is_gm(author),
                f"{payload.gm_only()} is the GM's: record it --by {state.table.gm}, not {author}")
    if referee.overridden:
        override = present(override, "only a GM may override the rules")
        invalid(state.table.is_gm(override.by), "only a GM may override the rules")
        invalid(bool(override.reason.strip()), "an override needs a reason")
        payloads = [_override_event(override, referee, len(payloads))] + payloads
    return author, payloads


def _check_limits(command: Any, by: str | None, visibility: str, override: Override | None) -> None:
    """Refuse a command whose names, texts, numbers or lists break a limit (:mod:`yarnlog.core.limits`)
    before anything is decided: what is typed at the table is checked here for every shell."""
    from yarnlog.core.limits import check_command, check_data
    from yarnlog.core.names import NAME_FIELDS

    check_command(command, NAME_FIELDS)
    problem = check_data({"by": by, "visibility": visibility, "override": override and override.reason},
                         {"by"})
    invalid(problem is None, problem or "")


def _check_visibility(visibility: str, table: Table) -> None:
    from yarnlog.core.state import EVERYONE, GM_ONLY

    if visibility in (EVERYONE, GM_ONLY):
        return
    name = visibility.removeprefix("participant:")
    invalid(visibility.startswith("participant:") and table.knows(name),
            f"visibility must be 'everyone', 'gm' or 'participant:NAME' of someone at the table, "
            f"not {visibility!r}")


def _override_event(override: Override, referee: Referee, covers: int) -> OverrideRecorded:
    from yarnlog.core.corrections import OverriddenRule, OverrideRecorded

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
