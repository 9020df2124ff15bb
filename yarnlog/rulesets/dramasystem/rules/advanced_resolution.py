"""Advanced procedural resolution: up and down suits, the opening run, redraws, the clincher.

The SRD's advanced system (lines 776-913), as pure functions over an :class:`AdvancedResolution`:

1. The GM's token sets the up suits: red ♠♥♦ (clubs down), yellow ♠♥, green ♠ only (796-822).
2. "The GM starts by drawing from the card deck, and keeps drawing until a down card comes up."
   (835). Those cards are out of the deck (reading 12).
3. The primary acts: Strong, the GM draws two and discards the worse; Middling, one; Weak, two and
   discards the better (847-851). Best first: up face, up number, down number, down face; aces
   are face cards (855-863, 839). Which of two equal cards was kept is recorded (reading 13).
4. Redraws replace the active card. A player whose character is present may force one per scene
   with any token (871-873); a red token draws a consequence card (a down card: something bad), a
   green one too (an up card: something good), yellow none (875-881). An absent player redraws with
   a green token, no personal benefit (885-889), as often as they hold one (reading 11). A positive
   consequence not yet used may be cashed in for a redraw (893); a bennie buys one (732, reading 5).
5. The last card is the clincher: up face "especially impressive", up number "a thrilling
   squeaker victory", down face "a disastrous setback", down number "a heart-breaking near miss"
   (903-913).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck, Suit
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

CHAPTER = "Advanced Procedural System"
UP_SUITS = {Colour.RED: frozenset({Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS}),
            Colour.YELLOW: frozenset({Suit.SPADES, Suit.HEARTS}),
            Colour.GREEN: frozenset({Suit.SPADES})}
CHANCE_OF_FAILURE = {Colour.RED: "low", Colour.YELLOW: "moderate", Colour.GREEN: "high"}
OPENING_RUN = Rule(BOOK, CHAPTER, "The GM starts by drawing from the card deck, and keeps drawing until "
                                  "a down card comes up. (line 835)")
PRIMARY = Rule(BOOK, CHAPTER, "If the primary actor is using a Strong ability, the GM draws two cards, "
                              "discarding the worst ... Middling ... a single card ... Weak ... two "
                              "cards, discarding the best (lines 847-851)")
ONE_REDRAW = Rule(BOOK, CHAPTER, "If a player's character is present in the scene, the player may force "
                                 "one redraw by spending a procedural token. Players may only do this "
                                 "once per scene. (line 871)")
ABSENT_GREEN = Rule(BOOK, CHAPTER, "Players whose characters are not present may force redraws by "
                                   "spending a green token. (line 885)")
CASH_IN = Rule(BOOK, CHAPTER, "This is only possible if the character has yet to gain from that "
                              "consequence, in or out of a procedural scene. (line 893)")
CONSEQUENCE_CARD = Rule(BOOK, CHAPTER, "On a red token, the player draws a consequence card ... On a yellow "
                                       "token, the player does not draw a consequence card. On a green "
                                       "token, the player draws a consequence card. (lines 877-881)")


class Band(Enum):
    """Where a card ranks for the primary's draw and the clincher, best first (SRD 855-863)."""

    UP_FACE = 4
    UP_NUMBER = 3
    DOWN_NUMBER = 2
    DOWN_FACE = 1

    @property
    def up(self) -> bool:
        return self in (Band.UP_FACE, Band.UP_NUMBER)

    @property
    def outcome(self) -> str:
        """The clincher's outcome in the book's words (SRD 903-911)."""
        return _OUTCOMES[self]


_OUTCOMES = {Band.UP_FACE: "an especially impressive success",
             Band.UP_NUMBER: "a thrilling squeaker victory",
             Band.DOWN_NUMBER: "a heart-breaking near miss",
             Band.DOWN_FACE: "a disastrous setback"}


def band(card: Card, gm_token: Colour) -> Band:
    up = card.suit in UP_SUITS[gm_token]
    if up:
        return Band.UP_FACE if card.face else Band.UP_NUMBER
    return Band.DOWN_FACE if card.face else Band.DOWN_NUMBER


class RedrawMeans(Enum):
    """How a redraw was paid for."""

    TOKEN = "token"            # a present player's once-per-scene token (871)
    ABSENT_GREEN = "absent"    # an absent player's green token (885)
    CASH_IN = "cash-in"        # a positive consequence not yet used (893)
    BENNIE = "bennie"          # a bennie's additional card (732)
    RULING = "ruling"          # the GM's ruling for a "How I Do It" specialty (149; reading 7)


@dataclass(frozen=True)
class Redraw:
    player: str
    means: RedrawMeans
    token: Colour | None
    card: Card
    consequence_card: Card | None = None
    consequence: str | None = None  # "good" | "bad" | None


@dataclass(frozen=True)
class AdvancedResolution:
    """An advanced resolution in progress: the GM's token, the active card and what came before."""

    gm_token: Colour
    primary: str
    grade: Grade
    present: frozenset[str]
    opening: tuple[Card, ...] = ()
    primary_cards: tuple[Card, ...] = ()
    active: Card | None = None
    redraws: tuple[Redraw, ...] = ()
    deck: Deck = field(default_factory=Deck)

    def band(self, card: Card) -> Band:
        return band(card, self.gm_token)


