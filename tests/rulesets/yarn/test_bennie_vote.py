"""The bennie vote and the end of a Yarn episode, against "Gaining Bennies", "Tied Results" and "Tokens"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.decide import audit
from yarnlog.core.referee import Override
from yarnlog.core.timeline import EndEpisode, EpisodeEnded, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot, ballots_view
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine
from yarnlog.rulesets.scenes_and_tokens.rules import bennies as bn
from yarnlog.rulesets.yarn.parts.drama.bennie_vote import VOTING
from yarnlog.rulesets.yarn.parts.economy.ledger import bennie_report, provisional_tally, recount

from .drama_table import GM, bennies, give, seat_characters, tokens, types
from .refusals import refused, rejected

# Ana and Ben rank each other first; everyone ranks Cy last; the GM ranks all three.
BALLOTS = {"Ana": ("Ben", "Cy"), "Ben": ("Ana", "Cy"), "Cy": ("Ana", "Ben"), GM: ("Ben", "Ana", "Cy")}


@pytest.fixture
def table(journal, campaign):
    seat_characters(journal, campaign)
    return campaign


def vote(journal, cid, ballots=BALLOTS) -> None:
    for voter, ranking in ballots.items():
        journal.execute(cid, CastBallot(voter, ranking))


def test_ballots_rank_the_other_players_and_only_the_gm_ranks_everyone(journal, table):
    """ "All participants then vote, ranking the other players in order, with #1 the best score [...]
    Players do not rank themselves. No one ranks the GM, who never gets bennies. The GM votes, too,
    ranking all of the players." """
    refused(journal, table, CastBallot("Ana", ("Ana", "Ben", "Cy")), bn.NO_SELF_RANK)
    refused(journal, table, CastBallot("Ana", ("Ben", GM, "Cy")), bn.NO_ONE_RANKS_GM)
    refused(journal, table, CastBallot("Ana", ("Ben",)), bn.ALL_VOTE)
    refused(journal, table, CastBallot(GM, ("Ben", "Ana")), bn.GM_RANKS_ALL)
    rejected(journal, table, CastBallot("Ana", ("Ben", "Ben")), "each player once")
    rejected(journal, table, CastBallot("Ana", ("Ben", "Zed")), "not at the table")
    journal.execute(table, CastBallot("Ana", ("Ben", "Cy")))
    rejected(journal, table, CastBallot("Ana", ("Cy", "Ben")), "already voted")
    assert ballots_view(journal.state(table)) == {"episode": 1, "voted": ["Ana"], "missing": ["Ben", "Cy", GM]}


def test_the_episode_ends_only_after_everyone_has_voted_unless_the_gm_overrides(journal, table):
    """ "At the end of each session [...] All participants then vote" """
    journal.execute(table, CastBallot("Ana", ("Ben", "Cy")))
    refused(journal, table, EndEpisode(), bn.ALL_VOTE)
    recorded = journal.execute(table, EndEpisode(), override=Override(by=GM, reason="Ben and Cy left early"))
    assert types(recorded) == ["override.recorded", "scene.closed", "yarn.bennie.vote_tallied", "episode.ended"]
    assert recorded[2].payload.missing == ["Ben", "Cy", GM]
    assert verify(journal.store.read(table), table).ok


def test_the_tally_subtracts_tokens_in_hand_and_the_two_lowest_gain_then_tokens_go_back(journal, table):
    """ "The GM then totals each player's vote tally. The number of drama tokens a player has in hand is
    then subtracted from this number." "If three or more players tie for first, all gain bennies."
    "Drama tokens left unspent at the end of a session contribute to a player's chance of winning
    bennies (p. 58), then revert to the kitty." """
    give(journal, table, "Cy", 3)
    give(journal, table, GM, 2)
    vote(journal, table)
    recorded = journal.execute(table, EndEpisode())
    assert types(recorded) == ["scene.closed", "yarn.bennie.vote_tallied", "yarn.tokens.returned", "episode.ended"]
    tally = _tallied(recorded).payload
    # Ana: Ben #1, Cy #1, GM #2 = 4; Ben: Ana #1, Cy #2, GM #1 = 4; Cy: 2 + 2 + 3 = 7, less 3 tokens = 4.
    assert [(t.player, t.rank_total, t.tokens_in_hand, t.score, t.placement, t.gains_bennie)
            for t in tally.tallies] == [("Ana", 4, 0, 4, 1, True), ("Ben", 4, 0, 4, 1, True), ("Cy", 7, 3, 4, 1, True)]
    assert [(t.source, t.destination, t.currency, t.chapter) for t in tally.transfers] == [
        ("kitty", "Ana", "bennie", "Tied Results"), ("kitty", "Ben", "bennie", "Tied Results"),
        ("kitty", "Cy", "bennie", "Tied Results")]
    assert [(t.source, t.amount) for t in recorded[2].payload.transfers] == [("Cy", 3), (GM, 2)]
    assert tokens(journal, table) == {} and bennies(journal, table) == {"Ana": 1, "Ben": 1, "Cy": 1}


def test_first_place_alone_and_second_place_gain_but_not_third(journal, table):
    """ "The two players with the lowest scores gain one bennie each." The GM "never gets bennies", and
    "They don't refresh". """
    give(journal, table, "Ana", 1)
    vote(journal, table)
    tally = _tallied(journal.execute(table, EndEpisode())).payload
    assert [(t.player, t.score, t.placement, t.gains_bennie) for t in tally.tallies] == [
        ("Ana", 3, 1, True), ("Ben", 4, 2, True), ("Cy", 7, 3, False)]
    # Bennies persist; drama tokens do not carry over to the next episode.
    journal.execute(table, StartEpisode())
    assert tokens(journal, table) == {} and bennies(journal, table) == {"Ana": 1, "Ben": 1}
    assert bennie_report(journal.state(table))["held"] == {"Ana": 1, "Ben": 1, "Cy": 0}


def test_the_result_is_recomputed_from_the_ballots(journal, table):
    vote(journal, table, {voter: ranking for voter, ranking in BALLOTS.items() if voter != "Cy"})
    so_far = provisional_tally(journal.state(table))
    assert so_far["not_yet"] == ["no ballot from Cy"]
    journal.execute(table, CastBallot("Cy", BALLOTS["Cy"]))
    tallied = _tallied(journal.execute(table, EndEpisode()))
    assert recount(journal.state(table, upto=tallied.sequence - 1), tallied.payload)["agrees"]


def test_verify_flags_a_forged_result_and_an_episode_ended_without_a_vote(journal, table):
    vote(journal, table)
    state = journal.state(table)
    honest = _tallied(journal.execute(table, EndEpisode())).payload
    forged = VOTING.events.vote_tallied(episode=1, tallies=honest.tallies,
                               transfers=[TransferLine(currency="bennie", amount=1, source="kitty", destination="Cy",
                                                       chapter="Gaining Bennies", rule="...")])
    assert not recount(state, forged)["agrees"]
    journal.execute(table, StartEpisode())
    journal.commands.append(table, journal.store.last_sequence(table), [EpisodeEnded(number=2)], by=GM,
                            visibility="everyone")
    faults = audit(journal.history(table))
    assert [f.problem for f in faults] == [f"episode 2 ended with no bennie vote ({bn.ALL_VOTE.cite()})"]


def _tallied(recorded):
    """The vote's result among the events an episode's end records."""
    return next(r for r in recorded if r.event_type == "yarn.bennie.vote_tallied")
