"""Group efforts of Yarn 0.1: several characters rolling for one task ("Group Efforts").

"Depending on how well a given task can be accomplished by more than one person, the GM can
call for one of the following resolution systems": Simple Addition, Combining Dice, Either/Or
and Worst Roller. Which one applies is the GM's call, so the caller picks the function.
"""

from __future__ import annotations

from collections.abc import Sequence

from yarnlog.core.referee import Rule, invalid
from yarnlog.rulesets.yarn.rules.dice import (
    BOOK,
    NO_OPTIONS,
    Resolution,
    RollOptions,
    RollResult,
    RollSpec,
    Target,
    is_botch,
    resolve_total,
    unstoppable_sixes,
)

SIMPLE_ADDITION = Rule(
    BOOK,
    "Group Efforts › Simple Addition",
    "In tasks that two people can easily do simultaneously without getting in each others’ way, "
    "add the dice of both characters together.",
)
COMBINING_DICE = Rule(
    BOOK,
    "Group Efforts › Combining Dice",
    "In tasks where two can work together effectively, but not perfectly, roll all the dice and "
    "take the highest, a number of dice equal to the number normally rolled by the best of the "
    "cooperating characters. (Effectively, the dice rolled by lesser characters become bonus dice "
    "for the best.)",
)
EITHER_OR = Rule(
    BOOK,
    "Group Efforts › Either/Or",
    "Sometimes characters split up a task so that only one of them (determined randomly) has a "
    "chance for success. In this case, all the PCs might roll, but only the one with a real chance "
    "for success counts.",
)
WORST_ROLLER = Rule(
    BOOK,
    "Group Efforts › Worst Roller",
    "When two or more characters attempt something that should really be left to one of them, "
    "they all roll, and the worst roll is used to determine the result.",
)


def _some(results: Sequence[RollResult]) -> None:
    invalid(len(results) >= 1, "a group effort needs at least one roll")


def simple_addition(
    results: Sequence[RollResult], target: Target, options: RollOptions = NO_OPTIONS
) -> Resolution:
    """Resolve the sum of every character's roll against ``target`` ("Simple Addition").

    Each character rolls her own dice (the book's lifters "roll a 4 and a 10, for a total of
    14"). The dice are "added together" into one roll for one action, so the group botches only
    when every kept die is a 1, and its unstoppable sixes are all the characters' sixes.
    """
    _some(results)
    return resolve_total(
        sum(r.total for r in results),
        target,
        options,
        botched=all(is_botch(r, options) for r in results),
        sixes=sum(unstoppable_sixes(r, options) for r in results),
    )


def combining_dice(dice: Sequence[int], *, bonus: int = 0, penalty: int = 0) -> RollSpec:
    """The one roll of characters combining their dice ("Combining Dice").

    ``dice`` are the dice each character normally rolls: the best keeps that many, and everyone
    else's dice become bonus dice. ``bonus`` and ``penalty`` are the GM's dice for the joint roll;
    they cancel with the others as usual. Book example: four dice and two dice take "the best
    four dice between them" (``6d6kh4``).
    """
    invalid(len(dice) >= 1, "combining dice needs at least one character's dice")
    invalid(all(type(d) is int and d >= 0 for d in dice), "each character rolls 0 or more dice")
    best = max(dice)
    return RollSpec(best, bonus=sum(dice) - best + bonus, penalty=penalty)


def either_or(results: Sequence[RollResult], counting: int) -> RollResult:
    """The one roll that counts when a task is split ("Either/Or").

    ``counting`` is the position of the character the GM determined at random to have the real
    chance; the others' rolls are made (so the players cannot tell) but do not count.
    """
    _some(results)
    invalid(0 <= counting < len(results), f"roll {counting} is not among the {len(results)} rolled")
    return results[counting]


def worst_roller(results: Sequence[RollResult], options: RollOptions = NO_OPTIONS) -> RollResult:
    """The roll that determines the result when all attempt what one should do ("Worst Roller").

    The lowest total; a botch (under the optional rule) "automatically failed", so we count it
    as worse than any roll that did not botch.
    """
    _some(results)
    return min(results, key=lambda r: (not is_botch(r, options), r.total))
