"""Relationships and wants between characters ("Creating Characters": Yarn 0.1, and DramaSystem
lines 23-115 in the same words; DS8, DS9), recorded in play.

Each payload is declared once here (:class:`RelationshipDefined`, :class:`WantDeclared`); each
ruleset registers its subclass under its own prefix and composes :class:`Relationships`, which
decides the commands :class:`DefineRelationship` and :class:`DeclareWant` and checks them against
the ruleset's roster. The fraught relationships are the first two PCs a character wants something
from (:func:`fraught`, DS8).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK, Dramatic
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Campaign
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import RECURRING
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix

WHY_NOT = Rule(
    SHARED_BOOK, "Creating Characters › Step By Step",
    "The player of the other character defines why they can't get it.",
)
FRAUGHT = Rule(
    SHARED_BOOK, "Creating Characters › What You Want From Others",
    "The first and second PCs you name as your withholders of emotional reward are your fraught relationships.",
)
RECURRING_RELATIONSHIP = Rule(
    SHARED_BOOK, "Supporting Characters › Recurring Characters",
    "Players may establish relationships to recurring characters promoted by other players. Do this "
    "during any scene featuring both your character and the recurring character.",
)
MINOR_HAS_NO_RELATIONSHIP = Rule(
    SHARED_BOOK, "Glossary of Game Terms",
    "Minor character: a named supporting character to whom no PC has an emotional relationship.",
)


@dataclass(frozen=True)
class DefineRelationship:
    """``character`` labels the line between it and ``other`` (a PC, or a recurring character)."""

    character: str
    other: str
    nature: str


@dataclass(frozen=True)
class DeclareWant:
    """What ``character`` wants from ``withholder``, and why (says the withholder's player) he can't get it."""

    character: str
    withholder: str
    want: str
    why_not: str


class RelationshipDefined(Payload):
    """A relationship defined (or redefined) on the relationship map."""

    character: str
    other: str
    nature: str


class WantDeclared(Payload):
    """A want declared: from whom, what, and why the character can't get it."""

    character: str
    withholder: str
    want: str
    why_not: str


@dataclass(frozen=True)
class Want:
    withholder: str
    want: str
    why_not: str


def fraught(wants: Iterable[Want]) -> tuple[str, ...]:
    """"The first and second PCs you name as your withholders of emotional reward" (DS8, line 115)."""
    return tuple(dict.fromkeys(w.withholder for w in wants))[:2]


def _scene_cast(campaign: Campaign) -> tuple[str, ...] | None:
    """The cast of the scene in play as it stands now (after ducks and rushes); None outside a scene."""
    number = campaign.timeline.scene
    call = campaign.rules.drama.scenes.get(number) if number is not None else None
    return call.cast if call is not None else None


@dataclass(frozen=True)
class Relationships:
    """Relationships and wants as one ruleset records them: its :class:`Dramatic` and its payloads."""

    dramatic: Dramatic
    defined: type[RelationshipDefined]
    declared: type[WantDeclared]

    @classmethod
    def under(cls, dramatic: Dramatic, prefix: str) -> Relationships:
        """Relationships and wants as the ruleset of ``prefix`` records them."""
        return cls(dramatic, under_prefix(RelationshipDefined, prefix, "character.relationship_defined"),
                   under_prefix(WantDeclared, prefix, "character.want_declared"))

    def _require_active_pc(self, campaign: Campaign, name: str) -> None:
        sheet = present(self.dramatic.roster(campaign).pcs.get(name), f"{name} is not a player character")
        invalid(sheet.active, f"{name} is retired from play")

    def check_want(self, campaign: Campaign, referee: Referee, character: str, withholder: str, want: str,
                   why_not: str) -> None:
        """A want is from another PC in play, says what, and its withholder's player says why not."""
        invalid(withholder != character, "a character wants something from another PC, not from himself")
        self._require_active_pc(campaign, withholder)
        invalid(bool(want.strip()), f"say what {character} wants from {withholder}")
        self.dramatic.referee(referee).require(bool(why_not.strip()), WHY_NOT,
                                               f"{withholder}'s player has not said why {character} can't get it")

    def validate_relationship(self, p: RelationshipDefined, campaign: Campaign,
                              referee: Referee) -> RelationshipDefined:
        """A relationship defined in play: with a PC or a recurring character, never a minor one."""
        self._require_active_pc(campaign, p.character)
        invalid(p.other != p.character, "a relationship joins two characters")
        invalid(bool(p.nature.strip()), "label the relationship")
        supporting = self.dramatic.roster(campaign).supporting.get(p.other)
        if supporting is None:
            self._require_active_pc(campaign, p.other)
            return p
        referee = self.dramatic.referee(referee)
        referee.require(supporting.kind == RECURRING, MINOR_HAS_NO_RELATIONSHIP,
                        f"{p.other} is a minor character: promote first")
        cast = _scene_cast(campaign)
        referee.require(cast is not None and {p.character, p.other} <= set(cast), RECURRING_RELATIONSHIP,
                        f"{p.character} and {p.other} share no scene")
        return p

    def validate_want(self, p: WantDeclared, campaign: Campaign, referee: Referee) -> WantDeclared:
        """A want declared in play, with why the character cannot get it."""
        self._require_active_pc(campaign, p.character)
        self.check_want(campaign, referee, p.character, p.withholder, p.want, p.why_not)
        return p

    def decide(self, command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        if isinstance(command, DefineRelationship):
            return [self.validate_relationship(self.defined(character=command.character.strip(),
                                                            other=command.other.strip(), nature=command.nature),
                                               campaign, referee)]
        if isinstance(command, DeclareWant):
            return [self.validate_want(self.declared(character=command.character.strip(),
                                                     withholder=command.withholder.strip(), want=command.want,
                                                     why_not=command.why_not), campaign, referee)]
        return None

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Campaign, Referee], Payload]]:  # noqa: N802 (a module's name)
        return {self.defined: self.validate_relationship, self.declared: self.validate_want}
