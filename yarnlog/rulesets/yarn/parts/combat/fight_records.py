"""What a fight records: its dice entries, declarations, events, and the state they build.

The stored side of Yarn 0.1 "Combat": every roll is kept as :class:`~.dice_facts.DiceFacts`, every
die of it accounted for by a :class:`DiceEntry` citing its rule; an attack is kept as its
:class:`AttackDeclaration`. :func:`evolve` folds the events into :class:`Fights`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pyrsistent import PMap, pmap

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.core.referee import DiceNeeded, InvalidCommand, Rule, invalid, present
from yarnlog.rulesets.yarn.parts.combat import wounds as wounds_module
from yarnlog.rulesets.yarn.parts.combat.wounds import HoldsWounds, SeriousWoundFacts, Wounds
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import DiceFacts
from yarnlog.rulesets.yarn.rules.arsenal import weapon_profile
from yarnlog.rulesets.yarn.rules.combat import Advantage, RangeClass, Side
from yarnlog.rulesets.yarn.rules.damage import GUNFIRE, Ammunition, Firearm, FireMode, Weapon
from yarnlog.rulesets.yarn.rules.dice import Outcome, RollSpec

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState

BOOK = "Yarn 0.1"


class HoldsFights(HoldsWounds, Protocol):
    """The slices of Yarn's state that fights read (the state composes every part's slice)."""

    @property
    def combat(self) -> Fights: ...


#: A campaign as fights see it.
YarnCampaign: TypeAlias = "CampaignState[HoldsFights]"


ROUNDS = Rule(BOOK, "Combat › Rounds", "Each round is long enough for each character to do one thing.")


RANGED_DEFENSE = Rule(
    BOOK,
    "Combat › Ranged Attacks",
    "With missile weapons, the target receives a defense roll based on such factors as range, movement, "
    "cover, and so on. The GM assigns the defense roll, based on the factors in the “Ranged Attacks” table.",
)


HALF_DICE = Rule(
    BOOK,
    "Combat › Ranged Attacks",
    "If the GM wishes, she can use “half-dice” when characters do not deserve full dice under the rules above.",
)


TACTICS = {
    FireMode.THREE_ROUND_BURST: Rule(
        BOOK, "Combat › Three Round Burst",
        "A burst adds a bonus die to the roll to hit regardless of range. At point-blank or close range, it also "
        "adds +1 to the weapon's damage multiplier, but not at medium, long, or very long range."),
    FireMode.FULL_AUTO_ONE_TARGET: Rule(
        BOOK, "Combat › Full Auto, One Target",
        "At point blank or close range, full auto trained on a single target provides a bonus die to hit and +2 to "
        "the damage multiplier. At medium range, take a bonus die and add +1 to the damage multiplier. At long or "
        "very long range take a bonus die, but there is no addition to the multiplier."),
    FireMode.FULL_AUTO_SPREAD: Rule(
        BOOK, "Combat › Full Auto, Spread",
        "At point blank range you receive a bonus die on each attack and +1 to the damage multiplier. At close range "
        "you receive a bonus die on the attack but no modifier on the damage factor. At medium range, you receive no "
        "bonus ... At long range, you receive a penalty die against every target. At very long range, you receive "
        "two penalty dice against every target."),
}


DETAILED: Final = "detailed"
GESTALT: Final = "gestalt"


ATTACK: Final = "attack"
DEFENSE: Final = "defense"


#: The name the GM rolls initiative under "for all the GMCs with one roll".
GMCS = str(Side.GMCS)


# -- stored facts -----------------------------------------------------------------------------


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class DiceEntry(_Data):
    """Dice on one roll and the rule that put them there: the trait's dice, a bonus or penalty die."""

    roll: str
    dice: int = 0
    bonus: int = 0
    penalty: int = 0
    chapter: str
    rule: str
    why: str = ""

    @classmethod
    def of(cls, roll: str, rule: Rule, why: str = "", *, dice: int = 0, bonus: int = 0, penalty: int = 0) -> DiceEntry:
        return cls(roll=roll, dice=dice, bonus=bonus, penalty=penalty, chapter=rule.chapter, rule=rule.text, why=why)


