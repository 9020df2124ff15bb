"""Player-versus-player contests, simple and advanced, solo actions and assisting.

Simple contest (SRD 579-635): Strong against Weak wins outright (581). Otherwise each contestant
spends a token for at most 3 cards (green), 2 (yellow) or 1 (red); Strong against Middling draws
one more (587-589). The GM picks who started; the first draws, then the second, then they alternate
until both have run out or stop (591-601). "The player with the highest card overcomes the other"
(603); every card drawn stays in hand and the best counts (reading 1); ties of value go by suit,
spades, hearts, diamonds, clubs (605). A face card drawn with green brings an advantage, with red
an obstacle (607-609). An assistant's token gives the assisted side 3, 2 or 1 more draws, one more
if he uses a Strong ability and everyone on the other side a Weak one (629). A solo action is a
contest against the GM, whose token gives 3, 2 or 1 draws, one more against a formidable
opposition (613; reading 15).

Advanced contest (SRD 915-975): Strong against Weak wins outright; otherwise the better grade has
one more redraw (929-931; reading 3). Tokens buy redraws: green 3, yellow 2, red 1 (939). Each
contestant has one current card that a redraw replaces (reading 1). The first draws, then the
second (945); they alternate, each redraw on oneself or forcing the opponent (947-951); then the
GM may force one contestant once (953); then other present players may each spend a green token to
force a contestant once (957); then the remaining redraws, the first player first (959). The
highest card wins; on equal values they may agree a surprise outcome, else the suit order (963-975).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.cards import Card, Deck
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

SIMPLE = "Player vs. Player"
ADVANCED = "Advanced Procedural System: Player vs. Player"
OUTRIGHT = Rule(BOOK, SIMPLE, "If one primary is using a Strong ability and another a Weak ability, the "
                              "Strong character automatically wins, no resolution system required. "
                              "(lines 581, 929)")
SIMPLE_CARDS = Rule(BOOK, SIMPLE, "The maximum number of cards the player draws depends on the token "
                                  "spent: 3 for green, 2 for yellow, 1 for red. A player using a strong "
                                  "ability may draw an additional card if his opponent is using a "
                                  "middling ability. (lines 587-589)")
SIMPLE_TURNS = Rule(BOOK, SIMPLE, "That player draws the first card. The other player draws the second. "
                                  "The first player may then draw an additional card ... Then the second "
                                  "player may do the same. (lines 593-599)")
REDRAWS = Rule(BOOK, ADVANCED, "Each contestant spends a procedural token to gain a number of redraws. A "
                               "green token buys three redraws, yellow, two, red, one. (line 939)")
ADVANCED_TURNS = Rule(BOOK, ADVANCED, "The first player draws a card, followed by the second. The first "
                                      "player may now use one of her redraws ... Then the second player "
                                      "... (lines 945-951)")
GM_FORCE = Rule(BOOK, ADVANCED, "The GM may then require one contestant to redraw, once. (line 953)")
INTERFERE = Rule(BOOK, ADVANCED, "Players of other characters present in the scene can then spend green "
                                 "tokens to interfere on one side or the other. Each interfering player "
                                 "requires a chosen contestant to redraw, once. (line 957)")

ALLOWANCE = {Colour.GREEN: 3, Colour.YELLOW: 2, Colour.RED: 1}


def outright_winner(first: str, first_grade: Grade, second: str, second_grade: Grade) -> str | None:
    """The Strong side against a Weak one wins with no resolution (SRD 581, 929)."""
    if first_grade is Grade.STRONG and second_grade is Grade.WEAK:
        return first
    if second_grade is Grade.STRONG and first_grade is Grade.WEAK:
        return second
    return None


def simple_allowance(token: Colour, grade: Grade, opponent: Grade) -> int:
    """Cards a contestant may draw: 3/2/1 by token, one more for Strong against Middling (587-589)."""
    return ALLOWANCE[token] + (grade is Grade.STRONG and opponent is Grade.MIDDLING)


def assist_allowance(token: Colour, strong_against_all_weak: bool) -> int:
    """Extra draws an assistant's token gives the side it helps (SRD 629)."""
    return ALLOWANCE[token] + strong_against_all_weak


