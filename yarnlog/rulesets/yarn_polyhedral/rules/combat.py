"""Attacks: defense, distance, the margin as a budget, weapons, protection, resistance and severity.

An attacker declares a location, rolls against the target's defense (plus a point per distance
increment), and spends the margin: the location costs its number (reading 5), melee damage takes
up to the strength rank more (P41), knock-back the rest. Damage is fixed (P42); protection comes
off; what clears it is the challenge of the target's resistance roll, whose result is the
injury's severity (P45, P46; reading 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.yarn_polyhedral.rules import rule

CHAPTER = "Attacking"
MARGIN_SPLIT = rule(CHAPTER, "If you succeed, you can use margin as a resource for that attack. You can "
                             "split your margin up between uses. (line 279)")
LOCATION = rule(CHAPTER, "When you've announced a location in your attack, and your margin is at least "
                         "equal to the location number, then you can use that margin to make it a more "
                         "specific injury. (line 331)")
MELEE_LIMIT = rule(CHAPTER, "For melee attacks, the limit for extra damage is your strength rank. (line 283)")
RANGED_DAMAGE = rule("Weapons", "Only melee weapons add the margin (+m) to damage (lines 625-637; "
                                "reading 10)")
NOT_BOTH = rule("Defense", "You can't both evade and actively defend. (line 307)")
DEFENSE_RULE = rule("Defense", "Your defense, assuming you're fully mobile and aware, starts with your "
                               "dexterity rank. To this you add other factors, such as distance, lighting, "
                               "cover, etc... If you're actively defending, also add your skill rank if "
                               "applicable. (line 307)")
REACH = rule("Melee reach", "A long weapon can attack someone in an adjacent zone. A short weapon or punch "
                            "can attack if you've closed. (lines 293-295)")


@dataclass(frozen=True)
class Weapon:
    """A weapon of the table (P43, lines 625-637): melee adds strength and margin."""

    name: str
    damage: int
    melee: bool
    reach: str  # "close", "0" (same zone), "1" (adjacent zone), or a ranged increment
    steps: int
    increment: int = 0
    armor_doubled: bool = False


# Step costs from the weapon table where it gives them, else the step table (reading 8).
WEAPONS = {w.name: w for w in (
    Weapon("punch", 0, True, "close", 2),
    Weapon("kick", 1, True, "0", 3),
    Weapon("knife", 2, True, "close", 2),
    Weapon("short sword", 3, True, "0", 3),
    Weapon("long sword", 4, True, "0", 3),
    Weapon("rapier", 4, True, "0", 3),
    Weapon("pistol", 10, False, "ranged", 2, increment=2),
    Weapon("rifle", 12, False, "ranged", 3, increment=4),
    Weapon("shotgun", 14, False, "ranged", 3, increment=2, armor_doubled=True),
    Weapon("spear", 4, True, "1", 3),
    Weapon("glaive", 5, True, "1", 3),
    Weapon("great axe", 6, True, "1", 3),
)}

# Protection by armour (P44, lines 655-670): the advanced armours give a range, the lowest here.
ARMOR = {"heavy cloth": 1, "leather": 2, "heavy leather": 3, "chain mail": 4, "scale mail": 5,
         "partial plate": 6, "plate mail": 7, "ballistic": 8, "light advanced": 10,
         "medium advanced": 12, "heavy advanced": 15}


@dataclass(frozen=True)
class Location:
    """A location to declare: the margin it needs and the severity (in healths) of its effect."""

    name: str
    margin: int
    effect: str
    healths: Fraction | None = None


# P48, lines 643-653; reading 11: an effect comes when the injury's severity reaches its share.
LOCATIONS = {loc.name: loc for loc in (
    Location("arm", 3, "severity is the penalty for that arm"),
    Location("leg", 3, "severity slows relative speed"),
    Location("weapon", 4, "drops the weapon", Fraction(1)),
    Location("hand", 5, "incapacitated", Fraction(1)),
    Location("head", 6, "unconscious", Fraction(1)),
    Location("neck", 7, "breathing impaired", Fraction(1)),
    Location("eye", 8, "blind", Fraction(1, 2)),
    Location("heart/lungs", 9, "soon fatal", Fraction(1)),
    Location("brain", 10, "instant death", Fraction(1)),
)}
EXISTING_INJURY = 1  # "injury +1: Adds to injury's severity" (line 653)


def location_margin(location: str, existing_injury: bool = False) -> int:
    """The margin a declared location needs; an existing injury there needs one more (P48)."""
    return LOCATIONS[location].margin + (EXISTING_INJURY if existing_injury else 0)


def effect_threshold(location: str, health: int) -> int | None:
    """The severity at which a location's effect comes: its share of health, rounded down
    (P48; reading 11; P3, line 23)."""
    healths = LOCATIONS[location].healths
    return None if healths is None else int(healths * health)


def defense(dexterity: int, factors: int = 0, *, active_skill: int | None = None,
            evading: bool = False, referee: Referee | None = None) -> int:
    """The target's defense: dexterity + factors + the skill rank when actively defending (P37)."""
    if referee is not None:
        referee.require(not (evading and active_skill is not None), NOT_BOTH,
                        "a character cannot both evade and actively defend")
    return dexterity + factors + (active_skill or 0)