def spec_of(entries: Sequence[DiceEntry], roll: str) -> RollSpec:
    mine = [e for e in entries if e.roll == roll]
    return RollSpec(sum(e.dice for e in mine), sum(e.bonus for e in mine), sum(e.penalty for e in mine))


def explain(entries: Sequence[DiceEntry], roll: str) -> str:
    """Where a roll's dice come from, for people: "4 dice (Iris: Tough), 1 penalty (Iris is messed up)"."""
    parts = []
    for e in entries:
        if e.roll == roll:
            counts = [f"{n} {what}" for n, what in ((e.dice, "dice"), (e.bonus, "bonus"), (e.penalty, "penalty")) if n]
            parts.append(f"{', '.join(counts)} ({e.why})")
    return "; ".join(parts)


def take_roll(entries: Sequence[DiceEntry], roll: str, take) -> DiceFacts:
    """``take(spec)`` for the roll the entries make, saying where its dice come from if the faces do not fit."""
    try:
        return take(spec_of(entries, roll))
    except DiceNeeded:
        raise  # not a misfit: the shell rolls and decides again
    except InvalidCommand as exc:
        raise InvalidCommand(f"{roll} roll: {exc} [{explain(entries, roll)}]") from None


class AdvantageClaim(_Data):
    """An edge the GM grants ("Attacking from Advantage"). Ganging up names the attackers on the
    defender this round and those the defender chose; a psychological advantage its round."""

    advantage: Advantage
    roll: Literal["attack", "defense"] = ATTACK
    why: str = ""
    extra_dice: int = 0
    attackers: list[str] = Field(default_factory=list)
    chosen_by_defender: list[str] = Field(default_factory=list)
    defender_fighting_dice: int | None = None
    gained_round: int | None = None
    whole_combat: bool = False


class GMDie(_Data):
    """A bonus or penalty die the GM rules for some other edge or hindrance, with why."""

    roll: Literal["attack", "defense"]
    kind: Literal["bonus", "penalty"]
    why: str = Field(min_length=1)


class Ranged(_Data):
    """The Ranged Attacks table's factors; ``gm_distance_dice`` when the GM sets the distance dice
    herself (beyond the table, or a weapon with ranges of its own)."""

    distance_m: float | None = None
    gm_distance_dice: int | None = None
    cover: int = 0
    obscured: int = 0
    target_moving: bool = False
    attacker_moving: bool = False
    dodging: bool = False
    agility_dice: int | None = None
    clumsy: bool = False
    half_dice: int = 0


class Spread(_Data):
    """A full-auto spread: everyone in the line of fire from ``first`` to ``last``."""

    line_of_fire: list[str]
    first: str
    last: str
    bullets_fired: int


class AttackDeclaration(_Data):
    """Everything said at the table before the dice of one attack are rolled.

    Traits: a PC's dice come from the sheet; anyone else's are the GM's ``*_dice`` (two without a
    trait), and ``*_combat_trait`` is her judgement that a GMC's trait is combat-oriented.
    ``defender_armor`` is what the defender wears (None: as last declared).
    """

    attacker: str
    defender: str
    weapon: Weapon
    firearm: Firearm | None = None
    range_class: RangeClass | None = None
    ammunition: Ammunition = Ammunition.STANDARD
    attack_trait: str | None = None
    attack_dice: int | None = None
    attack_combat_trait: bool = False
    defense_trait: str | None = None
    defense_dice: int | None = None
    defense_combat_trait: bool = False
    ranged: Ranged | None = None
    fire_mode: FireMode | None = None
    rounds_in_clip: int | None = None
    spread: Spread | None = None
    advantages: list[AdvantageClaim] = Field(default_factory=list)
    gm_dice: list[GMDie] = Field(default_factory=list)
    predictable: bool = False
    desperate_defense: bool = False
    defender_armor: list[str] | None = None
    special_effect: str | None = None
    sufficient_margin: int | None = None
    alternate_damage: bool = False
    serious_wound: SeriousWoundFacts | None = None


