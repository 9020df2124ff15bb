"""Harm on the Power track, and Injuries (W15-W20, lines 11-12; readings 1-3 and 10).

The track is a row of numbered boxes 1..length, its length a campaign setting chosen at ``init``
(reading 1). The loser crosses off the box numbered as the winner's successes, or takes an Injury
of that many dice instead (W16; reading 3). Collision: that box already crossed, the next higher
open box is crossed AND an Injury equal to the box crossed now is taken (W17; reading 2). Successes
beyond the track cross its highest box (reading 3). The highest box crossed: out of the scene (W18).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.will_descriptors.rules import rule

CHAPTER = "What does success do?"
CROSS_OFF = rule(CHAPTER, "the loser crosses off the box on their Power track equal to the number of "
                                "successes that the winner rolled. (W15, line 11; reading 3)")
INJURY_INSTEAD = rule(CHAPTER, "If the loser would rather not cross off a box, they can create an Injury "
                                     "for their character instead. (W16, line 11; reading 3)")
COLLISION = rule(CHAPTER, "If the box is already crossed off, cross off the next highest available box "
                                "AND create an Injury equal to the box that was crossed off! (W17, line 11; "
                                "reading 2)")
OUT_AT_TOP = rule(CHAPTER, "If the last (highest) box of the Power track is crossed off, you're out of "
                                 "the scene. (W18, line 11)")
INJURY = rule("Injuries", "You make a Recovery roll against an Injury to get rid of it; just reduce the "
                                "Injury by the number of successes you roll. (W20, line 12; reading 10)")
TRACK_LENGTH = rule(CHAPTER, "The Power track's boxes are numbered; the draft never says how many: a "
                                   "campaign setting (reading 1)")


@dataclass(frozen=True)
class Harm:
    """What a loser takes: the box crossed now (``None`` if none), an Injury's dice (0 if none),
    whether the box collided with one crossed before, and whether the track's highest box is now
    crossed (out of the scene, W18)."""

    box: int | None
    injury: int
    collided: bool
    out: bool
    rule: Rule


def check_track_length(length: int, referee: Referee) -> None:
    referee.require(length >= 1, TRACK_LENGTH, f"a Power track of {length} boxes: it needs one box or more")


def take_harm(successes: int, crossed: Collection[int], length: int, injury_instead: bool = False) -> Harm:
    """The harm of ``successes`` on a track of ``length`` boxes with ``crossed`` already crossed off.

    ``injury_instead``: the loser takes an Injury of the successes' dice instead of a box (W16).
    A track whose highest box is crossed takes no more boxes (its owner is out, W18): the harm is
    then the collision's Injury alone (the box and every higher one are crossed).
    """
    if successes < 1:
        raise ValueError("harm follows a win, which has one success or more")
    if injury_instead:
        return Harm(None, successes, False, length in crossed, INJURY_INSTEAD)
    box = min(successes, length)  # reading 3: beyond the track, its highest box
    if box not in crossed:
        return Harm(box, 0, False, box == length or length in crossed, CROSS_OFF if box < length else OUT_AT_TOP)
    higher = next((b for b in range(box + 1, length + 1) if b not in crossed), None)
    if higher is None:
        return Harm(None, box, True, True, COLLISION)
    return Harm(higher, higher, True, higher == length, COLLISION)


def is_out(crossed: Collection[int], length: int) -> bool:
    """The highest box crossed off: out of the scene (W18, line 11)."""
    return length in crossed


def recovered(injury: int, successes: int) -> int:
    """The Injury's dice after a Recovery roll's successes, die for die; 0 means it is gone (W20, reading 10)."""
    return max(0, injury - successes)
