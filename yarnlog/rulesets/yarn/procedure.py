"""Procedural rolls in the journal: the roll event, the hand of fate, group efforts, consequences.

Records what "Procedural Scenes", "Mechanics", "Basic Mechanics", "Group Efforts", "Personal
Consequences", the experience die of "Your Experience Pool" and the appendix's "Optional Rules
for Procedural Scenes" make of a roll, as events of the ``procedure`` part. The rules are the
pure modules' (:mod:`.dice`, :mod:`.odds`, :mod:`.group_efforts`, :mod:`.experience`): this module
decides which apply, stores the dice as :class:`~.dice_facts.DiceFacts` (never re-rolled) with
the exact prior odds, and re-checks a recorded event for ``verify`` by deciding it again from
its own facts (:func:`recheck`).

Other parts build rolls with :func:`hands_dice`, :func:`roll_spec` and :func:`record_roll`
(fringe powers in :mod:`.powers`, combat).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.events import Payload, Recorded, event
from yarnlog.rules import InvalidCommand, Override, Referee, Rule, invalid
from yarnlog.rulesets.yarn import dice, group_efforts, odds
from yarnlog.rulesets.yarn.characters import experience_dice_used
from yarnlog.rulesets.yarn.dice import BOOK, Consequence, RollOptions, RollSpec
from yarnlog.rulesets.yarn.dice_facts import DiceFacts, take_dice
from yarnlog.rulesets.yarn.experience import JUSTIFY_USE, use_experience_dice
from yarnlog.rulesets.yarn.fringe_powers import USE_SHOT
from yarnlog.rulesets.yarn.state import Part
from yarnlog.rulesets.yarn.traits import Rank, TraitKind, trait_score
from yarnlog.timeline import SceneClosed

IN_A_SCENE = Rule(
    BOOK,
    "Procedural Scenes",
    "In procedural scenes, characters pursue practical, external goals. [...] If any participant "
    "objects, you must play out a procedural to see if your pursuit of a practical goal succeeds.",
)
TWO_OR_MORE = Rule(
    BOOK,
    "Group Efforts",
    "When working together, PCs can improve (or sometimes decrease) their chances of success. "
    "Depending on how well a given task can be accomplished by more than one person, the GM can "
    "call for one of the following resolution systems.",
)
#: A technical or unusual trait the character lacks: "the average person has no skill (0 dice)".
LACKING_TECHNICAL_DICE = trait_score(TraitKind.TECHNICAL, Rank.AVERAGE)
EVERYONE = "everyone"


class TraitUse(StrEnum):
    """Where a roll's dice come from ("How Many Dice Do You Roll?")."""

    TRAIT = "trait"  # a trait the character has: its score (a GMC's: the dice the GM says)
    NO_TRAIT = "no trait"  # "nothing to do with any of your traits": two dice
    TECHNICAL = "technical"  # a technical or unusual trait the character lacks: no dice
    TANGENTIAL = "tangential"  # a trait that "does not exactly apply"
    HAND_OF_FATE = "hand of fate"  # no trait truly applies, the outcome uncertain: two dice


# -- payloads -------------------------------------------------------------------------------


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Chance(_Data):
    """An exact chance ("799/1296") and the percentage a recap shows ("62%")."""

    exact: str
    percent: str

    @classmethod
    def of(cls, chance: Fraction) -> "Chance":
        return cls(exact=f"{chance.numerator}/{chance.denominator}", percent=odds.percent(chance))

    def fraction(self) -> Fraction:
        return Fraction(self.exact)


class PriorOdds(_Data):
    """The chances, before any die was rolled, that the roll beats, equals or fails what it is against."""

    beats: Chance
    equals: Chance
    fails: Chance

    @classmethod
    def of(cls, chances: odds.OutcomeOdds) -> "PriorOdds":
        return cls(beats=Chance.of(chances.beats), equals=Chance.of(chances.equals), fails=Chance.of(chances.fails))

    def of_outcome(self, outcome: str) -> Chance:
        return getattr(self, outcome)


class Against(_Data):
    """What a roll is compared to ("Comparing Your Roll").

    ``number`` is None when the opponent's roll is hidden from the players ("the GM need not tell
    you what she rolls for a GMC, or even how many dice she is rolling"). ``roll`` is the sequence
    of the opponent's roll, or of the casting of the spell resisted.
    """

    kind: Literal["difficulty", "inert force", "opponent", "spell"]
    number: int | None = None
    label: str = ""
    roll: int | None = None
    dice: DiceFacts | None = None
    botched: bool = False


class Helper(_Data):
    """A character whose dice joined the roll ("Combining Dice": they become bonus dice)."""

    character: str
    trait: str | None = None
    trait_use: TraitUse
    dice: int


class ShotUse(_Data):
    """Shots the roll took from the roller's psychic pool (Appendix: Fringe Powers).

    ``bonus_dice`` and ``extra_dice`` are what the shots added to the roll: the doubled dice of a
    push, a psychic's power dice when resisting.
    """

    kind: Literal["power", "push", "resist"]
    power: str
    shots: int = Field(ge=1)
    bonus_dice: int = Field(default=0, ge=0)
    extra_dice: int = Field(default=0, ge=0)


class BreakFacts(_Data):
    good: bool = False
    bad: bool = False