class DamageStep(_Data):
    """One step of the damage arithmetic, its result, and the chapter it follows."""

    step: str
    value: int
    chapter: str


# -- events -----------------------------------------------------------------------------------


@event("yarn.combat.combatant_registered")
class CombatantRegistered(Payload):
    """The GM gives hit points to a character without a sheet (a GMC, a mook, a supporting character)."""

    name: str = Field(min_length=1, max_length=80)
    hit_points: int = Field(ge=1)
    description: str = ""
    supporting: bool = False


@event("yarn.combat.started")
class CombatStarted(Payload):
    number: int = Field(ge=1)
    mode: Literal["gestalt", "detailed"]
    combatants: list[str]


@event("yarn.combat.joined")
class CombatantsJoined(Payload):
    names: list[str] = Field(min_length=1)


@event("yarn.combat.left")
class CombatantLeft(Payload):
    name: str
    reason: str = ""


@event("yarn.combat.armor_worn")
class ArmorWorn(Payload):
    character: str
    armor: list[str]


class TakenRoll(_Data):
    """One roll of a gestalt fight or of initiative: who, with what, the dice and their reasons."""

    roller: str
    trait: str | None = None
    entries: list[DiceEntry]
    dice: DiceFacts


@event("yarn.combat.gestalt_rolled")
class GestaltRolled(Payload):
    """One side's rolls in a gestalt fight. The GMCs' side is recorded for the GM's eyes only."""

    side: Side
    rolls: list[TakenRoll] = Field(min_length=1)
    total: int


@event("yarn.combat.initiative_set")
class InitiativeSet(Payload):
    """The order of action for the fight: by initiative rolls, or by seats around the table."""

    method: Literal["rolls", "seating"]
    order: list[str]
    rolls: list[TakenRoll] = Field(default_factory=list)
    tie_order: list[str] = Field(default_factory=list)
    gm_first: bool | None = None


@event("yarn.combat.round_started")
class RoundStarted(Payload):
    number: int = Field(ge=2)


@event("yarn.combat.attacked")
class AttackMade(Payload):
    """One attack of a detailed fight, with every die and every step of its damage."""

    combat: int
    round: int
    declared: AttackDeclaration
    attack_trait_combat: bool
    defense_trait_combat: bool
    armor_worn: list[str]
    spread_targets: list[str] = Field(default_factory=list)
    entries: list[DiceEntry]
    attack: DiceFacts
    defense: DiceFacts
    outcome: Outcome
    decided_by: str | None = None
    margin: int
    special_effect_succeeds: bool | None = None
    regular_armor: DiceFacts | None = None
    bullet_proof_armor: DiceFacts | None = None
    damage_dice: DiceFacts | None = None
    steps: list[DamageStep] = Field(default_factory=list)
    damage: int
    temporary: bool
    usually_serious: bool
    hit_points_before: int
    hit_points_after: int


@event("yarn.combat.ended")
class CombatEnded(Payload):
    number: int
    summary: str = ""


# -- state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundAttack:
    attacker: str
    defender: str
    single_shot: bool
    fire_mode: FireMode | None


@dataclass(frozen=True)
class Combat:
    """The fight in play. Per-round facts are cleared when a round starts."""

    number: int
    mode: str
    combatants: tuple[str, ...]
    round: int = 1
    order: tuple[str, ...] = ()
    attacks: tuple[RoundAttack, ...] = ()
    attack_traits: Mapping[str, frozenset[str]] = field(default_factory=dict)
    defense_traits: Mapping[str, frozenset[str]] = field(default_factory=dict)
    combat_traits: frozenset[tuple[str, str]] = frozenset()
    desperate: frozenset[str] = frozenset()
    spreads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    player_rolls: Mapping[str, int] = field(default_factory=dict)
    gmcs_total: int | None = None

    def by(self, attacker: str) -> list[RoundAttack]:
        return [a for a in self.attacks if a.attacker == attacker]


