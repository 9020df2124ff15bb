"""Advanced procedural resolution against the DramaSystem SRD, lines 776-913."""

import pytest

from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import (
    Band,
    RedrawMeans,
    band,
    clinch,
    open_run,
    primary_acts,
    redraw,
)
from yarnlog.rulesets.dramasystem.rules.cards import Card, parse_cards
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

G, Y, R = Colour.GREEN, Colour.YELLOW, Colour.RED
C = Card.parse


@pytest.mark.parametrize("token, up", [(R, "SHD"), (Y, "SH"), (G, "S")])
def test_the_gms_token_sets_the_up_suits(token, up):
    # SRD 804-822 (book-10): red ♠♥♦ / ♣; yellow ♠♥ / ♦♣; green ♠ / ♥♦♣.
    ups = {s for s in "SHDC" if band(C(f"5{s}"), token).up}
    assert ups == set(up)


def test_cards_rank_up_face_up_number_down_number_down_face():
    # SRD 855-863, aces are face cards (839).
    assert [band(C(t), Y) for t in ("AS", "5H", "5D", "KC")] == [
        Band.UP_FACE, Band.UP_NUMBER, Band.DOWN_NUMBER, Band.DOWN_FACE]


def scene(grade=Grade.MIDDLING, token=Y):
    return open_run(token, "Ana", grade, frozenset({"Ana", "Ben"}), parse_cards("3S,KH,4D"), Referee())


def test_the_opening_run_draws_until_the_first_down_card():
    # SRD 835: "The GM starts by drawing from the card deck, and keeps drawing until a down card comes up."
    assert scene().active == C("4D")
    with pytest.raises(RuleViolation, match="until the first down card"):
        open_run(Y, "Ana", Grade.MIDDLING, frozenset(), parse_cards("3S,4D,5S"), Referee())
    with pytest.raises(RuleViolation, match="until the first down card"):
        open_run(Y, "Ana", Grade.MIDDLING, frozenset(), parse_cards("3S"), Referee())


def test_strong_keeps_the_better_weak_the_worse_middling_draws_one():
    # SRD 847-851.
    strong = primary_acts(scene(Grade.STRONG), parse_cards("2C,9H"), C("9H"), Referee())
    assert strong.active == C("9H")
    with pytest.raises(RuleViolation, match="Strong primary keeps the better"):
        primary_acts(scene(Grade.STRONG), parse_cards("2C,9H"), C("2C"), Referee())
    with pytest.raises(RuleViolation, match="Weak primary keeps the worse"):
        primary_acts(scene(Grade.WEAK), parse_cards("2C,9H"), C("9H"), Referee())
    # A down face card is worse than a down number (SRD 863).
    weak = primary_acts(scene(Grade.WEAK), parse_cards("2C,KC"), C("KC"), Referee())
    assert weak.active == C("KC")
    with pytest.raises(InvalidCommand, match="middling primary has 1 card"):
        primary_acts(scene(), parse_cards("2C,KC"), C("KC"), Referee())


def acted():
    return primary_acts(scene(), parse_cards("2C"), C("2C"), Referee())


def test_a_present_player_redraws_once_per_scene_and_red_draws_a_consequence_card():
    # SRD 871: "Players may only do this once per scene." 877: "On a red token, the player draws a
    # consequence card. If it is down card, something bad will happen".
    after = redraw(acted(), "Ben", RedrawMeans.TOKEN, R, C("QS"), C("3C"), Referee())
    assert after.active == C("QS") and after.redraws[-1].consequence == "bad"
    with pytest.raises(RuleViolation, match="already forced a redraw"):
        redraw(after, "Ben", RedrawMeans.TOKEN, Y, C("4S"), None, Referee())


def test_green_consequence_card_is_good_only_when_up_yellow_draws_none():
    # SRD 879-881.
    good = redraw(acted(), "Ana", RedrawMeans.TOKEN, G, C("QS"), C("3H"), Referee())
    assert good.redraws[-1].consequence == "good"
    nothing = redraw(acted(), "Ana", RedrawMeans.TOKEN, G, C("QS"), C("3C"), Referee())
    assert nothing.redraws[-1].consequence is None
    with pytest.raises(RuleViolation, match="consequence card"):
        redraw(acted(), "Ana", RedrawMeans.TOKEN, Y, C("QS"), C("3C"), Referee())
    with pytest.raises(InvalidCommand, match="consequence card: enter it"):
        redraw(acted(), "Ana", RedrawMeans.TOKEN, R, C("QS"), None, Referee())


def test_absent_players_redraw_with_green_only_as_often_as_they_hold_one():
    # SRD 885 and reading 11.
    with pytest.raises(RuleViolation, match="green token"):
        redraw(acted(), "Cy", RedrawMeans.ABSENT_GREEN, Y, C("QS"), None, Referee())
    once = redraw(acted(), "Cy", RedrawMeans.ABSENT_GREEN, G, C("QS"), None, Referee())
    twice = redraw(once, "Cy", RedrawMeans.ABSENT_GREEN, G, C("2D"), None, Referee())
    assert twice.active == C("2D")
    with pytest.raises(RuleViolation, match="is present"):
        redraw(acted(), "Ben", RedrawMeans.ABSENT_GREEN, G, C("QS"), None, Referee())


def test_cashing_in_needs_a_positive_consequence_not_yet_used():
    # SRD 893.
    with pytest.raises(RuleViolation, match="no positive consequence"):
        redraw(acted(), "Ana", RedrawMeans.CASH_IN, None, C("QS"), None, Referee())
    assert redraw(acted(), "Ana", RedrawMeans.CASH_IN, None, C("QS"), None, Referee(),
                  unused_positive_consequence=True).active == C("QS")


@pytest.mark.parametrize("card, words, success, narrator", [
    ("KS", "an especially impressive success", True, "Ana"),
    ("5H", "a thrilling squeaker victory", True, "Ana"),
    ("5D", "a heart-breaking near miss", False, "the GM"),
    ("AC", "a disastrous setback", False, "the GM"),
])
def test_the_clincher_decides_in_four_ways(card, words, success, narrator):
    # SRD 903-911 (book-12): no middling results.
    result = clinch(redraw(acted(), "Ana", RedrawMeans.BENNIE, None, C(card), None, Referee()))
    assert (result.outcome, result.success, result.narrator) == (words, success, narrator)
