"""Exact prior odds of DramaSystem's card resolutions, in fractions, never by simulation.

A card matters to a resolution only through its category, so each figure is a small dynamic
program over how many cards of each category are left (rules digest, section 6):

- simple resolution: relative to the target the other 51 cards are 3 of the same value, 12 of the
  same suit, 12 of the same colour and 24 others; the players' tokens in precedence order and the
  GM's token give the chance that a held card matches when all have drawn, knock-outs included;
- advanced resolution: the chance of each kind of clincher (up face, up number, down number, down
  face) after the GM's opening run and the primary's grade-based draw, with a stated redraw policy;
- simple player-versus-player: every card is strictly ordered (suits break ties), so with all
  cards drawn and the best in hand counting (reading 1), side A wins with a / (a + b).

The GM's token is secret (SRD 445): a player's view shows the figure against each colour of it,
never which one was spent (reading 16).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import UP_SUITS, Band
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.rules.simple_resolution import CARDS_FOR

# Relative to a target card: same value, same suit, same colour (other suit), the rest.
_SIMPLE_DECK = (3, 12, 12, 24)
# What a held card must be against each GM token: categories 0..k of (value, suit, colour).
_NEEDED_UP_TO = {Colour.GREEN: 0, Colour.YELLOW: 1, Colour.RED: 2}


def simple_success(players: Sequence[Colour], gm_token: Colour, extra_cards: int = 0) -> Fraction:
    """P(the players succeed) when they spend ``players`` in this order against ``gm_token``.

    Knock-outs follow the book: after a red draw the best held match goes (value, then suit, then
    colour); with none held, the next matching card drawn goes (SRD 476, 484-492; reading 4).
    ``extra_cards`` are bennie cards drawn at the end (reading 5).
    """
    steps: list[tuple[int, bool]] = [(CARDS_FOR[c], c is Colour.RED) for c in players]
    steps += [(1, False)] * extra_cards
    return _simple(tuple(steps), 0, _SIMPLE_DECK, (0, 0, 0), 0, _NEEDED_UP_TO[gm_token])


@lru_cache(maxsize=None)
def _simple(steps: tuple[tuple[int, bool], ...], drawn_in_step: int, deck: tuple[int, ...],
            held: tuple[int, int, int], pending: int, needed: int) -> Fraction:
    if not steps:
        return Fraction(1) if any(held[: needed + 1]) else Fraction(0)
    cards, red = steps[0]
    if drawn_in_step == cards:
        if red:
            best = next((i for i in range(3) if held[i]), None)
            if best is None:
                pending += 1
            else:
                held = tuple(h - (i == best) for i, h in enumerate(held))  # type: ignore[assignment]
        return _simple(steps[1:], 0, deck, held, pending, needed)
    total = sum(deck)
    chance = Fraction(0)
    for category, count in enumerate(deck):
        if not count:
            continue
        left = tuple(n - (i == category) for i, n in enumerate(deck))
        if category < 3 and pending:
            after = _simple(steps, drawn_in_step + 1, left, held, pending - 1, needed)
        elif category < 3:
            kept = tuple(h + (i == category) for i, h in enumerate(held))
            after = _simple(steps, drawn_in_step + 1, left, kept, pending, needed)
        else:
            after = _simple(steps, drawn_in_step + 1, left, held, pending, needed)
        chance += Fraction(count, total) * after
    return chance


def simple_contest(cards_a: int, cards_b: int) -> Fraction:
    """P(A wins) a simple player-versus-player contest when both draw every card they may.

    The best card in hand counts (reading 1) and the 52 cards are strictly ordered (SRD 603-605),
    so the best of all a + b cards drawn is equally likely to be any of them.
    """
    if cards_a + cards_b == 0:
        return Fraction(1, 2)
    return Fraction(cards_a, cards_a + cards_b)


def advanced_outcomes(gm_token: Colour, grade: Grade, redraws: int = 0) -> dict[Band, Fraction]:
    """The chance of each kind of clincher in an advanced resolution, opening run included.

    Policy: the players spend ``redraws`` redraws, one at a time, whenever the active card is a
    down card, and none on an up card; the redraws draw no consequence card (a yellow token, an
    absent player's green, a cash-in or a bennie). Exact, without replacement (SRD 835-913).
    """
    up_suits = len(UP_SUITS[gm_token])
    deck = (4 * up_suits, 9 * up_suits, 9 * (4 - up_suits), 4 * (4 - up_suits))
    chances = _advanced(deck, grade.level, redraws)
    return {band: chances[i] for i, band in enumerate((Band.UP_FACE, Band.UP_NUMBER, Band.DOWN_NUMBER,
                                                       Band.DOWN_FACE))}


_Dist = tuple[Fraction, Fraction, Fraction, Fraction]


def _add(a: _Dist, b: _Dist, weight: Fraction) -> _Dist:
    return tuple(x + weight * y for x, y in zip(a, b))  # type: ignore[return-value]


_NONE: _Dist = (Fraction(0),) * 4


@lru_cache(maxsize=None)
def _advanced(deck: tuple[int, int, int, int], level: int, redraws: int) -> _Dist:
    # The opening run: up cards are drawn and set aside until the first down card (SRD 835).
    total, result = sum(deck), _NONE
    for band, count in enumerate(deck):
        if count:
            left = _minus(deck, band)
            after = _advanced(left, level, redraws) if band < 2 else _primary(left, level, redraws)
            result = _add(result, after, Fraction(count, total))
    return result


@lru_cache(maxsize=None)
def _primary(deck: tuple[int, int, int, int], level: int, redraws: int) -> _Dist:
    total, result = sum(deck), _NONE
    for first, count in enumerate(deck):
        if not count:
            continue
        left = _minus(deck, first)
        if level == 2:  # Middling: a single card
            result = _add(result, _redraws(left, first, redraws), Fraction(count, total))
            continue
        for second, count2 in enumerate(left):
            if count2:
                # Bands are numbered best first: Strong keeps the lower index, Weak the higher.
                kept = min(first, second) if level == 3 else max(first, second)
                weight = Fraction(count, total) * Fraction(count2, total - 1)
                result = _add(result, _redraws(_minus(left, second), kept, redraws), weight)
    return result


@lru_cache(maxsize=None)
def _redraws(deck: tuple[int, int, int, int], active: int, redraws: int) -> _Dist:
    if active < 2 or redraws == 0 or not sum(deck):
        return tuple(Fraction(int(i == active)) for i in range(4))  # type: ignore[return-value]
    total, result = sum(deck), _NONE
    for band, count in enumerate(deck):
        if count:
            result = _add(result, _redraws(_minus(deck, band), band, redraws - 1), Fraction(count, total))
    return result


def _minus(deck: tuple[int, int, int, int], band: int) -> tuple[int, int, int, int]:
    return tuple(n - (i == band) for i, n in enumerate(deck))  # type: ignore[return-value]


_CARDS = 52
_Grid = tuple[tuple[Fraction, ...], ...]


def advanced_contest(redraws_first: int, redraws_second: int) -> Fraction:
    """P(the first contestant wins) an advanced player-versus-player contest, under a stated policy.

    The contest is a game with choices (SRD 945-951: redraw yourself, force your opponent, or
    pass), so its odds need a policy. This figure assumes: both contestants play to win (each
    choice maximizes its player's own chance, a pass by both ends the contest); the GM and other
    players do not intervene (SRD 953-957); and each new card is drawn from the 50 cards not in
    play (discards go back, a model of the deck; the book keeps them out). Exact over that model.
    """
    grid = _contest(redraws_first, redraws_second, 0, False)
    total = sum((grid[a][b] for a in range(_CARDS) for b in range(_CARDS) if a != b), Fraction(0))
    return total / (_CARDS * (_CARDS - 1))


@lru_cache(maxsize=None)
def _contest(left_a: int, left_b: int, turn: int, passed: bool) -> _Grid:
    """P(first wins) for every pair of current cards (strength 0..51), ``turn`` 0 the first's move."""
    done = tuple(tuple(Fraction(int(a > b)) for b in range(_CARDS)) for a in range(_CARDS))
    if left_a == 0 and left_b == 0:
        return done
    mover_left = left_a if turn == 0 else left_b
    options: list[_Grid] = []
    # Passing: the contest ends when the other passed just before, or can no longer move.
    other_left = left_b if turn == 0 else left_a
    options.append(done if passed or other_left == 0 else _contest(left_a, left_b, 1 - turn, True))
    if mover_left:
        after = _contest(left_a - (turn == 0), left_b - (turn == 1), 1 - turn, False)
        col = [sum(after[a][b] for a in range(_CARDS) if a != b) for b in range(_CARDS)]
        row = [sum(after[a][b] for b in range(_CARDS) if b != a) for a in range(_CARDS)]
        fresh = _CARDS - 2
        new_a = tuple(tuple((col[b] - after[a][b]) / fresh for b in range(_CARDS)) for a in range(_CARDS))
        new_b = tuple(tuple((row[a] - after[a][b]) / fresh for b in range(_CARDS)) for a in range(_CARDS))
        options += [new_a, new_b]
    pick = max if turn == 0 else min
    return tuple(tuple(pick(option[a][b] for option in options) for b in range(_CARDS))
                 for a in range(_CARDS))