def check_reach(weapon: Weapon, zones: int, referee: Referee) -> None:
    """A melee weapon hits in its own zone; a long weapon also in the adjacent zone (P43, lines
    291-295). A gun's distance is a penalty instead (P38)."""
    invalid(zones >= 0, "zones are counted from 0")
    if weapon.melee:
        reach = 1 if weapon.reach == "1" else 0
        referee.require(zones <= reach, REACH, f"a {weapon.name} reaches {'the next zone' if reach else 'its own zone'}"
                                               f", not {zones} zones away")


def distance_penalty(zones: int, increment: int, aiming_marksman: bool = False) -> int:
    """+1 challenge per full increment of distance, none under one (P38, line 303); a marksman
    who takes a step to aim has an increment one longer (P39, line 462)."""
    if increment <= 0:
        return 0
    return zones // (increment + (1 if aiming_marksman else 0))


@dataclass(frozen=True)
class MarginUse:
    """How an attack's margin is split (P40): the location bought, extra damage, knock-back."""

    location: str | None = None
    existing_injury: bool = False
    damage: int = 0
    knock_back: int = 0

    @property
    def location_cost(self) -> int:
        return 0 if self.location is None else location_margin(self.location, self.existing_injury)

    @property
    def spent(self) -> int:
        return self.location_cost + self.damage + self.knock_back


def spend_margin(margin: int, use: MarginUse, weapon: Weapon, strength: int, referee: Referee) -> MarginUse:
    """Check a split of the margin: within the margin of a hit (P40), extra damage only in melee
    (reading 10) and no more than the strength rank (P41)."""
    invalid(use.damage >= 0 and use.knock_back >= 0, "margin spent is counted from 0")
    invalid(use.location is None or use.location in LOCATIONS, f"no location called {use.location}")
    referee.require(margin >= 0 or use.spent == 0, MARGIN_SPLIT, "a miss has no margin to spend")
    referee.require(use.spent <= max(margin, 0), LOCATION if use.location else MARGIN_SPLIT,
                    f"the margin is {margin}; {use.spent} cannot be spent")
    if use.damage:
        referee.require(weapon.melee, RANGED_DAMAGE, f"the margin cannot raise a {weapon.name}'s damage")
        referee.require(use.damage <= strength, MELEE_LIMIT,
                        f"extra melee damage is at most the strength rank, {strength}")
    return use


def damage(weapon: Weapon, strength: int, extra: int = 0) -> int:
    """Damage, never rolled (P42): melee is strength + the weapon + margin spent (P41); a gun's
    is its number (P43)."""
    return strength + weapon.damage + extra if weapon.melee else weapon.damage


def cleared(damage_dealt: int, protection: int, armor_doubled: bool = False) -> int:
    """Damage that clears protection (P44, line 319); a shotgun doubles armour (line 634)."""
    return max(0, damage_dealt - protection * (2 if armor_doubled else 1))


def severity(total: int, challenge: int) -> int:
    """A resistance roll's severity: 1 on a success, else 1 + the shortfall (P46; reading 3)."""
    return 1 if total >= challenge else 1 + (challenge - total)


def severity_penalty(total_severity: int, health: int) -> int:
    """+1 to every roll's challenge per full health of total severity (P47, line 327; reading 4)."""
    return total_severity // health if health > 0 else 0
