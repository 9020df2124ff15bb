"""The book's options and examples with numbers: range of results, lifting, wealth, NPC extras,
rolled attributes, power points."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.yarn_polyhedral.rules import rule
from yarnlog.rulesets.yarn_polyhedral.rules.dice import DICE
from yarnlog.rulesets.yarn_polyhedral.rules.odds import rolled_attribute
from yarnlog.rulesets.yarn_polyhedral.rules.points import Kind, Quality, rank_cost, spent_on

ROLLED = rule("Rolling attributes", "If you have no attributes at rank 7 or higher, re-roll your character. "
                                    "(line 726)")
POWER_POINT = 2  # P58, line 569: one power point for two regular points
POWER_POINTS = rule("Power points", "Your character has regular points for the usual qualities (attributes, "
                                    "skills, advantages), and a separate set of power points. (line 569)")


@dataclass(frozen=True)
class PowerBudget:
    """A character built with power points (P58, line 569): the powers paid from the power points,
    the other qualities from the regular points and, where these fall short, from power points
    exchanged at one for two."""

    power_points: int
    powers: int  # power points the powers cost (their ranks' triangular costs, P1)
    exchanged: int  # power points spent as two regular points each
    regular_spent: int  # regular points the other qualities cost, the exchanged ones aside

    @property
    def power_points_left(self) -> int:
        return self.power_points - self.powers - self.exchanged


def power_budget(power_points: int, regular: int, qualities: list[Quality], referee: Referee,
                 rolled: bool = False) -> PowerBudget:
    """Pay ``qualities`` with ``regular`` points (base and drawback points) and ``power_points``:
    powers only from power points; the rest from regular points, then as few power points as make up
    the shortfall at two regular points each (P58, line 569)."""
    invalid(power_points >= 0, "power points cannot be negative")
    made = power_costs(power_points, regular, qualities, rolled)
    needed = made.powers + made.exchanged
    referee.require(needed <= power_points, POWER_POINTS,
                    f"{needed} power points needed ({made.powers} on powers), {power_points} held")
    return made


def power_costs(power_points: int, regular: int, qualities: list[Quality], rolled: bool = False) -> PowerBudget:
    """What :func:`power_budget` charges, unchecked (a fold's replay never refuses)."""
    powers = sum(rank_cost(q.rank) for q in qualities if q.kind is Kind.POWER)
    others = spent_on([q for q in qualities if q.kind is not Kind.POWER], rolled)
    exchanged = -(-max(0, others - regular) // POWER_POINT)
    return PowerBudget(power_points, powers, exchanged, others - exchanged * POWER_POINT)


def ranged_result(minimum: Fraction | int, margin: int) -> Fraction:
    """A range of results: the minimum plus 10 % per point of margin (P60, line 732)."""
    return Fraction(minimum) * (1 + Fraction(margin, 10))


def lifting_minimum(strength: int, kilograms: bool = False) -> int:
    """Lifting's minimum: strength's point cost x 10 lb, or x 5 kg (P60, line 734)."""
    return rank_cost(strength) * (5 if kilograms else 10)


def wealth(starting: int, rank: int) -> int:
    """Starting money x 4^rank (P61, line 505), as a shift: 4^rank = 2^(2 rank)."""
    return starting << (2 * rank)


def modern_starting_money(age: int) -> int:
    """$5000, plus $5000 in assets for every year past 18 (line 505)."""
    return 5000 + 5000 * max(0, age - 18)


@dataclass(frozen=True)
class Extra:
    """An NPC extra: a challenge to hit and dice for every feat (line 862)."""

    challenge: int
    dice: tuple[int, ...]
    keep: int


_DICE = re.compile(r"(\d*)d(\d+)")


def extra(challenge: int, expression: str) -> Extra:
    """An extra from ``7`` and ``3d6 keep 2`` or ``d8+3d6 keep 3`` (line 862)."""
    text, _, keep = expression.partition("keep")
    dice: list[int] = []
    for part in text.replace(" ", "").split("+"):
        found = _DICE.fullmatch(part)
        invalid(found is not None, f"{part!r} is not a dice expression such as 3d6")
        assert found is not None
        size = int(found.group(2))
        invalid(size in DICE, f"d{size} is not one of the dice d2 to d12")
        dice += [size] * int(found.group(1) or 1)
    kept = int(keep) if keep.strip() else 2
    return Extra(challenge, tuple(dice), kept)


@dataclass(frozen=True)
class RolledCharacter:
    """Attributes rolled 3d10 / 3 + 1 (P59, lines 724-726)."""

    ranks: tuple[int, ...]
    reroll: bool
    raised: int | None  # the index raised to 7, if any


def rolled_character(totals: tuple[int, ...]) -> RolledCharacter:
    """Ranks from each attribute's 3d10 total: none at 7 or more re-rolls the character; only one
    at 7 or more raises the next highest to 7 (P59, line 726)."""
    ranks = tuple(rolled_attribute(t) for t in totals)
    high = sum(r >= 7 for r in ranks)
    if high == 0:
        return RolledCharacter(ranks, True, None)
    if high == 1:
        lower = [i for i, r in enumerate(ranks) if r < 7]
        raised = max(lower, key=lambda i: ranks[i]) if lower else None
        if raised is not None:
            ranks = tuple(7 if i == raised else r for i, r in enumerate(ranks))
        return RolledCharacter(ranks, False, raised)
    return RolledCharacter(ranks, False, None)


def check_rolled(totals: tuple[int, ...], referee: Referee) -> RolledCharacter:
    """Each total a 3d10's (3 to 30); a character with no attribute at 7 or more is re-rolled (P59)."""
    for total in totals:
        invalid(3 <= total <= 30, f"3d10 cannot total {total}")
    made = rolled_character(totals)
    referee.require(not made.reroll, ROLLED, "no attribute reached 7: re-roll the character")
    return made
