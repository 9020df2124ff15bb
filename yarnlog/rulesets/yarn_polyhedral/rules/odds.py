"""Exact odds of a feat: keep the best of mixed even dice, explosions bounded by the fortune in hand.

Exact, never simulated: a dynamic program over the dice that keeps, for each way the dice can
fall, only what decides the total (the kept dice's faces, which of them show their maximum, and
whether a 1 was rolled for trouble to force), counted in whole outcomes and divided once.

Fortune makes the total open-ended: a kept die at its maximum may be re-rolled and added again
and again, one fortune each (P24, line 207), so the support is infinite. The figure here is
bounded by the fortune in hand: with ``explode`` fortunes the policy is "explode a kept maximum
whenever a fortune remains, the largest die first", at most ``explode`` re-rolls in all, which
makes the outcomes finite and the figure exact under that policy. Kept dice are the highest
faces, ties to a die at its maximum (reading 2); trouble, when the narrator spends it, forces a
rolled 1 into the kept dice (P27, line 756).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import ceil, floor, prod

# A kept die: its face and, when the face is the die's maximum, its size (0 otherwise).
_Kept = tuple[int, int]


@dataclass(frozen=True)
class Odds:
    """The exact distribution of a feat's total, and the target it must reach."""

    totals: Mapping[int, Fraction]
    target: int | None = None

    def at_least(self, value: int) -> Fraction:
        """P(total >= value)."""
        return sum((p for total, p in self.totals.items() if total >= value), Fraction(0))

    @property
    def success(self) -> Fraction | None:
        """P(total >= challenge + penalties) (P25, line 161; reading 4)."""
        return None if self.target is None else self.at_least(self.target)

    def margin_at_least(self, margin: int) -> Fraction | None:
        """P(margin >= ``margin``): a location of that number is in reach (P40, P48)."""
        return None if self.target is None else self.at_least(self.target + margin)

    @property
    def mean(self) -> Fraction:
        return sum((t * p for t, p in self.totals.items()), Fraction(0))


def feat_odds(sizes: Sequence[int], keep: int, target: int | None = None, *,
              explode: int = 0, trouble: bool = False) -> Odds:
    """The exact odds of a feat rolling ``sizes`` and keeping ``keep`` of them.

    ``explode`` bounds the explosions by the fortune set aside for them; ``trouble`` says the
    narrator spends one trouble to force a rolled 1 into the kept dice.
    """
    keep = max(1, min(keep, len(sizes)))
    ways: Counter[tuple[tuple[_Kept, ...], bool]] = Counter({((), False): 1})
    for size in sizes:
        after: Counter[tuple[tuple[_Kept, ...], bool]] = Counter()
        for (kept, one), count in ways.items():
            for face in range(1, size + 1):
                entry = (face, size if face == size else 0)
                best = tuple(sorted((*kept, entry), reverse=True)[:keep])
                after[(best, one or face == 1)] += count
        ways = after
    outcomes = prod(sizes)
    totals: Counter[int] = Counter()
    shares: dict[int, Fraction] = {}
    for (kept, one), count in ways.items():
        if trouble and one and all(face != 1 for face, _ in kept):
            kept = (*kept[: keep - 1], (1, 0))
        base = sum(face for face, _ in kept)
        maxed = tuple(sorted((size for _, size in kept if size), reverse=True))
        if not maxed or not explode:
            totals[base] += count
            continue
        for extra, chance in _explosions(maxed, explode).items():
            shares[base + extra] = shares.get(base + extra, Fraction(0)) + chance * count
    result = {t: Fraction(c, outcomes) for t, c in totals.items()}
    for total, share in shares.items():
        result[total] = result.get(total, Fraction(0)) + share / outcomes
    return Odds(dict(sorted(result.items())), target)


@lru_cache(maxsize=4096)
def _explosions(maxed: tuple[int, ...], budget: int) -> dict[int, Fraction]:
    """What exploding adds: each die of ``maxed`` (all at their maximum) re-rolled while it keeps
    coming up maximum, one fortune per re-roll, ``budget`` in all (P24, line 207)."""
    if not maxed or budget <= 0:
        return {0: Fraction(1)}
    size, rest = maxed[0], maxed[1:]
    result: dict[int, Fraction] = {}
    for face in range(1, size + 1):
        follow = _explosions((size, *rest) if face == size else rest, budget - 1)
        for extra, chance in follow.items():
            result[face + extra] = result.get(face + extra, Fraction(0)) + chance / size
    return result


def explosion_chance(size: int, times: int) -> Fraction:
    """P(a d``size`` already at its maximum comes up maximum ``times`` more times): size^-times."""
    return Fraction(1, size ** times)


def rolled_attribute(total: int) -> int:
    """An attribute rolled as 3d10 / 3 + 1, rounded up below 6, otherwise down (P59, line 724)."""
    value = Fraction(total, 3) + 1
    return ceil(value) if value < 6 else floor(value)


def rolled_attribute_odds() -> dict[int, Fraction]:
    """Each rank's chance from 3d10 / 3 + 1 (P59; book-15 at line 728): all 1000 outcomes."""
    counts: Counter[int] = Counter(rolled_attribute(a + b + c) for a in range(1, 11)
                                   for b in range(1, 11) for c in range(1, 11))
    return {rank: Fraction(n, 1000) for rank, n in sorted(counts.items())}
