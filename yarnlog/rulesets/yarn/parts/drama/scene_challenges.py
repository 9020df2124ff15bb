"""Challenges to a called Yarn scene: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges`),
recorded under Yarn's prefix (``yarn.challenge.ducked`` ...). The core's names are re-exported here."""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import (
    ChallengeEvents,
    SceneChallenges,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["FOLDS", "CHALLENGES", "VALIDATORS", "decide", "ducked", "evolve", "fold_in_place", "novelty_ruled",
           "procedural_demanded", "rushed", "voted"]


CHALLENGES = SceneChallenges(YARN, ChallengeEvents.under("yarn"))
decide = CHALLENGES.decide
FOLDS = CHALLENGES.FOLDS
evolve = CHALLENGES.evolve
fold_in_place = CHALLENGES.fold_in_place
ducked = CHALLENGES.ducked
rushed = CHALLENGES.rushed
voted = CHALLENGES.voted
novelty_ruled = CHALLENGES.novelty_ruled
procedural_demanded = CHALLENGES.procedural_demanded
VALIDATORS = CHALLENGES.VALIDATORS

