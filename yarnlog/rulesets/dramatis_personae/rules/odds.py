"""Exact odds of a roll, in fractions, never by simulation (digest section 6).

The kept total of ``3 + |net|`` d6 keeping the highest (net ≥ 0) or lowest three is computed by
icepool, whose pool algorithm is exact; challenge tiers, contests (a convolution of two such
distributions) and wounds follow from it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from yarnlog.rulesets.dramatis_personae.rules.contests import (
    CONTEST_TIERS,
    Wound,
    contest_tier,
    wound,
)
from yarnlog.rulesets.dramatis_personae.rules.dice import dice_to_roll, keeps_highest
from yarnlog.rulesets.dramatis_personae.rules.difficulty import Tier, challenge_tier

MAX_NET = 60  # a bound on the dice a roll may use, so the odds stay quick


@lru_cache(maxsize=256)
def _totals(net: int) -> tuple[tuple[int, Fraction], ...]:
    import icepool  # only when odds are asked for: it is slow to import

    pool: Any = icepool.d6.pool(dice_to_roll(net))
    kept = (pool.highest(3) if keeps_highest(net) else pool.lowest(3)).sum()
    denominator = kept.denominator()
    return tuple((int(total), Fraction(quantity, denominator)) for total, quantity in kept.items() if quantity)


def total_distribution(net: int) -> dict[int, Fraction]:
    """The chance of each kept total (3-18) at ``net`` bonus (or, negative, penalty) dice (DP8, DP9)."""
    return dict(_totals(net))


def success_chance(net: int, number: int) -> Fraction:
    """P(total ≥ number) (DP6, DP13; reading 15)."""
    return sum((p for total, p in _totals(net) if total >= number), Fraction(0))


def tier_odds(net: int, number: int) -> dict[Tier, Fraction]:
    """The chance of each of the six tiers of a challenge (DP13-DP17; reading 1), worst first."""
    odds = {tier: Fraction(0) for tier in Tier}
    for total, p in _totals(net):
        odds[challenge_tier(total, number)] += p
    return odds


def contest_odds(net_a: int, net_b: int) -> tuple[dict[Tier, Fraction], dict[Tier, Fraction], Fraction]:
    """A's chance of winning at each tier, B's, and the chance of a tie (DP24; readings 2, 10)."""
    wins_a = {tier: Fraction(0) for tier in CONTEST_TIERS}
    wins_b = {tier: Fraction(0) for tier in CONTEST_TIERS}
    tie = Fraction(0)
    for a, pa in _totals(net_a):
        for b, pb in _totals(net_b):
            if a > b:
                wins_a[contest_tier(a, b)] += pa * pb
            elif b > a:
                wins_b[contest_tier(b, a)] += pa * pb
            else:
                tie += pa * pb
    return wins_a, wins_b, tie


def winner_odds(nets: tuple[int, ...]) -> tuple[tuple[Fraction, ...], Fraction]:
    """Each participant's chance of rolling highest alone, and the chance of a tie at the top (a
    standoff, reading 2), in a contest of any size: P(i wins) = sum over t of P_i(t) times, for every
    other j, P_j(below t)."""
    below = [_below(net) for net in nets]
    wins = []
    for i, net in enumerate(nets):
        chance = Fraction(0)
        for total, p in _totals(net):
            others = Fraction(1)
            for j, cumulative in enumerate(below):
                if j != i:
                    others *= cumulative[total]
            chance += p * others
        wins.append(chance)
    return tuple(wins), 1 - sum(wins, Fraction(0))


def _below(net: int) -> dict[int, Fraction]:
    """P(total < t) for t = 3..18."""
    distribution = dict(_totals(net))
    running, below = Fraction(0), {}
    for total in range(3, 19):
        below[total] = running
        running += distribution.get(total, Fraction(0))
    return below


def wound_odds(net: int) -> dict[Wound, Fraction]:
    """The chance of each wound of the roll against 11 after a melee (line 221)."""
    odds = {kind: Fraction(0) for kind in Wound}
    for total, p in _totals(net):
        odds[wound(total)] += p
    return odds
