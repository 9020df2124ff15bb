"""Characters as qualities with ranks, their points and what advancement does to them.

A character is created with its qualities and base points (points.build checks them against the
triangular costs); points are awarded each session (P52); a rank is raised one at a time at the new
rank's cost (P53); new qualities are attained at rank 0 (P55); drawbacks are paid down (P56); a
training target takes the points as soon as they are there (P54); a flashback claims a quality
(P57). The level is derived from the base points, never stored (reading 9). Every movement of
points is a line of the points ledger with its event, scene and rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Broken, DiceNeeded, Referee, invalid
from yarnlog.core.timeline import EpisodeStarted
from yarnlog.rulesets.yarn_polyhedral.rules import advancement, options, points, rule
from yarnlog.rulesets.yarn_polyhedral.rules.points import Kind, Quality

NAME = Field(min_length=1, max_length=80)


class QualityRank(Payload):
    """A quality as a payload carries it."""

    name: str = NAME
    kind: Kind
    rank: int = Field(ge=0, le=12)


@event("yarn-polyhedral.character.created")
class CharacterCreated(Payload):
    """A character built with points (P1-P15) or rolled attributes (P59)."""

    name: str = NAME
    player: str
    base_points: int = Field(ge=0)
    qualities: list[QualityRank]
    rolled: bool = False
    #: The 3d10 total of each attribute when they were rolled (P59), by attribute, as entered.
    rolled_attributes: list[str] = Field(default_factory=list)
    rolled_totals: list[int] = Field(default_factory=list)  # in the order of rolled_attributes
    #: The d10s the tool rolled for them, three an attribute in order (empty when entered as totals).
    rolled_faces: list[int] = Field(default_factory=list)
    #: A character joining play at the lowest-level PC's minimum points (P51, line 347).
    newcomer: bool = False
    #: The separate pool that buys powers, under the option power_points (P58, line 569).
    power_points: int = Field(default=0, ge=0)


@event("yarn-polyhedral.points.awarded")
class PointsAwarded(Payload):
    """Points given to a character: at least one a session (P52, line 367)."""

    character: str
    points: int
    reason: str = Field(default="", max_length=200)


@event("yarn-polyhedral.quality.changed")
class QualityChanged(Payload):
    """A quality attained (at rank 0, P55), raised (P53), paid down (P56) or claimed by a flashback
    (P57): its rank after and the points it cost."""

    character: str
    quality: QualityRank
    how: str = Field(pattern="^(attained|raised|paid-down|flashback|training)$")
    cost: int = Field(ge=0)
    drawbacks: list[QualityRank] = Field(default_factory=list)  # new drawbacks of a flashback
    discount: int = Field(default=0, ge=0, le=1)


@event("yarn-polyhedral.training.set")
class TrainingSet(Payload):
    """The quality a character trains between scenes (P54, line 375)."""

    character: str
    quality: str | None


@event("yarn-polyhedral.narrator.passed")
class NarratorPassed(Payload):
    """The narrator's office passes to another at the table for the sessions to come (the optional
    Imagining play, lines 798-802); the journal's GM still records."""

    narrator: str


