"""The opposed roll and the Recovery roll (W5-W11, W20; readings 4, 5, 8-10).

Each side names its contributions (``Bold 3D``, an opponent's ``Bob:Proud``, a Scene Descriptor, an
Injury): their dice are looked up, the side's character pays 1 Will for each (W5, W13) and an owner
whose descriptor joins the other side's pool gains 1 (W6). The faces are entered as rolled or rolled
by the tool; the outcome (W7-W11) and the exact prior odds are derived and kept in the event. In a
Recovery roll the Injury's dice are the other pool (reading 10): a win reduces it by the successes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from random import Random
from typing import Any, Literal

from pydantic import BaseModel, Field

from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import DiceNeeded, Referee, invalid
from yarnlog.rulesets.will_descriptors.parts.common import Movement, apply_movements, character, check_in_scene
from yarnlog.rulesets.will_descriptors.rules.harm import recovered
from yarnlog.rulesets.will_descriptors.rules.odds import opposed_odds
from yarnlog.rulesets.will_descriptors.rules.opposed import Side, resolve
from yarnlog.rulesets.will_descriptors.rules.will import (
    ACTIVATION_COST,
    USED_AGAINST_GAIN,
    check_can_pay,
    check_pool_source,
)
from yarnlog.rulesets.will_descriptors.state import Roll, WillCampaign, WillState, settings_of

NAME = 80
Kind = Literal["descriptor", "injury", "scene"]


class Contribution(BaseModel):
    """A descriptor, an Injury or a Scene Descriptor in a pool: its owner (None for a Scene Descriptor),
    its dice (derived) and who pays the Will (derived: the side's character; none for an Injury's own pool)."""

    name: str = Field(min_length=1, max_length=NAME)
    owner: str | None = Field(default=None, max_length=NAME)
    kind: Kind = "descriptor"
    dice: int = Field(default=0, ge=0, le=100)
    payer: str | None = Field(default=None, max_length=NAME)


class SideEntry(BaseModel):
    character: str | None = Field(default=None, max_length=NAME)
    contributions: list[Contribution] = Field(default_factory=list, max_length=50)
    faces: list[int] = Field(default_factory=list, max_length=500)


class OddsLine(BaseModel):
    """The prior chance (a fraction, "p/q") that ``side`` wins with ``successes``; side "stalemate" for W11."""

    side: Literal["a", "b", "stalemate"]
    successes: int = Field(ge=0)
    chance: str


class RecoveryEntry(BaseModel):
    patient: str = Field(max_length=NAME)
    injury: str = Field(max_length=NAME)


@event("will-descriptors.roll.made")
class RollMade(Payload):
    """An opposed roll (or a Recovery roll): the pools, the faces, the outcome and the prior odds."""

    a: SideEntry
    b: SideEntry
    stakes: str = Field(default="", max_length=2000)
    recovery: RecoveryEntry | None = None
    winner: Literal["a", "b"] | None = None
    successes: int = 0
    tn: int | None = None
    cancelled: int = 0
    rule: str = ""
    odds: list[OddsLine] = Field(default_factory=list)
    movements: list[Movement] = Field(default_factory=list)


@dataclass(frozen=True)
class OpposedRoll:
    """``a`` acts against ``b``; each names its contributions as ``[OWNER:]NAME``."""

    a: str
    b: str | None
    uses_a: tuple[str, ...] = ()
    uses_b: tuple[str, ...] = ()
    faces_a: tuple[int, ...] | None = None
    faces_b: tuple[int, ...] | None = None
    stakes: str = ""
    recovery: tuple[str, str] | None = None  # (patient, injury): the Injury is side b's pool
    rolled: Mapping[str, Any] = field(default_factory=dict)


def _contribution(spec: str, side_character: str, campaign: WillCampaign) -> Contribution:
    owner, _, name = spec.rpartition(":")
    name = name.strip()
    if owner.strip():
        return Contribution(name=name, owner=owner.strip(), payer=side_character)
    me = campaign.rules.characters.get(side_character)
    if me is not None and (name in me.descriptors or name in me.injuries):
        return Contribution(name=name, owner=side_character, payer=side_character)
    if name in campaign.rules.scene_descriptors:
        return Contribution(name=name, kind="scene", payer=side_character)
    return Contribution(name=name, owner=side_character, payer=side_character)


def _faces(command: OpposedRoll, roll: str, given: tuple[int, ...] | None, dice: int, sides: int) -> list[int]:
    if given is not None:
        return list(given)
    thrown = command.rolled.get(roll)
    if thrown is None:
        def throw(rng: Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
            return tuple(rng.randint(1, sides) for _ in range(dice)), ()
        raise DiceNeeded(roll, dice, sides, throw)
    return list(thrown[0])


def decide(command: Any, campaign: WillCampaign, referee: Referee) -> list[Payload] | None:
    if not isinstance(command, OpposedRoll):
        return None
    recovery = None
    if command.recovery is not None:
        patient, injury = command.recovery
        recovery = RecoveryEntry(patient=patient, injury=injury)
        b = SideEntry(contributions=[Contribution(name=injury, owner=patient, kind="injury")])
    else:
        invalid(command.b is not None, "name the opposing side: --against NAME")
        assert command.b is not None
        b = SideEntry(character=command.b,
                      contributions=[_contribution(s, command.b, campaign) for s in command.uses_b])
    a = SideEntry(character=command.a, contributions=[_contribution(s, command.a, campaign) for s in command.uses_a])
    sides = settings_of(campaign).sides
    a = a.model_copy(update={"contributions": _with_dice(a, campaign)})
    b = b.model_copy(update={"contributions": _with_dice(b, campaign)})
    a = a.model_copy(update={"faces": _faces(command, "a", command.faces_a, _dice(a), sides)})
    b = b.model_copy(update={"faces": _faces(command, "b", command.faces_b, _dice(b), sides)})
    payload = RollMade(a=a, b=b, stakes=command.stakes, recovery=recovery)
    return [validate_roll(payload, campaign, referee)]


def _dice(side: SideEntry) -> int:
    return sum(c.dice for c in side.contributions)


def _with_dice(side: SideEntry, campaign: WillCampaign) -> list[Contribution]:
    """Each contribution with its dice looked up in the state before the roll (W4, W13, W19)."""
    state = campaign.rules
    out = []
    for c in side.contributions:
        if c.kind == "scene":
            found = state.scene_descriptors.get(c.name)
            invalid(found is not None, f"there is no Scene Descriptor {c.name} in this scene")
            assert found is not None
            dice = found.dice
        else:
            owner = character(campaign, c.owner or "")
            descriptor = owner.descriptors.get(c.name)
            if c.kind == "descriptor" and descriptor is not None:
                dice = descriptor.dice
            else:
                invalid(c.name in owner.injuries, f"{owner.name} has no descriptor or Injury {c.name}: "
                                                  f"{', '.join([*owner.descriptors, *owner.injuries]) or 'none'}")
                dice = owner.injuries[c.name]
                c = c.model_copy(update={"kind": "injury"})
        out.append(c.model_copy(update={"dice": dice, "payer": side.character}))
    return out


def validate_roll(p: RollMade, campaign: WillCampaign, referee: Referee) -> RollMade:
    """The pools' dice and Will (W5, W6), the faces, then the outcome (W7-W11) and its prior odds."""
    sides = settings_of(campaign).sides
    a = p.a.model_copy(update={"contributions": _with_dice(p.a, campaign)})
    b = p.b.model_copy(update={"contributions": _with_dice(p.b, campaign)})
    invalid(a.character is not None, "the acting side is a character")
    roller = character(campaign, a.character or "")
    check_in_scene(roller, referee)
    if p.recovery is not None:
        patient = character(campaign, p.recovery.patient)
        invalid(p.recovery.injury in patient.injuries, f"{patient.name} has no Injury {p.recovery.injury}")
        pool = [(c.name, c.owner) for c in b.contributions]
        invalid(b.character is None and pool == [(p.recovery.injury, patient.name)],
                "a Recovery roll's other pool is the Injury itself (reading 10)")
    else:
        invalid(b.character is not None and b.character != a.character, "an opposed roll has two characters")
        check_in_scene(character(campaign, b.character or ""), referee)
        for side, other in ((a, b), (b, a)):
            for c in side.contributions:
                if c.owner is not None:
                    check_pool_source(c.owner, side.character or "", other.character or "", referee, c.name)
    movements: list[Movement] = []
    for side, other in ((a, b), (b, a)):
        for c in side.contributions:
            if side.character is None:
                continue  # the Injury's own pool costs nobody Will (reading 10)
            movements.append(Movement(character=side.character, currency="will", amount=-ACTIVATION_COST,
                                      rule="W13, line 10" if c.kind == "scene" else "W5, line 4",
                                      what=f"activates {c.name}"))
            if c.owner is not None and c.owner == other.character:
                movements.append(Movement(character=c.owner, currency="will", amount=USED_AGAINST_GAIN,
                                          rule="W6, line 4", what=f"{c.name} used against {c.owner}"))
    for side in (a, b):
        if side.character is not None:
            pays = sum(-m.amount for m in movements if m.character == side.character and m.amount < 0)
            check_can_pay(character(campaign, side.character).will, pays, referee, side.character)
    for side, name in ((a, "first"), (b, "second")):
        invalid(len(side.faces) == _dice(side), f"the {name} pool has {_dice(side)} dice but {len(side.faces)} "
                                                "faces were entered")
        invalid(all(1 <= f <= sides for f in side.faces), f"a d{sides} shows 1 to {sides}")
    outcome = resolve(a.faces, b.faces)
    odds = opposed_odds(_dice(a), _dice(b), sides)
    lines = [OddsLine(side="a", successes=k, chance=str(v)) for k, v in odds.a_wins.items()]
    lines += [OddsLine(side="b", successes=k, chance=str(v)) for k, v in odds.b_wins.items()]
    if odds.stalemate:
        lines.append(OddsLine(side="stalemate", successes=0, chance=str(odds.stalemate)))
    return p.model_copy(update={
        "a": a, "b": b, "winner": None if outcome.winner is None else outcome.winner.value,
        "successes": outcome.successes, "tn": outcome.tn, "cancelled": outcome.cancelled,
        "rule": outcome.rule.text, "odds": lines, "movements": movements})


