"""Player characters of DramaSystem: who plays them, and their action types (SRD 21-157).

A character is recorded with its name, player, role, desire, two dramatic poles, its seven action
types graded Strong, Middling or Weak (two Strong, two Weak, or the custom-type layout), a "How I
Do It" phrase for Strong types, and its story sentence. The rules of the grades are the pure
:mod:`yarnlog.rulesets.dramasystem.rules.action_types`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.dramasystem.rules.action_types import (
    STANDARD_TYPES,
    Grade,
    check_grades,
    check_how_i_do_it,
    check_story,
)
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import RelationshipDefined, Want, WantDeclared, fraught
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import FOLDS as CAST_FOLDS
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Cast
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import evolve as fold_cast

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState


class HoldsSheets(Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def sheets(self) -> Sheets: ...


#: A campaign as this part sees it.
DramaSystemCampaign: TypeAlias = "CampaignState[HoldsSheets]"

NAME_LIMIT = 80


@event("dramasystem.character.created")
class CharacterCreated(Payload):
    """A player character of DramaSystem, with its action types graded."""

    name: str = Field(min_length=1, max_length=NAME_LIMIT)
    player: str
    role: str = Field(default="", max_length=200)
    desire: str = Field(default="", max_length=200)
    poles: list[str] = Field(default_factory=list, max_length=2)
    grades: dict[str, Grade]
    custom_type: str | None = Field(default=None, max_length=NAME_LIMIT)
    how_i_do_it: dict[str, str] = Field(default_factory=dict)
    story: str = Field(default="", max_length=400)


@dataclass(frozen=True)
class Sheet:
    name: str
    player: str
    role: str
    grades: Mapping[str, Grade]
    custom_type: str | None = None
    how_i_do_it: Mapping[str, str] = field(default_factory=dict)
    desire: str = ""
    poles: tuple[str, ...] = ()
    story: str = ""
    active: bool = True  # in play (the shared core's roster asks)
    wants: tuple[Want, ...] = ()  # in the order declared: the sooner, the more important (DS8)

    @property
    def fraught(self) -> tuple[str, ...]:
        """The first two PCs the character wants something from: its fraught relationships (DS8, line 115)."""
        return fraught(self.wants)

    def action_type_named(self, text: str) -> str:
        """The action type ``text`` names, spelled as on the sheet (case is ignored)."""
        found = next((t for t in self.grades if t.lower() == text.strip().lower()), None)
        invalid(found is not None, f"{self.name} has no action type {text!r}: {', '.join(self.grades)}")
        assert found is not None
        return found

    def grade(self, action_type: str) -> Grade:
        """The character's grade in ``action_type`` (any of the seven, or its custom type)."""
        found = self.grades.get(action_type)
        invalid(found is not None, f"{self.name} has no action type {action_type!r}: "
                                   f"{', '.join(self.grades)}")
        assert found is not None
        return found


@dataclass(frozen=True)
class Sheets:
    """The player characters by name, and each player's character."""

    pcs: Mapping[str, Sheet] = field(default_factory=dict)
    of_player: Mapping[str, str] = field(default_factory=dict)
    #: The supporting cast, locations, precedence orders and themes: the shared core's (SRD 61-65,
    #: 159-170, 643-693), kept beside the player characters as Yarn keeps them.
    cast: Cast = field(default_factory=Cast)
    #: The relationship map's labelled lines, one per pair of characters (the latest label).
    relationships: Mapping[frozenset[str], Relationship] = field(default_factory=dict)

    @property
    def supporting(self) -> Mapping[str, Any]:
        """The supporting cast, as the shared core's roster reads it."""
        return self.cast.supporting


@dataclass(frozen=True)
class CreateCharacter:
    name: str
    player: str
    grades: Mapping[str, str]
    role: str = ""
    desire: str = ""
    poles: tuple[str, ...] = ()
    custom_type: str | None = None
    how_i_do_it: Mapping[str, str] = field(default_factory=dict)
    story: str = ""