@dataclass(frozen=True)
class Character:
    name: str
    player: str
    base_points: int
    qualities: Mapping[str, Quality]
    spent: int
    flashbacks_used: int = 0
    training: str | None = None
    flashback_episodes: tuple[int | None, ...] = ()  # the episode of each flashback used
    power_points_left: int = 0  # of the separate pool (P58)

    @property
    def attributes(self) -> int:
        return sum(q.kind is Kind.ATTRIBUTE for q in self.qualities.values())

    @property
    def level(self) -> int:
        return points.level_for(self.base_points, self.attributes or len(points.STANDARD_ATTRIBUTES))

    @property
    def drawback_points(self) -> int:
        return points.drawback_points(self.qualities.values())

    @property
    def unspent(self) -> int:
        """Saved points: the base and drawback points less what was spent (P54)."""
        return self.base_points + self.drawback_points - self.spent

    @property
    def flashbacks_left(self) -> int:
        """Flashbacks left of the level's stock (reading 17)."""
        return points.flashbacks_for(self.level) - self.flashbacks_used

    def flashbacks_left_in(self, episode: int | None, each_session: bool) -> int:
        """Flashbacks left: of the stock, or of this session's when they refresh each session
        (the option ``flashbacks_each_session``, reading 17)."""
        if not each_session:
            return self.flashbacks_left
        return points.flashbacks_for(self.level) - self.flashback_episodes.count(episode)

    def rank(self, quality: str) -> int | None:
        found = self.qualities.get(quality.lower())
        return None if found is None else found.rank

    def quality(self, name: str) -> Quality:
        found = self.qualities.get(name.lower())
        invalid(found is not None, f"{self.name} has no quality {name!r}")
        assert found is not None
        return found


@dataclass(frozen=True)
class PointsLine:
    """A line of the points ledger: who, how many (+ earned, - spent), why, where and by which rule."""

    sequence: int
    scene: int | None
    character: str
    change: int
    unspent: int
    what: str
    rule: str
    currency: str = "points"  # or "power points", the separate pool (P58)


@dataclass(frozen=True)
class Characters:
    by_name: Mapping[str, Character] = field(default_factory=dict)
    ledger: tuple[PointsLine, ...] = ()
    #: The characters in play when the session began, and those awarded a point since (P52).
    in_session: frozenset[str] = frozenset()
    awarded: frozenset[str] = frozenset()
    #: The narrator now (``None``: the table's GM), the one of the session in play or last begun,
    #: and each the office passed to, in order (lines 798-802).
    narrator: str | None = None
    session_narrator: str | None = None
    narrated: tuple[str, ...] = ()

    def get(self, name: str) -> Character:
        found = self.by_name.get(name.lower())
        invalid(found is not None, f"there is no character {name!r}")
        assert found is not None
        return found


# Commands ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateCharacter:
    name: str
    player: str
    base_points: int
    qualities: tuple[tuple[str, str, int], ...]
    rolled_totals: tuple[tuple[str, int], ...] = ()
    newcomer: bool = False
    roll_attributes: tuple[str, ...] = ()  # attributes the tool rolls, 3d10 each (P59)
    rolled: Mapping[str, tuple[Sequence[int], Sequence[int]]] = field(default_factory=dict)
    power_points: int = 0


@dataclass(frozen=True)
class AwardPoints:
    character: str
    points: int
    reason: str = ""


@dataclass(frozen=True)
class ChangeQuality:
    """``how``: attained (a new quality at ``rank``, usually 0), raised, paid-down."""

    character: str
    quality: str
    how: str
    kind: str = "skill"
    rank: int = 0


@dataclass(frozen=True)
class UseFlashback:
    character: str
    quality: str
    kind: str
    rank: int
    drawbacks: tuple[tuple[str, int], ...] = ()
    discount: int = 0


@dataclass(frozen=True)
class PassNarrator:
    narrator: str


@dataclass(frozen=True)
class SetTraining:
    character: str
    quality: str | None


