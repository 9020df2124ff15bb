"""Characters: level, Strengths and Weaknesses, Minutiae and Quirks, background, description,
status and possessions (lines 13-59); Minutiae added later and the GM's rulings on how a
Strength develops or a Weakness is reduced (line 65); a level bought (DP38, folded here for the
level; decided and folded in the ledger for the dice it costs).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.dramatis_personae.rules.characters import check_attributes, check_level, check_quirks

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState

NAME_LIMIT = 80
TEXT_LIMIT = 4000


class HoldsCharacters(Protocol):
    """The slice of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def characters(self) -> Characters: ...


#: A campaign as this part sees it.
DPCampaign: TypeAlias = "CampaignState[HoldsCharacters]"


class Trait(BaseModel):
    """A Strength or Weakness as written on the sheet, and how general it is (line 21)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    trait: str = Field(min_length=1, max_length=NAME_LIMIT)
    general: bool = False


@event("dramatis-personae.character.created")
class CharacterCreated(Payload):
    """A character of Dramatis Personae (Steps 1-5, lines 23-57)."""

    name: str = Field(min_length=1, max_length=NAME_LIMIT)
    player: str
    level: int = Field(ge=0, le=100)
    strengths: list[Trait] = Field(default_factory=list, max_length=100)
    weaknesses: list[Trait] = Field(default_factory=list, max_length=100)
    minutiae: list[str] = Field(default_factory=list, max_length=100)
    quirks: list[str] = Field(default_factory=list, max_length=100)
    background: str = Field(default="", max_length=TEXT_LIMIT)
    description: str = Field(default="", max_length=TEXT_LIMIT)
    status: str = Field(default="", max_length=TEXT_LIMIT)
    possessions: list[str] = Field(default_factory=list, max_length=100)


@event("dramatis-personae.minutia.added")
class MinutiaAdded(Payload):
    """A Minutia gained in play: no Quirk is needed (line 43, "each initial minutia"; reading 13)."""

    character: str
    minutia: str = Field(min_length=1, max_length=NAME_LIMIT)


@event("dramatis-personae.attribute.developed")
class AttributeDeveloped(Payload):
    """The GM's ruling on a Strength developed or a Weakness reduced or removed (line 65)."""

    gm_records = "a ruling"

    character: str
    change: Literal["strength-gained", "weakness-eased", "weakness-removed", "background"]
    trait: str = Field(min_length=1, max_length=NAME_LIMIT)
    ruling: str = Field(min_length=1, max_length=TEXT_LIMIT)


@event("dramatis-personae.level.bought")
class LevelBought(Payload):
    """A level bought between adventures with 10 × the new level saved bonus dice (DP38-DP39, lines 61, 65)."""

    character: str
    level: int = Field(ge=1, le=100)
    cost: int = Field(ge=0)


@dataclass(frozen=True)
class Sheet:
    name: str
    player: str
    level: int
    strengths: tuple[Trait, ...] = ()
    weaknesses: tuple[Trait, ...] = ()
    minutiae: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    background: str = ""
    description: str = ""
    status: str = ""
    possessions: tuple[str, ...] = ()
    developments: tuple[str, ...] = ()  # the GM's rulings, in order

    @property
    def traits(self) -> tuple[str, ...]:
        """The Strengths, Weaknesses and Minutiae by name (the console completes them)."""
        return (*(t.trait for t in (*self.strengths, *self.weaknesses)), *self.minutiae)

    def trait(self, text: str) -> tuple[str, str] | None:
        """``(kind, trait as written)`` of a Strength, Weakness or Minutia named ``text`` (any case)."""
        wanted = text.strip().lower()
        for kind, traits in (("strength", self.strengths), ("weakness", self.weaknesses)):
            for trait in traits:
                if trait.trait.lower() == wanted:
                    return kind, trait.trait
        return next((("minutia", m) for m in self.minutiae if m.lower() == wanted), None)


@dataclass(frozen=True)
class Characters:
    pcs: dict[str, Sheet] = field(default_factory=dict)


@dataclass(frozen=True)
class CreateCharacter:
    name: str
    player: str
    level: int = 1
    strengths: tuple[str, ...] = ()
    weaknesses: tuple[str, ...] = ()
    general: tuple[str, ...] = ()  # which of the strengths and weaknesses are general
    minutiae: tuple[str, ...] = ()
    quirks: tuple[str, ...] = ()
    background: str = ""
    description: str = ""
    status: str = ""
    possessions: tuple[str, ...] = ()


@dataclass(frozen=True)
class AddMinutia:
    character: str
    minutia: str


@dataclass(frozen=True)
class DevelopAttribute:
    character: str
    change: str
    trait: str
    ruling: str


@dataclass(frozen=True)
class BuyLevel:
    character: str


def sheet_of(campaign: DPCampaign, character: str) -> Sheet:
    sheet = campaign.rules.characters.pcs.get(character)
    invalid(sheet is not None, f"no character is called {character}")
    assert sheet is not None
    return sheet


