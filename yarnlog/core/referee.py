"""Rule citations, rule violations and the referee that enforces (or records overrides of) them.

Deciders and validators are pure: they receive a :class:`Referee` and call
:meth:`Referee.require` for every rule of the game they check. A strict referee refuses the move
with the rule quoted; a referee carrying a GM override lets the move through and remembers which
rules were set aside, so the application can record the override as an event next to the move
itself; a collecting referee (:meth:`Referee.collecting`) refuses nothing and notes every broken
rule, so ``verify`` can report all of them, and projections can ask "what is still missing?".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from random import Random

T = TypeVar("T")


@dataclass(frozen=True)
class Rule:
    """A citation of a rule book: which book, which chapter, and the rule's own words."""

    book: str
    chapter: str
    text: str

    def cite(self) -> str:
        return f'{self.book}, "{self.chapter}": {self.text}'

    @property
    def section(self) -> str:
        """The book's heading the rule stands under, as a refusal or a sentence names it (:func:`heading`)."""
        return heading(self.chapter)

    @property
    def number(self) -> str | None:
        """The rule's number, where its citation gives one (``DS25`` of ``DramaSystem SRD (DS25, lines
        335-339)``)."""
        found = _RULE_NUMBER.search(self.book.partition(" (")[2])
        return found.group() if found else None

    @property
    def where(self) -> str | None:
        """The rule named in a few characters: its number (``DS25``), else its book's short name and
        the line of its section (``Yarn 965``), from the citation or from the book's index
        (:func:`index_book`); ``None`` when neither is known."""
        if self.number:
            return self.number
        title, _, place = self.book.partition(" (")
        index = _BOOK_INDEX.get(title)
        if index is None:
            return None
        line = _LINE.search(place)
        if line:
            return f"{index[0]} {line.group(1)}"
        found = index[1].get(self.chapter)
        return None if found is None else f"{index[0]} {found}"


#: A rule's number in its book's citation, as DramaSystem's are ("DramaSystem SRD (DS22-DS24, lines 325-333)").
_RULE_NUMBER = re.compile(r"\b[A-Z]+\d+(?:-[A-Z]+\d+)?(?:, [A-Z]+\d+(?:-[A-Z]+\d+)?)*")
_LINE = re.compile(r"\blines? (\d+)")
#: Each book's short name and the line each of its sections starts at, by the rule's ``chapter``.
_BOOK_INDEX: dict[str, tuple[str, Mapping[str, int]]] = {}


def index_book(book: str, short: str, lines: Mapping[str, int]) -> None:
    """Say where ``book``'s sections stand (``lines``: a rule's ``chapter`` -> the line of its heading
    in the book) and its short name, so that its rules can be named in a few characters
    (:attr:`Rule.where`). A ruleset's rules call it once for the book they quote."""
    _BOOK_INDEX[book] = (short, dict(lines))


def heading(chapter: str) -> str:
    """The book's heading of a rule's ``chapter``: its last part (``Combat › Initiative`` -> ``Initiative``)."""
    return chapter.rsplit(" › ", 1)[-1]


class Broken(str):
    """A broken rule as an audit tells it, ``message (the rule quoted whole)``: a string (verify
    prints it, faults compare it), which keeps its ``rule`` and ``message`` apart so that a refusal
    built on it (an amendment that would break it) can say it in one line and cite the rule.
    ``cited`` replaces the quotation where the rule is told otherwise (a ledger line's own words)."""

    rule: Rule
    message: str

    def __new__(cls, rule: Rule, message: str, cited: str | None = None) -> Broken:
        told = super().__new__(cls, f"{message} ({rule.cite() if cited is None else cited})")
        told.rule, told.message = rule, message
        return told


