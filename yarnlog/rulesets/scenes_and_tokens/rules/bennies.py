"""Bennies: the end-of-session vote that awards them, and spending them (Yarn 0.1, "Bennies").

The vote is a tally the GM (or an auditor) can recompute by hand: every player's received ranks,
the drama tokens in hand subtracted, the score, the placement and who gains a bennie. Low wins:
"#1 the best score", so "The two players with the lowest scores gain one bennie each".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, Balances, Transfer, holding, require_affordable

BOOK = "Yarn 0.1"

ALL_VOTE = Rule(
    BOOK,
    "Gaining Bennies",
    "All participants then vote, ranking the other players in order, with #1 the best score, #2 "
    "second best and so on.",
)
NO_SELF_RANK = Rule(BOOK, "Gaining Bennies", "Players do not rank themselves.")
NO_ONE_RANKS_GM = Rule(BOOK, "Gaining Bennies", "No one ranks the GM, who never gets bennies.")
GM_RANKS_ALL = Rule(BOOK, "Gaining Bennies", "The GM votes, too, ranking all of the players.")
TALLY = Rule(
    BOOK,
    "Gaining Bennies",
    "The GM then totals each player's vote tally. The number of drama tokens a player has in hand is "
    "then subtracted from this number. The two players with the lowest scores gain one bennie each.",
)
TIED_RESULTS = Rule(
    BOOK,
    "Tied Results",
    "If two players are tied for the lowest score, each gets a bennie. The second place finisher(s) "
    "does not. If two players tie for second place, both of them gain bennies, as does the player in "
    "first. If three or more players tie for first, all gain bennies.",
)
HAVE_A_BENNIE = Rule(
    BOOK,
    "Spending Bennies",
    "When you have a bennie, you can spend it on narrative benefits that kick in during play. Once "
    "spent, you remove the bennie from your character sheet.",
)
ONE_PER_SCENE = Rule(BOOK, "Spending Bennies", "You may spend only one bennie per scene.")
CASH_IN = Rule(BOOK, "Spending Bennies", "Cash in a bennie for any one of the following: a dramatic token")
BURN = Rule(
    BOOK,
    "Spending Bennies",
    "the right to burn any 1 token held by another player. A dramatic token returns to the kitty; a "
    "procedural token is treated as spent.",
)


class BennieOption(Enum):
    """What a bennie can be cashed in for; each value is the book's own words for its effect."""

    DRAMA_TOKEN = "a dramatic token"
    PROCEDURAL_TOKEN = "a procedural token"
    EXTRA_CARD = "to draw an additional card in a procedural scene"
    JUMP_THE_QUEUE = (
        "the right to jump the queue and call a scene immediately after any other scene. The "
        "queue-jumper's next scene is skipped, after which the existing calling order is observed as "
        "per usual."
    )
    JUMP_INTO_SCENE = "to jump into a scene the caller wants to keep you out of"
    BLOCK_JUMP_IN = (
        "to block another player's attempt to jump into a scene you've called. (Blocked players keep "
        "the bennies they would have spent.)"
    )
    BURN_TOKEN = BURN.text

    @property
    def effect(self) -> str:
        return self.value


class TokenKind(Enum):
    """Which token a burn destroys."""

    DRAMA = "dramatic token"
    PROCEDURAL = "procedural token"


@dataclass(frozen=True)
class BennieSpend:
    """A bennie cashed in, in a scene. A burn names its target and the kind of token burned."""

    spender: str
    option: BennieOption
    scene: int
    burn_target: str | None = None
    burn_kind: TokenKind | None = None

    def __post_init__(self) -> None:
        burns = self.option is BennieOption.BURN_TOKEN
        invalid(
            burns == (self.burn_target is not None) == (self.burn_kind is not None),
            "a burn, and only a burn, names the player and the kind of token burned",
        )


@dataclass(frozen=True)
class BennieGain:
    """A bennie gained, and the rule that gave it."""

    player: str
    rule: Rule


@dataclass(frozen=True)
class SpentBennie:
    """The spend to record and the drama-token transfers it causes."""

    spend: BennieSpend
    transfers: tuple[Transfer, ...]


@dataclass(frozen=True)
class Ballot:
    """One participant's ranking: player -> rank, #1 the best."""

    voter: str
    ranks: Mapping[str, int]


@dataclass(frozen=True)
class PlayerTally:
    """One player's line of the tally, with every number that went into it."""

    player: str
    ranks_received: tuple[tuple[str, int], ...]  # (voter, rank), by voter
    rank_total: int
    tokens_in_hand: int
    score: int
    placement: int  # 1 for the lowest score; players tied on a score share a placement
    gains_bennie: bool


