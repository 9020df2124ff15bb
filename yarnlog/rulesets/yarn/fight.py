"""Combat in the journal: gestalt and detailed fights, initiative, rounds, attacks and damage.

The ``combat`` part of the Yarn ruleset. Implements, as events over the pure rules of
:mod:`.combat`, :mod:`.damage` and :mod:`.armor`, Yarn 0.1 "Combat" from "Gestalt Combat" through
"Psychological Advantage" and the "Optional Rules for Combat"; hit points, recovery and healing
are in :mod:`.wounds`, whose slice this part holds.

Every roll is stored as :class:`~.dice_facts.DiceFacts` (faces entered from the table, or rolled
once by the tool), and every die of every roll is accounted for by a :class:`DiceEntry` citing its
rule. An attack is declared (:class:`AttackDeclaration`), its dice are taken, and
:func:`attack_made` derives the rest from the state before it; ``verify`` runs the same
derivation on the recorded dice and flags any difference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from yarnlog.campaign import RESERVED_NAMES
from yarnlog.events import Payload, Recorded, event
from yarnlog.rules import InvalidCommand, Referee, Rule, invalid
from yarnlog.rulesets.yarn import wounds as wounds_module
from yarnlog.rulesets.yarn.armor import (
    ARMOR_ATTACK_SUMMARY,
    ARMOR_RATINGS,
    ARMORED_JACKET,
    BULLET_PROOF_ARMOR,
    HALF_AGAINST_GUNFIRE,
    HEAVY_ARMOR,
    REGULAR_ARMOR,
    STACKING,
    TASER_VERSUS_ARMOR,
    Armor,
    ArmorRoll,
    ArmorType,
    AttackKind,
    Protection,
    after_bullet_proof,
    armor_penalty_dice,
    regular_protection,
    stops_taser,
)
from yarnlog.rulesets.yarn.combat import (
    ATTACKING_FROM_ADVANTAGE,
    ATTACKS,
    DESPERATE_DEFENSE,
    DODGING,
    GANGING_UP,
    GESTALT_COMBAT,
    INITIATIVE,
    INITIATIVE_DICE_WITHOUT_TRAIT,
    PREDICTABLE_ATTACKS,
    PSYCHOLOGICAL_ADVANTAGE,
    SURPRISE,
    WEAPON_RANGES,
    WEAPON_RANGES_RULE,
    Advantage,
    RangeBand,
    RangeClass,
    Side,
    advantage_bonus_dice,
    check_trait_use,
    desperate_defense_bonus_dice,
    dodge_bonus_dice,
    ganging_up_bonus,
    gestalt_combat,
    hit_margin,
    initiative_order,
    predictable_attack_penalty_dice,
    psychological_bonus_dice,
    range_band,
    ranged_defense,
    seating_order,
    special_effect_succeeds,
)
from yarnlog.rulesets.yarn.damage import (
    ALTERNATE_DAMAGE,
    ARMOR_PIERCING,
    FULL_AUTO_SPREAD,
    GUNFIRE,
    HOLLOW_POINT,
    HOW_MUCH_DAMAGE,
    RECOIL,
    SHOTGUNS,
    SPECIAL_EFFECT_DAMAGE,
    Ammunition,
    Firearm,
    FireMode,
    Hit,
    Weapon,
    alternate_damage,
    attack_kind,
    automatic_fire,
    damage_dealt,
    damage_factor,
    halved,
    shotgun_damage,
    single_shot_penalty_dice,
    spread_targets,
    usually_a_serious_wound,
)
from yarnlog.rulesets.yarn.dice import (
    BONUS_DIE,
    NO_OPTIONS,
    NO_TRAIT,
    NO_TRAIT_DICE,
    PENALTY_DIE,
    TRAIT_DICE,
    OpponentRoll,
    Outcome,
    RollOptions,
    RollSpec,
    resolve,
)
from yarnlog.rulesets.yarn.dice_facts import DiceFacts, take_dice
from yarnlog.rulesets.yarn.hit_points import DOWN_FOR_THE_COUNT, MESSED_UP, take_damage
from yarnlog.rulesets.yarn.odds import OutcomeOdds, opposed_odds
from yarnlog.rulesets.yarn.state import Part
from yarnlog.rulesets.yarn.wounds import (
    SeriousWoundFacts,
    Wounds,
    broken,
    collecting,
    serious_wound_facts,
)

BOOK = "Yarn 0.1"

ROUNDS = Rule(BOOK, "Combat › Rounds", "Each round is long enough for each character to do one thing.")
GESTALT_ROLLS = Rule(
    BOOK, "Combat › Gestalt Combat", "(The GM determines what rolls are made and how, depending on the circumstances of the fight.)"
)
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

DETAILED, GESTALT = "detailed", "gestalt"
ATTACK, DEFENSE = "attack", "defense"
#: The name the GM rolls initiative under "for all the GMCs with one roll".
GMCS = str(Side.GMCS)

# -- weapons and armor by name ----------------------------------------------------------------


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon at the table: its row of the Damage Factor table, how it fires, its range row."""

    weapon: Weapon
    firearm: Firearm | None = None
    range_class: RangeClass | None = None


