"""What procedural play records: its rolls, readings, group efforts and consequences, as events and commands.

The stored side of Yarn 0.1 "Mechanics", "Group Efforts" and "Personal Consequences": each roll's dice
are kept as :class:`~.dice_facts.DiceFacts` (never re-rolled) with the exact prior odds. :func:`evolve`
folds the events into :class:`Procedure`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pyrsistent import PMap, pmap

from yarnlog.core.composition import folds
from yarnlog.core.corrections import effective
from yarnlog.core.events import Payload, Recorded, event, upcaster
from yarnlog.core.frozen import replace
from yarnlog.core.referee import InvalidCommand
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import DiceFacts
from yarnlog.rulesets.yarn.rules import dice, odds
from yarnlog.rulesets.yarn.rules.traits import Rank, TraitKind, trait_score

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
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


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
        return _prior_odds(cls, chances)

    def of_outcome(self, outcome: str) -> Chance:
        return getattr(self, outcome)


@lru_cache(maxsize=1024)
def _prior_odds(cls: type[PriorOdds], chances: odds.OutcomeOdds) -> PriorOdds:
    """The odds as recorded (frozen, so one is shared by every roll of the same odds: a campaign's rolls
    repeat a few pools against a few numbers, and each audit of a roll words them again)."""
    return cls(beats=Chance.of(chances.beats), equals=Chance.of(chances.equals), fails=Chance.of(chances.fails))


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
    # The penalty die of a messed-up character ("Messed Up"), added to every roll it makes.
    wound_penalty: int = Field(default=0, ge=0)
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


@event("yarn.group.resolved", version=2)
class GroupResolved(Payload):
    """Several characters' rolls resolved as one effort ("Group Efforts"); combining dice is one roll instead.

    Version 2 added ``odds``; events of version 1 never stated them.
    """

    added_in: ClassVar[dict[str, int]] = {"odds": 2}

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
    # Exact chances of the group's outcome before the dice; None where they are not computed
    # (either/or, a target rolled by dice, or a campaign with optional procedural rules).
    odds: PriorOdds | None = None


@upcaster("yarn.group.resolved", from_version=1)
def _group_resolved_v1_to_v2(data: dict) -> dict:
    return {"odds": None, **data}


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


@event("yarn.consequence.introduced")
class ConsequenceIntroduced(Payload):
    """What a consequence rolled turned out to be: the advantage (good) or obstacle (bad) introduced.

    ``roll`` is the ``yarn.consequence.rolled`` event that gave it; ``character``, ``kind`` and
    ``scene`` are that roll's.
    """

    roll: int
    character: str
    kind: Literal["good", "bad"]
    scene: int
    text: str = Field(min_length=1)
    introduced_by: str


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

    ``faces`` None: the tool rolls them before deciding (``rolled``, see :func:`take_dice`). ``top_off``
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
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the shell's dice


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
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the shell's dice


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
    rolled: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # the shell's dice


# -- state ----------------------------------------------------------------------------------


#: One object for each equal value a fact holds (a campaign's rolls repeat a few pools, a few faces
#: and names): a fact then costs its own slots, not copies of them. Bounded, so a long-lived process
#: that reads many campaigns keeps no more than this many of each.
_shared = lru_cache(maxsize=4096)(lambda value: value)


@dataclass(frozen=True, slots=True)
class RollFact:
    """What the rules read back of a recorded roll (``yarn.roll.made``), kept for every roll: a later
    roll may be opposed to it ("Comparing Your Roll"), a group effort join it ("Group Efforts"), a
    reading name it, and a scene's breaks are counted from its rolls ("Personal Consequences").

    The whole roll (purpose, helpers, odds...) is the event's: the reports read it from the history.
    """

    sequence: int
    scene: int | None
    episode: int | None
    visibility: str
    character: str
    gmc: bool
    spec: dice.RollSpec
    faces: tuple[int, ...]
    top_off: tuple[int, ...]
    total: int
    outcome: str | None
    good: bool  # a good break ("Breaks")
    bad: bool

    @classmethod
    def of(cls, recorded: Recorded, p: RollMade) -> RollFact:
        d = p.dice
        return cls(recorded.sequence, recorded.scene, recorded.episode, _shared(recorded.visibility),
                   _shared(p.character), p.gmc, _shared(d.spec()), _shared(tuple(d.faces)),
                   _shared(tuple(d.top_off)), d.total, p.outcome, p.breaks.good, p.breaks.bad)

    def result(self) -> dice.RollResult:
        """The roll rebuilt from its recorded faces (checked again, never re-rolled), as
        :meth:`DiceFacts.result` gives it."""
        return dice.RollResult(self.spec, self.faces, self.top_off)


@dataclass(frozen=True, slots=True)
class ConsequenceFact:
    """What the rules and the consequences report read of a consequence roll (``yarn.consequence.rolled``)."""

    sequence: int
    character: str
    kind: str
    scene: int
    face: int
    consequence: bool
    breaks: tuple[int, ...]

    @classmethod
    def of(cls, recorded: Recorded, p: ConsequenceRolled) -> ConsequenceFact:
        return cls(recorded.sequence, _shared(p.character), _shared(p.kind), p.scene, p.face, p.consequence,
                   tuple(p.breaks))


@dataclass(frozen=True)
class Procedure:
    """The part's slice: what deciding reads of every roll, reading, group effort and consequence
    roll, by sequence. The reports read the events themselves from the history (:func:`rolls_in`,
    :func:`groups_in`)."""

    # Persistent maps (equal to the dicts they hold): an event folded in shares the rest of the map.
    rolls: PMap[int, RollFact] = field(default_factory=pmap)
    readings: PMap[int, tuple[Recorded, ...]] = field(default_factory=pmap)  # by the roll read
    answers: PMap[int, tuple[int, ...]] = field(default_factory=pmap)  # roll -> later rolls opposed to it
    grouped: PMap[int, int] = field(default_factory=pmap)  # roll -> its group effort
    consequences: PMap[int, ConsequenceFact] = field(default_factory=pmap)
    introduced: PMap[int, int] = field(default_factory=pmap)  # consequence roll -> the event that introduced it
    # By scene, in the order made: what a scene's consequence rolls are decided from, looked up
    # instead of passing over every roll of the campaign at each consequence roll.
    scene_rolls: PMap[int, tuple[int, ...]] = field(default_factory=pmap)  # scene -> the rolls made in it
    scene_consequences: PMap[int, tuple[int, ...]] = field(default_factory=pmap)  # scene -> its consequence rolls


_P = TypeVar("_P", bound=Payload)


def payload_as(recorded: Recorded, kind: type[_P]) -> _P:
    """The payload of an event a part's slice filed as ``kind`` (it files each event by its type)."""
    payload = recorded.payload
    if not isinstance(payload, kind):  # never reached
        raise TypeError(f"event {recorded.sequence} is a {payload.event_type}, not a {kind.__name__}")
    return payload


