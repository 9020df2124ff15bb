"""Scene Descriptors, sticking, the scene's end, Refreshment scenes and the GM's stalemate shift
(W11, W13, W14, W21-W24; readings 6, 7, 9 and 11)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pydantic import Field

from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.core.timeline import EpisodeEnded, SceneClosed
from yarnlog.rulesets.will_descriptors.parts.common import Movement, apply_movements, character
from yarnlog.rulesets.will_descriptors.rules.scenes import (
    STICK_COST,
    check_between_scenes,
    check_scene_descriptor,
)
from yarnlog.rulesets.will_descriptors.rules.will import check_can_pay
from yarnlog.rulesets.will_descriptors.state import Descriptor, SceneDescriptor, WillCampaign, WillState

NAME = 80


@event("will-descriptors.scene-descriptor.created")
class SceneDescriptorCreated(Payload):
    """The winner turns the successes into a Scene Descriptor of as many dice (W13, line 10)."""

    name: str = Field(min_length=1, max_length=NAME)
    roll: int = Field(ge=1)
    dice: int = Field(ge=1, le=100)
    about: str | None = Field(default=None, max_length=NAME)
    by: str = Field(default="", max_length=NAME)  # the winner (derived)


@event("will-descriptors.scene-descriptor.stuck")
class SceneDescriptorStuck(Payload):
    """Someone pays 1 Will to make a Scene Descriptor stick to a character (W14, line 10)."""

    name: str = Field(min_length=1, max_length=NAME)
    payer: str = Field(max_length=NAME)
    to: str = Field(max_length=NAME)
    dice: int = 0
    movements: list[Movement] = Field(default_factory=list)


@event("will-descriptors.refreshment.had")
class RefreshmentHad(Payload):
    """A Refreshment scene between scenes (W21): the track restored with a partner (W22, reading 11),
    Will back to its start (W23), and the GM's escalation (W24)."""

    character: str = Field(max_length=NAME)
    partner: str | None = Field(default=None, max_length=NAME)
    escalation: str = Field(default="", max_length=2000)
    track_restored: bool = False
    movements: list[Movement] = Field(default_factory=list)


@event("will-descriptors.stalemate.shifted")
class StalemateShifted(Payload):
    """The GM shifts the situation after a real stalemate (W11, line 7)."""

    gm_records: ClassVar[str] = "a ruling"

    roll: int = Field(ge=1)
    shift: str = Field(min_length=1, max_length=2000)


@dataclass(frozen=True)
class CreateSceneDescriptor:
    name: str
    dice: int | None = None  # default: the successes
    about: str | None = None
    roll: int | None = None


@dataclass(frozen=True)
class StickDescriptor:
    name: str
    payer: str
    to: str


@dataclass(frozen=True)
class HaveRefreshment:
    character: str
    partner: str | None = None
    escalation: str = ""


@dataclass(frozen=True)
class ShiftStalemate:
    shift: str
    roll: int | None = None


def decide(command: Any, campaign: WillCampaign, referee: Referee) -> list[Payload] | None:
    state = campaign.rules
    if isinstance(command, CreateSceneDescriptor):
        roll_at = command.roll if command.roll is not None else state.last_roll
        invalid(roll_at is not None, "no roll has been made")
        assert roll_at is not None
        roll = state.rolls.get(roll_at)
        dice = command.dice if command.dice is not None else (roll.successes if roll else 0)
        return [validate_created(SceneDescriptorCreated(name=command.name.strip(), roll=roll_at, dice=max(dice, 1),
                                                        about=command.about), campaign, referee)]
    if isinstance(command, StickDescriptor):
        return [validate_stuck(SceneDescriptorStuck(name=command.name, payer=command.payer, to=command.to),
                               campaign, referee)]
    if isinstance(command, HaveRefreshment):
        return [validate_refreshment(RefreshmentHad(character=command.character, partner=command.partner,
                                                    escalation=command.escalation), campaign, referee)]
    if isinstance(command, ShiftStalemate):
        roll_at = command.roll if command.roll is not None else state.last_roll
        invalid(roll_at is not None, "no roll has been made")
        assert roll_at is not None
        return [validate_shift(StalemateShifted(roll=roll_at, shift=command.shift), campaign, referee)]
    return None


