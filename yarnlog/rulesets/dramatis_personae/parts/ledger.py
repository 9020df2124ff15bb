"""The ledger of dice: saved good and bad dice, the adventure's pool and dice debt, per character.

Every movement is kept with the event, episode, scene and rule that moved it. Adventures are
declared by the GM (an episode or a run of episodes: digest section 1); starting one sets each
character's pool to level² (DP33-DP34, line 67); the GM awards good and bad dice (DP37, line 61)
and may make pool dice available again (DP34). Rolls spend pool dice, borrow (two penalty dice of
debt per die, DP36, reading 3), spend saved dice, apply bad dice and debt, and take penalty dice
in exchange for dice on a roll (line 61): the rolls part records that in each payload's ``economy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field
from pyrsistent import PVector, pvector

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.dramatis_personae.parts.characters import (
    BuyLevel,
    CharacterCreated,
    Characters,
    LevelBought,
    sheet_of,
)
from yarnlog.rulesets.dramatis_personae.rules.advancement import POOL, check_level_purchase, level_cost, pool_size

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState


class HoldsLedger(Protocol):
    """The slices of a campaign's state this part reads (the state composes every part's slice)."""

    @property
    def characters(self) -> Characters: ...
    @property
    def ledger(self) -> Ledger: ...


#: A campaign as this part sees it.
DPCampaign: TypeAlias = "CampaignState[HoldsLedger]"

TEXT_LIMIT = 4000
BALANCES = ("good", "bad", "pool", "debt")


class DiceUse(BaseModel):
    """What one character's roll did to the ledger."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    character: str
    pool: int = Field(default=0, ge=0)  # pool dice used (from the pool left)
    borrowed: int = Field(default=0, ge=0)  # dice added with the pool empty (DP36)
    saved: int = Field(default=0, ge=0)  # saved good dice spent
    bad: int = Field(default=0, ge=0)  # saved bad dice applied by the GM
    debt: int = Field(default=0, ge=0)  # dice of debt applied (reading 3)
    accepted: int = Field(default=0, ge=0)  # penalty dice taken to modify the roll (line 61)


@event("dramatis-personae.adventure.started")
class AdventureStarted(Payload):
    """The GM declares an adventure: each character's pool is level² floating dice (DP33, line 67)."""

    gm_records = "an adventure"

    title: str = Field(default="", max_length=200)
    pools: dict[str, int] = Field(default_factory=dict)


@event("dramatis-personae.adventure.ended")
class AdventureEnded(Payload):
    """The adventure ends: unused pool dice are gone until the next (DP34, line 67)."""

    gm_records = "an adventure"

    title: str = Field(default="", max_length=200)


@event("dramatis-personae.dice.awarded")
class DiceAwarded(Payload):
    """Good (bonus) or bad (penalty) dice the GM awards for play, with the reason (DP37, line 61)."""

    gm_records = "a dice award"

    character: str
    kind: Literal["good", "bad"]
    dice: int = Field(ge=1, le=1000)
    reason: str = Field(min_length=1, max_length=TEXT_LIMIT)


@event("dramatis-personae.pool.restored")
class PoolRestored(Payload):
    """The GM determines pool dice are available again (DP34, line 67): a ruling."""

    gm_records = "a ruling"

    character: str
    dice: int = Field(ge=1, le=10000)
    ruling: str = Field(min_length=1, max_length=TEXT_LIMIT)


@dataclass(frozen=True)
class Balance:
    good: int = 0
    bad: int = 0
    pool: int = 0
    debt: int = 0


@dataclass(frozen=True)
class Movement:
    """One movement of one balance, tied to its event, scene and rule."""

    sequence: int
    episode: int | None
    scene: int | None
    character: str
    balance: str
    change: int
    after: int
    rule: str
    what: str


@dataclass(frozen=True)
class Ledger:
    balances: dict[str, Balance] = field(default_factory=dict)
    movements: PVector[Movement] = field(default_factory=pvector)
    adventure: str | None = None  # the adventure in play, if any

    def balance(self, character: str) -> Balance:
        return self.balances.get(character, Balance())


@dataclass(frozen=True)
class StartAdventure:
    title: str = ""


@dataclass(frozen=True)
class EndAdventure:
    pass


@dataclass(frozen=True)
class AwardDice:
    character: str
    kind: str
    dice: int
    reason: str


@dataclass(frozen=True)
class RestorePool:
    character: str
    dice: int
    ruling: str


def decide(command: Any, campaign: DPCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, StartAdventure):
        return [validate_started(AdventureStarted(title=command.title), campaign, referee)]
    if isinstance(command, EndAdventure):
        return [validate_ended(AdventureEnded(title=campaign.rules.ledger.adventure or ""), campaign, referee)]
    if isinstance(command, AwardDice):
        invalid(command.kind in ("good", "bad"), f"dice awarded are good or bad, not {command.kind!r}")
        return [validate_awarded(DiceAwarded(character=command.character, kind=command.kind,
                                             dice=command.dice, reason=command.reason), campaign, referee)]
    if isinstance(command, RestorePool):
        return [validate_restored(PoolRestored(character=command.character, dice=command.dice,
                                               ruling=command.ruling), campaign, referee)]
    if isinstance(command, BuyLevel):
        sheet = sheet_of(campaign, command.character)
        return [validate_level(LevelBought(character=sheet.name, level=sheet.level + 1,
                                           cost=level_cost(sheet.level + 1)), campaign, referee)]
    return None


