"""The journal's record of fringe powers and spells: the ``powers`` part's events and its slice.

Psychic pools and their shots, fringe powers and spells learnt, spells cast (the rules are
:mod:`.fringe_powers` and :mod:`.magic`). Rolls that take shots are ``yarn.roll.made`` events;
:func:`evolve` folds their shots into the pools.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field
from pyrsistent import PMap, pmap

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    RollMade,
)
from yarnlog.rulesets.yarn.rules import fringe_powers
from yarnlog.rulesets.yarn.rules.fringe_powers import PsychicPool

if TYPE_CHECKING:
    pass

POOL = "psychic pool"


class PowerDice(BaseModel):
    """A fringe power fuelled by the pool: ``dice`` None means the trait's dice on the PC's sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    dice: int | None = None


@event("yarn.psychic.pool_gained")
class PsychicPoolGained(Payload):
    """A character's psychic pool: one die per power rolled (the highest counts), or 3 shots taken."""

    character: str
    pool_name: str = POOL
    powers: list[PowerDice] = Field(min_length=1)
    rolls: list[int] = Field(default_factory=list)
    source: Literal["three shots", "entered", "rolled"]
    shots: int


@event("yarn.psychic.recovered")
class ShotsRecovered(Payload):
    """Shots back after in-game hours: "Psychic shots return 100% in 24 hours." ``rate``: the GM's ruling."""

    character: str
    hours: str
    rate: str = "1"
    shots_before: int
    shots: int


@event("yarn.psychic.shots_bought")
class ShotsBought(Payload):
    """Shots added to the pool for 2 experience dice each."""

    character: str
    shots: int = Field(ge=1)
    experience_spent: int
    capacity: int


@event("yarn.power.studied")
class FringePowerStudied(Payload):
    """A month of study closed by rolling the experience dice given up: a 6 brings the power."""

    character: str
    power: str
    months: float
    full_time: bool
    teacher: bool
    faces: list[int]
    source: Literal["entered", "rolled"]
    success_face: int = fringe_powers.LEARNING_SUCCESS_FACE
    psi_mute_roll: int | None = None
    psi_mute: bool = False
    learned: bool
    dice: int | None = None
    shots: int | None = None
    experience_spent: int


@event("yarn.spell.studied")
class SpellStudied(Payload):
    """A week of study of a spell: 5 experience dice, and one more die each week until the level is met."""

    character: str
    spell: str
    level: int = Field(ge=1)
    hours_per_day: float
    week: int
    faces: list[int]
    source: Literal["entered", "rolled"]
    total: int
    learned: bool
    botched: bool
    experience_spent: int
    shots: int | None = None


@event("yarn.spell.cast")
class SpellCast(Payload):
    """A spell cast for a shot ("Under normal conditions, the spell always works")."""

    character: str
    spell: str
    level: int = Field(ge=1)
    purpose: str = ""
    shots: int = 1


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """A character's psychic pool (by whatever name he knows it) and the powers it fuels."""

    name: str
    capacity: int
    shots: int
    powers: Mapping[str, int | None] = field(default_factory=dict)

    def psychic_pool(self) -> PsychicPool:
        return PsychicPool(self.capacity, self.shots)


@dataclass(frozen=True)
class SpellProgress:
    level: int
    dice_rolled: int
    learned: bool


@dataclass(frozen=True)
class Powers:
    """The part's slice: pools by character, spell studies by (character, spell), casts by sequence."""

    pools: Mapping[str, Pool] = field(default_factory=dict)
    spells: Mapping[tuple[str, str], SpellProgress] = field(default_factory=dict)
    casts: PMap[int, Recorded] = field(default_factory=pmap)  # persistent: a cast added shares the rest
    psi_mute: Mapping[str, bool] = field(default_factory=dict)  # the secret die, once rolled
    tried: frozenset[str] = frozenset()  # characters who tried to learn a fringe power


def _with_pool(powers: Powers, character: str, pool: Pool) -> Powers:
    return replace(powers, pools={**powers.pools, character: pool})


def _gained(powers: Powers, character: str, shots: int | None) -> Powers:
    """A first power or spell brings a pool of ``shots``; an existing pool stays as it is."""
    if shots is None or character in powers.pools:
        return powers
    return _with_pool(powers, character, Pool(POOL, shots, shots))


FOLDS = folds(RollMade, PsychicPoolGained, ShotsRecovered, ShotsBought, FringePowerStudied, SpellStudied, SpellCast)


