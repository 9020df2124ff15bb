"""Injuries, healing, effort and death: what a character carries between rolls.

Each injury has a severity and, when an attack bought its location, that location (P48). Healing
takes one severity off a chosen injury per day of relative rest, never the same injury twice
running (P50, line 351). Effort is a pool of the health rank (P19); death comes at the total
severity the group agreed (P49; reading 15).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.yarn_polyhedral.rules import rule
from yarnlog.rulesets.yarn_polyhedral.rules.combat import effect_threshold

HEALING = rule("Healing", "Your character reduces their total severity by 1 at a time, usually once per "
                          "day of relative rest. If you have specific injuries, you decide which injury "
                          "heals by one severity, but the same injury can't heal twice in a row. (line 351)")
EFFORT = rule("Getting Dice", "You start with as much unused effort as your health rank. Effort can be "
                              "used to add a die to a roll for certain actions. (line 183)")
REST = rule("Getting Dice", "A full recharge requires a full sleep (8 hours), but you can get part of "
                            "your effort back with a shorter rest. (line 185)")


@dataclass(frozen=True)
class Injury:
    """One injury: its severity and, if the attack bought it, its location."""

    severity: int
    location: str | None = None


def total_severity(injuries: Mapping[str, Injury]) -> int:
    """The sum of every injury's severity (P47)."""
    return sum(i.severity for i in injuries.values())


def check_heal(injuries: Mapping[str, Injury], chosen: str, last_healed: str | None, referee: Referee) -> None:
    """One severity off ``chosen``, which must not be the injury healed last (P50, line 351).

    The rule is read as written: a lone injury heals every other day unless the GM rules a
    different rate (line 353; reading 16).
    """
    invalid(chosen in injuries, f"there is no injury {chosen}")
    referee.require(chosen != last_healed, HEALING, f"injury {chosen} healed last; another must heal now")


LEG = rule("Locations", "leg 3 Severity slows relative speed (line 645)")


def arm_penalty(injury: Injury) -> int:
    """A feat using an injured arm: that injury's severity is its penalty (P48, line 644), on top of
    the total severity's (line 333)."""
    return injury.severity if injury.location == "arm" else 0


def leg_slowing(injuries: Mapping[str, Injury]) -> int:
    """How much the legs' injuries slow a character: their severity (P48, line 645; "Severity slows
    relative speed", read with line 541's impairments that "could affect ... movement")."""
    return sum(i.severity for i in injuries.values() if i.location == "leg")


def movement_steps(steps: int, slowed: int) -> int:
    """Steps a turn may spend on shifts: its steps less the legs' severity, never below 0 (P48)."""
    return max(0, steps - slowed)


def location_effect(injury: Injury, health: int) -> bool:
    """Whether a located injury's severity has reached its effect's share of health (P48)."""
    if injury.location is None:
        return False
    threshold = effect_threshold(injury.location, health)
    return threshold is not None and injury.severity >= threshold


DEATH = rule("Death", "If it is possible for your character to die from injuries, you should all agree to a "
                      "total severity that, if reached, is fatal. (line 341)")
OUT_OF_ACTION = rule("Locations", "hand 5: 1xhealth incapacitates; head 6: 1xhealth causes unconsciousness; "
                                  "brain 10: 1xhealth is instant death (lines 647-652)")
#: The located injuries that stop a character acting once they reach their effect (P48).
STOPS = {"brain": "dead", "head": "unconscious", "hand": "incapacitated"}


def out_of_action(injuries: Mapping[str, Injury], health: int, fatal: int | None) -> tuple[str, Rule] | None:
    """Why a character can act no more, with the rule: dead at the agreed total severity (P49;
    reading 15), or a hand, head or brain injury at its effect (P48; reading 11)."""
    if is_dead(total_severity(injuries), fatal):
        return "dead", DEATH
    for injury in injuries.values():
        if injury.location in STOPS and location_effect(injury, health):
            return STOPS[injury.location], OUT_OF_ACTION
    return None


def is_dead(total: int, threshold: int | None) -> bool:
    """Dead at the agreed total severity, if the group allows death at all (P49; reading 15)."""
    return threshold is not None and total >= threshold


def spend_effort(held: int, uses: int, referee: Referee) -> int:
    """Effort left after ``uses`` dice, one effort each (P19; reading 7)."""
    invalid(uses >= 0, "effort is spent from 0 up")
    referee.require(uses <= held, EFFORT, f"{uses} effort spent; {held} is left")
    return held - uses


def rest(held: int, health: int, full: bool, regained: int = 0) -> int:
    """Effort after a rest: a full sleep restores the health rank; a shorter rest restores what
    the GM ruled (P19, line 185; reading 7), never past the health rank."""
    return health if full else min(health, held + regained)
