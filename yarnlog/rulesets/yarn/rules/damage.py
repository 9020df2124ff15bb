"""Damage: damage factors, firearms and tasers, ammunition, and the damage a hit deals.

Implements Yarn 0.1, "Combat" › "How Much Damage?", "Firearms and Tasers" (every Gunfire Option,
Shotguns, Tasers, the Gunfire Tactics Summary), "Ammunition", "Special Effect Attacks" (half
damage), and the optional "Alternate Damage" and "Serious Wounds". :func:`damage_dealt` puts a
hit through the armor of :mod:`.armor`; the result is taken off hit points by :mod:`.hit_points`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.yarn.rules.armor import (
    UNARMORED,
    ArmorRoll,
    AttackKind,
    divide_rounding_off,
    protect,
    stops_taser,
)
from yarnlog.rulesets.yarn.rules.combat import RangeBand, hit_margin

BOOK = "Yarn 0.1"

HOW_MUCH_DAMAGE = Rule(
    BOOK,
    "Combat › How Much Damage?",
    "If you’ve scored a hit, now you take the difference between your roll and the defender’s, "
    "multiply it by a damage factor (see below), and the result is the number of points done in "
    "damage.",
)
TASER_DAMAGE = Rule(
    BOOK,
    "Combat › Damage Factor",
    "All damage from a taser is temporary. Record it separately; it all comes back when the character recovers.",
)
SHOTGUNS = Rule(
    BOOK,
    "Combat › Shotguns",
    "One shot per round. Divide damage by the number of defense dice rolled for distance.",
)
SHOTS_PER_ROUND = Rule(
    BOOK,
    "Combat › Gunfire Options",
    "Firearms of various types allow different firing tactics.",
)
RECOIL = Rule(
    BOOK,
    "Combat › Automatic Pistols",
    "You can get up to two shots per round, but the second receives a penalty die due to recoil from the first.",
)
FULL_AUTO_CLIP = Rule(
    BOOK,
    "Combat › Full Auto, One Target",
    "You must have at least 10 rounds in your clip to qualify as \"full auto.\"",
)
FULL_AUTO_SPREAD = Rule(
    BOOK,
    "Combat › Full Auto, Spread",
    "You can target one person for every five bullets fired. You cannot skip a target between two "
    "people who you do target.",
)
ARMOR_PIERCING = Rule(
    BOOK,
    "Combat › Armor-Piercing Rounds",
    "Armor-piercing rounds do half normal damage ... This reduction in armor protection comes off the "
    "damage before it is divided by 2.",
)
HOLLOW_POINT = Rule(
    BOOK,
    "Combat › Hollow Point Rounds, Safety Slugs",
    "The damage factor for a hollow point or similar bullet is +2 more than normal, but armor of all "
    "kinds has twice its normal effect.",
)
SPECIAL_EFFECT_DAMAGE = Rule(
    BOOK,
    "Combat › Special Effect Attacks",
    "When a character tries an attack that is intended to do more than just some damage, the attack "
    "roll is made normally, but only half the normal damage is done.",
)
ALTERNATE_DAMAGE = Rule(
    BOOK,
    "Optional Rules for Combat › Alternate Damage",
    "If the attacker scores a hit, they roll one die for each number in the damage factor for the "
    "weapon. If the attack roll is twice the defense roll, the attacker multiplies the result by two.",
)
SERIOUS_WOUNDS = Rule(
    BOOK,
    "Optional Rules for Combat › Serious Wounds",
    "A wound is usually a “serious wound” when at least 20 points of damage are suffered in a single blow",
)

# --- Damage factors -------------------------------------------------------------------------


class Weapon(StrEnum):
    """The rows of Table 4, Damage Factor."""

    UNARMED = "unarmed combat"
    KNIFE = "knife, lead pipe"
    SWORD = "sword, axe"
    THROWING_KNIFE = "throwing knife, slingshot"
    CROSSBOW = "crossbow, throwing axe"
    TASER = "taser"
    LIGHT_HANDGUN = "light handgun"
    LIGHT_SMG = "light SMG"
    MEDIUM_HANDGUN = "medium handgun"
    MEDIUM_SMG = "medium SMG"
    LARGE_HANDGUN = "large handgun"
    LARGE_SMG = "large SMG"
    LIGHT_RIFLE = "light rifle"
    HEAVY_RIFLE = "heavy rifle"
    SHOTGUN = "12ga shotgun"


#: Table 4, Damage Factor. The shotgun's X10 is "Divided by “distance dice”".
DAMAGE_FACTORS: Mapping[Weapon, int] = MappingProxyType(
    {
        Weapon.UNARMED: 1,
        Weapon.KNIFE: 2,
        Weapon.SWORD: 3,
        Weapon.THROWING_KNIFE: 1,
        Weapon.CROSSBOW: 2,
        Weapon.TASER: 5,
        Weapon.LIGHT_HANDGUN: 3,
        Weapon.LIGHT_SMG: 3,
        Weapon.MEDIUM_HANDGUN: 4,
        Weapon.MEDIUM_SMG: 4,
        Weapon.LARGE_HANDGUN: 5,
        Weapon.LARGE_SMG: 5,
        Weapon.LIGHT_RIFLE: 6,
        Weapon.HEAVY_RIFLE: 7,
        Weapon.SHOTGUN: 10,
    }
)

#: Weapons that fire bullets or shot: gunfire, for armor and ammunition.
GUNFIRE = frozenset(
    {
        Weapon.LIGHT_HANDGUN,
        Weapon.LIGHT_SMG,
        Weapon.MEDIUM_HANDGUN,
        Weapon.MEDIUM_SMG,
        Weapon.LARGE_HANDGUN,
        Weapon.LARGE_SMG,
        Weapon.LIGHT_RIFLE,
        Weapon.HEAVY_RIFLE,
        Weapon.SHOTGUN,
    }
)


class Ammunition(StrEnum):
    STANDARD = "standard"
    ARMOR_PIERCING = "armor-piercing"
    HOLLOW_POINT = "hollow point"  # hollow point rounds, safety slugs


#: "The damage factor for a hollow point or similar bullet is +2 more than normal"
HOLLOW_POINT_FACTOR_BONUS = 2


def damage_factor(weapon: Weapon, ammunition: Ammunition = Ammunition.STANDARD, multiplier_bonus: int = 0) -> int:
    """The multiplier of a hit: the weapon's factor, +2 for hollow points, + a burst's or full auto's bonus."""
    invalid(multiplier_bonus >= 0, "a damage multiplier bonus is not negative")
    invalid(
        weapon in GUNFIRE or (ammunition is Ammunition.STANDARD and multiplier_bonus == 0),
        f"special ammunition and automatic fire are for firearms, not {weapon}",
    )
    bonus = HOLLOW_POINT_FACTOR_BONUS if ammunition is Ammunition.HOLLOW_POINT else 0
    return DAMAGE_FACTORS[weapon] + bonus + multiplier_bonus


