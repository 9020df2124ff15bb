"""Yarn 0.1 (Mark Caldwell, 2014): DramaSystem and WaRP mashed together. The default ruleset.

The ruleset is the composition of its parts (see :mod:`yarnlog.rulesets.yarn.state`): each
part folds its own slice of state, decides its own commands and audits its own events.
"""

from __future__ import annotations

from yarnlog.core.ruleset import Ruleset
from yarnlog.rulesets.yarn.parts.characters import part as characters
from yarnlog.rulesets.yarn.parts.combat import part as fight
from yarnlog.rulesets.yarn.parts.drama import part as drama
from yarnlog.rulesets.yarn.parts.economy import part as economy
from yarnlog.rulesets.yarn.parts.powers import part as powers
from yarnlog.rulesets.yarn.parts.procedure import part as procedure
from yarnlog.rulesets.yarn.state import YarnState

PARTS = (economy.PART, characters.PART, drama.PART, fight.PART, procedure.PART, powers.PART)


def initial_state() -> YarnState:
    return YarnState(**{part.name: part.initial() for part in PARTS})


def evolve(state: YarnState, recorded) -> YarnState:
    return YarnState(**{part.name: part.evolve(getattr(state, part.name), recorded, state) for part in PARTS})


def decide(command, campaign, referee):
    for part in PARTS:
        payloads = part.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    return None


def audit(campaign, recorded) -> list[str]:
    return [problem for part in PARTS for problem in part.audit(campaign, recorded)]


RULESET = Ruleset(
    name="yarn",
    title="Yarn 0.1",
    book="000_548678c832322f1b.txt",
    event_prefix="yarn",
    initial_state=initial_state,
    evolve=evolve,
    decide=decide,
    audit=audit,
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