def solo_allowance(token: Colour, formidable: bool) -> int:
    """The GM's draws against a solo action: 3/2/1, one more if formidable (SRD 613)."""
    return ALLOWANCE[token] + formidable


def advanced_allowance(token: Colour, grade: Grade, opponent: Grade) -> int:
    """Redraws bought: 3/2/1, one more for any better grade (SRD 931, 939; reading 3)."""
    return ALLOWANCE[token] + (grade.level > opponent.level)


@dataclass(frozen=True)
class ContestDraw:
    side: str          # the contestant whose hand the card joins
    card: Card
    drawn_by: str      # the contestant or an assistant
    token: Colour | None


@dataclass(frozen=True)
class SimpleContest:
    """A simple contest: the two sides in drawing order, each side's allowance, the cards drawn."""

    first: str
    second: str
    allowance: tuple[int, int]
    draws: tuple[ContestDraw, ...] = ()
    stopped: frozenset[str] = frozenset()
    deck: Deck = Deck()

    def side_index(self, side: str) -> int:
        invalid(side in (self.first, self.second), f"{side} is not a contestant of this contest")
        return 0 if side == self.first else 1

    def drawn(self, side: str) -> int:
        return sum(1 for d in self.draws if d.side == side)

    def left(self, side: str) -> int:
        return self.allowance[self.side_index(side)] - self.drawn(side)


def simple_start(first: str, second: str, allowance: tuple[int, int]) -> SimpleContest:
    invalid(first != second, "a contest has two different contestants")
    return SimpleContest(first, second, allowance)


def assist(contest: SimpleContest, side: str, extra: int) -> SimpleContest:
    """An assistant's token adds draws to ``side`` (SRD 627-629); he may join at any time."""
    index = contest.side_index(side)
    allowance = list(contest.allowance)
    allowance[index] += extra
    return replace(contest, allowance=(allowance[0], allowance[1]), stopped=contest.stopped - {side})


def simple_draw(contest: SimpleContest, side: str, card: Card, referee: Referee, drawn_by: str | None = None,
                token: Colour | None = None) -> SimpleContest:
    """One card for ``side``, in turn: first, second, then alternately while draws are left."""
    index = contest.side_index(side)
    other = contest.second if index == 0 else contest.first
    referee.require(contest.left(side) > 0, SIMPLE_CARDS, f"{side} has no card draws left")
    if not contest.draws:
        referee.require(side == contest.first, SIMPLE_TURNS, f"{contest.first} draws the first card")
    elif len(contest.draws) == 1:
        referee.require(side == contest.second or contest.left(other) == 0, SIMPLE_TURNS,
                        f"{contest.second} draws the second card")
    else:
        last = contest.draws[-1].side
        other_can = contest.left(other) > 0 and other not in contest.stopped
        referee.require(last != side or not other_can, SIMPLE_TURNS,
                        f"it is {other}'s turn to draw or stop")
    draw = ContestDraw(side, card, drawn_by or side, token)
    return replace(contest, draws=contest.draws + (draw,), deck=contest.deck.draw(card))


def simple_stop(contest: SimpleContest, side: str) -> SimpleContest:
    """``side`` chooses not to draw any more (SRD 601)."""
    contest.side_index(side)
    return replace(contest, stopped=contest.stopped | {side})


@dataclass(frozen=True)
class ContestResult:
    winner: str
    winning_card: Card
    losing_card: Card | None
    by_suit: bool  # equal values settled by the suit order (SRD 605, 965-975)


def best_in_hand(contest: SimpleContest, side: str) -> Card | None:
    cards = [d.card for d in contest.draws if d.side == side]
    return max(cards, key=lambda c: c.strength) if cards else None


def simple_result(contest: SimpleContest) -> ContestResult:
    """"The player with the highest card overcomes the other" (SRD 603), best in hand (reading 1)."""
    a, b = best_in_hand(contest, contest.first), best_in_hand(contest, contest.second)
    invalid(a is not None or b is not None, "no card has been drawn in this contest")
    return _compare(contest.first, a, contest.second, b)


def _compare(first: str, a: Card | None, second: str, b: Card | None) -> ContestResult:
    if b is None or (a is not None and a.beats(b)):
        assert a is not None
        return ContestResult(first, a, b, by_suit=b is not None and a.rank == b.rank)
    return ContestResult(second, b, a, by_suit=a is not None and a.rank == b.rank)


