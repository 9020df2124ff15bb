"""Challenges to a location detail, against Yarn 0.1 "Introducing Locations":

"A participant who feels that an introduced location detail is out of bounds can challenge it on one of
the following grounds: Consistency [...] Continuity [...] Tone [...] Believability [...] If the GM
agrees that the detail fails one of the above tests, she allows a challenge, as per the standard
rules." The standard rules ("Challenges"): "With a show of hands, all players side with the caller or
the challenger. The GM votes to break ties."."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import ChallengeLocation, ElaborateLocation, IntroduceLocation
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import location_data
from yarnlog.rulesets.scenes_and_tokens.rules.challenges import CHALLENGE_VOTE

from .drama_table import seat_characters
from .refusals import refused, rejected


@pytest.fixture
def harbour(journal, campaign):
    """The GM's opening scene in play; Ana introduced the Drowned Bell, Ben added a detail to it."""
    seat_characters(journal, campaign)
    journal.execute(campaign, IntroduceLocation("Drowned Bell", "a tavern below the tide line", "Ana"))
    journal.execute(campaign, ElaborateLocation("Drowned Bell", "a jukebox plays disco"))
    return campaign


def place(journal, cid):
    return location_data(journal.state(cid).rules.characters.cast.locations["Drowned Bell"])


def test_a_detail_the_gm_allows_a_challenge_to_goes_to_the_vote(journal, harbour):
    """Consistency: "The description is anachronistic"; the players' hands strike it."""
    challenged = journal.execute(harbour, ChallengeLocation(
        "Drowned Bell", "consistency", "Cy", gm_allows=True, detail=1, for_detail=("Ben",),
        for_challenger=("Ana", "Cy")))[0].payload
    assert (challenged.text, challenged.upheld) == ("a jukebox plays disco", True)
    assert place(journal, harbour)["struck"] == [1]
    rejected(journal, harbour, ChallengeLocation("Drowned Bell", "tone", "Cy", gm_allows=True, detail=1,
                                                 for_challenger=("Ana", "Ben", "Cy")), "already struck")
    assert verify(journal.store.read(harbour), harbour).ok


def test_a_tie_is_the_gms_and_the_detail_may_stand(journal, harbour):
    tied = ChallengeLocation("Drowned Bell", "believability", "Ben", gm_allows=True, for_detail=("Ana",),
                             for_challenger=("Ben",))
    refused(journal, harbour, tied, CHALLENGE_VOTE, match="did not vote")  # Cy has not raised a hand
    rejected(journal, harbour, ChallengeLocation("Drowned Bell", "believability", "Ben", gm_allows=True,
                                                 for_detail=("Ana", "Cy"), for_challenger=("Ben",),
                                                 gm_tie_break="challenger"), "not tied")
    stands = journal.execute(harbour, ChallengeLocation(
        "Drowned Bell", "believability", "Ben", gm_allows=True, for_detail=("Ana",), for_challenger=("Ben", "Cy"),
        gm_tie_break=None))[0].payload
    assert stands.upheld and place(journal, harbour)["struck"] == [0]


def test_without_the_gms_leave_there_is_no_vote_and_the_detail_stands(journal, harbour):
    kept = journal.execute(harbour, ChallengeLocation("Drowned Bell", "tone", "Ben", gm_allows=False))[0].payload
    assert (kept.upheld, kept.for_detail, kept.for_challenger) == (False, [], [])
    assert place(journal, harbour)["struck"] == []
    rejected(journal, harbour, ChallengeLocation("Drowned Bell", "tone", "Ben", gm_allows=False,
                                                 for_challenger=("Ben",)), "there is no vote")
    rejected(journal, harbour, ChallengeLocation("Drowned Bell", "taste", "Ben", gm_allows=True),
             "consistency, continuity, tone, believability")
    rejected(journal, harbour, ChallengeLocation("Drowned Bell", "tone", "Ben", gm_allows=True, detail=5),
             "1 elaboration")