# Firearm kinds ("Gunfire Options") by caliber: the Damage Factor table rates calibers, not kinds.
_CALIBERS: Mapping[Firearm, tuple[RangeClass, Mapping[str, Weapon]]] = {
    Firearm.REVOLVER: (RangeClass.PISTOL, {"light": Weapon.LIGHT_HANDGUN, "medium": Weapon.MEDIUM_HANDGUN,
                                           "large": Weapon.LARGE_HANDGUN}),
    Firearm.AUTOMATIC_PISTOL: (RangeClass.PISTOL, {"light": Weapon.LIGHT_HANDGUN, "medium": Weapon.MEDIUM_HANDGUN,
                                                   "large": Weapon.LARGE_HANDGUN}),
    Firearm.SUB_MACHINE_GUN: (RangeClass.SMG, {"light": Weapon.LIGHT_SMG, "medium": Weapon.MEDIUM_SMG,
                                               "large": Weapon.LARGE_SMG}),
    Firearm.RIFLE: (RangeClass.RIFLE, {"light": Weapon.LIGHT_RIFLE, "heavy": Weapon.HEAVY_RIFLE}),
    Firearm.AUTOMATIC_RIFLE: (RangeClass.RIFLE, {"light": Weapon.LIGHT_RIFLE, "heavy": Weapon.HEAVY_RIFLE}),
    Firearm.SHOTGUN: (RangeClass.SHOTGUN, {"12ga": Weapon.SHOTGUN}),
}
# Single names for the rows that name one weapon; "such as a ball or throwing knife" is thrown, balanced.
_NAMED: Mapping[str, WeaponProfile] = {
    **{w.value.casefold(): WeaponProfile(w, None, rc) for rc, ws in _CALIBERS.values() for w in ws.values()},
    "unarmed": WeaponProfile(Weapon.UNARMED), "knife": WeaponProfile(Weapon.KNIFE),
    "lead pipe": WeaponProfile(Weapon.KNIFE), "sword": WeaponProfile(Weapon.SWORD), "axe": WeaponProfile(Weapon.SWORD),
    "throwing knife": WeaponProfile(Weapon.THROWING_KNIFE, range_class=RangeClass.THROWN_BALANCED),
    "slingshot": WeaponProfile(Weapon.THROWING_KNIFE), "throwing axe": WeaponProfile(Weapon.CROSSBOW),
    "crossbow": WeaponProfile(Weapon.CROSSBOW, range_class=RangeClass.CROSSBOW),
    "taser": WeaponProfile(Weapon.TASER, range_class=RangeClass.TASER),
    "12ga shotgun": WeaponProfile(Weapon.SHOTGUN, Firearm.SHOTGUN, RangeClass.SHOTGUN),
}
#: Missile weapons: their target's defense is the Ranged Attacks table's.
MISSILE_WEAPONS = GUNFIRE | {Weapon.TASER, Weapon.CROSSBOW, Weapon.THROWING_KNIFE}


def _key(name: str) -> str:
    return " ".join(name.replace("-", " ").replace("_", " ").casefold().split())


def weapon_profile(name: str, caliber: str | None = None) -> WeaponProfile:
    """A weapon by its name at the table: a Damage Factor row ("light handgun", "knife"), or a firearm
    kind of "Gunfire Options" ("revolver", "sub-machine gun") with its ``caliber``."""
    key = _key(name)
    firearm = next((f for f in Firearm if _key(f.value) == key), None)
    if firearm is None:
        profile = _NAMED.get(key)
        invalid(profile is not None, f"unknown weapon {name!r}; known: {', '.join(sorted([*_NAMED, *map(str, Firearm)]))}")
        invalid(caliber is None, f"a caliber is for a firearm kind such as revolver, not {name!r}")
        return profile
    range_class, calibers = _CALIBERS[firearm]
    if caliber is None and len(calibers) == 1:
        caliber = next(iter(calibers))
    weapon = calibers.get(_key(caliber or ""))
    invalid(weapon is not None, f"a {firearm}'s damage factor depends on its caliber: {', '.join(calibers)}")
    return WeaponProfile(weapon, firearm, range_class)


_ARMOR_ALIASES = {"reinforced jacket": ARMORED_JACKET}  # "a reinforced jacket (rating: 1)", "Armor Examples"


def armor_named(name: str) -> Armor:
    """An armor of the Armor Ratings table by name ("plate mail", "bullet-proof vest", ...)."""
    found = {_key(a.name): a for a in ARMOR_RATINGS.values()} | _ARMOR_ALIASES
    armor = found.get(_key(name))
    invalid(armor is not None, f"unknown armor {name!r}; known: {', '.join(sorted(found))}")
    return armor


# -- stored facts -----------------------------------------------------------------------------


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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
    armor: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
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


def evolve(fights: Fights, recorded: Recorded, rules: Any) -> Fights:
    """Fold one event into the part's slice; ``rules`` is the Yarn state before it. Never refuses."""
    p = recorded.payload
    wounds = wounds_module.evolve(fights.wounds, recorded, rules)
    if isinstance(p, CombatStarted):
        return replace(fights, in_play=Combat(p.number, p.mode, tuple(p.combatants)), fought=p.number, wounds=wounds)
    if isinstance(p, CombatantRegistered):
        wounds = wounds_module.register(wounds, p.name, wounds_module.Combatant(p.hit_points, p.description,
                                                                                p.supporting))
    if isinstance(p, ArmorWorn):
        return replace(fights, armor={**fights.armor, p.character: tuple(p.armor)}, wounds=wounds)
    if isinstance(p, AttackMade):
        d = p.declared
        if p.damage or p.declared.serious_wound:
            serious = d.serious_wound.wound() if d.serious_wound else None
            wounds = wounds_module.wounded(wounds, rules, d.defender, p.damage, temporary=p.temporary, serious=serious)
        fights = replace(fights, armor={**fights.armor, d.defender: tuple(p.armor_worn)})
    return replace(fights, in_play=_evolve_combat(fights.in_play, p), wounds=wounds)


# -- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """A combatant as the fight starts: a PC, a registered combatant, or a new one with ``hit_points``."""

    name: str
    hit_points: int | None = None
    description: str = ""


@dataclass(frozen=True)
class RegisterCombatant:
    name: str
    hit_points: int
    description: str = ""


@dataclass(frozen=True)
class StartCombat:
    combatants: tuple[Fighter, ...]
    mode: Literal["gestalt", "detailed"] = GESTALT


@dataclass(frozen=True)
class JoinCombat:
    combatants: tuple[Fighter, ...]


@dataclass(frozen=True)
class LeaveCombat:
    name: str
    reason: str = ""


@dataclass(frozen=True)
class WearArmor:
    character: str
    armor: tuple[str, ...]


@dataclass(frozen=True)
class RollInput:
    """One roll at the table: ``dice`` the GM sets (else the trait's, else two), ``faces`` as rolled
    (None: the tool rolls), and the GM's bonus and penalty dice where the rules leave them to her."""

    roller: str
    dice: int | None = None
    trait: str | None = None
    faces: tuple[int, ...] | None = None
    top_off: tuple[int, ...] = ()
    bonus: int = 0
    penalty: int = 0


