"""Advancement: points awarded, qualities attained, ranks raised, drawbacks paid, flashbacks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.yarn_polyhedral.rules import rule
from yarnlog.rulesets.yarn_polyhedral.rules.points import rank_cost

AWARD = rule("Attainment", "You get at least one point per session. (line 367)")
FLASHBACK = rule("Flashbacks", "You have a flashback for each level, usable on your phase during a scene, "
                               "allowing you to claim a previously unspecified quality ... You do this by "
                               "spending saved points (lines 357-359)")
DISCOUNT = rule("Flashbacks", "The group may give you a flashback rank for one less point, if your idea is "
                              "really enjoyable (line 361)")
POINTS_HELD = rule("Attainment", "It costs the rank to be achieved in points to raise a quality. (line 369)")


def check_award(points: int, referee: Referee) -> None:
    """A session's award: at least one point (P52, line 367)."""
    referee.require(points >= 1, AWARD, "a session awards at least one point")


def check_spend(cost: int, unspent: int, referee: Referee) -> None:
    """Points are spent only from points held (P53, P54)."""
    referee.require(cost <= unspent, POINTS_HELD, f"{cost} points are needed; {unspent} are saved")


@dataclass(frozen=True)
class Flashback:
    """A flashback's price: the rank claimed, the new drawbacks' points, the group's discount."""

    rank: int
    drawback_points: int = 0
    discount: int = 0

    @property
    def cost(self) -> int:
        """T(rank) less the group's discount of 1 (P57; reading 17)."""
        return max(0, rank_cost(self.rank) - self.discount)

    @property
    def from_saved(self) -> int:
        """What the saved points must pay once the new drawbacks' points are in (P57, line 359)."""
        return max(0, self.cost - self.drawback_points)


def check_flashback(flashback: Flashback, saved: int, flashbacks_left: int, referee: Referee) -> int:
    """A flashback: one of the level's stock (reading 17), paid in saved points and new drawback
    points (P57); returns the saved points it uses."""
    invalid(flashback.rank >= 0 and flashback.drawback_points >= 0, "ranks and points count from 0")
    referee.require(flashback.discount in (0, 1), DISCOUNT, "the group's discount is one point")
    referee.require(flashbacks_left >= 1, FLASHBACK, "no flashback is left: one comes with each level")
    referee.require(flashback.from_saved <= saved, FLASHBACK,
                    f"the flashback needs {flashback.from_saved} saved points; {saved} are saved")
    return flashback.from_saved


def training_due(target_rank: int, unspent: int) -> bool:
    """A training target is raised as soon as the points for its next rank are held (P54, line 375)."""
    return unspent >= target_rank


def narrating_circle(narrators: Sequence[str], players: Sequence[str]) -> tuple[str, ...]:
    """Who has narrated in the circle going on: the office passes "until every player has had their
    time" (line 800), and then a new circle starts. ``narrators`` in order, the first narrator first."""
    circle: list[str] = []
    for name in narrators:
        if set(players) <= set(circle):
            circle = []
        circle.append(name)
    return () if set(players) <= set(circle) else tuple(circle)
