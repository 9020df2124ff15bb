"""Will & Descriptors' state: the characters, the scene's descriptors, the
rolls a harm or a descriptor follows, and the ledger of Will, XP and Advances. Folded by
:mod:`.parts`; never stored as the truth. The campaign's settings are the table's, chosen at ``init``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from pyrsistent import PMap, PVector, pmap, pvector

from yarnlog.rulesets.will_descriptors.rules.harm import is_out
from yarnlog.rulesets.will_descriptors.rules.keys import Framework, advances_earned
from yarnlog.rulesets.will_descriptors.rules.will import DEFAULT_SIDES, DEFAULT_STARTING_WILL, out_of_will

if TYPE_CHECKING:
    from yarnlog.core.state import CampaignState


@dataclass(frozen=True)
class Settings:
    """The numbers the draft leaves open, chosen for the campaign at ``init`` (readings 1 and 15)."""

    track: int | None = None  # the Power track's boxes; None unless chosen (reading 1)
    starting_will: int = DEFAULT_STARTING_WILL  # W1, line 2
    sides: int = DEFAULT_SIDES  # W4, line 3


def settings_of(campaign: CampaignState[object]) -> Settings:
    """The campaign's settings as recorded in its first event (:data:`.ruleset.SETTINGS`)."""
    chosen = campaign.table.settings
    return Settings(chosen.get("track"), chosen.get("starting_will", DEFAULT_STARTING_WILL),
                    chosen.get("sides", DEFAULT_SIDES))


@dataclass(frozen=True)
class Descriptor:
    name: str
    dice: int
    category: str = ""
    stuck: bool = False  # a Scene Descriptor made to stick (W14)


@dataclass(frozen=True)
class Character:
    name: str
    player: str
    starting_will: int
    will: int
    track: int
    crossed: frozenset[int] = frozenset()
    descriptors: Mapping[str, Descriptor] = field(default_factory=dict)
    injuries: Mapping[str, int] = field(default_factory=dict)
    background: tuple[str, ...] = ()
    keys: Mapping[str, Framework] = field(default_factory=dict)
    xp: int = 0
    advances_spent: int = 0

    @property
    def out(self) -> bool:
        """Out of the scene: 0 Will (W3) or the highest box crossed (W18); derived, never entered."""
        return out_of_will(self.will) or is_out(self.crossed, self.track)

    @property
    def why_out(self) -> str:
        return "0 Will (W3)" if out_of_will(self.will) else "the highest box crossed (W18)"

    @property
    def advances(self) -> int:
        """Unspent Advances: every 5 XP is one (W27), less those spent."""
        return advances_earned(self.xp) - self.advances_spent


@dataclass(frozen=True)
class SceneDescriptor:
    name: str
    dice: int
    scene: int | None
    roll: int  # the roll whose successes made it (W13)
    about: str | None = None


@dataclass(frozen=True)
class Roll:
    """What a harm, a Scene Descriptor or a shift needs of a roll decided before."""

    sequence: int
    winner: str | None  # the winning character (None: the Injury of a Recovery roll, or a stalemate)
    loser: str | None
    successes: int
    stalemate: bool
    recovery: bool = False
    harmed: bool = False
    described: bool = False
    shifted: bool = False


@dataclass(frozen=True)
class LedgerEntry:
    """One movement of Will, XP or Advances: whose, how much, the balance after, where and by which rule."""

    character: str
    currency: str  # "will", "xp" or "advances"
    amount: int
    balance: int
    sequence: int
    scene: int | None
    rule: str
    what: str


@dataclass(frozen=True)
class WillState:
    characters: Mapping[str, Character] = field(default_factory=dict)
    scene_descriptors: Mapping[str, SceneDescriptor] = field(default_factory=dict)
    rolls: PMap[int, Roll] = field(default_factory=pmap)
    last_roll: int | None = None
    ledger: PVector[LedgerEntry] = field(default_factory=pvector)


#: A campaign played under Will & Descriptors, as its deciders and projections see it.
WillCampaign: TypeAlias = "CampaignState[WillState]"