@dataclass(frozen=True)
class RollGestalt:
    """The players' rolls, or (recorded with visibility "gm") the GMCs' secret rolls."""

    side: Side
    rolls: tuple[RollInput, ...]
    rng: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class RollInitiative:
    """Initiative rolls; ``GMCs`` rolls once for every GMC not named. ``tie_order``: the GM's order of ties."""

    rolls: tuple[RollInput, ...]
    tie_order: tuple[str, ...] = ()
    rng: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class SeatingOrder:
    """"act in the order they are seated around the table, with the GM acting first or last"."""

    players_around_table: tuple[str, ...]
    gm_first: bool


@dataclass(frozen=True)
class NextRound:
    pass


@dataclass(frozen=True)
class Attack:
    """An attack: the declaration, and faces by roll ("attack", "defense", "regular_armor",
    "bullet_proof_armor", "damage"); a roll without faces is rolled by the tool from ``rng``."""

    declared: AttackDeclaration
    faces: Mapping[str, Sequence[int]] = field(default_factory=dict)
    top_off: Mapping[str, Sequence[int]] = field(default_factory=dict)
    rng: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class EndCombat:
    summary: str = ""


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


# -- deciding ---------------------------------------------------------------------------------


def _in_play(campaign: Any, mode: str | None = None) -> Combat:
    combat = campaign.rules.combat.in_play
    invalid(combat is not None, "no fight is in play: start one with 'yarnlog fight start'")
    invalid(mode is None or combat.mode == mode, f"the fight in play is {combat.mode} combat, not {mode}")
    return combat


def _is_pc(campaign: Any, name: str) -> bool:
    return name in campaign.rules.characters.pcs


def _fighters(campaign: Any, fighters: Sequence[Fighter], already: Sequence[str]) -> tuple[list[Payload], list[str]]:
    """Registrations needed for ``fighters``, and their names; refuses anyone who cannot fight."""
    rules = campaign.rules
    names = [f.name for f in fighters]
    invalid(bool(names), "name at least one combatant")
    invalid(len(set(names)) == len(names), "each combatant is named once")
    registrations: list[Payload] = []
    for f in fighters:
        invalid(f.name not in already, f"{f.name} is already in the fight")
        invalid(f.name not in rules.combat.wounds.dead, f"{f.name} is dead")
        sheet = rules.characters.pcs.get(f.name)
        if f.hit_points is None:
            invalid(wounds_module.maximum_hit_points(rules, f.name) is not None,
                    f"{f.name} has no hit points: give them ({f.name}=HIT_POINTS) or create the PC")
            invalid(sheet is None or sheet.active, f"{f.name} has left play")
            continue
        invalid(sheet is None, f"{f.name} is a PC: hit points come from the sheet")
        registered = rules.combat.wounds.registered.get(f.name)
        if registered is None or registered.hit_points != f.hit_points:
            registrations.append(_registration(campaign, RegisterCombatant(f.name, f.hit_points, f.description)))
    return registrations, names


def _registration(campaign: Any, command: RegisterCombatant) -> CombatantRegistered:
    rules = campaign.rules
    name = " ".join(command.name.split())
    invalid(bool(name), "a combatant needs a name")
    invalid(name not in rules.characters.pcs, f"{name} is a PC: hit points come from the sheet")
    invalid(name.casefold() not in {n.casefold() for n in campaign.table.roles} | RESERVED_NAMES,
            f"{name} is a participant's name (or a reserved word): name the character otherwise")
    invalid(command.hit_points >= 1, "a combatant has at least 1 hit point")
    return CombatantRegistered(name=name, hit_points=command.hit_points, description=command.description,
                               supporting=name in rules.characters.supporting)


def _trait_dice(campaign: Any, who: str, trait: str | None, dice: int | None, roll: str,
                gm_says_combat: bool = False) -> tuple[list[DiceEntry], bool]:
    """The dice a character rolls for ``trait``, with the rule, and whether it is combat-oriented.

    A PC's trait is read off the sheet (its fighting skill mark included); anyone else's dice and
    combat orientation are the GM's. Two dice without a trait.
    """
    sheet = campaign.rules.characters.pcs.get(who)
    if trait is not None and sheet is not None:
        invalid(trait in sheet.traits, f"{who} has no trait {trait!r}: {', '.join(sheet.traits)}")
        invalid(dice is None or dice == sheet.dice(trait), f"{who}'s {trait} is {sheet.dice(trait)} dice, not {dice}")
        return [DiceEntry.of(roll, TRAIT_DICE, f"{who}: {trait}", dice=sheet.dice(trait))], sheet.traits[trait].fighting_skill
    if trait is not None:
        invalid(dice is not None, f"{who} has no sheet: give the dice of {trait!r}")
        return [DiceEntry.of(roll, TRAIT_DICE, f"{who}: {trait} (the GM's dice)", dice=dice)], gm_says_combat
    if dice is not None:
        invalid(dice >= 0, "dice are not negative")
        return [DiceEntry.of(roll, GESTALT_ROLLS if roll == "gestalt" else TRAIT_DICE, f"{who}: dice set by the GM",
                             dice=dice)], False
    return [DiceEntry.of(roll, NO_TRAIT, f"{who}: no trait applies", dice=NO_TRAIT_DICE)], False


def _wound_entries(campaign: Any, who: str, roll: str) -> list[DiceEntry]:
    penalty = wounds_module.penalty_dice_from_wounds(campaign, who)
    return [DiceEntry.of(roll, MESSED_UP, f"{who} is messed up", penalty=penalty)] if penalty else []


def _armor_entries(worn: Sequence[Armor], roll: str, who: str, *, firearm_attack: bool = False) -> list[DiceEntry]:
    total = armor_penalty_dice(tuple(worn), firearm_attack=firearm_attack)
    heavy = sum(armor_penalty_dice((a,), firearm_attack=firearm_attack) for a in worn)
    entries = []
    if heavy:
        entries.append(DiceEntry.of(roll, HEAVY_ARMOR, f"{who} wears heavy armor", penalty=heavy))
    if total - heavy:
        entries.append(DiceEntry.of(roll, STACKING, f"{who} wears {len(worn)} layers", penalty=total - heavy))
    return entries


