"""Yarn's state: one slice per part, each folded by its own part.

The parts (:mod:`.parts`) are the concerns of the game: the economy of tokens and bennies, the
characters, the drama of scenes, procedural rolls, combat and powers. Each folds its own slice
over every event; :class:`YarnState` holds the six slices, so ``campaign.rules.economy`` is the
economy part's slice, typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Drama
    from yarnlog.rulesets.scenes_and_tokens.parts.economy import Economy
    from yarnlog.rulesets.yarn.parts.characters.sheets import Characters
    from yarnlog.rulesets.yarn.parts.combat.fight_records import Fights
    from yarnlog.rulesets.yarn.parts.powers.power_records import Powers
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Procedure


@dataclass(frozen=True)
class YarnState:
    """Every part's slice of state; the field names are the parts' names."""

    economy: Economy
    characters: Characters
    drama: Drama
    combat: Fights
    procedure: Procedure
    powers: Powers

    @property
    def roster(self) -> Characters:
        """The characters as the shared core reads them (DramaSystem's state has one too)."""
        return self.characters


#: A campaign played under the Yarn rules, as its deciders and projections see it.
YarnCampaign: TypeAlias = "CampaignState[YarnState]"
