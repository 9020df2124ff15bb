"""Procedural tokens: one green, one yellow, one red for every participant, the GM included.

"Each player, and the GM, starts the first session with three procedural tokens: one green, one
yellow, one red. When you spend a token, set it aside. The others remain unspent. When you've
spent all three of them, they immediately refresh." (SRD 423.) "Your pile of available tokens
carries over to the next game session / episode of play. It does not refresh between sessions."
(SRD 425.)

A pile is the set of colours still unspent. Spending the last one refreshes the pile at once, so a
pile is never empty between moves. A bennie spent on "a procedural token" (SRD 730) returns one
spent token of the player's choice (reading 5), and burning another player's procedural token with
a bennie (SRD 740) spends it, which may trigger the refresh (reading 6: literal, and flagged).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.dramasystem.rules import BOOK


class Colour(Enum):
    """A procedural token's colour; its strength (green best) sets counts in every resolution."""

    GREEN = "green"
    YELLOW = "yellow"
    RED = "red"


ALL_COLOURS = frozenset(Colour)

SPEND = Rule(BOOK, "Procedural Resolution",
             "When you spend a token, set it aside. The others remain unspent. (line 423)")
REFRESH = Rule(BOOK, "Procedural Resolution",
               "When you've spent all three of them, they immediately refresh. (line 423)")
BENNIE_TOKEN = Rule(BOOK, "Bennies",
                    "Gain a procedural token (line 730; reading 5: one spent token of your choice "
                    "returns to your unspent pile)")


@dataclass(frozen=True)
class TokenPile:
    """The colours a participant has unspent (all three at the start, SRD 423)."""

    unspent: frozenset[Colour] = ALL_COLOURS

    @property
    def spent(self) -> frozenset[Colour]:
        return ALL_COLOURS - self.unspent

    def has(self, colour: Colour) -> bool:
        return colour in self.unspent

    def describe(self) -> str:
        """``green, yellow, red`` in that order, or the spent ones named when asked."""
        return ", ".join(c.value for c in Colour if c in self.unspent)


@dataclass(frozen=True)
class Spent:
    """What spending did: the pile after, and whether the spend refreshed it (SRD 423)."""

    pile: TokenPile
    refreshed: bool


def spend(pile: TokenPile, colour: Colour, referee: Referee, who: str) -> Spent:
    """Spend one token of ``colour``; the third spend brings all three back at once."""
    referee.require(pile.has(colour), SPEND,
                    f"{who} has no unspent {colour.value} token (unspent: {pile.describe() or 'none'})")
    return settle(pile.unspent - {colour})


def settle(unspent: frozenset[Colour]) -> Spent:
    """The pile once nothing is left: "they immediately refresh" (SRD 423)."""
    if unspent:
        return Spent(TokenPile(unspent), refreshed=False)
    return Spent(TokenPile(), refreshed=True)


def restore(pile: TokenPile, colour: Colour, referee: Referee, who: str) -> TokenPile:
    """A bennie's procedural token: a spent ``colour`` returns (reading 5)."""
    referee.require(colour in pile.spent, BENNIE_TOKEN,
                    f"{who}'s {colour.value} token is not spent: one of each at most")
    return TokenPile(pile.unspent | {colour})


def burn(pile: TokenPile, colour: Colour, referee: Referee, who: str) -> Spent:
    """A bennie burns another player's unspent token: it is spent, and may refresh the pile."""
    return spend(pile, colour, referee, who)
