"""Challenges to a called Yarn scene: the shared core's (:mod:`yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges`),
recorded under Yarn's prefix (``yarn.challenge.ducked`` ...). The core's names are re-exported here."""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import event
from yarnlog.rulesets.scenes_and_tokens.parts import scene_challenges as _core
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import (
    BLOCK_RUSH,
    FOLDS,
    NARRATION,
    PLOT_JUMP,
    REPLIES,
    REVISED,
    RUSH_PAYMENTS,
    TIME_JUMP,
    VOTED_CHALLENGES,
    ChallengeByVote,
    ChallengeEvents,
    ChallengeNovelty,
    DemandProcedural,
    Duck,
    Rush,
    SceneChallenges,
    vote_sides,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["BLOCK_RUSH", "FOLDS", "NARRATION", "PLOT_JUMP", "REPLIES", "REVISED", "RUSH_PAYMENTS", "TIME_JUMP",
           "VOTED_CHALLENGES", "ChallengeByVote", "ChallengeNovelty", "ChallengeVoted", "DemandProcedural", "Duck",
           "NoveltyRuled", "ProceduralDemanded", "Rush", "SceneDucked", "SceneRushed", "CHALLENGES", "VALIDATORS",
           "decide", "ducked", "evolve", "fold_in_place", "novelty_ruled", "procedural_demanded", "rushed",
           "vote_sides", "voted"]


@event("yarn.challenge.ducked")
class SceneDucked(_core.SceneDucked):
    """A player challenged her casting: acquiesced, compelled, or ducked with a token."""


@event("yarn.challenge.rushed")
class SceneRushed(_core.SceneRushed):
    """A character rushed the scene: with consent, a token or a bennie; perhaps blocked."""


@event("yarn.challenge.voted")
class ChallengeVoted(_core.ChallengeVoted):
    """A challenge settled by the players' show of hands, the GM breaking a tie."""


@event("yarn.challenge.novelty_ruled")
class NoveltyRuled(_core.NoveltyRuled):
    """The GM's ruling on a challenge for novelty."""


@event("yarn.challenge.procedural_demanded")
class ProceduralDemanded(_core.ProceduralDemanded):
    """An objection to narrated success and the narrator's reply."""


CHALLENGES = SceneChallenges(YARN, ChallengeEvents(ducked=SceneDucked, rushed=SceneRushed, voted=ChallengeVoted,
                                                   novelty_ruled=NoveltyRuled, procedural_demanded=ProceduralDemanded))
decide = CHALLENGES.decide
evolve = CHALLENGES.evolve
fold_in_place = CHALLENGES.fold_in_place
ducked = CHALLENGES.ducked
rushed = CHALLENGES.rushed
voted = CHALLENGES.voted
novelty_ruled = CHALLENGES.novelty_ruled
procedural_demanded = CHALLENGES.procedural_demanded
VALIDATORS = CHALLENGES.VALIDATORS


def __getattr__(name: str) -> Any:
    return getattr(_core, name)