def evolve(powers: Powers, recorded: Recorded, _state: object = None) -> Powers:
    p = recorded.payload
    character = getattr(p, "character", None)
    pool = powers.pools.get(character) if isinstance(character, str) else None
    if isinstance(p, RollMade):
        if p.psychic is None or pool is None:
            return powers
        return _with_pool(powers, p.character, replace(pool, shots=max(0, pool.shots - p.psychic.shots)))
    if isinstance(p, PsychicPoolGained):
        return _with_pool(powers, p.character, Pool(p.pool_name, p.shots, p.shots,
                                                    {power.name: power.dice for power in p.powers}))
    if isinstance(p, ShotsRecovered) and pool is not None:
        return _with_pool(powers, p.character, replace(pool, shots=p.shots))
    if isinstance(p, ShotsBought) and pool is not None:
        return _with_pool(powers, p.character, replace(pool, capacity=p.capacity, shots=pool.shots + p.shots))
    if isinstance(p, FringePowerStudied):
        powers = replace(powers, tried=powers.tried | {p.character},
                         psi_mute={**powers.psi_mute, p.character: p.psi_mute} if p.psi_mute_roll else powers.psi_mute)
        if not p.learned:
            return powers
        powers = _gained(powers, p.character, p.shots)
        pool = powers.pools.get(p.character)
        if pool is None:  # no pool to learn into: verify names the event, the fold never refuses
            return powers
        return _with_pool(powers, p.character, replace(pool, powers={**pool.powers, p.power: p.dice}))
    if isinstance(p, SpellStudied):
        progress = SpellProgress(p.level, p.week, p.learned)
        powers = replace(powers, spells={**powers.spells, (p.character, p.spell): progress})
        return _gained(powers, p.character, p.shots if p.learned else None)
    if isinstance(p, SpellCast):
        powers = replace(powers, casts=powers.casts.set(recorded.sequence, recorded))
        if pool is None:
            return powers
        return _with_pool(powers, p.character, replace(pool, shots=max(0, pool.shots - p.shots)))
    return powers


class PowersBuilder:
    """The slice thawed for a replay (a :class:`~yarnlog.core.ruleset.SliceBuilder`): dicts and a set
    changed in place, frozen into a new :class:`Powers` by :meth:`freeze`. Folds as :func:`evolve` does."""

    def __init__(self, powers: Powers):
        self.pools = dict(powers.pools)
        self.spells = dict(powers.spells)
        self.casts = dict(powers.casts)
        self.psi_mute = dict(powers.psi_mute)
        self.tried = set(powers.tried)

    def _gained(self, character: str, shots: int | None) -> None:
        if shots is not None and character not in self.pools:
            self.pools[character] = Pool(POOL, shots, shots)

    def fold(self, recorded: Recorded, _before: object = None) -> None:
        p = recorded.payload
        character = getattr(p, "character", None)
        pool = self.pools.get(character) if isinstance(character, str) else None
        if isinstance(p, RollMade):
            if p.psychic is not None and pool is not None:
                self.pools[p.character] = replace(pool, shots=max(0, pool.shots - p.psychic.shots))
        elif isinstance(p, PsychicPoolGained):
            powers = {power.name: power.dice for power in p.powers}
            self.pools[p.character] = Pool(p.pool_name, p.shots, p.shots, powers)
        elif isinstance(p, ShotsRecovered) and pool is not None:
            self.pools[p.character] = replace(pool, shots=p.shots)
        elif isinstance(p, ShotsBought) and pool is not None:
            self.pools[p.character] = replace(pool, capacity=p.capacity, shots=pool.shots + p.shots)
        elif isinstance(p, FringePowerStudied):
            self.tried.add(p.character)
            if p.psi_mute_roll:
                self.psi_mute[p.character] = p.psi_mute
            if p.learned:
                self._gained(p.character, p.shots)
                learned_into = self.pools.get(p.character)
                if learned_into is not None:  # no pool to learn into: verify names the event
                    self.pools[p.character] = replace(learned_into, powers={**learned_into.powers, p.power: p.dice})
        elif isinstance(p, SpellStudied):
            self.spells[(p.character, p.spell)] = SpellProgress(p.level, p.week, p.learned)
            self._gained(p.character, p.shots if p.learned else None)
        elif isinstance(p, SpellCast):
            self.casts[recorded.sequence] = recorded
            if pool is not None:
                self.pools[p.character] = replace(pool, shots=max(0, pool.shots - p.shots))

    def freeze(self) -> Powers:
        return Powers(pools=dict(self.pools), spells=dict(self.spells), casts=pmap(self.casts),
                      psi_mute=dict(self.psi_mute), tried=frozenset(self.tried))