def _kind(text: str) -> Kind:
    try:
        return Kind(text.strip().lower())
    except ValueError:
        invalid(False, f"{text!r} is not a kind of quality: {', '.join(k.value for k in Kind)}")
        raise


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    chars: Characters = campaign.rules.characters
    if isinstance(command, CreateCharacter):
        qualities = [QualityRank(name=n.strip(), kind=_kind(k), rank=r) for n, k, r in command.qualities]
        faces: list[int] = []
        if command.roll_attributes:
            invalid(not command.rolled_totals, "give the attributes' totals or have the tool roll them, not both")
            thrown = command.rolled.get("attributes")
            if thrown is None:
                count = 3 * len(command.roll_attributes)
                raise DiceNeeded("attributes", count, 10,
                                 lambda rng: (tuple(rng.randint(1, 10) for _ in range(count)), ()))
            faces = list(thrown[0])
            invalid(len(faces) == 3 * len(command.roll_attributes) and all(1 <= f <= 10 for f in faces),
                    "three d10s an attribute")
            command = replace(command, rolled_totals=tuple(
                (name, sum(faces[3 * i: 3 * i + 3])) for i, name in enumerate(command.roll_attributes)))
        if command.rolled_totals:
            made_rolled = options.check_rolled(tuple(t for _, t in command.rolled_totals), referee)
            qualities += [QualityRank(name=n.strip(), kind=Kind.ATTRIBUTE, rank=r)
                          for (n, _), r in zip(command.rolled_totals, made_rolled.ranks, strict=True)]
        base = command.base_points
        if command.newcomer:
            base = points.newcomer_points(_pc_levels(campaign), sum(q.kind is Kind.ATTRIBUTE for q in qualities) or 6)
        made = CharacterCreated(name=command.name.strip(), player=command.player, base_points=base,
                                qualities=qualities, rolled=bool(command.rolled_totals),
                                rolled_attributes=[n.strip() for n, _ in command.rolled_totals],
                                rolled_totals=[t for _, t in command.rolled_totals], rolled_faces=faces,
                                newcomer=command.newcomer, power_points=command.power_points)
        return [validate_created(made, campaign, referee)]
    if isinstance(command, AwardPoints):
        who = chars.get(command.character)
        award = validate_award(PointsAwarded(character=who.name, points=command.points, reason=command.reason),
                               campaign, referee)
        return [award, *_trained(replace(who, base_points=who.base_points + award.points), who.training)]
    if isinstance(command, SetTraining):
        who = chars.get(command.character)
        if command.quality is not None:
            who.quality(command.quality)
        return [TrainingSet(character=who.name, quality=command.quality), *_trained(who, command.quality)]
    if isinstance(command, ChangeQuality):
        who = chars.get(command.character)
        if command.how == "attained":
            quality = QualityRank(name=command.quality.strip(), kind=_kind(command.kind), rank=command.rank)
            cost = 0
        else:
            had = who.quality(command.quality)
            rank = had.rank - 1 if command.how == "paid-down" else had.rank + 1
            quality = QualityRank(name=had.name, kind=had.kind, rank=max(rank, 0))
            cost = had.rank if command.how == "paid-down" else rank
        changed = QualityChanged(character=who.name, quality=quality, how=command.how, cost=max(cost, 0))
        return [validate_changed(changed, campaign, referee)]
    if isinstance(command, PassNarrator):
        return [validate_narrator(NarratorPassed(narrator=command.narrator.strip()), campaign, referee)]
    if isinstance(command, UseFlashback):
        who = chars.get(command.character)
        drawbacks = [QualityRank(name=n.strip(), kind=Kind.DRAWBACK, rank=r) for n, r in command.drawbacks]
        flash = advancement.Flashback(command.rank, points.drawback_points(_qualities(drawbacks)), command.discount)
        changed = QualityChanged(character=who.name, quality=QualityRank(name=command.quality.strip(),
                                                                          kind=_kind(command.kind),
                                                                          rank=command.rank),
                                 how="flashback", cost=flash.cost, drawbacks=drawbacks, discount=command.discount)
        return [validate_changed(changed, campaign, referee)]
    return None


def _qualities(ranked: list[QualityRank]) -> list[Quality]:
    return [Quality(q.name, q.kind, q.rank) for q in ranked]


