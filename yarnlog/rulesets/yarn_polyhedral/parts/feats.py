"""Feats as rolled at the table: the dice from the sheet, keep two, fortune and trouble, the odds.

A feat names its primary attribute (the base die), and may add a secondary attribute, a skill, the
level die, effort and dice of advantage, enhancement and time (P16-P19). Its faces are entered as
rolled (``--faces``) or rolled by the tool from a secure source; explosions are one more list of
faces, laid on the kept maxima face by face (P24). The exact prior odds go into the event twice:
as the pool stands, and as declared with the fortune set aside (bounded by it, see :mod:`..rules.odds`).

An attack is a feat against the target's defense that spends its margin (P37-P44); a resistance
roll is a feat on health against the cleared damage, whose severity is the injury (P45-P48).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import DiceNeeded, Referee, invalid
from yarnlog.rulesets.yarn_polyhedral.parts.characters import Character
from yarnlog.rulesets.yarn_polyhedral.rules import combat, dice, feats, injuries, odds, options, points, rule, turns
from yarnlog.rulesets.yarn_polyhedral.rules.feats import BonusType, Hindrance, KeepModifier, Roll
from yarnlog.rulesets.yarn_polyhedral.rules.points import Kind

RESISTANCE = rule("Resistance and Injury", "If you're injured, make a resistance roll with the cleared damage as "
                                           "the challenge. Resistance rolls use health, and either strength or will "
                                           "(line 323)")


BASES = rule("Bases", "There are 15 possible combinations of two attributes, if you have the standard six. "
                      "(line 589)")
MARKSMAN = rule("Marksman", "This increases the increment by one as long as you take one step to aim. (line 462)")


class _Facts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class AttackFacts(_Facts):
    """An attack's part of a feat: target, weapon, location declared, how the margin was spent."""

    target: str
    weapon: str
    location: str | None = None
    existing_injury: bool = False
    margin_damage: int = 0
    knock_back: int = 0
    damage: int = 0
    protection: int = 0
    cleared: int = 0
    zones: int = 0  # the target's distance in zones (P38; melee reach, lines 291-295)


class HindranceFacts(_Facts):
    """A drawback of the character's that applies to the feat, and what it adds to the penalties (P62)."""

    drawback: str
    hindrance: Hindrance
    penalty: int


class ArmFacts(_Facts):
    """An injured arm the feat uses: that injury's severity is its penalty (P48, line 644)."""

    injury: str
    penalty: int


class ResistanceFacts(_Facts):
    """A resistance roll's part: the cleared damage (the challenge), the injury it makes (P45-P48)."""

    severity: int
    location: str | None = None
    injury: str  # the injury's id: a new one, or the existing one it adds to


@event("yarn-polyhedral.feat.rolled")
class FeatRolled(Payload):
    """A feat as rolled, with everything that decided it and its exact prior odds."""

    character: str
    feat: str = Field(default="", max_length=200)
    #: The phase's feat, an initiative roll (line 225) or an object roll such as resistance (line 235).
    purpose: str = Field(default="feat", pattern="^(feat|initiative|object)$")
    primary: str
    secondary: str | None = None
    skill: str | None = None
    labels: list[str]
    sizes: list[int]
    faces: list[int]
    kept: list[int]
    extra_faces: list[int] = Field(default_factory=list)
    modifiers: list[KeepModifier] = Field(default_factory=list)
    fortune_keep: int = Field(default=0, ge=0)
    trouble: int = Field(default=0, ge=0)
    effort: int = Field(default=0, ge=0, le=1)
    challenge: int | None = None
    penalties: int = 0
    total: int
    margin: int | None = None
    success: bool | None = None
    odds: str | None = None  # P(success) as declared, fortune set aside for explosions included
    odds_plain: str | None = None  # P(success) of the pool with two (or the modifiers') kept, no fortune
    explode_budget: int = Field(default=0, ge=0)
    source: str = Field(default="entered", pattern="^(entered|rolled)$")
    attack: AttackFacts | None = None
    resistance: ResistanceFacts | None = None
    #: A range of results: the minimum, and on a success the minimum plus 10 % a point of margin (P60).
    range_minimum: int | None = Field(default=None, ge=0)
    range_result: str | None = None
    #: Phobias and impaired senses that apply: their penalties are in ``penalties`` (P62).
    hindrances: list[HindranceFacts] = Field(default_factory=list)
    #: Injured arms the feat uses: each one's severity is in ``penalties`` (P48, line 644).
    arms: list[ArmFacts] = Field(default_factory=list)

    def roll(self) -> Roll:
        chains = feats.explosion_chains(self.sizes, self.faces, self.kept, self.extra_faces)
        return Roll(tuple(self.sizes), tuple(self.faces), tuple(self.kept), chains, self.fortune_keep,
                    self.trouble, self.challenge, self.penalties)


