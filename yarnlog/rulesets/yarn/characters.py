"""Player characters in the journal: creation, relationships and wants, experience; the ``characters`` part.

Implements Yarn 0.1 "Creating Characters" (Character Checklist through Your Story; the numbers
come from :mod:`.traits`), "Awarding Experience Pool Dice" and "Experience" (through
:mod:`.experience`), and composes the part with the supporting cast, locations and precedence
orders of :mod:`.cast`.

Other parts rely on ``campaign.rules.characters``: ``.pcs`` (name -> :class:`Sheet`),
``.supporting`` (name -> :class:`~.cast.Supporting`), and on :func:`player_of`,
:func:`character_of` and :func:`experience_dice_available`. Any payload with ``character: str``
and ``experience_dice: int > 0`` counts as experience dice used this episode; any with
``character: str`` and ``experience_spent: int > 0`` takes dice from that PC's pool for good.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from yarnlog.events import Payload, Recorded, event
from yarnlog.rules import InvalidCommand, Override, Referee, Rule, invalid
from yarnlog.rulesets.yarn import cast as cast_module
from yarnlog.rulesets.yarn import experience, traits
from yarnlog.rulesets.yarn.cast import (
    Cast,
    check_new_character_name,
    payload_of,
    require_active_pc,
)
from yarnlog.rulesets.yarn.dice import RollSpec, roll
from yarnlog.rulesets.yarn.state import Part
from yarnlog.rulesets.yarn.traits import BOOK, Flaw, TraitKind
from yarnlog.timeline import EpisodeStarted

CHECKLIST = Rule(
    BOOK,
    "Creating Characters › Character Checklist",
    "Your character includes: Name, Role in Group, Relationships, A Desire, Dramatic Poles, Wants, "
    "Traits, A Flaw, Signs, Hit Points, Experience Pool, Finance and Equipment",
)
ONE_PROTAGONIST = Rule(
    BOOK,
    "Glossary of Game Terms",
    "Player: one of several participants who takes on the role of one protagonist in the ensemble cast.",
)
RELATE_TO_ALL = Rule(
    BOOK,
    "Creating Characters › Step By Step",
    "Third player proclaims his/her character's name, role in the group, and relationship to all other "
    "proclaimed characters.",
)
POLES = Rule(
    BOOK,
    "Creating Characters › Your Dramatic Poles",
    "The character is torn between two opposed dramatic poles.",
)
WHY_NOT = Rule(
    BOOK, "Creating Characters › Step By Step", "The player of the other character defines why they can't get it."
)
APPROVAL = Rule(
    BOOK, "Creating Characters › Approval", "The GM should look over every character before approving it for play."
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

CENTRAL, SIDE, DEVELOPED = "central", "side", "developed"


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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
        invalid((self.source == "listed") == (not self.faces), "listed hit points come with no dice; rolled ones with all")
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


@event("yarn.character.relationship_defined")
class RelationshipDefined(Payload):
    character: str
    other: str
    nature: str


@event("yarn.character.want_declared")
class WantDeclared(Payload):
    character: str
    withholder: str
    want: str
    why_not: str


@event("yarn.character.retired")
class CharacterRetired(Payload):
    """The PC leaves play (death, vanishing, the player's choice); the player may create another."""

    name: str
    reason: str


@event("yarn.experience.awarded")
class ExperienceAwarded(Payload):
    """End of session: dice for each PC active in it (absent PCs are not listed)."""

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


@dataclass(frozen=True)
class Want:
    withholder: str
    want: str
    why_not: str


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
    history: tuple[SheetEntry, ...] = ()

    @property
    def fraught(self) -> tuple[str, ...]:
        """"The first and second PCs you name as your withholders of emotional reward"."""
        return tuple(dict.fromkeys(w.withholder for w in self.wants))[:2]

    def dice(self, trait: str) -> int:
        return self.traits[trait].dice


@dataclass(frozen=True)
class Relationship:
    character: str  # who defined it
    other: str
    nature: str
    sequence: int


@dataclass(frozen=True)
class Characters:
    """The part's slice: PCs, the relationship map, the cast, and experience dice in play."""

    pcs: dict[str, Sheet] = field(default_factory=dict)
    relationships: dict[frozenset, Relationship] = field(default_factory=dict)
    cast: Cast = field(default_factory=Cast)
    experience_used: dict[str, int] = field(default_factory=dict)  # this episode, by character
    awarded: dict[int, dict[str, int]] = field(default_factory=dict)  # episode -> PC -> dice

    @property
    def supporting(self) -> dict[str, cast_module.Supporting]:
        return self.cast.supporting

    @property
    def locations(self) -> dict[str, cast_module.Location]:
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


def _characters(state) -> Characters:
    # Accept the campaign state as well as the slice: callers hold either.
    rules = getattr(state, "rules", None)
    return rules.characters if rules is not None else state


def experience_dice_used(state, character: str) -> int:
    """Experience dice ``character`` used as bonus dice in the episode in play."""
    return _characters(state).experience_used.get(character, 0)


def experience_dice_available(state, character: str) -> int:
    """Experience dice ``character`` may still use this session: "Once a die is used, you may not use it again"."""
    characters = _characters(state)
    sheet = characters.pcs.get(character)
    if sheet is None:
        return 0
    return max(0, sheet.experience_pool - experience_dice_used(characters, character))


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
    edge = Relationship(character, other, nature, sequence)
    return replace(characters, relationships={**characters.relationships, frozenset((character, other)): edge})


def _advanced(sheet: Sheet, p: TraitDeveloped | TraitRaised, recorded: Recorded, trait: SheetTrait) -> Sheet:
    gained = p.hit_points is not None and p.hit_points != sheet.hit_points
    entry = SheetEntry(recorded.sequence, recorded.episode, recorded.event_type,
                       hit_points=(p.hit_points - sheet.hit_points) if gained else 0,
                       note=f"{trait.name} {trait.dice} dice")
    return replace(
        sheet, traits={**sheet.traits, trait.name: trait}, history=sheet.history + (entry,),
        hit_points=p.hit_points if p.hit_points is not None else sheet.hit_points,
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
                                history=pcs[name].history + (entry,))
    return replace(characters, pcs=pcs, awarded={**characters.awarded, p.episode: _session_totals(characters, p)})


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


def _count_experience(characters: Characters, p: Payload, recorded: Recorded) -> Characters:
    """Experience dice used (bonus dice) or spent (gone for good) by any payload that says so."""
    name = getattr(p, "character", None)
    if not isinstance(name, str):
        return characters
    used = getattr(p, "experience_dice", 0)
    if isinstance(used, int) and used > 0:
        characters = replace(characters, experience_used={
            **characters.experience_used, name: characters.experience_used.get(name, 0) + used})
    spent = getattr(p, "experience_spent", 0)
    if isinstance(spent, int) and spent > 0 and name in characters.pcs:
        sheet = characters.pcs[name]
        last = sheet.history[-1] if sheet.history and sheet.history[-1].sequence == recorded.sequence else None
        entry = replace(last, experience=-spent) if last else SheetEntry(
            recorded.sequence, recorded.episode, recorded.event_type, experience=-spent)
        history = (sheet.history[:-1] if last else sheet.history) + (entry,)
        sheet = replace(sheet, experience_pool=sheet.experience_pool - spent, history=history)
        characters = replace(characters, pcs={**characters.pcs, name: sheet})
    return characters


def evolve(characters: Characters, recorded: Recorded, _state=None) -> Characters:
    p = recorded.payload
    characters = replace(characters, cast=cast_module.evolve(characters.cast, recorded))
    if isinstance(p, EpisodeStarted):
        characters = replace(characters, experience_used={})
    characters = _fold_mine(characters, p, recorded)
    return _count_experience(characters, p, recorded)


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateCharacter:
    """A whole sheet (see :func:`creation_command` to build one from plain data)."""

    name: str
    player: str
    role: str
    desire: str
    poles: tuple[str, ...]
    central: TraitData
    sides: tuple[TraitData, ...]
    superior: str | None
    flaw: FlawData | None
    hit_point_basis: tuple[HitPointBasis, ...]
    hit_point_descriptor: str
    story: str
    relationships: tuple[RelationshipData, ...] = ()
    wants: tuple[WantData, ...] = ()
    finances: str = ""
    equipment: tuple[str, ...] = ()
    gm_approved: bool = False


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


@dataclass(frozen=True)
class RetireCharacter:
    name: str
    reason: str


@dataclass(frozen=True)
class AwardExperience:
    """``dice`` for every PC in play, but none for the ``absent``; ``individual`` sets a PC's own number."""

    dice: int
    absent: tuple[str, ...] = ()
    individual: Mapping[str, int] = field(default_factory=dict)
    reason: str = ""


@dataclass(frozen=True)
class DevelopTrait:
    """``training_required`` is the GM's common-sense ruling: casual, or technical or specialized."""

    character: str
    trait: TraitData
    training_required: bool
    training: TrainingData | None = None
    gm_approved: bool = False
    hit_point_gain: HitPointDice | None = None


@dataclass(frozen=True)
class RaiseTrait:
    """``gm_cost``: the GM's dice for a score beyond 5, which only her override allows."""

    character: str
    trait: str
    training: TrainingData | None = None
    gm_approved: bool = False
    gm_cost: int | None = None
    hit_point_gain: HitPointDice | None = None


def _session(timeline) -> int | None:
    """The session an award belongs to: the episode in play, or the one just played."""
    return timeline.episode or (timeline.episodes[-1] if timeline.episodes else None)


def _awarded(command: AwardExperience, campaign) -> ExperienceAwarded:
    episode = _session(campaign.timeline)
    invalid(episode is not None, "experience is awarded at the end of a session: no episode has been played")
    characters = campaign.rules.characters
    for name in (*command.absent, *command.individual):
        invalid(name in characters.pcs, f"{name} is not a player character")
    present = [n for n in active_pcs(characters, campaign.table) if n not in command.absent]
    awards = {name: command.dice for name in present} | dict(command.individual)
    return ExperienceAwarded(episode=episode, awards=awards, reason=command.reason)


# -- validation -----------------------------------------------------------------------------


def _check_identity(p: CharacterCreated, campaign, referee: Referee) -> str:
    name = check_new_character_name(campaign, p.name)
    invalid(p.player in campaign.table.players, f"{p.player} is not a player at the table (the GM plays "
                                                f"supporting characters)")
    characters = campaign.rules.characters
    current = character_of(characters, p.player)
    referee.require(current is None, ONE_PROTAGONIST, f"{p.player} already plays {current}")
    referee.require(p.gm_approved, APPROVAL, f"the GM has not approved {name} for play")
    for label, value in (("role in the group", p.role), ("desire", p.desire)):
        referee.require(bool(value.strip()), CHECKLIST, f"{name} has no {label}")
    referee.require(len(p.poles) == 2 and all(pole.strip() for pole in p.poles), POLES,
                    f"{name} has {len([x for x in p.poles if x.strip()])} dramatic pole(s), not two")
    return name


def _check_relationships(name: str, p: CharacterCreated, campaign, referee: Referee) -> None:
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


def _check_want(campaign, referee: Referee, character: str, withholder: str, want: str, why_not: str) -> None:
    invalid(withholder != character, "a character wants something from another PC, not from himself")
    require_active_pc(campaign, withholder)
    invalid(bool(want.strip()), f"say what {character} wants from {withholder}")
    referee.require(bool(why_not.strip()), WHY_NOT, f"{withholder}'s player has not said why {character} can't get it")


def _check_hit_points(p: CharacterCreated, scores: Mapping[str, int], referee: Referee) -> traits.HitPoints:
    based = [b.trait for b in p.hit_point_basis]
    invalid(len(set(based)) == len(based), "each trait counts once for hit points")
    sources = []
    for basis in p.hit_point_basis:
        invalid(basis.trait in scores, f"hit points come from a trait the character has, not {basis.trait!r}")
        sources.append(traits.HitPointSource(basis.trait, scores[basis.trait], basis.rolled()))
    return traits.describe_hit_points(referee, traits.starting_hit_points(sources), p.hit_point_descriptor)


def _validate_created(p: CharacterCreated, campaign, referee: Referee) -> CharacterCreated:
    """Check a new PC against "Creating Characters" and derive its scores, hit points and pool."""
    name = _check_identity(p, campaign, referee)
    _check_relationships(name, p, campaign, referee)
    flaw = p.flaw.flaw() if p.flaw else None
    trait_set = traits.TraitSet(p.central.trait(), tuple(s.trait() for s in p.sides), p.superior, flaw)
    scored = traits.score_trait_set(referee, trait_set, narrow_traits=campaign.table.options.get("narrow_traits", False))
    scores = {s.trait.name: s.score for s in scored}
    hit_points = _check_hit_points(p, scores, referee)
    return p.model_copy(update={
        "name": name, "story": traits.story_sentence(referee, p.story), "scores": scores,
        "hit_points": hit_points.score, "hit_point_descriptor": hit_points.descriptor,
        "experience_pool": traits.STARTING_EXPERIENCE_POOL,
    })


def _validate_relationship(p: RelationshipDefined, campaign, referee: Referee) -> RelationshipDefined:
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
    scene = campaign.timeline.scenes.get(campaign.timeline.scene) if campaign.timeline.scene is not None else None
    referee.require(scene is not None and {p.character, p.other} <= set(scene.cast), RECURRING_RELATIONSHIP,
                    f"no scene in play features both {p.character} and {p.other}")
    return p


def _validate_want(p: WantDeclared, campaign, referee: Referee) -> WantDeclared:
    require_active_pc(campaign, p.character)
    _check_want(campaign, referee, p.character, p.withholder, p.want, p.why_not)
    return p


def _validate_retired(p: CharacterRetired, campaign, referee: Referee) -> CharacterRetired:
    require_active_pc(campaign, p.name)
    invalid(bool(p.reason.strip()), "say why the character leaves play")
    return p


def _validate_award(p: ExperienceAwarded, campaign, referee: Referee) -> ExperienceAwarded:
    """"All PCs active in a session should receive the same number of dice", counted over the session."""
    invalid(p.episode == _session(campaign.timeline), f"episode {p.episode} is not the session in play or just played")
    for name in p.awards:
        require_active_pc(campaign, name)
    invalid(bool(p.awards), "no player character to award")
    invalid(all(dice >= 0 for dice in p.awards.values()), "an award is zero or more dice")
    session = _session_totals(campaign.rules.characters, p)
    experience.check_award(referee, session, session)
    return p


def _check_training(campaign, training: TrainingData | None) -> experience.Training | None:
    if training is None:
        return None
    for scene in training.scenes:
        invalid(scene in campaign.timeline.scenes, f"there is no scene {scene}")
    return training.training()


def _gain(referee: Referee, sheet: Sheet, trait: str, score: int, gain: HitPointDice | None) -> int | None:
    """Hit points after developing or raising ``trait`` to ``score`` ("Increasing Hit Points")."""
    if gain is None:
        return None
    sole = set(sheet.hit_point_traits) <= {trait}
    return experience.raised_hit_points(sheet.hit_points, sole_source=sole, new_score=score, rolled=gain.rolled())


def gain_dice(sheet: Sheet, trait: str, score: int) -> int:
    """How many dice to roll for hit points when ``trait`` reaches ``score``: 2, or double its dice."""
    return 2 if set(sheet.hit_point_traits) <= {trait} else 2 * score


def _validate_developed(p: TraitDeveloped, campaign, referee: Referee) -> TraitDeveloped:
    require_active_pc(campaign, p.character)
    sheet = campaign.rules.characters.pcs[p.character]
    name = p.trait.name.strip()
    invalid(bool(name), "the new trait needs a name")
    taken = {n.casefold() for n in sheet.traits} | ({sheet.flaw.name.casefold()} if sheet.flaw else set())
    referee.require(name.casefold() not in taken, traits.UNIQUE_NAMES, f"{p.character} already has {name}")
    if p.trait.kind in traits.NARROW_KINDS:
        referee.require(campaign.table.options.get("narrow_traits", False), traits.NARROW_TRAITS,
                        f"{name}: this campaign does not use narrow traits")
        referee.require(not p.trait.fighting_skill, traits.NO_NARROW_FIGHTING, f"{name} is a fighting skill")
    advance = experience.develop_trait(
        referee, kind=p.trait.kind, sign=" ".join(p.trait.signs), pool=sheet.experience_pool,
        training_required=p.training_required, training=_check_training(campaign, p.training),
        gm_approved=p.gm_approved,
    )
    hit_points = _gain(referee, sheet, name, advance.score, p.hit_point_gain)
    return p.model_copy(update={"trait": p.trait.model_copy(update={"name": name}), "score": advance.score,
                                "experience_spent": advance.cost, "hit_points": hit_points})


def _validate_raised(p: TraitRaised, campaign, referee: Referee) -> TraitRaised:
    require_active_pc(campaign, p.character)
    sheet = campaign.rules.characters.pcs[p.character]
    invalid(p.trait in sheet.traits, f"{p.character} has no trait {p.trait!r}")
    trait = sheet.traits[p.trait]
    advance = experience.raise_trait(
        referee, score=trait.dice, central=trait.place == CENTRAL, pool=sheet.experience_pool,
        training=_check_training(campaign, p.training), gm_approved=p.gm_approved, gm_cost=p.gm_cost,
    )
    hit_points = _gain(referee, sheet, p.trait, advance.score, p.hit_point_gain)
    return p.model_copy(update={"score": advance.score, "experience_spent": advance.cost, "hit_points": hit_points})


COMMANDS: Mapping[type, Callable[[Any, Any], Payload]] = {
    CreateCharacter: payload_of(CharacterCreated),
    DefineRelationship: payload_of(RelationshipDefined),
    DeclareWant: payload_of(WantDeclared),
    RetireCharacter: payload_of(CharacterRetired),
    AwardExperience: _awarded,
    DevelopTrait: payload_of(TraitDeveloped),
    RaiseTrait: payload_of(TraitRaised),
    **cast_module.COMMANDS,
}
VALIDATORS: Mapping[type, Callable[[Any, Any, Referee], Payload]] = {
    CharacterCreated: _validate_created,
    RelationshipDefined: _validate_relationship,
    WantDeclared: _validate_want,
    CharacterRetired: _validate_retired,
    ExperienceAwarded: _validate_award,
    TraitDeveloped: _validate_developed,
    TraitRaised: _validate_raised,
    **cast_module.VALIDATORS,
}


def decide(command, campaign, referee: Referee) -> list[Payload] | None:
    build = COMMANDS.get(type(command))
    if build is None:
        return None
    try:
        payload = build(command, campaign)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InvalidCommand(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None
    return [VALIDATORS[type(payload)](payload, campaign, referee)]


def audit(campaign, recorded: Recorded) -> list[str]:
    """Validate a recorded event again against the state before it, and compare what the rules derive."""
    validate = VALIDATORS.get(type(recorded.payload))
    if validate is None:
        return []
    referee = Referee(Override(by="verify", reason="audit"))  # collects every rule broken instead of raising
    try:
        expected = validate(recorded.payload, campaign, referee)
    except InvalidCommand as exc:
        return [str(exc)]
    problems = [message for _, message in referee.overridden]
    got, want = recorded.payload.to_data(), expected.to_data()
    problems += [f"{key} is recorded as {got[key]!r} but the rules give {want[key]!r}" for key in want
                 if got[key] != want[key]]
    return problems


PART = Part(name="characters", initial=Characters, evolve=evolve, decide=decide, audit=audit)


# -- building commands from plain data (the CLI, sheet files) ---------------------------------


KIND_NAMES = {"standard": TraitKind.STANDARD, "technical": TraitKind.TECHNICAL, "unusual": TraitKind.TECHNICAL,
              "narrow": TraitKind.NARROW, "narrow-technical": TraitKind.NARROW_TECHNICAL,
              **{kind.value: kind for kind in TraitKind}}


def parse_kind(text: str) -> TraitKind:
    kind = KIND_NAMES.get(text.strip().casefold())
    invalid(kind is not None, f"a trait's kind is one of {', '.join(sorted(KIND_NAMES))}, not {text!r}")
    return kind


def roll_dice(count: int, rng: random.Random | None = None) -> list[int]:
    """Faces of ``count`` dice rolled by the tool (a secure source unless ``rng`` is given)."""
    return list(roll(RollSpec(count), rng).faces)


def _trait_data(item: Any) -> dict:
    if isinstance(item, str):
        name, _, kind = item.rpartition(":") if ":" in item else (item, "", "standard")
        return {"name": name.strip(), "kind": parse_kind(kind)}
    return {**item, "kind": parse_kind(item.get("kind", "standard"))}


def _basis(item: Any, dice: Mapping[str, int], rng: random.Random | None) -> HitPointBasis:
    """``"Tough"`` (listed), ``{"trait": "Tough", "faces": [...]}`` (entered) or ``{"trait": .., "roll": true}``."""
    item = {"trait": item} if isinstance(item, str) else dict(item)
    if item.pop("roll", False):
        invalid(item["trait"] in dice, f"hit points come from a trait the character has, not {item['trait']!r}")
        return HitPointBasis(trait=item["trait"], source="rolled", faces=roll_dice(2 * dice[item["trait"]], rng))
    if item.get("faces"):
        item.setdefault("source", "entered")
    return HitPointBasis(**item)


def creation_command(data: Mapping[str, Any], rng: random.Random | None = None) -> CreateCharacter:
    """A :class:`CreateCharacter` from a sheet as plain data (a JSON file, or the CLI's options).

    Traits are ``"Name:kind"`` or objects with ``name``, ``kind``, ``signs``...; ``signs`` and
    ``descriptions`` map trait (or flaw) names to their sign(s) and description, and
    ``fighting_skills`` lists the fighting skills. Hit-point dice marked ``roll`` are rolled here,
    from ``rng``.
    """
    data = dict(data)
    try:
        signs = data.pop("signs", {}) or {}
        descriptions = data.pop("descriptions", {}) or {}
        fighting = set(data.pop("fighting_skills", []) or [])
        central = _trait_data(data.pop("central"))
        sides = [_trait_data(s) for s in data.pop("sides", [])]
        flaw = data.pop("flaw", None)
        flaw = {"name": flaw} if isinstance(flaw, str) else dict(flaw) if flaw else None
        for item in (central, *sides, *([flaw] if flaw else [])):
            extra = signs.get(item["name"], [])
            item["signs"] = [*item.get("signs", []), *([extra] if isinstance(extra, str) else extra)]
            if item["name"] in descriptions:
                item["description"] = descriptions[item["name"]]
        for item in (central, *sides):
            item["fighting_skill"] = item.get("fighting_skill", False) or item["name"] in fighting
        superior = data.pop("superior", None)
        dice = {t["name"]: traits.trait_score(t["kind"], traits.Rank.SUPERIOR if t["name"] == superior
                                              else traits.Rank.GOOD) for t in (central, *sides)}
        relationships = data.pop("relationships", {}) or {}
        if isinstance(relationships, Mapping):
            relationships = [{"other": k, "nature": v} for k, v in relationships.items()]
        return CreateCharacter(
            central=TraitData(**central), sides=tuple(TraitData(**s) for s in sides), superior=superior,
            flaw=FlawData(**flaw) if flaw else None,
            hit_point_basis=tuple(_basis(b, dice, rng) for b in data.pop("hit_point_basis", [])),
            relationships=tuple(RelationshipData(**r) for r in relationships),
            wants=tuple(WantData(**w) for w in data.pop("wants", [])),
            poles=tuple(data.pop("poles", ())), equipment=tuple(data.pop("equipment", ())), **data,
        )
    except (ValidationError, TypeError, KeyError, AttributeError) as exc:
        raise InvalidCommand(f"the sheet is incomplete or malformed: {_problem(exc)}") from None


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}"
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc)


