"""The exact prior odds of a Yarn 0.1 roll: does it beat, equal or fail its target, and break?

Odds of the rules in :mod:`yarnlog.rulesets.yarn.dice` ("Mechanics", "Chancy Actions",
"Comparing Your Roll", "Breaks", and the optional Botch and Blowing the Top Off), computed by
exact enumeration in :class:`fractions.Fraction`, never by simulation. The sums of kept dice come
from icepool, imported only when odds are asked for.

Both optional rules only depend on the kept total: the kept dice all show 1 exactly when their
sum equals their count (a botch), and all show 6 exactly when it is six times their count (the
top blows off). A blown top adds a chain of extra dice with no upper limit, so its total is
``6n + E`` where E, the chain, is ``6m + r`` (m sixes, then a last die r of 1 to 5) with chance
(1/6)^(m+1): its odds against any number, or against another such chain, have closed forms.

Odds are pure functions of frozen, hashable arguments (specs, targets, options), so they are
memoized: a long campaign's import or verify computes the odds of each distinct roll once, not
once per roll (icepool takes milliseconds per spec). Cached values are immutable: the public
functions hand out frozen results or fresh copies, never the cached mapping itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from yarnlog.core.referee import invalid
from yarnlog.rulesets.yarn.rules.dice import (
    NO_OPTIONS,
    SIDES,
    OpponentRoll,
    Outcome,
    RollOptions,
    RollSpec,
    Target,
    compare,
    forced_outcome,
    target_number,
)
from yarnlog.rulesets.yarn.rules.personal_consequences import BREAK_COUNT

ZERO = Fraction(0)
ONE = Fraction(1)
_SIXTH = Fraction(1, SIDES)


@dataclass(frozen=True)
class OutcomeOdds:
    """The chances that a roll beats, equals or fails its target; they sum to 1."""

    beats: Fraction
    equals: Fraction
    fails: Fraction

    def of(self, outcome: Outcome) -> Fraction:
        return {Outcome.BEATS: self.beats, Outcome.EQUALS: self.equals, Outcome.FAILS: self.fails}[outcome]


@dataclass(frozen=True)
class BreakOdds:
    """The chances of a good break (2 or more kept 6's) and of a bad break (2 or more kept 1's)."""

    good: Fraction
    bad: Fraction


#: What the kept dice of a spec depend on: dice rolled, dice kept, and whether the highest are kept.
_Kept = tuple[int, int, bool]


def _kept_key(spec: RollSpec) -> _Kept:
    return spec.rolled, spec.dice, spec.net_bonus >= 0


def _kept_dice(key: _Kept) -> Any:
    import icepool  # only when odds are asked for: it is slow to import and most commands never need it

    rolled, dice, highest = key
    pool = icepool.d6.pool(rolled)
    return pool.highest(dice) if highest else pool.lowest(dice)


def _fractions(die: Any) -> dict[int, Fraction]:
    denominator = die.denominator()
    return {int(outcome): Fraction(quantity, denominator) for outcome, quantity in die.items() if quantity}


@lru_cache(maxsize=1024)
def _kept_totals(key: _Kept) -> tuple[tuple[int, Fraction], ...]:
    """The distribution of the kept total, memoized by what it depends on (a tuple: never mutated)."""
    return tuple(_fractions(_kept_dice(key).sum()).items())


def kept_total_distribution(spec: RollSpec) -> dict[int, Fraction]:
    """The chance of each total of the kept dice of ``spec`` (no optional rules); a fresh dict each call."""
    return dict(_kept_totals(_kept_key(spec)))


def break_odds(spec: RollSpec) -> BreakOdds:
    """The chances of a good and of a bad break on a roll of ``spec`` ("Breaks")."""
    return _break_odds(_kept_key(spec))


@lru_cache(maxsize=1024)
def _break_odds(key: _Kept) -> BreakOdds:
    kept = _kept_dice(key)

    def at_least_two(face: int) -> Fraction:
        counts = _fractions(kept.keep_outcomes({face}).size())
        return sum((p for count, p in counts.items() if count >= BREAK_COUNT), ZERO)

    return BreakOdds(good=at_least_two(SIDES), bad=at_least_two(1))


# ----------------------------------------------------------------------------------------------
# The chain of extra dice of a blown top: E = 6m + r, r in 1..5, with chance (1/6)^(m+1).


def _chain_pmf(value: int) -> Fraction:
    """P(E = value)."""
    sixes, last = divmod(value, SIDES)
    return _SIXTH ** (sixes + 1) if value > 0 and last else ZERO


def _chain_cdf(value: int) -> Fraction:
    """P(E <= value): all chains of fewer sixes, and those of as many sixes ending in 1..last."""
    if value <= 0:
        return ZERO
    sixes, last = divmod(value, SIDES)
    return ONE - _SIXTH**sixes + last * _SIXTH ** (sixes + 1)


def _chain_gap_pmf(gap: int) -> Fraction:
    """P(E1 - E2 = gap) for two independent chains.

    E = 6M + R with M geometric (P(M=m) = 5/6 (1/6)^m) and R uniform on 1..5, independent. Then
    P(M1 - M2 = k) = 5/7 (1/6)^|k| and P(R1 - R2 = j) = (5 - |j|)/25 for |j| <= 4.
    """
    total = ZERO
    for j in range(-(SIDES - 2), SIDES - 1):
        k, rest = divmod(gap - j, SIDES)
        if rest == 0:
            total += Fraction(5, 7) * _SIXTH ** abs(k) * Fraction(SIDES - 1 - abs(j), (SIDES - 1) ** 2)
    return total


def _chain_gap_sf(gap: int) -> Fraction:
    """P(E1 - E2 > gap), by the symmetry of E1 - E2."""
    if gap < 0:
        return ONE - _chain_gap_sf(-gap) - _chain_gap_pmf(-gap)
    return (ONE - _chain_gap_pmf(0)) / 2 - sum((_chain_gap_pmf(d) for d in range(1, gap + 1)), ZERO)


# ----------------------------------------------------------------------------------------------
# The law of a roll's standing, and two laws against each other

_BOTCHED, _AS_ROLLED, _TOPPED = "botched", "as rolled", "topped"


@dataclass(frozen=True)
class _Law:
    """What a roll can come to: a botch, a total as rolled, or a blown top (base + chain)."""

    botched: Fraction
    totals: Mapping[int, Fraction]
    topped: Mapping[int, Fraction]

    def parts(self) -> Iterator[tuple[str, int, Fraction]]:
        if self.botched:
            yield _BOTCHED, 0, self.botched
        for total, p in self.totals.items():
            yield _AS_ROLLED, total, p
        for base, p in self.topped.items():
            yield _TOPPED, base, p


def _roll_law(spec: RollSpec, options: RollOptions) -> _Law:
    totals = kept_total_distribution(spec)
    kept = spec.dice
    botched = totals.pop(kept, ZERO) if options.botch and kept else ZERO
    topped = {SIDES * kept: totals.pop(SIDES * kept, ZERO)} if options.blowing_the_top_off and kept else {}
    return _Law(botched, totals, topped)


def _target_law(target: Target | int, options: RollOptions) -> _Law:
    if isinstance(target, int):
        return _Law(ZERO, {target: ONE}, {})
    if isinstance(target, OpponentRoll) and target.botched and options.botch:
        return _Law(ONE, {}, {})
    return _Law(ZERO, {target_number(target): ONE}, {})


def _beats_and_equals(actor: tuple[str, int], opponent: tuple[str, int]) -> tuple[Fraction, Fraction]:
    (kind, value), (other_kind, other_value) = actor, opponent
    forced = forced_outcome(kind == _BOTCHED, other_kind == _BOTCHED)
    if forced is not None:
        return (ONE if forced[0] is Outcome.BEATS else ZERO), ZERO
    gap = value - other_value
    if kind == _AS_ROLLED and other_kind == _AS_ROLLED:
        outcome = compare(value, other_value)
        return (ONE if outcome is Outcome.BEATS else ZERO), (ONE if outcome is Outcome.EQUALS else ZERO)
    if kind == _AS_ROLLED:  # value against other_value + E
        return _chain_cdf(gap - 1), _chain_pmf(gap)
    if other_kind == _AS_ROLLED:  # value + E against other_value
        return ONE - _chain_cdf(-gap), _chain_pmf(-gap)
    return _chain_gap_sf(-gap), _chain_gap_pmf(-gap)  # value + E1 against other_value + E2


def _versus(actor: _Law, opponent: _Law) -> OutcomeOdds:
    beats = equals = fails = ZERO
    for kind, value, p in actor.parts():
        for other_kind, other_value, q in opponent.parts():
            b, e = _beats_and_equals((kind, value), (other_kind, other_value))
            # Most pairs are certain; multiplying Fractions by 0 and 1 is what makes this slow.
            if b == ONE:
                beats += p * q
            elif e == ONE:
                equals += p * q
            elif b == ZERO and e == ZERO:
                fails += p * q
            else:
                beats += p * q * b
                equals += p * q * e
                fails += p * q * (ONE - b - e)
    return OutcomeOdds(beats, equals, fails)


@lru_cache(maxsize=4096)
def outcome_odds(spec: RollSpec, target: Target | int, options: RollOptions = NO_OPTIONS) -> OutcomeOdds:
    """The chances that a roll of ``spec`` beats, equals or fails a known number.

    ``target`` is a :class:`~yarnlog.rulesets.yarn.dice.Target` or a plain number (a difficulty
    factor, or a total already rolled for an inert force or an opponent).
    """
    return _versus(_roll_law(spec, options), _target_law(target, options))


@lru_cache(maxsize=4096)
def opposed_odds(
    spec: RollSpec,
    opponent: RollSpec,
    options: RollOptions = NO_OPTIONS,
    opponent_options: RollOptions | None = None,
) -> OutcomeOdds:
    """The chances that a roll of ``spec`` beats, equals or fails a roll of ``opponent`` not yet known.

    For an active opponent ("the opponent rolls a number of dice, just like you do"), or for the
    dice the GM rolls "for the strength of the inert force". The campaign's optional rules apply
    to both sides unless ``opponent_options`` says otherwise (the book applies the Unstoppable
    Six to a GMC; whether an inert force can botch is the GM's call).
    """
    theirs = options if opponent_options is None else opponent_options
    return _versus(_roll_law(spec, options), _roll_law(opponent, theirs))


def percent(chance: Fraction) -> str:
    """A chance as a whole percentage for recaps ("12%"); "<1%" and ">99%" keep long shots honest."""
    invalid(ZERO <= chance <= ONE, f"a chance is between 0 and 1, got {chance}")
    if chance in (ZERO, ONE):
        return f"{int(chance * 100)}%"
    rounded = int(chance * 100 + Fraction(1, 2))  # half up, where round() would go to even
    if rounded < 1:
        return "<1%"
    if rounded > 99:
        return ">99%"
    return f"{rounded}%"


def _versus_number(distribution: Mapping[int, Fraction], number: int) -> OutcomeOdds:
    beats = sum((p for total, p in distribution.items() if total > number), ZERO)
    equals = distribution.get(number, ZERO)
    return OutcomeOdds(beats, equals, ONE - beats - equals)


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, ZERO) + p * q
    return out


def simple_addition_odds(specs: list[RollSpec], number: int) -> OutcomeOdds:
    """"Simple Addition": the chances that the members' kept totals, added, beat a number.

    Without the optional rules (a botch or a blown top changes each member's total in ways
    the sum cannot see from kept totals alone): callers pass campaigns without them.
    """
    invalid(len(specs) >= 1, "a group effort needs rolls")
    return _simple_addition_odds(tuple(sorted(_kept_key(spec) for spec in specs)), number)


@lru_cache(maxsize=4096)
def _simple_addition_odds(kept: tuple[_Kept, ...], number: int) -> OutcomeOdds:
    """Memoized by the members' kept dice in a fixed order (a sum does not depend on the order)."""
    distribution: dict[int, Fraction] = {0: ONE}
    for key in kept:
        distribution = _convolve(distribution, dict(_kept_totals(key)))
    return _versus_number(distribution, number)


def worst_roller_odds(specs: list[RollSpec], number: int) -> OutcomeOdds:
    """"Worst Roller": the chances that the lowest of the members' totals beats a number.

    The lowest total beats the number only if every total does; it equals it if every total
    reaches the number and not all of them beat it. Without the optional rules.
    """
    invalid(len(specs) >= 1, "a group effort needs rolls")
    return _worst_roller_odds(tuple(sorted(_kept_key(spec) for spec in specs)), number)


@lru_cache(maxsize=4096)
def _worst_roller_odds(kept: tuple[_Kept, ...], number: int) -> OutcomeOdds:
    """Memoized by the members' kept dice in a fixed order (a product does not depend on the order)."""
    every_beats, every_reaches = ONE, ONE
    for key in kept:
        distribution = dict(_kept_totals(key))
        every_beats *= sum((p for total, p in distribution.items() if total > number), ZERO)
        every_reaches *= sum((p for total, p in distribution.items() if total >= number), ZERO)
    return OutcomeOdds(every_beats, every_reaches - every_beats, ONE - every_reaches)