def roll_made(recorded: Recorded) -> RollMade:
    """The roll of a ``yarn.roll.made`` event."""
    return payload_as(recorded, RollMade)


def roll_read(recorded: Recorded) -> RollRead:
    """The reading of an event of :attr:`Procedure.readings`."""
    return payload_as(recorded, RollRead)


def group_resolved(recorded: Recorded) -> GroupResolved:
    """The group effort of a ``yarn.group.resolved`` event."""
    return payload_as(recorded, GroupResolved)


def consequence_rolled(recorded: Recorded) -> ConsequenceRolled:
    """The consequence roll of a ``yarn.consequence.rolled`` event."""
    return payload_as(recorded, ConsequenceRolled)


def rolls_in(procedure: Procedure, history: Iterable[Recorded]) -> list[Recorded]:
    """The rolls of ``history`` (the events ``procedure`` was folded from) as the folds saw them
    (corrections and retractions applied), in the order made."""
    return [rec for rec in effective(history) if isinstance(rec.payload, RollMade) and rec.sequence in procedure.rolls]


def groups_in(procedure: Procedure, history: Iterable[Recorded]) -> list[Recorded]:
    """The group efforts of ``history`` (as :func:`rolls_in`), in the order resolved."""
    return [rec for rec in effective(history) if isinstance(rec.payload, GroupResolved)]