def _taken_roll(campaign: Any, roll: RollInput, kind: str, rule: Rule | None, options: RollOptions, rng: Any,
                base: list[DiceEntry] | None = None) -> TakenRoll:
    entries = base if base is not None else _trait_dice(campaign, roll.roller, roll.trait, roll.dice, kind)[0]
    invalid(roll.bonus >= 0 and roll.penalty >= 0, "bonus and penalty dice are counted as 0 or more")
    if roll.bonus:
        entries = entries + [DiceEntry.of(kind, rule or BONUS_DIE, "the GM's ruling", bonus=roll.bonus)]
    if roll.penalty:
        entries = entries + [DiceEntry.of(kind, rule or PENALTY_DIE, "the GM's ruling", penalty=roll.penalty)]
    if wounds_module.maximum_hit_points(campaign.rules, roll.roller) is not None:
        entries = entries + _wound_entries(campaign, roll.roller, kind)
    dice = take_roll(entries, kind, lambda spec: take_dice(spec, roll.faces, options, top_off=roll.top_off, rng=rng))
    return TakenRoll(roller=roll.roller, trait=roll.trait, entries=entries, dice=dice)


def _gestalt(command: RollGestalt, campaign: Any) -> GestaltRolled:
    combat = _in_play(campaign, GESTALT)
    options = RollOptions.from_campaign(campaign.table.options)
    invalid(bool(command.rolls), "record at least one roll")
    rollers = [r.roller for r in command.rolls]
    invalid(len(set(rollers)) == len(rollers), "each roller rolls once")
    if command.side is Side.GMCS:
        invalid(combat.gmcs_total is None, "the GMCs' total is already rolled for this fight")
    else:
        for name in rollers:
            invalid(_is_pc(campaign, name) and name in combat.combatants, f"{name} is not a PC in this fight")
            invalid(name not in combat.player_rolls, f"{name} already rolled for this fight")
    rolls = [_taken_roll(campaign, r, "gestalt", GESTALT_ROLLS, options, command.rng) for r in command.rolls]
    return GestaltRolled(side=command.side, rolls=rolls, total=sum(r.dice.total for r in rolls))


def _initiative(command: RollInitiative, campaign: Any) -> InitiativeSet:
    combat = _in_play(campaign, DETAILED)
    invalid(not combat.order, "the order of action is already set for this fight")
    names = [r.roller for r in command.rolls]
    invalid(len(set(names)) == len(names), "each character rolls initiative once")
    for name in names:
        invalid(name == GMCS or name in combat.combatants, f"{name} is not in the fight")
    gmcs = [n for n in combat.combatants if not _is_pc(campaign, n)]
    missing = [n for n in combat.combatants if n not in names and (n not in gmcs or GMCS not in names)]
    invalid(not missing, f"initiative is missing for {', '.join(missing)}")
    options = RollOptions.from_campaign(campaign.table.options)
    rolls = []
    for r in command.rolls:
        base = None
        if r.trait is None and r.dice is None:
            base = [DiceEntry.of("initiative", INITIATIVE, f"{r.roller}: no such trait", dice=INITIATIVE_DICE_WITHOUT_TRAIT)]
        rolls.append(_taken_roll(campaign, r, "initiative", None, options, command.rng, base))
    order = initiative_order({r.roller: r.dice.total for r in rolls}, gm_tie_order=command.tie_order)
    return InitiativeSet(method="rolls", order=list(order), rolls=rolls, tie_order=list(command.tie_order))


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    rules = campaign.rules
    if isinstance(command, RegisterCombatant):
        return [_registration(campaign, command)]
    if isinstance(command, StartCombat):
        invalid(rules.combat.in_play is None, f"fight {rules.combat.fought} is still in play: end it first")
        invalid(command.mode in (GESTALT, DETAILED), f"combat is gestalt or detailed, not {command.mode!r}")
        registrations, names = _fighters(campaign, command.combatants, ())
        return [*registrations, CombatStarted(number=rules.combat.fought + 1, mode=command.mode, combatants=names)]
    if isinstance(command, JoinCombat):
        registrations, names = _fighters(campaign, command.combatants, _in_play(campaign).combatants)
        return [*registrations, CombatantsJoined(names=names)]
    if isinstance(command, LeaveCombat):
        invalid(command.name in _in_play(campaign).combatants, f"{command.name} is not in the fight")
        return [CombatantLeft(name=command.name, reason=command.reason)]
    if isinstance(command, WearArmor):
        invalid(wounds_module.maximum_hit_points(rules, command.character) is not None,
                f"{command.character} has no hit points: not a PC, nor a registered combatant")
        return [ArmorWorn(character=command.character, armor=[armor_named(a).name for a in command.armor])]
    if isinstance(command, RollGestalt):
        return [_gestalt(command, campaign)]
    if isinstance(command, RollInitiative):
        return [_initiative(command, campaign)]
    if isinstance(command, SeatingOrder):
        _in_play(campaign, DETAILED)
        for name in command.players_around_table:
            invalid(name in campaign.table.players, f"{name} is not a player at the table")
        order = seating_order(command.players_around_table, gm=campaign.table.gm, gm_first=command.gm_first)
        return [InitiativeSet(method="seating", order=list(order), gm_first=command.gm_first)]
    if isinstance(command, NextRound):
        return [RoundStarted(number=_in_play(campaign, DETAILED).round + 1)]
    if isinstance(command, Attack):
        unknown = sorted(set(command.faces) - set(ROLL_NAMES))
        invalid(not unknown, f"unknown roll(s) {', '.join(unknown)}; rolls are {', '.join(ROLL_NAMES)}")
        dice = _Dice(command.faces, command.top_off, command.rng)
        payload = attack_made(campaign, command.declared, dice, referee)
        extra = sorted(set(command.faces) - dice.taken)
        invalid(not extra, f"this attack rolls no {' nor '.join(extra)} dice")
        return [payload]
    if isinstance(command, EndCombat):
        return [CombatEnded(number=_in_play(campaign).number, summary=command.summary)]
    return wounds_module.decide(command, campaign, referee)