def contest_consequences(contest: SimpleContest) -> tuple[tuple[str, Card, str], ...]:
    """Whoever drew a face card with green gains an advantage, with red an obstacle (607-609)."""
    return tuple((d.drawn_by, d.card, "advantage" if d.token is Colour.GREEN else "obstacle")
                 for d in contest.draws if d.card.face and d.token in (Colour.GREEN, Colour.RED))


class Phase(IntEnum):
    """The advanced contest's stages, in the order the book runs them (SRD 945-959)."""

    OPENING = 0
    ALTERNATE = 1
    GM = 2
    INTERFERE = 3
    REMAINING = 4


@dataclass(frozen=True)
class AdvancedContest:
    """An advanced contest: each contestant's current card and redraws left, and the stage."""

    first: str
    second: str
    redraws: tuple[int, int]
    cards: tuple[Card | None, Card | None] = (None, None)
    phase: Phase = Phase.OPENING
    last_actor: str | None = None
    gm_forced: bool = False
    interferers: frozenset[str] = frozenset()
    history: tuple[tuple[str, str, Card], ...] = ()  # (who acted, whose card, the new card)
    deck: Deck = Deck()

    def index(self, side: str) -> int:
        invalid(side in (self.first, self.second), f"{side} is not a contestant of this contest")
        return 0 if side == self.first else 1


def advanced_start(first: str, second: str, redraws: tuple[int, int]) -> AdvancedContest:
    invalid(first != second, "a contest has two different contestants")
    return AdvancedContest(first, second, redraws)


def advanced_draw(contest: AdvancedContest, actor: str, target: str, card: Card, referee: Referee,
                  green_token: bool = False) -> AdvancedContest:
    """One card: an opening draw, a contestant's redraw (on himself or forcing the other), the GM's
    forced redraw (``actor`` "GM"), or an interfering player's (``green_token``)."""
    where = contest.index(target)
    cards = list(contest.cards)
    redraws = list(contest.redraws)
    phase, gm_forced, interferers = contest.phase, contest.gm_forced, contest.interferers
    if phase is Phase.OPENING:
        expected = contest.first if cards[0] is None else contest.second
        referee.require(actor == target == expected, ADVANCED_TURNS, f"{expected} draws the opening card")
        if cards[0] is not None:
            phase = Phase.ALTERNATE
    elif actor == "GM":
        referee.require(not gm_forced and phase <= Phase.GM, GM_FORCE,
                        "the GM forces one redraw, once, before interference")
        gm_forced, phase = True, Phase.GM
    elif actor in (contest.first, contest.second):
        own = contest.index(actor)
        referee.require(redraws[own] > 0, REDRAWS, f"{actor} has no redraws left")
        if phase is Phase.ALTERNATE:
            referee.require(contest.last_actor != actor or redraws[1 - own] == 0, ADVANCED_TURNS,
                            f"it is {contest.second if own == 0 else contest.first}'s turn to redraw or pass")
        else:
            phase = Phase.REMAINING
        redraws[own] -= 1
    else:
        referee.require(green_token and actor not in interferers and phase <= Phase.INTERFERE, INTERFERE,
                        f"{actor} interferes once, with a green token, after the GM")
        interferers, phase = interferers | {actor}, Phase.INTERFERE
    cards[where] = card
    return replace(contest, cards=(cards[0], cards[1]), redraws=(redraws[0], redraws[1]), phase=phase,
                   last_actor=actor, gm_forced=gm_forced, interferers=interferers,
                   history=contest.history + ((actor, target, card),), deck=contest.deck.draw(card))


def advanced_pass(contest: AdvancedContest, side: str) -> AdvancedContest:
    """A contestant passes his turn to redraw (SRD 951, 959)."""
    contest.index(side)
    return replace(contest, last_actor=side)


def advanced_result(contest: AdvancedContest) -> ContestResult:
    """The highest current card wins; equal values go by the suit order (SRD 963-975)."""
    a, b = contest.cards
    invalid(a is not None and b is not None, "both contestants draw an opening card first")
    return _compare(contest.first, a, contest.second, b)