# -- projections ----------------------------------------------------------------------------


def sheet_data(characters: Characters, name: str) -> dict:
    """The character sheet of PC ``name`` as plain data."""
    sheet = characters.pcs.get(name)
    invalid(sheet is not None, f"{name} is not a player character")
    return {
        "name": sheet.name, "player": sheet.player, "active": sheet.active, "role": sheet.role,
        "desire": sheet.desire, "poles": list(sheet.poles),
        "relationships": [{"other": r.other if r.character == name else r.character, "nature": r.nature,
                           "defined_by": r.character} for r in _edges_of(characters, name)],
        "people_in_my_life": [{"withholder": w.withholder, "want": w.want, "why_not": w.why_not,
                               "fraught": w.withholder in sheet.fraught} for w in sheet.wants],
        "fraught": list(sheet.fraught),
        "traits": [{"name": t.name, "kind": t.kind.value, "dice": t.dice, "place": t.place, "superior": t.superior,
                    "signs": list(t.signs), "description": t.description} for t in sheet.traits.values()],
        "flaw": {"name": sheet.flaw.name, "signs": list(sheet.flaw.signs), "description": sheet.flaw.description}
        if sheet.flaw else None,
        "hit_points": sheet.hit_points, "hit_point_descriptor": sheet.hit_point_descriptor,
        "hit_point_traits": list(sheet.hit_point_traits),
        "experience_pool": sheet.experience_pool,
        "experience_dice_used": experience_dice_used(characters, name),
        "experience_dice_available": experience_dice_available(characters, name),
        "finances": sheet.finances, "equipment": list(sheet.equipment), "story": sheet.story,
        "created": sheet.created,
        "history": [e.__dict__ for e in sheet.history],
    }


