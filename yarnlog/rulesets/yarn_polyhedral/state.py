"""The polyhedral Yarn's state: one slice per part, each folded by its own part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from yarnlog.rulesets.yarn_polyhedral.parts.bodies import Bodies
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import Characters
    from yarnlog.rulesets.yarn_polyhedral.parts.feats import Feats
    from yarnlog.rulesets.yarn_polyhedral.parts.fortune import Fortune
    from yarnlog.rulesets.yarn_polyhedral.parts.rounds import Rounds


@dataclass(frozen=True)
class PolyhedralState:
    """Every part's slice of state; the field names are the parts' names."""

    characters: Characters
    feats: Feats
    fortune: Fortune
    bodies: Bodies
    rounds: Rounds
