"""The events of rolls: a challenge (and a ranged attack, finishing blow, wound roll, retry), a contest or
melee round, a fight's end and a GM's ruling, each with every source of its dice (DP6-DP32, lines 73-221).
Deciding and checking them is :mod:`.rolls`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.events import Payload, event
from yarnlog.rulesets.dramatis_personae.parts.ledger import DiceUse
from yarnlog.rulesets.dramatis_personae.rules.contests import Outcome
from yarnlog.rulesets.dramatis_personae.rules.difficulty import Tier
from yarnlog.rulesets.dramatis_personae.rules.modifiers import Band

TEXT_LIMIT = 4000


class AttributeUse(BaseModel):
    """A Strength or Weakness the GM rated relevant to this task (DP7, line 37), or a Minutia precisely
    appropriate to it (line 43)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    trait: str
    relevance: Literal["related", "precise"]
    kind: Literal["strength", "weakness", "minutia"] = "strength"
    dice: int = 0


class ModifierUse(BaseModel):
    """A modifier of a table by its label, or the GM's own (``gm``, any text and dice, line 152)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    table: Literal["challenge", "melee", "ranged", "gm"]
    label: str = Field(min_length=1, max_length=200)
    dice: int


class TimeUse(BaseModel):
    """The task's normal time and the time taken, on the time chart (DP20-DP21, lines 126-144)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    normal: str
    taken: str
    dice: int = 0


class RollFacts(BaseModel):
    """One character's roll: every source of dice, the faces, the three kept and the total."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    character: str
    attributes: list[AttributeUse] = Field(default_factory=list, max_length=50)
    modifiers: list[ModifierUse] = Field(default_factory=list, max_length=50)
    band: Band | None = None
    time: TimeUse | None = None
    held: int = Field(default=0, ge=0)  # penalty dice in hand from this fight (reading 7)
    pool: int = Field(default=0, ge=0)  # pool dice added before the roll, borrowed ones included
    saved: int = Field(default=0, ge=0)
    bad: int = Field(default=0, ge=0)
    debt: int = Field(default=0, ge=0)
    accepted: int = Field(default=0, ge=0)
    after_pool: int = Field(default=0, ge=0)
    after_accepted: int = Field(default=0, ge=0)
    net: int = 0
    faces: list[int] = Field(max_length=500)
    after_faces: list[int] = Field(default_factory=list, max_length=500)
    kept: list[int] = Field(default_factory=list)
    total: int = 0
    source: Literal["entered", "rolled"] = "entered"

    def sources(self) -> list[tuple[str, int]]:
        """Every source of dice before the roll, signed, as a sheet or recap lists them."""
        told = [(f"{a.kind} {a.trait} ({a.relevance})", a.dice) for a in self.attributes]
        told += [(m.label, m.dice) for m in self.modifiers]
        if self.band is not None:
            told.append((f"range {self.band.value}", self.band.dice))
        if self.time is not None:
            told.append((f"time {self.time.taken} for {self.time.normal}", self.time.dice))
        for label, dice in (("penalty dice in hand", -self.held), ("pool dice", self.pool),
                            ("saved bonus dice", self.saved), ("penalty dice taken", self.accepted),
                            ("saved penalty dice", -self.bad), ("dice debt", -self.debt)):
            if dice:
                told.append((label, dice))
        return told


@event("dramatis-personae.challenge.rolled")
class ChallengeRolled(Payload):
    """A challenge roll against a number (DP6-DP23): also a ranged attack (DP31-DP32), a finishing
    blow (DP27), a wound roll after a melee (line 221), or a retry after a failure (DP22)."""

    kind: Literal["challenge", "ranged", "finishing-blow", "wound"] = "challenge"
    difficulty: int = Field(ge=4, le=18)
    task: str = Field(default="", max_length=TEXT_LIMIT)
    roll: RollFacts
    retry_of: int | None = None
    fight: str | None = None
    target: str | None = None  # the loser a finishing blow finishes
    tier: Tier = Tier.PARTIAL_FAILURE
    wound: str | None = None
    odds: dict[str, str] = Field(default_factory=dict)  # tier -> exact prior chance, before the dice
    economy: list[DiceUse] = Field(default_factory=list)
    #: a wound roll only (line 221): other characters' saved bonus dice their players apply to it, and
    #: opponents' penalty dice held from the fight that the GM applies, with the GM's ruling
    lent: dict[str, int] = Field(default_factory=dict, max_length=20)
    opposed: dict[str, int] = Field(default_factory=dict, max_length=20)
    ruling: str = Field(default="", max_length=TEXT_LIMIT)

    def gm_only(self) -> str:
        """An opponent's penalty dice on a wound roll are the GM's to apply (line 221)."""
        return "an opponent's dice (line 221)" if self.opposed else ""

    def to_data(self) -> dict[str, Any]:
        """As stored: the wound roll's extra dice only where there are any (older events unchanged)."""
        data = super().to_data()
        for name in ("lent", "opposed", "ruling"):
            if not data.get(name):
                data.pop(name, None)
        return data


class Beat(BaseModel):
    """The winner's tier over one other participant, and what a melee result does to that one (DP27)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    loser: str
    tier: Tier
    penalty: int = 0
    outcome: Outcome | None = None


@event("dramatis-personae.contest.rolled")
class ContestRolled(Payload):
    """A contest of two or more (DP24) or a melee round (DP27-DP29): the highest roll wins."""

    melee: bool = False
    fight: str | None = None
    task: str = Field(default="", max_length=TEXT_LIMIT)
    rolls: list[RollFacts] = Field(min_length=2, max_length=20)
    winner: str | None = None
    beats: list[Beat] = Field(default_factory=list)
    #: each side -> its result from its own point of view -> the exact prior chance, before the dice
    odds: dict[str, dict[str, str]] = Field(default_factory=dict)
    economy: list[DiceUse] = Field(default_factory=list)


@event("dramatis-personae.fight.ended")
class FightEnded(Payload):
    """A fight is over: the penalty dice in hand clear (reading 7)."""

    fight: str = Field(min_length=1, max_length=80)


@event("dramatis-personae.ruling.recorded")
class RulingRecorded(Payload):
    """A GM ruling where the book leaves the call to the GM: a tie (reading 2), a contest settled by what
    both declare (DP26), a fight's consequences (DP28), recovery (lines 196-198), a roll not required (DP12)."""

    gm_records = "a ruling"

    about: str = Field(default="", max_length=80)
    ruling: str = Field(min_length=1, max_length=TEXT_LIMIT)
    rule: str = Field(default="", max_length=200)