@dataclass(frozen=True)
class AttackSpec:
    target: str
    weapon: str
    location: str | None = None
    existing_injury: bool = False
    margin_damage: int = 0
    knock_back: int = 0
    protection: int = 0
    zones: int = 0
    aim: bool = False  # a marksman's step to aim: the increment one longer (P39)
    factors: int = 0  # cover, lighting, distance added to the target's defense (P37)


@dataclass(frozen=True)
class RollFeat:
    """A feat to roll: the sheet's qualities named, dice and modifiers, faces if entered."""

    character: str
    primary: str
    secondary: str | None = None
    skill: str | None = None
    level: bool = False
    effort: bool = False
    bonus: tuple[tuple[str, int], ...] = ()  # advantage, enhancement, time: a die each
    modifiers: tuple[str, ...] = ()
    fortune_keep: int = 0
    explode: int = 0
    trouble: int = 0
    challenge: int | None = None
    penalties: int = 0
    faces: tuple[int, ...] | None = None
    extra_faces: tuple[int, ...] = ()
    kept: tuple[int, ...] | None = None
    feat: str = ""
    purpose: str = "feat"
    attack: AttackSpec | None = None
    minimum: int | None = None  # a range of results' minimum (P60, line 732)
    resist: bool = False  # a resistance roll against the last attack's cleared damage on the character
    injury: str | None = None  # the existing injury a located hit adds to
    rolled: Mapping[str, tuple[Sequence[int], Sequence[int]]] = field(default_factory=dict)
    hindrances: tuple[tuple[str, str], ...] = ()  # (drawback, phobia|sight-or-hearing|other-sense), P62
    arms: tuple[str, ...] = ()  # the injuries of the arms the feat uses (P48, line 644)


@dataclass(frozen=True)
class FeatLine:
    """A feat in the journal's order, for ``rolls``."""

    sequence: int
    scene: int | None
    payload: FeatRolled


@dataclass(frozen=True)
class Feats:
    rolled: tuple[FeatLine, ...] = ()
    #: The cleared damage waiting for each character's resistance roll, with the hit's location.
    pending: Mapping[str, tuple[int, str | None, bool]] = field(default_factory=dict)


def _rank(who: Character, name: str | None) -> int | None:
    return None if name is None else who.rank(name)


