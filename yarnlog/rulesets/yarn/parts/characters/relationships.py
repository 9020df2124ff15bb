"""Relationships and wants between characters: Yarn 0.1 "Creating Characters" ("Relationships",
"Dramatic Poles" through "Wants") and the recurring characters of "The Supporting Cast".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.yarn.parts.characters import supporting_cast as cast_module
from yarnlog.rulesets.yarn.parts.characters.sheets import (
    CharacterCreated,
    Characters,
    Relationship,
    RelationshipDefined,
    WantDeclared,
    active_pcs,
)
from yarnlog.rulesets.yarn.parts.characters.supporting_cast import require_active_pc
from yarnlog.rulesets.yarn.parts.drama.scene_cast import cast_in_play
from yarnlog.rulesets.yarn.rules.traits import BOOK
from yarnlog.rulesets.yarn.state import YarnCampaign

RELATE_TO_ALL = Rule(
    BOOK,
    "Creating Characters › Step By Step",
    "Third player proclaims his/her character's name, role in the group, and relationship to all other "
    "proclaimed characters.",
)


WHY_NOT = Rule(
    BOOK, "Creating Characters › Step By Step", "The player of the other character defines why they can't get it."
)


RECURRING_RELATIONSHIP = Rule(
    BOOK,
    "Supporting Characters › Recurring Characters",
    "Players may establish relationships to recurring characters promoted by other players. Do this "
    "during any scene featuring both your character and the recurring character.",
)


MINOR_HAS_NO_RELATIONSHIP = Rule(
    BOOK,
    "Glossary of Game Terms",
    "Minor character: a named supporting character to whom no PC has an emotional relationship.",
)


@dataclass(frozen=True)
class DefineRelationship:
    character: str
    other: str
    nature: str


@dataclass(frozen=True)
class DeclareWant:
    character: str
    withholder: str
    want: str
    why_not: str


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
    invalid(withholder != character, "a character wants something from another PC, not from himself")
    require_active_pc(campaign, withholder)
    invalid(bool(want.strip()), f"say what {character} wants from {withholder}")
    referee.require(bool(why_not.strip()), WHY_NOT, f"{withholder}'s player has not said why {character} can't get it")


def validate_relationship(p: RelationshipDefined, campaign: YarnCampaign, referee: Referee) -> RelationshipDefined:
    """A relationship defined in play: with a PC or a recurring character, never a minor one."""
    require_active_pc(campaign, p.character)
    invalid(p.other != p.character, "a relationship joins two characters")
    invalid(bool(p.nature.strip()), "label the relationship")
    characters = campaign.rules.characters
    supporting = characters.supporting.get(p.other)
    if supporting is None:
        require_active_pc(campaign, p.other)
        return p
    referee.require(supporting.kind == cast_module.RECURRING, MINOR_HAS_NO_RELATIONSHIP,
                    f"{p.other} is a minor character: promote him or her first")
    cast = cast_in_play(campaign)  # as it stands after ducks and rushes, not as it was called
    referee.require(cast is not None and {p.character, p.other} <= set(cast), RECURRING_RELATIONSHIP,
                    f"no scene in play features both {p.character} and {p.other}")
    return p


def validate_want(p: WantDeclared, campaign: YarnCampaign, referee: Referee) -> WantDeclared:
    """A want declared in play, with why the character cannot get it."""
    require_active_pc(campaign, p.character)
    _check_want(campaign, referee, p.character, p.withholder, p.want, p.why_not)
    return p


def edges_of(characters: Characters, name: str) -> Iterable[Relationship]:
    """The relationships ``name`` is part of."""
    return [r for key, r in characters.relationships.items() if name in key]


def relationship_map(characters: Characters) -> dict:
    """The relationship map: labelled lines, wants (fraught ones marked), needs of recurring characters.

    ``wanted_by_fewer_than_two`` lists the PCs in play not yet "named as objects of at least two
    other characters' wants" (Step By Step, 14).
    """
    in_play = [s for s in characters.pcs.values() if s.active]
    wanted_by: dict[str, set[str]] = {s.name: set() for s in in_play}
    for sheet in in_play:
        for want in sheet.wants:
            wanted_by.setdefault(want.withholder, set()).add(sheet.name)
    return {
        "characters": [s.name for s in in_play] + [c.name for c in characters.cast.supporting_in_order()
                                                   if c.kind == cast_module.RECURRING],
        "relationships": [{"character": r.character, "other": r.other, "nature": r.nature}
                          for r in characters.relationships.values()],
        "wants": [{"character": s.name, "withholder": w.withholder, "want": w.want, "why_not": w.why_not,
                   "fraught": w.withholder in s.fraught} for s in in_play for w in s.wants],
        "needs": [{"character": c.promoted_by, "recurring": c.name, "need": c.need}
                  for c in characters.cast.supporting_in_order() if c.promoted_by],
        "wanted_by_fewer_than_two": [s.name for s in in_play if len(wanted_by[s.name]) < 2],
    }
