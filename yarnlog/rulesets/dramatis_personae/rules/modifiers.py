"""Dice modifiers: the challenge table, range bands, the time chart, melee and ranged modifiers
(DP18-DP23, DP29-DP32, lines 100-148, 182-192, 204-219).

Each modifier is a number of d6, plus (bonus) or minus (penalty); some rows of the book give a
range ("-1d6 to -3d6") and the GM picks within it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Rule, invalid
from yarnlog.rulesets.dramatis_personae.rules import BOOK

MODIFIERS = Rule(
    f"{BOOK} (DP18, lines 102-114)", "Modifications to the Challenge Rolls",
    "Modifiers Circumstances: ... +1d6 to +2d6 Using good equipment ... -1d6 to -4d6 Distracting or "
    "confusing conditions ...")
TIME = Rule(
    f"{BOOK} (DP20, line 126)", "Time",
    "For each step in the time chart (up or down) that the character takes to complete the task add or "
    "subtract 2d6 to or from the challenge roll.")
RETRY = Rule(
    f"{BOOK} (DP22, line 128)", "Time",
    "As a general rule if one fails a challenge roll, then the minimum time needed to get another roll "
    "(as one continues to try) is one step up the time chart. ... (Note this extra time does not grant "
    "any bonus).")
AIMING = Rule(
    f"{BOOK} (DP32, line 218)", "Ranged Combat Modifiers",
    "+2d6 Taking extra time to aim (+1 on time chart, more time doesn't help)")


@dataclass(frozen=True)
class Modifier:
    """A row of a modifier table: its label, what it means, and the dice it may give (low to high)."""

    label: str
    text: str
    low: int
    high: int
    rule: str

    def check(self, dice: int) -> None:
        invalid(self.low <= dice <= self.high,
                f"{self.label} gives {_span(self.low, self.high)}, not {dice:+d}d6 ({self.rule})")


def _span(low: int, high: int) -> str:
    return f"{low:+d}d6" if low == high else f"{low:+d}d6 to {high:+d}d6"


def _rows(rule: str, *rows: tuple[str, str, int, int]) -> dict[str, Modifier]:
    return {label: Modifier(label, text, low, high, rule) for label, text, low, high in rows}


#: The challenge modifiers by label (DP18, lines 104-110). Attributes, time, range and pool dice are
#: entered on their own.
CIRCUMSTANCES = _rows(
    "DP18, lines 106-110",
    ("good-equipment", "Using good equipment or tools", 1, 2),
    ("lacking-equipment", "Lacking needed equipment or tools (or background knowledge)", -3, -1),
    ("experience", "Experience with the particular challenge", 1, 3),
    ("distracting", "Distracting or confusing conditions (combat, bad weather, movement, crowds, fire)", -4, -1),
    ("alien-object", "Alien or unusual object involved in challenge", -3, -1),
)

#: The melee modifiers by label (DP29, lines 185-190): the fighting strengths and weaknesses are
#: attributes (related ±1d6, particular ±2d6), pool dice are entered on their own.
MELEE = _rows(
    "DP29, lines 185-190",
    ("extra-opponent", "For each additional opponent faced by a single combatant beyond one", -1, -1),
    ("armed-vs-unarmed", "If armed against an unarmed opponent", 1, 1),
    ("superior-weapon", "Armed with a superior weapon (given the circumstances; none if the same weapon, DP30)", 1, 1),
    ("unusual-style", "Fighting against an unusual style (unfamiliar martial art)", -1, -1),
)

#: The ranged modifiers by label (DP32, lines 207-219): sizes with the signs of reading 5, evasion with
#: agility as reading 6 reads it; range bands are entered on their own.
RANGED = _rows(
    "DP32, lines 207-218; readings 5, 6",
    ("size-x2", "Target twice the size of a person (reading 5: bigger is easier)", 1, 1),
    ("size-x4", "Target four times the size of a person", 4, 4),
    ("size-x8", "Target eight times the size of a person", 6, 6),
    ("size-x16", "Target sixteen times the size of a person", 8, 8),
    ("size-half", "Target half the size of a person (reading 5: smaller is harder)", -1, -1),
    ("size-quarter", "Target a quarter the size of a person", -4, -4),
    ("size-eighth", "Target an eighth the size of a person", -6, -6),
    ("size-sixteenth", "Target a sixteenth the size of a person", -8, -8),
    ("mobile", "Target is mobile (but roughly in the same place)", -1, -1),
    ("evading", "Target is evading", -2, -2),
    ("evading-strong-agility", "Target with strong agility is evading (reading 6)", -3, -3),
    ("evading-weak-agility", "Target with weak agility is evading (reading 6)", -1, -1),
    ("in-and-out", "Target is moving into and out of range (or sight) in one moment or less", -4, -4),
    ("concealed-30", "Target is partially concealed (30% concealed)", -2, -2),
    ("concealed-70", "Target is mostly concealed (70% concealed)", -4, -4),
    ("concealed-90", "Target is almost entirely concealed (90% cover)", -6, -6),
    ("camouflaged", "Target is well camouflaged", -3, -1),
    ("braced", "Braced (makes shooter immobile)", 1, 1),
    ("aiming", "Taking extra time to aim (+1 on time chart, more time doesn't help)", 2, 2),
    ("weapon", "Targeting bonuses or penalties for the weapon type", -8, 8),
)


def modifier(table: dict[str, Modifier], label: str, dice: int | None) -> int:
    """The dice of one labelled row; a row with one value needs no number, a range needs one."""
    row = table.get(label.strip().lower())
    if row is None:
        close = difflib.get_close_matches(label.strip().lower(), table, n=1)
        invalid(False, f"no modifier {label!r}{f'; did you mean {close[0]}?' if close else ''} "
                       "(yarnlog modifiers)")
    assert row is not None
    if dice is None:
        invalid(row.low == row.high, f"{row.label} gives {_span(row.low, row.high)}: say how many ({row.rule})")
        return row.low
    row.check(dice)
    return dice


class Band(Enum):
    """Range bands and their dice (DP19, lines 118-124)."""

    POINT_BLANK = "point-blank"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    VERY_LONG = "very-long"
    EXTREME = "extreme"

    @property
    def dice(self) -> int:
        return _BAND_DICE[self]


_BAND_DICE = {Band.POINT_BLANK: 2, Band.SHORT: 0, Band.MEDIUM: -2, Band.LONG: -4, Band.VERY_LONG: -6,
              Band.EXTREME: -8}

#: Each band's upper distance in metres per sense or weapon (DP19, lines 119-123); Extreme is beyond.
RANGES: dict[str, tuple[int, int, int, int, int]] = {
    "vision": (5, 10, 20, 40, 80),
    "bow": (10, 20, 40, 80, 160),
    "pistol": (5, 15, 25, 50, 75),
    "rifle": (10, 30, 60, 120, 250),
}


def band_at(distance: float, weapon: str) -> Band:
    """The band of a distance: under a band's limit is in it; the limit itself is in the farther band
    (reading 11: "<80m" and ">80m" leave 80 m in neither)."""
    limits = RANGES.get(weapon.lower())
    invalid(limits is not None, f"no range table {weapon!r}: choose one of {', '.join(RANGES)}")
    assert limits is not None
    invalid(distance >= 0, f"a distance is not negative: {distance}")
    bands = list(Band)
    return next((bands[i] for i, limit in enumerate(limits) if distance < limit), Band.EXTREME)


#: The time chart, shortest first (DP21, lines 132-144).
TIME_CHART: tuple[str, ...] = (
    "split second", "1 moment", "10 seconds", "1 minute", "5 minutes", "30 minutes", "1 hour", "8 hours",
    "24 hours", "1 week", "1 month", "1 year",
)
TIME_DICE_PER_STEP = 2


def time_step(text: str) -> int:
    """The place of a time on the chart (DP21): its words, any case."""
    wanted = " ".join(text.strip().lower().split())
    for step, words in enumerate(TIME_CHART):
        if words == wanted:
            return step
    close = difflib.get_close_matches(wanted, TIME_CHART, n=1)
    invalid(False, f"no time {text!r} on the time chart" + (f"; did you mean {close[0]}?" if close else
                                                             " (split second, 1 moment ... 1 year)"))
    raise AssertionError  # unreachable


def time_dice(normal: str, taken: str) -> int:
    """±2d6 per step of the time chart between the task's normal time and the time taken (DP20, line 126)."""
    return TIME_DICE_PER_STEP * (time_step(taken) - time_step(normal))


def retry_time_from(failed_at: str) -> str:
    """The earliest time of the next roll after a failure: one step up the chart (DP22, line 128)."""
    step = time_step(failed_at)
    invalid(step + 1 < len(TIME_CHART), f"nothing on the time chart is longer than {failed_at}")
    return TIME_CHART[step + 1]
