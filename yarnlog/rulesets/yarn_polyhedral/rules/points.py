"""Qualities, ranks and points: triangular costs, the level the points buy, what advancement costs.

A character's *base points* are the points the group gave it (15 per attribute plus the level's
points) and every point awarded since; drawback points add to what can be spent but never to the
level (P9, line 111). The level is derived, never stored (reading 9).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Referee
from yarnlog.rulesets.yarn_polyhedral.rules import rule

CHAPTER = "Characters"
MAX_RANK = 12  # P2, line 7: "from 1 to 12"
MAX_SKILL_RANK = 6  # P12, line 89: "This caps skill ranks at 6 (+d12)."
POINTS_PER_ATTRIBUTE = 15  # P4, line 27; P10, line 711
STANDARD_ATTRIBUTES = ("strength", "dexterity", "health", "intelligence", "will", "charisma")
PHYSICAL = frozenset({"strength", "dexterity", "health"})  # line 58

RANKS = rule(CHAPTER, "You start with a set of points to assign ranks to your qualities, from 1 to 12. "
                      "(line 7)")
SKILL_CAP = rule("Skills", "Most skills give a bonus die of twice the rank. This caps skill ranks at 6 "
                           "(+d12). (line 89)")
ONE_RANK = rule("Attainment", "You can't raise a quality more than one rank at a time. (line 371)")
RAISE_COST = rule("Attainment", "It costs the rank to be achieved in points to raise a quality. (line 369)")
PAY_DOWN = rule("Drawbacks", "When you pay down a drawback, you're reducing its rank by one. This costs "
                             "the current rank in points. You can't usually go below rank 0 (line 533)")
LEARN_FIRST = rule("Skills", "If you don't start with a skill, you have to learn it at rank 0 in play "
                             "before you can later raise it to rank 1. (line 87)")
NEW_CHARACTER = rule("Death", "When bringing in a new character, they start at the minimum points for the "
                              "lowest level PC in the group. (line 347)")


class Kind(str, Enum):
    """The kinds of quality (lines 52-125)."""

    ATTRIBUTE = "attribute"
    SKILL = "skill"
    SPECIALTY = "specialty"
    ADVANTAGE = "advantage"
    DRAWBACK = "drawback"
    PROPERTY = "property"
    POWER = "power"


@dataclass(frozen=True)
class Quality:
    """One quality of a character: its name, kind and rank."""

    name: str
    kind: Kind
    rank: int


def rank_cost(rank: int) -> int:
    """Points a rank costs: the triangular number r(r+1)/2 (P1, lines 9-21); rank 0 is free."""
    return rank * (rank + 1) // 2


def rank_for_cost(points: int) -> int:
    """The highest rank ``points`` buy outright (round down, P3, line 23)."""
    rank = 0
    while rank < MAX_RANK and rank_cost(rank + 1) <= points:
        rank += 1
    return rank


def level_threshold(level: int) -> int:
    """The minimum points above the attributes' for ``level``: 10 x the rank's cost (P4, line 27)."""
    return 10 * rank_cost(level)


def level_for(base_points: int, attributes: int = len(STANDARD_ATTRIBUTES)) -> int:
    """The level ``base_points`` give with ``attributes`` attributes (P4, lines 27-42; reading 9).

    15 points per attribute come first; the level is the largest L whose threshold the rest reach,
    0 below 10. Drawback points are not base points (P9, line 111).
    """
    above = base_points - POINTS_PER_ATTRIBUTE * attributes
    level = 0
    while level < MAX_RANK and level_threshold(level + 1) <= above:
        level += 1
    return level


def minimum_points(level: int, attributes: int = len(STANDARD_ATTRIBUTES)) -> int:
    """The least base points of a character of ``level`` (P4; P51, line 347 for a newcomer)."""
    return POINTS_PER_ATTRIBUTE * attributes + level_threshold(level)


def newcomer_points(levels: Iterable[int], attributes: int = len(STANDARD_ATTRIBUTES)) -> int:
    """A new character's base points: the minimum of the lowest-level PC's level (P51, line 347)."""
    return minimum_points(min(levels, default=0), attributes)


def specialties_for(level: int) -> int:
    """Specialties a level brings: one at each odd level, so ceil(L/2) (P6, line 46; reading 18)."""
    return (level + 1) // 2


def fortune_for(level: int) -> int:
    """Fortune each session: the level (P7, line 48)."""
    return level


def flashbacks_for(level: int) -> int:
    """Flashbacks a level has brought: one per level (P8, line 50; reading 17)."""
    return level


def fatal_severity(level: int, health: int) -> int:
    """The suggested fatal total severity: (1 + level) x health (P49, line 341; reading 15)."""
    return (1 + level) * health


def agreed_fatal_severity(level: int, health: int, *, agreed: int | None, death: bool) -> int | None:
    """The total severity that kills, as the group agreed (lines 339-341; reading 15): the number chosen
    at ``init`` (``--setting fatal_severity=N``) for every character, else with the optional rule
    ``death`` the book's suggested (1 + level) x health; None when death is not in the game."""
    if agreed is not None:
        return agreed
    return fatal_severity(level, health) if death else None


