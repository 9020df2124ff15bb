"""Cards and procedural tokens against the DramaSystem SRD (shared/seeds/001_d92eeb8e25f80b6a.txt)."""

import random

import pytest

from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.rulesets.dramasystem.rules.cards import FULL_DECK, Card, Deck, Suit, parse_cards
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour, TokenPile, burn, restore, spend


def test_a_deck_has_52_cards_without_jokers():
    # SRD 429: "a deck of standard playing cards, from which the jokers are removed."
    assert len(FULL_DECK) == 52 == len(set(FULL_DECK))


@pytest.mark.parametrize("text, rank, suit", [("QH", 12, Suit.HEARTS), ("10s", 10, Suit.SPADES),
                                              ("TS", 10, Suit.SPADES), ("a♠", 14, Suit.SPADES),
                                              ("2C", 2, Suit.CLUBS)])
def test_cards_are_written_rank_then_suit(text, rank, suit):
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "Q", "1H", "QX", "11H", "[/x]H"])
def test_a_card_that_is_not_one_is_refused_with_the_format(text):
    with pytest.raises(InvalidCommand, match="rank and suit"):
        Card.parse(text)


def test_aces_are_face_cards():
    # Book example book-9, SRD 531: "In DramaSystem, aces always count as face cards, along with the
    # Jack, Queen and King."
    assert [c.face for c in parse_cards("AS,KH,QD,JC,10S,2H")] == [True] * 4 + [False] * 2


def test_the_suit_order_breaks_ties_of_value():
    # Book example book-11, SRD 605: "the suit order (from best to worst): spades, hearts, diamonds, clubs."
    sevens = parse_cards("7C,7D,7H,7S")
    assert sorted(sevens, key=lambda c: c.strength) == list(sevens)
    assert Card.parse("8C").beats(Card.parse("7S"))  # value first
    assert Card.parse("AS").beats(Card.parse("KS"))  # reading 2: the ace ranks high


def test_a_deck_refuses_a_card_drawn_twice_and_draws_from_what_is_left():
    deck = Deck().draw_all(parse_cards("KC,QH"))
    with pytest.raises(InvalidCommand, match="already drawn"):
        deck.draw(Card.parse("kc"))
    assert len(deck.left) == 50
    drawn = {deck.draw_random(random.Random(seed)) for seed in range(200)}
    assert drawn <= set(deck.left) and Card.parse("KC") not in drawn


def test_three_spends_refresh_the_pile_at_once():
    # SRD 423: "When you've spent all three of them, they immediately refresh."
    referee = Referee()
    pile = TokenPile()
    first = spend(pile, Colour.GREEN, referee, "Ana")
    assert first.pile.unspent == {Colour.YELLOW, Colour.RED} and not first.refreshed
    second = spend(first.pile, Colour.RED, referee, "Ana")
    third = spend(second.pile, Colour.YELLOW, referee, "Ana")
    assert third.refreshed and third.pile == TokenPile()


def test_a_spent_colour_cannot_be_spent_again():
    # SRD 423: "When you spend a token, set it aside."
    pile = spend(TokenPile(), Colour.GREEN, Referee(), "Ana").pile
    with pytest.raises(RuleViolation, match="no unspent green token"):
        spend(pile, Colour.GREEN, Referee(), "Ana")


def test_a_bennie_returns_one_spent_token_and_never_a_fourth():
    # Reading 5 of SRD 730: a spent token of the player's choice returns to the unspent pile.
    pile = spend(TokenPile(), Colour.GREEN, Referee(), "Ana").pile
    assert restore(pile, Colour.GREEN, Referee(), "Ana") == TokenPile()
    with pytest.raises(RuleViolation, match="not spent"):
        restore(pile, Colour.RED, Referee(), "Ana")


def test_burning_the_last_unspent_token_refreshes_the_victims_pile():
    # SRD 740 with 423 (reading 6, kept literal): burning spends it, and the third spend refreshes.
    pile = TokenPile(frozenset({Colour.RED}))
    burnt = burn(pile, Colour.RED, Referee(), "Ben")
    assert burnt.refreshed and burnt.pile == TokenPile()
