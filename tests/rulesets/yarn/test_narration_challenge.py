"""A challenge to the caller's narration, against Yarn 0.1 "Calling Scenes" (Situation):

"Caller narration may be challenged if players object to what you describe them as doing, or if they
feel that your complication assumes a plot advancement that ought to be played out instead." The
second ground is the plot-jump challenge; the first is settled, like it, by the show of hands of
"Challenges": "all players side with the caller or the challenger. The GM votes to break ties."."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import ChallengeByVote
from yarnlog.rulesets.scenes_and_tokens.rules.challenges import CHALLENGE_VOTE

from .drama_table import seat_characters
from .refusals import refused, rejected


@pytest.fixture
def scene(journal, campaign):
    """Ana calls a dramatic scene in which she describes Jon (Ben's) drunk on the quay."""
    seat_characters(journal, campaign)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic",
                                        situation="Jon lies drunk on the quay"))
    return campaign


def test_the_players_hands_decide_and_a_caller_who_loses_revises_her_narration(journal, scene):
    voted = journal.execute(scene, ChallengeByVote("narration", "Ben", ("Ana",), ("Ben", "Cy"),
                                                   revised_situation="Jon sits sober, waiting"))[0].payload
    assert (voted.kind, voted.caller, voted.winner, voted.revised_situation) == (
        "narration", "Ana", "challenger", "Jon sits sober, waiting")
    assert verify(journal.store.read(scene), scene).ok


def test_every_player_votes_and_a_caller_who_wins_revises_nothing(journal, scene):
    refused(journal, scene, ChallengeByVote("narration", "Ben", ("Ana",), ("Ben",)), CHALLENGE_VOTE)  # Cy abstains
    rejected(journal, scene, ChallengeByVote("narration", "Ben", ("Ana", "Cy"), ("Ben",),
                                             revised_situation="Jon sits sober"), "revises")
    kept = journal.execute(scene, ChallengeByVote("narration", "Ben", ("Ana", "Cy"), ("Ben",)))[0].payload
    assert (kept.winner, kept.revised_situation) == ("caller", "")
    rejected(journal, scene, ChallengeByVote("narration", "Ana", ("Ben",), ("Ana", "Cy")), "her own call")
