"""Will & Descriptors (draft): the ruleset, its state folded by the moves of :mod:`.parts`.

The numbers the draft leaves open are campaign settings chosen at ``init`` (:data:`SETTINGS`). One
state (:class:`~.state.WillState`), folded by each concern's module in turn: the characters
(:mod:`.parts.sheets`), the opposed and Recovery rolls (:mod:`.parts.rolls`), harm and Injuries
(:mod:`.parts.harm`), Scene Descriptors, Refreshment scenes and stalemates (:mod:`.parts.scenes`),
Keys, Advances and rulings (:mod:`.parts.keys`).
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.composition import Router, compose_validators, folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.names import Registered
from yarnlog.core.referee import Referee
from yarnlog.core.ruleset import Rules, Ruleset, Setting, Views, Words
from yarnlog.rulesets.will_descriptors import reads
from yarnlog.rulesets.will_descriptors.parts import harm, keys, rolls, scenes, sheets
from yarnlog.rulesets.will_descriptors.rules.will import DEFAULT_SIDES, DEFAULT_STARTING_WILL
from yarnlog.rulesets.will_descriptors.state import WillCampaign, WillState
from yarnlog.rulesets.will_descriptors.status import seats
from yarnlog.rulesets.will_descriptors.words import follow_up, narrate

MODULES = (sheets, rolls, harm, scenes, keys)
ROUTE = Router((folds(*module.TYPES), module) for module in MODULES)


def evolve(state: WillState, recorded: Recorded) -> WillState:
    for module in ROUTE(type(recorded.payload)):
        state = module.evolve(state, recorded)
    return state


def decide(command: Any, campaign: WillCampaign, referee: Referee) -> list[Payload] | None:
    for module in MODULES:
        payloads = module.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    return None


def registered_names(campaign: WillCampaign) -> Registered:
    """The characters and the scene's descriptors (commands name them ignoring case)."""
    return Registered(campaign.rules.characters, other=campaign.rules.scene_descriptors)


#: The numbers the draft leaves open, chosen at ``init --setting NAME=N`` (readings 1 and 15). The track
#: has no default: without one, each character is given its own at creation.
SETTINGS = {
    "track": Setting("the Power track's boxes: the draft never says how many (line 11; reading 1)", None, 1, 100),
    "starting_will": Setting("Will 'arbitrarily set to start at 9 (pending playtest)' (W1, line 2; reading 15)",
                             DEFAULT_STARTING_WILL, 1, 1000),
    "sides": Setting("the dice's sides: 'for now, the default is d10' (W4, line 3; reading 15)", DEFAULT_SIDES, 2,
                     100),
}

RULESET = Ruleset(
    name="will-descriptors",
    title="Will & Descriptors (draft)",
    book="004_6e81f54c2e20d842.txt",
    # One state folded by each concern's module in turn (not a Composition of slices: the modules
    # read and write the same characters).
    rules=Rules(
        initial_state=WillState,
        evolve=evolve,
        decide=decide,
        validators=compose_validators(*(module.VALIDATORS for module in MODULES)),
        names=registered_names,
        state_packages=("yarnlog.rulesets.will_descriptors.state", "yarnlog.rulesets.will_descriptors.rules"),
    ),
    views=Views(projections={"board": reads.board, "ledger": reads.ledger}),
    words=Words(narrate=narrate, follow_up=follow_up, seats=seats),
    templates="yarnlog/templates/will-descriptors",  # sheet templates, shadowed by --templates DIR
    settings=SETTINGS,
)
