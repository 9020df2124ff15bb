"""Simple procedural resolution: the GM's secret token, the target card, the players' draws.

The SRD's steps (lines 443-567), as pure functions over a :class:`SimpleResolution`:

1. The GM secretly spends one token; its colour is the opposing force (445-459).
2. The target card is cut, drawn and shown to all (462-464).
3. In a freshly drawn precedence order each player may spend one token and draw: green two cards,
   yellow one, red one "after which the GM removes from play a single card held by any player"
   (468-476). Present players must spend and draw; absent players may spend only yellow or green
   (478-480). The GM knocks out the best available match: same number, then same suit, then same
   colour (484-492); with no match on the table she waits and knocks out "the next card that does"
   (476), each waiting knock-out for its own next match, in order (reading 4).
4. Success needs a held card that matches: green, the value; yellow, the suit; red, the colour;
   "A card matching the target's value always wins" (496-517).
5. Face cards, aces included, drawn with green bring an advantage, with red an obstacle, "even if
   they were later knocked out" (521-531).

A bennie's extra card (SRD 732) is one more card for that player (reading 5). "Scenes never include
more than one procedural resolution." (567) is the scene's rule, checked where scenes are.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

CHAPTER = "Procedural Resolution"
DRAWS = Rule(BOOK, CHAPTER, "A player spending a green token draws two cards. A player spending a "
                            "yellow token draws one card. A player spending a red token draws one "
                            "card (lines 472-476)")
PRESENT_MUST_SPEND = Rule(BOOK, CHAPTER, "Players whose characters are present must spend a token and "
                                         "make the corresponding card draw. (line 478)")
ABSENT_SPEND = Rule(BOOK, CHAPTER, "Players whose characters are not present may alter the odds in the "
                                   "group's favor by spending a yellow or green token. (line 480)")
ORDER = Rule(BOOK, CHAPTER, "In turn, according to a freshly-determined precedence order, each player "
                            "may now spend a procedural token (line 468)")
KNOCK_OUT = Rule(BOOK, "Knocking Out Cards",
                 "the GM always removes from play the best available match, prioritizing as follows: "
                 "cards with the same number, cards of the same suit, cards of the same color "
                 "(lines 484-492)")

CARDS_FOR = {Colour.GREEN: 2, Colour.YELLOW: 1, Colour.RED: 1}


class Match(Enum):
    """How a card matches the target, best first (SRD 486-492, 545-560)."""

    VALUE = "value"
    SUIT = "suit"
    COLOUR = "colour"
    NONE = "none"

    @property
    def rank(self) -> int:
        """3 value, 2 suit, 1 colour, 0 none: a higher rank is a better match."""
        return _MATCH_RANK[self]

    @property
    def narration(self) -> str:
        """How the action is described: "Seemingly decisive", "Impressive", "Solid", "Ineffectual"
        (SRD 545-560)."""
        return _NARRATION[self]


_MATCH_RANK = {Match.VALUE: 3, Match.SUIT: 2, Match.COLOUR: 1, Match.NONE: 0}
_NARRATION = {Match.VALUE: "seemingly decisive", Match.SUIT: "impressive", Match.COLOUR: "solid",
              Match.NONE: "ineffectual"}
# The match the players need against each colour of the GM's token (SRD 496-512).
NEEDED = {Colour.GREEN: Match.VALUE, Colour.YELLOW: Match.SUIT, Colour.RED: Match.COLOUR}
OPPOSITION = {Colour.GREEN: "Strong", Colour.YELLOW: "Middling", Colour.RED: "Weak"}


def match(card: Card, target: Card) -> Match:
    """The best way ``card`` matches ``target``: its value, its suit, its colour, or not at all."""
    if card.rank == target.rank:
        return Match.VALUE
    if card.suit == target.suit:
        return Match.SUIT
    if card.red == target.red:
        return Match.COLOUR
    return Match.NONE


@dataclass(frozen=True)
class Draw:
    """A card drawn in the resolution: who drew it, with which token, and whether it was lost."""

    player: str
    card: Card
    token: Colour | None  # None: a bennie's extra card
    match: Match
    knocked_out: bool = False


@dataclass(frozen=True)
class Consequence:
    """An advantage (a face card with green) or an obstacle (with red) for a player (SRD 521-529)."""

    player: str
    card: Card
    kind: str  # "advantage" | "obstacle"


@dataclass(frozen=True)
class SimpleResolution:
    """A simple procedural resolution in progress. ``order`` is the fresh precedence of players.

    The GM's token is not part of it: it stays secret until the end (SRD 445) and is given to
    :func:`outcome` then.
    """

    target: Card
    order: tuple[str, ...]
    present: frozenset[str]
    turns: tuple[tuple[str, Colour | None], ...] = ()  # each player's token, None for a pass
    draws: tuple[Draw, ...] = ()
    pending_knock_outs: int = 0
    deck: Deck = field(default_factory=Deck)

    @property
    def next_player(self) -> str | None:
        done = len(self.turns)
        return self.order[done] if done < len(self.order) else None

    @property
    def held(self) -> tuple[Draw, ...]:
        return tuple(d for d in self.draws if not d.knocked_out)


def start(target: Card, order: tuple[str, ...], present: frozenset[str]) -> SimpleResolution:
    """Step two: the target card, shown to all (SRD 462-464), and the players' fresh precedence."""
    invalid(len(set(order)) == len(order) and bool(order), "the precedence order names each player once")
    return SimpleResolution(target, order, present, deck=Deck((target,)))