def validate_started(p: AdventureStarted, campaign: DPCampaign, referee: Referee) -> AdventureStarted:
    ledger = campaign.rules.ledger
    invalid(ledger.adventure is None, f"the adventure {ledger.adventure} is in play: end it first")
    pools = {name: pool_size(sheet.level) for name, sheet in campaign.rules.characters.pcs.items()}
    return p.model_copy(update={"pools": pools})


def validate_ended(p: AdventureEnded, campaign: DPCampaign, referee: Referee) -> AdventureEnded:
    ledger = campaign.rules.ledger
    invalid(ledger.adventure is not None, "no adventure is in play")
    return p.model_copy(update={"title": ledger.adventure or ""})


def validate_awarded(p: DiceAwarded, campaign: DPCampaign, referee: Referee) -> DiceAwarded:
    invalid(p.character in campaign.rules.characters.pcs, f"no character is called {p.character}")
    return p


def validate_restored(p: PoolRestored, campaign: DPCampaign, referee: Referee) -> PoolRestored:
    """Pool dice used come back by the GM's ruling, never beyond level² (DP34, line 67)."""
    sheet = campaign.rules.characters.pcs.get(p.character)
    invalid(sheet is not None, f"no character is called {p.character}")
    assert sheet is not None
    ledger = campaign.rules.ledger
    invalid(ledger.adventure is not None, "pool dice are restored during an adventure: none is in play")
    used = pool_size(sheet.level) - ledger.balance(p.character).pool
    referee.require(p.dice <= used, POOL, f"{p.character} has used {used} pool dice: {p.dice} cannot come back")
    return p


def evolve(ledger: Ledger, recorded: Recorded, _state: Any = None) -> Ledger:
    p = recorded.payload
    moves: list[tuple[str, str, int, str, str]] = []  # character, balance, change, rule, what
    adventure = ledger.adventure
    if isinstance(p, AdventureStarted):
        adventure = p.title or f"adventure at event {recorded.sequence}"
        for name, dice in p.pools.items():
            moves.append((name, "pool", dice - ledger.balance(name).pool, "DP33, line 67",
                          f"pool of level² for {adventure}"))
    elif isinstance(p, AdventureEnded):
        adventure = None
        for name, balance in ledger.balances.items():
            if balance.pool:
                moves.append((name, "pool", -balance.pool, "DP34, line 67", "unused pool dice lapse"))
    elif isinstance(p, DiceAwarded):
        moves.append((p.character, p.kind, p.dice, "DP37, line 61", p.reason))
    elif isinstance(p, PoolRestored):
        moves.append((p.character, "pool", p.dice, "DP34, line 67", p.ruling))
    elif isinstance(p, LevelBought):
        moves.append((p.character, "good", -p.cost, "DP38, line 65", f"level {p.level} bought"))
    elif isinstance(p, CharacterCreated) and adventure is not None and p.level:
        # a character joining an adventure in play has its pool for it too: level² "in an adventure" (DP33)
        moves.append((p.name, "pool", pool_size(p.level), "DP33, line 67", f"pool of level² for {adventure}"))
    for use in getattr(p, "economy", ()):
        moves.extend(_uses(use))
    if not moves and adventure == ledger.adventure:
        return ledger
    balances = dict(ledger.balances)
    movements = ledger.movements
    for character, which, change, rule, what in moves:
        if not change:
            continue
        before = balances.get(character, Balance())
        after = getattr(before, which) + change
        balances[character] = replace(before, **{which: after})
        movements = movements.append(Movement(recorded.sequence, recorded.episode, recorded.scene, character, which,
                                              change, after, rule, what))
    return Ledger(balances, movements, adventure)


def _uses(use: DiceUse) -> list[tuple[str, str, int, str, str]]:
    name = use.character
    return [
        (name, "pool", -use.pool, "DP35, line 69", f"{use.pool} pool dice added to a roll"),
        (name, "debt", 2 * use.borrowed, "DP36, line 69; reading 3", f"{use.borrowed} dice borrowed: dice debt"),
        (name, "good", -use.saved, "DP37, line 63", f"{use.saved} saved bonus dice spent on a roll"),
        (name, "bad", -use.bad, "DP37, line 63", f"{use.bad} saved penalty dice applied to a roll"),
        (name, "debt", -use.debt, "DP36, line 69; reading 3", f"{use.debt} dice of debt applied to a roll"),
        (name, "bad", use.accepted, "DP37, line 61", f"{use.accepted} penalty dice taken to modify a roll"),
    ]


def validate_level(p: LevelBought, campaign: DPCampaign, referee: Referee) -> LevelBought:
    """One level at a time, 10 × the new level saved good dice, between adventures (DP38, DP39)."""
    sheet = sheet_of(campaign, p.character)
    ledger = campaign.rules.ledger
    check_level_purchase(sheet.level, p.level, ledger.balance(sheet.name).good, ledger.adventure is not None,
                         referee)
    return p.model_copy(update={"cost": level_cost(p.level)})


PART = Part(name="ledger", initial=Ledger, evolve=evolve,
            folds=folds(AdventureStarted, AdventureEnded, DiceAwarded, PoolRestored, LevelBought, CharacterCreated,
                        carrying=("economy",)),
            decide=decide,
            validators={AdventureStarted: validate_started, AdventureEnded: validate_ended,
                        DiceAwarded: validate_awarded, PoolRestored: validate_restored,
                        LevelBought: validate_level})
