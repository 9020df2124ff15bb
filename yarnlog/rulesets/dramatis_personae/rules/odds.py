"""Exact odds of a roll, in fractions, never by simulation (digest section 6).

The kept total of ``3 + |net|`` d6 keeping the highest (net ≥ 0) or lowest three is computed by
icepool, whose pool algorithm is exact; challenge tiers, contests of two or more (a convolution of
such distributions) and wounds follow from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from yarnlog.core.referee import invalid
from yarnlog.rulesets.dramatis_personae.rules.contests import Wound, contest_tier, mirrored, wound
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


#: A contest side's outcomes, worst first: the six tiers with the standoff (``None``, reading 2) between the
#: failures and the successes.
OUTCOMES: tuple[Tier | None, ...] = (Tier.CRITICAL_FAILURE, Tier.COMPLETE_FAILURE, Tier.PARTIAL_FAILURE, None,
                                     Tier.PARTIAL_SUCCESS, Tier.COMPLETE_SUCCESS, Tier.CRITICAL_SUCCESS)


def contest_odds(nets: Sequence[int]) -> tuple[dict[Tier | None, Fraction], ...]:
    """Each side's chance of each result of a contest of two or more, from its own point of view, as
    :func:`contests.side_tier` reads a result (DP24, line 158; readings 2, 10).

    Side i wins alone at total t with the runner-up at s < t: P_i(t) times P(the others' highest is s),
    which is the product of the others' P(X ≤ s) less the product of their P(X ≤ s - 1). Side i loses to
    side j alone at t with its own u < t: P_j(t) P_i(u) times, for every third side, P(X < t). The rest is
    a standoff."""
    invalid(len(nets) >= 2, "a contest needs two or more participants")
    below = [_below(net) for net in nets]  # P(X < t)
    sides = []
    for i, net in enumerate(nets):
        odds = {outcome: Fraction(0) for outcome in OUTCOMES}
        others = [cumulative for j, cumulative in enumerate(below) if j != i]
        for t, p in _totals(net):
            for s in range(3, t):
                top_is_s = _product(c[s + 1] for c in others) - _product(c[s] for c in others)
                if top_is_s:
                    odds[contest_tier(t, s)] += p * top_is_s
        for j, rival in enumerate(nets):
            if j == i:
                continue
            thirds = [cumulative for k, cumulative in enumerate(below) if k not in (i, j)]
            for t, pj in _totals(rival):
                alone = pj * _product(c[t] for c in thirds)
                for u, pi in _totals(net):
                    if u < t and alone:
                        odds[mirrored(contest_tier(t, u))] += alone * pi
        odds[None] = 1 - sum(odds.values(), Fraction(0))
        sides.append(odds)
    return tuple(sides)


def _product(factors: Iterable[Fraction]) -> Fraction:
    result = Fraction(1)
    for factor in factors:
        result *= factor
    return result


def _below(net: int) -> dict[int, Fraction]:
    """P(total < t) for t = 3..19."""
    distribution = dict(_totals(net))
    running, below = Fraction(0), {}
    for total in range(3, 20):
        below[total] = running
        running += distribution.get(total, Fraction(0))
    return below


def wound_odds(net: int) -> dict[Wound, Fraction]:
    """The chance of each wound of the roll against 11 after a melee (line 221)."""
    odds = {kind: Fraction(0) for kind in Wound}
    for total, p in _totals(net):
        odds[wound(total)] += p
    return odds