class _Dice:
    """Where an attack's dice come from: faces entered (checked), else rolled now from ``rng``;
    ``recorded`` (for ``verify``) gives the dice as they were stored and never rolls."""

    def __init__(self, faces: Mapping[str, Sequence[int]], top_off: Mapping[str, Sequence[int]], rng: Any = None,
                 recorded: Mapping[str, DiceFacts] | None = None):
        self.faces, self.top_offs, self.rng, self.recorded = faces, top_off, rng, recorded
        self.taken: set[str] = set()

    def take(self, name: str, spec: RollSpec, options: RollOptions) -> DiceFacts:
        self.taken.add(name)
        if self.recorded is not None:
            stored = self.recorded.get(name)
            invalid(stored is not None, f"the {name} roll ({spec.notation()}) is missing")
            facts = take_dice(spec, stored.faces, options, top_off=stored.top_off)
            return facts.model_copy(update={"source": stored.source})
        faces = self.faces.get(name)
        return take_dice(spec, None if faces is None else tuple(faces), options,
                         top_off=tuple(self.top_offs.get(name, ())), rng=self.rng)


def _fighting(campaign: Any, combat: Combat, d: AttackDeclaration, referee: Referee) -> None:
    rules = campaign.rules
    invalid(d.attacker != d.defender, "a character does not attack himself")
    for who in (d.attacker, d.defender):
        invalid(who in combat.combatants, f"{who} is not in the fight")
        invalid(who not in rules.combat.wounds.dead, f"{who} is dead")
    attacker_hp = wounds_module.hit_points(rules, d.attacker)
    referee.require(attacker_hp.current > 0, DOWN_FOR_THE_COUNT, f"{d.attacker} is at {attacker_hp.current} hit points")
    referee.require(d.attacker not in combat.desperate, DESPERATE_DEFENSE,
                    f"{d.attacker} gave up attacking this round for a desperate defense")


def _round_entries(combat: Combat, d: AttackDeclaration, band: RangeBand | None, referee: Referee
                   ) -> tuple[list[DiceEntry], int, list[str]]:
    """Dice, damage multiplier bonus and spread targets from how the attacker fires this round."""
    before = combat.by(d.attacker)
    if d.fire_mode is None:
        if before:
            referee.require(all(a.single_shot for a in before) and _single_shot(d), ROUNDS,
                            f"{d.attacker} already acted this round")
            invalid(d.firearm is not None or not _single_shot(d),
                    "name the firearm (revolver, automatic pistol, ...) to fire more than one shot a round")
        recoil = single_shot_penalty_dice(referee, d.firearm, len(before) + 1) if d.firearm else 0
        return ([DiceEntry.of(ATTACK, RECOIL, "second shot", penalty=recoil)] if recoil else []), 0, []
    invalid(d.firearm is not None and band is not None and d.rounds_in_clip is not None,
            f"a {d.fire_mode} needs the firearm, a range of the Gunfire Tactics Summary and the rounds in the clip")
    effect = automatic_fire(referee, d.firearm, d.fire_mode, band, rounds_in_clip=d.rounds_in_clip)
    targets: list[str] = []
    remaining = combat.spreads.get(d.attacker)
    if d.fire_mode is FireMode.FULL_AUTO_SPREAD and remaining is not None:
        invalid(d.spread is None, "the spread was already fired this round: attack its next target")
    else:
        referee.require(not before, ROUNDS, f"{d.attacker} already acted this round")
    if d.fire_mode is FireMode.FULL_AUTO_SPREAD:
        if remaining is None:
            invalid(d.spread is not None, "the first attack of a spread names the line of fire, first and last target")
            targets = list(spread_targets(referee, d.spread.line_of_fire, first=d.spread.first, last=d.spread.last,
                                          bullets_fired=d.spread.bullets_fired))
            remaining = tuple(targets)
        referee.require(d.defender in remaining, FULL_AUTO_SPREAD, f"{d.defender} is not a target left in the spread")
    entries = []
    if effect.bonus_dice or effect.penalty_dice:
        why = f"{d.fire_mode} at {band.name.lower().replace('_', ' ')} range"
        entries.append(DiceEntry.of(ATTACK, TACTICS[d.fire_mode], why, bonus=effect.bonus_dice,
                                    penalty=effect.penalty_dice))
    return entries, effect.multiplier_bonus, targets


def _advantage_entries(campaign: Any, combat: Combat, d: AttackDeclaration, referee: Referee) -> list[DiceEntry]:
    entries = []
    for claim in d.advantages:
        if claim.advantage is Advantage.GANGING_UP:
            invalid(claim.roll == ATTACK and claim.defender_fighting_dice is not None,
                    "ganging up gives attackers a bonus die: name the defender's fighting dice")
            for who in claim.attackers:
                invalid(who in combat.combatants, f"{who} is not in the fight")
            invalid(d.attacker in claim.attackers, f"{d.attacker} is not among the attackers ganging up")
            chosen = ganging_up_bonus(referee, defender_fighting_dice=claim.defender_fighting_dice,
                                      attackers=claim.attackers, chosen_by_defender=claim.chosen_by_defender)
            referee.require(d.attacker in chosen, GANGING_UP, f"{d.defender} did not choose {d.attacker} for the bonus die")
            dice, rule = 1, GANGING_UP
        elif claim.advantage is Advantage.PSYCHOLOGICAL:
            invalid(claim.gained_round is not None, "say in which round the psychological advantage was gained")
            dice = psychological_bonus_dice(round_gained=claim.gained_round, current_round=combat.round,
                                            for_whole_combat=claim.whole_combat)
            referee.require(dice > 0, PSYCHOLOGICAL_ADVANTAGE, "the advantage gives a bonus die the next round only")
            rule = PSYCHOLOGICAL_ADVANTAGE
        else:
            dice = advantage_bonus_dice(referee, claim.advantage, gm_extra_dice=claim.extra_dice)
            rule = SURPRISE if claim.advantage is Advantage.SURPRISE else ATTACKING_FROM_ADVANTAGE
        entries.append(DiceEntry.of(claim.roll, rule, claim.why or str(claim.advantage), bonus=dice))
    for die in d.gm_dice:
        rule, kind = (BONUS_DIE, "bonus") if die.kind == "bonus" else (PENALTY_DIE, "penalty")
        entries.append(DiceEntry.of(die.roll, rule, die.why, **{kind: 1}))
    gmc = not _is_pc(campaign, d.attacker)
    invalid(not (d.predictable and gmc), "the predictable attacks rule does not apply to GMCs")
    predictable = predictable_attack_penalty_dice(gm_rules_predictable=d.predictable, attacker_is_gmc=gmc)
    if predictable:
        entries.append(DiceEntry.of(ATTACK, PREDICTABLE_ATTACKS, "a predictable or boring attack", penalty=predictable))
    return entries