def attack_kind(weapon: Weapon, ammunition: Ammunition = Ammunition.STANDARD) -> AttackKind:
    """The row of the Armor/Attack Summary a weapon and its ammunition fall in."""
    if weapon not in GUNFIRE:
        return AttackKind.NORMAL
    return {
        Ammunition.STANDARD: AttackKind.BULLET,
        Ammunition.ARMOR_PIERCING: AttackKind.ARMOR_PIERCING,
        Ammunition.HOLLOW_POINT: AttackKind.HOLLOW_POINT,
    }[ammunition]


# --- Gunfire options ------------------------------------------------------------------------


class Firearm(StrEnum):
    """The kinds of firearm of "Gunfire Options", by how they fire."""

    REVOLVER = "revolver"
    AUTOMATIC_PISTOL = "automatic pistol"
    SUB_MACHINE_GUN = "sub-machine gun"
    RIFLE = "rifle"
    AUTOMATIC_RIFLE = "automatic rifle"
    SHOTGUN = "shotgun"


class FireMode(StrEnum):
    """The rows of Table 5, Gunfire Tactics Summary."""

    THREE_ROUND_BURST = "3 round burst"
    FULL_AUTO_ONE_TARGET = "full auto, 1 target"
    FULL_AUTO_SPREAD = "full auto, spread"


@dataclass(frozen=True)
class FiringOptions:
    """What a firearm can do in one round: single shots (the second with a penalty die for
    recoil) or one burst or one full-auto attack."""

    single_shots: int
    automatic: frozenset[FireMode] = frozenset()


_AUTOMATIC = frozenset(FireMode)

FIRING_OPTIONS: Mapping[Firearm, FiringOptions] = MappingProxyType(
    {
        Firearm.REVOLVER: FiringOptions(1),  # "one good shot per round"
        Firearm.AUTOMATIC_PISTOL: FiringOptions(2),  # "up to two shots per round"
        Firearm.SUB_MACHINE_GUN: FiringOptions(2, _AUTOMATIC),
        Firearm.RIFLE: FiringOptions(1),
        Firearm.AUTOMATIC_RIFLE: FiringOptions(2, _AUTOMATIC),
        Firearm.SHOTGUN: FiringOptions(1),
    }
)


