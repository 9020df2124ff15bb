"""Relationships and wants between characters: Yarn 0.1 "Creating Characters" ("Relationships",
"Dramatic Poles" through "Wants") and the recurring characters of "The Supporting Cast".
"""

from __future__ import annotations

from collections.abc import Iterable

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.scenes_and_tokens.parts import relationship_map as shared_map
from yarnlog.rulesets.scenes_and_tokens.parts import relationships as core
from yarnlog.rulesets.yarn.parts.characters.sheets import (
    CharacterCreated,
    Characters,
    Relationship,
    active_pcs,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN
from yarnlog.rulesets.yarn.rules.traits import BOOK
from yarnlog.rulesets.yarn.state import YarnCampaign

__all__ = ["RELATE_TO_ALL", "RELATIONSHIPS", "check_relationships", "edges_of", "relationship_map",
           "validate_relationship", "validate_want"]

RELATE_TO_ALL = Rule(
    BOOK,
    "Creating Characters › Step By Step",
    "Third player proclaims his/her character's name, role in the group, and relationship to all other "
    "proclaimed characters.",
)


#: Relationships and wants as Yarn records them: the shared core's, with Yarn's payloads.
RELATIONSHIPS = core.Relationships.under(YARN, "yarn")


def check_relationships(name: str, p: CharacterCreated, campaign: YarnCampaign, referee: Referee) -> None:
    """The creation checklist's relationships: one with every other PC, and the dramatic poles."""
    characters = campaign.rules.characters
    others = [rel.other for rel in p.relationships]
    invalid(len(set(others)) == len(others), "one relationship per character")
    for rel in p.relationships:
        invalid(rel.other in characters.pcs, f"{rel.other} is not a player character")
        invalid(bool(rel.nature.strip()), f"label the relationship to {rel.other}")
    missing = [pc for pc in active_pcs(characters, campaign.table) if pc not in others]
    referee.require(not missing, RELATE_TO_ALL, f"{name} has no relationship to {', '.join(missing)}")
    for want in p.wants:
        _check_want(campaign, referee, name, want.withholder, want.want, want.why_not)


def _check_want(campaign: YarnCampaign, referee: Referee, character: str, withholder: str, want: str,
                why_not: str) -> None:
    RELATIONSHIPS.check_want(campaign, referee, character, withholder, want, why_not)


validate_relationship = RELATIONSHIPS.validate_relationship
validate_want = RELATIONSHIPS.validate_want


def edges_of(characters: Characters, name: str) -> Iterable[Relationship]:
    """The relationships ``name`` is part of."""
    return [r for key, r in characters.relationships.items() if name in key]


def relationship_map(characters: Characters) -> dict:
    """The relationship map: labelled lines, wants (fraught ones marked), needs of recurring characters,
    and the PCs in play not yet "named as objects of at least two other characters' wants" (Step By
    Step, 14): the shared core's report
    (:func:`~yarnlog.rulesets.scenes_and_tokens.parts.relationship_map.relationship_map`)."""
    return shared_map.relationship_map(characters)
