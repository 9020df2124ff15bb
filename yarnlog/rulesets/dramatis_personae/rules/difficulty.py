"""The difficulty chart and the six result tiers of a challenge (DP11-DP17, lines 75-98).

Meeting the number is a partial success (reading 15); 4 more is a complete success; twice the
number or 18 (whichever is lower) a critical success. Less than the number is a partial failure;
4 less a complete failure (reading 1, the mirror of the success side); half the number or 3
(whichever is higher) a critical failure. A critical beats a complete, a complete a partial.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction

from yarnlog.core.referee import Rule, invalid
from yarnlog.rulesets.dramatis_personae.rules import BOOK

RESULTS = "Partial Success/Partial Failure"
TIERS = Rule(
    f"{BOOK} (DP13-DP17, lines 77-83; complete failure at 4 less, reading 1)", RESULTS,
    "A roll of less than needed results in a partial failure. A roll of 4 more than needed indicate "
    "complete success. A roll or twice the needed number or 18 (whatever is lower) will result in a "
    "critical success. A roll of half of what is needed or 3 (whichever is higher) results in a critical "
    "failure.")
CHART = Rule(
    f"{BOOK} (DP11, lines 87-98)", "Challenge Difficulty Chart",
    "Simple (5+), Routine (6+), Mundane (8+), Typical (10+), Challenging (12+), Difficult (14+), Very "
    "Difficult (15+), Heroic (16+), Incredible (17+), Legendary (18+). Number indicates roll needed on "
    "3d6.")
NO_ROLL = Rule(
    f"{BOOK} (DP12, line 75)", "Challenges",
    "The GM may not require rolls for Typical or easier tasks unless there is some reason why their "
    "outcome might be in doubt.")

#: The chart, name -> the roll needed on 3d6 (DP11, lines 87-96).
DIFFICULTIES: dict[str, int] = {
    "Simple": 5, "Routine": 6, "Mundane": 8, "Typical": 10, "Challenging": 12, "Difficult": 14,
    "Very Difficult": 15, "Heroic": 16, "Incredible": 17, "Legendary": 18,
}
#: A ranged attack on a motionless man-sized target at short range: "Typical (11+)" as written, not
#: the chart's Typical 10 (DP31, line 202; reading 4: the specific rule beats the chart).
RANGED_BASE = 11
LOWEST, HIGHEST = 4, 18  # a needed 3 would be met and critically failed by the same roll
MARGIN = 4  # complete success or failure (DP14, line 79; reading 1)


class Tier(Enum):
    """The six results, worst first (DP13-DP17)."""

    CRITICAL_FAILURE = "critical failure"
    COMPLETE_FAILURE = "complete failure"
    PARTIAL_FAILURE = "partial failure"
    PARTIAL_SUCCESS = "partial success"
    COMPLETE_SUCCESS = "complete success"
    CRITICAL_SUCCESS = "critical success"

    @property
    def success(self) -> bool:
        return self in (Tier.PARTIAL_SUCCESS, Tier.COMPLETE_SUCCESS, Tier.CRITICAL_SUCCESS)


def needed(difficulty: str) -> int:
    """The roll a difficulty needs: a chart name (any case) or a number the GM sets (DP11, DP23)."""
    text = difficulty.strip()
    if text.isdigit():
        number = int(text)
        invalid(LOWEST <= number <= HIGHEST, f"a difficulty is a roll of {LOWEST} to {HIGHEST} on 3d6, not {number}")
        return number
    for name, number in DIFFICULTIES.items():
        if name.lower() == text.lower():
            return number
    invalid(False, f"no difficulty {difficulty!r}: {LOWEST}-{HIGHEST} or Simple, Routine ... Legendary")
    raise AssertionError  # unreachable: invalid raised


def chart_name(number: int) -> str | None:
    """The chart's name of a needed roll, if it has one (11, the ranged base, has none)."""
    return next((name for name, value in DIFFICULTIES.items() if value == number), None)


def critical_success_from(number: int) -> int:
    """Twice the needed number or 18, whichever is lower (DP16, line 83)."""
    return min(2 * number, 18)


def critical_failure_to(number: int) -> Fraction:
    """Half the needed number or 3, whichever is higher (DP17, line 83): a total at most this."""
    return max(Fraction(number, 2), Fraction(3))


def challenge_tier(total: int, number: int) -> Tier:
    """The tier of a kept total against a needed number (DP13-DP17; reading 1, reading 15)."""
    if total >= number:
        if total >= critical_success_from(number):
            return Tier.CRITICAL_SUCCESS
        return Tier.COMPLETE_SUCCESS if total >= number + MARGIN else Tier.PARTIAL_SUCCESS
    if total <= critical_failure_to(number):
        return Tier.CRITICAL_FAILURE
    return Tier.COMPLETE_FAILURE if total <= number - MARGIN else Tier.PARTIAL_FAILURE