def _defense_entries(campaign: Any, d: AttackDeclaration, referee: Referee) -> tuple[list[DiceEntry], bool, int | None]:
    """The defense roll's dice, whether its trait is combat-oriented, and the distance dice if ranged."""
    r = d.ranged
    if r is None:
        entries, combat_trait = _trait_dice(campaign, d.defender, d.defense_trait, d.defense_dice, DEFENSE,
                                            d.defense_combat_trait)
        return entries, combat_trait, None
    invalid(d.defense_dice is None, "against a missile weapon the defense dice come from the Ranged Attacks table")
    invalid(d.defense_trait is None or r.dodging, "a trait serves a defense against missiles only to dodge")
    if r.gm_distance_dice is not None:
        invalid(r.distance_m is None, "give the distance or the GM's distance dice, not both")
        distance_dice, why = r.gm_distance_dice, "distance dice set by the GM"
    else:
        invalid(r.distance_m is not None and d.range_class is not None,
                "a ranged attack needs the distance and the weapon's row of the Weapon Ranges table")
        distance_dice = int(range_band(r.distance_m, WEAPON_RANGES[d.range_class]))
        why = f"{r.distance_m:g} m with a {d.range_class}"
    agility, combat_trait = r.agility_dice, False
    if d.defense_trait is not None:
        trait_entries, combat_trait = _trait_dice(campaign, d.defender, d.defense_trait, r.agility_dice, DEFENSE,
                                                  d.defense_combat_trait)
        agility = trait_entries[0].dice
    dodge = dodge_bonus_dice(agility, clumsy=r.clumsy) if r.dodging else 0
    total = ranged_defense(referee, distance_dice, cover=r.cover, target_moving=r.target_moving,
                           attacker_moving=r.attacker_moving, obscured=r.obscured, dodging_bonus_dice=dodge,
                           half_dice=r.half_dice)
    entries = [DiceEntry.of(DEFENSE, WEAPON_RANGES_RULE, why, dice=distance_dice)]
    for dice, what in ((r.cover, "cover"), (r.obscured, "darkness, fog, etc."), (int(r.target_moving), "target moving"),
                       (int(r.attacker_moving), "attacker moving")):
        entries += [DiceEntry.of(DEFENSE, RANGED_DEFENSE, what, dice=dice)] if dice else []
    entries += [DiceEntry.of(DEFENSE, DODGING, "dodging", bonus=dodge)] if dodge else []
    entries += [DiceEntry.of(DEFENSE, HALF_DICE, "the GM's half-dice", bonus=r.half_dice)] if r.half_dice else []
    if spec_of(entries, DEFENSE) != RollSpec(total.dice, total.bonus_dice):  # the entries retrace ranged_defense
        raise RuntimeError(f"defense entries {spec_of(entries, DEFENSE)} differ from ranged_defense's {total}")
    return entries, combat_trait, distance_dice


@dataclass(frozen=True)
class AttackPlan:
    """What an attack is before its dice: every die of both rolls with its rule, and what the damage needs."""

    combat: Combat
    entries: list[DiceEntry]
    attack_combat: bool
    defense_combat: bool
    distance_dice: int | None
    multiplier_bonus: int
    spread_targets: list[str]
    worn: list[Armor]


def plan_attack(campaign: Any, d: AttackDeclaration, referee: Referee) -> AttackPlan:
    """Check the attack ``d`` against the state before it and count its dice ("Attacks" through
    "Attacking from Advantage", "Gunfire Options", "Armor", "Messed Up")."""
    rules = campaign.rules
    combat = _in_play(campaign, DETAILED)
    _fighting(campaign, combat, d, referee)
    ranged = d.ranged is not None
    invalid(ranged or d.weapon not in MISSILE_WEAPONS,
            f"a {d.weapon} is a missile weapon: its target's defense comes from the distance (Ranged Attacks table)")
    invalid(d.firearm is None or d.weapon in GUNFIRE, f"a {d.weapon} is not a firearm")
    attack_entries, attack_combat = _trait_dice(campaign, d.attacker, d.attack_trait, d.attack_dice, ATTACK,
                                                d.attack_combat_trait)
    defense_entries, defense_combat, distance_dice = _defense_entries(campaign, d, referee)
    band = RangeBand(distance_dice) if distance_dice in set(RangeBand) else None
    round_entries, multiplier_bonus, targets = _round_entries(combat, d, band, referee)
    worn = [armor_named(a) for a in (d.defender_armor if d.defender_armor is not None
                                     else rules.combat.armor.get(d.defender, ()))]
    attacker_worn = [armor_named(a) for a in rules.combat.armor.get(d.attacker, ())]
    entries = attack_entries + defense_entries + round_entries + _advantage_entries(campaign, combat, d, referee)
    entries += _wound_entries(campaign, d.attacker, ATTACK)
    entries += _armor_entries(attacker_worn, ATTACK, d.attacker, firearm_attack=d.weapon in GUNFIRE)
    if not ranged or d.ranged.dodging:  # the defender's own effort: a melee defense, or dodging missiles
        entries += _wound_entries(campaign, d.defender, DEFENSE) + _armor_entries(worn, DEFENSE, d.defender)
    entries += _desperate_entries(campaign, combat, d, referee)
    _check_traits(combat, d, attack_combat, defense_combat, referee)
    invalid(d.special_effect is None or d.sufficient_margin is not None,
            "the GM judges what margin the special effect needs")
    serious_wound_facts(referee, campaign.table.options, d.serious_wound and d.serious_wound.wound())
    return AttackPlan(combat, entries, attack_combat, defense_combat, distance_dice, multiplier_bonus, targets, worn)


