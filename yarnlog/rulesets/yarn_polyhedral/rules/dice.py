"""Numbers to dice: even dice from d2 to d12, always rounding down (P3, line 23; reading 1)."""

from __future__ import annotations

from yarnlog.rulesets.yarn_polyhedral.rules import rule

DICE = (2, 4, 6, 8, 10, 12)  # line 3: "even polyhedral dice, from d2 to d12"
ROUND_DOWN = rule("Characters", "In Yarn always round down, including to the nearest die. (line 23)")
TIME = rule("Getting Dice", "You can double the step cost for a feat as many times as your skill rank. "
                            "The first x2 adds a +d2, then x4 to make it a d4, or x8 for a d6, x16 "
                            "gives a d8, etc... (line 181)")


def die_for(value: int) -> int | None:
    """The die a number gives: the largest even die not above it, d12 at most; none below 2.

    2-3 -> d2, 4-5 -> d4 ... 12 and up -> d12 (P3, line 23). A value of 1 gives no die: level 1's
    benefit is "S", not a die (line 31; reading 1).
    """
    if value < 2:
        return None
    return min(value - value % 2, 12)


def skill_die(rank: int) -> int | None:
    """A skill's bonus die: twice the rank (P12, line 89; P13, lines 387-394)."""
    return die_for(2 * rank)


def level_die(level: int) -> int | None:
    """The level's bonus die: equal to the level (P5, line 44)."""
    return die_for(level)


def effort_die(primary: int, secondary: int) -> int | None:
    """Effort's die: the lower of the primary and secondary ranks (P19, line 183)."""
    return die_for(min(primary, secondary))


def time_die(doublings: int, skill_rank: int) -> int | None:
    """The time die for doubling the step cost ``doublings`` times, up to the skill rank (P18).

    x2 (one doubling) -> d2, x4 -> d4, x8 -> d6, x16 -> d8: a die of twice the doublings
    (reading 14: without a skill rank, no time die).
    """
    if doublings < 1 or doublings > skill_rank:
        return None
    return die_for(2 * doublings)


def time_steps(base_steps: int, doublings: int) -> int:
    """The step cost of a feat whose time was doubled ``doublings`` times (P18, line 181)."""
    return base_steps << doublings


def sense_die(rank: int, primary_sense: bool) -> int | None:
    """An improved sense's bonus die with rank: the rank for sight and sound, else twice it (P63)."""
    return die_for(rank if primary_sense else 2 * rank)


def item_die(ranks: int) -> int | None:
    """A special item's ranks given to hitting: a die of twice the ranks, as a skill's (line 501)."""
    return die_for(2 * ranks)


def describe(size: int) -> str:
    """``d8`` for an eight-sided die."""
    return f"d{size}"
