"""Exact prior odds of DramaSystem's resolutions: the figures of the rules digest, section 6."""

from fractions import Fraction as F
from itertools import product

import pytest

from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import Band
from yarnlog.rulesets.dramasystem.rules.odds import (
    advanced_contest,
    advanced_outcomes,
    simple_contest,
    simple_success,
)
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

G, Y, R = Colour.GREEN, Colour.YELLOW, Colour.RED


@pytest.mark.parametrize("players, against_red, against_yellow, against_green", [
    ((Y,), F(9, 17), F(5, 17), F(1, 17)),
    ((G,), F(333, 425), F(43, 85), F(49, 425)),
    ((R,), F(0), F(0), F(0)),
    ((G, Y), F(18801, 20825), F(23, 35), F(3529, 20825)),
    ((G, Y, R), F(30771, 41650), F(47, 140), F(286, 20825)),
    ((G, G, Y), F(27459, 27965), F(1381, 1645), F(1129, 4165)),
])
def test_simple_resolution_success(players, against_red, against_yellow, against_green):
    assert [simple_success(players, gm) for gm in (R, Y, G)] == [against_red, against_yellow, against_green]


def test_one_card_odds_are_the_share_of_matching_cards():
    # A yellow spend is one card of the 51 left: 3 + 12 + 12 match the colour (SRD 464, 496-512).
    assert simple_success((Y,), R) == F(27, 51)


@pytest.mark.parametrize("token, strong, middling, weak", [
    (R, F(16, 17), F(3, 4), F(19, 34)),
    (Y, F(77, 102), F(1, 2), F(25, 102)),
    (G, F(15, 34), F(1, 4), F(1, 17)),
])
def test_advanced_chance_of_an_up_clincher(token, strong, middling, weak):
    ups = [sum(p for b, p in advanced_outcomes(token, g).items() if b.up) for g in (Grade.STRONG,
                                                                                Grade.MIDDLING, Grade.WEAK)]
    assert ups == [strong, middling, weak]


def test_one_redraw_on_a_down_card_and_the_four_outcome_split():
    assert sum(p for b, p in advanced_outcomes(Y, Grade.MIDDLING, 1).items() if b.up) == F(77, 102)
    split = advanced_outcomes(Y, Grade.MIDDLING)
    assert split == {Band.UP_FACE: F(2, 13), Band.UP_NUMBER: F(9, 26), Band.DOWN_NUMBER: F(9, 26),
                     Band.DOWN_FACE: F(2, 13)}
    assert all(sum(advanced_outcomes(t, g, n).values()) == 1
               for t, g, n in product(Colour, Grade, range(2)))


def test_simple_contest_with_every_card_drawn():
    # Best in hand (reading 1), all 52 cards strictly ordered: a / (a + b).
    assert simple_contest(3, 2) == F(3, 5) and simple_contest(4, 2) == F(2, 3)


def test_advanced_contest_without_redraws_is_even():
    assert advanced_contest(0, 0) == F(1, 2)


def test_advanced_contest_with_one_redraw_against_none_plays_the_better_option():
    # Independently: ahead, the first passes and wins; behind, she takes the better of redrawing
    # herself (a card above b among the 50 not in play) or forcing the opponent (one below a).
    total = F(0)
    for a in range(52):
        for b in range(52):
            if a == b:
                continue
            total += 1 if a > b else max(F(51 - b, 50), F(a, 50))
    assert advanced_contest(1, 0) == total / (52 * 51)


def test_more_redraws_help_and_symmetric_contests_favour_nobody_much():
    assert advanced_contest(2, 1) > advanced_contest(1, 1) > advanced_contest(0, 1)
    assert abs(advanced_contest(1, 1) - F(1, 2)) < F(1, 100)
