"""How a Yarn dramatic scene ends: the shared core's petitions
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.petitions`), recorded under Yarn's prefix.

The payloads keep the event types Yarn's journals hold (``yarn.petition.resolved`` ...); the
commands and the core's functions are re-exported here, bound to Yarn's side of the core.
"""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens.parts.petitions import (
    PetitionEvents,
    Petitions,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["FOLDS", "PETITIONS", "VALIDATORS", "decide", "drawn_for_quiz", "evolve", "fold_in_place", "forced",
           "players_to_draw_for_quiz", "quizzed", "resolved", "two_way"]


PETITIONS = Petitions(YARN, PetitionEvents.under("yarn"))
decide = PETITIONS.decide
FOLDS = PETITIONS.FOLDS
evolve = PETITIONS.evolve
fold_in_place = PETITIONS.fold_in_place
resolved = PETITIONS.resolved
forced = PETITIONS.forced
two_way = PETITIONS.two_way
quizzed = PETITIONS.quizzed
drawn_for_quiz = PETITIONS.drawn_for_quiz
players_to_draw_for_quiz = PETITIONS.players_to_draw_for_quiz
VALIDATORS = PETITIONS.VALIDATORS
