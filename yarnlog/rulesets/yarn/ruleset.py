"""Yarn 0.1 (Mark Caldwell, 2014): DramaSystem and WaRP mashed together. The default ruleset.

The ruleset is the composition of its parts (see :mod:`yarnlog.rulesets.yarn.state`): each
part folds its own slice of state, decides its own commands and validates its own event types.
Yarn takes over three of the journal's own commands (:data:`TAKES_OVER`); its verbs are in
:mod:`yarnlog.rulesets.yarn.cli.verbs`, named here by path so the domain never imports the shell.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee
from yarnlog.core.ruleset import Handler, Part, Router, Ruleset, compose_validators
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.yarn.parts.characters import part as characters
from yarnlog.rulesets.yarn.parts.combat import part as fight
from yarnlog.rulesets.yarn.parts.drama import part as drama
from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
from yarnlog.rulesets.yarn.parts.drama.scene_cast import scene_cast_view
from yarnlog.rulesets.yarn.parts.economy import part as economy
from yarnlog.rulesets.yarn.parts.economy.ledger import bennie_report, token_report
from yarnlog.rulesets.yarn.parts.powers import part as powers
from yarnlog.rulesets.yarn.parts.procedure import part as procedure
from yarnlog.rulesets.yarn.recap.words import follow_up, narrate
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

PARTS = (economy.PART, characters.PART, drama.PART, fight.PART, procedure.PART, powers.PART)


def initial_state() -> YarnState:
    return YarnState(**{part.name: part.initial() for part in PARTS})


#: Each event goes to the parts whose ``folds`` handle its type; every other part's slice stays as it is.
ROUTE: Router[Part] = Router((part.folds, part) for part in PARTS)


def evolve(state: YarnState, recorded: Recorded) -> YarnState:
    """Each part that folds the event's type folds its own slice, seeing the state before the event.

    A new state is built only when some slice changed (most events change one or two).
    """
    changed: dict[str, Any] = {}
    for part in ROUTE(type(recorded.payload)):
        before = getattr(state, part.name)
        after = part.evolve(before, recorded, state)
        if after is not before:
            changed[part.name] = after
    return replace(state, **changed) if changed else state


def decide(command: Any, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    for part in PARTS:
        payloads = part.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    return None


#: One validator per event type, from the part that decides it (see :mod:`yarnlog.core.validation`).
VALIDATORS = compose_validators(*(part.validators for part in PARTS))


def audit(campaign: YarnCampaign, recorded: Recorded) -> list[str]:
    return [problem for part in PARTS for problem in part.audit(campaign, recorded)]


def registered_names(campaign: YarnCampaign) -> list[str]:
    """The names Yarn registers beside the table's: player and supporting characters, locations, and
    the combatants the GM registered for a fight (commands name them ignoring case)."""
    characters, wounds = campaign.rules.characters, campaign.rules.combat.wounds
    return [*characters.pcs, *characters.supporting, *characters.locations, *wounds.registered]


#: The journal's own commands Yarn decides itself, and the part that does.
TAKES_OVER: dict[type, Handler] = {
    StartEpisode: characters.PART.decide,  # "Themes": the rota names who chooses the theme
    OpenScene: drama.PART.decide,  # "Calling Scenes": calling order, casting cost, scene kinds
    EndEpisode: drama.PART.decide,  # "Bennies": the vote, drama tokens back to the kitty
}

RULESET = Ruleset(
    name="yarn",
    title="Yarn 0.1",
    book="000_548678c832322f1b.txt",
    event_prefix="yarn",
    initial_state=initial_state,
    evolve=evolve,
    decide=decide,
    audit=audit,
    takes_over=TAKES_OVER,
    projections={"tokens": token_report, "bennies": bennie_report, "calling-order": calling_view,
                 "scene-casts": scene_cast_view},
    templates="yarnlog/templates/yarn",  # recap (and sheet) templates, shadowed by --templates DIR
    cli="yarnlog.rulesets.yarn.cli.verbs:VERBS",
    validators=VALIDATORS,
    names=registered_names,
    narrate=narrate,
    follow_up=follow_up,
    # What YarnState is built of (the snapshot codec's whitelist): the parts, the pure rules' values.
    state_packages=("yarnlog.rulesets.yarn.state", "yarnlog.rulesets.yarn.parts", "yarnlog.rulesets.yarn.rules"),
    options={
        "botch": "Optional Procedural Rules: Botch",
        "blowing_the_top_off": "Optional Procedural Rules: Blowing the Top Off",
        "unstoppable_six": "Optional Procedural Rules: The Unstoppable Six",
        "multiple_experience_dice": "Your Experience Pool: more than one experience die on a roll, each justified",
        "narrow_traits": "More About Traits: narrow traits (optional)",
        "desperate_defense": "Optional Rules for Combat: Desperate Defense",
        "alternate_damage": "Optional Rules for Combat: Alternate Damage",
        "serious_wounds": "Optional Rules for Combat: Serious Wounds",
    },
)
