"""Bodies and scenes: injuries and their healing, effort, defensive stances, tension, rulings.

A resistance roll's severity becomes an injury, at the hit's location if one was bought (P46,
P48); healing takes one severity a day off an injury the player picks, never the one healed last
(P50); effort is the health rank, spent one a die and regained by rest (P19; reading 7); a stance
of active defense or evasion lasts until the character's next turn (P35); tension moves one tier
at a time (P65); where the book leaves a call to the group or the narrator (a complication, a
healing rate, a lowered challenge, a partial rest), the ruling is an event with its text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.yarn_polyhedral.parts.characters import CharacterCreated
from yarnlog.rulesets.yarn_polyhedral.parts.feats import FeatRolled
from yarnlog.rulesets.yarn_polyhedral.parts.fortune import FortuneLine
from yarnlog.rulesets.yarn_polyhedral.parts.rounds import TurnJoined, TurnTaken
from yarnlog.rulesets.yarn_polyhedral.rules import injuries, turns
from yarnlog.rulesets.yarn_polyhedral.rules.injuries import Injury
from yarnlog.rulesets.yarn_polyhedral.rules.turns import Tension


@event("yarn-polyhedral.injury.healed")
class InjuryHealed(Payload):
    """One severity off one injury after a day of relative rest (P50, line 351)."""

    character: str
    injury: str


@event("yarn-polyhedral.rested")
class Rested(Payload):
    """Effort regained: all of it after a full sleep, what the GM ruled after a shorter rest (P19)."""

    character: str
    full: bool
    regained: int = Field(default=0, ge=0)


@event("yarn-polyhedral.stance.taken")
class StanceTaken(Payload):
    """Active defense or evasion, until the character's next turn (P35; P37, line 307)."""

    character: str
    stance: str | None = Field(default=None, pattern="^(active-defense|evade)$")
    skill: str | None = None  # the skill whose rank an active defense adds (P37, line 307)


@event("yarn-polyhedral.tension.changed")
class TensionChanged(Payload):
    """The scene's tier of tension (P65, lines 760-776)."""

    tier: Tension


@event("yarn-polyhedral.ruling")
class Ruling(Payload):
    """A call the book leaves to the group or the narrator, with its text."""

    gm_records = "a ruling"

    topic: str = Field(pattern="^(complication|healing-rate|challenge|rest|death|other)$")
    text: str = Field(min_length=1, max_length=400)
    character: str | None = None


@dataclass(frozen=True)
class Heal:
    character: str
    injury: str


@dataclass(frozen=True)
class Rest:
    character: str
    full: bool
    regained: int = 0


@dataclass(frozen=True)
class TakeStance:
    character: str
    stance: str | None
    skill: str | None = None


@dataclass(frozen=True)
class ChangeTension:
    tier: str


@dataclass(frozen=True)
class RecordRuling:
    topic: str
    text: str
    character: str | None = None


@dataclass(frozen=True)
class Bodies:
    injuries: Mapping[str, Mapping[str, Injury]] = field(default_factory=dict)
    last_healed: Mapping[str, str] = field(default_factory=dict)
    effort: Mapping[str, int] = field(default_factory=dict)
    stance: Mapping[str, str] = field(default_factory=dict)
    defending: Mapping[str, str] = field(default_factory=dict)  # the skill of each active defense
    tension: Tension = Tension.SAFE
    rulings: tuple[tuple[int, Ruling], ...] = ()
    ledger: tuple[FortuneLine, ...] = ()  # effort spent and regained (P19)


EFFORT_RULE = "P19 (line 183)"
REST_RULE = "P19 (line 185)"


def _effort(bodies: Bodies, recorded: Recorded, who: str, now: int, what: str, cited: str) -> Bodies:
    """The effort ``who`` holds now, and the ledger's line for the change."""
    change = now - bodies.effort.get(who, 0)
    line = FortuneLine(recorded.sequence, recorded.scene, who, "effort", change, now, what, cited)
    return replace(bodies, effort={**bodies.effort, who: now}, ledger=(*bodies.ledger, line))


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    chars = campaign.rules.characters
    payload: Payload
    if isinstance(command, Heal):
        payload = InjuryHealed(character=chars.get(command.character).name, injury=command.injury)
        return [validate_heal(payload, campaign, referee)]
    if isinstance(command, Rest):
        payload = Rested(character=chars.get(command.character).name, full=command.full, regained=command.regained)
        return [payload]
    if isinstance(command, TakeStance):
        payload = StanceTaken(character=chars.get(command.character).name, stance=command.stance,
                              skill=command.skill)
        return [validate_stance(payload, campaign, referee)]
    if isinstance(command, ChangeTension):
        try:
            tier = Tension(command.tier.strip().lower())
        except ValueError:
            invalid(False, f"{command.tier!r} is not a tier: safe, risk or danger")
            raise
        return [validate_tension(TensionChanged(tier=tier), campaign, referee)]
    if isinstance(command, RecordRuling):
        if command.character is not None:
            chars.get(command.character)
        return [Ruling(topic=command.topic, text=command.text, character=command.character)]
    return None


