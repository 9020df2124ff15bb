"""The WaRP dice of Yarn 0.1: how many dice a roll uses, reading its faces, and what it means.

Implements "Mechanics" (bonus and penalty dice, "Sample Difficulty Factors", the experience die
as a bonus die), "Basic Mechanics" (General Actions, Chancy Actions, How Many Dice Do You Roll?,
Comparing Your Roll, Technical Traits, The Hand of Fate, Multiple Actions, Tangential Traits),
"Personal Consequences" (the rules cited; breaks are counted in :mod:`.personal_consequences`) and the appendix's
"Optional Rules for Procedural Scenes" (Botch, Blowing the Top Off, The Unstoppable Six).

A roll is data: a :class:`RollSpec` says how many dice are rolled and which are kept, and a
:class:`RollResult` holds the faces the table rolled, entered by hand or drawn by :func:`roll`
(the one function here that rolls, from an explicit or a secure random source). Everything else
is a pure function of those facts.

Which dice count. The book's botch example ("He rolls four dice, and they come up 5, 1, 1, 1.
That comes to 3, total, and a botch.") counts only the dice kept after the penalty die is
dropped, and it says a penalty die "greatly increases your chances of a botch", which is only
true of the kept dice. "Blowing the Top Off" says bonus and penalty dice get "a bigger impact",
again only true of the kept dice. So every "you roll all 1's / all 6's / 2 or more 6's / any of
your dice are sixes" rule here reads the kept dice: the dropped dice are not part of the roll.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum

from yarnlog.core.referee import Referee, Rule, invalid

BOOK = "Yarn 0.1"

TRAIT_DICE = Rule(
    BOOK,
    "Mechanics",
    "When you use a trait, you roll a number of dice equal to its score (usually three dice, or "
    "four dice for your superior trait).",
)
NO_TRAIT = Rule(
    BOOK,
    "Basic Mechanics › How Many Dice Do You Roll?",
    "If the action has nothing to do with any of your traits, you roll two dice.",
)
BONUS_DIE = Rule(
    BOOK,
    "Basic Mechanics › How Many Dice Do You Roll?",
    "If you try something at which you have some kind of edge or advantage, you get a bonus die. "
    "[...] Roll it right along with your normal dice, but drop out the lowest die you roll.",
)
PENALTY_DIE = Rule(
    BOOK,
    "Basic Mechanics › How Many Dice Do You Roll?",
    "If you try something at which you have some special difficulty or hindrance, roll a penalty "
    "die along with your regular dice. Now drop out the highest rolling die and use the total of "
    "the remaining dice as your roll.",
)
BONUS_CANCELS_PENALTY = Rule(
    BOOK,
    "Basic Mechanics › How Many Dice Do You Roll?",
    "If you get a bonus and a penalty die for the same roll, they cancel each other, and you roll "
    "normally. You can use an experience die to cancel a penalty die",
)
EXPERIENCE_DIE = Rule(
    BOOK, "Mechanics › Your Experience Pool", "The dice from your experience pool act as a bonus dice."
)
TECHNICAL_TRAITS = Rule(
    BOOK,
    "Creating Characters › Scores for Traits",
    "Some traits, however, are unusual or technical, and the average person has no skill (0 dice) "
    "in that trait.",
)
GENERAL_ACTIONS = Rule(
    BOOK,
    "Basic Mechanics › General Actions",
    "The task might be automatic (no roll required), chancy, or impossible (no roll allowed), as "
    "ruled by the GM.",
)
CHANCY_ACTIONS = Rule(
    BOOK,
    "Basic Mechanics › Chancy Actions",
    "1) Your total beats the number. You succeed [...] 2) Your total equals the number. Draw, "
    "stalemate, or inconclusive results are thus indicated. 3) Your total is less than the "
    "number. You fail",
)
DIFFICULTY_FACTOR = Rule(
    BOOK,
    "Basic Mechanics › Comparing Your Roll",
    "When you are working against an inert force, the GM assigns a difficulty factor. [...] "
    "Alternately, the GM can roll dice for the strength of the inert force",
)
OPPONENT = Rule(
    BOOK,
    "Basic Mechanics › Comparing Your Roll",
    "When working against an active opponent, the opponent rolls a number of dice, just like you do",
)
HAND_OF_FATE = Rule(
    BOOK,
    "Basic Mechanics › The Hand of Fate",
    "Sometimes a chancy situation develops in which no trait truly applies, but the outcome is "
    "uncertain. In this case, roll two dice.",
)
MULTIPLE_ACTIONS = Rule(
    BOOK,
    "Basic Mechanics › Multiple Actions",
    "If you attempt one extra action, you suffer a penalty die on all actions (including defense "
    "rolls). If you attempt two extra actions, you roll one fewer die on all actions undertaken in "
    "that round. Three extra actions means two fewer dice than normal",
)
TANGENTIAL_TRAITS = Rule(
    BOOK,
    "Basic Mechanics › Tangential Traits",
    "the GM may allow a bonus die (if the trait is 3 dice) or an extra die (if the trait is 4 dice "
    "or better).",
)
BREAKS = Rule(
    BOOK,
    "Personal Consequences › Breaks",
    "When you roll 2 or more 6's or 2 or more 1's for a given action, you've had a break.",
)
GOOD_CONSEQUENCE = Rule(
    BOOK,
    "Personal Consequences › Resulting Personal Consequences",
    "At the end of a procedural scene where you have a good break roll 1d6 if you had a good "
    "break - on a 6 you have a good consequence.",
)
BAD_CONSEQUENCE = Rule(
    BOOK,
    "Personal Consequences › Resulting Personal Consequences",
    "At the end of a procedural scene where you have a bad break roll 1d6 [...] - on a 1 you have "
    "a bad consequence.",
)
BOTCH = Rule(
    BOOK,
    "Optional Rules for Procedural Scenes › Botch",
    "When you roll all 1's for a given action, you have botched. Not only have you automatically "
    "failed in your attempted action, but something really bad happens.",
)
BLOWING_THE_TOP_OFF = Rule(
    BOOK,
    "Optional Rules for Procedural Scenes › Blowing the Top Off",
    "If the player rolls all 6's on any given roll, he rolls another die and adds it to the total "
    "he already rolled. If that die is a 6, he rolls it again and adds it, and so on.",
)
UNSTOPPABLE_SIX = Rule(
    BOOK,
    "Optional Rules for Procedural Scenes › The Unstoppable Six",
    "If any of your dice are sixes, you obtain some positive result, even if you are not "
    "successful in the roll. Just what this \"limited success\" entails is up to the GM",
)

SIDES = 6
#: The most dice one roll may use, bonus and penalty dice included, and the most extra dice of
#: blowing the top off. The book sets no maximum; its biggest pool is a gang's "ten dice" of
#: combining dice ("Group Efforts"), and a score of 6 is "pretty much beyond the scope of the
#: rules". A hundred leaves any table room and keeps a roll's event a few kilobytes.
MAX_DICE = 100
NO_TRAIT_DICE = 2
HAND_OF_FATE_DICE = 2


# ----------------------------------------------------------------------------------------------
# How many dice a roll uses


@dataclass(frozen=True)
class RollSpec:
    """The dice of one roll ("Mechanics", "How Many Dice Do You Roll?").

    ``dice`` are the normal dice (a trait's score, two without a trait): that many dice make the
    total. ``bonus`` and ``penalty`` are the GM's bonus and penalty dice, ``experience`` the
    experience-pool dice used as bonus dice. Bonus and penalty dice cancel one for one; each die
    left over is rolled along with the normal dice, and the lowest (bonus) or highest (penalty)
    dice are dropped. A roll of no dice (a technical trait the character lacks: "the average
    person has no skill (0 dice)") totals 0, "practically no chance". The other side of that
    rule ("A Special Case: Technical Traits": someone with the skill "can automatically perform
    any related action that an unskilled person could do but would have to roll for") is the
    GM's ruling that the task is automatic (:class:`TaskRuling`).
    """

    dice: int
    bonus: int = 0
    penalty: int = 0
    experience: int = 0

    def __post_init__(self) -> None:
        # (each message is worded only when it is given: every roll decided or audited passes here)
        for name in _SPEC_FIELDS:
            value = getattr(self, name)
            if not (type(value) is int and value >= 0):
                label = "dice" if name == "dice" else f"{name} dice"
                invalid(False, f"{label}: a whole number, 0 or more, got {value!r}")
        if self.rolled > MAX_DICE:
            invalid(False, f"a roll uses at most {MAX_DICE} dice, not {self.rolled:,}")

    @property
    def net_bonus(self) -> int:
        """Bonus dice left after cancelling penalty dice; negative when penalty dice are left."""
        return self.bonus + self.experience - self.penalty

    @property
    def rolled(self) -> int:
        """How many dice are physically rolled."""
        return self.dice + abs(self.net_bonus)

    def notation(self) -> str:
        """Dice notation: ``3d6``, ``4d6kh3`` (bonus die), ``4d6kl3`` (penalty die)."""
        net = self.net_bonus
        if net == 0:
            return f"{self.dice}d{SIDES}"
        return f"{self.rolled}d{SIDES}{'kh' if net > 0 else 'kl'}{self.dice}"


_SPEC_FIELDS = tuple(f.name for f in fields(RollSpec))


def hand_of_fate() -> RollSpec:
    """The roll of "The Hand of Fate": two dice when no trait applies but the outcome is uncertain.

    The GM reads the total ("A high roll means a result good for the players, a roll around 7
    means a mediocre or average result, and a lower roll means a bad or dangerous result");
    her reading is her ruling, recorded with the roll, not computed here.
    """
    return RollSpec(HAND_OF_FATE_DICE)


def multiple_actions(spec: RollSpec, extra_actions: int) -> RollSpec:
    """The roll of one of several actions attempted in a round ("Multiple Actions").

    One extra action: a penalty die. Two or more: one fewer die per extra action beyond the
    first, and no penalty die. The book lists the penalty for each count in place of the one
    before ("If you attempt two extra actions, you roll one fewer die"), so we read them as
    replacing, not adding up. A roll cannot lose more dice than it has.
    """
    invalid(type(extra_actions) is int and extra_actions >= 0, "extra actions must be 0 or more")
    if extra_actions == 1:
        return replace(spec, penalty=spec.penalty + 1)
    if extra_actions >= 2:
        return replace(spec, dice=max(0, spec.dice - (extra_actions - 1)))
    return spec


def tangential_trait(trait_dice: int, *, untrained_dice: int = NO_TRAIT_DICE) -> RollSpec:
    """The roll when the GM allows a trait that "does not exactly apply" ("Tangential Traits").

    The character rolls what she would without the trait (``untrained_dice``: two dice, or the
    "Average" score of the trait kind the task needs), plus a bonus die for a 3-dice trait or an
    extra die for a trait of 4 dice or better; the book gives nothing for a smaller trait. Book
    example: a 3-dice model doing make-up for disguise gets "two dice plus a bonus die".
    """
    invalid(type(trait_dice) is int and trait_dice >= 0, "a trait has 0 or more dice")
    if trait_dice >= 4:
        return RollSpec(untrained_dice + 1)
    if trait_dice == 3:
        return RollSpec(untrained_dice, bonus=1)
    return RollSpec(untrained_dice)


class TaskRuling(Enum):
    """The GM's ruling on an attempted task ("General Actions")."""

    AUTOMATIC = "automatic"  # no roll required
    CHANCY = "chancy"
    IMPOSSIBLE = "impossible"  # no roll allowed


def require_roll_allowed(referee: Referee, ruling: TaskRuling) -> None:
    """Refuse a roll for a task the GM ruled impossible ("no roll allowed")."""
    referee.require(ruling is not TaskRuling.IMPOSSIBLE, GENERAL_ACTIONS, "the GM ruled this task impossible")


# ----------------------------------------------------------------------------------------------
# Optional rules


@dataclass(frozen=True)
class RollOptions:
    """Which of the appendix's optional procedural rules the campaign uses (all off by default)."""

    botch: bool = False
    blowing_the_top_off: bool = False
    unstoppable_six: bool = False

    @classmethod
    def from_campaign(cls, options: Mapping[str, bool]) -> RollOptions:
        """The roll options among a campaign's options (other options are not about rolls)."""
        return cls(**{name: bool(options.get(name, False)) for name in _OPTION_NAMES})


NO_OPTIONS = RollOptions()
_OPTION_NAMES = tuple(f.name for f in fields(RollOptions))


# ----------------------------------------------------------------------------------------------
# Faces


def validate_faces(spec: RollSpec, faces: Sequence[int]) -> tuple[int, ...]:
    """The faces entered for a roll of ``spec``, or :class:`InvalidCommand` saying what is wrong."""
    faces = tuple(faces)
    count = spec.rolled
    if len(faces) != count:
        invalid(False, f"a {count}-die roll ({spec.notation()}) needs {count} face{'s' if count != 1 else ''}, "
                       f"got {len(faces)}")
    for position, face in enumerate(faces, start=1):
        if not (type(face) is int and 1 <= face <= SIDES):
            invalid(False, f"die {position} shows {face!r}; a die shows 1 to {SIDES}")
    return faces


def kept_positions(spec: RollSpec, faces: Sequence[int]) -> tuple[int, ...]:
    """Positions (0-based, in rolling order) of the dice that make the total.

    A bonus die drops the lowest die, a penalty die the highest; among equal faces the one
    rolled first is dropped (which one makes no difference to the roll).
    """
    if spec.net_bonus >= 0:
        dropping_order = sorted(range(len(faces)), key=lambda i: (faces[i], i))
    else:
        dropping_order = sorted(range(len(faces)), key=lambda i: (-faces[i], i))
    return tuple(sorted(dropping_order[abs(spec.net_bonus) :]))


def _all_show(kept: Sequence[int], face: int) -> bool:
    return bool(kept) and all(f == face for f in kept)


def _validate_top_off(kept: Sequence[int], top_off: tuple[int, ...]) -> None:
    if not top_off:
        return
    invalid(_all_show(kept, SIDES), "extra dice for blowing the top off are rolled only when every kept die is a 6")
    for position, face in enumerate(top_off, start=1):
        invalid(
            type(face) is int and 1 <= face <= SIDES, f"extra die {position} shows {face!r}; a die shows 1 to {SIDES}"
        )
    invalid(
        all(f == SIDES for f in top_off[:-1]) and top_off[-1] != SIDES,
        "extra dice for blowing the top off go on while they show 6 and stop at the first that does not",
    )


@dataclass(frozen=True)
class RollResult:
    """The faces of one roll, in the order rolled, and what they add up to.

    ``top_off`` holds the extra dice of "Blowing the Top Off" (every kept die a 6): each is added
    to the total, and a 6 calls for another.
    """

    spec: RollSpec
    faces: tuple[int, ...]
    top_off: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", validate_faces(self.spec, self.faces))
        object.__setattr__(self, "top_off", tuple(self.top_off))
        if self.top_off:  # (no extra dice: nothing to check, the kept faces not worked out here)
            _validate_top_off(self.kept_faces, self.top_off)

    @property
    def kept(self) -> tuple[int, ...]:
        """Positions of the kept dice in :attr:`faces`, worked out once (kept in the instance's dict
        by hand: ``functools.cached_property`` takes a lock at each first read in Python 3.11)."""
        found = self.__dict__.get("kept")
        if found is None:
            found = kept_positions(self.spec, self.faces)
            self.__dict__["kept"] = found
        return found

    @property
    def kept_faces(self) -> tuple[int, ...]:
        return tuple(self.faces[i] for i in self.kept)

    @property
    def dropped_faces(self) -> tuple[int, ...]:
        kept = set(self.kept)
        return tuple(f for i, f in enumerate(self.faces) if i not in kept)

    @property
    def total(self) -> int:
        return sum(self.kept_faces) + sum(self.top_off)

    def notation(self) -> str:
        return self.spec.notation()

    def describe(self) -> str:
        """One line for a recap, dropped dice in parentheses: ``4d6kl3: (5) 1 1 1 = 3``."""
        kept = set(self.kept)
        shown = [str(f) if i in kept else f"({f})" for i, f in enumerate(self.faces)]
        shown += [f"+{f}" for f in self.top_off]
        return f"{self.notation()}: {' '.join(shown) or 'no dice'} = {self.total}"


def _tops_off(kept: Sequence[int], options: RollOptions) -> bool:
    return options.blowing_the_top_off and _all_show(kept, SIDES)


def must_blow_top_off(spec: RollSpec, faces: Sequence[int], options: RollOptions) -> bool:
    """Whether these faces call for the extra dice of "Blowing the Top Off" (every kept die a 6)."""
    return _tops_off(RollResult(spec, tuple(faces)).kept_faces, options)


def read_roll(
    spec: RollSpec,
    faces: Sequence[int],
    options: RollOptions = NO_OPTIONS,
    top_off: Sequence[int] = (),
) -> RollResult:
    """A roll from faces the table rolled, checked against the dice and the campaign's options."""
    invalid(len(top_off) <= MAX_DICE, f"blowing the top off adds at most {MAX_DICE} dice, not {len(top_off):,}")
    result = RollResult(spec, tuple(faces))
    needed = _tops_off(result.kept_faces, options)
    invalid(
        needed or not top_off,
        "extra dice are only entered when blowing the top off: the optional rule is off or not every kept die is a 6",
    )
    invalid(
        not needed or bool(top_off),
        "every kept die is a 6: blowing the top off, roll another die and enter it (and more while they show 6)",
    )
    return replace(result, top_off=tuple(top_off)) if top_off else result


def roll(spec: RollSpec, rng: random.Random | None = None, *, options: RollOptions = NO_OPTIONS) -> RollResult:
    """Roll the dice of ``spec`` (and any top-off dice) from ``rng``, a secure source by default."""
    rng = rng or secrets.SystemRandom()
    faces = [rng.randint(1, SIDES) for _ in range(spec.rolled)]
    top_off: list[int] = []
    if must_blow_top_off(spec, faces, options):
        top_off.append(rng.randint(1, SIDES))
        while top_off[-1] == SIDES:
            top_off.append(rng.randint(1, SIDES))
    return read_roll(spec, faces, options, top_off)


def is_botch(result: RollResult, options: RollOptions) -> bool:
    """Whether the roll is a botch under the optional "Botch" rule: every kept die a 1."""
    return options.botch and _all_show(result.kept_faces, 1)


def unstoppable_sixes(result: RollResult, options: RollOptions) -> int:
    """Sixes among the kept dice under "The Unstoppable Six" (0 when the rule is off).

    "the more 6's you get, the more powerful your 'loser's revenge' will be": the count is what
    the GM weighs. Top-off dice only add to the total ("adds it to the total") and are not counted.
    """
    return result.kept_faces.count(SIDES) if options.unstoppable_six else 0


# ----------------------------------------------------------------------------------------------
# What the roll is compared to


class Difficulty(Enum):
    """The "Sample Difficulty Factors" table: factor, and dice the GM may roll instead."""

    EASY = ("Easy", 4, (1,))
    MODERATE = ("Moderate", 7, (2,))
    HARD = ("Hard", 11, (3,))
    REALLY_DIFFICULT = ("Really Difficult", 14, (4,))
    NEAR_IMPOSSIBLE = ("Near Impossible", 18, (5, 6))  # "18+", "5 or 6" dice

    def __init__(self, label: str, factor: int, dice: tuple[int, ...]) -> None:
        self.label = label
        self.factor = factor
        self.dice = dice


@dataclass(frozen=True)
class DifficultyFactor:
    """A number the GM assigns for an inert force: a table level's factor or any number she sets."""

    value: int

    @classmethod
    def of(cls, level: Difficulty) -> DifficultyFactor:
        return cls(level.factor)


@dataclass(frozen=True)
class InertForceRoll:
    """The total the GM rolled "for the strength of the inert force" (see :attr:`Difficulty.dice`)."""

    total: int


@dataclass(frozen=True)
class OpponentRoll:
    """An active opponent's total; ``botched`` when that roll was a botch under the optional rule."""

    total: int
    botched: bool = False

    @classmethod
    def of(cls, result: RollResult, options: RollOptions) -> OpponentRoll:
        return cls(result.total, is_botch(result, options))


Target = DifficultyFactor | InertForceRoll | OpponentRoll


def target_number(target: Target) -> int:
    """The number a roll is compared to."""
    return target.value if isinstance(target, DifficultyFactor) else target.total


class Outcome(Enum):
    """The three results of a chancy action ("Chancy Actions")."""

    BEATS = "beats"  # you succeed
    EQUALS = "equals"  # draw, stalemate, or inconclusive
    FAILS = "fails"  # your total is less than the number


def compare(total: int, number: int) -> Outcome:
    """Compare a total with the number it must beat ("Chancy Actions")."""
    if total > number:
        return Outcome.BEATS
    return Outcome.EQUALS if total == number else Outcome.FAILS


def forced_outcome(botched: bool, opponent_botched: bool) -> tuple[Outcome, Rule] | None:
    """The outcome a botch imposes whatever the totals, with the rule; None if the totals decide.

    A botch has "automatically failed". When the opponent botched instead, the opponent's
    attempt (to resist, to outdo) has automatically failed, so the roller's action succeeds; we
    read the rule that way for opposed rolls. The roller's own botch comes first.
    """
    if botched:
        return Outcome.FAILS, BOTCH
    if opponent_botched:
        return Outcome.BEATS, BOTCH
    return None


@dataclass(frozen=True)
class Resolution:
    """How a roll came out against its target.

    ``margin`` is total minus target: "The greater the difference [...] as ruled by the GM".
    ``sixes`` counts the unstoppable sixes (0 unless that optional rule is in play);
    ``decided_by`` is the rule that fixed the outcome regardless of the totals (a botch), if any.
    """

    outcome: Outcome
    total: int
    target: int
    sixes: int = 0
    decided_by: Rule | None = None

    @property
    def margin(self) -> int:
        return self.total - self.target

    @property
    def limited_success(self) -> bool:
        """"The Unstoppable Six": some positive result "even if you are not successful"."""
        return self.outcome is not Outcome.BEATS and self.sixes > 0


def resolve_total(
    total: int,
    target: Target,
    options: RollOptions = NO_OPTIONS,
    *,
    botched: bool = False,
    sixes: int = 0,
) -> Resolution:
    """Resolve a total against a target; ``botched`` and ``sixes`` as :func:`is_botch` and
    :func:`unstoppable_sixes` give them for the dice behind the total."""
    number = target_number(target)
    opponent_botched = isinstance(target, OpponentRoll) and target.botched
    # Without the optional rule there is no botch, whatever the caller says.
    forced = forced_outcome(botched and options.botch, opponent_botched and options.botch)
    if forced is None:
        return Resolution(compare(total, number), total, number, sixes)
    outcome, rule = forced
    return Resolution(outcome, total, number, sixes, rule)


def resolve(result: RollResult, target: Target, options: RollOptions = NO_OPTIONS) -> Resolution:
    """How ``result`` comes out against ``target`` ("Chancy Actions", "Comparing Your Roll",
    and the optional Botch and Unstoppable Six rules)."""
    return resolve_total(
        result.total,
        target,
        options,
        botched=is_botch(result, options),
        sixes=unstoppable_sixes(result, options),
    )
