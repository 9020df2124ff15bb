"""What differs between the rulesets that compose the shared core (digest 001, section 5).

Yarn 0.1 took DramaSystem's dramatic text nearly word for word; the few differences are the
fields of one frozen :class:`Dramatic`, given by each ruleset, so the core's deciders never ask
which ruleset they serve. The core reaches a ruleset's own data (which characters exist and who
plays them, how a precedence order is drawn) only through the hooks named here, never by
importing a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee, Rule
from yarnlog.core.ruleset import CampaignState
from yarnlog.rulesets.scenes_and_tokens.rules.calling import CallPrice

#: The name under which the core's rules quote the text both books share (Yarn's journals store it).
SHARED_BOOK = "Yarn 0.1"


class PlayerCharacter(Protocol):
    """What the core reads of a player character's sheet."""

    @property
    def player(self) -> str: ...

    @property
    def active(self) -> bool: ...


class SupportingCharacter(Protocol):
    """What the core reads of a supporting character: ``kind`` is ``"minor"`` or ``"recurring"``."""

    @property
    def kind(self) -> str: ...


class Roster(Protocol):
    """The characters of a campaign as the core sees them (Yarn's ``Characters`` is one, DramaSystem's
    ``Sheets`` another): the player characters, the supporting cast, and the
    :class:`~yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast.Cast` (locations, precedence, themes)."""

    @property
    def pcs(self) -> Mapping[str, Any]: ...

    @property
    def supporting(self) -> Mapping[str, Any]: ...

    @property
    def cast(self) -> Any: ...

    @property
    def relationships(self) -> Mapping[frozenset[str], Any]: ...


def _cannot_draw(campaign: CampaignState[Any], referee: Referee, order: tuple[str, ...], source: str) -> list[Payload]:
    return []


@dataclass(frozen=True)
class Dramatic:
    """One ruleset's side of the shared core.

    ``book`` names the book in refusals; ``lines`` maps a chapter of the shared text to where the
    ruleset's own book says it (``"Gaining Tokens": "DS21, lines 319-323"``), so a refusal cites
    the ruleset's numbers (:meth:`cite`). ``roster(campaign)`` gives the campaign's characters and
    cast (its state's ``roster``); ``draw_petitioners(campaign, referee, order, source)`` the events
    recording a precedence order drawn now for several petitioners
    ("Multiple Petitioners": "in a newly drawn precedence order"). ``procedural_call_price`` is what
    calling a procedural scene without your character costs (:mod:`..rules.calling`): a drama
    token in Yarn (Yarn 788), a green procedural token in DramaSystem (DS33, lines 441, 792).
    ``wants_before_play``: whether the first episode is refused while a PC is the object of fewer than
    two other PCs' wants (Step 14 of character creation, the same words in both books: Yarn 273, DS9
    line 51; :mod:`..parts.relationship_map`). DramaSystem holds play to it; Yarn only says so in its
    ``relationships`` report, because its journals (its tests' among them) have started play without
    wants since long before the check existed, and a refusal would make them fail ``verify``.
    """

    book: str
    roster: Callable[[CampaignState[Any]], Roster]
    lines: Mapping[str, str] = field(default_factory=dict)
    draw_petitioners: Callable[[CampaignState[Any], Referee, tuple[str, ...], str], list[Payload]] = _cannot_draw
    procedural_call_price: CallPrice = CallPrice.DRAMA_TOKEN
    words: Mapping[Rule, str] = field(default_factory=dict)
    wants_before_play: bool = False

    def cite(self, rule: Rule) -> Rule:
        """``rule`` (quoted from the shared text) as this ruleset's book has it: its place in the
        book, and its own words where they differ (``words``)."""
        if rule.book != SHARED_BOOK or self.book == SHARED_BOOK:
            return rule
        where = self.lines.get(rule.chapter)
        return Rule(f"{self.book}{f' ({where})' if where else ''}", rule.chapter, self.words.get(rule, rule.text))

    def referee(self, referee: Referee) -> Referee:
        """``referee``, citing this ruleset's book: the same override, notes and collection."""
        if self.book == SHARED_BOOK:  # the shared text is quoted under this book's name already
            return referee
        return CitingReferee(override=referee.override, overridden=referee.overridden, collects=referee.collects,
                             broken=referee.broken, dramatic=self)


@dataclass
class CitingReferee(Referee):
    """A referee that names the ruleset's own book for a rule of the shared text; what it notes
    (rules overridden or broken) is noted in the lists of the referee it stands for."""

    dramatic: Dramatic | None = None

    def require(self, condition: bool, rule: Rule, message: str) -> None:
        super().require(condition, self.dramatic.cite(rule) if self.dramatic else rule, message)
