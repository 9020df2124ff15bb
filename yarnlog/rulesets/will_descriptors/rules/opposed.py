"""The opposed roll: highest single die wins, tied pairs cancel, successes beat the loser's high die.

W7-W11 (lines 5-7) and the digest's algorithm: sort each side high to low, find the first index
where the two differ; the side with the higher die there wins; the TN is the loser's die at that
index (its highest left after cancelling, reading 4); successes are the winner's dice from that
index on strictly above the TN. All compared pairs tied: the side with more dice wins with one
success (W10); the same size and the same faces: a stalemate the GM shifts (W11). A side with no
dice is the degenerate all-tied case (reading 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Rule
from yarnlog.rulesets.will_descriptors.rules import rule

CHAPTER = "Opposed rolls"
HIGHEST_WINS = rule(CHAPTER, "You and your opponent both roll; whoever rolls the highest number on a "
                                   "single die wins. The number of successes is the number of dice that beat "
                                   "the loser's highest die. (W7-W8, line 5; reading 4)")
TIED_PAIRS = rule(CHAPTER, "If both sides have the same highest die, ignore that pair and look at the "
                                 "next two dice. If all the dice are tied, the side who rolled more dice wins, "
                                 "with one success. (W9-W10, line 6)")
STALEMATE = rule(CHAPTER, "If both sides have the same size pools and rolled exactly the same roll then "
                                "it's a real stalemate, and the GM shifts the situation. (W11, line 7)")


class Side(Enum):
    """The two sides of an opposed roll: the one who acts (A) and the one who opposes (B)."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


@dataclass(frozen=True)
class Outcome:
    """Who won (``None``: a stalemate), with how many successes, against which TN.

    ``cancelled`` is how many tied pairs were ignored (W9); ``tn`` is the loser's highest die left
    after them (``None`` when the winner won by having more dice, W10); ``rule`` decides it.
    """

    winner: Side | None
    successes: int
    cancelled: int
    tn: int | None
    rule: Rule

    @property
    def stalemate(self) -> bool:
        return self.winner is None


def resolve(faces_a: Sequence[int], faces_b: Sequence[int]) -> Outcome:
    """The outcome of side A's faces against side B's (W7-W11)."""
    a = sorted(faces_a, reverse=True)
    b = sorted(faces_b, reverse=True)
    common = min(len(a), len(b))
    i = next((k for k in range(common) if a[k] != b[k]), None)
    if i is None:
        if len(a) == len(b):
            return Outcome(None, 0, common, None, STALEMATE)
        longer = Side.A if len(a) > len(b) else Side.B
        return Outcome(longer, 1, common, None, TIED_PAIRS)
    winner, win, lose = (Side.A, a, b) if a[i] > b[i] else (Side.B, b, a)
    tn = lose[i]
    successes = sum(1 for face in win[i:] if face > tn)
    return Outcome(winner, successes, i, tn, TIED_PAIRS if i else HIGHEST_WINS)
