"""Armor: regular and bullet-proof armor, and what each stops of each kind of attack.

Implements Yarn 0.1, "Combat" › "Armor" (Regular Armor, Bullet-Proof Armor, the Armor Ratings
and Armor/Attack Summary tables) and the appendix "Armor Examples". Armor is rolled for each
attack that does damage; the roll is data passed in (:class:`ArmorRoll`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from yarnlog.core.referee import InvalidCommand, Rule, invalid

BOOK = "Yarn 0.1"

REGULAR_ARMOR = Rule(
    BOOK,
    "Combat › Regular Armor",
    "The rating for regular armor represents the number of dice rolled and deducted from each attack.",
)
VERY_LIGHT_ARMOR = Rule(
    BOOK,
    "Combat › Regular Armor",
    "Very light armor (generally leather clothes and the like) has a rating of “1 pt.” It stops only "
    "one point of damage versus normal attacks.",
)
HEAVY_ARMOR = Rule(
    BOOK,
    "Combat › Regular Armor",
    "Heavy armor can slow you down, causing you to take a penalty roll on every action that requires "
    "agility (including attack and defense rolls). Note that encumbrance from armor does not affect "
    "firearm attack rolls.",
)
STACKING = Rule(
    BOOK,
    "Combat › Regular Armor",
    "The protection offered by armor is cumulative, but “stacking” armor causes a penalty die for each "
    "extra layer of armor worn.",
)
HALF_AGAINST_GUNFIRE = Rule(
    BOOK,
    "Combat › Regular Armor",
    "Regular armor, described earlier, is only half as effective (round down) versus gunfire.",
)
BULLET_PROOF_ARMOR = Rule(
    BOOK,
    "Combat › Bullet-Proof Armor",
    "The rating for bullet-proof armor represents the number of dice rolled when hit by a bullet or "
    "shotgun. Divide the damage by this number. (On a roll of a 1, the armor has no effect, meaning "
    "that the bullet hit an area not protected by the armor.)",
)
BOTH_TYPES = Rule(
    BOOK,
    "Combat › Bullet-Proof Armor",
    "When a character wears both types of armor, handle the regular armor first, and then the "
    "bullet-proof armor.",
)
ROUNDED_OFF = Rule(
    BOOK,
    "Appendix: Easy Gunfire Example",
    "Six divided by 4 is one and a half, rounded off is 2 points of damage.",
)
TASER_VERSUS_ARMOR = Rule(
    BOOK,
    "Combat › Tasers",
    "Roll the dice for armor as if for a normal (non-bullet) attack. If the dice match or exceed the "
    "number by which the attack roll exceeded the defense roll, the armor has prevented the taser "
    "from penetrating, and you take no damage.",
)


def divide_rounding_off(amount: int, divisor: int) -> int:
    """``amount / divisor`` rounded off the book's way: to the nearest point, halves up.

    The book's divisions of damage all "round off": 6 / 4 = 1.5 gives 2 ("Easy Gunfire Example"),
    10 / 8 = 1.25 gives 1 and 29 / 2 gives 15 ("Example of Armor-Piercing Rounds and Hollow Point").
    """
    invalid(amount >= 0 and divisor >= 1, f"cannot divide {amount} damage by {divisor}")
    return (2 * amount + divisor) // (2 * divisor)


class ArmorType(StrEnum):
    """The columns of the Armor/Attack Summary table."""

    REGULAR = "normal"
    BULLET_PROOF = "bullet-proof"


class AttackKind(StrEnum):
    """The rows of the Armor/Attack Summary table: what the armor is up against."""

    NORMAL = "normal"
    BULLET = "bullet"  # bullets and shotgun shot
    ARMOR_PIERCING = "armor piercing"
    HOLLOW_POINT = "hollow point"  # and safety slugs


class Protection(StrEnum):
    """The table's legend: how one type of armor reduces the damage of one kind of attack."""

    FULL = "full"  # subtract full roll for the armor from damage
    HALF = "half"  # subtract half the roll for the armor from damage
    MINIMUM = "minimum"  # subtract number of dice (not roll itself) from damage
    DOUBLE = "double"  # subtract double the roll from damage
    DIVIDE = "divide"  # divide damage by roll
    DIVIDE_DOUBLE = "divide double"  # divide damage by double the roll


