"""Spending bennies in a Yarn campaign: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends`),
recorded as ``yarn.bennie.spent``. The core's names are re-exported here."""

from __future__ import annotations

from yarnlog.rulesets.scenes_and_tokens.parts import bennie_spends as _core
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import (
    BennieSpends,
)
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["FOLDS", "SPENDS", "VALIDATORS", "decide", "evolve", "fold_in_place", "spent"]


SPENDS = BennieSpends(YARN, under_prefix(_core.BennieSpent, "yarn", "bennie.spent"))
decide = SPENDS.decide
FOLDS = SPENDS.FOLDS
evolve = SPENDS.evolve
fold_in_place = SPENDS.fold_in_place
spent = SPENDS.spent
VALIDATORS = SPENDS.VALIDATORS