def validate_created(p: CharacterCreated, campaign: Any, referee: Referee) -> CharacterCreated:
    """A player at the table, a name not taken, qualities within their points (P1, P2, P9, P12)."""
    invalid(p.player in campaign.table.roles, f"{p.player} is not at the table")
    invalid(p.name.lower() not in campaign.rules.characters.by_name, f"{p.name} already exists")
    names = [q.name.lower() for q in p.qualities]
    invalid(len(set(names)) == len(names), "each quality is named once")
    chosen = campaign.table.options
    if chosen.get("power_points"):  # powers from their own pool, one for two on the rest (P58)
        held = _qualities(p.qualities)
        for quality in held:
            points.check_rank(quality, referee)
        budget = options.power_budget(p.power_points, p.base_points + points.drawback_points(held), held, referee,
                                      p.rolled)
        made = points.Build(p.base_points, budget.regular_spent, points.drawback_points(held),
                            sum(q.kind is Kind.ATTRIBUTE for q in held))
    else:
        referee.require(p.power_points == 0, options.POWER_POINTS,
                        "no power points without --option power-points")
        made = points.build(p.base_points, _qualities(p.qualities), referee, rolled=p.rolled)
    if p.rolled:
        referee.require(bool(chosen.get("rolled_attributes")), options.ROLLED,
                        "this campaign buys attributes with points (no --option rolled-attributes)")
        invalid(len(p.rolled_attributes) == len(p.rolled_totals), "a total for each rolled attribute")
        if p.rolled_faces:
            totals = [sum(p.rolled_faces[3 * i: 3 * i + 3]) for i in range(len(p.rolled_totals))]
            invalid(totals == p.rolled_totals, "the totals are not the rolled d10s'")
        ranks = options.check_rolled(tuple(p.rolled_totals), referee).ranks
        had = {q.name.lower(): q.rank for q in p.qualities if q.kind is Kind.ATTRIBUTE}
        invalid([had.get(n.lower()) for n in p.rolled_attributes] == list(ranks),
                "the rolled attributes' ranks do not follow from their totals")
    if chosen.get("skill_limit"):
        points.check_skill_limit(_qualities(p.qualities), made.level, referee)
    if p.newcomer:
        expected = points.newcomer_points(_pc_levels(campaign), made.attributes or 6)
        referee.require(p.base_points == expected, points.NEW_CHARACTER,
                        f"a newcomer starts at {expected} points, not {p.base_points}")
    return p


NARRATING = rule("Narrating", "The current narrator always chooses the next, until every player has had their "
                              "time. The office can pass each session (line 800)")


def validate_narrator(p: NarratorPassed, campaign: Any, referee: Referee) -> NarratorPassed:
    """The office passes between sessions, to one at the table who has not narrated in this circle
    until all have (lines 798-800)."""
    table = campaign.table
    chars: Characters = campaign.rules.characters
    invalid(p.narrator in table.players or table.is_gm(p.narrator), f"{p.narrator} is not at the table")
    referee.require(campaign.timeline.episode is None, NARRATING, "the office passes between sessions")
    now = chars.narrator or table.gm
    referee.require(p.narrator != now, NARRATING, f"{p.narrator} is the narrator already")
    circle = advancement.narrating_circle((table.gm, *chars.narrated), table.players)
    referee.require(p.narrator not in circle, NARRATING, f"{p.narrator} has narrated: every player first")
    return p


def _pc_levels(campaign: Any) -> list[int]:
    """The player characters' levels: the narrator's NPCs aside ("the lowest level PC", line 347)."""
    return [c.level for c in campaign.rules.characters.by_name.values() if not campaign.table.is_gm(c.player)]


def validate_award(p: PointsAwarded, campaign: Any, referee: Referee) -> PointsAwarded:
    campaign.rules.characters.get(p.character)
    advancement.check_award(p.points, referee)
    return p


def validate_training(p: TrainingSet, campaign: Any, referee: Referee) -> TrainingSet:
    campaign.rules.characters.get(p.character)
    return p


