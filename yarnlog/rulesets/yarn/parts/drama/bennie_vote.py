"""The bennie vote and the end of a Yarn episode: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote`), recorded under Yarn's prefix. The core's names
are re-exported here."""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import event
from yarnlog.rulesets.scenes_and_tokens.parts import bennie_vote as _core
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import (
    FOLDS,
    BennieVoting,
    CastBallot,
    RankReceived,
    TallyLine,
    VoteEvents,
    ballots_view,
    episode_ballots,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN
from yarnlog.rulesets.yarn.parts.economy.part import TokensReturned

__all__ = ["FOLDS", "BallotCast", "BennieVoteTallied", "CastBallot", "RankReceived", "TallyLine", "VOTING",
           "VALIDATORS", "ballot_cast", "ballots_view", "current_vote", "decide", "end_episode", "episode_ballots",
           "evolve", "fold_in_place", "validate_episode_end", "vote_tallied"]


@event("yarn.bennie.ballot_cast")
class BallotCast(_core.BallotCast):
    """One participant's ranking of the other players."""


@event("yarn.bennie.vote_tallied")
class BennieVoteTallied(_core.BennieVoteTallied):
    """The result of the vote, lowest score first, with the bennies it awards (from the kitty)."""


VOTING = BennieVoting(YARN, VoteEvents(ballot_cast=BallotCast, vote_tallied=BennieVoteTallied,
                                       returned=TokensReturned))
decide = VOTING.decide
evolve = VOTING.evolve
fold_in_place = VOTING.fold_in_place
ballot_cast = VOTING.ballot_cast
current_vote = VOTING.current_vote
vote_tallied = VOTING.vote_tallied
end_episode = VOTING.end_episode
validate_episode_end = VOTING.validate_episode_end
VALIDATORS = VOTING.VALIDATORS


def __getattr__(name: str) -> Any:
    return getattr(_core, name)