@event("yarn.roll.made")
class RollMade(Payload):
    """One roll: who rolled for whom, the dice as rolled, and what they came to.

    ``experience_dice`` (with ``character``) is what the characters part counts as used this
    session. ``bonus`` and ``penalty`` are the GM's dice; ``dice`` holds every bonus and penalty
    die the roll had (tangential trait, helpers, multiple actions, a push...).
    """

    participant: str
    character: str
    gmc: bool = False
    trait: str | None = None
    trait_use: TraitUse
    trait_dice: int = Field(ge=0)
    bonus: int = Field(default=0, ge=0)
    penalty: int = Field(default=0, ge=0)
    extra_actions: int = Field(default=0, ge=0)
    experience_dice: int = Field(default=0, ge=0)
    justifications: list[str] = Field(default_factory=list)
    purpose: str = ""
    helpers: list[Helper] = Field(default_factory=list)
    psychic: ShotUse | None = None
    against: Against | None = None
    dice: DiceFacts
    outcome: Literal["beats", "equals", "fails"] | None = None
    margin: int | None = None
    decided_by: str | None = None
    botch: bool = False
    sixes: int = 0
    limited_success: bool = False
    breaks: BreakFacts
    odds: PriorOdds | None = None
    reading: str = ""


@event("yarn.roll.read")
class RollRead(Payload):
    """The GM's reading of a roll: what the hand of fate brings, how great a success, what a botch breaks."""

    roll: int
    reading: str = Field(min_length=1)


GroupMethod = Literal["simple addition", "either/or", "worst roller"]


@event("yarn.group.resolved")
class GroupResolved(Payload):
    """Several characters' rolls resolved as one effort ("Group Efforts"); combining dice is one roll instead."""

    method: GroupMethod
    rolls: list[int]
    characters: list[str]
    counting: int | None = None
    source: Literal["entered", "rolled"] | None = None  # either/or: the GM's determination, or the tool's pick
    total: int
    against: Against | None = None
    outcome: Literal["beats", "equals", "fails"] | None = None
    margin: int | None = None
    decided_by: str | None = None
    botch: bool = False
    sixes: int = 0
    limited_success: bool = False


@event("yarn.consequence.rolled")
class ConsequenceRolled(Payload):
    """The 1d6 a character rolls at the end of a procedural scene for a good or a bad break."""

    character: str
    scene: int
    kind: Literal["good", "bad"]
    face: int = Field(ge=1, le=6)
    source: Literal["entered", "rolled"]
    consequence: bool
    breaks: list[int]


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hands:
    """Who rolls which dice: a character, the trait the roll uses, how it applies.

    ``use`` None means the trait's score when a trait is named, two dice otherwise. ``dice`` is a
    GMC's dice for the trait, as the GM says; a PC's come from the sheet.
    """

    character: str
    trait: str | None = None
    use: TraitUse | None = None
    dice: int | None = None


@dataclass(frozen=True)
class Factor:
    """A difficulty factor: a level of "Sample Difficulty Factors" or the GM's own number."""

    value: int
    label: str = ""


@dataclass(frozen=True)
class InertForce:
    """The GM rolls ``dice`` "for the strength of the inert force" (``faces`` None: the tool rolls)."""

    dice: int
    faces: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Opposed:
    """An active opponent's roll, already recorded."""

    roll: int


@dataclass(frozen=True)
class SpellLevel:
    """A spell's level, resisted ("the level of the spell always counts as its 'strength'")."""

    level: int
    spell: str
    cast: int | None = None


AgainstSpec = Factor | InertForce | Opposed | SpellLevel


def difficulty(text: str) -> Factor:
    """A difficulty factor from a table level ("hard", "really difficult") or a number ("13")."""
    word = text.strip().casefold().replace("-", " ").replace("_", " ")
    if word.lstrip("-").isdigit():
        return Factor(int(word))
    for level in dice.Difficulty:
        if level.label.casefold() == word or level.name.casefold().replace("_", " ") == word:
            return Factor(level.factor, level.label)
    names = ", ".join(level.label.casefold() for level in dice.Difficulty)
    raise InvalidCommand(f"a difficulty is a number or one of {names}, not {text!r}")


@dataclass(frozen=True)
class MakeRoll:
    """A roll for one character. ``participant`` None: the PC's player, or the GM for a GMC.

    ``faces`` None: the tool rolls them (from ``rng``, a secure source by default). ``top_off``
    are the extra dice of "Blowing the Top Off", entered when every kept die shows 6.
    """

    hands: Hands
    participant: str | None = None
    bonus: int = 0
    penalty: int = 0
    extra_actions: int = 0
    experience_dice: int = 0
    justifications: tuple[str, ...] = ()
    purpose: str = ""
    against: AgainstSpec | None = None
    faces: tuple[int, ...] | None = None
    top_off: tuple[int, ...] = ()
    reading: str = ""
    rng: random.Random | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CombineDice:
    """Characters combining their dice into one roll; ``roll.hands`` is unused, ``members`` roll."""

    members: tuple[Hands, ...]
    roll: MakeRoll


@dataclass(frozen=True)
class ReadRoll:
    roll: int
    reading: str


@dataclass(frozen=True)
class GroupEffort:
    """Resolve recorded rolls as one effort.

    ``counting`` is the either/or roll the GM determined (None: the tool picks one at random).
    """

    method: GroupMethod
    rolls: tuple[int, ...]
    against: AgainstSpec | None = None
    counting: int | None = None
    rng: random.Random | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ConsequenceFace:
    character: str
    kind: Literal["good", "bad"]
    face: int


