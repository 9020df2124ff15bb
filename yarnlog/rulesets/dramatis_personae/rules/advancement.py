"""Saved dice, the dice pool, dice debt and levels (DP33-DP39, lines 61-71).

A character keeps three balances: saved good dice and saved bad dice awarded by the GM (kept apart,
reading 9), the adventure's pool of level² floating bonus dice, and dice debt: a die added with the
pool empty owes two penalty dice, applied to later rolls when the GM says so (reading 3).
"""

from __future__ import annotations

from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.dramatis_personae.rules import BOOK

POOL = Rule(
    f"{BOOK} (DP33-DP34, line 67)", "The Dice Pool",
    "The number of such bonus dice available in an adventure is equal to the square of the level ... once"
    " used they cannot be used again until the next adventure or the GM determines they are available "
    "again.")
DEBT = Rule(
    f"{BOOK} (DP36, lines 69-71; owed to later rolls, reading 3)", "Using the Dice Pool",
    "Characters may add dice to the to a roll even if they have no more bonus dice left. However this "
    "incurs a dice debt. For every die added in this way, two penalty dice are added to the dice pool.")
LEVEL_COST = Rule(
    f"{BOOK} (DP38, line 65)", "Advancing Levels",
    "To attain 1st level a character must acquire dice equal to 10 times the level desired. Thus 1st "
    "level require 10 bonus dice, 2nd level 20 bonus dice, 3rd level requires 30 ... Once dice are used "
    "to advance in level they are lost.")
BETWEEN_ADVENTURES = Rule(
    f"{BOOK} (DP39, line 61)", "Advancement through Experience",
    "(although they should never be used to advance a level except between adventures)")
ONE_LEVEL = Rule(
    f"{BOOK} (DP38, line 65: levels are bought one at a time)", "Advancing Levels",
    "To attain 1st level a character must acquire dice equal to 10 times the level desired.")
SAVED = Rule(
    f"{BOOK} (DP37, lines 61-63: a character spends only the dice saved)", "Advancement through Experience",
    "Dice can be used in two ways: to advance in levels and to affect various challenge and contest "
    "rolls.")
OWED = Rule(
    f"{BOOK} (DP36, line 69; reading 3: the GM applies at most the debt owed)", "Using the Dice Pool",
    "For every die added in this way, two penalty dice are added to the dice pool.")
DEBT_PER_DIE = 2
COST_PER_LEVEL = 10


def pool_size(level: int) -> int:
    """Floating bonus dice per adventure: the square of the level (DP33, line 67)."""
    return level * level


def level_cost(new_level: int) -> int:
    """Saved adventure bonus dice to attain ``new_level``: 10 × that level (DP38, line 65)."""
    return COST_PER_LEVEL * new_level


@dataclass(frozen=True)
class PoolDraw:
    """Pool dice added to a roll: those the pool still has and those borrowed (DP35, DP36)."""

    from_pool: int
    borrowed: int

    @property
    def debt(self) -> int:
        """Two penalty dice owed per borrowed die (DP36, line 69; reading 3)."""
        return DEBT_PER_DIE * self.borrowed


def draw_pool(pool_left: int, dice: int) -> PoolDraw:
    """Any number of pool dice may be added to a roll (DP35, line 69); beyond the pool left they are
    borrowed (DP36)."""
    from_pool = min(max(pool_left, 0), dice)
    return PoolDraw(from_pool, dice - from_pool)


def check_level_purchase(level: int, new_level: int, saved_good: int, in_adventure: bool,
                         referee: Referee) -> None:
    """One level at a time, paid with 10 × the new level saved good dice, between adventures (DP38, DP39)."""
    referee.require(new_level == level + 1, ONE_LEVEL, f"a level {level} character buys level {level + 1} next, "
                                                       f"not {new_level}")
    cost = level_cost(new_level)
    referee.require(saved_good >= cost, LEVEL_COST,
                    f"level {new_level} costs {cost} saved bonus dice; {saved_good} are saved")
    referee.require(not in_adventure, BETWEEN_ADVENTURES, "levels are bought between adventures, not during one")


def check_spend(what: str, dice: int, held: int, rule: Rule, referee: Referee) -> None:
    """Dice spent from a balance are dice the character holds."""
    referee.require(dice <= held, rule, f"{what}: {dice} spent, {held} held")
