"""Long-term healing: the hit points regained (or lost) each in-game day.

Implements Yarn 0.1, "Healing" (the Long-Term Healing table by activity and condition) and the
healing side of the optional "Serious Wounds". The GM applies it whenever play moves on to
another day; :func:`heal_one_day` is folded over those days.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.yarn.rules.damage import SeriousWound, SeriousWoundKind
from yarnlog.rulesets.yarn.rules.hit_points import HitPointState, regain, take_damage

BOOK = "Yarn 0.1"

LONG_TERM_HEALING_RULE = Rule(
    BOOK,
    "Healing",
    "Hit points are regained each day, with the points regained based on the activity undertaken "
    "that day. See the Long-Term Healing table, below, to see how many hit points you recover each day.",
)
GM_MAY_TAKE = Rule(BOOK, "Healing › Long-Term Healing Table", "*May lose hit points, at the GM's option.")
MIS_HEALING = Rule(
    BOOK,
    "Optional Rules for Combat › Serious Wounds",
    "A serious wound that mis-heals without medical attention, such as a severed tendon or a compound "
    "fracture, heals at half the normal rate and leaves the character with a permanent disability",
)
LETHAL_WOUND = Rule(
    BOOK,
    "Optional Rules for Combat › Serious Wounds",
    "A serious wound that leads to death, such as a severe infection or severe damage to the liver, "
    "causes the character to lose hit points every day until proper medical attention is applied.",
)


class Activity(StrEnum):
    ACTIVE = "active"  # exerting oneself normally
    REST = "rest"  # taking it easy and sleeping a lot
    MEDICAL_CARE = "medical care"  # under the care of competent physicians


class Condition(StrEnum):
    MOBILE = "mobile"  # 1+ hit points, can move around
    BED_RIDDEN = "bed-ridden"  # 0 or fewer hit points
    CRITICAL = "critical"  # severely wounded (GM's option)


@dataclass(frozen=True)
class HealingRate:
    """A cell of the table: hit points a day, and whether the GM may take hit points instead (*)."""

    per_day: Fraction
    gm_may_take: bool = False


_HALF = Fraction(1, 2)  # "1 per 2 days"

#: Table 1, Long-Term Healing. None is the table's "—": no such day.
LONG_TERM_HEALING: Mapping[Activity, Mapping[Condition, HealingRate | None]] = MappingProxyType(
    {
        Activity.ACTIVE: MappingProxyType(
            {Condition.MOBILE: HealingRate(Fraction(0), True), Condition.BED_RIDDEN: None, Condition.CRITICAL: None}
        ),
        Activity.REST: MappingProxyType(
            {
                Condition.MOBILE: HealingRate(Fraction(1)),
                Condition.BED_RIDDEN: HealingRate(_HALF, True),
                Condition.CRITICAL: HealingRate(Fraction(0), True),
            }
        ),
        Activity.MEDICAL_CARE: MappingProxyType(
            {
                Condition.MOBILE: HealingRate(Fraction(2)),
                Condition.BED_RIDDEN: HealingRate(Fraction(1)),
                Condition.CRITICAL: HealingRate(_HALF),
            }
        ),
    }
)


def healing_condition(state: HitPointState, *, gm_rules_critical: bool = False) -> Condition:
    """Mobile with 1+ hit points, bed-ridden with 0 or fewer, critical when the GM says so."""
    if gm_rules_critical:
        return Condition.CRITICAL
    return Condition.MOBILE if state.current >= 1 else Condition.BED_RIDDEN


@dataclass(frozen=True)
class HealingDay:
    """One in-game day of a character's life, as far as healing goes.

    ``critical`` and ``gm_loss`` (hit points lost on a starred cell) are the GM's options;
    ``serious_wounds`` are the character's untreated-or-not serious wounds (optional rule).
    """

    activity: Activity
    critical: bool = False
    gm_loss: int = 0
    serious_wounds: tuple[SeriousWound, ...] = ()

    def __post_init__(self) -> None:
        invalid(self.gm_loss >= 0, "hit points lost are counted as a positive number")


def heal_one_day(referee: Referee, state: HitPointState, day: HealingDay) -> HitPointState:
    """Hit points after one day of ``day.activity`` (Long-Term Healing table).

    Slow rates bank fractions of a point: "1 per 2 days" gives a point every second day.
    Without medical attention a mis-healing serious wound halves the rate, and a lethal one
    takes its daily loss; we read "lose hit points every day" as replacing that day's healing.
    """
    condition = healing_condition(state, gm_rules_critical=day.critical)
    rate = LONG_TERM_HEALING[day.activity][condition]
    referee.require(
        rate is not None, LONG_TERM_HEALING_RULE, f"the table has no {day.activity} day for a {condition} character"
    )
    rate = rate or HealingRate(Fraction(0))
    referee.require(
        day.gm_loss == 0 or rate.gm_may_take,
        GM_MAY_TAKE,
        f"{condition}, on {day.activity}: the GM may not take hit points",
    )
    untreated = () if day.activity is Activity.MEDICAL_CARE else day.serious_wounds
    lethal_loss = sum(wound.daily_loss for wound in untreated if wound.kind is SeriousWoundKind.LETHAL)
    if lethal_loss:
        return take_damage(state, lethal_loss + day.gm_loss)
    per_day = rate.per_day
    if any(wound.kind is SeriousWoundKind.MIS_HEALS for wound in untreated):
        per_day *= _HALF
    return take_damage(_bank_healing(state, per_day), day.gm_loss)


def _bank_healing(state: HitPointState, per_day: Fraction) -> HitPointState:
    progress = state.healing_progress + per_day
    gained = math.floor(progress)
    healed = regain(state, gained)
    at_maximum = healed.current + healed.temporary == healed.maximum
    return replace(healed, healing_progress=Fraction(0) if at_maximum else progress - gained)