@dataclass(frozen=True)
class RollConsequences:
    """The consequence rolls of a scene (None: the scene in play, else the last one).

    Every roll due is made: ``faces`` entered from the table, the others rolled by the tool unless
    ``roll_rest`` is off. Rolled for the scene in play, they end it ("At the end of a procedural scene").
    """

    scene: int | None = None
    faces: tuple[ConsequenceFace, ...] = ()
    roll_rest: bool = True
    rng: random.Random | None = field(default=None, compare=False, repr=False)


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Procedure:
    """The part's slice: every roll, reading, group effort and consequence roll, by sequence."""

    rolls: Mapping[int, Recorded] = field(default_factory=dict)
    readings: Mapping[int, tuple[Recorded, ...]] = field(default_factory=dict)  # by the roll read
    answers: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # roll -> later rolls opposed to it
    groups: Mapping[int, Recorded] = field(default_factory=dict)
    grouped: Mapping[int, int] = field(default_factory=dict)  # roll -> its group effort
    consequences: Mapping[int, Recorded] = field(default_factory=dict)


def evolve(procedure: Procedure, recorded: Recorded, _state=None) -> Procedure:
    p, seq = recorded.payload, recorded.sequence
    if isinstance(p, RollMade):
        procedure = replace(procedure, rolls={**procedure.rolls, seq: recorded})
        if p.against is not None and p.against.kind == "opponent":
            answered = procedure.answers.get(p.against.roll, ())
            procedure = replace(procedure, answers={**procedure.answers, p.against.roll: answered + (seq,)})
        return procedure
    if isinstance(p, RollRead):
        readings = procedure.readings.get(p.roll, ()) + (recorded,)
        return replace(procedure, readings={**procedure.readings, p.roll: readings})
    if isinstance(p, GroupResolved):
        return replace(procedure, groups={**procedure.groups, seq: recorded},
                       grouped={**procedure.grouped, **{r: seq for r in p.rolls}})
    if isinstance(p, ConsequenceRolled):
        return replace(procedure, consequences={**procedure.consequences, seq: recorded})
    return procedure


# -- deciding a roll ------------------------------------------------------------------------


@dataclass(frozen=True)
class Roller:
    """Who rolls, for whom, and the trait behind the dice: the parts of a roll that are not dice."""

    participant: str
    character: str
    gmc: bool
    trait: str | None
    trait_use: TraitUse
    trait_dice: int


def options_of(campaign) -> RollOptions:
    return RollOptions.from_campaign(campaign.table.options)


def _pcs(campaign):
    return campaign.rules.characters.pcs


def participant_for(campaign, participant: str | None, characters: Sequence[str]) -> str:
    """Who records the roll: a PC's player or a GM; only a GM rolls for GMCs ("that made by the GM")."""
    table, pcs = campaign.table, _pcs(campaign)
    players = {pcs[c].player for c in characters if c in pcs}
    who = participant or (next(iter(players)) if len(players) == 1 else table.gm)
    invalid(table.knows(who) and who not in table.departed, f"{who} is not at the table")
    if table.is_gm(who):
        return who
    invalid(who in players, f"{who} does not roll for {', '.join(characters)}: the character's player or the GM does")
    return who


def _sheet_trait(sheet, trait: str | None):
    if trait is None:
        return None
    return next((t for name, t in sheet.traits.items() if name.casefold() == trait.strip().casefold()), None)


@dataclass(frozen=True)
class TraitDice:
    """The dice a character's trait gives, before the GM's bonus and penalty dice."""

    spec: RollSpec
    trait: str | None  # as written on the sheet
    use: TraitUse
    dice: int  # the trait's score (two with no trait, none for a lacking technical trait)
    gmc: bool

    def roller(self, participant: str, character: str) -> Roller:
        return Roller(participant, character, self.gmc, self.trait, self.use, self.dice)


def hands_dice(campaign, hands: Hands) -> TraitDice:
    """The dice a character rolls before the GM's bonus and penalty dice ("How Many Dice Do You Roll?").

    A PC names a trait she lacks only to roll it with no trait (two dice) or as a technical trait
    (no dice); a GMC rolls the dice the GM says.
    """
    use = hands.use or (TraitUse.TRAIT if hands.trait or hands.dice is not None else TraitUse.NO_TRAIT)
    trait = hands.trait.strip() if hands.trait else None
    if use is TraitUse.HAND_OF_FATE:
        invalid(trait is None and hands.dice is None, "the hand of fate is two dice when no trait applies")
        gmc = hands.character not in _pcs(campaign)
        return TraitDice(dice.hand_of_fate(), None, use, dice.HAND_OF_FATE_DICE, gmc)
    sheet = _pcs(campaign).get(hands.character)
    if sheet is None:
        return _gmc_dice(hands, trait, use)
    invalid(sheet.active, f"{hands.character} is retired from play")
    invalid(hands.dice is None, f"{hands.character}'s dice come from the sheet: name the trait, or roll with no trait")
    held = _sheet_trait(sheet, trait)
    if use in (TraitUse.TRAIT, TraitUse.TANGENTIAL):
        invalid(held is not None, f"{hands.character} has no trait {trait!r} (traits: {', '.join(sheet.traits)}); "
                                  "a task needing a trait she lacks is rolled with no trait (two dice) or, for a "
                                  "technical trait, with no dice")
        spec = dice.tangential_trait(held.dice) if use is TraitUse.TANGENTIAL else RollSpec(held.dice)
        return TraitDice(spec, held.name, use, held.dice, False)
    invalid(held is None, f"{hands.character} has {held.name if held else ''} ({held.dice if held else 0} dice): "
                          "roll it as her trait")
    count = dice.NO_TRAIT_DICE if use is TraitUse.NO_TRAIT else LACKING_TECHNICAL_DICE
    return TraitDice(RollSpec(count), trait, use, count, False)


