"""The bennie vote at the end of a DramaSystem episode (digest 001: DS73-DS75, DS18-DS19)."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.timeline import EndEpisode, OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import TwoWay

from .storm_table import CAMPAIGN


def _ok(journal) -> None:
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert report.ok, report


def test_ds73_each_voter_ranks_the_others_and_the_gm_ranks_every_player(journal):
    # DS73, line 705: "Players do not rank themselves. No one ranks the GM [...] The GM votes, too,
    # ranking all of the players."
    with pytest.raises(RuleViolation, match="ranks themselves") as refused:
        journal.execute(CAMPAIGN, CastBallot("Ana", ("Ana", "Ben")))
    assert "DramaSystem SRD (DS73-DS74, lines 699-712)" in str(refused.value)
    with pytest.raises(RuleViolation, match="does not rank Cy"):
        journal.execute(CAMPAIGN, CastBallot("Maya", ("Ana", "Ben")))
    [cast] = journal.execute(CAMPAIGN, CastBallot("Maya", ("Ana", "Ben", "Cy")))
    assert cast.event_type == "dramasystem.bennie.ballot_cast"


def test_ds74_the_tally_less_tokens_in_hand_awards_bennies_and_the_tokens_return(journal):
    # DS74, lines 707-709: "The number of drama tokens a player has in hand is then subtracted from this
    # number. The two players with the lowest scores gain one bennie each"; DS19, line 275: unspent
    # tokens "contribute to a player's chance of winning bennies, then revert to the kitty."
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", "Tomas"), mode="dramatic"))
    journal.execute(CAMPAIGN, TwoWay("Iris", "Tomas", True, True))  # Ana and Ben hold one token each
    for voter, ranking in (("Maya", ("Cy", "Ana", "Ben")), ("Ana", ("Cy", "Ben")), ("Ben", ("Cy", "Ana")),
                           ("Cy", ("Ana", "Ben"))):
        journal.execute(CAMPAIGN, CastBallot(voter, ranking))
    with pytest.raises(InvalidCommand, match="has already voted"):
        journal.execute(CAMPAIGN, CastBallot("Cy", ("Ben", "Ana")))
    ended = journal.execute(CAMPAIGN, EndEpisode())
    assert [r.event_type for r in ended][-3:] == ["dramasystem.bennie.vote_tallied", "dramasystem.tokens.returned",
                                                  "episode.ended"]
    tally = ended[-3].payload
    # Ana: 2 + 2 + 1 = 5, less 1 token = 4; Ben: 3 + 2 + 2 = 7, less 1 = 6; Cy: 1 + 1 + 1 = 3.
    assert {t.player: t.score for t in tally.tallies} == {"Cy": 3, "Ana": 4, "Ben": 6}
    assert {t.player for t in tally.tallies if t.gains_bennie} == {"Cy", "Ana"}
    economy = journal.state(CAMPAIGN).rules.economy
    assert dict(economy.bennies) == {"Cy": 1, "Ana": 1} and not any(economy.tokens.values())
    _ok(journal)


def test_an_episode_does_not_end_before_everyone_voted(journal):
    # DS73, line 705: "All participants then vote"
    journal.execute(CAMPAIGN, CastBallot("Maya", ("Ana", "Ben", "Cy")))
    before = journal.store.last_sequence(CAMPAIGN)
    with pytest.raises(RuleViolation, match="no ballot from Ana, Ben, Cy"):
        journal.execute(CAMPAIGN, EndEpisode())
    assert journal.store.last_sequence(CAMPAIGN) == before
