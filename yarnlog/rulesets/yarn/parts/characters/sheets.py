"""A player character's sheet as the journal keeps it: Yarn 0.1 "Creating Characters" and "Experience".

The stored side of the ``characters`` part: the sheet's data as entered, the events of creation,
relationships, wants, retirement and experience, and the state they build (:class:`Characters`, name ->
:class:`Sheet`), folded by :func:`evolve`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field
from pyrsistent import PMap, PVector, pmap, pvector

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.core.referee import invalid
from yarnlog.core.timeline import EpisodeStarted
from yarnlog.rulesets.scenes_and_tokens.parts import relationships
from yarnlog.rulesets.scenes_and_tokens.parts import supporting_cast as cast_module
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import RelationshipDefined, WantDeclared
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Cast
from yarnlog.rulesets.yarn.rules import experience, traits
from yarnlog.rulesets.yarn.rules.traits import Flaw, TraitKind

CENTRAL, SIDE, DEVELOPED = "central", "side", "developed"


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class TraitData(_Data):
    """A trait as written on the sheet: name, kind (its column of "Scores for Traits"), signs."""

    name: str
    kind: TraitKind = TraitKind.STANDARD
    signs: list[str] = Field(default_factory=list)
    description: str = ""
    fighting_skill: bool = False

    def trait(self) -> traits.Trait:
        return traits.Trait(self.name, self.kind, tuple(self.signs), self.description, self.fighting_skill)


class FlawData(_Data):
    name: str
    signs: list[str] = Field(default_factory=list)
    description: str = ""

    def flaw(self) -> Flaw:
        return Flaw(self.name, tuple(self.signs), self.description)


class RelationshipData(_Data):
    other: str
    nature: str


class WantData(_Data):
    """What the character wants from another PC, and why that PC's player says he can't get it."""

    withholder: str
    want: str
    why_not: str = ""


class HitPointDice(_Data):
    """``listed``: take 7 per die (or +7); otherwise the faces entered from the table or rolled by the tool."""

    source: Literal["listed", "entered", "rolled"] = "listed"
    faces: list[int] = Field(default_factory=list)

    def rolled(self) -> tuple[int, ...] | None:
        invalid(
            (self.source == "listed") == (not self.faces), "listed hit points come with no dice; rolled ones with all"
        )
        return None if self.source == "listed" else tuple(self.faces)


class HitPointBasis(HitPointDice):
    """A trait the starting hit points are based on, taken as listed or rolled."""

    trait: str


class TrainingData(_Data):
    """Training in the game world, as the table records it (a Training Scene may show it)."""

    months: float = Field(ge=0)
    full_time: bool = False
    usd_per_month: int = Field(default=0, ge=0)
    scenes: list[int] = Field(default_factory=list)

    def training(self) -> experience.Training:
        return experience.Training(self.months, self.full_time, self.usd_per_month)


# -- events ---------------------------------------------------------------------------------


@event("yarn.character.created")
class CharacterCreated(Payload):
    """A player character, approved for play. ``scores``, ``hit_points`` and the pool are derived."""

    name: str
    player: str
    role: str
    desire: str
    poles: list[str]
    relationships: list[RelationshipData] = Field(default_factory=list)
    wants: list[WantData] = Field(default_factory=list)
    central: TraitData
    sides: list[TraitData]
    superior: str | None
    flaw: FlawData | None
    hit_point_basis: list[HitPointBasis] = Field(default_factory=list)
    hit_point_descriptor: str
    finances: str = ""
    equipment: list[str] = Field(default_factory=list)
    story: str
    gm_approved: bool = False
    scores: dict[str, int] = Field(default_factory=dict)
    hit_points: int = 0
    experience_pool: int = 0


@event("yarn.character.retired")
class CharacterRetired(Payload):
    """The PC leaves play (death, vanishing, the player's choice); the player may create another."""

    name: str
    reason: str


@event("yarn.experience.awarded")
class ExperienceAwarded(Payload):
    """End of session: dice for each PC active in it (absent PCs are not listed)."""

    # Line 1465: "Awarding these dice is entirely up to the GM."
    gm_records: ClassVar[str] = "an experience award"

    episode: int
    awards: dict[str, int]
    reason: str = ""


@event("yarn.experience.trait_developed")
class TraitDeveloped(Payload):
    character: str
    trait: TraitData
    training_required: bool
    training: TrainingData | None = None
    gm_approved: bool = False
    hit_point_gain: HitPointDice | None = None
    score: int = 0
    experience_spent: int = 0
    hit_points: int | None = None


@event("yarn.experience.trait_raised")
class TraitRaised(Payload):
    character: str
    trait: str
    training: TrainingData | None = None
    gm_approved: bool = False
    gm_cost: int | None = None
    hit_point_gain: HitPointDice | None = None
    score: int = 0
    experience_spent: int = 0
    hit_points: int | None = None


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetTrait:
    """A positive trait on the sheet: ``place`` is central, side or developed (in play)."""

    name: str
    kind: TraitKind
    dice: int
    place: str
    superior: bool = False
    signs: tuple[str, ...] = ()
    description: str = ""
    fighting_skill: bool = False


Want = relationships.Want


@dataclass(frozen=True)
class SheetEntry:
    """One change to a sheet after creation, with the event that made it."""

    sequence: int
    episode: int | None
    event_type: str
    experience: int = 0
    hit_points: int = 0
    note: str = ""


@dataclass(frozen=True)
class Sheet:
    """A player character's sheet. ``hit_points`` is the maximum; ``traits`` runs central, sides, developed."""

    name: str
    player: str
    role: str
    desire: str
    poles: tuple[str, ...]
    wants: tuple[Want, ...]
    traits: dict[str, SheetTrait]
    flaw: Flaw | None
    hit_points: int
    hit_point_descriptor: str
    hit_point_traits: tuple[str, ...]
    experience_pool: int
    finances: str
    equipment: tuple[str, ...]
    story: str
    created: int
    active: bool = True
    history: PVector[SheetEntry] = field(default_factory=pvector)  # persistent: an entry a session, never copied

    @property
    def fraught(self) -> tuple[str, ...]:
        """"The first and second PCs you name as your withholders of emotional reward"."""
        return relationships.fraught(self.wants)

    def dice(self, trait: str) -> int:
        return self.traits[trait].dice


@dataclass(frozen=True)
class Relationship:
    character: str  # who defined it
    other: str
    nature: str
    sequence: int
    position: int  # the pair's place among the relationships, in the order first defined (kept when redefined)


def related(relationships: PMap[frozenset, Relationship], character: str, other: str, nature: str,
            sequence: int) -> PMap[frozenset, Relationship]:
    """``relationships`` with the pair's relationship defined: a later definition replaces the earlier one
    and keeps its place."""
    key = frozenset((character, other))
    earlier = relationships.get(key)
    position = earlier.position if earlier is not None else len(relationships)
    return relationships.set(key, Relationship(character, other, nature, sequence, position))


def in_definition_order(relationships: PMap[frozenset, Relationship]) -> list[Relationship]:
    """The relationships in the order their pairs were first defined."""
    return sorted(relationships.values(), key=lambda r: r.position)


@dataclass(frozen=True)
class Characters:
    """The part's slice: PCs, the relationship map, the cast, and experience dice in play."""

    pcs: dict[str, Sheet] = field(default_factory=dict)
    # Persistent: it grows with the campaign (supporting characters), and a replay hands this slice
    # to other parts' folds after each change, so it must be shared then, not copied.
    relationships: PMap[frozenset, Relationship] = field(default_factory=pmap)
    cast: Cast = field(default_factory=Cast)
    experience_used: dict[str, int] = field(default_factory=dict)  # this episode, by character
    awarded: PMap[int, dict[str, int]] = field(default_factory=pmap)  # episode -> PC -> dice; grows by episodes

    @property
    def supporting(self) -> PMap[str, cast_module.Supporting]:
        return self.cast.supporting

    @property
    def locations(self) -> PMap[str, cast_module.Location]:
        return self.cast.locations


def player_of(characters: Characters, name: str) -> str | None:
    """The player of PC ``name``; None for a supporting character (the GM plays them) or anyone unknown."""
    sheet = characters.pcs.get(name)
    return sheet.player if sheet else None


def character_of(characters: Characters, player: str) -> str | None:
    """The player's active PC ("one protagonist"; the latest, if a GM override allowed two)."""
    mine = [s for s in characters.pcs.values() if s.player == player and s.active]
    return mine[-1].name if mine else None


def active_pcs(characters: Characters, table) -> list[str]:
    """PCs in play: not retired, their player at the table."""
    return [s.name for s in characters.pcs.values() if s.active and s.player in table.players]


def _sheet_of(p: CharacterCreated, recorded: Recorded) -> Sheet:
    positive = [(p.central, CENTRAL), *((side, SIDE) for side in p.sides)]
    return Sheet(
        name=p.name, player=p.player, role=p.role, desire=p.desire, poles=tuple(p.poles),
        wants=tuple(Want(w.withholder, w.want, w.why_not) for w in p.wants),
        traits={t.name: SheetTrait(t.name, t.kind, p.scores.get(t.name, 0), place, t.name == p.superior,
                                   tuple(t.signs), t.description, t.fighting_skill) for t, place in positive},
        flaw=p.flaw.flaw() if p.flaw else None,
        hit_points=p.hit_points, hit_point_descriptor=p.hit_point_descriptor,
        hit_point_traits=tuple(b.trait for b in p.hit_point_basis), experience_pool=p.experience_pool,
        finances=p.finances, equipment=tuple(p.equipment), story=p.story, created=recorded.sequence,
    )


def _relate(characters: Characters, character: str, other: str, nature: str, sequence: int) -> Characters:
    return replace(characters, relationships=related(characters.relationships, character, other, nature, sequence))


def _advanced(sheet: Sheet, p: TraitDeveloped | TraitRaised, recorded: Recorded, trait: SheetTrait) -> Sheet:
    hit_points = p.hit_points if p.hit_points is not None else sheet.hit_points
    entry = SheetEntry(recorded.sequence, recorded.episode, recorded.event_type,
                       hit_points=hit_points - sheet.hit_points, note=f"{trait.name} {trait.dice} dice")
    return replace(
        sheet, traits={**sheet.traits, trait.name: trait}, history=sheet.history.append(entry),
        hit_points=hit_points,
        hit_point_traits=tuple(dict.fromkeys(sheet.hit_point_traits + ((trait.name,) if p.hit_point_gain else ()))),
    )


def _session_totals(characters: Characters, p: ExperienceAwarded) -> dict[str, int]:
    """The dice each PC has received in the session of ``p``, ``p`` included."""
    session = dict(characters.awarded.get(p.episode, {}))
    for name, dice in p.awards.items():
        session[name] = session.get(name, 0) + dice
    return session


def _fold_award(characters: Characters, p: ExperienceAwarded, recorded: Recorded) -> Characters:
    pcs = dict(characters.pcs)
    for name, dice in p.awards.items():
        if name in pcs:
            entry = SheetEntry(recorded.sequence, recorded.episode, recorded.event_type, experience=dice, note=p.reason)
            pcs[name] = replace(pcs[name], experience_pool=pcs[name].experience_pool + dice,
                                history=pcs[name].history.append(entry))
    return replace(characters, pcs=pcs, awarded=characters.awarded.set(p.episode, _session_totals(characters, p)))


def _fold_mine(characters: Characters, p: Payload, recorded: Recorded) -> Characters:
    pcs = characters.pcs
    if isinstance(p, CharacterCreated):
        characters = replace(characters, pcs={**pcs, p.name: _sheet_of(p, recorded)})
        for rel in p.relationships:
            characters = _relate(characters, p.name, rel.other, rel.nature, recorded.sequence)
        return characters
    if isinstance(p, RelationshipDefined):
        return _relate(characters, p.character, p.other, p.nature, recorded.sequence)
    if isinstance(p, WantDeclared) and p.character in pcs:
        sheet = pcs[p.character]
        sheet = replace(sheet, wants=sheet.wants + (Want(p.withholder, p.want, p.why_not),))
        return replace(characters, pcs={**pcs, sheet.name: sheet})
    if isinstance(p, CharacterRetired) and p.name in pcs:
        return replace(characters, pcs={**pcs, p.name: replace(pcs[p.name], active=False)})
    if isinstance(p, ExperienceAwarded):
        return _fold_award(characters, p, recorded)
    if isinstance(p, TraitDeveloped) and p.character in pcs:
        t = p.trait
        trait = SheetTrait(t.name, t.kind, p.score, DEVELOPED, False, tuple(t.signs), t.description, t.fighting_skill)
        return replace(characters, pcs={**pcs, p.character: _advanced(pcs[p.character], p, recorded, trait)})
    if isinstance(p, TraitRaised) and p.character in pcs and p.trait in pcs[p.character].traits:
        trait = replace(pcs[p.character].traits[p.trait], dice=p.score)
        return replace(characters, pcs={**pcs, p.character: _advanced(pcs[p.character], p, recorded, trait)})
    return characters


def _said(kind: type, name: str) -> bool:
    return name in getattr(kind, "model_fields", ()) or hasattr(kind, name)


@cache
def _experience_said(kind: type) -> tuple[bool, bool, bool]:
    """Whether payloads of ``kind`` name a character, experience dice used, experience dice spent (a
    field or an attribute by that name): asked once per type, since reading an attribute a pydantic
    model lacks costs as much as folding the event."""
    return _said(kind, "character"), _said(kind, "experience_dice"), _said(kind, "experience_spent")


def _experience_of(p: Payload) -> tuple[object, object, object]:
    """A payload's character and the experience dice it used and spent (None, 0, 0 where it says none)."""
    character, used, spent = _experience_said(type(p))
    if not character:
        return None, 0, 0
    return p.character, p.experience_dice if used else 0, p.experience_spent if spent else 0  # type: ignore[attr-defined]


def _count_experience(characters: Characters, p: Payload, recorded: Recorded) -> Characters:
    """Experience dice used (bonus dice) or spent (gone for good) by any payload that says so."""
    name, used, spent = _experience_of(p)
    if not isinstance(name, str):
        return characters
    if isinstance(used, int) and used > 0:
        characters = replace(characters, experience_used={
            **characters.experience_used, name: characters.experience_used.get(name, 0) + used})
    if isinstance(spent, int) and spent > 0 and name in characters.pcs:
        sheet = characters.pcs[name]
        last = sheet.history[-1] if sheet.history and sheet.history[-1].sequence == recorded.sequence else None
        entry = replace(last, experience=-spent) if last else SheetEntry(
            recorded.sequence, recorded.episode, recorded.event_type, experience=-spent)
        history = sheet.history.set(-1, entry) if last else sheet.history.append(entry)
        sheet = replace(sheet, experience_pool=sheet.experience_pool - spent, history=history)
        characters = replace(characters, pcs={**characters.pcs, name: sheet})
    return characters


#: The sheets' own events, the cast's, and any payload that uses or spends experience dice.
FOLDS = cast_module.FOLDS | folds(
    EpisodeStarted, CharacterCreated, RelationshipDefined, WantDeclared, CharacterRetired, ExperienceAwarded,
    TraitDeveloped, TraitRaised, carrying=("experience_dice", "experience_spent"),
)


def evolve(characters: Characters, recorded: Recorded, _state=None) -> Characters:
    p = recorded.payload
    characters = replace(characters, cast=cast_module.evolve(characters.cast, recorded))
    if isinstance(p, EpisodeStarted):
        characters = replace(characters, experience_used={})
    characters = _fold_mine(characters, p, recorded)
    return _count_experience(characters, p, recorded)


class CharactersBuilder:
    """The slice thawed for a replay (a :class:`~yarnlog.core.ruleset.SliceBuilder`): its dicts set in
    place, frozen into a new :class:`Characters` by :meth:`freeze`: a copy of the PCs and the experience
    used this episode, which do not grow with the campaign; what grows (the relationships, the cast,
    the awards) is persistent and shared. Other parts read this slice after each change of it, so a
    freeze that copied what grows made replay quadratic. Folds as :func:`evolve` does."""

    def __init__(self, characters: Characters):
        self.pcs = dict(characters.pcs)
        self.relationships = characters.relationships  # persistent
        self.cast = characters.cast
        self.experience_used = dict(characters.experience_used)
        self.awarded = characters.awarded  # persistent: an award a session

    def fold(self, recorded: Recorded, _before: object = None) -> None:
        p = recorded.payload
        self.cast = cast_module.evolve(self.cast, recorded)
        if isinstance(p, EpisodeStarted):
            self.experience_used = {}
        self._fold_mine(p, recorded)
        self._count_experience(p, recorded)

    def _relate(self, character: str, other: str, nature: str, sequence: int) -> None:
        self.relationships = related(self.relationships, character, other, nature, sequence)

    def _fold_mine(self, p: Payload, recorded: Recorded) -> None:
        pcs = self.pcs
        if isinstance(p, CharacterCreated):
            pcs[p.name] = _sheet_of(p, recorded)
            for rel in p.relationships:
                self._relate(p.name, rel.other, rel.nature, recorded.sequence)
        elif isinstance(p, RelationshipDefined):
            self._relate(p.character, p.other, p.nature, recorded.sequence)
        elif isinstance(p, WantDeclared) and p.character in pcs:
            sheet = pcs[p.character]
            pcs[p.character] = replace(sheet, wants=sheet.wants + (Want(p.withholder, p.want, p.why_not),))
        elif isinstance(p, CharacterRetired) and p.name in pcs:
            pcs[p.name] = replace(pcs[p.name], active=False)
        elif isinstance(p, ExperienceAwarded):
            session = dict(self.awarded.get(p.episode, {}))
            for name, dice in p.awards.items():
                session[name] = session.get(name, 0) + dice
                if name in pcs:
                    entry = SheetEntry(recorded.sequence, recorded.episode, recorded.event_type, experience=dice,
                                       note=p.reason)
                    pcs[name] = replace(pcs[name], experience_pool=pcs[name].experience_pool + dice,
                                        history=pcs[name].history.append(entry))
            self.awarded = self.awarded.set(p.episode, session)
        elif isinstance(p, TraitDeveloped) and p.character in pcs:
            t = p.trait
            trait = SheetTrait(t.name, t.kind, p.score, DEVELOPED, False, tuple(t.signs), t.description,
                               t.fighting_skill)
            pcs[p.character] = _advanced(pcs[p.character], p, recorded, trait)
        elif isinstance(p, TraitRaised) and p.character in pcs and p.trait in pcs[p.character].traits:
            trait = replace(pcs[p.character].traits[p.trait], dice=p.score)
            pcs[p.character] = _advanced(pcs[p.character], p, recorded, trait)

    def _count_experience(self, p: Payload, recorded: Recorded) -> None:
        name, used, spent = _experience_of(p)
        if not isinstance(name, str):
            return
        if isinstance(used, int) and used > 0:
            self.experience_used[name] = self.experience_used.get(name, 0) + used
        if isinstance(spent, int) and spent > 0 and name in self.pcs:
            sheet = self.pcs[name]
            last = sheet.history[-1] if sheet.history and sheet.history[-1].sequence == recorded.sequence else None
            entry = replace(last, experience=-spent) if last else SheetEntry(
                recorded.sequence, recorded.episode, recorded.event_type, experience=-spent)
            history = sheet.history.set(-1, entry) if last else sheet.history.append(entry)
            self.pcs[name] = replace(sheet, experience_pool=sheet.experience_pool - spent, history=history)

    def freeze(self) -> Characters:
        return Characters(pcs=dict(self.pcs), relationships=self.relationships, cast=self.cast,
                          experience_used=dict(self.experience_used), awarded=self.awarded)