def _gmc_dice(hands: Hands, trait: str | None, use: TraitUse) -> TraitDice:
    if use in (TraitUse.NO_TRAIT, TraitUse.TECHNICAL):
        invalid(hands.dice is None, "a roll with no trait has no trait dice to give")
        count = dice.NO_TRAIT_DICE if use is TraitUse.NO_TRAIT else LACKING_TECHNICAL_DICE
        return TraitDice(RollSpec(count), trait, use, count, True)
    invalid(hands.dice is not None, f"how many dice does {hands.character} roll for {trait or 'the trait'}? "
                                    "(a GMC's dice are the GM's to say)")
    spec = dice.tangential_trait(hands.dice) if use is TraitUse.TANGENTIAL else RollSpec(hands.dice)
    return TraitDice(spec, trait, use, hands.dice, True)


def roll_spec(base: RollSpec, command: MakeRoll) -> RollSpec:
    """``base`` with the GM's bonus and penalty dice, the experience dice and any extra actions."""
    spec = replace(base, bonus=base.bonus + command.bonus, penalty=base.penalty + command.penalty,
                   experience=command.experience_dice)
    return dice.multiple_actions(spec, command.extra_actions)


def roller_of(campaign, command: MakeRoll) -> tuple[Roller, RollSpec]:
    """Who rolls ``command``'s hands, and their dice before the GM's bonus and penalty dice."""
    hands = command.hands
    base = hands_dice(campaign, hands)
    return base.roller(participant_for(campaign, command.participant, [hands.character]), hands.character), base.spec


def _fringe_power_of(campaign, character: str, trait: str | None) -> bool:
    # Read through the powers part's slice (``pools``: character -> pool with ``powers``).
    pools = getattr(getattr(campaign.rules, "powers", None), "pools", {})
    return trait is not None and character in pools and trait in pools[character].powers


def _check_experience(campaign, referee: Referee, character: str, spec: RollSpec, command: MakeRoll) -> None:
    """An experience die is a bonus die the character's pool allows this session, each one justified."""
    invalid(all(j.strip() for j in command.justifications), "a justification cannot be empty")
    if spec.experience == 0:
        invalid(not command.justifications, "justifications come with experience dice")
        return
    sheet = _pcs(campaign).get(character)
    invalid(sheet is not None, f"{character} is not a player character: only PCs have an experience pool")
    referee.require(bool(command.purpose.strip()), JUSTIFY_USE,
                    "the GM has not said what the roll is for, so no experience die can be justified")
    use_experience_dice(
        referee, pool=sheet.experience_pool, used_this_session=experience_dice_used(campaign, character),
        dice=spec.experience, justifications_accepted=len(command.justifications),
        multiple_dice_rule=campaign.table.options.get("multiple_experience_dice", False),
    )


def _against(campaign, spec: AgainstSpec, character: str, rng) -> tuple[dice.Target, Against]:
    """The target of a roll and how it is recorded."""
    if isinstance(spec, Factor):
        return dice.DifficultyFactor(spec.value), Against(kind="difficulty", number=spec.value, label=spec.label)
    if isinstance(spec, SpellLevel):
        invalid(spec.level >= 1, "a spell's level is 1 or more")
        return dice.DifficultyFactor(spec.level), Against(kind="spell", number=spec.level, label=spec.spell,
                                                          roll=spec.cast)
    if isinstance(spec, InertForce):
        invalid(spec.dice >= 1, "the GM rolls at least one die for an inert force")
        # An inert force is no character: no optional rule (botch, top off) applies to its dice.
        facts = take_dice(RollSpec(spec.dice), spec.faces, rng=rng)
        return dice.InertForceRoll(facts.total), Against(kind="inert force", number=facts.total, dice=facts)
    other = campaign.rules.procedure.rolls.get(spec.roll)
    invalid(other is not None, f"event {spec.roll} is not a roll")
    invalid(other.scene == campaign.timeline.scene, f"roll {spec.roll} was made in another scene")
    invalid(other.payload.character != character, "a roll is not opposed to the same character's roll")
    target = dice.OpponentRoll.of(other.payload.dice.result(), options_of(campaign))
    shown = other.visibility == EVERYONE
    return target, Against(kind="opponent", roll=spec.roll, number=target.total if shown else None,
                           label=other.payload.character if shown else "", botched=target.botched)


def prior_odds(campaign, spec: RollSpec, against: Against) -> PriorOdds | None:
    """Exact chances before the dice, of the roll against what it is compared to.

    Against an opponent they are the odds of the contest, both rolls unknown: the book has both
    sides roll "just like you do", under the same optional rules. None for a hidden opponent.
    """
    options = options_of(campaign)
    if against.kind == "opponent":
        if against.number is None:  # hidden: even the odds would tell how many dice the GM rolled
            return None
        other = campaign.rules.procedure.rolls[against.roll].payload
        return PriorOdds.of(odds.opposed_odds(spec, other.dice.spec(), options))
    if against.kind == "inert force":
        return PriorOdds.of(odds.opposed_odds(spec, against.dice.spec(), options, dice.NO_OPTIONS))
    return PriorOdds.of(odds.outcome_odds(spec, against.number, options))


def _resolution_fields(resolution: dice.Resolution | None, against: Against | None) -> dict[str, Any]:
    """The outcome fields; no margin against a hidden opponent (it would reveal the GM's roll)."""
    if resolution is None:
        return {}
    return {"outcome": resolution.outcome.value, "margin": None if against.number is None else resolution.margin,
            "decided_by": resolution.decided_by.chapter if resolution.decided_by else None,
            "limited_success": resolution.limited_success}