def validate_created(p: SceneDescriptorCreated, campaign: WillCampaign, referee: Referee) -> SceneDescriptorCreated:
    state = campaign.rules
    roll = state.rolls.get(p.roll)
    invalid(roll is not None, f"there is no roll at event {p.roll}")
    assert roll is not None
    invalid(roll.winner is not None, "only a roll's winner makes a Scene Descriptor (W13): this roll has none")
    invalid(not roll.described, f"the roll at event {p.roll} has made its Scene Descriptor already")
    invalid(p.name not in state.scene_descriptors and p.name not in state.characters,
            f"{p.name} is taken: name the Scene Descriptor otherwise")
    if p.about is not None:
        character(campaign, p.about)
    check_scene_descriptor(p.dice, roll.successes, referee)
    return p.model_copy(update={"by": roll.winner})


def validate_stuck(p: SceneDescriptorStuck, campaign: WillCampaign, referee: Referee) -> SceneDescriptorStuck:
    state = campaign.rules
    found = state.scene_descriptors.get(p.name)
    invalid(found is not None, f"there is no Scene Descriptor {p.name} in this scene")
    assert found is not None
    payer = character(campaign, p.payer)
    to = character(campaign, p.to)
    invalid(p.name not in to.descriptors and p.name not in to.injuries, f"{to.name} has a {p.name} already")
    check_can_pay(payer.will, STICK_COST, referee, payer.name)
    return p.model_copy(update={"dice": found.dice, "movements": [
        Movement(character=payer.name, currency="will", amount=-STICK_COST, rule="W14, line 10",
                 what=f"sticks {p.name} to {to.name}")]})


def validate_refreshment(p: RefreshmentHad, campaign: WillCampaign, referee: Referee) -> RefreshmentHad:
    check_between_scenes(campaign.timeline.scene is not None, referee)
    who = character(campaign, p.character)
    if p.partner is not None:
        invalid(p.partner != p.character, "a Refreshment scene is had with another character (W22)")
        character(campaign, p.partner)
    gain = max(0, who.starting_will - who.will)  # W23, line 16
    movements = [Movement(character=who.name, currency="will", amount=gain, rule="W23, line 16",
                          what="Refreshment scene")] if gain else []
    return p.model_copy(update={"track_restored": p.partner is not None, "movements": movements})


def validate_shift(p: StalemateShifted, campaign: WillCampaign, referee: Referee) -> StalemateShifted:
    roll = campaign.rules.rolls.get(p.roll)
    invalid(roll is not None and roll.stalemate, f"the roll at event {p.roll} is no stalemate (W11)")
    assert roll is not None
    invalid(not roll.shifted, f"the stalemate at event {p.roll} is shifted already")
    return p


def evolve(state: WillState, recorded: Recorded) -> WillState:
    p = recorded.payload
    if isinstance(p, SceneDescriptorCreated):
        made = SceneDescriptor(p.name, p.dice, recorded.scene, p.roll, p.about)
        roll = state.rolls.get(p.roll)
        rolls = state.rolls.set(p.roll, replace(roll, described=True)) if roll is not None else state.rolls
        return replace(state, scene_descriptors={**state.scene_descriptors, p.name: made}, rolls=rolls)
    if isinstance(p, SceneDescriptorStuck):
        state = apply_movements(state, p.movements, recorded)
        to = state.characters.get(p.to)
        left = {k: v for k, v in state.scene_descriptors.items() if k != p.name}
        if to is None:
            return replace(state, scene_descriptors=left)
        to = replace(to, descriptors={**to.descriptors, p.name: Descriptor(p.name, p.dice, "scene", stuck=True)})
        return replace(state, scene_descriptors=left, characters={**state.characters, to.name: to})
    if isinstance(p, (SceneClosed, EpisodeEnded)):
        # A Scene Descriptor not made to stick vanishes when its scene ends (W14, line 10).
        return replace(state, scene_descriptors={}) if state.scene_descriptors else state
    if isinstance(p, RefreshmentHad):
        state = apply_movements(state, p.movements, recorded)
        who = state.characters.get(p.character)
        if who is not None and p.track_restored:
            state = replace(state, characters={**state.characters, who.name: replace(who, crossed=frozenset())})
        return state
    if isinstance(p, StalemateShifted):
        roll = state.rolls.get(p.roll)
        return replace(state, rolls=state.rolls.set(p.roll, replace(roll, shifted=True))) if roll else state
    return state


VALIDATORS = {SceneDescriptorCreated: validate_created, SceneDescriptorStuck: validate_stuck,
              RefreshmentHad: validate_refreshment, StalemateShifted: validate_shift}
TYPES = (SceneDescriptorCreated, SceneDescriptorStuck, RefreshmentHad, StalemateShifted, SceneClosed, EpisodeEnded)