def attack_odds(campaign: Any, d: AttackDeclaration) -> OutcomeOdds:
    """The exact chances, before the dice, that the attack ``d`` hits (``beats``) or not."""
    plan = plan_attack(campaign, d, Referee())
    options = RollOptions.from_campaign(campaign.table.options)
    return opposed_odds(spec_of(plan.entries, ATTACK), spec_of(plan.entries, DEFENSE), options)


def attack_made(campaign: Any, d: AttackDeclaration, dice: _Dice, referee: Referee) -> AttackMade:
    """The attack ``d`` with its dice, derived from the state before it ("Attacks" through "Damage Effects")."""
    plan = plan_attack(campaign, d, referee)
    entries = plan.entries
    options = RollOptions.from_campaign(campaign.table.options)
    attack = take_roll(entries, ATTACK, lambda spec: dice.take("attack", spec, options))
    defense = take_roll(entries, DEFENSE, lambda spec: dice.take("defense", spec, options))
    resolution = resolve(attack.result(), OpponentRoll.of(defense.result(), options), options)
    hit = resolution.outcome is Outcome.BEATS
    effect_succeeds = None
    if d.special_effect is not None:
        effect_succeeds = hit and special_effect_succeeds(attack.total, defense.total,
                                                          gm_sufficient_margin=d.sufficient_margin)
    invalid(hit or d.serious_wound is None, "a miss deals no serious wound")
    damage = _damage(campaign, d, dice, attack.total, defense.total, plan, referee) if hit else _NO_DAMAGE
    hp = wounds_module.hit_points(campaign.rules, d.defender)
    return AttackMade(
        combat=plan.combat.number, round=plan.combat.round, declared=d, attack_trait_combat=plan.attack_combat,
        defense_trait_combat=plan.defense_combat, armor_worn=[a.name for a in plan.worn],
        spread_targets=plan.spread_targets, entries=entries, attack=attack, defense=defense,
        outcome=resolution.outcome, decided_by=resolution.decided_by.chapter if resolution.decided_by else None,
        margin=hit_margin(attack.total, defense.total), special_effect_succeeds=effect_succeeds,
        regular_armor=damage.regular, bullet_proof_armor=damage.bullet_proof, damage_dice=damage.dice,
        steps=damage.steps, damage=damage.points, temporary=d.weapon is Weapon.TASER,
        usually_serious=usually_a_serious_wound(damage.points), hit_points_before=hp.current,
        hit_points_after=take_damage(hp, damage.points).current,
    )


def _desperate_entries(campaign: Any, combat: Combat, d: AttackDeclaration, referee: Referee) -> list[DiceEntry]:
    if d.desperate_defense:
        referee.require(bool(campaign.table.options.get("desperate_defense")), DESPERATE_DEFENSE,
                        "this campaign does not use the optional Desperate Defense rule")
        referee.require(not combat.by(d.defender), DESPERATE_DEFENSE, f"{d.defender} already attacked this round")
    bonus = desperate_defense_bonus_dice(gives_up_attack=d.desperate_defense or d.defender in combat.desperate)
    return [DiceEntry.of(DEFENSE, DESPERATE_DEFENSE, f"{d.defender} gives up attacking", bonus=bonus)] if bonus else []


def _check_traits(combat: Combat, d: AttackDeclaration, attack_combat: bool, defense_combat: bool,
                  referee: Referee) -> None:
    """"A non-combat trait cannot be used for both attack and defense in a single round"."""
    def combat_traits(who: str, trait: str | None, now: bool) -> set[str]:
        known = {t for w, t in combat.combat_traits if w == who}
        return known | ({trait} if trait and now else set())

    check_trait_use(referee, attack_trait=d.attack_trait,
                    defense_traits=combat.defense_traits.get(d.attacker, frozenset()),
                    combat_traits=combat_traits(d.attacker, d.attack_trait, attack_combat))
    if d.defense_trait in combat.attack_traits.get(d.defender, frozenset()):
        check_trait_use(referee, attack_trait=d.defense_trait, defense_traits={d.defense_trait},
                        combat_traits=combat_traits(d.defender, d.defense_trait, defense_combat))


@dataclass(frozen=True)
class _Damage:
    points: int = 0
    steps: list[DamageStep] = field(default_factory=list)
    regular: DiceFacts | None = None
    bullet_proof: DiceFacts | None = None
    dice: DiceFacts | None = None


_NO_DAMAGE = _Damage()


def _damage(campaign: Any, d: AttackDeclaration, dice: _Dice, attack_total: int, defense_total: int,
            plan: AttackPlan, referee: Referee) -> _Damage:
    """The damage of a hit, step by step ("How Much Damage?" through "Armor/Attack Summary")."""
    worn = plan.worn
    factor = damage_factor(d.weapon, d.ammunition, plan.multiplier_bonus)
    damage_roll = None
    if d.alternate_damage:
        referee.require(bool(campaign.table.options.get("alternate_damage")), ALTERNATE_DAMAGE,
                        "this campaign does not use the optional Alternate Damage rule")
        damage_roll = dice.take("damage", RollSpec(factor), NO_OPTIONS)
    kind = attack_kind(d.weapon, d.ammunition)
    regular_dice, bullet_proof_dice = sum(a.dice for a in worn), sum(a.bullet_proof_dice for a in worn)
    rolls_regular = regular_dice and ARMOR_ATTACK_SUMMARY[kind][ArmorType.REGULAR] is not Protection.MINIMUM
    rolls_bullet_proof = bullet_proof_dice and ARMOR_ATTACK_SUMMARY[kind][ArmorType.BULLET_PROOF] in (
        Protection.DIVIDE, Protection.DIVIDE_DOUBLE)
    regular = dice.take("regular_armor", RollSpec(regular_dice), NO_OPTIONS) if rolls_regular else None
    bullet_proof = dice.take("bullet_proof_armor", RollSpec(bullet_proof_dice), NO_OPTIONS) if rolls_bullet_proof else None
    armor = ArmorRoll(tuple(worn), regular.total if regular else None, bullet_proof.total if bullet_proof else None)
    hit = Hit(attack_total, defense_total, d.weapon, d.ammunition, plan.multiplier_bonus,
              plan.distance_dice if d.weapon is Weapon.SHOTGUN else None, d.special_effect is not None,
              tuple(damage_roll.faces) if damage_roll else None)
    steps = damage_steps(hit, armor, kind)
    points = damage_dealt(hit, armor).points
    if steps[-1].value != points:  # the steps retrace damage_dealt; they must never tell another story
        raise RuntimeError(f"damage steps end at {steps[-1].value}, damage_dealt says {points}")
    return _Damage(points, steps, regular, bullet_proof, damage_roll)