def record_roll(
    campaign,
    referee: Referee,
    roller: Roller,
    spec: RollSpec,
    command: MakeRoll,
    *,
    helpers: Sequence[Helper] = (),
    psychic: ShotUse | None = None,
) -> RollMade:
    """The event of one roll of ``spec``: dice entered (checked) or rolled, resolved, with its odds.

    Checks what every roll must: it is played out in a scene, and its experience dice are the
    character's to use. ``command`` gives the target, faces and the words recorded with the roll.
    """
    referee.require(campaign.timeline.scene is not None, IN_A_SCENE,
                    "no scene is in play: practical efforts are played out in a procedural scene")
    _check_experience(campaign, referee, roller.character, spec, command)
    options = options_of(campaign)
    facts = take_dice(spec, command.faces, options, top_off=command.top_off, rng=command.rng)
    result = facts.result()
    target, against = (None, None) if command.against is None else _against(
        campaign, command.against, roller.character, command.rng)
    resolution = dice.resolve(result, target, options) if target is not None else None
    found = dice.breaks(result)
    return RollMade(
        participant=roller.participant, character=roller.character, gmc=roller.gmc, trait=roller.trait,
        trait_use=roller.trait_use, trait_dice=roller.trait_dice, bonus=command.bonus, penalty=command.penalty,
        extra_actions=command.extra_actions, experience_dice=spec.experience,
        justifications=list(command.justifications), purpose=command.purpose.strip(), helpers=list(helpers),
        psychic=psychic, against=against, dice=facts, botch=dice.is_botch(result, options),
        sixes=dice.unstoppable_sixes(result, options), breaks=BreakFacts(good=found.good, bad=found.bad),
        odds=prior_odds(campaign, spec, against) if against is not None else None,
        reading=command.reading.strip(), **_resolution_fields(resolution, against),
    )


def _decide_roll(command: MakeRoll, campaign, referee: Referee) -> list[Payload]:
    invalid(not isinstance(command.against, SpellLevel), "a spell is resisted against its casting (ResistSpell)")
    roller, base = roller_of(campaign, command)
    referee.require(not _fringe_power_of(campaign, roller.character, roller.trait), USE_SHOT,
                    f"{roller.trait} is a fringe power: each use takes a shot from the psychic pool")
    return [record_roll(campaign, referee, roller, roll_spec(base, command), command)]


def _decide_combined(command: CombineDice, campaign, referee: Referee) -> list[Payload]:
    """One roll of everyone's dice, the best keeping as many as she normally rolls ("Combining Dice")."""
    invalid(len(command.members) >= 2, "combining dice takes two or more characters")
    pcs = [m.character for m in command.members if m.character in _pcs(campaign)]
    invalid(len(set(pcs)) == len(pcs), "each character joins a combined roll once")
    members = [hands_dice(campaign, m) for m in command.members]
    invalid(all(m.use is not TraitUse.HAND_OF_FATE for m in members), "the hand of fate is one roll, not combined")
    # A member's own bonus or penalty dice (a tangential trait) join the GM's on the one roll.
    spec = group_efforts.combining_dice(
        [m.spec.dice for m in members], bonus=command.roll.bonus + sum(m.spec.bonus for m in members),
        penalty=command.roll.penalty + sum(m.spec.penalty for m in members))
    best = max(range(len(members)), key=lambda i: (members[i].spec.dice, -i))
    who = participant_for(campaign, command.roll.participant, [m.character for m in command.members])
    roller = members[best].roller(who, command.members[best].character)
    helpers = [Helper(character=hands.character, trait=m.trait, trait_use=m.use, dice=m.dice)
               for i, (hands, m) in enumerate(zip(command.members, members, strict=True)) if i != best]
    spec = dice.multiple_actions(replace(spec, experience=command.roll.experience_dice), command.roll.extra_actions)
    return [record_roll(campaign, referee, roller, spec, command.roll, helpers=helpers)]


def _decide_read(command: ReadRoll, campaign, referee: Referee) -> list[Payload]:
    invalid(command.roll in campaign.rules.procedure.rolls, f"event {command.roll} is not a roll")
    invalid(bool(command.reading.strip()), "a reading needs some words")
    return [RollRead(roll=command.roll, reading=command.reading.strip())]


# -- group efforts --------------------------------------------------------------------------


def _member_rolls(campaign, rolls: Sequence[int]) -> list[Recorded]:
    procedure = campaign.rules.procedure
    invalid(len(set(rolls)) == len(rolls), "each roll counts once in a group effort")
    members = []
    for seq in rolls:
        rec = procedure.rolls.get(seq)
        invalid(rec is not None, f"event {seq} is not a roll")
        invalid(rec.scene == campaign.timeline.scene, f"roll {seq} was made in another scene")
        invalid(seq not in procedure.grouped, f"roll {seq} already counts in group effort {procedure.grouped.get(seq)}")
        members.append(rec)
    names = [m.payload.character for m in members]
    invalid(len(set(names)) == len(names), "a group effort joins different characters' rolls")
    return members