@dataclass(frozen=True)
class Fights:
    """The part's slice: the fight in play, armor worn, and everyone's wounds."""

    in_play: Combat | None = None
    fought: int = 0
    # Persistent: it grows with everyone who ever fought, and a replay hands this slice to the wounds'
    # folds after each change of it, so it must be shared then, not copied.
    armor: PMap[str, tuple[str, ...]] = field(default_factory=pmap)
    wounds: Wounds = field(default_factory=Wounds)


def _added(table: Mapping[str, frozenset[str]], name: str, item: str | None) -> Mapping[str, frozenset[str]]:
    return table if item is None else {**table, name: table.get(name, frozenset()) | {item}}


def _after_attack(combat: Combat, p: AttackMade) -> Combat:
    d = p.declared
    combat_traits = combat.combat_traits | {
        (who, trait) for who, trait, combat_oriented in
        ((d.attacker, d.attack_trait, p.attack_trait_combat), (d.defender, d.defense_trait, p.defense_trait_combat))
        if trait and combat_oriented
    }
    spreads = dict(combat.spreads)
    if d.fire_mode is FireMode.FULL_AUTO_SPREAD:
        remaining = p.spread_targets or spreads.get(d.attacker, ())
        spreads[d.attacker] = tuple(t for t in remaining if t != d.defender)
    return replace(
        combat,
        attacks=combat.attacks + (RoundAttack(d.attacker, d.defender, _single_shot(d), d.fire_mode),),
        attack_traits=_added(combat.attack_traits, d.attacker, d.attack_trait),
        defense_traits=_added(combat.defense_traits, d.defender, d.defense_trait),
        combat_traits=combat_traits,
        desperate=combat.desperate | ({d.defender} if d.desperate_defense else set()),
        spreads=spreads,
    )


def _single_shot(d: AttackDeclaration) -> bool:
    return d.weapon in GUNFIRE and d.fire_mode is None


def _evolve_combat(combat: Combat | None, p: Payload) -> Combat | None:
    if combat is None:
        return None
    if isinstance(p, CombatantsJoined):
        return replace(combat, combatants=combat.combatants + tuple(p.names))
    if isinstance(p, CombatantLeft):
        return replace(combat, combatants=tuple(n for n in combat.combatants if n != p.name))
    if isinstance(p, InitiativeSet):
        return replace(combat, order=tuple(p.order))
    if isinstance(p, RoundStarted):
        return Combat(combat.number, combat.mode, combat.combatants, p.number, combat.order,
                      combat_traits=combat.combat_traits)
    if isinstance(p, GestaltRolled) and p.side is Side.GMCS:
        return replace(combat, gmcs_total=p.total)
    if isinstance(p, GestaltRolled):
        return replace(combat, player_rolls={**combat.player_rolls, **{r.roller: r.dice.total for r in p.rolls}})
    if isinstance(p, AttackMade):
        return _after_attack(combat, p)
    if isinstance(p, CombatEnded):
        return None
    return combat


#: The fight's events, and the wounds'.
FOLDS = wounds_module.FOLDS | folds(
    CombatStarted, CombatantRegistered, ArmorWorn, AttackMade, CombatantsJoined, CombatantLeft, InitiativeSet,
    RoundStarted, GestaltRolled, CombatEnded,
)


def evolve(fights: Fights, recorded: Recorded, rules: HoldsFights) -> Fights:
    """Fold one event into the part's slice; ``rules`` is the Yarn state before it. Never refuses."""
    p = recorded.payload
    wounds = wounds_module.evolve(fights.wounds, recorded, rules)
    if isinstance(p, CombatStarted):
        return replace(fights, in_play=Combat(p.number, p.mode, tuple(p.combatants)), fought=p.number, wounds=wounds)
    if isinstance(p, CombatantRegistered):
        wounds = wounds_module.register(wounds, p.name, wounds_module.Combatant(p.hit_points, p.description,
                                                                                p.supporting))
    if isinstance(p, ArmorWorn):
        return replace(fights, armor=fights.armor.set(p.character, tuple(p.armor)), wounds=wounds)
    if isinstance(p, AttackMade):
        d = p.declared
        if p.damage or p.declared.serious_wound:
            serious = d.serious_wound.wound() if d.serious_wound else None
            wounds = wounds_module.wounded(wounds, rules, d.defender, p.damage, temporary=p.temporary, serious=serious)
        fights = replace(fights, armor=fights.armor.set(d.defender, tuple(p.armor_worn)))
    return replace(fights, in_play=_evolve_combat(fights.in_play, p), wounds=wounds)


