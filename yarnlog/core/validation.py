"""Validators: one per event type, shared by deciding a command and re-checking a recorded event.

A validator ``validate(payload, campaign_state, referee) -> payload`` checks the payload's facts
against the campaign as it stood before the event (``referee.require`` for rules of the game,
``invalid`` for nonsense) and returns the payload with every field the rules derive filled in.
A decider builds the payload from its command and runs the validator with a strict (or GM
override) referee; ``verify`` runs the same validator on the recorded payload with a collecting
referee, so the two can never drift apart. Whatever the validator derives differently from what
was recorded is a fault too.

The journal's own event types are validated here; a ruleset adds validators for its own types
and may take over a journal type it decides differently (Yarn's scenes and episode ends).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any

from yarnlog.core.corrections import Correction, OverrideRecorded, Retraction, validate_amendment, validate_override
from yarnlog.core.events import Payload
from yarnlog.core.invites import InviteIssued, InviteRevoked, validate_issued, validate_revoked
from yarnlog.core.limits import check_data
from yarnlog.core.names import NAME_FIELDS
from yarnlog.core.referee import Difference, Referee, YarnlogError
from yarnlog.core.ruleset import Ruleset, Validator
from yarnlog.core.table import (
    CampaignCreated,
    OptionsChanged,
    ParticipantJoined,
    ParticipantLeft,
    validate_created,
    validate_joined,
    validate_left,
    validate_options,
)
from yarnlog.core.timeline import EpisodeEnded, EpisodeStarted, Note, SceneClosed, SceneOpened, validate_timeline

if TYPE_CHECKING:
    from yarnlog.core.state import CampaignState

#: The journal's own event types, whatever the ruleset.
CORE_VALIDATORS: Mapping[type[Payload], Validator] = {
    CampaignCreated: validate_created,
    ParticipantJoined: validate_joined,
    ParticipantLeft: validate_left,
    OptionsChanged: validate_options,
    EpisodeStarted: validate_timeline,
    EpisodeEnded: validate_timeline,
    SceneOpened: validate_timeline,
    SceneClosed: validate_timeline,
    Note: validate_timeline,
    Correction: validate_amendment,
    Retraction: validate_amendment,
    OverrideRecorded: validate_override,
    InviteIssued: validate_issued,
    InviteRevoked: validate_revoked,
}


class Unchecked(Enum):
    """The limits of a payload's data not checked yet (:func:`problems` checks them)."""

    UNCHECKED = "unchecked"


UNCHECKED = Unchecked.UNCHECKED


def validator_of(payload_type: type[Payload], ruleset: Ruleset | None) -> Validator | None:
    """The ruleset's validator of ``payload_type`` if it has one, else the journal's own."""
    own = ruleset.validators if ruleset is not None else {}
    return own.get(payload_type) or CORE_VALIDATORS.get(payload_type)


def problems(validate: Validator, payload: Payload, campaign: CampaignState[Any], *,
             schema_version: int | None = None, limits: str | None | Unchecked = UNCHECKED) -> list[str]:
    """Every rule ``payload`` breaks given ``campaign`` (the state before it), then every field
    recorded otherwise than the rules derive it. Nonsense stops the check at the first problem.

    ``limits`` is the limit the payload's stored data breaks (``None`` for none), when the caller
    has already checked that data: it is then not checked again.
    """
    # What no command could carry (a name of 81 characters, a note of a megabyte) is named first,
    # whatever the type: the limits a command is checked against (yarnlog.core.limits) hold for
    # every payload, however it was written.
    beyond = check_data(payload.to_data(), NAME_FIELDS) if limits is UNCHECKED else limits
    if beyond is not None:
        return [beyond]
    referee = Referee.collecting()
    try:
        derived = validate(payload, campaign, referee)
    except YarnlogError as exc:
        return [*referee.broken_messages(), str(exc)]
    except Exception as exc:  # noqa: BLE001 - a recorded payload is untrusted data: verify names it, never crashes
        return [*referee.broken_messages(), f"its facts cannot be checked ({type(exc).__name__}: {exc})"]
    return referee.broken_messages() + differences(payload, derived, schema_version)


def differences(recorded: Payload, derived: Payload, schema_version: int | None = None) -> list[str]:
    """The fields of ``recorded`` whose value is not what the rules derive (``derived``).

    A field added by a later schema version (``added_in`` on the payload class) was never stated
    by an event of an older version: there is nothing to compare.
    """
    if type(derived) is not type(recorded):
        return [f"the rules record {derived.event_type}, not {recorded.event_type}"]
    if derived == recorded:
        # Equal field values dump to equal data, so no field can differ; this is the usual case
        # (a recorded event the rules derive again as it is), and it spares dumping both payloads.
        return []
    got, want = recorded.to_data(), derived.to_data()
    added_in = getattr(type(recorded), "added_in", {})
    version = type(recorded).schema_version if schema_version is None else schema_version
    unstated = {key for key, since in added_in.items() if version < since}
    return [Difference(key, _brief(got.get(key)), _brief(want[key]))
            for key in want if key not in unstated and got.get(key) != want[key]]


#: The longest value a difference quotes whole: a list of transfers or a sheet is cut, so the
#: sentence stays readable in a refusal's one line (the event itself shows it all).
_BRIEF = 40


def _brief(value: Any) -> str:
    """``value``'s repr, cut to :data:`_BRIEF` characters with an ellipsis when longer."""
    text = repr(value)
    return text if len(text) <= _BRIEF else text[:_BRIEF - 1] + "…"