def validate_heal(p: InjuryHealed, campaign: Any, referee: Referee) -> InjuryHealed:
    bodies: Bodies = campaign.rules.bodies
    injuries.check_heal(bodies.injuries.get(p.character, {}), p.injury, bodies.last_healed.get(p.character), referee)
    return p


def validate_stance(p: StanceTaken, campaign: Any, referee: Referee) -> StanceTaken:
    """An active defense names a skill the character has; an evasion none (P37, line 307)."""
    who = campaign.rules.characters.get(p.character)
    if p.skill is not None:
        invalid(p.stance == "active-defense", "only an active defense adds a skill's rank")
        who.quality(p.skill)
    return p


def validate_tension(p: TensionChanged, campaign: Any, referee: Referee) -> TensionChanged:
    turns.check_tension(campaign.rules.bodies.tension, p.tier, referee)
    return p


def _accept(p: Any, campaign: Any, referee: Referee) -> Any:
    character = getattr(p, "character", None)
    if character is not None:
        campaign.rules.characters.get(character)
    return p


def evolve(bodies: Bodies, recorded: Recorded, before: Any = None) -> Bodies:
    p = recorded.payload
    if isinstance(p, CharacterCreated):
        health = next((q.rank for q in p.qualities if q.name.lower() == "health"), 0)
        return _effort(bodies, recorded, p.name, health, "effort: the health rank", EFFORT_RULE)
    if isinstance(p, FeatRolled):
        if p.effort:
            bodies = _effort(bodies, recorded, p.character, bodies.effort.get(p.character, 0) - 1,
                             f"a die for {p.feat or p.primary}", EFFORT_RULE)
        if p.resistance is not None:
            wounds = dict(bodies.injuries.get(p.character, {}))
            had = wounds.get(p.resistance.injury)
            wounds[p.resistance.injury] = Injury((had.severity if had else 0) + p.resistance.severity,
                                                 had.location if had else p.resistance.location)
            bodies = replace(bodies, injuries={**bodies.injuries, p.character: wounds})
        return bodies
    if isinstance(p, (TurnTaken, TurnJoined)):  # a stance lasts till the character's next turn (P35, line 674)
        return replace(bodies, stance={k: v for k, v in bodies.stance.items() if k != p.character},
                       defending={k: v for k, v in bodies.defending.items() if k != p.character})
    if isinstance(p, InjuryHealed):
        wounds = dict(bodies.injuries.get(p.character, {}))
        wound = wounds[p.injury]
        if wound.severity <= 1:
            del wounds[p.injury]
        else:
            wounds[p.injury] = replace(wound, severity=wound.severity - 1)
        return replace(bodies, injuries={**bodies.injuries, p.character: wounds},
                       last_healed={**bodies.last_healed, p.character: p.injury})
    if isinstance(p, Rested):
        who = before.characters.by_name[p.character.lower()]
        health = who.rank("health") or 0
        effort = injuries.rest(bodies.effort.get(p.character, 0), health, p.full, p.regained)
        return _effort(bodies, recorded, p.character, effort, "a full sleep" if p.full else "a shorter rest (GM)",
                       REST_RULE)
    if isinstance(p, StanceTaken):
        stance = {k: v for k, v in bodies.stance.items() if k != p.character}
        defending = {k: v for k, v in bodies.defending.items() if k != p.character}
        if p.stance is not None:
            stance[p.character] = p.stance
        if p.skill is not None:
            defending[p.character] = p.skill
        return replace(bodies, stance=stance, defending=defending)
    if isinstance(p, TensionChanged):
        return replace(bodies, tension=p.tier)
    if isinstance(p, Ruling):
        return replace(bodies, rulings=(*bodies.rulings, (recorded.sequence, p)))
    return bodies


PART = Part(name="bodies", initial=Bodies, evolve=evolve, decide=decide,
            validators={InjuryHealed: validate_heal, Rested: _accept, StanceTaken: validate_stance,
                        TensionChanged: validate_tension, Ruling: _accept},
            folds=folds(CharacterCreated, FeatRolled, InjuryHealed, Rested, StanceTaken, TensionChanged, Ruling,
                        TurnTaken, TurnJoined),
            reads=frozenset({"characters"}))