@dataclass(frozen=True)
class BennieVote:
    """The tally of the end-of-session vote, lowest score first."""

    tallies: tuple[PlayerTally, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(t.player for t in self.tallies if t.gains_bennie)

    def gains(self) -> tuple[BennieGain, ...]:
        """One bennie per winner, citing "Tied Results" when a shared placement decided it."""
        placements = [t.placement for t in self.tallies]
        return tuple(
            BennieGain(t.player, TIED_RESULTS if placements.count(t.placement) > 1 else TALLY)
            for t in self.tallies
            if t.gains_bennie
        )


def tally_bennie_vote(
    referee: Referee,
    *,
    players: Sequence[str],
    gm: str,
    ballots: Iterable[Ballot],
    tokens_in_hand: Balances,
) -> BennieVote:
    """Tally the end-of-session vote ("Gaining Bennies", "Tied Results").

    ``tokens_in_hand`` are the drama tokens held at the end of the session, read before they
    revert to the kitty.
    """
    invalid(len(set(players)) == len(players), "each player is listed once")
    invalid(gm not in players, f"the GM ({gm}) is not one of the players")
    ballots = list(ballots)
    voters = [b.voter for b in ballots]
    invalid(len(set(voters)) == len(voters), "each participant casts one ballot")
    for ballot in ballots:
        _check_ballot(referee, ballot, players, gm)
    missing = sorted((set(players) | {gm}) - set(voters))
    referee.require(not missing, ALL_VOTE, f"no ballot from {', '.join(missing)}")

    received = {p: tuple(sorted((b.voter, b.ranks[p]) for b in ballots if p in b.ranks)) for p in players}
    scores = {p: sum(r for _, r in received[p]) - holding(tokens_in_hand, p) for p in players}
    places = {score: place for place, score in enumerate(sorted(set(scores.values())), start=1)}
    winners = _gainers(scores, places)
    tallies = (
        PlayerTally(
            player=p,
            ranks_received=received[p],
            rank_total=sum(r for _, r in received[p]),
            tokens_in_hand=holding(tokens_in_hand, p),
            score=scores[p],
            placement=places[scores[p]],
            gains_bennie=p in winners,
        )
        for p in players
    )
    return BennieVote(tuple(sorted(tallies, key=lambda t: (t.score, t.player))))


def bennies_held(player: str, gains: Iterable[BennieGain], spends: Iterable[BennieSpend]) -> int:
    """Bennies on ``player``'s sheet: "They don't refresh; you can replace a spent bennie only by earning a new one"."""
    return sum(g.player == player for g in gains) - sum(s.spender == player for s in spends)


def check_can_spend(
    referee: Referee, *, spender: str, scene: int, held: int, history: Iterable[BennieSpend]
) -> None:
    """Refuse a spend by someone without a bennie, or a second spend by them in the same scene."""
    referee.require(held >= 1, HAVE_A_BENNIE, f"{spender} has no bennie to spend")
    referee.require(
        not any(s.spender == spender and s.scene == scene for s in history),
        ONE_PER_SCENE,
        f"{spender} has already spent a bennie in scene {scene}",
    )


def spend_bennie(
    referee: Referee,
    spend: BennieSpend,
    *,
    held: int,
    history: Iterable[BennieSpend],
    balances_now: Balances,
    gm: str,
) -> SpentBennie:
    """Cash in a bennie ("Spending Bennies"), with the drama-token transfers it causes.

    A dramatic token comes from the kitty; a burned dramatic token returns to it. Procedural
    tokens, extra cards and the calling order belong to other modules: the spend records them.
    The burn's target must be "another player", so neither the spender nor the GM.
    """
    check_can_spend(referee, spender=spend.spender, scene=spend.scene, held=held, history=history)
    transfers: tuple[Transfer, ...] = ()
    if spend.option is BennieOption.DRAMA_TOKEN:
        transfers = (Transfer(1, KITTY, spend.spender, CASH_IN),)
    elif spend.option is BennieOption.BURN_TOKEN:
        target = present(spend.burn_target, "a burned token needs a target: another player")
        referee.require(target not in (spend.spender, gm), BURN, f"{target} is not another player")
        if spend.burn_kind is TokenKind.DRAMA:
            transfers = (Transfer(1, target, KITTY, BURN),)
            require_affordable(referee, balances_now, transfers)
    return SpentBennie(spend, transfers)


def _check_ballot(referee: Referee, ballot: Ballot, players: Sequence[str], gm: str) -> None:
    invalid(ballot.voter in players or ballot.voter == gm, f"{ballot.voter} is not at the table")
    strangers = sorted(set(ballot.ranks) - set(players) - {gm})
    invalid(not strangers, f"{ballot.voter} ranks {', '.join(strangers)}, who is not at the table")
    referee.require(ballot.voter not in ballot.ranks, NO_SELF_RANK,
                    f"{ballot.voter} ranks themselves: players do not rank themselves")
    referee.require(gm not in ballot.ranks, NO_ONE_RANKS_GM, f"{ballot.voter} ranks the GM ({gm})")
    expected = set(players) - {ballot.voter}
    unranked = sorted(expected - set(ballot.ranks))
    rule = GM_RANKS_ALL if ballot.voter == gm else ALL_VOTE
    referee.require(not unranked, rule, f"{ballot.voter} does not rank {', '.join(unranked)}")
    referee.require(
        sorted(ballot.ranks.values()) == list(range(1, len(ballot.ranks) + 1)),
        ALL_VOTE,
        f"{ballot.voter} must rank #1, #2 and so on, each once, not {sorted(ballot.ranks.values())}",
    )


def _gainers(scores: Mapping[str, int], places: Mapping[int, int]) -> set[str]:
    """Who gains a bennie ("Tied Results").

    A tie for first takes every bennie; otherwise first and everyone in second place gain. The
    book speaks of two tying for second; a tie of three or more for second is read the same way
    (all gain), as it reads a tie of three or more for first.
    """
    first = {p for p, s in scores.items() if places[s] == 1}
    if len(first) >= 2:
        return first
    return first | {p for p, s in scores.items() if places[s] == 2}