def _grades(raw: Mapping[str, str]) -> dict[str, Grade]:
    """The grades given, by action type (its standard spelling); "The rest are Middling." (SRD 121)."""
    graded: dict[str, Grade] = {}
    for action_type, grade in raw.items():
        name = next((t for t in STANDARD_TYPES if t.lower() == action_type.strip().lower()), action_type.strip())
        try:
            graded[name] = Grade(grade.strip().lower())
        except ValueError:
            invalid(False, f"{grade!r} is not a grade: strong, middling or weak")
    return {**{t: Grade.MIDDLING for t in STANDARD_TYPES if t not in graded}, **graded}


def decide(command: Any, campaign: DramaSystemCampaign, referee: Referee) -> list[Payload] | None:
    if not isinstance(command, CreateCharacter):
        return None
    payload = CharacterCreated(
        name=command.name.strip(), player=command.player, role=command.role, desire=command.desire,
        poles=list(command.poles), grades=_grades(command.grades), custom_type=command.custom_type,
        how_i_do_it=dict(command.how_i_do_it), story=command.story)
    return [validate_created(payload, campaign, referee)]


def validate_created(p: CharacterCreated, campaign: DramaSystemCampaign, referee: Referee) -> CharacterCreated:
    """A player at the table, a name not taken, and the book's layout of grades (SRD 121-157)."""
    sheets = campaign.rules.sheets
    invalid(p.player in campaign.table.players, f"{p.player} is not a player at this table")
    invalid(p.name not in sheets.pcs, f"there is already a character called {p.name}")
    invalid(p.player not in sheets.of_player,
            f"{p.player} already plays {sheets.of_player.get(p.player)}: one character a player")
    check_grades(p.grades, p.custom_type, referee, p.name)
    check_how_i_do_it(p.grades, p.how_i_do_it, referee, p.name)
    check_story(p.story, referee, p.name)
    return p


def evolve(sheets: Sheets, recorded: Recorded, _state: Any = None) -> Sheets:
    p = recorded.payload
    if CAST_FOLDS.handles(type(p)):
        cast = fold_cast(sheets.cast, recorded)
        sheets = sheets if cast is sheets.cast else replace(sheets, cast=cast)
    if isinstance(p, (RelationshipDefined, WantDeclared)):
        return _fold_relationships(sheets, recorded)
    if not isinstance(p, CharacterCreated):
        return sheets
    sheet = Sheet(p.name, p.player, p.role, dict(p.grades), p.custom_type, dict(p.how_i_do_it), p.desire,
                  tuple(p.poles), p.story)
    return replace(sheets, pcs={**sheets.pcs, p.name: sheet}, of_player={**sheets.of_player, p.player: p.name})


@dataclass(frozen=True)
class Relationship:
    """A labelled line of the relationship map (lines 73-81): who drew it, to whom, and its label."""

    character: str
    other: str
    nature: str
    sequence: int


def _fold_relationships(sheets: Sheets, recorded: Recorded) -> Sheets:
    p = recorded.payload
    if isinstance(p, RelationshipDefined):
        line = Relationship(p.character, p.other, p.nature, recorded.sequence)
        return replace(sheets, relationships={**sheets.relationships, frozenset((p.character, p.other)): line})
    if isinstance(p, WantDeclared) and p.character in sheets.pcs:
        sheet = sheets.pcs[p.character]
        sheet = replace(sheet, wants=(*sheet.wants, Want(p.withholder, p.want, p.why_not)))
        return replace(sheets, pcs={**sheets.pcs, sheet.name: sheet})
    return sheets


def player_of(campaign: DramaSystemCampaign, character: str) -> str | None:
    sheet = campaign.rules.sheets.pcs.get(character)
    return sheet.player if sheet else None


#: The wants and relationships are the shared core's payloads (DramaSystem registers them in :mod:`.drama`).
PART = Part(name="sheets", initial=Sheets, evolve=evolve,
            folds=folds(CharacterCreated, RelationshipDefined, WantDeclared) | CAST_FOLDS, decide=decide,
            validators={CharacterCreated: validate_created})