def single_shot_penalty_dice(referee: Referee, firearm: Firearm, shot: int) -> int:
    """Penalty dice on the ``shot``-th single shot of a round: one on the second, for recoil."""
    invalid(shot >= 1, "shots are counted from 1")
    allowed = FIRING_OPTIONS[firearm].single_shots
    referee.require(shot <= allowed, SHOTS_PER_ROUND, f"a {firearm} fires {allowed} single shot(s) per round")
    return int(shot >= 2)


@dataclass(frozen=True)
class TacticEffect:
    """A cell of the Gunfire Tactics Summary: dice on the attack roll, bonus to the damage multiplier."""

    bonus_dice: int = 0
    penalty_dice: int = 0
    multiplier_bonus: int = 0


def _row(*cells: TacticEffect) -> Mapping[RangeBand, TacticEffect]:
    return MappingProxyType(dict(zip(RangeBand, cells, strict=True)))


_b = TacticEffect(bonus_dice=1)

#: Table 5, Gunfire Tactics Summary (columns: point blank, close, medium, long, very long).
GUNFIRE_TACTICS: Mapping[FireMode, Mapping[RangeBand, TacticEffect]] = MappingProxyType(
    {
        FireMode.THREE_ROUND_BURST: _row(
            TacticEffect(1, 0, 1), TacticEffect(1, 0, 1), _b, _b, _b
        ),
        FireMode.FULL_AUTO_ONE_TARGET: _row(
            TacticEffect(1, 0, 2), TacticEffect(1, 0, 2), TacticEffect(1, 0, 1), _b, _b
        ),
        FireMode.FULL_AUTO_SPREAD: _row(
            TacticEffect(1, 0, 1), _b, TacticEffect(), TacticEffect(penalty_dice=1), TacticEffect(penalty_dice=2)
        ),
    }
)

#: "You must have at least 10 rounds in your clip to qualify as "full auto.""
FULL_AUTO_MINIMUM_CLIP = 10
#: "You can target one person for every five bullets fired."
BULLETS_PER_SPREAD_TARGET = 5


def automatic_fire(
    referee: Referee, firearm: Firearm, mode: FireMode, band: RangeBand, *, rounds_in_clip: int
) -> TacticEffect:
    """The attack dice and multiplier bonus of a burst or full-auto attack at ``band``.

    The 10-round minimum is stated under "Full Auto, One Target" for "full auto"; we apply it to
    the spread as well, which is full auto too.
    """
    invalid(rounds_in_clip >= 0, "a clip holds no negative rounds")
    referee.require(
        mode in FIRING_OPTIONS[firearm].automatic, SHOTS_PER_ROUND, f"a {firearm} cannot fire a {mode}"
    )
    if mode is not FireMode.THREE_ROUND_BURST:
        referee.require(
            rounds_in_clip >= FULL_AUTO_MINIMUM_CLIP,
            FULL_AUTO_CLIP,
            f"{rounds_in_clip} rounds in the clip do not qualify as full auto",
        )
    return GUNFIRE_TACTICS[mode][band]


def spread_targets(
    referee: Referee, line_of_fire: Sequence[str], *, first: str, last: str, bullets_fired: int
) -> tuple[str, ...]:
    """Everyone a full-auto spread targets: the whole stretch of ``line_of_fire`` from ``first``
    to ``last``, friends included, at one target per five bullets fired.

    ``line_of_fire`` is everyone in the sweep, in the order the GM places them.
    """
    invalid(len(set(line_of_fire)) == len(line_of_fire), "each person stands once in the line of fire")
    invalid(first in line_of_fire and last in line_of_fire, "the targets stand in the line of fire")
    invalid(bullets_fired >= 0, "bullets fired are not negative")
    start, end = sorted((line_of_fire.index(first), line_of_fire.index(last)))
    targets = tuple(line_of_fire[start : end + 1])
    referee.require(
        len(targets) * BULLETS_PER_SPREAD_TARGET <= bullets_fired,
        FULL_AUTO_SPREAD,
        f"{bullets_fired} bullets cannot spread over {len(targets)} targets",
    )
    return targets


# --- The damage a hit deals -----------------------------------------------------------------


