"""DramaSystem SRD (Robin D. Laws): the composition of its parts.

What DramaSystem adds to the journal: characters with action types (:mod:`.parts.sheets`),
procedural tokens (:mod:`.parts.procedural_piles`), simple card resolution
(:mod:`.parts.card_procedure`), the advanced one (:mod:`.parts.advanced_procedure`) and simple
player-versus-player contests (:mod:`.parts.contests`). The dramatic core it shares with Yarn is
not composed in yet.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Payload, Recorded
from yarnlog.core.referee import Referee
from yarnlog.core.ruleset import Part, Router, Ruleset, compose_validators
from yarnlog.rulesets.dramasystem.parts import advanced_procedure, card_procedure, contests, procedural_piles, sheets
from yarnlog.rulesets.dramasystem.parts.procedural_piles import piles_view
from yarnlog.rulesets.dramasystem.state import DramaSystemCampaign, DramaSystemState
from yarnlog.rulesets.dramasystem.words import follow_up, narrate

PARTS: tuple[Part, ...] = (sheets.PART, procedural_piles.PART, card_procedure.PART, advanced_procedure.PART,
                           contests.PART)


def initial_state() -> DramaSystemState:
    return DramaSystemState(**{part.name: part.initial() for part in PARTS})


ROUTE: Router[Part] = Router((part.folds, part) for part in PARTS)


def evolve(state: DramaSystemState, recorded: Recorded) -> DramaSystemState:
    parts = ROUTE(type(recorded.payload))
    if not parts:
        return state
    slices = dict(state.__dict__)
    for part in parts:
        slices[part.name] = part.evolve(slices[part.name], recorded, state)
    return DramaSystemState(**slices)


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    for part in PARTS:
        payloads = part.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    return None


def audit(campaign: DramaSystemCampaign, recorded: Recorded) -> list[str]:
    return [problem for part in PARTS for problem in part.audit(campaign, recorded)]


def registered_names(campaign: DramaSystemCampaign) -> list[str]:
    return list(campaign.rules.sheets.pcs)


RULESET = Ruleset(
    name="dramasystem",
    title="DramaSystem SRD (Robin D. Laws)",
    book="001_d92eeb8e25f80b6a.txt",
    event_prefix="dramasystem",
    initial_state=initial_state,
    evolve=evolve,
    decide=decide,
    audit=audit,
    validators=compose_validators(*(part.validators for part in PARTS)),
    projections={"procedural-tokens": piles_view},
    cli="yarnlog.rulesets.dramasystem.cli:VERBS",
    names=registered_names,
    narrate=narrate,
    follow_up=follow_up,
    state_packages=("yarnlog.rulesets.dramasystem.state", "yarnlog.rulesets.dramasystem.parts",
                    "yarnlog.rulesets.dramasystem.rules"),
)
