"""Exact prior odds of an opposed roll, in fractions, never by simulation (digest, section 6).

A dynamic programme over the faces from the highest down: at face ``f`` each side's dice left are
uniform on 1..f; how many of them show ``f`` is binomial. Equal counts cancel as tied pairs (W9)
and the programme goes on to ``f - 1``; a side whose dice run out while the other still has some
loses with one success against it (W10; both run out: the stalemate, W11). Unequal counts decide
it: the side with more dice on ``f`` wins, the loser's highest die left (its TN, reading 4) is the
maximum of its dice below ``f``, and the winner's successes are its surplus on ``f`` plus its dice
below ``f`` that beat that TN. Checked against brute force in the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from yarnlog.rulesets.will_descriptors.rules.opposed import Side
from yarnlog.rulesets.will_descriptors.rules.will import DEFAULT_SIDES


@dataclass(frozen=True)
class Odds:
    """P(A wins with k successes), P(B wins with k successes), P(stalemate), for A's pool against B's."""

    a_wins: Mapping[int, Fraction]
    b_wins: Mapping[int, Fraction]
    stalemate: Fraction

    @property
    def p_a(self) -> Fraction:
        return sum(self.a_wins.values(), Fraction(0))

    @property
    def p_b(self) -> Fraction:
        return sum(self.b_wins.values(), Fraction(0))

    def wins(self, side: Side) -> Mapping[int, Fraction]:
        return self.a_wins if side is Side.A else self.b_wins

    def mean_successes(self, side: Side) -> Fraction:
        """The mean number of successes when ``side`` wins (0 if it cannot)."""
        wins = self.wins(side)
        total = sum(wins.values(), Fraction(0))
        return sum((k * p for k, p in wins.items()), Fraction(0)) / total if total else Fraction(0)


def _binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def _max_is(n: int, t: int, top: int) -> Fraction:
    """P(the highest of n dice uniform on 1..top is t), n >= 1."""
    return Fraction(t**n - (t - 1) ** n, top**n)


def _decided(surplus: int, rest_w: int, rest_l: int, top: int) -> dict[int, Fraction]:
    """Successes of a winner with ``surplus`` dice on the deciding face and ``rest_w`` below it, the
    loser having ``rest_l`` dice below it, all uniform on 1..top (top = the deciding face - 1)."""
    if rest_l == 0:  # the loser's dice all tied: the winner has more dice (W10)
        return {1: Fraction(1)}
    out: dict[int, Fraction] = {}
    for tn in range(1, top + 1):
        p_tn = _max_is(rest_l, tn, top)
        beat = Fraction(top - tn, top)
        for j in range(rest_w + 1):
            p = p_tn * _binomial(rest_w, j, beat)
            if p:
                out[surplus + j] = out.get(surplus + j, Fraction(0)) + p
    return out


@lru_cache(maxsize=4096)
def _from(face: int, n_a: int, n_b: int) -> tuple[tuple[tuple[str, int], Fraction], ...]:
    """The outcomes when A has n_a and B n_b dice left, uniform on 1..face, every pair so far tied."""
    if n_a == 0 or n_b == 0:
        if n_a == n_b:
            return ((("stalemate", 0), Fraction(1)),)
        return (((Side.A.value if n_a else Side.B.value, 1), Fraction(1)),)  # W10, reading 5
    out: dict[tuple[str, int], Fraction] = {}
    on_face = Fraction(1, face)
    for k_a in range(n_a + 1):
        p_a = _binomial(n_a, k_a, on_face)
        for k_b in range(n_b + 1):
            p = p_a * _binomial(n_b, k_b, on_face)
            if not p:
                continue
            if k_a == k_b:  # the pairs on this face cancel (W9)
                for key, q in _from(face - 1, n_a - k_a, n_b - k_b):  # none left on face 1: both ran out
                    out[key] = out.get(key, Fraction(0)) + p * q
                continue
            if k_a > k_b:
                side, decided = Side.A, _decided(k_a - k_b, n_a - k_a, n_b - k_b, face - 1)
            else:
                side, decided = Side.B, _decided(k_b - k_a, n_b - k_b, n_a - k_a, face - 1)
            for successes, q in decided.items():
                key = (side.value, successes)
                out[key] = out.get(key, Fraction(0)) + p * q
    return tuple(sorted(out.items()))


def opposed_odds(dice_a: int, dice_b: int, sides: int = DEFAULT_SIDES) -> Odds:
    """The exact odds of ``dice_a`` dice against ``dice_b``, each of ``sides`` faces (W7-W11)."""
    if dice_a < 0 or dice_b < 0 or sides < 1:
        raise ValueError("a pool has zero or more dice of one or more sides")
    a: dict[int, Fraction] = {}
    b: dict[int, Fraction] = {}
    stalemate = Fraction(0)
    for (who, successes), p in _from(sides, dice_a, dice_b):
        if who == "stalemate":
            stalemate += p
        else:
            into = a if who == Side.A.value else b
            into[successes] = p
    return Odds(dict(sorted(a.items())), dict(sorted(b.items())), stalemate)
