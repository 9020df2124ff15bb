"""The roll: 3d6 plus or minus extra dice, keep the best or the worst three (DP6-DP10).

With ``net = bonus dice - penalty dice`` a character rolls ``3 + |net|`` d6 and keeps the highest
three when the net is zero or more, the lowest three when it is negative (lines 69, 176-178, 194),
so every total is 3 to 18. There is no cap on the dice added (DP10, line 180).
"""

from __future__ import annotations

from collections.abc import Sequence

from yarnlog.core.referee import Rule, invalid
from yarnlog.rulesets.dramatis_personae.rules import BOOK

KEEP_THREE = Rule(
    f"{BOOK} (DP8, line 69; DP9, line 194)", "Using the Dice Pool",
    "No matter how many dice are added only 3d6 are counted for the roll. If the net bonuses are positive"
    " then the top 3d6 are counted. If they are negative, then the bottom 3d6 are counted.")
KEPT = 3
SIDES = 6


def dice_to_roll(net: int) -> int:
    """3d6 and one more die per net bonus or penalty die (DP8, line 69; DP9, line 194)."""
    return KEPT + abs(net)


def keeps_highest(net: int) -> bool:
    """A net of zero or more keeps the top three, a negative net the bottom three (DP8, DP9)."""
    return net >= 0


def check_faces(faces: Sequence[int], dice: int, what: str = "the roll") -> None:
    """The faces entered are ``dice`` faces of a d6."""
    invalid(len(faces) == dice, f"{what} needs {dice}d6: enter {dice} faces, not {len(faces)}")
    invalid(all(1 <= face <= SIDES for face in faces), f"a d6 shows 1 to 6: {list(faces)} is not a throw of d6")


def kept_three(faces: Sequence[int], net: int) -> tuple[int, int, int]:
    """The three dice counted: the highest three for a net of zero or more, else the lowest (DP8, DP9)."""
    check_faces(faces, dice_to_roll(net))
    ordered = sorted(faces, reverse=keeps_highest(net))
    return ordered[0], ordered[1], ordered[2]


def improved(kept: Sequence[int], extra: Sequence[int]) -> tuple[int, int, int]:
    """Dice added after the roll: each is rolled, then the best three of the kept dice and the new
    ones count (reading 8; melee, DP29, line 192; penalty dice accepted after a roll, line 61)."""
    invalid(len(kept) == KEPT, f"three dice are kept, not {len(kept)}")
    check_faces(extra, len(extra), "the dice added after the roll")
    best = sorted((*kept, *extra), reverse=True)
    return best[0], best[1], best[2]
