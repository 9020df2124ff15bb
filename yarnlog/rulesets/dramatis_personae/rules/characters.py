"""Characters: experience level, Strengths and Weaknesses, Minutiae and Quirks (lines 13-59).

A Strength or Weakness is a free-form adjective; for each task the GM rates it irrelevant,
related (±1d6) or precisely relevant (±2d6), and every relevant one counts (DP7, line 37).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, IntEnum

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.dramatis_personae.rules import BOOK

STRENGTHS_PER_LEVEL = Rule(
    f"{BOOK} (DP1-DP2, lines 29, 59)", "Step 2. Determine Starting Attributes",
    "Each character is allowed one free Strength ... for each experience level. ... For each weakness, "
    "the character may have one additional strength. So a 3rd level character can have three more "
    "strengths than weaknesses.")
QUIRK_PER_MINUTIA = Rule(
    f"{BOOK} (DP4, line 43)", "Step 3. Minutia/Quirks",
    "Any number of these can be developed so, and for each initial minutia a single quirk must be taken.")


MINUTIA_PRECISE = Rule(
    f"{BOOK} (line 43; the digest leaves minutiae off the roll: our reading)", "Step 3. Minutia/Quirks",
    "Minutia are like abilities that have limited utility, specific ranges and little or no impact on other "
    "task rolls except that for which they are precisely appropriate.")


class Kind(Enum):
    """A Strength (better than average) or a Weakness (below average) (lines 29, 39), or a Minutia: a
    singular ability that counts only where precisely appropriate (line 43)."""

    STRENGTH = "strength"
    WEAKNESS = "weakness"
    MINUTIA = "minutia"


class Relevance(IntEnum):
    """How the GM rates an attribute for one task, and the dice it is worth (DP7, line 37)."""

    IRRELEVANT = 0
    RELATED = 1
    PRECISE = 2


def attribute_dice(kind: Kind, relevance: Relevance) -> int:
    """Signed dice: a Strength adds, a Weakness subtracts 1d6 (related) or 2d6 (precise) (DP7, line 37); a
    Minutia adds 2d6 to the task it is precisely appropriate for and nothing to others (line 43)."""
    if kind is Kind.MINUTIA:
        invalid(relevance is not Relevance.RELATED,
                f"a minutia counts only where precisely appropriate, never as related ({MINUTIA_PRECISE.book})")
        return int(relevance)
    return int(relevance) if kind is Kind.STRENGTH else -int(relevance)


def net_attribute_dice(ratings: Iterable[tuple[Kind, Relevance]]) -> int:
    """All of the character's relevant attributes count on every task roll (DP7, line 37)."""
    return sum(attribute_dice(kind, relevance) for kind, relevance in ratings)


def strengths_allowed(level: int, weaknesses: int) -> int:
    """One Strength per level, one more per Weakness (DP1, DP2, lines 29, 59); "can have" is at most
    (reading 12)."""
    return level + weaknesses


def check_level(level: int) -> None:
    """A level is 0 (a typical person) or more (DP3, line 59)."""
    invalid(0 <= level <= 100, f"a level is a whole number from 0 (a typical person) up, not {level}")


def check_attributes(level: int, strengths: int, weaknesses: int, referee: Referee) -> None:
    """At most ``level + weaknesses`` Strengths (DP2, line 59; reading 12: fewer is allowed)."""
    allowed = strengths_allowed(level, weaknesses)
    referee.require(strengths <= allowed, STRENGTHS_PER_LEVEL,
                    f"level {level} with {_count(weaknesses, 'weakness', 'weaknesses')}: at most "
                    f"{_count(allowed, 'strength', 'strengths')}, not {strengths}")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def check_quirks(initial_minutiae: int, quirks: int, referee: Referee) -> None:
    """One Quirk per initial Minutia (DP4, line 43); Minutiae gained later need none (reading 13)."""
    referee.require(quirks >= initial_minutiae, QUIRK_PER_MINUTIA,
                    f"{_count(initial_minutiae, 'initial minutia needs', 'initial minutiae need')} "
                    f"{_count(initial_minutiae, 'quirk', 'quirks')}, not {quirks}")
