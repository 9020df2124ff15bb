"""A player character's experience: Yarn 0.1 "Awarding Experience Pool Dice" and "Experience"
(developing and raising traits, with the hit points they bring); the numbers come from :mod:`.experience`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.yarn.parts.characters.sheets import (
    CENTRAL,
    Characters,
    ExperienceAwarded,
    HitPointDice,
    Sheet,
    TrainingData,
    TraitData,
    TraitDeveloped,
    TraitRaised,
    _session_totals,
    active_pcs,
)
from yarnlog.rulesets.yarn.parts.characters.supporting_cast import require_active_pc
from yarnlog.rulesets.yarn.rules import experience, traits
from yarnlog.rulesets.yarn.state import YarnCampaign


def experience_dice_used(characters: Characters, character: str) -> int:
    """Experience dice ``character`` used as bonus dice in the episode in play."""
    return characters.experience_used.get(character, 0)


def experience_dice_available(characters: Characters, character: str) -> int:
    """Experience dice ``character`` may still use this session: "Once a die is used, you may not use it again"."""
    sheet = characters.pcs.get(character)
    if sheet is None:
        return 0
    return max(0, sheet.experience_pool - experience_dice_used(characters, character))


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


def experience_awarded(command: AwardExperience, campaign: YarnCampaign) -> ExperienceAwarded:
    """The award as recorded: every PC in play gets the dice, the absent none."""
    episode = _session(campaign.timeline)
    invalid(episode is not None, "experience is awarded at the end of a session: no episode has been played")
    invalid(command.dice >= 1, "an award is at least one experience die (Awarding Experience Pool Dice)")
    characters = campaign.rules.characters
    for name in (*command.absent, *command.individual):
        invalid(name in characters.pcs, f"{name} is not a player character")
    present = [n for n in active_pcs(characters, campaign.table) if n not in command.absent]
    awards = {name: command.dice for name in present} | dict(command.individual)
    return ExperienceAwarded(episode=episode, awards=awards, reason=command.reason)


def validate_award(p: ExperienceAwarded, campaign: YarnCampaign, referee: Referee) -> ExperienceAwarded:
    """"All PCs active in a session should receive the same number of dice", counted over the session."""
    invalid(p.episode == _session(campaign.timeline), f"episode {p.episode} is not the session in play or just played")
    for name in p.awards:
        require_active_pc(campaign, name)
    invalid(bool(p.awards), "no player character to award")
    invalid(all(dice >= 0 for dice in p.awards.values()), "an award is zero or more dice")
    invalid(all(dice <= experience.MAX_AWARD for dice in p.awards.values()),
            f"an award is at most {experience.MAX_AWARD} experience dice")
    session = _session_totals(campaign.rules.characters, p)
    experience.check_award(referee, session, session)
    return p


def _check_training(campaign: YarnCampaign, training: TrainingData | None) -> experience.Training | None:
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


def validate_developed(p: TraitDeveloped, campaign: YarnCampaign, referee: Referee) -> TraitDeveloped:
    """A trait developed with experience ("Experience"), its cost and hit points."""
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


def validate_raised(p: TraitRaised, campaign: YarnCampaign, referee: Referee) -> TraitRaised:
    """A trait raised with experience ("Experience"), its cost and hit points."""
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


def experience_data(characters: Characters, table) -> list[dict]:
    """Each PC in play: pool, dice used this session, dice still available."""
    return [{"character": name, "player": characters.pcs[name].player,
             "pool": characters.pcs[name].experience_pool, "used": experience_dice_used(characters, name),
             "available": experience_dice_available(characters, name)} for name in active_pcs(characters, table)]