def open_run(gm_token: Colour, primary: str, grade: Grade, present: frozenset[str],
             cards: tuple[Card, ...], referee: Referee) -> AdvancedResolution:
    """Steps one and the opening: up cards until the first down card, which sets the scene."""
    invalid(bool(cards), "the opening run draws at least one card, the first down card")
    resolution = AdvancedResolution(gm_token, primary, grade, present, deck=Deck().draw_all(cards))
    bands = [resolution.band(c) for c in cards]
    referee.require(not bands[-1].up and all(b.up for b in bands[:-1]), OPENING_RUN,
                    "the opening run draws until the first down card")
    return replace(resolution, opening=cards, active=cards[-1])


def primary_acts(resolution: AdvancedResolution, cards: tuple[Card, ...], kept: Card,
                 referee: Referee) -> AdvancedResolution:
    """Step two: the GM draws for the primary by grade; ``kept`` becomes the active card."""
    wanted = 1 if resolution.grade is Grade.MIDDLING else 2
    invalid(len(cards) == wanted, f"a {resolution.grade.value} primary has {wanted} card"
                                  f"{'s' if wanted > 1 else ''} drawn, not {len(cards)} (SRD 847-851)")
    invalid(kept in cards, f"the kept card {kept} is not one of those drawn")
    bands = [resolution.band(c).value for c in cards]
    if resolution.grade is Grade.STRONG:
        referee.require(resolution.band(kept).value == max(bands), PRIMARY,
                        "a Strong primary keeps the better card")
    elif resolution.grade is Grade.WEAK:
        referee.require(resolution.band(kept).value == min(bands), PRIMARY,
                        "a Weak primary keeps the worse card")
    return replace(resolution, primary_cards=cards, active=kept,
                   deck=resolution.deck.draw_all(cards))


def redraw(resolution: AdvancedResolution, player: str, means: RedrawMeans, token: Colour | None,
           card: Card, consequence_card: Card | None, referee: Referee,
           unused_positive_consequence: bool = False) -> AdvancedResolution:
    """Step three: one redraw, which replaces the active card, and any consequence card."""
    invalid(bool(resolution.primary_cards), "the primary acts before any redraw (SRD 845-851)")
    present = player in resolution.present or player == resolution.primary
    if means is RedrawMeans.TOKEN:
        invalid(token is not None, "a token redraw names the token's colour")
        referee.require(present, ONE_REDRAW, f"{player}'s character is not present: an absent player "
                                             "redraws with a green token")
        earlier = [r for r in resolution.redraws if r.player == player and r.means is RedrawMeans.TOKEN]
        referee.require(not earlier, ONE_REDRAW, f"{player} already forced a redraw in this scene")
    elif means is RedrawMeans.ABSENT_GREEN:
        referee.require(not present, ABSENT_GREEN, f"{player}'s character is present: one token redraw "
                                                   "per scene")
        referee.require(token is Colour.GREEN, ABSENT_GREEN, "an absent player redraws with a green token")
    elif means is RedrawMeans.CASH_IN:
        referee.require(unused_positive_consequence, CASH_IN,
                        f"{player} has no positive consequence yet to gain from")
    else:
        invalid(token is None, "a redraw bought with a bennie or granted by the GM spends no token")
    draws_consequence = means is RedrawMeans.TOKEN and token in (Colour.RED, Colour.GREEN)
    if draws_consequence:
        invalid(consequence_card is not None,
                f"a {token.value if token else ''} token draws a consequence card: enter it (SRD 877-881)")
    else:
        referee.require(consequence_card is None, CONSEQUENCE_CARD,
                        "a consequence card needs a present player's red or green")
    deck = resolution.deck.draw(card)
    consequence = None
    if consequence_card is not None:
        deck = deck.draw(consequence_card)
        up = resolution.band(consequence_card).up
        # Red: a down card brings something bad; green: an up card something good (SRD 877-881).
        if token is Colour.RED and not up:
            consequence = "bad"
        elif token is Colour.GREEN and up:
            consequence = "good"
    entry = Redraw(player, means, token, card, consequence_card, consequence)
    return replace(resolution, active=card, redraws=resolution.redraws + (entry,), deck=deck)


@dataclass(frozen=True)
class AdvancedOutcome:
    clincher: Card
    band: Band
    success: bool
    outcome: str
    narrator: str  # who describes it: the primary's player on an up card, the GM on a down one


def clinch(resolution: AdvancedResolution) -> AdvancedOutcome:
    """Step four: the current card stands as the clincher (SRD 901-913)."""
    card = resolution.active
    invalid(card is not None and bool(resolution.primary_cards), "the primary has not acted yet")
    assert card is not None
    which = resolution.band(card)
    return AdvancedOutcome(card, which, which.up, which.outcome,
                           resolution.primary if which.up else "the GM")