def _decide_group(command: GroupEffort, campaign, referee: Referee) -> list[Payload]:
    referee.require(len(command.rolls) >= 2, TWO_OR_MORE, "a group effort joins two or more characters' rolls")
    members = _member_rolls(campaign, command.rolls)
    results = [m.payload.dice.result() for m in members]
    options = options_of(campaign)
    invalid(not isinstance(command.against, Opposed) or command.against.roll not in command.rolls,
            "the group's rolls are not opposed to one of themselves")
    target, against = (None, None) if command.against is None else _against(campaign, command.against, "", command.rng)
    counting = source = resolution = None
    if command.method == "simple addition":
        invalid(target is not None, "simple addition adds the dice against a number: give the difficulty or the roll")
        resolution = group_efforts.simple_addition(results, target, options)
        total, botch = resolution.total, all(dice.is_botch(r, options) for r in results)
        sixes = resolution.sixes
    else:
        if command.method == "either/or":
            index, source = _counting(command, results)
            counted = group_efforts.either_or(results, index)
        else:
            counted = group_efforts.worst_roller(results, options)
        counting = command.rolls[results.index(counted)]
        total, botch, sixes = counted.total, dice.is_botch(counted, options), dice.unstoppable_sixes(counted, options)
        if target is not None:
            resolution = dice.resolve(counted, target, options)
    return [GroupResolved(
        method=command.method, rolls=list(command.rolls), characters=[m.payload.character for m in members],
        counting=counting, source=source, total=total, against=against, botch=botch, sixes=sixes,
        **_resolution_fields(resolution, against),
    )]


def _counting(command: GroupEffort, results: Sequence[dice.RollResult]) -> tuple[int, str]:
    if command.counting is not None:
        invalid(command.counting in command.rolls, f"roll {command.counting} is not one of the group's rolls")
        return command.rolls.index(command.counting), "entered"
    return (command.rng or secrets.SystemRandom()).randrange(len(results)), "rolled"


# -- personal consequences ------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    """A consequence roll a character owes the end of a scene, and the rolls that broke."""

    character: str
    kind: Consequence
    breaks: tuple[int, ...]


def consequences_due(campaign, scene: int) -> list[Due]:
    """The 1d6 rolls still to make for ``scene``'s breaks ("Resulting Personal Consequences").

    "Players who had breaks": the rolls of player characters only (a GMC's breaks bring none).
    """
    procedure = campaign.rules.procedure
    rolls: dict[str, list[Recorded]] = {}
    for rec in procedure.rolls.values():
        if rec.scene == scene and not rec.payload.gmc:
            rolls.setdefault(rec.payload.character, []).append(rec)
    made = {(c.payload.character, c.payload.kind) for c in procedure.consequences.values() if c.payload.scene == scene}
    due = []
    for character, theirs in rolls.items():
        for kind in dice.consequence_rolls(dice.Breaks(r.payload.breaks.good, r.payload.breaks.bad) for r in theirs):
            if (character, kind.value) not in made:
                broke = tuple(r.sequence for r in theirs if getattr(r.payload.breaks, kind.value))
                due.append(Due(character, kind, broke))
    return due


def consequence_scene(campaign, scene: int | None) -> int:
    timeline = campaign.timeline
    number = scene if scene is not None else (timeline.scene or timeline.last_scene)
    invalid(number in timeline.scenes, f"there is no scene {number}" if number else "no scene has been played yet")
    return number


def _decide_consequences(command: RollConsequences, campaign, referee: Referee) -> list[Payload]:
    scene = consequence_scene(campaign, command.scene)
    due = {(d.character, d.kind.value): d for d in consequences_due(campaign, scene)}
    given = {(f.character, f.kind): f.face for f in command.faces}
    invalid(len(given) == len(command.faces), "one face per character and kind of break")
    for character, kind in given:
        rule = dice.GOOD_CONSEQUENCE if kind == Consequence.GOOD.value else dice.BAD_CONSEQUENCE
        referee.require((character, kind) in due, rule,
                        f"{character} owes no roll for a {kind} break in scene {scene} (none, or already rolled)")
    wanted = list(given) + ([key for key in due if key not in given] if command.roll_rest else [])
    invalid(bool(wanted), f"no consequence roll is due in scene {scene}")
    payloads: list[Payload] = []
    for character, kind in wanted:
        face = given.get((character, kind))
        source = "entered" if face is not None else "rolled"
        if face is None:
            face = take_dice(RollSpec(1), None, rng=command.rng).faces[0]
        payloads.append(ConsequenceRolled(
            character=character, scene=scene, kind=kind, face=face, source=source,
            consequence=dice.has_consequence(Consequence(kind), face),
            breaks=list(due[(character, kind)].breaks) if (character, kind) in due else []))
    if scene == campaign.timeline.scene:
        payloads.append(SceneClosed(number=scene))
    return payloads


# -- the part -------------------------------------------------------------------------------


DECIDERS: Mapping[type, Callable[[Any, Any, Referee], list[Payload]]] = {
    MakeRoll: _decide_roll,
    CombineDice: _decide_combined,
    ReadRoll: _decide_read,
    GroupEffort: _decide_group,
    RollConsequences: _decide_consequences,
}


def decide(command, campaign, referee: Referee) -> list[Payload] | None:
    decider = DECIDERS.get(type(command))
    return decider(command, campaign, referee) if decider else None


def against_spec(against: Against | None) -> AgainstSpec | None:
    """The command's target back from a recorded one."""
    if against is None:
        return None
    if against.kind == "difficulty":
        return Factor(against.number, against.label)
    if against.kind == "spell":
        return SpellLevel(against.number, against.label, against.roll)
    if against.kind == "inert force":
        return InertForce(against.dice.dice, tuple(against.dice.faces))
    return Opposed(against.roll)


