"""Playing cards as DramaSystem reads them: ranks, suits, colours, face cards and the deck.

"For procedural resolutions, you'll also require a deck of standard playing cards, from which the
jokers are removed. The GM always shuffles the deck before launching into any new resolution."
(SRD 429.) A card is written as its rank and suit, ``QH``, ``10S`` (or ``TS``), ``A♠``. Every
card of a resolution is recorded as drawn, so a deck is a projection: the cards out, the cards
left. Drawing one by the tool takes a uniformly random card of those left, from a secure source.

Ranks run 2 to 10, then J, Q, K and A; "aces always count as face cards, along with the Jack,
Queen and King" (SRD 531, 989), and the ace ranks high (reading 2). Suits break ties of equal
value, "from best to worst: spades, hearts, diamonds, clubs" (SRD 605, 965-975).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from yarnlog.core.referee import invalid

if TYPE_CHECKING:
    from random import Random


class Suit(Enum):
    """A suit, with its place in the SRD's suit order (4 is best) and its colour."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def order(self) -> int:
        """Spades 4, hearts 3, diamonds 2, clubs 1: "spades, hearts, diamonds, clubs" (SRD 605)."""
        return _SUIT_ORDER[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SUIT_ORDER = {Suit.SPADES: 4, Suit.HEARTS: 3, Suit.DIAMONDS: 2, Suit.CLUBS: 1}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {**{s.value: s for s in Suit}, **{v: s for s, v in _SYMBOLS.items()}}
_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_TEXT = {**{str(n): n for n in range(2, 11)}, "T": 10,
                 **{name: rank for rank, name in _RANK_NAMES.items()}}
_LONG_RANKS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_LONG_SUITS = {Suit.SPADES: "Spades", Suit.HEARTS: "Hearts", Suit.DIAMONDS: "Diamonds",
               Suit.CLUBS: "Clubs"}


@dataclass(frozen=True, order=False)
class Card:
    """One card: ``rank`` 2 to 14 (11 J, 12 Q, 13 K, 14 A) and ``suit``."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        invalid(2 <= self.rank <= 14, f"a card's rank is 2 to 10, J, Q, K or A, not {self.rank}")

    @classmethod
    def parse(cls, text: str) -> "Card":
        """``QH``, ``10s``, ``TS``, ``a♠``: rank then suit, case-insensitive."""
        cleaned = text.strip().upper()
        invalid(len(cleaned) >= 2 and cleaned[-1] in _SUIT_BY_TEXT and cleaned[:-1] in _RANK_BY_TEXT,
                f"{text.strip()[:12]!r} is not a card: write its rank and suit, e.g. QH, 10S, AC")
        return cls(_RANK_BY_TEXT[cleaned[:-1]], _SUIT_BY_TEXT[cleaned[-1]])

    @property
    def face(self) -> bool:
        """Jack, Queen, King or Ace: "aces always count as face cards" (SRD 531)."""
        return self.rank >= 11

    @property
    def red(self) -> bool:
        return self.suit.red

    @property
    def strength(self) -> int:
        """A number that orders all 52 cards: value first, then the suit order (SRD 603-605)."""
        return self.rank * 4 + self.suit.order

    def beats(self, other: "Card") -> bool:
        """The higher card wins; equal values are settled by the suit order (SRD 603-605)."""
        return self.strength > other.strength

    def __str__(self) -> str:
        return f"{_RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.value}"

    @property
    def display(self) -> str:
        """``Q♥``: the rank and the suit's symbol, for tables and sentences."""
        return f"{_RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.symbol}"

    @property
    def name(self) -> str:
        """``the Queen of Hearts``, ``the 10 of Spades``."""
        return f"the {_LONG_RANKS.get(self.rank, str(self.rank))} of {_LONG_SUITS[self.suit]}"


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))


@dataclass(frozen=True)
class Deck:
    """A deck shuffled for one resolution: which cards are out (in draw order) and which are left.

    Only the cards drawn are facts; the order of the cards left is unknown, so drawing by the tool
    picks uniformly among them.
    """

    drawn: tuple[Card, ...] = ()

    @property
    def left(self) -> tuple[Card, ...]:
        out = set(self.drawn)
        return tuple(card for card in FULL_DECK if card not in out)

    def draw(self, card: Card) -> "Deck":
        """The deck after ``card`` was drawn; a card already out is not in this deck."""
        invalid(card not in self.drawn,
                f"{card} was already drawn in this resolution: a deck has one of each card")
        return Deck(self.drawn + (card,))

    def draw_all(self, cards: Iterable[Card]) -> "Deck":
        deck = self
        for card in cards:
            deck = deck.draw(card)
        return deck

    def draw_random(self, rng: "Random") -> Card:
        """A card drawn by the tool from those left (``rng`` should be ``secrets.SystemRandom``)."""
        left = self.left
        invalid(bool(left), "the deck is empty")
        return rng.choice(left)


def parse_cards(texts: Sequence[str] | str) -> tuple[Card, ...]:
    """Cards from ``"QH,10S"`` or ``["QH", "10S"]``."""
    items = texts.split(",") if isinstance(texts, str) else list(texts)
    return tuple(Card.parse(item) for item in items if item.strip())
