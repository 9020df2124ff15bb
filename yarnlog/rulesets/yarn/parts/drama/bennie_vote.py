"""The bennie vote and the end of a Yarn episode: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote`), recorded under Yarn's prefix. The core's names
are re-exported here."""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import (
    BennieVoting,
    VoteEvents,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["FOLDS", "VOTING", "VALIDATORS", "ballot_cast", "current_vote", "decide", "end_episode", "evolve",
           "fold_in_place", "validate_episode_end", "vote_tallied"]


VOTING = BennieVoting(YARN, VoteEvents.under("yarn"))
decide = VOTING.decide
FOLDS = VOTING.FOLDS
evolve = VOTING.evolve
fold_in_place = VOTING.fold_in_place
ballot_cast = VOTING.ballot_cast
current_vote = VOTING.current_vote
vote_tallied = VOTING.vote_tallied
end_episode = VOTING.end_episode
validate_episode_end = VOTING.validate_episode_end
VALIDATORS = VOTING.VALIDATORS

