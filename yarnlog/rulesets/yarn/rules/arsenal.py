"""Weapons and armor by the names players use: Yarn 0.1 "Combat" ("Damage Factor", "Gunfire Options",
"Weapon Ranges", "Armor Examples").

Resolves what a player types (``knife``, ``revolver --caliber medium``, ``reinforced jacket``) to the
rows of the book's tables in :mod:`.damage`, :mod:`.combat` and :mod:`.armor`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from yarnlog.core.referee import invalid, present
from yarnlog.rulesets.yarn.rules.armor import ARMOR_RATINGS, ARMORED_JACKET, Armor
from yarnlog.rulesets.yarn.rules.combat import RangeClass
from yarnlog.rulesets.yarn.rules.damage import GUNFIRE, Firearm, Weapon


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
        profile = present(
            _NAMED.get(key), f"unknown weapon {name!r}; known: {', '.join(sorted([*_NAMED, *map(str, Firearm)]))}"
        )
        invalid(caliber is None, f"a caliber is for a firearm kind such as revolver, not {name!r}")
        return profile
    range_class, calibers = _CALIBERS[firearm]
    if caliber is None and len(calibers) == 1:
        caliber = next(iter(calibers))
    weapon = present(calibers.get(_key(caliber or "")),
                     f"a {firearm}'s damage factor depends on its caliber: {', '.join(calibers)}")
    return WeaponProfile(weapon, firearm, range_class)


_ARMOR_ALIASES = {"reinforced jacket": ARMORED_JACKET}  # "a reinforced jacket (rating: 1)", "Armor Examples"


def armor_named(name: str) -> Armor:
    """An armor of the Armor Ratings table by name ("plate mail", "bullet-proof vest", ...)."""
    found = {_key(a.name): a for a in ARMOR_RATINGS.values()} | _ARMOR_ALIASES
    return present(found.get(_key(name)), f"unknown armor {name!r}; known: {', '.join(sorted(found))}")
