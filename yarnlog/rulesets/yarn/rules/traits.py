"""Traits, flaw, signs, hit points, experience pool and story sentence of a new Yarn 0.1 character.

Implements the book's "Creating Characters" chapter from "Traits" through "Your Story". Dice
rolled for hit points are data passed in; nothing here rolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from yarnlog.core.referee import Referee, Rule, invalid

BOOK = "Yarn 0.1"

TRAITS = Rule(
    BOOK,
    "Creating Characters › Traits",
    "Each character has four traits. One trait is the character’s central trait, usually defining "
    "who that character is. Two traits are side traits, additional skills or characteristics. Of "
    "the above three traits, one is chosen as superior. The last trait is a flaw or disadvantage.",
)
UNIQUE_NAMES = Rule(
    BOOK, "Creating Characters › More About Traits", "Take care in naming your trait. Make each unique."
)
NARROW_TRAITS = Rule(
    BOOK,
    "Creating Characters › Optional Rule: Narrow Traits",
    "the GM may award the PC with extra dice in that score, to compensate partially for the "
    "trait’s marginal usefulness.",
)
NO_NARROW_FIGHTING = Rule(
    BOOK, "Creating Characters › Optional Rule: Narrow Traits", "No fighting skill counts as “narrow.”"
)
SUPERIOR = Rule(
    BOOK,
    "Creating Characters › Scores for Traits",
    "First, you choose one of your three traits to be superior.",
)
FLAW = Rule(
    BOOK,
    "Creating Characters › Flaws",
    "it is time to choose a flaw. A flaw is any disadvantage that your character will have in play.",
)
SIGNS = Rule(
    BOOK,
    "Creating Characters › Signs",
    "For each trait, including your flaw, describe one sign related to it that others can notice.",
)
HIT_POINT_DESCRIPTOR = Rule(
    BOOK,
    "Creating Characters › Hit Points",
    "Once you've determined your hit points, attach a descriptive word or phrase to them to "
    "represent what they mean for your character.",
)
STORY_LENGTH = Rule(
    BOOK,
    "Creating Characters › Your Story",
    "If your sentence is more than 25 words long, your idea isn't simple enough.",
)


class TraitKind(StrEnum):
    """The four columns of the "Scores for Traits" table."""

    STANDARD = "standard"  # stealth, strength, straight-facing
    TECHNICAL = "technical or unusual"  # doctor, fringe powers
    NARROW = "narrow"  # public speaking, cooking
    NARROW_TECHNICAL = "narrow & technical"  # helicopter pilot, dentistry


class Rank(StrEnum):
    """The rows of the "Scores for Traits" table."""

    SUPERIOR = "superior"  # the trait chosen as superior
    GOOD = "good"  # a trait the character has, not superior
    AVERAGE = "average"  # someone who does not have the trait at all


#: The "Scores for Traits" table: dice rolled for a trait of each kind and rank.
SCORES = MappingProxyType(
    {
        TraitKind.STANDARD: MappingProxyType({Rank.SUPERIOR: 4, Rank.GOOD: 3, Rank.AVERAGE: 2}),
        TraitKind.TECHNICAL: MappingProxyType({Rank.SUPERIOR: 2, Rank.GOOD: 1, Rank.AVERAGE: 0}),
        TraitKind.NARROW: MappingProxyType({Rank.SUPERIOR: 6, Rank.GOOD: 4, Rank.AVERAGE: 2}),
        TraitKind.NARROW_TECHNICAL: MappingProxyType({Rank.SUPERIOR: 4, Rank.GOOD: 2, Rank.AVERAGE: 0}),
    }
)
NARROW_KINDS = frozenset({TraitKind.NARROW, TraitKind.NARROW_TECHNICAL})

HIT_POINTS_PER_DIE = 7
HIT_POINTS_WITHOUT_TRAIT = 14
STARTING_EXPERIENCE_POOL = 1
STORY_MAX_WORDS = 25


def trait_score(kind: TraitKind, rank: Rank) -> int:
    """Dice rolled for a trait of ``kind`` at ``rank`` ("Scores for Traits")."""
    return SCORES[kind][rank]


def score_label(kind: TraitKind) -> str:
    """The "normal/superior" dice the book prints after a trait, e.g. ``3/4`` or ``4/6``."""
    return f"{trait_score(kind, Rank.GOOD)}/{trait_score(kind, Rank.SUPERIOR)}"


@dataclass(frozen=True)
class Trait:
    """A central or side trait as the player writes it: name, description, sign(s), kind.

    ``fighting_skill`` is the table's judgement whether the trait is a fighting skill, which
    the narrow-traits rule needs.
    """

    name: str
    kind: TraitKind = TraitKind.STANDARD
    signs: tuple[str, ...] = ()
    description: str = ""
    fighting_skill: bool = False


@dataclass(frozen=True)
class Flaw:
    """The fourth trait: a disadvantage, with its sign(s). It has no dice."""

    name: str
    signs: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class TraitSet:
    """The four traits chosen at character creation; ``superior`` names one of the first three."""

    central: Trait
    sides: tuple[Trait, ...]
    superior: str | None
    flaw: Flaw | None


@dataclass(frozen=True)
class ScoredTrait:
    trait: Trait
    central: bool
    superior: bool
    score: int


def score_trait_set(referee: Referee, traits: TraitSet, *, narrow_traits: bool = False) -> tuple[ScoredTrait, ...]:
    """Check a new character's traits, flaw and signs and score the three positive traits.

    Implements "Traits", "Central Trait", "Side Traits", "More About Traits", "Optional Rule:
    Narrow Traits", "Scores for Traits", "Flaws" and "Signs". ``narrow_traits`` says whether the
    campaign uses the optional narrow-traits rule. Returns central trait first, then the sides.
    The GM's veto or edit of a trait ("More About Traits", "Approval") is hers to record.
    """
    positive = (traits.central, *traits.sides)
    signed = [(t.name, t.signs) for t in positive]
    if traits.flaw is not None:
        signed.append((traits.flaw.name, traits.flaw.signs))
    referee.require(len(traits.sides) == 2, TRAITS, f"a character has two side traits, not {len(traits.sides)}")
    referee.require(traits.flaw is not None, FLAW, "the character has no flaw")
    invalid(all(name.strip() for name, _ in signed), "every trait needs a name")
    names = {name.casefold() for name, _ in signed}
    referee.require(len(names) == len(signed), UNIQUE_NAMES, "two traits share a name")
    _check_superior(referee, traits, positive)
    for trait in positive:
        if trait.kind in NARROW_KINDS:
            referee.require(narrow_traits, NARROW_TRAITS, f"{trait.name}: this campaign does not use narrow traits")
            referee.require(not trait.fighting_skill, NO_NARROW_FIGHTING, f"{trait.name} is a fighting skill")
    for name, signs in signed:
        referee.require(any(s.strip() for s in signs), SIGNS, f"{name} has no sign")
    return tuple(
        ScoredTrait(
            trait=trait,
            central=trait is traits.central,
            superior=trait.name == traits.superior,
            score=trait_score(trait.kind, Rank.SUPERIOR if trait.name == traits.superior else Rank.GOOD),
        )
        for trait in positive
    )


def _check_superior(referee: Referee, traits: TraitSet, positive: Sequence[Trait]) -> None:
    referee.require(traits.superior is not None, SUPERIOR, "no trait is chosen as superior")
    if traits.superior is None:
        return
    if traits.flaw is not None and traits.superior == traits.flaw.name:
        referee.require(False, TRAITS, "the flaw cannot be the superior trait")
        return
    invalid(
        any(t.name == traits.superior for t in positive),
        f"superior trait {traits.superior!r} is not one of the character's traits",
    )


def check_d6_faces(faces: Sequence[int], count: int, what: str) -> tuple[int, ...]:
    """The faces of ``count`` six-sided dice rolled for ``what``, or :class:`InvalidCommand`."""
    invalid(len(faces) == count, f"{what} needs {count} dice, got {len(faces)}")
    invalid(all(1 <= f <= 6 for f in faces), f"{what}: a die shows 1 to 6, got {list(faces)}")
    return tuple(faces)


@dataclass(frozen=True)
class HitPointSource:
    """A trait relevant to taking damage, and the player's choice for it.

    ``rolled`` is None to take the listed 7 points per die, or the faces of the double number of
    dice the player rolled for it.
    """

    trait: str
    dice: int
    rolled: tuple[int, ...] | None = None


def listed_hit_points(dice: int) -> int:
    """Hit points taken (not rolled) for a relevant trait of ``dice`` dice ("Hit Points").

    "You get 7 points per die", and "You do not have fewer than 14 hit points for having a trait
    like 'weak.'": we read the latter as a floor of 14 on taken hit points, so a 1-die technical
    trait never leaves a character worse off than lacking the trait.
    """
    invalid(dice >= 0, "a trait has zero or more dice")
    return max(HIT_POINTS_WITHOUT_TRAIT, HIT_POINTS_PER_DIE * dice)


def starting_hit_points(sources: Sequence[HitPointSource]) -> int:
    """A new character's hit points from the traits relevant to taking damage ("Hit Points").

    No relevant trait gives 14. Each trait is either taken at its listed value or rolled on
    double its dice; with several traits the highest result counts ("roll for each trait
    separately and take the highest roll", or take one as average and keep a roll "only if you
    actually roll over the average score for the first trait").
    """
    if not sources:
        return HIT_POINTS_WITHOUT_TRAIT
    return max(_source_hit_points(source) for source in sources)


def _source_hit_points(source: HitPointSource) -> int:
    if source.rolled is None:
        return listed_hit_points(source.dice)
    return sum(check_d6_faces(source.rolled, 2 * source.dice, f"hit points for {source.trait}"))


@dataclass(frozen=True)
class HitPoints:
    score: int
    descriptor: str  # "brawn", "guts", ...


def describe_hit_points(referee: Referee, score: int, descriptor: str) -> HitPoints:
    """Attach the required descriptive word or phrase to a character's hit points."""
    referee.require(bool(descriptor.strip()), HIT_POINT_DESCRIPTOR, "hit points need a descriptive word or phrase")
    return HitPoints(score, descriptor.strip())


def story_sentence(referee: Referee, sentence: str) -> str:
    """Check the "My story is of a man/woman who..." sentence ("Your Story").

    Words are counted on whitespace over the whole sentence, introductory clause included: the
    book counts the sentence and lets the player "adjust the introductory clause" to shorten it.
    """
    sentence = " ".join(sentence.split())
    invalid(bool(sentence), "the story sentence is empty")
    words = len(sentence.split())
    referee.require(words <= STORY_MAX_WORDS, STORY_LENGTH, f"the story sentence has {words} words")
    return sentence
