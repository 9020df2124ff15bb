"""How a Yarn dramatic scene ends: the shared core's petitions
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.petitions`), recorded under Yarn's prefix.

The payloads keep the event types Yarn's journals hold (``yarn.petition.resolved`` ...); the
commands and the core's functions are re-exported here, bound to Yarn's side of the core.
"""

from __future__ import annotations

from yarnlog.core.events import event
from yarnlog.rulesets.scenes_and_tokens.parts import petitions as _core
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import (
    ANSWERS,
    EXCHANGES,
    FOLDS,
    AnswerLine,
    Force,
    GrantVoteData,
    PetitionEvents,
    Petitions,
    QuizPetitioners,
    ResolvePetition,
    SupportLine,
    TwoWay,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["ANSWERS", "EXCHANGES", "FOLDS", "AnswerLine", "Force", "GrantVoteData", "PetitionForced",
           "PetitionResolved", "PetitionersQuizzed", "QuizPetitioners", "ResolvePetition", "SupportLine", "TwoWay",
           "TwoWayExchanged", "PETITIONS", "VALIDATORS", "decide", "drawn_for_quiz", "evolve", "fold_in_place",
           "forced", "players_to_draw_for_quiz", "quizzed", "resolved", "two_way"]


@event("yarn.petition.resolved")
class PetitionResolved(_core.PetitionResolved):
    """A petition settled: granted, refused (perhaps by the group's vote) or no contest."""


@event("yarn.petition.forced")
class PetitionForced(_core.PetitionForced):
    """A force, perhaps blocked, with its supporters on either side."""


@event("yarn.petition.two_way")
class TwoWayExchanged(_core.TwoWayExchanged):
    """Each character sought a payoff from the other."""


@event("yarn.petition.quizzed")
class PetitionersQuizzed(_core.PetitionersQuizzed):
    """The GM's quiz of several petitioners, in a newly drawn precedence order."""


PETITIONS = Petitions(YARN, PetitionEvents(resolved=PetitionResolved, forced=PetitionForced,
                                           two_way=TwoWayExchanged, quizzed=PetitionersQuizzed))
decide = PETITIONS.decide
evolve = PETITIONS.evolve
fold_in_place = PETITIONS.fold_in_place
resolved = PETITIONS.resolved
forced = PETITIONS.forced
two_way = PETITIONS.two_way
quizzed = PETITIONS.quizzed
drawn_for_quiz = PETITIONS.drawn_for_quiz
players_to_draw_for_quiz = PETITIONS.players_to_draw_for_quiz
VALIDATORS = PETITIONS.VALIDATORS
