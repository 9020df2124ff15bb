"""The seam between the journal and a game system.

A campaign names its ruleset in its first event. A ruleset contributes event types (payload
classes registered under its own prefix), a decider for its commands, an ``evolve`` fold for
its state, a validator per event type (:mod:`yarnlog.core.validation`) that its decider and
``verify`` both run, an ``audit`` for the rules that span events, and named projections.
The store knows none of this: it keeps envelopes and JSON payloads.

Rulesets are looked up by name and imported lazily, so the CLI starts without loading them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from yarnlog.core.referee import InvalidCommand

if TYPE_CHECKING:
    from yarnlog.core.events import Payload, Recorded
    from yarnlog.core.referee import Referee
    from yarnlog.core.state import CampaignState

#: ``validate(payload, campaign_state, referee) -> payload`` (see :mod:`yarnlog.core.validation`).
Validator = Callable[[Any, Any, Any], Any]

#: name -> "module:attribute" of its :class:`Ruleset`.
RULESETS: dict[str, str] = {
    "yarn": "yarnlog.rulesets.yarn.ruleset:RULESET",
    "dramasystem": "yarnlog.rulesets.dramasystem:RULESET",
    "dramatis-personae": "yarnlog.rulesets.dramatis_personae:RULESET",
    "yarn-polyhedral": "yarnlog.rulesets.yarn_polyhedral:RULESET",
    "will-descriptors": "yarnlog.rulesets.will_descriptors:RULESET",
}
DEFAULT_RULESET = "yarn"


def _no_audit(state: Any, recorded: Any) -> list[str]:
    return []


def _not_mine(command: Any, state: Any, referee: Any) -> None:
    return None


def _unchanged(state: Any, recorded: Any) -> Any:
    return state


@dataclass(frozen=True)
class Ruleset:
    """What a game system adds to a journal.

    ``decide(command, campaign_state, referee)`` returns the payloads a command produces, or
    ``None`` when the command is not one of this ruleset's (the journal's own decider then
    handles it). ``evolve(ruleset_state, recorded)`` folds any event, the journal's own ones
    included, and never refuses. ``validators`` maps each of its payload types (and any journal
    type it decides itself) to its validator: ``verify`` re-checks every recorded event with the
    same validator that decided it, and an event type without one is a fault.
    ``audit(campaign_state, recorded)`` lists the rules a recorded event broke that no validator
    of a single payload can see: rules across event types (a payer holds what she pays), rules
    binding one event to the next, and rules on the envelope (who may see it). ``verify`` skips
    both for events recorded under a GM override.
    """

    name: str
    title: str
    book: str
    event_prefix: str
    initial_state: Callable[[], Any] = dict
    evolve: Callable[[Any, Any], Any] = _unchanged
    decide: Callable[[Any, Any, Any], Any] = _not_mine
    audit: Callable[[Any, Any], list[str]] = _no_audit
    options: Mapping[str, str] = field(default_factory=dict)
    validators: Mapping[type, Validator] = field(default_factory=dict)

    def owns(self, event_type: str) -> bool:
        return event_type.startswith(self.event_prefix + ".")


def get_ruleset(name: str) -> Ruleset:
    """Import and return the ruleset called ``name``."""
    try:
        target = RULESETS[name]
    except KeyError:
        raise InvalidCommand(f"unknown ruleset {name!r}; choose one of: {', '.join(sorted(RULESETS))}") from None
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


def _part_has_no_commands(command: Any, campaign: "CampaignState", referee: "Referee") -> None:
    return None


def _part_has_no_audit(campaign: "CampaignState", recorded: "Recorded") -> list[str]:
    return []


@dataclass(frozen=True)
class Part:
    """One concern of the ruleset.

    ``evolve(slice, recorded, state_before) -> slice`` never refuses; ``decide(command,
    campaign_state, referee)`` returns payloads or ``None`` if the command is not this part's;
    ``validators`` maps each of the part's payload types to its validator (see :class:`Ruleset`);
    ``audit(campaign_state, recorded)`` lists rules the recorded event broke that span events.
    """

    name: str
    initial: Callable[[], Any]
    evolve: Callable[[Any, "Recorded", Any], Any]
    decide: Callable[[Any, "CampaignState", "Referee"], "list[Payload] | None"] = _part_has_no_commands
    audit: Callable[["CampaignState", "Recorded"], list[str]] = _part_has_no_audit
    validators: Mapping[type, Validator] = field(default_factory=dict)


def compose_validators(*mappings: Mapping[type, "Validator"]) -> dict[type, "Validator"]:
    """The validators of several parts (or modules), by payload type; no type may have two."""
    composed: dict[type, Validator] = {}
    for validators in mappings:
        for payload_type, validate in validators.items():
            if payload_type in composed:
                raise RuntimeError(f"{payload_type.__name__} has two validators")
            composed[payload_type] = validate
    return composed
