"""Player characters in the journal: creation and retirement; the ``characters`` part.

Implements Yarn 0.1 "Creating Characters" (Character Checklist through Your Story; the numbers
come from :mod:`.traits`) and composes the part from its concerns: the sheet and its state
(:mod:`.character_sheets`), relationships and wants (:mod:`.relationships`), experience
(:mod:`.character_experience`), sheets from plain data (:mod:`.sheet_files`), and the supporting
cast, locations and precedence orders of :mod:`.cast`.

Other parts rely on ``campaign.rules.characters``: ``.pcs`` (name -> :class:`~.character_sheets.Sheet`),
``.supporting`` (name -> :class:`~.cast.Supporting`), and on :func:`~.character_sheets.player_of`,
:func:`~.character_sheets.character_of` and :func:`~.character_experience.experience_dice_available`.
Any payload with ``character: str`` and ``experience_dice: int > 0`` counts as experience dice used
this episode; any with ``character: str`` and ``experience_spent: int > 0`` takes dice from that
PC's pool for good.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from yarnlog.core.composition import Part
from yarnlog.core.events import Payload
from yarnlog.core.referee import InvalidCommand, Referee, Rule, invalid, present
from yarnlog.rulesets.scenes_and_tokens.parts import supporting_cast as cast_module
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import payload_of
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant, DefineRelationship
from yarnlog.rulesets.yarn.parts.characters import sheets as sheets_module
from yarnlog.rulesets.yarn.parts.characters.experience_awards import (
    AwardExperience,
    DevelopTrait,
    RaiseTrait,
    experience_awarded,
    experience_dice_available,
    experience_dice_used,
    validate_award,
    validate_developed,
    validate_raised,
)
from yarnlog.rulesets.yarn.parts.characters.relationships import (
    RELATIONSHIPS,
    check_relationships,
    edges_of,
    validate_relationship,
    validate_want,
)
from yarnlog.rulesets.yarn.parts.characters.sheets import (
    CharacterCreated,
    CharacterRetired,
    Characters,
    ExperienceAwarded,
    FlawData,
    HitPointBasis,
    RelationshipData,
    TraitData,
    TraitDeveloped,
    TraitRaised,
    WantData,
    character_of,
    evolve,
)
from yarnlog.rulesets.yarn.parts.characters.supporting_cast import CAST, check_new_character_name, require_active_pc
from yarnlog.rulesets.yarn.rules import traits
from yarnlog.rulesets.yarn.rules.traits import BOOK
from yarnlog.rulesets.yarn.state import YarnCampaign

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


POLES = Rule(
    BOOK,
    "Creating Characters › Your Dramatic Poles",
    "The character is torn between two opposed dramatic poles.",
)


APPROVAL = Rule(
    BOOK, "Creating Characters › Approval", "The GM should look over every character before approving it for play."
)


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
class RetireCharacter:
    name: str
    reason: str


# -- validation -----------------------------------------------------------------------------


def _check_identity(p: CharacterCreated, campaign: YarnCampaign, referee: Referee) -> str:
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


def _check_hit_points(p: CharacterCreated, scores: Mapping[str, int], referee: Referee) -> traits.HitPoints:
    based = [b.trait for b in p.hit_point_basis]
    invalid(len(set(based)) == len(based), "each trait counts once for hit points")
    sources = []
    for basis in p.hit_point_basis:
        invalid(basis.trait in scores, f"hit points come from a trait the character has, not {basis.trait!r}")
        sources.append(traits.HitPointSource(basis.trait, scores[basis.trait], basis.rolled()))
    return traits.describe_hit_points(referee, traits.starting_hit_points(sources), p.hit_point_descriptor)


def _validate_created(p: CharacterCreated, campaign: YarnCampaign, referee: Referee) -> CharacterCreated:
    """Check a new PC against "Creating Characters" and derive its scores, hit points and pool."""
    name = _check_identity(p, campaign, referee)
    check_relationships(name, p, campaign, referee)
    flaw = p.flaw.flaw() if p.flaw else None
    trait_set = traits.TraitSet(p.central.trait(), tuple(s.trait() for s in p.sides), p.superior, flaw)
    scored = traits.score_trait_set(
        referee, trait_set, narrow_traits=campaign.table.options.get("narrow_traits", False)
    )
    scores = {s.trait.name: s.score for s in scored}
    hit_points = _check_hit_points(p, scores, referee)
    return p.model_copy(update={
        "name": name, "story": traits.story_sentence(referee, p.story), "scores": scores,
        "hit_points": hit_points.score, "hit_point_descriptor": hit_points.descriptor,
        "experience_pool": traits.STARTING_EXPERIENCE_POOL,
    })


def _validate_retired(p: CharacterRetired, campaign: YarnCampaign, referee: Referee) -> CharacterRetired:
    require_active_pc(campaign, p.name)
    invalid(bool(p.reason.strip()), "say why the character leaves play")
    return p


COMMANDS: Mapping[type, Callable[[Any, Any], Payload]] = {
    CreateCharacter: payload_of(CharacterCreated),
    DefineRelationship: payload_of(RELATIONSHIPS.defined),
    DeclareWant: payload_of(RELATIONSHIPS.declared),
    RetireCharacter: payload_of(CharacterRetired),
    AwardExperience: experience_awarded,
    DevelopTrait: payload_of(TraitDeveloped),
    RaiseTrait: payload_of(TraitRaised),
    **CAST.COMMANDS,
}


VALIDATORS: Mapping[type, Callable[[Any, Any, Referee], Payload]] = {
    CharacterCreated: _validate_created,
    RELATIONSHIPS.defined: validate_relationship,
    RELATIONSHIPS.declared: validate_want,
    CharacterRetired: _validate_retired,
    ExperienceAwarded: validate_award,
    TraitDeveloped: validate_developed,
    TraitRaised: validate_raised,
    **CAST.VALIDATORS,
}


def decide(command, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    build = COMMANDS.get(type(command))
    if build is None:
        return None
    try:
        payload = build(command, campaign)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InvalidCommand(f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None
    return [VALIDATORS[type(payload)](payload, campaign, referee)]


PART = Part(name="characters", initial=Characters, evolve=evolve, folds=sheets_module.FOLDS, decide=decide,
            validators=VALIDATORS, thaw=sheets_module.CharactersBuilder)


# -- projections ----------------------------------------------------------------------------


def sheet_data(characters: Characters, name: str) -> dict:
    """The character sheet of PC ``name`` as plain data."""
    sheet = present(characters.pcs.get(name), f"{name} is not a player character")
    return {
        "name": sheet.name, "player": sheet.player, "active": sheet.active, "role": sheet.role,
        "desire": sheet.desire, "poles": list(sheet.poles),
        "relationships": [{"other": r.other if r.character == name else r.character, "nature": r.nature,
                           "defined_by": r.character} for r in edges_of(characters, name)],
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


def cast_list(characters: Characters) -> dict:
    """The series' characters ("keep a list of characters appearing in the series"), and its locations."""
    return {
        "player_characters": [{"name": s.name, "player": s.player, "role": s.role, "active": s.active}
                              for s in characters.pcs.values()],
        "recurring": [cast_module.supporting_data(c) for c in characters.cast.supporting_in_order()
                      if c.kind == cast_module.RECURRING],
        "minor": [cast_module.supporting_data(c) for c in characters.cast.supporting_in_order()
                  if c.kind == cast_module.MINOR],
        "locations": [cast_module.location_data(loc) for loc in characters.cast.locations_in_order()],
    }
