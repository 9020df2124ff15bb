"""Yarn 0.1's "Personal Consequences": the breaks of a roll and the consequence rolls they bring.

Breaks are counted on the kept dice, as every rule reading faces is (see :mod:`.dice`). The rules
cited are :data:`.dice.BREAKS`, :data:`.dice.GOOD_CONSEQUENCE` and :data:`.dice.BAD_CONSEQUENCE`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import invalid
from yarnlog.rulesets.yarn.rules.dice import SIDES, RollResult

BREAK_COUNT = 2



@dataclass(frozen=True)
class Breaks:
    """The breaks of one roll: good for 2 or more 6's, bad for 2 or more 1's (both can happen)."""

    good: bool
    bad: bool


def breaks(result: RollResult) -> Breaks:
    """The breaks of a roll ("Breaks"), counted on the kept dice (see the module's note)."""
    kept = result.kept_faces
    return Breaks(good=kept.count(SIDES) >= BREAK_COUNT, bad=kept.count(1) >= BREAK_COUNT)


class Consequence(Enum):
    GOOD = "good"  # an advantage the character can benefit from in an upcoming scene
    BAD = "bad"  # an additional obstacle the character must resolve in an upcoming scene


def consequence_rolls(scene_breaks: Iterable[Breaks]) -> tuple[Consequence, ...]:
    """The 1d6 rolls a character makes at the end of a procedural scene ("Resulting Personal
    Consequences"): one for a good consequence if she had a good break in the scene, one for a
    bad consequence if she had a bad break. One roll each, however many breaks of that kind; the
    book's "roll 1d6 if you had a good break" in the bad-break sentence is read as "bad break".
    """
    scene_breaks = list(scene_breaks)
    rolls = []
    if any(b.good for b in scene_breaks):
        rolls.append(Consequence.GOOD)
    if any(b.bad for b in scene_breaks):
        rolls.append(Consequence.BAD)
    return tuple(rolls)


def has_consequence(kind: Consequence, face: int) -> bool:
    """Whether a consequence roll brings the consequence: a 6 for good, a 1 for bad."""
    invalid(type(face) is int and 1 <= face <= SIDES, f"a consequence roll is one die, 1 to {SIDES}, got {face!r}")
    return face == (SIDES if kind is Consequence.GOOD else 1)
