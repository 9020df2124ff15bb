"""Validators: one per event type, shared by deciding a command and re-checking a recorded event.

A validator ``validate(payload, campaign_state, referee) -> payload`` checks the payload's facts
against the campaign as it stood before the event (``referee.require`` for rules of the game,
``invalid`` for nonsense) and returns the payload with every field the rules derive filled in.
A decider builds the payload from its command and runs the validator with a strict (or GM
override) referee; ``verify`` runs the same validator on the recorded payload with a collecting
referee, so the two can never drift apart. Whatever the validator derives differently from what
was recorded is a fault too.

The journal's own event types are validated here; a ruleset adds validators for its own types
and may take over a journal type it decides differently (its own scene calls and episode ends).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any

from yarnlog.core.corrections import Correction, OverrideRecorded, Retraction
from yarnlog.core.events import Payload
from yarnlog.core.invites import InviteIssued, InviteRevoked, validate_issued, validate_revoked
from yarnlog.core.limits import check_data
from yarnlog.core.names import NAME_FIELDS, did_you_mean
from yarnlog.core.referee import Difference, Referee, YarnlogError, invalid
from yarnlog.core.ruleset import Ruleset, Validator, get_ruleset
from yarnlog.core.table import (
    CampaignCreated,
    OptionsChanged,
    ParticipantJoined,
    ParticipantLeft,
    check_joined,
    check_left,
    check_options,
)
from yarnlog.core.timeline import EpisodeEnded, EpisodeStarted, Note, SceneClosed, SceneOpened, check_timeline

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState

# -- the journal's own validators ---------------------------------------------------------------


def validate_created(p: CampaignCreated, campaign: CampaignState[Any], referee: Referee) -> CampaignCreated:
    """The first event: once per campaign, naming a ruleset that exists, options it knows and settings
    it offers, each within its bounds."""
    invalid(campaign.ruleset is None and not campaign.table.gm, "a campaign is created only once")
    rules = get_ruleset(p.ruleset)
    unknown = sorted(set(p.options) - set(rules.options))
    invalid(not unknown, f"unknown optional rule(s) for {p.ruleset}: {', '.join(unknown)}"
            + "".join(did_you_mean(name, rules.options) for name in unknown)
            + (f"; known: {', '.join(sorted(rules.options))}" if rules.options else ""))
    unknown = sorted(set(p.settings) - set(rules.settings))
    invalid(not unknown, f"unknown setting(s) for {p.ruleset}: {', '.join(unknown)}"
            + "".join(did_you_mean(name, rules.settings) for name in unknown)
            + (f"; known: {', '.join(sorted(rules.settings))}" if rules.settings else "; it has none"))
    for name, value in p.settings.items():
        problem = rules.settings[name].problem(name, value)
        invalid(problem is None, problem or "")
    return p


def validate_joined(p: ParticipantJoined, campaign: CampaignState[Any], referee: Referee) -> ParticipantJoined:
    return check_joined(p, campaign.table)


def validate_left(p: ParticipantLeft, campaign: CampaignState[Any], referee: Referee) -> ParticipantLeft:
    return check_left(p, campaign.table)


def validate_options(p: OptionsChanged, campaign: CampaignState[Any], referee: Referee) -> OptionsChanged:
    return check_options(p, campaign.table, campaign.ruleset.options if campaign.ruleset is not None else {})


def validate_timeline(p: Payload, campaign: CampaignState[Any], referee: Referee) -> Payload:
    """The validator of every timeline event (see :func:`check_timeline`)."""
    return check_timeline(p, campaign.timeline)


def validate_amendment(p: Correction | Retraction, campaign: CampaignState[Any],
                       referee: Referee) -> Correction | Retraction:
    """A correction or retraction names an earlier event (not the campaign's creation) and a GM.

    Whether the target exists, and whether the amended history still obeys the rules, is checked
    where the whole history is at hand (:func:`yarnlog.core.decide.decide_amendment`): the state
    before an amendment no longer holds an event it retracted.
    """
    target = p.corrects if isinstance(p, Correction) else p.retracts
    invalid(campaign.table.is_gm(p.approved_by), "only a GM may approve a correction or retraction")
    invalid(bool(p.reason.strip()), "a correction or retraction needs a reason")
    invalid(target != 1, "the campaign's creation cannot be amended: export and start a new campaign instead")
    return p


def validate_override(p: OverrideRecorded, campaign: CampaignState[Any], referee: Referee) -> OverrideRecorded:
    """Only a GM sets rules aside, says why, and names them (the journal records an override only
    when a move broke a rule)."""
    invalid(campaign.table.is_gm(p.by), "only a GM may override the rules")
    invalid(bool(p.reason.strip()), "an override needs a reason")
    invalid(bool(p.rules), "an override names the rules it sets aside")
    return p


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
    own = ruleset.rules.validators if ruleset is not None else {}
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
    if derived is recorded:
        return []  # a validator that found the recorded payload to be what the rules derive gives it back
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