#: Table 7, Armor/Attack Summary.
ARMOR_ATTACK_SUMMARY: Mapping[AttackKind, Mapping[ArmorType, Protection]] = MappingProxyType(
    {
        attack: MappingProxyType({ArmorType.REGULAR: regular, ArmorType.BULLET_PROOF: bullet_proof})
        for attack, regular, bullet_proof in (
            (AttackKind.NORMAL, Protection.FULL, Protection.MINIMUM),
            (AttackKind.BULLET, Protection.HALF, Protection.DIVIDE),
            (AttackKind.ARMOR_PIERCING, Protection.MINIMUM, Protection.MINIMUM),
            (AttackKind.HOLLOW_POINT, Protection.DOUBLE, Protection.DIVIDE_DOUBLE),
        )
    }
)


@dataclass(frozen=True)
class Armor:
    """One layer of armor. ``dice`` and ``points`` are its regular rating, ``bullet_proof_dice`` its "b".

    Regular armor is rated in dice, except very light armor, rated "1 pt." (a fixed point).
    ``heavy`` is the "Penalty?" column of the Armor Ratings table.
    """

    name: str
    dice: int = 0
    points: int = 0
    bullet_proof_dice: int = 0
    heavy: bool = False

    def __post_init__(self) -> None:
        invalid(min(self.dice, self.points, self.bullet_proof_dice) >= 0, f"{self.name}: ratings are not negative")


# Table 6, Armor Ratings. The table prints Leathers and Armored Jacket both as "1", but the text
# tells them apart: leathers are very light armor ("1 pt."; "thick leathers ... add 1 point"),
# while the (reinforced) jacket rolls a die ("rolls 3 for the armor"; "would stop 1 die of damage").
LEATHERS = Armor("Leathers", points=1)
ARMORED_JACKET = Armor("Armored Jacket", dice=1)
PLATE_MAIL = Armor("Plate Mail", dice=2, heavy=True)
BULLET_PROOF_VEST = Armor("Bullet-proof Vest", bullet_proof_dice=1)
BULLET_PROOF_SUIT = Armor("Bullet-proof Suit", bullet_proof_dice=2)
MILITARY_BODY_ARMOR = Armor("Military Body Armor", dice=3, bullet_proof_dice=2, heavy=True)

ARMOR_RATINGS: Mapping[str, Armor] = MappingProxyType(
    {
        armor.name: armor
        for armor in (LEATHERS, ARMORED_JACKET, PLATE_MAIL, BULLET_PROOF_VEST, BULLET_PROOF_SUIT, MILITARY_BODY_ARMOR)
    }
)


@dataclass(frozen=True)
class ArmorRoll:
    """The armor a character wears when hit, and what its dice showed against this attack.

    ``regular_roll`` is the total of all regular armor dice worn (fixed points not included);
    ``bullet_proof_roll`` the total of all bullet-proof dice. Leave a roll ``None`` when the
    attack does not call for it (bullet-proof armor is only rolled against bullets).
    """

    worn: tuple[Armor, ...] = ()
    regular_roll: int | None = None
    bullet_proof_roll: int | None = None

    def __post_init__(self) -> None:
        _check_roll(self.regular_roll, self.regular_dice, "regular armor")
        _check_roll(self.bullet_proof_roll, self.bullet_proof_dice, "bullet-proof armor")

    @property
    def regular_dice(self) -> int:
        return sum(armor.dice for armor in self.worn)

    @property
    def regular_points(self) -> int:
        return sum(armor.points for armor in self.worn)

    @property
    def bullet_proof_dice(self) -> int:
        return sum(armor.bullet_proof_dice for armor in self.worn)


