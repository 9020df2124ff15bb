"""Deciding commands: the journal's own (or the ruleset's takeover of one), the ruleset's; amendments; the audit.

``decide(command, state, referee) -> payloads`` validates and refuses with the rule; ``audit``
re-checks recorded history for ``verify`` and for amendments.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from yarnlog.core.corrections import (
    Amendments,
    Correction,
    OverrideRecorded,
    Retraction,
    effective,
)
from yarnlog.core.events import Payload, Recorded, load_payload
from yarnlog.core.invites import decide_invite
from yarnlog.core.names import (
    CHARACTER_FIELDS,
    Registered,
    characters,
    completed,
    did_you_mean,
    mentioned,
    resolve_command,
    which_match,
)
from yarnlog.core.referee import Broken, Difference, InvalidCommand, Referee, Rule, YarnlogError, invalid, present
from yarnlog.core.ruleset import CORE_COMMANDS, CampaignState
from yarnlog.core.state import EVERYONE, empty_state, evolve, paused_gc, replay
from yarnlog.core.table import decide_table
from yarnlog.core.timeline import decide_timeline
from yarnlog.core.validation import UNCHECKED, Unchecked, problems, validate_amendment, validator_of

CORRECTIONS_RULE = Rule(
    "yarnlog", "Corrections",
    "A correction must leave a history that still obeys the rules, unless the GM overrides.",
)


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


def known_names(state: CampaignState[Any]) -> Registered:
    """Every name registered in the campaign: the participants and the ruleset's own (characters...),
    looked up where the state keeps them (not copied: a move's decision does not grow with them)."""
    ruleset_names = state.ruleset.rules.names(state) if state.ruleset is not None else ()
    if not isinstance(ruleset_names, Collection):
        ruleset_names = tuple(ruleset_names)
    return Registered(state.table.roles, ruleset_names)


def decide(command: Any, state: CampaignState[Any], referee: Referee) -> list[Payload]:
    """What ``command`` produces: a journal command is the journal's to decide unless the ruleset
    explicitly takes it over; any other command is the ruleset's.

    The command's names are first resolved to the names as registered, ignoring case
    (:mod:`yarnlog.core.names`), so what is recorded carries them as registered; a refusal that
    names an unknown name suggests the nearest registered ones.
    """
    ruleset = present(state.ruleset, "the campaign has not been created")
    known = known_names(state)
    command = resolve_command(command, known)
    try:
        return _decide(command, state, referee, ruleset)
    except InvalidCommand as exc:
        widened = completed(command, known, str(exc)) if type(exc) is InvalidCommand else None
        if widened is None:
            raise _with_suggestion(exc, command, known, state) from None
    try:  # a first name or a prefix the refusal named, begun by one registered name: that name
        return _decide(widened, state, referee, ruleset)
    except InvalidCommand as exc:
        raise _with_suggestion(exc, widened, known, state) from None


def _with_suggestion(exc: InvalidCommand, command: Any, known: Registered, state: CampaignState[Any]) -> InvalidCommand:
    """``exc``, with "did you mean ...?" added when its message names an unregistered name of the command.

    Only a plain :class:`InvalidCommand`: a subclass (``DiceNeeded``) carries more than its message.
    """
    if type(exc) is not InvalidCommand:
        return exc
    message = str(exc)
    registered = set(known)
    # A name in a character's field is suggested among the ruleset's characters, not the table's people.
    in_character_fields = set(mentioned(command, CHARACTER_FIELDS))
    for name in mentioned(command):
        if name and name not in registered and name in message:
            among = registered
            if name in in_character_fields and state.ruleset is not None:
                among = set(characters(state.ruleset.rules.names(state)))
            hint = which_match(name, among) or did_you_mean(name, among)
            if hint:
                return InvalidCommand(message + hint)
    return exc


def _decide(command: Any, state: CampaignState[Any], referee: Referee, ruleset: Any) -> list[Payload]:
    payloads: list[Payload] | None
    if type(command) in CORE_COMMANDS:
        takeover = ruleset.rules.takes_over.get(type(command))
        if takeover is None:
            payloads = (decide_table(command, state.table, ruleset.options) or decide_invite(command, state.table)
                        or decide_timeline(command, state.timeline))
        else:
            payloads = takeover(command, state, referee)
            if payloads is None:
                raise RuntimeError(f"the {ruleset.name} ruleset takes over {type(command).__name__} "
                                   "but its handler decided nothing")
    else:
        payloads = ruleset.rules.decide(command, state, referee)
        if payloads is None:
            raise InvalidCommand(f"{type(command).__name__} is not a command of the {ruleset.name} ruleset")
    if not payloads:
        raise InvalidCommand("that command records nothing")
    return list(payloads)


def recorded_with(sequence: int, history: Sequence[Recorded]) -> list[int]:
    """The events recorded in one entry with event ``sequence``, itself included: a GM's override and
    the ``covers`` events it let through are one entry (one command), else the event alone."""
    for rec in history:
        covers = getattr(rec.payload, "covers", None) if rec.event_type == "override.recorded" else None
        if covers and rec.sequence <= sequence <= rec.sequence + covers:
            return list(range(rec.sequence, rec.sequence + covers + 1))
    return [sequence]


def decide_amendment(command: Correct | Retract, history: Sequence[Recorded], referee: Referee, *,
                     author: str) -> list[Payload]:
    """A correction or retraction of an earlier event, approved by a GM.

    A retraction takes back the whole entry the event was recorded in (:func:`recorded_with`): the
    override and the move it let through are retracted together, the event named first.
    Refused (unless overridden) when the amended history would break a rule that the
    recorded history kept, e.g. retracting a grant that a later spend depended on.
    """
    state = replay(history)
    invalid(state.table.is_gm(author), "only a GM may approve a correction or retraction")
    invalid(bool(command.reason.strip()), "a correction or retraction needs a reason")
    target = present(next((r for r in history if r.sequence == command.sequence), None),
                     f"there is no event {command.sequence} to amend")
    invalid(target.event_type != "campaign.created",
            "the campaign's creation cannot be amended: export and start a new campaign instead")
    current = present({r.sequence: r for r in effective(history)}.get(command.sequence),
                      f"event {command.sequence} is already retracted")
    invalid(isinstance(command, Retract) or not isinstance(target.payload, (Correction, Retraction)),
            f"event {command.sequence} is itself an amendment: retract it (which undoes it) and record "
            "a new one, rather than correcting it")
    payload: Correction | Retraction
    payloads: list[Correction | Retraction] = []
    if isinstance(command, Retract):
        payload = Retraction(retracts=command.sequence, reason=command.reason, approved_by=author)
        live = {r.sequence for r in effective(history)}
        payloads = [Retraction(retracts=n, reason=command.reason, approved_by=author)
                    for n in recorded_with(command.sequence, history) if n != command.sequence and n in live]
    else:
        data = _merged(current.payload.to_data(), command.changes)
        corrected = load_payload(target.event_type, type(current.payload).schema_version, data)
        before = replay([r for r in history if r.sequence < command.sequence])
        # What the GM set stays set: a derived field corrected by hand is the audit's to refuse below.
        data = _merged(_rederived(corrected, before).to_data(), command.changes)
        payload = Correction(corrects=command.sequence, replacement=data, reason=command.reason,
                             approved_by=author)
    every: list[Payload] = [validate_amendment(p, state, referee) for p in (payload, *payloads)]
    amended = [Recorded(
        campaign_id=target.campaign_id, sequence=history[-1].sequence + 1 + i, event_id="pending",
        event_type=p.event_type, schema_version=p.schema_version, recorded_at="",
        recorded_by=author, visibility=EVERYONE, payload=p,
    ) for i, p in enumerate(every)]
    known = {(f.sequence, f.problem) for f in audit(history)}
    for fault in audit([*history, *amended]):
        if (fault.sequence, fault.problem) not in known:
            # A rule the audit names is the one refused (and overridden), said in one line; anything
            # else (a field the rules derive otherwise) is refused under the rule of corrections.
            broken = fault.problem
            rule, said = (broken.rule, broken.message) if isinstance(broken, Broken) else (CORRECTIONS_RULE, broken)
            if isinstance(broken, Difference):
                said = broken.briefly()
            elif not isinstance(broken, Broken):
                said = _briefly(str(broken))
            referee.require(False, rule, f"event {fault.sequence} fails: {said}")
    return list(every)


_DETAIL = re.compile(r" \[[^\[\]]*(?:\([^()]*\))?[^\[\]]*\]$")


def _briefly(problem: str, width: int = 40) -> str:
    """A problem ``verify`` would name, short enough for a refusal's one line: without its bracketed
    detail (`` [2 dice (Gus: Brawling)]``), and a long one by its last clause (``attack roll: a 2-die
    roll (2d6) needs 2 faces, got 3`` -> ``a 2-die roll (2d6) needs 2 faces, got 3``)."""
    said = _DETAIL.sub("", problem)  # only a trailing detail: a name may itself open with "["
    return said.rsplit(": ", 1)[-1] if len(said) > width else said


def _merged(data: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``data`` with ``changes``; a dotted key (``dice.faces``) changes one field of a nested object."""
    merged = dict(data)
    for key, value in changes.items():
        head, dot, rest = key.partition(".")
        if dot:
            inner = merged.get(head)
            if not isinstance(inner, dict):
                raise InvalidCommand(f"{head!r} is not an object of that event: cannot set {key!r}")
            merged[head] = _merged(inner, {rest: value})
        else:
            merged[key] = value
    return merged


def _rederived(payload: Payload, before: CampaignState[Any]) -> Payload:
    """The corrected ``payload`` with every field its validator derives worked out again from the facts
    corrected (new dice faces give a new total and outcome), on the campaign as it stood before it.

    Its rules are not enforced here but by the audit of the amended history (a collecting referee),
    so a GM override of a correction covers them; nonsense is refused (InvalidCommand).
    """
    validate = validator_of(type(payload), before.ruleset)
    if validate is None:
        return payload
    return validate(payload, before, Referee.collecting())


@dataclass(frozen=True)
class Fault:
    """Something wrong with one stored event."""

    sequence: int
    event_type: str
    problem: str


def audit(history: Sequence[Recorded]) -> list[Fault]:
    """Re-check every event against the rules, given the state before it.

    Each event is re-checked by the validator of its type (the same one that decided it), then
    by the ruleset's audit of the rules that span events. Events recorded under a GM override
    are not re-checked: the override event says which rules were set aside, and by whom.
    """
    return audit_stream(history, Amendments(history))


def audit_stream(history: Iterable[Recorded], amendments: Amendments, *,
                 limits: dict[int, str | None] | None = None) -> list[Fault]:
    """:func:`audit` of events that arrive one at a time (in context) and are not kept.

    ``amendments`` are the corrections and retractions among them, gathered beforehand. The
    iterable is always read to its end, even once a fold has failed and checking has stopped.
    ``limits`` holds, by sequence, the limit each event's stored payload breaks (``None`` for
    none) as its caller checked it on the stored data; each entry is taken out when its event
    arrives (so it holds only events not yet audited), and an event without one, or corrected,
    has its typed payload checked here.
    """
    faults: list[Fault] = []
    state = empty_state()
    # (first, last) sequences each override covers: kept as bounds, since a forged ``covers`` can be huge.
    overridden: list[tuple[int, int]] = []
    still_open: list[tuple[int, int]] = []  # those not yet behind us: an override covers the next few events
    last = 0
    checking = True
    with paused_gc():
        for rec in history:
            last = rec.sequence
            known: str | None | Unchecked = UNCHECKED if limits is None else limits.pop(last, UNCHECKED)
            if not checking:
                continue
            if amendments:
                amended = amendments.apply(rec)
                if amended is None:
                    continue
                if amended is not rec:
                    known = UNCHECKED  # corrected: its payload is no longer the stored data checked
                rec = amended
            if still_open:
                still_open = [(first, end) for first, end in still_open if end >= rec.sequence]
            if not any(first <= rec.sequence for first, _ in still_open):
                faults.extend(Fault(rec.sequence, rec.event_type, p) for p in check_event(state, rec, limits=known))
            if isinstance(rec.payload, OverrideRecorded):
                covered = (rec.sequence + 1, rec.sequence + rec.payload.covers)
                overridden.append(covered)
                still_open.append(covered)
            try:
                state = evolve(state, rec)
            except Exception as exc:  # noqa: BLE001 - stored data is untrusted: a fold that fails on it is a fault
                faults.append(Fault(rec.sequence, rec.event_type, f"cannot be replayed ({_reason(exc)}): the events "
                                                                  "after it are not checked"))
                checking = False
    # An override and the events it lets through are appended together: it cannot cover more than follow it.
    for first, end in overridden:
        if end > last:
            faults.append(Fault(first - 1, OverrideRecorded.event_type,
                                f"covers {end - first + 1} events but only {last - first + 1} follow it"))
    return sorted(faults, key=lambda f: f.sequence)


def _reason(exc: Exception) -> str:
    return str(exc) if isinstance(exc, YarnlogError) else f"{type(exc).__name__}: {exc}"


def check_event(state: CampaignState[Any], rec: Recorded, *,
                limits: str | None | Unchecked = UNCHECKED) -> list[str]:
    """What is wrong with ``rec`` given ``state``, the campaign just before it (each problem once).

    ``limits``: the limit its stored payload breaks, if the caller checked it (:func:`problems`)."""
    validate = validator_of(type(rec.payload), state.ruleset)
    if validate is None:
        found = [f"no validator checks {rec.event_type} events, so no rule of them can be verified"]
    else:
        found = problems(validate, rec.payload, state, schema_version=rec.schema_version, limits=limits)
    if rec.payload.gm_only() and not state.table.is_gm(rec.recorded_by):
        what = rec.event_type if rec.payload.gm_records else rec.payload.gm_only()
        found.append(f"only a GM records {what}, and {rec.recorded_by} is not one")
    if state.ruleset is not None:
        try:
            found += state.ruleset.rules.audit(state, rec)
        except YarnlogError as exc:
            found.append(str(exc))
    return list(dict.fromkeys(found))
