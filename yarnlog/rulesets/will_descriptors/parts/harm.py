"""Harm after a roll, and Injuries removed by the fiction (W15-W19; readings 1-3, 6).

The loser of a roll crosses off the box equal to the winner's successes or takes an Injury instead,
with the collision rule; the box, the Injury and whether the character is now out are derived
from the track before the harm and kept in the event (reading 2: the box crossed now is recorded,
so the other reading of the collision could be replayed).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pydantic import Field

from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.will_descriptors.parts.common import character
from yarnlog.rulesets.will_descriptors.rules.harm import take_harm
from yarnlog.rulesets.will_descriptors.state import WillCampaign, WillState

NAME = 80


@event("will-descriptors.harm.taken")
class HarmTaken(Payload):
    """The loser's harm: the box crossed off (W15, W17), the Injury (W16, W17), out (W18)."""

    character: str = Field(max_length=NAME)
    roll: int = Field(ge=1)
    injury_instead: bool = False
    injury_name: str | None = Field(default=None, max_length=NAME)
    successes: int = 0
    box: int | None = None
    injury: int = 0
    collided: bool = False
    out: bool = False
    rule: str = ""


@event("will-descriptors.injury.removed")
class InjuryRemoved(Payload):
    """An Injury gone "naturally as a result of the fiction" (W19, line 12): the GM's ruling."""

    gm_records: ClassVar[str] = "a ruling"

    character: str = Field(max_length=NAME)
    injury: str = Field(max_length=NAME)
    reason: str = Field(min_length=1, max_length=2000)


@dataclass(frozen=True)
class TakeHarm:
    character: str
    roll: int | None = None  # default: the last roll
    injury_instead: bool = False
    injury_name: str | None = None


@dataclass(frozen=True)
class RemoveInjury:
    character: str
    injury: str
    reason: str


def decide(command: Any, campaign: WillCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, TakeHarm):
        roll = command.roll if command.roll is not None else campaign.rules.last_roll
        invalid(roll is not None, "no roll has been made")
        assert roll is not None
        return [validate_harm(HarmTaken(character=command.character, roll=roll, injury_instead=command.injury_instead,
                                        injury_name=command.injury_name), campaign, referee)]
    if isinstance(command, RemoveInjury):
        return [validate_removed(InjuryRemoved(character=command.character, injury=command.injury,
                                               reason=command.reason), campaign, referee)]
    return None


def validate_harm(p: HarmTaken, campaign: WillCampaign, referee: Referee) -> HarmTaken:
    state = campaign.rules
    roll = state.rolls.get(p.roll)
    invalid(roll is not None, f"there is no roll at event {p.roll}")
    assert roll is not None
    invalid(not roll.stalemate, "a stalemate harms nobody: the GM shifts the situation (W11)")
    invalid(not roll.recovery, "a Recovery roll harms nobody (reading 10)")
    invalid(roll.loser == p.character, f"{p.character} did not lose the roll at event {p.roll} "
                                       f"({roll.loser} did)")
    invalid(not roll.harmed, f"{p.character} has taken the harm of the roll at event {p.roll} already")
    who = character(campaign, p.character)
    harm = take_harm(roll.successes, who.crossed, who.track, p.injury_instead)
    name = p.injury_name
    if harm.injury:
        name = (name or f"Harm of event {p.roll}").strip()
        invalid(name not in who.injuries and name not in who.descriptors,
                f"{who.name} has a descriptor or Injury called {name} already: name this one otherwise")
    return p.model_copy(update={"successes": roll.successes, "box": harm.box, "injury": harm.injury,
                                "injury_name": name if harm.injury else None, "collided": harm.collided,
                                "out": harm.out, "rule": harm.rule.text})


def validate_removed(p: InjuryRemoved, campaign: WillCampaign, referee: Referee) -> InjuryRemoved:
    who = character(campaign, p.character)
    invalid(p.injury in who.injuries, f"{who.name} has no Injury {p.injury}")
    return p


def evolve(state: WillState, recorded: Recorded) -> WillState:
    p = recorded.payload
    if isinstance(p, HarmTaken):
        who = state.characters.get(p.character)
        roll = state.rolls.get(p.roll)
        if who is None:
            return state
        crossed = who.crossed | {p.box} if p.box is not None else who.crossed
        injuries = {**who.injuries, p.injury_name: p.injury} if p.injury and p.injury_name else who.injuries
        state = replace(state, characters={**state.characters, who.name: replace(who, crossed=frozenset(crossed),
                                                                                  injuries=injuries)})
        if roll is not None:
            state = replace(state, rolls=state.rolls.set(p.roll, replace(roll, harmed=True)))
        return state
    if isinstance(p, InjuryRemoved):
        who = state.characters.get(p.character)
        if who is None:
            return state
        injuries = {k: v for k, v in who.injuries.items() if k != p.injury}
        return replace(state, characters={**state.characters, who.name: replace(who, injuries=injuries)})
    return state


VALIDATORS = {HarmTaken: validate_harm, InjuryRemoved: validate_removed}
TYPES = (HarmTaken, InjuryRemoved)