def roll_command(p: RollMade, hands: Hands | None = None) -> MakeRoll:
    """The roll command a recorded roll came from (its faces entered), for :func:`recheck`."""
    gm_dice = p.trait_dice if p.gmc and p.trait_use in (TraitUse.TRAIT, TraitUse.TANGENTIAL) else None
    return MakeRoll(
        hands=hands or Hands(p.character, p.trait, p.trait_use, gm_dice), participant=p.participant,
        bonus=p.bonus, penalty=p.penalty, extra_actions=p.extra_actions, experience_dice=p.experience_dice,
        justifications=tuple(p.justifications), purpose=p.purpose, against=against_spec(p.against),
        faces=tuple(p.dice.faces), top_off=tuple(p.dice.top_off), reading=p.reading,
    )


def _command_of(campaign, p: Payload) -> Any:
    """The command a recorded event came from, its dice entered; None for events this part does not audit."""
    if isinstance(p, RollMade):
        if p.psychic is not None or (p.against is not None and p.against.kind == "spell"):
            return None  # the powers part decides (and audits) rolls with shots and spell resistance
        if not p.helpers:
            return roll_command(p)
        # A PC's dice come from her sheet again; a GMC keeps the number the GM gave.
        members = [(p.character, p.trait, p.trait_use, p.trait_dice),
                   *((h.character, h.trait, h.trait_use, h.dice) for h in p.helpers)]
        return CombineDice(tuple(Hands(c, t, u, None if c in _pcs(campaign) else n) for c, t, u, n in members),
                           roll_command(p))
    if isinstance(p, RollRead):
        return ReadRoll(p.roll, p.reading)
    if isinstance(p, GroupResolved):
        return GroupEffort(p.method, tuple(p.rolls), against_spec(p.against),
                           p.counting if p.method == "either/or" else None)
    if isinstance(p, ConsequenceRolled):
        return RollConsequences(p.scene, (ConsequenceFace(p.character, p.kind, p.face),), roll_rest=False)
    return None


def _comparable(data: Any) -> Any:
    """Payload data without how the dice were had (entered or rolled): the rules do not depend on it."""
    if isinstance(data, dict):
        return {k: _comparable(v) for k, v in data.items() if k != "source"}
    if isinstance(data, list):
        return [_comparable(v) for v in data]
    return data


def recheck(campaign, recorded: Recorded, command: Any, decide_fn) -> list[str]:
    """Decide ``command`` again against the state before ``recorded`` and list what differs.

    Every rule the event broke is listed (a collecting referee), then every field the rules
    derive differently from what was recorded.
    """
    referee = Referee(Override(by="verify", reason="audit"))
    try:
        payloads = decide_fn(command, campaign, referee)
    except InvalidCommand as exc:
        return [str(exc)]
    problems = [message for _, message in referee.overridden]
    expected = next((p for p in payloads or () if type(p) is type(recorded.payload)), None)
    if expected is None:
        return problems + ["the rules record no such event"]
    got, want = _comparable(recorded.payload.to_data()), _comparable(expected.to_data())
    return problems + [f"{key} is recorded as {got.get(key)!r} but the dice and the rules give {want[key]!r}"
                       for key in want if got.get(key) != want[key]]


def audit(campaign, recorded: Recorded) -> list[str]:
    command = _command_of(campaign, recorded.payload)
    return [] if command is None else recheck(campaign, recorded, command, decide)


PART = Part(name="procedure", initial=Procedure, evolve=evolve, decide=decide, audit=audit)


# -- projections ----------------------------------------------------------------------------


def _visible(campaign, recorded: Recorded, viewer: str | None) -> bool:
    from yarnlog.journal import visible_to

    return visible_to(recorded, viewer, campaign.table)


MIRROR = {"beats": "fails", "fails": "beats", "equals": "equals"}


def _against_data(campaign, against: Against | None, viewer: str | None) -> dict | None:
    if against is None:
        return None
    data = {"kind": against.kind, "number": against.number, "label": against.label, "roll": against.roll}
    if against.kind == "opponent" and against.number is None:
        opponent = campaign.rules.procedure.rolls.get(against.roll)
        if opponent is not None and _visible(campaign, opponent, viewer):
            data.update(number=opponent.payload.dice.total, label=opponent.payload.character)
    if against.dice is not None:
        data["dice"] = against.dice.describe()
    return data


