"""Player-versus-player contests, solo actions and assisting against the SRD, lines 579-635, 915-975."""

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.cards import Card
from yarnlog.rulesets.dramasystem.rules.contests import (
    Phase,
    advanced_allowance,
    advanced_draw,
    advanced_pass,
    advanced_result,
    advanced_start,
    assist,
    assist_allowance,
    contest_consequences,
    outright_winner,
    simple_allowance,
    simple_draw,
    simple_result,
    simple_start,
    simple_stop,
    solo_allowance,
)
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

G, Y, R = Colour.GREEN, Colour.YELLOW, Colour.RED
S, M, W = Grade.STRONG, Grade.MIDDLING, Grade.WEAK
C = Card.parse


def test_strong_against_weak_wins_outright():
    # SRD 581, 929.
    assert outright_winner("Ana", S, "Ben", W) == "Ana"
    assert outright_winner("Ana", W, "Ben", S) == "Ben"
    assert outright_winner("Ana", S, "Ben", M) is None


def test_card_allowances_follow_the_tokens_and_grades():
    # SRD 587-589: 3/2/1, Strong v Middling one more (simple only); 931: any better grade (advanced).
    assert [simple_allowance(t, M, M) for t in (G, Y, R)] == [3, 2, 1]
    assert simple_allowance(Y, S, M) == 3 and simple_allowance(Y, M, W) == 2
    assert advanced_allowance(Y, M, W) == 3 and advanced_allowance(Y, W, M) == 2
    # SRD 613: the GM's solo opposition, +1 if formidable; 629: an assistant, +1 Strong v all Weak.
    assert solo_allowance(R, formidable=True) == 2 and assist_allowance(G, True) == 4


def test_simple_contest_alternates_and_the_best_card_in_hand_wins():
    # SRD 593-603 and reading 1.
    contest = simple_start("Ana", "Ben", (3, 2))
    with pytest.raises(RuleViolation, match="Ana draws the first card"):
        simple_draw(contest, "Ben", C("2S"), Referee())
    contest = simple_draw(contest, "Ana", C("KD"), Referee(), token=Y)
    contest = simple_draw(contest, "Ben", C("5S"), Referee(), token=Y)
    contest = simple_draw(contest, "Ana", C("3C"), Referee(), token=Y)
    with pytest.raises(RuleViolation, match="Ben's turn"):
        simple_draw(contest, "Ana", C("4C"), Referee())
    contest = simple_draw(contest, "Ben", C("KS"), Referee(), token=Y)
    with pytest.raises(RuleViolation, match="no card draws left"):
        simple_draw(contest, "Ben", C("AS"), Referee())
    result = simple_result(contest)
    # KS beats KD by the suit order (SRD 605): Ben wins.
    assert (result.winner, str(result.winning_card), result.by_suit) == ("Ben", "KS", True)


def test_a_stopped_side_lets_the_other_draw_on_and_an_assistant_adds_draws():
    contest = simple_start("Ana", "Ben", (3, 1))
    contest = simple_draw(contest, "Ana", C("2D"), Referee())
    contest = simple_draw(contest, "Ben", C("9S"), Referee())
    contest = simple_draw(contest, "Ana", C("3D"), Referee())
    contest = simple_draw(contest, "Ana", C("4D"), Referee())  # Ben has no draws left
    contest = assist(contest, "Ben", 1)
    contest = simple_draw(contest, "Ben", C("10S"), Referee(), drawn_by="Cy", token=R)
    contest = simple_stop(contest, "Ben")
    assert simple_result(contest).winner == "Ben"


def test_face_cards_in_a_contest_bring_consequences_to_whoever_drew_them():
    # SRD 607-609.
    contest = simple_start("Ana", "Ben", (3, 3))
    contest = simple_draw(contest, "Ana", C("QD"), Referee(), token=G)
    contest = simple_draw(contest, "Ben", C("JS"), Referee(), drawn_by="Cy", token=R)
    assert contest_consequences(contest) == (("Ana", C("QD"), "advantage"), ("Cy", C("JS"), "obstacle"))


def opened():
    contest = advanced_start("Ana", "Ben", (1, 1))
    contest = advanced_draw(contest, "Ana", "Ana", C("5D"), Referee())
    return advanced_draw(contest, "Ben", "Ben", C("9C"), Referee())


def test_advanced_contest_each_redraw_replaces_a_current_card():
    # SRD 945-951: a redraw on oneself or forcing the opponent; reading 1: the card is replaced.
    contest = opened()
    assert contest.phase is Phase.ALTERNATE
    contest = advanced_draw(contest, "Ana", "Ben", C("2C"), Referee())  # Ana forces Ben
    assert contest.cards == (C("5D"), C("2C")) and contest.redraws == (0, 1)
    with pytest.raises(RuleViolation, match="no redraws left"):
        advanced_draw(contest, "Ana", "Ana", C("3C"), Referee())
    contest = advanced_draw(contest, "Ben", "Ben", C("8H"), Referee())
    assert advanced_result(contest).winner == "Ben"


def test_the_gm_forces_once_then_green_interferers_once_each_then_the_remaining_redraws():
    # SRD 953-959.
    contest = advanced_pass(advanced_pass(opened(), "Ana"), "Ben")
    contest = advanced_draw(contest, "GM", "Ben", C("3H"), Referee())
    with pytest.raises(RuleViolation, match="once"):
        advanced_draw(contest, "GM", "Ana", C("4H"), Referee())
    with pytest.raises(RuleViolation, match="green token"):
        advanced_draw(contest, "Cy", "Ana", C("4H"), Referee())
    contest = advanced_draw(contest, "Cy", "Ana", C("4H"), Referee(), green_token=True)
    with pytest.raises(RuleViolation, match="interferes once"):
        advanced_draw(contest, "Cy", "Ana", C("6H"), Referee(), green_token=True)
    contest = advanced_draw(contest, "Ben", "Ben", C("QC"), Referee())
    assert contest.phase is Phase.REMAINING
    with pytest.raises(RuleViolation, match="after the GM"):
        advanced_draw(contest, "Di", "Ana", C("7H"), Referee(), green_token=True)
    assert advanced_result(contest).winner == "Ben"
