"""Why a procedural token was spent, refreshed or set aside: each cause with the SRD line that decides it.

The procedural-token ledger names, for every line, the rule that moved the token. A cause is the
kind of move the token paid for; each carries the rule's number in the team's digest
(``shared/rules/001-dramasystem.md``, section 2) and the book's words, with their line.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Rule
from yarnlog.rulesets.dramasystem.rules import BOOK
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import ABSENT_GREEN, ONE_REDRAW
from yarnlog.rulesets.dramasystem.rules.contests import INTERFERE, REDRAWS, SIMPLE_CARDS
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import REFRESH, SPEND
from yarnlog.rulesets.dramasystem.rules.simple_resolution import DRAWS


class Cause(Enum):
    """What a token paid for (or, for ``REFRESH``, what spending the last one brought)."""

    REFRESH = "refresh"
    CALLING = "calling"
    SIMPLE_GM = "simple-gm"
    SIMPLE_PLAYER = "simple-player"
    ADVANCED_GM = "advanced-gm"
    ADVANCED_REDRAW = "advanced-redraw"
    ABSENT_GREEN = "absent-green"
    CONTEST = "contest"
    SOLO_GM = "solo-gm"
    ASSIST = "assist"
    ADVANCED_CONTEST = "advanced-contest"
    INTERFERE = "interfere"
    OTHER = "other"


@dataclass(frozen=True)
class Reason:
    """A cause's rule: its number in the digest and the book's words."""

    number: str
    rule: Rule


CALLING_COST = Rule(BOOK, "Calling a Procedural Scene",
                    "To call a procedural scene your character is not in, spend a green token. (This "
                    "requirement does not apply to the GM.) (lines 441, 792)")
GM_SECRET = Rule(BOOK, "Step One: The GM Spends For the Opposition",
                 "The GM secretly spends one of her available tokens, concealing it so that it can be "
                 "revealed with a flourish at the conclusion of a scene (line 445)")
GM_DIFFICULTY = Rule(BOOK, "Step One: The GM Declares Difficulty",
                     "The GM then spends one of her procedural tokens. This determines what kind of "
                     "clincher the primary needs in order to succeed at his objective. (line 796)")
SOLO = Rule(BOOK, "Solo Actions",
            "The GM spends a procedural token, getting the usual 3 redraws for green, 2 for yellow, and 1 "
            "for red. (line 613)")
ASSIST = Rule(BOOK, "Player vs. Player",
              "He spends a token, allowing the assisted character a number of redraws equivalent to the token "
              "spend: 3 for green, 2 for yellow, 1 for red. (line 629)")

REASONS: dict[Cause, Reason] = {
    Cause.REFRESH: Reason("DS31", REFRESH),
    Cause.CALLING: Reason("DS33", CALLING_COST),
    Cause.SIMPLE_GM: Reason("DS35", GM_SECRET),
    Cause.SIMPLE_PLAYER: Reason("DS37", DRAWS),
    Cause.ADVANCED_GM: Reason("DS54", GM_DIFFICULTY),
    Cause.ADVANCED_REDRAW: Reason("DS58", ONE_REDRAW),
    Cause.ABSENT_GREEN: Reason("DS60", ABSENT_GREEN),
    Cause.CONTEST: Reason("DS46", SIMPLE_CARDS),
    Cause.SOLO_GM: Reason("DS50", SOLO),
    Cause.ASSIST: Reason("DS51", ASSIST),
    Cause.ADVANCED_CONTEST: Reason("DS67", REDRAWS),
    Cause.INTERFERE: Reason("DS70", INTERFERE),
    Cause.OTHER: Reason("DS31", SPEND),
}