def pool_of(who: Character, p: FeatRolled | RollFeat, bonus: Sequence[tuple[str, int]],
            referee: Referee) -> feats.Pool:
    """The feat's dice from the sheet: the primary's base die, the bonus dice by type (P16-P19)."""
    primary = who.quality(p.primary).rank
    secondary = who.quality(p.secondary).rank if p.secondary else None
    referee.require(p.secondary is None or p.secondary.lower() != p.primary.lower(), BASES,
                    f"{p.primary} cannot be both the primary and the secondary")
    listed: list[tuple[BonusType, int | None]] = []
    if isinstance(p, RollFeat) and p.level or isinstance(p, FeatRolled) and "level" in p.labels:
        listed.append((BonusType.LEVEL, dice.level_die(who.level)))
    if secondary is not None:
        listed.append((BonusType.SECONDARY, dice.die_for(secondary)))
    skill = _rank(who, p.skill)
    if skill is not None:
        listed.append((BonusType.SKILL, dice.skill_die(skill)))
    if p.effort:
        listed.append((BonusType.EFFORT, dice.effort_die(primary, secondary if secondary is not None else primary)))
    for kind, size in bonus:
        try:
            listed.append((BonusType(kind), size))
        except ValueError:
            invalid(False, f"{kind!r} is not a bonus die: advantage, enhancement or time")
        if kind == "time":
            # P18, line 181; reading 14: a doubling per rank of the feat's skill, d2 per doubling.
            referee.require(skill is not None and dice.time_die(size // 2, skill) == size, dice.TIME,
                            f"time gives at most d{2 * (skill or 0)} here: a doubling per skill rank")
    return feats.pool(dice.die_for(primary), listed, referee)


def modifiers_of(who: Character, skill: str | None, given: Sequence[str]) -> list[KeepModifier]:
    """The keep modifiers named, and the unfamiliarity of a skill not had even at rank 0 (P15, P21)."""
    found: list[KeepModifier] = []
    for name in given:
        try:
            found.append(KeepModifier(name.strip().lower()))
        except ValueError:
            invalid(False, f"{name!r} is not a keep modifier: {', '.join(m.value for m in KeepModifier)}")
    if skill is not None and who.rank(skill) is None and KeepModifier.UNFAMILIAR not in found:
        found.append(KeepModifier.UNFAMILIAR)
    return found


def _fraction(value: Fraction | None) -> str | None:
    return None if value is None else str(value)  # "1/6", or "0" and "1" for the sure things


def prior_odds(sizes: Sequence[int], modifiers: Sequence[KeepModifier], target: int | None, fortune_keep: int,
               explode: int, trouble: int) -> tuple[str | None, str | None]:
    """(as declared, the plain pool): exact P(success), explosions bounded by ``explode``."""
    if target is None:
        return None, None
    plain = odds.feat_odds(sizes, feats.keep_count(len(sizes), modifiers), target).success
    declared = odds.feat_odds(sizes, feats.keep_count(len(sizes), modifiers, fortune_keep), target,
                              explode=explode, trouble=trouble > 0).success
    return _fraction(declared), _fraction(plain)


def throw(sizes: Sequence[int], count: int, trouble: int, explode: int,
          rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tool's roll: every die, then the explosions of the kept maxima while the fortune set
    aside lasts, largest die first (P24)."""
    faces = tuple(rng.randint(1, s) for s in sizes)
    kept = feats.default_keep(faces, sizes, count, min(trouble, faces.count(1)))
    extra: list[int] = []
    budget = explode
    for die in sorted((i for i in kept if faces[i] == sizes[i]), key=lambda i: (-sizes[i], i)):
        while budget:
            extra.append(rng.randint(1, sizes[die]))
            budget -= 1
            if extra[-1] != sizes[die]:
                break
    return faces, tuple(extra)


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    if not isinstance(command, RollFeat):
        return None
    rules = campaign.rules
    who: Character = rules.characters.get(command.character)
    made = pool_of(who, command, command.bonus, referee)
    sizes, labels = made.dice, made.labels
    invalid(bool(sizes), "the feat has no dice")
    modifiers = modifiers_of(who, command.skill, command.modifiers)
    hindrances = [_hindrance(who, name, kind) for name, kind in command.hindrances]
    if any(h.hindrance is Hindrance.PHOBIA for h in hindrances) and KeepModifier.PHOBIA not in modifiers:
        modifiers.append(KeepModifier.PHOBIA)  # a phobia that applies inhibits (line 561)
    weapon = None
    if command.attack is not None:
        target = rules.characters.by_name.get(command.attack.target.lower())
        if target is not None and rules.bodies.stance.get(target.name) == "evade":
            modifiers.append(KeepModifier.EVADING_TARGET)
        weapon = combat.WEAPONS.get(command.attack.weapon)
        invalid(weapon is not None, f"no weapon {command.attack.weapon!r}: {', '.join(combat.WEAPONS)}")
        assert weapon is not None
        if not weapon.melee and command.attack.zones == 0 and KeepModifier.POINT_BLANK not in modifiers:
            modifiers.append(KeepModifier.POINT_BLANK)  # a ranged weapon in the same zone (P38, line 301)
    count = feats.keep_count(len(sizes), modifiers, command.fortune_keep)
    source = "entered"
    if command.faces is not None:
        faces, extra = tuple(command.faces), tuple(command.extra_faces)
    else:
        thrown = command.rolled.get("feat")
        if thrown is None:
            raise DiceNeeded("feat", len(sizes), max(sizes),
                             lambda rng: throw(sizes, count, command.trouble, command.explode, rng))
        faces, extra, source = tuple(thrown[0]), tuple(thrown[1]), "rolled"
    invalid(len(faces) == len(sizes), f"{len(faces)} faces for {len(sizes)} dice "
                                       f"({', '.join(f'd{s}' for s in sizes)})")
    trouble = min(command.trouble, faces.count(1)) if source == "rolled" else command.trouble
    kept = command.kept if command.kept is not None else feats.default_keep(faces, sizes, count, trouble)
    challenge, penalties = command.challenge, command.penalties
    attack = None
    if command.attack is not None and challenge is None:
        challenge = _defense(rules, command.attack, referee)
    if command.attack is not None:
        attack = AttackFacts(target=rules.characters.get(command.attack.target).name, weapon=command.attack.weapon,
                             location=command.attack.location, existing_injury=command.attack.existing_injury,
                             margin_damage=command.attack.margin_damage, knock_back=command.attack.knock_back,
                             protection=command.attack.protection, zones=command.attack.zones)
        assert weapon is not None
        if command.attack.aim:
            referee.require(who.rank("marksman") is not None, MARKSMAN, f"{who.name} is no marksman")
        penalties += 0 if weapon.melee else combat.distance_penalty(command.attack.zones, weapon.increment,
                                                                    command.attack.aim)
    resistance = None
    if command.resist:
        pending = rules.feats.pending.get(who.name)
        invalid(pending is not None, f"{who.name} has no cleared damage to resist")
        assert pending is not None
        challenge = pending[0]
        resistance = ResistanceFacts(severity=1, location=pending[1], injury=command.injury or "")
    arms = [_arm(rules, who, injury) for injury in command.arms]
    penalties += _severity_penalty(rules, who) + sum(h.penalty for h in hindrances) + sum(a.penalty for a in arms)
    sizes_l = list(sizes)
    purpose = "object" if command.resist else command.purpose
    draft = FeatRolled(character=who.name, feat=command.feat, purpose=purpose,
                       primary=who.quality(command.primary).name,
                       secondary=command.secondary and who.quality(command.secondary).name,
                       skill=command.skill, labels=list(labels), sizes=sizes_l, faces=list(faces), kept=list(kept),
                       extra_faces=list(extra), modifiers=modifiers, fortune_keep=command.fortune_keep,
                       trouble=trouble, effort=int(command.effort), challenge=challenge, penalties=penalties,
                       total=0, explode_budget=command.explode,
                       source=source, attack=attack, resistance=resistance, range_minimum=command.minimum,
                       hindrances=hindrances, arms=arms)
    return [validate(draft, campaign, referee)]


def _hindrance(who: Character, name: str, kind: str) -> HindranceFacts:
    """A drawback of ``who``'s that applies, with its penalty (P62, lines 549 and 561)."""
    try:
        hindrance = Hindrance(kind.strip().lower())
    except ValueError:
        invalid(False, f"{kind!r} is not one of: {', '.join(h.value for h in Hindrance)}")
        raise
    drawback = who.quality(name)
    invalid(drawback.kind is Kind.DRAWBACK, f"{drawback.name} is not one of {who.name}'s drawbacks")
    return HindranceFacts(drawback=drawback.name, hindrance=hindrance,
                          penalty=feats.hindrance_penalty(hindrance, drawback.rank))


def _arm(rules: Any, who: Character, injury: str) -> ArmFacts:
    """An arm injury of ``who``'s the feat uses, its severity the penalty (P48, line 644), on top of
    the total severity's (line 333)."""
    wound = rules.bodies.injuries.get(who.name, {}).get(injury)
    invalid(wound is not None, f"{who.name} has no injury {injury}")
    assert wound is not None
    invalid(wound.location == "arm", f"{who.name}'s injury {injury} is not an arm's")
    return ArmFacts(injury=injury, penalty=injuries.arm_penalty(wound))


def _defense(rules: Any, attack: AttackSpec, referee: Referee) -> int:
    """The target's defense from its sheet: dexterity, the factors, and the rank of the skill it
    actively defends with (P37, line 307)."""
    target: Character = rules.characters.get(attack.target)
    skill = rules.bodies.defending.get(target.name)
    return combat.defense(target.quality("dexterity").rank, attack.factors,
                          active_skill=None if skill is None else target.rank(skill) or 0)


def check_can_act(campaign: Any, who: Character, referee: Referee) -> None:
    """A dead, unconscious or incapacitated character takes no turn and rolls no feat of its own;
    its object rolls (resistance) still come (P48, P49)."""
    health = who.rank("health") or 0
    fatal = points.agreed_fatal_severity(who.level, health, agreed=campaign.table.settings.get("fatal_severity"),
                                           death=bool(campaign.table.options.get("death")))
    out = injuries.out_of_action(campaign.rules.bodies.injuries.get(who.name, {}), health, fatal)
    if out is not None:
        referee.require(False, out[1], f"{who.name} is {out[0]}")


def _severity_penalty(rules: Any, who: Character) -> int:
    health = who.rank("health")
    wounds = rules.bodies.injuries.get(who.name, {})
    return combat.severity_penalty(injuries.total_severity(wounds), health) if health else 0


def _settled(p: FeatRolled, rules: Any, who: Character) -> FeatRolled:
    """The feat with what its faces make: total, margin, exact prior odds, a range's result, an
    attack's damage, a resistance's injury."""
    roll = p.roll()
    declared, plain = prior_odds(p.sizes, p.modifiers, roll.target, p.fortune_keep, p.explode_budget, p.trouble)
    update: dict[str, Any] = {"total": roll.total, "margin": roll.margin, "success": roll.success,
                              "odds": declared, "odds_plain": plain, "range_result": None}
    if p.range_minimum is not None and roll.success and roll.margin is not None:
        update["range_result"] = str(options.ranged_result(p.range_minimum, roll.margin))
    if p.attack is not None:
        rules.characters.get(p.attack.target)  # the injury it may make is the target's to resist (P45)
        weapon = combat.WEAPONS[p.attack.weapon]
        strength = who.rank("strength") or 0
        hit = bool(roll.success)
        dealt = combat.damage(weapon, strength, p.attack.margin_damage) if hit else 0
        update["attack"] = p.attack.model_copy(update={
            "damage": dealt, "cleared": combat.cleared(dealt, p.attack.protection, weapon.armor_doubled)})
    if p.resistance is not None and p.challenge is not None:
        wounds = rules.bodies.injuries.get(who.name, {})
        injury = p.resistance.injury or str(len(wounds) + 1)
        while not p.resistance.injury and injury in wounds:
            injury = str(int(injury) + 1)
        update["resistance"] = p.resistance.model_copy(update={
            "severity": combat.severity(roll.total, p.challenge + p.penalties), "injury": injury})
    return p.model_copy(update=update)


def validate(p: FeatRolled, campaign: Any, referee: Referee) -> FeatRolled:
    """Every die from the sheet, the faces, the kept dice, fortune and trouble held, the total, the
    margin, the attack's margin spent and the odds: all worked out again from the recorded faces."""
    rules = campaign.rules
    who: Character = rules.characters.get(p.character)
    bonus = [(label, size) for label, size in zip(p.labels, p.sizes, strict=True)
             if label in ("advantage", "enhancement", "time")]
    made = pool_of(who, p, bonus, referee)
    invalid(list(made.dice) == p.sizes, f"the sheet gives {made.dice}, not {tuple(p.sizes)}")
    roll = feats.check_roll(p.roll(), p.modifiers, referee, fortune_held=rules.fortune.fortune.get(who.name, 0),
                            trouble_held=rules.fortune.trouble)
    for applied in p.hindrances:  # each the character's drawback, its penalty from its rank (P62)
        invalid(_hindrance(who, applied.drawback, applied.hindrance.value) == applied,
                f"{applied.drawback} adds {applied.penalty}: not what its rank gives")
        if applied.hindrance is Hindrance.PHOBIA:
            referee.require(KeepModifier.PHOBIA in p.modifiers, feats.HINDRANCE_RULES[Hindrance.PHOBIA],
                            f"{applied.drawback} applies: keep one fewer die")
    for arm in p.arms:  # each an arm injury of the character's, its severity the penalty (P48)
        invalid(_arm(rules, who, arm.injury) == arm, f"arm injury {arm.injury} adds {arm.penalty}: not its severity")
    if p.purpose != "object":
        check_can_act(campaign, who, referee)
    rounds = rules.rounds
    if p.purpose == "feat" and p.character in rounds.group:
        # One feat a phase (P33); initiative and object rolls aside.
        turns.check_feat(rounds.feats_of(p.character), referee)
    if p.resistance is not None:
        referee.require(p.primary.lower() == "health" and (p.secondary or "").lower() in ("strength", "will"),
                        RESISTANCE, "a resistance roll is on health, with strength or will")
    if p.effort:
        injuries.spend_effort(rules.bodies.effort.get(who.name, 0), 1, referee)
    if p.attack is not None:
        rules.characters.get(p.attack.target)  # the injury it may make is the target's to resist (P45)
        weapon = combat.WEAPONS[p.attack.weapon]
        combat.check_reach(weapon, p.attack.zones, referee)
        use = combat.MarginUse(p.attack.location, p.attack.existing_injury, p.attack.margin_damage,
                               p.attack.knock_back)
        combat.spend_margin(roll.margin if roll.margin is not None else -1, use, weapon,
                            who.rank("strength") or 0, referee)
    # The total, margin, odds, damage and injury are derived: worked out again from the faces
    # (``verify`` names any recorded otherwise; a correction of the faces gets them anew).
    return _settled(p, rules, who)


def evolve(state: Feats, recorded: Recorded, _before: Any = None) -> Feats:
    p = recorded.payload
    if not isinstance(p, FeatRolled):
        return state
    pending = dict(state.pending)
    if p.attack is not None and p.success and p.attack.cleared > 0:
        pending[p.attack.target] = (p.attack.cleared, p.attack.location, p.attack.existing_injury)
    if p.resistance is not None:
        pending.pop(p.character, None)
    return replace(state, rolled=(*state.rolled, FeatLine(recorded.sequence, recorded.scene, p)), pending=pending)


PART = Part(name="feats", initial=Feats, evolve=evolve, decide=decide, validators={FeatRolled: validate},
            folds=folds(FeatRolled))