ROLL_NAMES = ("attack", "defense", "regular_armor", "bullet_proof_armor", "damage")


def declaration(**fields: Any) -> AttackDeclaration:
    """An :class:`AttackDeclaration` from plain values, or :class:`InvalidCommand` saying what is wrong.

    ``weapon`` may be a name at the table ("knife", "taser"): its firearm and range row come with it.
    """
    weapon = fields.get("weapon")
    if isinstance(weapon, str) and weapon not in set(Weapon):
        profile = weapon_profile(weapon)
        fields = {"firearm": profile.firearm, "range_class": profile.range_class, **fields, "weapon": profile.weapon}
    try:
        return AttackDeclaration(**fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InvalidCommand(f"attack: {'.'.join(map(str, err['loc']))}: {err['msg']}") from None


# -- the fight in play -----------------------------------------------------------------------


def fight_in_play(campaign: YarnCampaign, mode: str | None = None) -> Combat:
    """The fight in play (of ``mode``, if given); refuses when there is none."""
    combat = present(campaign.rules.combat.in_play, "no fight is in play: start one with 'yarnlog fight start'")
    invalid(mode is None or combat.mode == mode, f"the fight in play is {combat.mode} combat, not {mode}")
    return combat


def is_pc(campaign: YarnCampaign, name: str) -> bool:
    """Whether ``name`` is a player character."""
    return name in campaign.rules.characters.pcs


class FightsBuilder:
    """The slice thawed for a replay (a :class:`~yarnlog.core.ruleset.SliceBuilder`): its fields set in
    place, frozen into a new :class:`Fights` by :meth:`freeze`. Folds as :func:`evolve` does. The
    wounds and the armor stay persistent: the wounds' folds read the state before the event, this
    slice's included, which the replay freezes before each event the part folds (its ``reads``), so
    a freeze shares what grows with the campaign instead of copying it."""

    def __init__(self, fights: Fights):
        self.in_play = fights.in_play
        self.fought = fights.fought
        self.armor = fights.armor  # persistent: a freeze shares it
        self.wounds = fights.wounds

    def fold(self, recorded: Recorded, rules: HoldsFights) -> None:
        p = recorded.payload
        wounds = wounds_module.evolve(self.wounds, recorded, rules)
        if isinstance(p, CombatStarted):
            self.in_play, self.fought, self.wounds = Combat(p.number, p.mode, tuple(p.combatants)), p.number, wounds
            return
        if isinstance(p, CombatantRegistered):
            wounds = wounds_module.register(wounds, p.name, wounds_module.Combatant(p.hit_points, p.description,
                                                                                    p.supporting))
        if isinstance(p, ArmorWorn):
            self.armor = self.armor.set(p.character, tuple(p.armor))
            self.wounds = wounds
            return
        if isinstance(p, AttackMade):
            d = p.declared
            if p.damage or p.declared.serious_wound:
                serious = d.serious_wound.wound() if d.serious_wound else None
                wounds = wounds_module.wounded(wounds, rules, d.defender, p.damage, temporary=p.temporary,
                                               serious=serious)
            self.armor = self.armor.set(d.defender, tuple(p.armor_worn))
        self.in_play = _evolve_combat(self.in_play, p)
        self.wounds = wounds

    def freeze(self) -> Fights:
        return Fights(in_play=self.in_play, fought=self.fought, armor=self.armor, wounds=self.wounds)
