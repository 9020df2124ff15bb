"""Contests, melee and its consequences (DP24-DP30, lines 156-200, 221).

Whoever rolls highest has a partial success; 4 greater than the other a complete success; twice
the other or a natural 18 (a kept 18, reading 10) a critical (DP24, line 158). A tie is a standoff
with no result, the GM rules what follows (reading 2). With more than two, the highest beats each
other participant by its own margin; from each side's point of view (our reading, the book and the
digest speak of two): the winner's tier is the one over the runner-up (the tier it has over every
other side), a loser's is the failure that mirrors the winner's tier over it, and a tie at the top
is a standoff for all.

Melee is such a contest in rounds: the loser suffers 1 penalty die (partial) or 2 (complete; the
winner may then finish the fight with a challenge 14+ blow), or is finished (critical) (DP27,
lines 168-172). Penalty dice stay in each combatant's hand for the fight (reading 7). At its end a
loser with penalty dice rolls against 11 for lasting wounds (line 221, "Consequences of Melee
Combat": the book's last line, which the digest misses: it counts 220 lines).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Rule, invalid
from yarnlog.rulesets.dramatis_personae.rules import BOOK
from yarnlog.rulesets.dramatis_personae.rules.difficulty import MARGIN, Tier

CONTEST = Rule(
    f"{BOOK} (DP24, line 158; a tie is a standoff, reading 2)", "Contests",
    "whoever rolls highest is considered to have a partial success. If the roll of one opponent is 4 "
    "greater than the other, that one has a complete success. If the roll is twice as high as the "
    "opponent (or is a natural 18), then the higher character is considered to have a critical.")
COMBAT_RESULTS = Rule(
    f"{BOOK} (DP27, lines 170-172)", "Combat Results",
    "Partial Success: Loser suffers 1 penalty die. Complete Success: Loser suffers 2 penalty dice and "
    "winner can finish fight with a challenge 14+ blow. Critical Success: Loser is Finished.")
FINISHING = Rule(
    f"{BOOK} (DP27, line 171)", "Combat Results",
    "Complete Success: ... winner can finish fight with a challenge 14+ blow.")
WOUNDS = Rule(
    f"{BOOK} (line 221)", "Consequences of Melee Combat",
    "At the end of a combat if the loser has penalty dice make a roll against a challenge rating of 11. "
    "If total result (including penalty dice is less than 11, then the character may have received some "
    "cosmetic injury, if the result is 7- ... debilitating injure (1d6 to some physical actions), if the "
    "result is 5-, the character is disabled, if the result equals 3 dead.")

CONTEST_TIERS = (Tier.PARTIAL_SUCCESS, Tier.COMPLETE_SUCCESS, Tier.CRITICAL_SUCCESS)
NATURAL = 18
FINISHING_BLOW = 14  # DP27, line 171
WOUND_ROLL = 11  # line 221


def contest_tier(winner: int, loser: int) -> Tier:
    """The winner's tier from the two totals (DP24, line 158; reading 10: a natural 18 is a kept 18)."""
    invalid(winner > loser, f"{winner} does not beat {loser}")
    if winner >= 2 * loser or winner == NATURAL:
        return Tier.CRITICAL_SUCCESS
    return Tier.COMPLETE_SUCCESS if winner - loser >= MARGIN else Tier.PARTIAL_SUCCESS


@dataclass(frozen=True)
class ContestResult:
    """The winner (None on a tie at the top: a standoff, reading 2) and its tier over each other side."""

    winner: str | None
    over: tuple[tuple[str, Tier], ...]


def contest_result(totals: Mapping[str, int]) -> ContestResult:
    """Who wins a contest of two or more and by which tier over each other participant (DP24)."""
    invalid(len(totals) >= 2, "a contest needs two or more participants")
    top = max(totals.values())
    leaders = [name for name, total in totals.items() if total == top]
    if len(leaders) > 1:
        return ContestResult(None, ())
    winner = leaders[0]
    return ContestResult(winner, tuple((name, contest_tier(top, total))
                                       for name, total in totals.items() if name != winner))


def mirrored(tier: Tier) -> Tier:
    """The loser's side of a winner's tier: a complete success over one is that one's complete failure."""
    order = list(Tier)
    return order[len(order) - 1 - order.index(tier)]


def side_tier(result: ContestResult, name: str) -> Tier | None:
    """One side's result from its own point of view (DP24, line 158; see the module's reading): the winner's
    tier over the runner-up, a loser's mirrored failure, ``None`` in a standoff (reading 2)."""
    if result.winner is None:
        return None
    if name == result.winner:
        order = list(Tier)
        return min((tier for _, tier in result.over), key=order.index)
    return mirrored(dict(result.over)[name])


class Outcome(Enum):
    """What a melee result does to the loser (DP27, lines 170-172)."""

    PENALTY = "penalty"  # partial: 1 penalty die
    FINISHING_OPTION = "finishing-option"  # complete: 2 penalty dice, the winner may strike a finishing blow
    FINISHED = "finished"  # critical: KO, disable or kill


#: Combat Results: tier -> (penalty dice to the loser, outcome) (DP27, lines 170-172).
MELEE_RESULTS: dict[Tier, tuple[int, Outcome]] = {
    Tier.PARTIAL_SUCCESS: (1, Outcome.PENALTY),
    Tier.COMPLETE_SUCCESS: (2, Outcome.FINISHING_OPTION),
    Tier.CRITICAL_SUCCESS: (0, Outcome.FINISHED),
}


def pool_dice_after_roll(pool_dice: int) -> int:
    """In melee every two pool dice applied after the roll add one die (DP29, line 192; reading 8)."""
    invalid(pool_dice % 2 == 0, f"pool dice after a melee roll go two for one die: {pool_dice} is odd")
    return pool_dice // 2


class Wound(Enum):
    """Lasting wounds after a melee (line 221)."""

    NONE = "no lasting wound"
    COSMETIC = "cosmetic injury"
    DEBILITATING = "debilitating injury (1d6 to some physical actions)"
    DISABLED = "disabled"
    DEAD = "dead"


def wound(total: int) -> Wound:
    """The wound of the roll against 11 (line 221): under 11 cosmetic, 7- debilitating, 5- disabled, 3 dead."""
    if total <= 3:
        return Wound.DEAD
    if total <= 5:
        return Wound.DISABLED
    if total <= 7:
        return Wound.DEBILITATING
    return Wound.COSMETIC if total < WOUND_ROLL else Wound.NONE