FOLDS = folds(RollMade, RollRead, GroupResolved, ConsequenceRolled, ConsequenceIntroduced)


def _filed(index: PMap[int, tuple[int, ...]], scene: int | None, seq: int) -> PMap[int, tuple[int, ...]]:
    """``index`` with event ``seq`` filed under ``scene`` (an event outside every scene is not filed)."""
    if scene is None:
        return index
    filed = index.get(scene, ())
    return index if seq in filed else index.set(scene, filed + (seq,))


def evolve(procedure: Procedure, recorded: Recorded, _state: object = None) -> Procedure:
    p, seq = recorded.payload, recorded.sequence
    if isinstance(p, RollMade):
        procedure = replace(procedure, rolls=procedure.rolls.set(seq, RollFact.of(recorded, p)),
                            scene_rolls=_filed(procedure.scene_rolls, recorded.scene, seq))
        if p.against is not None and p.against.kind == "opponent" and p.against.roll is not None:
            answered = procedure.answers.get(p.against.roll, ())
            procedure = replace(procedure, answers=procedure.answers.set(p.against.roll, answered + (seq,)))
        return procedure
    if isinstance(p, RollRead):
        readings = procedure.readings.get(p.roll, ()) + (recorded,)
        return replace(procedure, readings=procedure.readings.set(p.roll, readings))
    if isinstance(p, GroupResolved):
        return replace(procedure, grouped=procedure.grouped.update({r: seq for r in p.rolls}))
    if isinstance(p, ConsequenceRolled):
        return replace(procedure, consequences=procedure.consequences.set(seq, ConsequenceFact.of(recorded, p)),
                       scene_consequences=_filed(procedure.scene_consequences, p.scene, seq))
    if isinstance(p, ConsequenceIntroduced):
        return replace(procedure, introduced=procedure.introduced.set(p.roll, seq))
    return procedure


class ProcedureBuilder:
    """The slice thawed for a replay (a :class:`~yarnlog.core.ruleset.SliceBuilder`): plain dicts,
    set in place, made persistent maps once by :meth:`freeze`. Folds as :func:`evolve` does."""

    def __init__(self, procedure: Procedure):
        self.rolls = dict(procedure.rolls)
        self.readings = dict(procedure.readings)
        self.answers = dict(procedure.answers)
        self.grouped = dict(procedure.grouped)
        self.consequences = dict(procedure.consequences)
        self.introduced = dict(procedure.introduced)
        self.scene_rolls = dict(procedure.scene_rolls)
        self.scene_consequences = dict(procedure.scene_consequences)

    @staticmethod
    def _file(index: dict[int, tuple[int, ...]], scene: int | None, seq: int) -> None:
        """As :func:`_filed`, in place."""
        if scene is not None and seq not in (filed := index.get(scene, ())):
            index[scene] = filed + (seq,)

    def fold(self, recorded: Recorded, _before: object = None) -> None:
        p, seq = recorded.payload, recorded.sequence
        if isinstance(p, RollMade):
            self.rolls[seq] = RollFact.of(recorded, p)
            self._file(self.scene_rolls, recorded.scene, seq)
            if p.against is not None and p.against.kind == "opponent" and p.against.roll is not None:
                self.answers[p.against.roll] = self.answers.get(p.against.roll, ()) + (seq,)
        elif isinstance(p, RollRead):
            self.readings[p.roll] = self.readings.get(p.roll, ()) + (recorded,)
        elif isinstance(p, GroupResolved):
            self.grouped.update({r: seq for r in p.rolls})
        elif isinstance(p, ConsequenceRolled):
            self.consequences[seq] = ConsequenceFact.of(recorded, p)
            self._file(self.scene_consequences, p.scene, seq)
        elif isinstance(p, ConsequenceIntroduced):
            self.introduced[p.roll] = seq

    def freeze(self) -> Procedure:
        return Procedure(rolls=pmap(self.rolls), readings=pmap(self.readings), answers=pmap(self.answers),
                         grouped=pmap(self.grouped), consequences=pmap(self.consequences),
                         introduced=pmap(self.introduced), scene_rolls=pmap(self.scene_rolls),
                         scene_consequences=pmap(self.scene_consequences))