def spent_on(qualities: Iterable[Quality], rolled: bool = False) -> int:
    """Points the qualities cost, drawbacks aside (P1); rolled attributes cost their 15 points
    whatever they came to (P59, line 724: rolled "instead of ... buying your attribute ranks")."""
    return sum(POINTS_PER_ATTRIBUTE if rolled and q.kind is Kind.ATTRIBUTE else rank_cost(q.rank)
               for q in qualities if q.kind is not Kind.DRAWBACK)


def drawback_points(qualities: Iterable[Quality]) -> int:
    """Points the drawbacks give (line 109): they fund qualities but not the level (P9, line 111)."""
    return sum(rank_cost(q.rank) for q in qualities if q.kind is Kind.DRAWBACK)


def check_rank(quality: Quality, referee: Referee) -> None:
    """A rank within 0..12, a skill's within 0..6 (P2, line 7; P12, line 89)."""
    referee.require(0 <= quality.rank <= MAX_RANK, RANKS,
                    f"{quality.name} cannot be rank {quality.rank}: ranks run 0 to {MAX_RANK}")
    if quality.kind is Kind.SKILL:
        referee.require(quality.rank <= MAX_SKILL_RANK, SKILL_CAP,
                        f"skill {quality.name} cannot pass rank {MAX_SKILL_RANK} (d12)")


@dataclass(frozen=True)
class Build:
    """A character built with points: what it has, what it cost, what is left."""

    base_points: int
    spent: int
    drawbacks: int
    attributes: int

    @property
    def unspent(self) -> int:
        return self.base_points + self.drawbacks - self.spent

    @property
    def level(self) -> int:
        return level_for(self.base_points, self.attributes)


BUDGET = rule(CHAPTER, "You start with a set of points to assign ranks to your qualities (line 7)")


SKILL_LIMIT = rule("Skill Ranks", "One way is to limit your starting ranks to your level, except for one skill "
                                  "which can exceed your level by one. (line 383)")


def check_skill_limit(qualities: Iterable[Quality], level: int, referee: Referee) -> None:
    """The optional starting limit: skills at most the level, one of them the level + 1 (P14, line 383)."""
    ranks = [q.rank for q in qualities if q.kind is Kind.SKILL]
    over = [r for r in ranks if r > level]
    referee.require(all(r <= level + 1 for r in ranks) and len(over) <= 1, SKILL_LIMIT,
                    f"starting skills stop at level {level}, one at {level + 1}")


def build(base_points: int, qualities: Iterable[Quality], referee: Referee, rolled: bool = False) -> Build:
    """Check a character's qualities against its points (P1, P2, P9, P12)."""
    qualities = list(qualities)
    for quality in qualities:
        check_rank(quality, referee)
        referee.require(quality.rank >= 0, RANKS, f"{quality.name} has a negative rank")
    made = Build(base_points, spent_on(qualities, rolled), drawback_points(qualities),
                 sum(q.kind is Kind.ATTRIBUTE for q in qualities))
    referee.require(made.unspent >= 0, BUDGET,
                    f"the qualities cost {made.spent} points; only "
                    f"{made.base_points + made.drawbacks} are there")
    return made


def raise_cost(current: int, new: int, referee: Referee, *, kind: Kind = Kind.SKILL) -> int:
    """Points to raise a quality from ``current`` to ``new``: the new rank, one at a time (P53)."""
    referee.require(new == current + 1, ONE_RANK,
                    f"a quality rises one rank at a time: {current} to {current + 1}, not {new}")
    cap = MAX_SKILL_RANK if kind is Kind.SKILL else MAX_RANK
    referee.require(new <= cap, SKILL_CAP if kind is Kind.SKILL else RANKS,
                    f"rank {new} is past the cap of {cap}")
    return new


def pay_down_cost(current: int, referee: Referee) -> int:
    """Points to pay a drawback down one rank: its current rank, not below 0 (P56, line 533)."""
    referee.require(current >= 1, PAY_DOWN, "a drawback at rank 0 cannot be paid down further")
    return current