def play(resolution: SimpleResolution, player: str, token: Colour | None, cards: tuple[Card, ...],
         referee: Referee, knock_out: Card | None = None) -> SimpleResolution:
    """Step three for one player: their token (None: an absent player passes) and cards drawn.

    ``knock_out`` is the card the GM removes after a red draw when several are equally good
    matches (her choice, SRD 492); left out, the first of the best is taken.
    """
    referee.require(resolution.next_player == player, ORDER,
                    f"it is {resolution.next_player or 'nobody'}'s turn, not {player}'s")
    is_present = player in resolution.present
    if token is None:
        referee.require(not is_present, PRESENT_MUST_SPEND,
                        f"{player}'s character is present: {player} must spend a token")
        invalid(not cards, f"{player} passes and draws no card")
        return replace(resolution, turns=resolution.turns + ((player, None),))
    referee.require(is_present or token is not Colour.RED, ABSENT_SPEND,
                    f"{player}'s character is absent: only yellow or green is spent")
    invalid(len(cards) == CARDS_FOR[token],
            f"a {token.value} token draws {CARDS_FOR[token]} card{'s' if CARDS_FOR[token] > 1 else ''}, "
            f"not {len(cards)} (SRD 472-476)")
    after = _draw_cards(resolution, player, token, cards)
    after = replace(after, turns=after.turns + ((player, token),))
    if token is Colour.RED:
        after = _knock_out_best(after, knock_out, referee)
    else:
        invalid(knock_out is None, "the GM knocks a card out only after a red token")
    return after


def extra_card(resolution: SimpleResolution, player: str, card: Card) -> SimpleResolution:
    """A bennie's additional card: one more card for ``player`` (SRD 732; reading 5)."""
    return _draw_cards(resolution, player, None, (card,))


def _draw_cards(resolution: SimpleResolution, player: str, token: Colour | None,
                cards: tuple[Card, ...]) -> SimpleResolution:
    draws, pending, deck = list(resolution.draws), resolution.pending_knock_outs, resolution.deck
    for card in cards:
        deck = deck.draw(card)
        how = match(card, resolution.target)
        # A knock-out waiting for a match takes the next matching card as soon as it is drawn.
        lost = pending > 0 and how is not Match.NONE
        pending -= lost
        draws.append(Draw(player, card, token, how, knocked_out=lost))
    return replace(resolution, draws=tuple(draws), pending_knock_outs=pending, deck=deck)


def _knock_out_best(resolution: SimpleResolution, choice: Card | None,
                    referee: Referee) -> SimpleResolution:
    best = max((d.match.rank for d in resolution.held), default=0)
    if best == 0:
        invalid(choice is None, "no card on the table matches the target: the knock-out waits "
                                "for the next matching card (SRD 476)")
        return replace(resolution, pending_knock_outs=resolution.pending_knock_outs + 1)
    candidates = [d for d in resolution.held if d.match.rank == best]
    if choice is None:
        chosen = candidates[0]
    else:
        held = [d for d in resolution.held if d.card == choice]
        invalid(bool(held), f"{choice} is not held by any player")
        referee.require(held[0].match.rank == best, KNOCK_OUT,
                        f"the GM must knock out the best match "
                        f"({', '.join(str(d.card) for d in candidates)}), not {choice}")
        chosen = held[0]
    draws = tuple(replace(d, knocked_out=True) if d is chosen else d for d in resolution.draws)
    return replace(resolution, draws=draws)


@dataclass(frozen=True)
class SimpleOutcome:
    """Step four and five: success, the best match held, and each personal consequence."""

    success: bool
    best: Match
    needed: Match
    consequences: tuple[Consequence, ...]
    waiting_for: tuple[str, ...]  # present players who have not spent yet


def outcome(resolution: SimpleResolution, gm_token: Colour) -> SimpleOutcome:
    """The result once every player has acted: "On a match, the characters prevail." (SRD 515)."""
    needed = NEEDED[gm_token]
    best = max((d.match for d in resolution.held), key=lambda m: m.rank, default=Match.NONE)
    # "A card matching the target's value always wins, no matter what token the GM spent." (517)
    success = best.rank >= needed.rank
    consequences = tuple(
        Consequence(d.player, d.card, "advantage" if d.token is Colour.GREEN else "obstacle")
        for d in resolution.draws if d.card.face and d.token in (Colour.GREEN, Colour.RED))
    return SimpleOutcome(success, best, needed, consequences, waiting_for(resolution))


def waiting_for(resolution: SimpleResolution) -> tuple[str, ...]:
    """The present players who have not spent and drawn yet (SRD 478)."""
    acted = {p for p, _ in resolution.turns}
    return tuple(p for p in resolution.order if p in resolution.present and p not in acted)


def require_complete(resolution: SimpleResolution, referee: Referee) -> None:
    """Every present player has spent and drawn before the result (SRD 478)."""
    waiting = waiting_for(resolution)
    referee.require(not waiting, PRESENT_MUST_SPEND,
                    f"{', '.join(waiting)} must still spend a token and draw")