def _edges_of(characters: Characters, name: str) -> Iterable[Relationship]:
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
        "characters": [s.name for s in in_play] + [c.name for c in characters.supporting.values()
                                                   if c.kind == cast_module.RECURRING],
        "relationships": [{"character": r.character, "other": r.other, "nature": r.nature}
                          for r in characters.relationships.values()],
        "wants": [{"character": s.name, "withholder": w.withholder, "want": w.want, "why_not": w.why_not,
                   "fraught": w.withholder in s.fraught} for s in in_play for w in s.wants],
        "needs": [{"character": c.promoted_by, "recurring": c.name, "need": c.need}
                  for c in characters.supporting.values() if c.promoted_by],
        "wanted_by_fewer_than_two": [s.name for s in in_play if len(wanted_by[s.name]) < 2],
    }


def cast_list(characters: Characters) -> dict:
    """The series' characters ("keep a list of characters appearing in the series"), and its locations."""
    return {
        "player_characters": [{"name": s.name, "player": s.player, "role": s.role, "active": s.active}
                              for s in characters.pcs.values()],
        "recurring": [cast_module.supporting_data(c) for c in characters.supporting.values()
                      if c.kind == cast_module.RECURRING],
        "minor": [cast_module.supporting_data(c) for c in characters.supporting.values()
                  if c.kind == cast_module.MINOR],
        "locations": [cast_module.location_data(loc) for loc in characters.locations.values()],
    }


def experience_data(characters: Characters, table) -> list[dict]:
    """Each PC in play: pool, dice used this session, dice still available."""
    return [{"character": name, "player": characters.pcs[name].player,
             "pool": characters.pcs[name].experience_pool, "used": experience_dice_used(characters, name),
             "available": experience_dice_available(characters, name)} for name in active_pcs(characters, table)]
