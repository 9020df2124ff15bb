"""Hit points in play: wounds, messed up, down for the count, death, and recovery after a fight.

Implements Yarn 0.1, "Combat" › "Damage Effects" (Messed Up, Down for the Count, Character
Death), "Recovery" and "Hit Point Recovery Conventions". :class:`HitPointState` is a frozen value
folded over damage, recovery and (in :mod:`.healing`) the days that pass. Starting hit points
are worked out in :mod:`.traits`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, Balances, Transfer, require_affordable

BOOK = "Yarn 0.1"

MESSED_UP = Rule(
    BOOK,
    "Combat › Messed Up",
    "If the target is now at half or less their normal hit points, they suffer a penalty die on all "
    "actions until they recover to more than half their normal hit points.",
)
DOWN_FOR_THE_COUNT = Rule(
    BOOK,
    "Combat › Down for the Count",
    "If the target is at 0 hit points or below, they are out of the fight.",
)
CHARACTER_DEATH = Rule(
    BOOK,
    "Combat › Character Death",
    "As a rule of thumb, a character dies when he has taken twice as many points of damage as he has "
    "hit points. ... In order to survive, you need medical attention and a reason to live.",
)
DEATH_TOKEN = Rule(
    BOOK,
    "Combat › Character Death",
    "A player whose character dies may spend a Drama Token to: Call an immediate scene where their "
    "character shares a few last words; Have the character vanish possibly to return later either as "
    "a recurring character or as their PC; Perform one last act of heroic sacrifice",
)
RECOVERY = Rule(
    BOOK,
    "Combat › Hit Point Recovery Conventions",
    "Hit point level after recovery is halfway between the wounded level and the last level after "
    "recovery. ... Round hit points up, if half-way recovery results in a fraction.",
)

#: "every character recovers half of the lost hit points" (the GM may change the fraction).
HALFWAY = Fraction(1, 2)


@dataclass(frozen=True)
class HitPointState:
    """A character's hit points in play.

    ``current`` is what the character has now, taser damage included; ``temporary`` is how much
    of the loss is taser damage; ``last_recovered`` is "the last level after recovery" (the
    unwounded level until the first recovery); ``healing_progress`` is the fraction of a point
    banked by slow healing ("1 per 2 days").
    """

    maximum: int
    current: int
    last_recovered: int
    temporary: int = 0
    healing_progress: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        invalid(self.maximum >= 1, "a character has at least 1 hit point")
        invalid(self.temporary >= 0, "temporary damage is not negative")
        invalid(
            self.current + self.temporary <= self.last_recovered <= self.maximum,
            "hit points stay at or below the last level after recovery, and that at or below the maximum",
        )
        invalid(0 <= self.healing_progress < 1, "banked healing is a fraction of a point")

    @classmethod
    def unwounded(cls, maximum: int) -> HitPointState:
        return cls(maximum=maximum, current=maximum, last_recovered=maximum)

    @property
    def lasting_level(self) -> int:
        """Hit points once the taser damage has come back."""
        return self.current + self.temporary


def take_damage(state: HitPointState, points: int, *, temporary: bool = False) -> HitPointState:
    """Deduct damage from hit points; taser damage is ``temporary`` and recorded separately."""
    invalid(points >= 0, f"damage is not negative, got {points}")
    return replace(state, current=state.current - points, temporary=state.temporary + (points if temporary else 0))


def messed_up(state: HitPointState) -> bool:
    """At half or less of normal hit points ("Messed Up")."""
    return 2 * state.current <= state.maximum


def action_penalty_dice(state: HitPointState) -> int:
    """The penalty die on all actions of a messed-up character (the GM may add specific debilities)."""
    return int(messed_up(state))


def down_for_the_count(state: HitPointState) -> bool:
    """At 0 hit points or below: out of the fight."""
    return state.current <= 0


def at_deaths_door(state: HitPointState) -> bool:
    """Taken twice as many points of damage as the character has hit points: dead or checking out.

    "If you have 21 hit points and drop to -21 through wounds" — so the threshold is -maximum.
    Taser damage "does no permanent physical damage", so only lasting damage counts here.
    """
    return state.lasting_level <= -state.maximum


class DeathOutcome(StrEnum):
    LIVES = "lives"
    DIES = "dies"


def face_death(
    referee: Referee,
    state: HitPointState,
    *,
    attempts_recovery: bool,
    gm_accepts_reason_to_live: bool,
    medical_attention: bool,
) -> DeathOutcome:
    """The decision at the point of death: recover or let go ("Character Death").

    The player who attempts to recover tells the GM a reason to live; the character lives only
    if the GM agrees it is sufficient (after any roll she wishes) and medical attention comes.
    """
    referee.require(at_deaths_door(state), CHARACTER_DEATH, "the character is not at the point of death")
    survives = attempts_recovery and gm_accepts_reason_to_live and medical_attention
    return DeathOutcome.LIVES if survives else DeathOutcome.DIES


class DeathOption(StrEnum):
    """What a player whose character dies may spend a drama token on ("Character Death")."""

    LAST_WORDS = "call an immediate scene where their character shares a few last words"
    VANISH = "have the character vanish, possibly to return later as a recurring character or as their PC"
    HEROIC_SACRIFICE = "perform one last act of heroic sacrifice"


#: "may spend a Drama Token to:" each option costs one token.
DEATH_OPTION_COST = 1


def death_option_cost(
    referee: Referee, balances_now: Balances, *, player: str, option: DeathOption
) -> tuple[Transfer, ...]:
    """The drama token a player spends on a dying character's ``option``.

    Like every spent token whose recipient the book does not name, it goes to the kitty.
    """
    transfers = (Transfer(DEATH_OPTION_COST, player, KITTY, DEATH_TOKEN),)
    require_affordable(referee, balances_now, transfers)
    return transfers


def recover(state: HitPointState, *, fraction: Fraction = HALFWAY) -> HitPointState:
    """Hit points after recovery, "when the GM sees such recovery as reasonable".

    Taser damage all comes back; then the level moves ``fraction`` of the way from the wounded
    level back to the last level after recovery (halfway unless the GM rules otherwise),
    rounding up. The result becomes the new last level after recovery.
    """
    invalid(0 <= fraction <= 1, f"recovery regains between none and all of the loss, not {fraction}")
    wounded = state.lasting_level
    level = wounded + math.ceil((state.last_recovered - wounded) * fraction)
    return replace(state, current=level, last_recovered=level, temporary=0)


def regain(state: HitPointState, points: int) -> HitPointState:
    """Hit points regained by healing, up to the normal maximum.

    Healing lifts "the last level after recovery" with it when it passes that level, so a later
    recovery goes back halfway to where the character stood when wounded.
    """
    invalid(points >= 0, "regained hit points are not negative")
    current = min(state.maximum - state.temporary, state.current + points)
    return replace(state, current=current, last_recovered=max(state.last_recovered, current + state.temporary))