def damage_steps(hit: Hit, armor: ArmorRoll, kind: AttackKind) -> list[DamageStep]:
    """Every step from the hit to the damage taken, in :func:`~.damage.damage_dealt`'s order, so an
    auditor can recompute each one."""
    margin = hit_margin(hit.attack_total, hit.defense_total)
    factor = damage_factor(hit.weapon, hit.ammunition, hit.multiplier_bonus)
    steps = [DamageStep(step=f"attack {hit.attack_total} - defense {hit.defense_total}", value=margin,
                        chapter=ATTACKS.chapter)]
    why = [f"{hit.weapon} X{damage_factor(hit.weapon)}"]
    why += [f"hollow point +2 ({HOLLOW_POINT.chapter})"] if hit.ammunition is Ammunition.HOLLOW_POINT else []
    why += [f"+{hit.multiplier_bonus} (Gunfire Tactics Summary)"] if hit.multiplier_bonus else []
    steps.append(DamageStep(step="damage factor: " + ", ".join(why), value=factor, chapter=HOW_MUCH_DAMAGE.chapter))
    if hit.alternate_damage_faces is None:
        value = margin * factor
        steps.append(DamageStep(step=f"{margin} x {factor}", value=value, chapter=HOW_MUCH_DAMAGE.chapter))
    else:
        value = alternate_damage(hit.alternate_damage_faces, factor, attack_total=hit.attack_total,
                                 defense_total=hit.defense_total)
        doubled = " x 2 (attack roll at least twice the defense roll)" if value != sum(hit.alternate_damage_faces) else ""
        steps.append(DamageStep(step=f"{factor}d6 {list(hit.alternate_damage_faces)}{doubled}", value=value,
                                chapter=ALTERNATE_DAMAGE.chapter))
    if hit.distance_dice is not None:
        value = shotgun_damage(value, hit.distance_dice)
        steps.append(DamageStep(step=f"divided by {hit.distance_dice} distance dice, rounded off", value=value,
                                chapter=SHOTGUNS.chapter))
    if hit.weapon is Weapon.TASER:
        stopped = stops_taser(margin, armor)
        if armor.worn:
            value = 0 if stopped else value
            steps.append(DamageStep(step=f"armor {'stops' if stopped else 'does not stop'} the taser "
                                         f"(margin {margin})", value=value, chapter=TASER_VERSUS_ARMOR.chapter))
    else:
        if armor.regular_dice or armor.regular_points:
            stopped = regular_protection(kind, armor)
            method = ARMOR_ATTACK_SUMMARY[kind][ArmorType.REGULAR]
            rule = HALF_AGAINST_GUNFIRE if method is Protection.HALF else REGULAR_ARMOR
            value = max(0, value - stopped)
            steps.append(DamageStep(step=f"regular armor stops {stopped} ({method}, Armor/Attack Summary)",
                                    value=value, chapter=rule.chapter))
        if armor.bullet_proof_dice:
            method = ARMOR_ATTACK_SUMMARY[kind][ArmorType.BULLET_PROOF]
            value = after_bullet_proof(value, kind, armor)
            rolled = f", rolled {armor.bullet_proof_roll}" if armor.bullet_proof_roll is not None else ""
            steps.append(DamageStep(step=f"bullet-proof armor ({method}, Armor/Attack Summary{rolled})", value=value,
                                    chapter=BULLET_PROOF_ARMOR.chapter))
    if hit.ammunition is Ammunition.ARMOR_PIERCING:
        value = halved(value)
        steps.append(DamageStep(step="armor-piercing: halved after armor, rounded off", value=value,
                                chapter=ARMOR_PIERCING.chapter))
    if hit.special_effect:
        value = halved(value)
        steps.append(DamageStep(step="special effect attack: half damage, rounded off", value=value,
                                chapter=SPECIAL_EFFECT_DAMAGE.chapter))
    return steps


# -- audit ------------------------------------------------------------------------------------


def audit(campaign: Any, recorded: Recorded) -> list[str]:
    """Re-check a combat (or wounds) event against the state before it."""
    p = recorded.payload
    if isinstance(p, AttackMade):
        return _audit_attack(campaign, p)
    if isinstance(p, GestaltRolled) and p.side is Side.GMCS and recorded.visibility != "gm":
        return [f"the GMCs' gestalt total is recorded for {recorded.visibility}, not kept secret ({GESTALT_COMBAT.cite()})"]
    if isinstance(p, CombatStarted) and campaign.rules.combat.in_play is not None:
        return ["a fight started while another was in play"]
    return wounds_module.audit(campaign, recorded)


def _audit_attack(campaign: Any, p: AttackMade) -> list[str]:
    recorded = {name: facts for name, facts in (
        ("attack", p.attack), ("defense", p.defense), ("regular_armor", p.regular_armor),
        ("bullet_proof_armor", p.bullet_proof_armor), ("damage", p.damage_dice)) if facts is not None}
    referee = collecting()
    try:
        again = attack_made(campaign, p.declared, _Dice({}, {}, recorded=recorded), referee)
    except InvalidCommand as exc:
        return [str(exc)]
    ours, theirs = again.to_data(), p.to_data()
    differing = [key for key in theirs if ours.get(key) != theirs[key]]
    problems = [f"{key} should be {ours[key]!r}, not {theirs[key]!r}" for key in differing]
    return problems + broken(referee)


# -- projections ------------------------------------------------------------------------------


def gestalt_outcome(state: Any):
    """The gestalt fight in play as the GM sees it: both sides' totals and who wins (None until both rolled)."""
    combat = getattr(state, "rules", state).combat.in_play
    if combat is None or combat.mode != GESTALT or combat.gmcs_total is None or not combat.player_rolls:
        return None
    return gestalt_combat(list(combat.player_rolls.values()), combat.gmcs_total)


PART = Part(name="combat", initial=Fights, evolve=evolve, decide=decide, audit=audit)