def roll_data(campaign, recorded: Recorded, viewer: str | None = None) -> dict:
    """One roll as plain data, with what a recap says of it."""
    p: RollMade = recorded.payload
    procedure = campaign.rules.procedure
    against = _against_data(campaign, p.against, viewer)
    margin, prior = p.margin, p.odds
    if p.against is not None and p.against.number is None and against["number"] is not None:
        margin = p.dice.total - against["number"]
        prior = PriorOdds.of(odds.opposed_odds(p.dice.spec(), procedure.rolls[p.against.roll].payload.dice.spec(),
                                               options_of(campaign)))
    answers = [procedure.rolls[s] for s in procedure.answers.get(recorded.sequence, ()) if s in procedure.rolls]
    data = {
        "sequence": recorded.sequence, "episode": recorded.episode, "scene": recorded.scene,
        "participant": p.participant, "character": p.character, "gmc": p.gmc, "trait": p.trait,
        "trait_use": p.trait_use.value, "purpose": p.purpose, "notation": p.dice.notation,
        "faces": p.dice.faces, "kept": p.dice.kept, "top_off": p.dice.top_off, "dice": p.dice.describe(),
        "total": p.dice.total, "source": p.dice.source, "experience_dice": p.experience_dice,
        "helpers": [h.character for h in p.helpers],
        "psychic": p.psychic.model_dump(mode="json") if p.psychic else None,
        "against": against, "outcome": p.outcome, "margin": margin, "decided_by": p.decided_by,
        "odds": prior.model_dump(mode="json") if prior else None,
        "odds_of_outcome": prior.of_outcome(p.outcome).percent if prior and p.outcome else None,
        "breaks": p.breaks.model_dump(mode="json"), "botch": p.botch, "sixes": p.sixes,
        # A roll answered by others is lost or drawn when they beat or equal it: its sixes still count.
        "limited_success": p.limited_success or (p.sixes > 0 and any(
            a.payload.outcome in ("beats", "equals") for a in answers)),
        "answered_by": [{"roll": a.sequence, "character": a.payload.character, "outcome": MIRROR[a.payload.outcome]}
                        for a in answers if a.payload.outcome and _visible(campaign, a, viewer)],
        "group": procedure.grouped.get(recorded.sequence),
        "readings": [p.reading] * bool(p.reading) + [r.payload.reading for r in procedure.readings.get(
            recorded.sequence, ()) if _visible(campaign, r, viewer)],
    }
    if p.against is not None and p.against.kind == "spell":
        from yarnlog.rulesets.yarn.magic import resists_spell

        data["resisted"] = not p.botch and resists_spell(p.against.number, p.dice.total)
        resisting = prior.beats.fraction() + prior.equals.fraction()  # "at least equal" resists
        data["odds_of_outcome"] = odds.percent(resisting if data["resisted"] else 1 - resisting)
    data["recap"] = recap(data)
    return data


def recap(row: Mapping[str, Any]) -> str:
    """One line for a recap, e.g. "Iris rolls Military Background, 3d6: 6 6 2 = 14, beats Hard 11 by 3
    (against 38% odds) [good break]"; a spell is resisted at least equal to its level."""
    what = row["trait"] or "no trait"
    line = f"{row['character']} rolls {what} ({row['trait_use']})" if row["trait_use"] != "trait" else \
        f"{row['character']} rolls {what}"
    if row["helpers"]:
        line += f" with {', '.join(row['helpers'])}"
    if row["psychic"]:
        line += f" ({row['psychic']['kind']}, {row['psychic']['shots']} shot{'s' * (row['psychic']['shots'] > 1)})"
    line += f", {row['dice']}"
    against = row["against"]
    if row["outcome"] and against:
        name = against["label"] or against["kind"]
        number = against["number"] if against["number"] is not None else "?"
        verb = {"beats": "beats", "equals": "equals", "fails": "fails against"}[row["outcome"]]
        if against["kind"] == "spell":
            verb = "resists" if row["resisted"] else "does not resist"
        line += f", {verb} {name} {number}"
        if row["margin"]:
            line += f" by {abs(row['margin'])}"
        if row["odds_of_outcome"]:
            made_it = row.get("resisted", row["outcome"] == "beats")
            line += f" (against {row['odds_of_outcome']} odds)" if made_it else f" ({row['odds_of_outcome']} odds)"
    extras = [label for label, on in (("botch", row["botch"]), ("good break", row["breaks"]["good"]),
                                      ("bad break", row["breaks"]["bad"]),
                                      ("limited success", row["limited_success"])) if on]
    return line + (f" [{', '.join(extras)}]" if extras else "")


def roll_rows(campaign, *, scene: int | None = None, episode: int | None = None, character: str | None = None,
              viewer: str | None = None) -> list[dict]:
    """Every roll visible to ``viewer`` (None: the GM's view), optionally of one scene, episode or character."""
    return [roll_data(campaign, rec, viewer) for seq, rec in sorted(campaign.rules.procedure.rolls.items())
            if (scene is None or rec.scene == scene) and (episode is None or rec.episode == episode)
            and (character is None or rec.payload.character == character) and _visible(campaign, rec, viewer)]


def group_rows(campaign, *, scene: int | None = None, viewer: str | None = None) -> list[dict]:
    """Group efforts: resolved ones, and rolls that combined several characters' dice."""
    rows = []
    for seq, rec in sorted({**campaign.rules.procedure.groups, **{
            s: r for s, r in campaign.rules.procedure.rolls.items() if r.payload.helpers}}.items()):
        if (scene is not None and rec.scene != scene) or not _visible(campaign, rec, viewer):
            continue
        p = rec.payload
        if isinstance(p, RollMade):
            rows.append({"sequence": seq, "scene": rec.scene, "method": "combining dice",
                         "characters": [p.character, *(h.character for h in p.helpers)], "rolls": [seq],
                         "counting": seq, "total": p.dice.total, "outcome": p.outcome, "margin": p.margin})
        else:
            rows.append({"sequence": seq, "scene": rec.scene, "method": p.method, "characters": p.characters,
                         "rolls": p.rolls, "counting": p.counting, "total": p.total, "outcome": p.outcome,
                         "margin": p.margin})
    return rows


def consequence_data(campaign, scene: int | None = None) -> dict:
    """The consequence rolls due at the end of ``scene`` and those made, with what they brought."""
    number = consequence_scene(campaign, scene)
    made = [c for c in campaign.rules.procedure.consequences.values() if c.payload.scene == number]
    return {
        "scene": number,
        "in_play": campaign.timeline.scene == number,
        "due": [{"character": d.character, "kind": d.kind.value, "breaks": list(d.breaks)}
                for d in consequences_due(campaign, number)],
        "rolled": [{"sequence": c.sequence, "character": c.payload.character, "kind": c.payload.kind,
                    "face": c.payload.face, "consequence": c.payload.consequence, "breaks": c.payload.breaks}
                   for c in made],
    }

