"""The bennie vote and spending bennies against Yarn 0.1's "Bennies" chapter."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee
from yarnlog.rulesets.scenes_and_tokens.rules import bennies as bn
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import (
    Ballot,
    BennieGain,
    BennieOption,
    BennieSpend,
    TokenKind,
    bennies_held,
    check_can_spend,
    spend_bennie,
    tally_bennie_vote,
)
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, Transfer

from .refusals import refused_by

GM = "Gwen"
PLAYERS = ("Ann", "Bob", "Cy", "Di")


def ballot(voter, *best_first):
    return Ballot(voter, {player: rank for rank, player in enumerate(best_first, start=1)})




def tally(ballots, tokens=None, referee=None):
    return tally_bennie_vote(
        referee or Referee(), players=PLAYERS, gm=GM, ballots=ballots, tokens_in_hand=tokens or {}
    )


# A full table: every player ranks the other three; the GM ranks all four.
BALLOTS = (
    ballot("Ann", "Bob", "Cy", "Di"),
    ballot("Bob", "Ann", "Cy", "Di"),
    ballot("Cy", "Bob", "Ann", "Di"),
    ballot("Di", "Cy", "Bob", "Ann"),
    ballot(GM, "Ann", "Bob", "Cy", "Di"),
)


# "The GM then totals each player's vote tally. The number of drama tokens a player has in hand is
# then subtracted from this number. The two players with the lowest scores gain one bennie each."
def test_the_tally_shows_its_arithmetic_and_the_two_lowest_scores_gain():
    vote = tally(BALLOTS, tokens={"Cy": 1, GM: 5})
    lines = {t.player: t for t in vote.tallies}
    assert lines["Ann"].ranks_received == (("Bob", 1), ("Cy", 2), ("Di", 3), (GM, 1))
    assert [(t.player, t.rank_total, t.tokens_in_hand, t.score, t.placement) for t in vote.tallies] == [
        ("Bob", 6, 0, 6, 1),  # 1 + 1 + 2 + 2
        ("Ann", 7, 0, 7, 2),  # 1 + 2 + 3 + 1
        ("Cy", 8, 1, 7, 2),  # 2 + 2 + 1 + 3, minus 1 token in hand
        ("Di", 13, 0, 13, 3),  # 3 + 3 + 3 + 4
    ]
    # Ann and Cy tie for second behind Bob: "both of them gain bennies, as does the player in first."
    assert vote.winners == ("Bob", "Ann", "Cy")
    assert vote.gains() == (
        BennieGain("Bob", bn.TALLY),
        BennieGain("Ann", bn.TIED_RESULTS),
        BennieGain("Cy", bn.TIED_RESULTS),
    )


# "The two players with the lowest scores gain one bennie each" — low wins, not high.
def test_low_score_wins():
    vote = tally(BALLOTS)
    assert vote.winners == ("Bob", "Ann")
    assert "Di" not in vote.winners


def _winners(scores):
    """Winners when the scores are ``scores`` less ten: tokens in hand make up the difference."""
    rank_totals = {t.player: t.rank_total for t in tally(BALLOTS).tallies}
    tokens = {p: rank_totals[p] + 10 - s for p, s in zip(PLAYERS, scores)}
    return set(tally(BALLOTS, tokens=tokens).winners)


# "If two players are tied for the lowest score, each gets a bennie. The second place finisher(s) does not."
def test_two_tied_for_lowest_gain_and_second_place_does_not():
    assert _winners((1, 1, 2, 3)) == {"Ann", "Bob"}


# "If two players tie for second place, both of them gain bennies, as does the player in first."
def test_two_tied_for_second_gain_with_the_first():
    assert _winners((1, 2, 2, 3)) == {"Ann", "Bob", "Cy"}


# "If three or more players tie for first, all gain bennies."
def test_three_or_more_tied_for_first_all_gain():
    assert _winners((1, 1, 1, 3)) == {"Ann", "Bob", "Cy"}
    assert _winners((4, 4, 4, 4)) == set(PLAYERS)


# Not in the book: three tied for second is read like the other ties (all of them gain).
def test_three_tied_for_second_all_gain():
    assert _winners((1, 2, 2, 2)) == set(PLAYERS)


# "Players do not rank themselves."
def test_a_player_may_not_rank_themselves():
    bad = (*BALLOTS[:3], ballot("Di", "Di", "Cy", "Bob"))
    refused_by(bn.NO_SELF_RANK, lambda: tally((*bad, BALLOTS[4])))


# "No one ranks the GM, who never gets bennies."
def test_no_one_ranks_the_gm():
    bad = ballot("Di", "Cy", "Bob", "Ann", GM)
    refused_by(bn.NO_ONE_RANKS_GM, lambda: tally((*BALLOTS[:3], bad, BALLOTS[4])))


# "ranking the other players in order" — nobody may be left out.
def test_a_ballot_ranks_every_other_player():
    refused_by(bn.ALL_VOTE, lambda: tally((*BALLOTS[:3], ballot("Di", "Cy", "Bob"), BALLOTS[4])))


# "The GM votes, too, ranking all of the players."
def test_the_gm_ranks_all_of_the_players():
    refused_by(bn.GM_RANKS_ALL, lambda: tally((*BALLOTS[:4], ballot(GM, "Ann", "Bob", "Cy"))))


# "with #1 the best score, #2 second best and so on."
def test_a_ballot_uses_each_rank_once():
    repeated = Ballot("Di", {"Ann": 1, "Bob": 1, "Cy": 2})
    refused_by(bn.ALL_VOTE, lambda: tally((*BALLOTS[:3], repeated, BALLOTS[4])))


# "All participants then vote"
def test_every_participant_votes():
    refused_by(bn.ALL_VOTE, lambda: tally(BALLOTS[:4]))


def test_strangers_and_double_ballots_are_nonsense():
    with pytest.raises(InvalidCommand):
        tally((*BALLOTS, ballot("Zed", "Ann")))
    with pytest.raises(InvalidCommand):
        tally((*BALLOTS, BALLOTS[0]))
    with pytest.raises(InvalidCommand):
        tally((*BALLOTS[:3], ballot("Di", "Cy", "Bob", "Ann", "Zed"), BALLOTS[4]))


def test_an_overridden_ballot_still_gives_the_gm_no_tally():
    referee = Referee(override=Override(by=GM, reason="Di insisted"))
    bad = ballot("Di", GM, "Cy", "Bob", "Ann")
    vote = tally((*BALLOTS[:3], bad, BALLOTS[4]), referee=referee)
    assert GM not in {t.player for t in vote.tallies}
    assert [rule for rule, _ in referee.overridden] == [bn.NO_ONE_RANKS_GM]


PERMUTED_BALLOTS = st.permutations(BALLOTS)
TOKENS = st.fixed_dictionaries({p: st.integers(0, 6) for p in PLAYERS})


@given(PERMUTED_BALLOTS, TOKENS)
def test_the_tally_does_not_depend_on_the_order_of_ballots(ballots, tokens):
    assert tally(ballots, tokens) == tally(BALLOTS, tokens)


@given(TOKENS)
def test_the_lowest_score_always_gains_and_at_least_two_players_do(tokens):
    vote = tally(BALLOTS, tokens)
    assert vote.tallies[0].gains_bennie
    assert len(vote.winners) >= 2
    for line in vote.tallies:
        assert line.score == sum(rank for _, rank in line.ranks_received) - line.tokens_in_hand
        assert line.gains_bennie == (line.placement == 1 or (line.placement == 2 and vote.tallies[1].placement == 2))


def test_the_bennie_options_are_the_books_list():
    assert [option.effect for option in BennieOption] == [
        "a dramatic token",
        "a procedural token",
        "to draw an additional card in a procedural scene",
        "the right to jump the queue and call a scene immediately after any other scene. The queue-jumper's "
        "next scene is skipped, after which the existing calling order is observed as per usual.",
        "to jump into a scene the caller wants to keep you out of",
        "to block another player's attempt to jump into a scene you've called. (Blocked players keep the "
        "bennies they would have spent.)",
        "the right to burn any 1 token held by another player. A dramatic token returns to the kitty; a "
        "procedural token is treated as spent.",
    ]


def spend(spend_fact, held=1, history=(), balances=None, referee=None):
    return spend_bennie(
        referee or Referee(), spend_fact, held=held, history=history, balances_now=balances or {}, gm=GM
    )


# "Cash in a bennie for any one of the following: a dramatic token"
def test_a_bennie_cashes_in_for_a_drama_token_from_the_kitty():
    spent = spend(BennieSpend("Ann", BennieOption.DRAMA_TOKEN, scene=4))
    assert spent.transfers == (Transfer(1, KITTY, "Ann", bn.CASH_IN),)


# "the right to burn any 1 token held by another player. A dramatic token returns to the kitty; a
# procedural token is treated as spent."
def test_burning_a_drama_token_returns_it_to_the_kitty():
    burn = BennieSpend("Ann", BennieOption.BURN_TOKEN, 4, burn_target="Bob", burn_kind=TokenKind.DRAMA)
    assert spend(burn, balances={"Bob": 1}).transfers == (Transfer(1, "Bob", KITTY, bn.BURN),)
    refused_by(bn.BURN, lambda: spend(burn, balances={}))
    procedural = BennieSpend("Ann", BennieOption.BURN_TOKEN, 4, burn_target="Bob", burn_kind=TokenKind.PROCEDURAL)
    assert spend(procedural).transfers == ()


@pytest.mark.parametrize("target", ["Ann", GM])
def test_a_burn_targets_another_player(target):
    burn = BennieSpend("Ann", BennieOption.BURN_TOKEN, 4, burn_target=target, burn_kind=TokenKind.DRAMA)
    refused_by(bn.BURN, lambda: spend(burn, balances={target: 1}))


def test_only_a_burn_names_a_target():
    with pytest.raises(InvalidCommand):
        BennieSpend("Ann", BennieOption.BURN_TOKEN, 4)
    with pytest.raises(InvalidCommand):
        BennieSpend("Ann", BennieOption.DRAMA_TOKEN, 4, burn_target="Bob", burn_kind=TokenKind.DRAMA)


# "You may spend only one bennie per scene."
def test_only_one_bennie_per_scene():
    earlier = (BennieSpend("Ann", BennieOption.EXTRA_CARD, scene=4), BennieSpend("Bob", BennieOption.EXTRA_CARD, 5))
    refused_by(
        bn.ONE_PER_SCENE,
        lambda: check_can_spend(Referee(), spender="Ann", scene=4, held=2, history=earlier),
    )
    check_can_spend(Referee(), spender="Ann", scene=5, held=2, history=earlier)
    check_can_spend(Referee(), spender="Bob", scene=4, held=1, history=earlier)


# "When you have a bennie, you can spend it ... They don't refresh; you can replace a spent bennie
# only by earning a new one"
def test_a_bennie_must_be_held_to_be_spent():
    gains = (BennieGain("Ann", bn.TALLY),)
    spends = (BennieSpend("Ann", BennieOption.EXTRA_CARD, 2),)
    assert bennies_held("Ann", gains, spends) == 0
    refused_by(
        bn.HAVE_A_BENNIE,
        lambda: spend(BennieSpend("Ann", BennieOption.EXTRA_CARD, 3), held=bennies_held("Ann", gains, spends)),
    )
