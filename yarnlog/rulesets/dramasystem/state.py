"""DramaSystem's state: one slice per part, each folded by its own part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.rulesets.dramasystem.parts.advanced_procedure import Advanced
    from yarnlog.rulesets.dramasystem.parts.card_procedure import Procedure
    from yarnlog.rulesets.dramasystem.parts.consequences import Consequences
    from yarnlog.rulesets.dramasystem.parts.contests import Contests
    from yarnlog.rulesets.dramasystem.parts.procedural_piles import Piles
    from yarnlog.rulesets.dramasystem.parts.sheets import Sheets
    from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Drama
    from yarnlog.rulesets.scenes_and_tokens.parts.economy import Economy


@dataclass(frozen=True)
class DramaSystemState:
    """Every part's slice of state; the field names are the parts' names."""

    sheets: Sheets
    piles: Piles
    procedure: Procedure
    advanced: Advanced
    contests: Contests
    consequences: Consequences
    economy: Economy  # the shared core's slices, named as in Yarn's state
    drama: Drama

    @property
    def roster(self) -> Sheets:
        """The characters as the shared core reads them (Yarn's state has one too)."""
        return self.sheets


#: A campaign played under the DramaSystem rules, as its deciders and projections see it.
DramaSystemCampaign: TypeAlias = "CampaignState[DramaSystemState]"
