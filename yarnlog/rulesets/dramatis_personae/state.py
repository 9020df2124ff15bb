"""Dramatis Personae's state: one slice per part, each folded by its own part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from yarnlog.core.state import CampaignState
    from yarnlog.rulesets.dramatis_personae.parts.characters import Characters
    from yarnlog.rulesets.dramatis_personae.parts.ledger import Ledger
    from yarnlog.rulesets.dramatis_personae.parts.rolls import Rolls


@dataclass(frozen=True)
class DPState:
    """Every part's slice of state; the field names are the parts' names."""

    characters: Characters
    ledger: Ledger
    rolls: Rolls


#: A campaign played under the Dramatis Personae rules, as its deciders and projections see it.
DPCampaign: TypeAlias = "CampaignState[DPState]"