def decide(command: Any, campaign: DPCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, CreateCharacter):
        general = {g.strip().lower() for g in command.general}
        payload = CharacterCreated(
            name=command.name.strip(), player=command.player, level=command.level,
            strengths=[Trait(trait=s.strip(), general=s.strip().lower() in general) for s in command.strengths],
            weaknesses=[Trait(trait=w.strip(), general=w.strip().lower() in general) for w in command.weaknesses],
            minutiae=list(command.minutiae), quirks=list(command.quirks), background=command.background,
            description=command.description, status=command.status, possessions=list(command.possessions))
        return [validate_created(payload, campaign, referee)]
    if isinstance(command, AddMinutia):
        return [validate_minutia(MinutiaAdded(character=command.character, minutia=command.minutia.strip()),
                                 campaign, referee)]
    if isinstance(command, DevelopAttribute):
        invalid(command.change in ("strength-gained", "weakness-eased", "weakness-removed", "background"),
                f"{command.change!r} is not a development: strength-gained, weakness-eased, weakness-removed "
                "or background")
        return [validate_developed(AttributeDeveloped(character=command.character, change=command.change,
                                                      trait=command.trait.strip(), ruling=command.ruling),
                                   campaign, referee)]
    return None


def validate_created(p: CharacterCreated, campaign: DPCampaign, referee: Referee) -> CharacterCreated:
    """A player at the table (or the GM, for a character of the world), a free name, and the book's counts
    (DP1-DP4)."""
    invalid(p.player in campaign.table.players or p.player == campaign.table.gm,
            f"{p.player} is not a player at this table")
    invalid(p.name not in campaign.rules.characters.pcs, f"there is already a character called {p.name}")
    names = [t.trait.lower() for t in (*p.strengths, *p.weaknesses)]
    invalid(len(names) == len(set(names)), "a trait is written once, as a strength or as a weakness")
    check_level(p.level)
    check_attributes(p.level, len(p.strengths), len(p.weaknesses), referee)
    check_quirks(len(p.minutiae), len(p.quirks), referee)
    return p


def validate_minutia(p: MinutiaAdded, campaign: DPCampaign, referee: Referee) -> MinutiaAdded:
    sheet = sheet_of(campaign, p.character)
    invalid(p.minutia.lower() not in (m.lower() for m in sheet.minutiae), f"{sheet.name} has {p.minutia} already")
    return p


def validate_developed(p: AttributeDeveloped, campaign: DPCampaign, referee: Referee) -> AttributeDeveloped:
    """The GM rules the rate (line 65); a weakness eased or removed is one on the sheet."""
    sheet = sheet_of(campaign, p.character)
    found = sheet.trait(p.trait)
    if p.change == "strength-gained":
        invalid(found is None or found[0] != "strength", f"{sheet.name} has the strength {p.trait} already")
    elif p.change in ("weakness-eased", "weakness-removed"):
        invalid(found is not None and found[0] == "weakness", f"{sheet.name} has no weakness {p.trait}")
    return p


def evolve(characters: Characters, recorded: Recorded, _state: Any = None) -> Characters:
    p = recorded.payload
    if isinstance(p, CharacterCreated):
        sheet = Sheet(p.name, p.player, p.level, tuple(p.strengths), tuple(p.weaknesses), tuple(p.minutiae),
                      tuple(p.quirks), p.background, p.description, p.status, tuple(p.possessions))
        return replace(characters, pcs={**characters.pcs, p.name: sheet})
    found = characters.pcs.get(getattr(p, "character", ""))
    if found is None:
        return characters
    sheet = found
    if isinstance(p, MinutiaAdded):
        sheet = replace(sheet, minutiae=(*sheet.minutiae, p.minutia))
    elif isinstance(p, LevelBought):
        sheet = replace(sheet, level=p.level)
    elif isinstance(p, AttributeDeveloped):
        sheet = _developed(sheet, p)
    return replace(characters, pcs={**characters.pcs, sheet.name: sheet})


def _developed(sheet: Sheet, p: AttributeDeveloped) -> Sheet:
    told = (*sheet.developments, f"{p.change.replace('-', ' ')}: {p.trait} ({p.ruling})")
    wanted = p.trait.lower()
    if p.change == "strength-gained":
        return replace(sheet, strengths=(*sheet.strengths, Trait(trait=p.trait)), developments=told)
    if p.change == "weakness-removed":
        return replace(sheet, weaknesses=tuple(w for w in sheet.weaknesses if w.trait.lower() != wanted),
                       developments=told)
    return replace(sheet, developments=told)


PART = Part(name="characters", initial=Characters, evolve=evolve,
            folds=folds(CharacterCreated, MinutiaAdded, AttributeDeveloped, LevelBought), decide=decide,
            validators={CharacterCreated: validate_created, MinutiaAdded: validate_minutia,
                        AttributeDeveloped: validate_developed})