def _check_roll(roll: int | None, dice: int, what: str) -> None:
    if roll is None:
        return
    invalid(dice >= 1, f"no {what} is worn, so none can be rolled")
    invalid(dice <= roll <= 6 * dice, f"{dice} dice of {what} cannot roll {roll}")


def _needed_roll(roll: int | None, what: str) -> int:
    if roll is None:
        raise InvalidCommand(f"this attack calls for a roll of the {what}")
    return roll


UNARMORED = ArmorRoll()


def regular_protection(attack: AttackKind, armor: ArmorRoll) -> int:
    """Points of damage the regular armor worn stops against ``attack`` (Armor/Attack Summary)."""
    if armor.regular_dice == 0 and armor.regular_points == 0:
        return 0
    method = ARMOR_ATTACK_SUMMARY[attack][ArmorType.REGULAR]
    if method is Protection.MINIMUM:
        # "Subtract the rating of the armor from damage" ("Armor-Piercing Rounds").
        return armor.regular_dice + armor.regular_points
    rolled = armor.regular_points
    if armor.regular_dice:
        rolled += _needed_roll(armor.regular_roll, "regular armor")
    if method is Protection.HALF:
        return rolled // 2
    if method is Protection.DOUBLE:
        return 2 * rolled
    return rolled


def after_bullet_proof(damage: int, attack: AttackKind, armor: ArmorRoll) -> int:
    """Damage left once the bullet-proof armor worn has done its part against ``attack``."""
    if armor.bullet_proof_dice == 0:
        return damage
    method = ARMOR_ATTACK_SUMMARY[attack][ArmorType.BULLET_PROOF]
    if method is Protection.MINIMUM:
        return max(0, damage - armor.bullet_proof_dice)
    roll = _needed_roll(armor.bullet_proof_roll, "bullet-proof armor")
    if roll == 1:
        # "On a roll of a 1, the armor has no effect": the bullet found an unprotected spot, so
        # the doubling for hollow points does not rescue it either.
        return damage
    divisor = 2 * roll if method is Protection.DIVIDE_DOUBLE else roll
    return divide_rounding_off(damage, divisor)


def protect(damage: int, attack: AttackKind, armor: ArmorRoll) -> int:
    """Damage that gets through the armor worn: regular armor first, then bullet-proof armor.

    "Only the points in excess of the armor's rating can do damage", so it is never negative.
    """
    invalid(damage >= 0, f"damage is not negative, got {damage}")
    after_regular = max(0, damage - regular_protection(attack, armor))
    return after_bullet_proof(after_regular, attack, armor)


def protection_against_normal_attack(armor: ArmorRoll) -> int:
    """What the armor worn subtracts from a normal (non-bullet) attack: the taser test uses it."""
    return regular_protection(AttackKind.NORMAL, armor) + armor.bullet_proof_dice


def stops_taser(margin: int, armor: ArmorRoll) -> bool:
    """Whether the armor keeps a taser out: "either the armor stops the taser or it doesn't".

    ``margin`` is the number by which the attack roll exceeded the defense roll.
    """
    return margin >= 1 and protection_against_normal_attack(armor) >= margin


def armor_penalty_dice(worn: tuple[Armor, ...], *, firearm_attack: bool = False) -> int:
    """Penalty dice armor gives on actions that require agility (attack and defense included).

    One per heavy layer and one per extra layer: "thick leathers under their plate mail ... two
    penalty dice on agility-related actions (one for the plate mail, the other for the extra
    layer of armor)". We read the stacking penalty as encumbrance too, so neither applies to a
    firearm attack roll.
    """
    if firearm_attack:
        return 0
    return sum(armor.heavy for armor in worn) + max(0, len(worn) - 1)
