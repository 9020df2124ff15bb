"""Keys, XP and Advances (W25-W30, lines 18-29; readings 12 and 13)."""

from __future__ import annotations

from enum import Enum

from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.will_descriptors.rules import rule

CHAPTER = "Keys"
DRAMATIC = rule(CHAPTER, "1 XP - The dramatic issue is involved in a scene 2 XP - The character encounters "
                               "significant challenges related to the theme. 5 XP - The motif progresses. Buyoff "
                               "(10XP) - The theme is discarded from the game. (W25, line 21; reading 12)")
MOTIVATION = rule(CHAPTER, "1 XP - The character expresses the motivation 3 XP - The character follows the "
                                 "motivation despite risk, personal cost, or other considerations Buyoff (10XP) - "
                                 "The character opts to let go of the trait represented by the Key (W26, line 23; "
                                 "reading 12)")
ADVANCE = rule("Advances", "Every 5 XP is an Advance. You can spend your Advances right away, or save them. "
                                 "(W27, lines 24-25)")
COST = rule("Advances", "In general, it costs 1 Advance per die to change your character. ... It costs 2 "
                              "Advances to raise or lower a 2D Descriptor one die, 3 Advances to raise or lower a 3D "
                              "Descriptor one die, and so on. (W28-W30, lines 26-28; reading 13)")
ONE_ADVANCE = rule("Advances", "1 Advance can move a 1D Descriptor to your Background (or promote a "
                                     "Background to a 1D Descriptor), or promote a 1D Descriptor to 2D, or create a "
                                     "new 1D Descriptor out of thin air (well, out of fictional positioning). A new "
                                     "Key also costs 1 Advance. (W29, line 27)")

XP_PER_ADVANCE = 5  # W27, line 24


class Framework(Enum):
    """The two kinds of Keys (lines 19-23)."""

    DRAMATIC = "dramatic"
    MOTIVATION = "motivation"


class Trigger(Enum):
    """What a Key pays for; the XP of each depends on the framework (W25, W26)."""

    INVOLVED = "involved"  # Dramatic 1: the dramatic issue is involved in a scene
    CHALLENGED = "challenged"  # Dramatic 2: significant challenges related to the theme
    PROGRESSES = "progresses"  # Dramatic 5: the motif progresses
    EXPRESSES = "expresses"  # Motivation 1: the character expresses the motivation
    DESPITE_RISK = "despite-risk"  # Motivation 3: follows it despite risk or cost
    BUYOFF = "buyoff"  # both 10: the Key is discarded (reading 12)


AWARDS: dict[Framework, dict[Trigger, int]] = {
    Framework.DRAMATIC: {Trigger.INVOLVED: 1, Trigger.CHALLENGED: 2, Trigger.PROGRESSES: 5, Trigger.BUYOFF: 10},
    Framework.MOTIVATION: {Trigger.EXPRESSES: 1, Trigger.DESPITE_RISK: 3, Trigger.BUYOFF: 10},
}


def rule_of(framework: Framework) -> Rule:
    return DRAMATIC if framework is Framework.DRAMATIC else MOTIVATION


def award(framework: Framework, trigger: Trigger, referee: Referee, key: str) -> int:
    """The XP a Key of ``framework`` pays for ``trigger`` (W25, W26); a trigger of the other framework is refused."""
    xp = AWARDS[framework].get(trigger)
    referee.require(xp is not None, rule_of(framework),
                    f"{key} is a {framework.value} Key: {trigger.value} pays it nothing")
    return xp or 0


def advances_earned(xp: int) -> int:
    """Every 5 XP is an Advance (W27, line 24)."""
    return xp // XP_PER_ADVANCE


class Change(Enum):
    """What an Advance buys (W29, line 27; W30, line 28)."""

    RAISE = "raise"  # a descriptor one die up
    LOWER = "lower"  # a descriptor one die down
    NEW_DESCRIPTOR = "new-descriptor"  # a new 1D descriptor
    TO_BACKGROUND = "to-background"  # a 1D descriptor moved to the Background
    FROM_BACKGROUND = "from-background"  # a Background entry promoted to a 1D descriptor
    NEW_KEY = "new-key"


def cost(change: Change, rating: int = 1) -> int:
    """The Advances a change costs: n to raise or lower an nD descriptor one die (W28, W30; reading 13),
    1 for each of W29's changes."""
    if change in (Change.RAISE, Change.LOWER):
        return rating
    return 1


def check_change(change: Change, rating: int | None, referee: Referee, what: str) -> None:
    """Only a 1D descriptor goes to the Background (W29), and a 1D descriptor is lowered to the
    Background, not to 0D (reading 13)."""
    if change is Change.TO_BACKGROUND:
        referee.require(rating == 1, ONE_ADVANCE, f"{what} is {rating}D: only a 1D one goes to the Background")
    if change is Change.LOWER:
        referee.require(rating is not None and rating >= 2, COST,
                        f"{what} is {rating}D: a 1D Descriptor moves to the Background instead")


def check_can_afford(unspent: int, price: int, referee: Referee, who: str) -> None:
    referee.require(unspent >= price, COST, f"{who} has {unspent} unspent Advances and this costs {price}")


def path_cost(start: int, end: int) -> int:
    """Advances to move a descriptor from ``start`` dice to ``end`` one die at a time (digest, section 2)."""
    if end >= start:
        return sum(range(start, end))
    return sum(range(end + 1, start + 1))
