"""A GM's ruling that moves nothing, tied to the rule it settles: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.rulings`), recorded under Yarn's prefix."""

from __future__ import annotations

from yarnlog.core.composition import folds
from yarnlog.rulesets.scenes_and_tokens.parts import rulings as _core
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix

__all__ = ["FOLDS", "RULINGS", "VALIDATORS", "decide", "evolve"]


RULINGS = _core.Rulings(under_prefix(_core.RulingRecorded, "yarn", "ruling.recorded"))
decide = RULINGS.decide
VALIDATORS = RULINGS.VALIDATORS
#: A ruling changes no standing: nothing folds it.
FOLDS = folds()


def evolve(drama, recorded, yarn):
    return drama


def fold_in_place(drama, recorded, yarn) -> None:
    """A replay in place: nothing to fold either."""