def alternate_damage(faces: Sequence[int], factor: int, *, attack_total: int, defense_total: int) -> int:
    """Optional "Alternate Damage": one die per point of damage factor, doubled when the attack
    roll is at least twice the defense roll ("2 dice times two if the attack roll is at least
    double the defense roll"). Bonus dice are not allowed on the damage roll."""
    invalid(len(faces) == factor, f"a damage factor of X{factor} rolls {factor} dice, got {len(faces)}")
    invalid(all(1 <= face <= 6 for face in faces), f"a die shows 1 to 6, got {list(faces)}")
    invalid(hit_margin(attack_total, defense_total) >= 1, "only a hit rolls damage")
    doubled = attack_total >= 2 * defense_total
    return sum(faces) * (2 if doubled else 1)


def shotgun_damage(damage: int, distance_dice: int) -> int:
    """Shotgun damage divided by the defense dice for distance, rounded off like every division
    of damage in the book."""
    invalid(distance_dice >= 1, "the distance gives at least one defense die")
    return divide_rounding_off(damage, distance_dice)


def halved(damage: int) -> int:
    """Half the damage, rounded off: armor-piercing rounds ("29 ... divided in half to 15") and
    special effect attacks."""
    return divide_rounding_off(damage, 2)


@dataclass(frozen=True)
class Hit:
    """An attack to turn into damage.

    ``multiplier_bonus`` comes from :func:`automatic_fire`; ``distance_dice`` is required for a
    shotgun; ``alternate_damage_faces`` are the dice of the optional Alternate Damage rule.
    """

    attack_total: int
    defense_total: int
    weapon: Weapon
    ammunition: Ammunition = Ammunition.STANDARD
    multiplier_bonus: int = 0
    distance_dice: int | None = None
    special_effect: bool = False
    alternate_damage_faces: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        invalid(
            (self.distance_dice is not None) == (self.weapon is Weapon.SHOTGUN),
            "a shotgun's damage is divided by the distance dice (and only a shotgun's)",
        )


@dataclass(frozen=True)
class Damage:
    """Damage dealt: ``points`` come off hit points; taser damage is ``temporary``."""

    points: int
    before_armor: int
    temporary: bool = False


def damage_dealt(hit: Hit, armor: ArmorRoll = UNARMORED) -> Damage:
    """The damage a hit does through the target's armor ("How Much Damage?" and what follows).

    Order: (attack − defense) × factor (or the alternate damage roll); the shotgun's division by
    distance dice; the armor, regular then bullet-proof; the armor-piercing halving ("after
    armor points have been deducted"); the special effect's halving of "the normal damage",
    which we read as the damage the attack would normally have done, armor included.
    """
    margin = hit_margin(hit.attack_total, hit.defense_total)
    temporary = hit.weapon is Weapon.TASER
    if margin == 0:
        return Damage(0, 0, temporary)
    factor = damage_factor(hit.weapon, hit.ammunition, hit.multiplier_bonus)
    if hit.alternate_damage_faces is None:
        raw = margin * factor
    else:
        raw = alternate_damage(
            hit.alternate_damage_faces, factor, attack_total=hit.attack_total, defense_total=hit.defense_total
        )
    if hit.distance_dice is not None:
        raw = shotgun_damage(raw, hit.distance_dice)
    if temporary:
        points = 0 if stops_taser(margin, armor) else raw
    else:
        points = protect(raw, attack_kind(hit.weapon, hit.ammunition), armor)
    if hit.ammunition is Ammunition.ARMOR_PIERCING:
        points = halved(points)
    if hit.special_effect:
        points = halved(points)
    return Damage(points, raw, temporary)


# --- Serious wounds (optional) --------------------------------------------------------------

#: "at least 20 points of damage are suffered in a single blow"
SERIOUS_WOUND_DAMAGE = 20


def usually_a_serious_wound(points: int) -> bool:
    """Whether a single blow is, as a rule, a serious wound; the GM decides and may rule otherwise."""
    return points >= SERIOUS_WOUND_DAMAGE


class SeriousWoundKind(StrEnum):
    MIS_HEALS = "mis-heals"  # compound fracture, severed tendon: heals at half rate
    LETHAL = "leads to death"  # severe infection, liver damage: loses hit points daily


@dataclass(frozen=True)
class SeriousWound:
    """A serious wound as the GM rules it. A lethal one costs ``daily_loss`` hit points a day
    ("anywhere from 1 to 15 per day, depending on the wound") until medical attention."""

    description: str
    kind: SeriousWoundKind
    daily_loss: int = 0

    def __post_init__(self) -> None:
        if self.kind is SeriousWoundKind.LETHAL:
            invalid(1 <= self.daily_loss <= 15, "a lethal serious wound costs 1 to 15 hit points a day")
        else:
            invalid(self.daily_loss == 0, "only a wound that leads to death costs hit points each day")