class Difference(str):
    """A recorded field that is not what the rules derive, as an audit tells it (``hit_points is
    recorded as 30 but the rules give 28``): a string that keeps the ``field`` and both values
    (as told), so a refusal built on it can say it in a few words (:meth:`briefly`)."""

    field: str
    recorded: str
    derived: str

    def __new__(cls, field: str, recorded: str, derived: str) -> Difference:
        difference = super().__new__(cls, f"{field} is recorded as {recorded} but the rules give {derived}")
        difference.field, difference.recorded, difference.derived = field, recorded, derived
        return difference

    def briefly(self) -> str:
        """``hit_points is 30, the rules give 28``; the values left out when either is long (``the rules
        give another transfers``)."""
        if max(len(self.recorded), len(self.derived)) > 12:
            return f"the rules give another {self.field}"
        return f"{self.field} is {self.recorded}, the rules give {self.derived}"


class YarnlogError(Exception):
    """Base of every error that is shown to a user as one clear line (never a traceback)."""

    exit_code = 1


class InvalidCommand(YarnlogError):
    """The input makes no sense (unknown character, six faces on a five-die roll, ...).

    Not a rule of the game, so no override can let it through.
    """

    exit_code = 2


class RuleViolation(YarnlogError):
    """A legal-looking move that the rule book forbids; the GM may override it with a reason."""

    exit_code = 3

    def __init__(self, rule: Rule, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} (rule: {rule.cite()})")


@dataclass(frozen=True)
class Override:
    """A GM's explicit decision to set the rules aside for one move."""

    by: str
    reason: str


@dataclass
class Referee:
    """Checks rules for a decider. Strict unless it carries a GM :class:`Override` or collects.

    ``overridden`` lists the rules a GM override set aside (recorded as an override event);
    ``broken`` lists the rules a collecting referee saw broken (never recorded: a collecting
    referee only reports).
    """

    override: Override | None = None
    overridden: list[tuple[Rule, str]] = field(default_factory=list)
    collects: bool = False
    broken: list[tuple[Rule, str]] = field(default_factory=list)

    @classmethod
    def collecting(cls) -> "Referee":
        """A referee that refuses nothing and notes every rule broken, for audits and reports."""
        return cls(collects=True)

    def require(self, condition: bool, rule: Rule, message: str) -> None:
        """Refuse the move unless ``condition`` holds, or record it as overridden (or broken)."""
        if condition:
            return
        if self.collects:
            self.broken.append((rule, message))
        elif self.override is None:
            raise RuleViolation(rule, message)
        else:
            self.overridden.append((rule, message))

    def broken_messages(self) -> list[str]:
        """Each broken rule: the message, then the rule quoted (a :class:`Broken`)."""
        return [Broken(rule, message) for rule, message in self.broken]


class DiceNeeded(InvalidCommand):
    """The command needs dice it does not carry: deciding never rolls.

    Names the roll (``roll``, unique within the command), how many dice of how many sides, and
    ``throw(rng)``, which rolls exactly those (and any dice they call for, such as top-off dice)
    and returns ``(faces, extra faces)``. The shell rolls once, puts the throw in the command's
    ``rolled`` mapping under ``roll`` and decides again, so a decision retried after a write
    conflict reuses the same faces. It also answers "how many dice would this roll use?".
    """

    def __init__(self, roll: str, dice: int, sides: int,
                 throw: Callable[[Random], tuple[tuple[int, ...], tuple[int, ...]]]):
        self.roll, self.dice, self.sides, self.throw = roll, dice, sides, throw
        super().__init__(f"{self.named()} needs {dice}d{sides}: enter the faces rolled at the table")

    def named(self) -> str:
        """The roll in words: ``the roll`` (the move's one roll), else ``the damage roll``."""
        return "the roll" if self.roll == "roll" else f"the {self.roll} roll"

    def uses(self) -> str:
        """What the move would take from the table, in words: ``the damage roll uses 2d6``."""
        return f"{self.named()} uses {self.dice}d{self.sides}"


def invalid(condition: bool, message: str) -> None:
    """Raise :class:`InvalidCommand` unless ``condition`` holds."""
    if not condition:
        raise InvalidCommand(message)


def present(value: T | None, message: str) -> T:
    """``value``, or :class:`InvalidCommand` with ``message`` when it is missing (None).

    The typed form of ``invalid(value is not None, message)``: the result is known not to be None.
    """
    if value is None:
        raise InvalidCommand(message)
    return value
