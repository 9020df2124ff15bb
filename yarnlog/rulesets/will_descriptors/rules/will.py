"""Will: the fund that activates descriptors (W1-W6, lines 2-4; readings 8, 9 and 15)."""

from __future__ import annotations

from yarnlog.core.referee import Referee
from yarnlog.rulesets.will_descriptors.rules import rule

CHAPTER = "Will"
DEFAULT_STARTING_WILL = 9  # W1, line 2 ("pending playtest": a campaign setting, reading 15)
DEFAULT_SIDES = 10  # W4, line 3 ("for now, the default is d10": a campaign setting, reading 15)

STARTING_WILL = rule(CHAPTER, "Each character has a fund of Will points, arbitrarily set to start "
                                    "at 9 (pending playtest). (W1, line 2)")
OUT_AT_ZERO = rule(CHAPTER, "If a character ever has 0 Will points, they are out of the scene and "
                                  "must have a Refreshment Scene to restore their Will fund before they "
                                  "can participate in other future scenes. (W3, line 2)")
ACTIVATION = rule("Descriptors", "Before rolling, spend one point of your Will for each Descriptor "
                                       "that contributes dice to your pool. (W5, line 4; reading 8)")
USED_AGAINST = rule("Descriptors", "When one of your Descriptors is used against you in this way, "
                                         "add one to your Will. (W6, line 4)")
POOL = rule("Descriptors", "Before rolling, spend one point of your Will for each Descriptor that contributes "
                          "dice to your pool. Your Descriptors can contribute dice to your opponent's pool if it "
                          "makes sense that those Descriptors would work against you. (W5-W6, line 4)")
RATING = rule("Descriptors", "Die ratings are number of dice, not type/sides. (W4, line 3)")

ACTIVATION_COST = 1  # W5, line 4; also invoking a Scene Descriptor (W13, line 10)
USED_AGAINST_GAIN = 1  # W6, line 4


def check_rating(dice: int, referee: Referee, what: str) -> None:
    """A descriptor's rating is a number of dice, at least one (W4, line 3)."""
    referee.require(dice >= 1, RATING, f"{what} is rated {dice}D: a rating is a number of dice, 1D or more")


def check_pool_source(owner: str, roller: str, opponent: str, referee: Referee, what: str) -> None:
    """An opposed roll's pool takes the roller's own Descriptors and the opponent's used against them,
    no third character's (W5-W6, lines 3-4 name no other source)."""
    referee.require(owner in (roller, opponent), POOL, f"{owner}'s {what}: {owner} is not in this roll")


def check_can_pay(will: int, cost: int, referee: Referee, who: str) -> None:
    """Nobody spends Will they do not have (W5, reading 8)."""
    referee.require(will >= cost, ACTIVATION, f"{who} has {will} Will and cannot pay {cost}")


def out_of_will(will: int) -> bool:
    """0 Will: out of the scene until a Refreshment scene (W3, line 2)."""
    return will <= 0


def refreshed_will(will: int, starting: int) -> int:
    """Refreshment raises Will to its starting value; Will above it is kept (W23, line 16)."""
    return max(will, starting)
