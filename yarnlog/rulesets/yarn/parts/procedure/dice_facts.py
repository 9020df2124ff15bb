"""Dice as recorded facts: what was rolled, every face in order, which dice were kept.

Events store dice this way, so replay never re-rolls: the faces were either entered from the
physical dice at the table (and checked) or rolled once by the tool from a secure source. Deciding
never rolls: missing faces raise :class:`~yarnlog.core.referee.DiceNeeded` and the shell rolls them
into the command's ``rolled`` mapping (``{roll name: (faces, top-off faces)}``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.referee import DiceNeeded
from yarnlog.rulesets.yarn.rules.dice import NO_OPTIONS, SIDES, RollOptions, RollResult, RollSpec, read_roll, roll

ENTERED = "entered"
ROLLED = "rolled"


class DiceFacts(BaseModel):
    """One roll's dice, as stored in an event."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    dice: int = Field(ge=0)
    bonus: int = Field(default=0, ge=0)
    penalty: int = Field(default=0, ge=0)
    experience: int = Field(default=0, ge=0)
    faces: list[int]
    kept: list[int]
    top_off: list[int] = Field(default_factory=list)
    total: int
    notation: str
    source: Literal["entered", "rolled"]

    @classmethod
    def of(cls, result: RollResult, source: str) -> "DiceFacts":
        spec = result.spec
        return cls(
            dice=spec.dice, bonus=spec.bonus, penalty=spec.penalty, experience=spec.experience,
            faces=list(result.faces), kept=list(result.kept), top_off=list(result.top_off),
            total=result.total, notation=spec.notation(), source=source,
        )

    def spec(self) -> RollSpec:
        return RollSpec(self.dice, self.bonus, self.penalty, self.experience)

    def result(self) -> RollResult:
        """The roll rebuilt from its recorded faces (checked again, never re-rolled)."""
        return RollResult(self.spec(), tuple(self.faces), tuple(self.top_off))

    def describe(self) -> str:
        return self.result().describe()


def take_dice(
    spec: RollSpec,
    faces: Sequence[int] | None,
    options: RollOptions = NO_OPTIONS,
    *,
    top_off: Sequence[int] = (),
    rolled: Mapping[str, tuple[Sequence[int], Sequence[int]]] | None = None,
    name: str = "roll",
) -> DiceFacts:
    """Dice entered from the table (``faces`` given), else rolled by the tool before deciding
    (``rolled[name]``), both checked; neither: :class:`DiceNeeded`, never a roll here."""
    if faces is not None:
        return DiceFacts.of(read_roll(spec, faces, options, top_off), ENTERED)
    thrown = (rolled or {}).get(name)
    if thrown is None:
        raise DiceNeeded(name, spec.rolled, SIDES, lambda rng: throw(spec, options, rng))
    return DiceFacts.of(read_roll(spec, tuple(thrown[0]), options, tuple(thrown[1])), ROLLED)


def throw(spec: RollSpec, options: RollOptions, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shell's throw of one roll's dice (and its top-off dice): faces and top-off faces."""
    result = roll(spec, rng, options=options)
    return tuple(result.faces), tuple(result.top_off)