def validate_changed(p: QualityChanged, campaign: Any, referee: Referee) -> QualityChanged:
    """What the change costs and whether the saved points pay it (P53-P57)."""
    who: Character = campaign.rules.characters.get(p.character)
    had = who.qualities.get(p.quality.name.lower())
    q = p.quality
    if p.how == "attained":
        invalid(had is None, f"{who.name} already has {q.name}")
        referee.require(q.rank == 0 or q.kind is not Kind.SKILL, points.LEARN_FIRST,
                        f"a new skill is learned at rank 0, not {q.rank}")
        p = p.model_copy(update={"cost": 0})  # "Acquiring new qualities isn't done with points." (line 365)
    elif p.how == "flashback":
        invalid(had is None, f"{who.name} already has {q.name}: a flashback claims a new quality")
        flash = advancement.Flashback(q.rank, points.drawback_points(_qualities(p.drawbacks)), p.discount)
        p = p.model_copy(update={"cost": flash.cost})
        each = bool(campaign.table.options.get("flashbacks_each_session"))
        advancement.check_flashback(flash, who.unspent, who.flashbacks_left_in(campaign.timeline.episode, each),
                                    referee)
        points.check_rank(Quality(q.name, q.kind, q.rank), referee)
    else:
        invalid(had is not None, f"{who.name} has no quality {q.name!r}")
        assert had is not None
        if p.how == "paid-down":
            invalid(had.kind is Kind.DRAWBACK, f"{had.name} is not a drawback")
            p = p.model_copy(update={"cost": points.pay_down_cost(had.rank, referee)})
        else:
            if p.how == "training":
                referee.require(who.training is not None and who.training.lower() == had.name.lower(),
                                TRAINING, f"{who.name} is not training {had.name}")
            p = p.model_copy(update={"cost": points.raise_cost(had.rank, q.rank, referee, kind=had.kind)})
        advancement.check_spend(p.cost, who.unspent, referee)
    return p


TRAINING = rule("Attainment", "Choose a quality in which your character is actively training in between scenes. "
                               "When you get enough points, they are automatically applied to that quality to "
                               "raise its rank. (line 375)")

RULES = {"created": "P1 (lines 9-21)", "awarded": "P52 (line 367)", "raised": "P53 (line 369)",
         "training": "P54 (line 375)", "paid-down": "P56 (line 533)", "flashback": "P57 (lines 357-361)",
         "attained": "P55 (line 365)"}


def audit(campaign: Any, recorded: Recorded) -> list[str]:
    """A session gives each player character at least one point (P52, line 367): checked when the
    next session starts (the award may be recorded after the session's end)."""
    if not isinstance(recorded.payload, EpisodeStarted):
        return []
    chars: Characters = campaign.rules.characters
    narrating = chars.session_narrator  # "their character may play a subsidiary role, not gaining points" (802)
    return [Broken(advancement.AWARD, f"{name} was awarded no point last session")
            for name in sorted(chars.in_session - chars.awarded)
            if not campaign.table.is_gm(chars.by_name[name.lower()].player)  # the narrator's NPCs aside
            and chars.by_name[name.lower()].player != narrating]


