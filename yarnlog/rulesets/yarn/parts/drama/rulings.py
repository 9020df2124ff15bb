"""A GM's ruling that moves nothing, tied to the rule it settles: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.rulings`), recorded under Yarn's prefix."""

from __future__ import annotations

from yarnlog.core.events import event
from yarnlog.core.ruleset import folds
from yarnlog.rulesets.scenes_and_tokens.parts import rulings as _core
from yarnlog.rulesets.scenes_and_tokens.parts.rulings import RecordRuling

__all__ = ["FOLDS", "RULINGS", "VALIDATORS", "RecordRuling", "RulingRecorded", "decide", "evolve"]


@event("yarn.ruling.recorded")
class RulingRecorded(_core.RulingRecorded):
    """A GM's ruling on a rule the book leaves to her ("as ruled by the GM"), moving nothing."""


RULINGS = _core.Rulings(RulingRecorded)
decide = RULINGS.decide
VALIDATORS = RULINGS.VALIDATORS
#: A ruling changes no standing: nothing folds it.
FOLDS = folds()


def evolve(drama, recorded, yarn):
    return drama


def fold_in_place(drama, recorded, yarn) -> None:
    """A replay in place: nothing to fold either."""
