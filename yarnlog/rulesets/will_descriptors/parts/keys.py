"""XP from Keys, Advances spent, and the GM's rulings (W25-W30; readings 12, 13 and 14)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pydantic import Field

from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.will_descriptors.parts.common import Movement, apply_movements, character
from yarnlog.rulesets.will_descriptors.rules.keys import (
    Change,
    Framework,
    Trigger,
    award,
    check_can_afford,
    check_change,
    cost,
)
from yarnlog.rulesets.will_descriptors.state import Descriptor, WillCampaign, WillState

NAME = 80


@event("will-descriptors.xp.awarded")
class XpAwarded(Payload):
    """XP from a Key's trigger (W25, W26); a buy-off discards the Key (reading 12)."""

    gm_records: ClassVar[str] = "an experience award"

    character: str = Field(max_length=NAME)
    key: str = Field(max_length=NAME)
    trigger: Trigger
    xp: int = 0
    movements: list[Movement] = Field(default_factory=list)


@event("will-descriptors.advance.spent")
class AdvanceSpent(Payload):
    """Advances spent on one change (W28-W30): its cost derived from the rating before."""

    character: str = Field(max_length=NAME)
    change: Change
    target: str = Field(min_length=1, max_length=NAME)
    category: str = Field(default="", max_length=NAME)
    framework: Framework | None = None  # a new Key's
    rating: int | None = None  # the descriptor's dice before (derived)
    cost: int = 0
    movements: list[Movement] = Field(default_factory=list)


@event("will-descriptors.ruling.recorded")
class RulingRecorded(Payload):
    """A GM's ruling where the draft is silent (multi-side conflicts, reading 14; a 0-die pool, reading 5)."""

    gm_records: ClassVar[str] = "a ruling"

    text: str = Field(min_length=1, max_length=4000)
    about: str | None = Field(default=None, max_length=NAME)


@dataclass(frozen=True)
class AwardXp:
    character: str
    key: str
    trigger: str


@dataclass(frozen=True)
class SpendAdvance:
    character: str
    change: str
    target: str
    category: str = ""
    framework: str | None = None


@dataclass(frozen=True)
class RecordRuling:
    text: str
    about: str | None = None


def _enum(kind: Any, value: str, what: str) -> Any:
    for member in kind:
        if member.value == value.strip().lower():
            return member
    invalid(False, f"{value!r} is not {what}: {', '.join(m.value for m in kind)}")


def decide(command: Any, campaign: WillCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, AwardXp):
        return [validate_xp(XpAwarded(character=command.character, key=command.key,
                                      trigger=_enum(Trigger, command.trigger, "a Key's trigger")), campaign, referee)]
    if isinstance(command, SpendAdvance):
        framework = None if command.framework is None else _enum(Framework, command.framework, "a Key's framework")
        return [validate_advance(AdvanceSpent(character=command.character,
                                              change=_enum(Change, command.change, "a change an Advance buys"),
                                              target=command.target.strip(), category=command.category,
                                              framework=framework), campaign, referee)]
    if isinstance(command, RecordRuling):
        return [validate_ruling(RulingRecorded(text=command.text, about=command.about), campaign, referee)]
    return None


def validate_xp(p: XpAwarded, campaign: WillCampaign, referee: Referee) -> XpAwarded:
    who = character(campaign, p.character)
    framework = who.keys.get(p.key)
    invalid(framework is not None, f"{who.name} has no Key {p.key}: {', '.join(who.keys) or 'none'}")
    assert framework is not None
    xp = award(framework, p.trigger, referee, p.key)
    rule = "W25, line 21" if framework is Framework.DRAMATIC else "W26, line 23"
    return p.model_copy(update={"xp": xp, "movements": [
        Movement(character=who.name, currency="xp", amount=xp, rule=rule, what=f"{p.key}: {p.trigger.value}")]})


def validate_advance(p: AdvanceSpent, campaign: WillCampaign, referee: Referee) -> AdvanceSpent:
    who = character(campaign, p.character)
    rating = None
    if p.change in (Change.RAISE, Change.LOWER, Change.TO_BACKGROUND):
        found = who.descriptors.get(p.target)
        invalid(found is not None, f"{who.name} has no descriptor {p.target}")
        assert found is not None
        rating = found.dice
    elif p.change is Change.FROM_BACKGROUND:
        invalid(p.target in who.background, f"{p.target} is not in {who.name}'s Background")
    elif p.change is Change.NEW_KEY:
        invalid(p.framework is not None, "a new Key is dramatic or motivation: give its framework")
        invalid(p.target not in who.keys, f"{who.name} has a Key {p.target} already")
    if p.change in (Change.NEW_DESCRIPTOR, Change.FROM_BACKGROUND):
        invalid(p.target not in who.descriptors, f"{who.name} has a descriptor {p.target} already")
    check_change(p.change, rating, referee, f"{who.name}'s {p.target}")
    price = cost(p.change, rating or 1)
    check_can_afford(who.advances, price, referee, who.name)
    rule = "W30, line 28" if p.change in (Change.RAISE, Change.LOWER) and (rating or 1) > 1 else "W29, line 27"
    return p.model_copy(update={"rating": rating, "cost": price, "movements": [
        Movement(character=who.name, currency="advances", amount=-price, rule=rule,
                 what=f"{p.change.value} {p.target}")]})


def validate_ruling(p: RulingRecorded, campaign: WillCampaign, referee: Referee) -> RulingRecorded:
    if p.about is not None:
        character(campaign, p.about)
    return p


def _changed(state: WillState, p: AdvanceSpent) -> WillState:
    who = state.characters.get(p.character)
    if who is None:
        return state
    descriptors = dict(who.descriptors)
    background = who.background
    keys = dict(who.keys)
    old = descriptors.get(p.target)
    if p.change is Change.RAISE and old is not None:
        descriptors[p.target] = replace(old, dice=old.dice + 1)
    elif p.change is Change.LOWER and old is not None:
        descriptors[p.target] = replace(old, dice=old.dice - 1)
    elif p.change is Change.TO_BACKGROUND:
        descriptors.pop(p.target, None)
        background = (*background, p.target)
    elif p.change is Change.FROM_BACKGROUND:
        background = tuple(b for b in background if b != p.target)
        descriptors[p.target] = Descriptor(p.target, 1, p.category)
    elif p.change is Change.NEW_DESCRIPTOR:
        descriptors[p.target] = Descriptor(p.target, 1, p.category)
    elif p.change is Change.NEW_KEY and p.framework is not None:
        keys[p.target] = p.framework
    who = replace(who, descriptors=descriptors, background=background, keys=keys)
    return replace(state, characters={**state.characters, who.name: who})


def evolve(state: WillState, recorded: Recorded) -> WillState:
    p = recorded.payload
    if isinstance(p, XpAwarded):
        state = apply_movements(state, p.movements, recorded)
        who = state.characters.get(p.character)
        if who is not None and p.trigger is Trigger.BUYOFF:  # the Key is discarded (reading 12)
            keys = {k: v for k, v in who.keys.items() if k != p.key}
            state = replace(state, characters={**state.characters, who.name: replace(who, keys=keys)})
        return state
    if isinstance(p, AdvanceSpent):
        return _changed(apply_movements(state, p.movements, recorded), p)
    return state


VALIDATORS = {XpAwarded: validate_xp, AdvanceSpent: validate_advance, RulingRecorded: validate_ruling}
TYPES = (XpAwarded, AdvanceSpent, RulingRecorded)