def evolve(chars: Characters, recorded: Recorded, _before: Any = None) -> Characters:
    p = recorded.payload
    line = None
    if isinstance(p, EpisodeStarted):
        return replace(chars, in_session=frozenset(c.name for c in chars.by_name.values()), awarded=frozenset(),
                       session_narrator=chars.narrator)
    if isinstance(p, NarratorPassed):
        return replace(chars, narrator=p.narrator, narrated=(*chars.narrated, p.narrator))
    if isinstance(p, CharacterCreated):
        qualities = {q.name.lower(): Quality(q.name, q.kind, q.rank) for q in p.qualities}
        spent = points.spent_on(qualities.values(), p.rolled)
        pool = 0
        if p.power_points:  # the powers and the exchanged points come from the power points (P58)
            budget = options.power_costs(p.power_points, p.base_points + points.drawback_points(qualities.values()),
                                         list(qualities.values()), p.rolled)
            spent, pool = budget.regular_spent, budget.power_points_left
        made = Character(p.name, p.player, p.base_points, qualities, spent, power_points_left=pool)
        chars = replace(chars, by_name={**chars.by_name, p.name.lower(): made})
        line = (made, -spent, f"created with {p.base_points} points", "created")
        if p.power_points:  # the separate pool: given, and what the powers and the exchange took (P58)
            chars = replace(chars, ledger=(*chars.ledger, PointsLine(
                recorded.sequence, recorded.scene, made.name, pool - p.power_points, pool,
                f"{p.power_points} power points, {p.power_points - pool} spent", "P58 (line 569)", "power points")))
    elif isinstance(p, PointsAwarded):
        who = chars.by_name[p.character.lower()]
        who = replace(who, base_points=who.base_points + p.points)
        chars = replace(chars, by_name={**chars.by_name, who.name.lower(): who}, awarded=chars.awarded | {who.name})
        line = (who, p.points, f"awarded {p.points} {p.reason}".rstrip(), "awarded")
    elif isinstance(p, TrainingSet):
        who = chars.by_name[p.character.lower()]
        chars = replace(chars, by_name={**chars.by_name, who.name.lower(): replace(who, training=p.quality)})
    elif isinstance(p, QualityChanged):
        who = chars.by_name[p.character.lower()]
        q = Quality(p.quality.name, p.quality.kind, p.quality.rank)
        qualities = {**who.qualities, q.name.lower(): q}
        for d in p.drawbacks:
            qualities[d.name.lower()] = Quality(d.name, d.kind, d.rank)
        # Paying a drawback down costs its current rank, which is just what its points drop by
        # (T(r) - T(r - 1) = r, P56): the lower rank pays it, nothing more is spent.
        spent = who.spent + (0 if p.how == "paid-down" else p.cost)
        who = replace(who, qualities=qualities, spent=spent,
                      flashbacks_used=who.flashbacks_used + (p.how == "flashback"),
                      flashback_episodes=(*who.flashback_episodes, recorded.episode) if p.how == "flashback"
                      else who.flashback_episodes)
        chars = replace(chars, by_name={**chars.by_name, who.name.lower(): who})
        line = (who, -p.cost, f"{p.how} {q.name} to rank {q.rank}", p.how)
    if line is not None:
        chars = _ledger(chars, recorded, line[0], line[1], line[2], RULES[line[3]])
    return chars


def _trained(who: Character, training: str | None) -> list[Payload]:
    """The training target raised by itself once its next rank's points are saved (P54, line 375)."""
    q = who.qualities.get(training.lower()) if training else None
    if q is None:
        return []
    cap = points.MAX_SKILL_RANK if q.kind is Kind.SKILL else points.MAX_RANK
    if q.rank >= cap or not advancement.training_due(q.rank + 1, who.unspent):
        return []
    return [QualityChanged(character=who.name, quality=QualityRank(name=q.name, kind=q.kind, rank=q.rank + 1),
                           how="training", cost=q.rank + 1)]


def _ledger(chars: Characters, recorded: Recorded, who: Character, change: int, what: str, rule: str) -> Characters:
    now = chars.by_name[who.name.lower()]
    return replace(chars, ledger=(*chars.ledger, PointsLine(recorded.sequence, recorded.scene, who.name, change,
                                                            now.unspent, what, rule)))


PART = Part(name="characters", initial=Characters, evolve=evolve, decide=decide, audit=audit,
            validators={CharacterCreated: validate_created, PointsAwarded: validate_award,
                        QualityChanged: validate_changed, TrainingSet: validate_training,
                        NarratorPassed: validate_narrator},
            folds=folds(CharacterCreated, PointsAwarded, QualityChanged, TrainingSet, EpisodeStarted, NarratorPassed))
