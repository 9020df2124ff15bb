"""Simple procedural resolution against the DramaSystem SRD, lines 443-567."""

import pytest

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.dramasystem.rules.cards import Card, parse_cards
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.rules.simple_resolution import (
    Match,
    extra_card,
    match,
    outcome,
    play,
    require_complete,
    start,
)

G, Y, R = Colour.GREEN, Colour.YELLOW, Colour.RED
KC = Card.parse("KC")


def cards(text):
    return parse_cards(text)


def table(order=("Ana", "Ben", "Cy"), present=("Ana", "Ben")):
    return start(KC, order, frozenset(present))


def test_king_of_clubs_black_is_good_clubs_better_kings_best():
    # SRD 470 (book-1): "if the target card is a King of Clubs, they know that black cards are good,
    # clubs are better, but kings of the other three suits are the best of all."
    assert match(Card.parse("2S"), KC) is Match.COLOUR
    assert match(Card.parse("2C"), KC) is Match.SUIT
    assert match(Card.parse("KH"), KC) is Match.VALUE
    assert match(Card.parse("2H"), KC) is Match.NONE


@pytest.mark.parametrize("gm, card, success", [
    (G, "KD", True), (G, "3C", False),       # green: the same value (SRD 506-508)
    (Y, "3C", True), (Y, "3S", False),       # yellow: the same suit
    (R, "3S", True), (R, "3H", False),       # red: the same colour
    (G, "KH", True), (R, "KH", True),        # "A card matching the target's value always wins" (517)
])
def test_the_match_needed_depends_on_the_gms_token(gm, card, success):
    resolution = play(table(order=("Ana",), present=("Ana",)), "Ana", Y, cards(card), Referee())
    assert outcome(resolution, gm).success is success


def test_green_draws_two_yellow_and_red_one():
    # SRD 472-476.
    with pytest.raises(InvalidCommand, match="green token draws 2 cards"):
        play(table(), "Ana", G, cards("2S"), Referee())
    with pytest.raises(InvalidCommand, match="yellow token draws 1 card"):
        play(table(), "Ana", Y, cards("2S,3S"), Referee())


def test_players_act_in_the_fresh_precedence_order():
    # SRD 468: "In turn, according to a freshly-determined precedence order".
    with pytest.raises(RuleViolation, match="Ana's turn, not Ben's"):
        play(table(), "Ben", Y, cards("2S"), Referee())


def test_present_players_must_spend_absent_ones_only_yellow_or_green():
    # SRD 478-480.
    with pytest.raises(RuleViolation, match="Ana must spend a token"):
        play(table(), "Ana", None, (), Referee())
    after = play(play(table(), "Ana", Y, cards("2S"), Referee()), "Ben", Y, cards("3S"), Referee())
    with pytest.raises(RuleViolation, match="only yellow or green is spent"):
        play(after, "Cy", R, cards("4S"), Referee())
    passed = play(after, "Cy", None, (), Referee())
    assert passed.next_player is None and outcome(passed, Y).waiting_for == ()


def test_the_result_waits_for_every_present_player():
    resolution = play(table(), "Ana", Y, cards("2S"), Referee())
    assert outcome(resolution, Y).waiting_for == ("Ben",)
    with pytest.raises(RuleViolation, match="Ben must still spend"):
        require_complete(resolution, Referee())


def test_red_knocks_out_the_best_match_value_then_suit_then_colour():
    # SRD 484-492: "the GM always removes from play the best available match".
    resolution = play(table(), "Ana", G, cards("KH,3C"), Referee())
    resolution = play(resolution, "Ben", R, cards("4S"), Referee())
    lost = [d.card for d in resolution.draws if d.knocked_out]
    assert lost == [Card.parse("KH")]
    # The suit match (3C) still wins against a yellow token.
    assert outcome(resolution, Y).success and outcome(resolution, Y).best is Match.SUIT


def test_the_gm_may_choose_among_equal_matches_but_not_a_worse_one():
    # SRD 492: "If two or more cards are equally good matches, it doesn't matter which of them".
    resolution = play(table(), "Ana", G, cards("3C,4C"), Referee())
    chosen = play(resolution, "Ben", R, cards("5H"), Referee(), knock_out=Card.parse("4C"))
    assert [d.card for d in chosen.draws if d.knocked_out] == [Card.parse("4C")]
    worse = play(table(), "Ana", G, cards("3C,4S"), Referee())
    with pytest.raises(RuleViolation, match="best match \\(3C\\), not 4S"):
        play(worse, "Ben", R, cards("5H"), Referee(), knock_out=Card.parse("4S"))
    overridden = play(worse, "Ben", R, cards("5H"), Referee(Override("GM", "narration")),
                      knock_out=Card.parse("4S"))
    assert [d.card for d in overridden.draws if d.knocked_out] == [Card.parse("4S")]


def test_with_nothing_to_knock_out_the_next_matching_card_goes():
    # SRD 476: "the GM waits, instead knocking out the next card that does, as soon as a player draws it."
    resolution = play(table(), "Ana", R, cards("2H"), Referee())
    assert resolution.pending_knock_outs == 1
    resolution = play(resolution, "Ben", G, cards("3D,5C"), Referee())
    assert [d.card for d in resolution.draws if d.knocked_out] == [Card.parse("5C")]
    assert resolution.pending_knock_outs == 0 and not outcome(resolution, Y).success


def test_each_waiting_knock_out_takes_its_own_next_match():
    # Reading 4: two red tokens before any match: each waits for its own next matching card.
    resolution = start(KC, ("Ana", "Ben", "Cy"), frozenset({"Ana", "Ben", "Cy"}))
    resolution = play(resolution, "Ana", R, cards("2H"), Referee())
    resolution = play(resolution, "Ben", R, cards("3D"), Referee())
    resolution = play(resolution, "Cy", G, cards("4C,5S"), Referee())
    assert [d.card for d in resolution.draws if d.knocked_out] == [Card.parse("4C"), Card.parse("5S")]


def test_face_cards_bring_advantages_with_green_and_obstacles_with_red_even_when_knocked_out():
    # SRD 521-529, and aces are face cards (531).
    resolution = play(table(), "Ana", G, cards("AH,2D"), Referee())
    resolution = play(resolution, "Ben", R, cards("QS"), Referee())
    result = outcome(resolution, Y)
    assert [(c.player, str(c.card), c.kind) for c in result.consequences] == [
        ("Ana", "AH", "advantage"), ("Ben", "QS", "obstacle")]
    assert [str(d.card) for d in resolution.draws if d.knocked_out] == ["QS"]


def test_a_yellow_face_card_brings_nothing():
    resolution = play(table(), "Ana", Y, cards("JH"), Referee())
    assert outcome(resolution, Y).consequences == ()


def test_a_bennies_extra_card_is_one_more_card_for_that_player():
    # SRD 732 ("To draw an additional card"), reading 5.
    resolution = play(table(), "Ana", Y, cards("2H"), Referee())
    assert not outcome(resolution, G).success
    assert outcome(extra_card(resolution, "Ana", Card.parse("KD")), G).success


def test_narration_follows_the_match():
    # SRD 545-560.
    assert [m.narration for m in Match] == ["seemingly decisive", "impressive", "solid", "ineffectual"]


def test_the_target_card_is_out_of_the_deck():
    with pytest.raises(InvalidCommand, match="already drawn"):
        play(table(), "Ana", Y, cards("KC"), Referee())