def evolve(state: WillState, recorded: Recorded) -> WillState:
    p = recorded.payload
    if not isinstance(p, RollMade):
        return state
    state = apply_movements(state, p.movements, recorded)
    winner = loser = None
    if p.winner is not None:
        side = Side(p.winner)
        winner = (p.a if side is Side.A else p.b).character
        loser = (p.b if side is Side.A else p.a).character
    roll = Roll(recorded.sequence, winner, loser, p.successes, p.winner is None, recovery=p.recovery is not None)
    state = replace(state, rolls=state.rolls.set(recorded.sequence, roll), last_roll=recorded.sequence)
    if p.recovery is not None and p.winner == "a":
        patient = state.characters.get(p.recovery.patient)
        if patient is not None and p.recovery.injury in patient.injuries:
            left = recovered(patient.injuries[p.recovery.injury], p.successes)  # W20, reading 10
            injuries = {k: v for k, v in patient.injuries.items() if k != p.recovery.injury}
            if left:
                injuries[p.recovery.injury] = left
            state = replace(state, characters={**state.characters, patient.name: replace(patient, injuries=injuries)})
    return state


def side_dice(p: RollMade) -> tuple[int, int]:
    return _dice(p.a), _dice(p.b)


VALIDATORS = {RollMade: validate_roll}
TYPES = (RollMade,)
