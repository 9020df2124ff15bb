"""Rounds, turns and steps: turn order, initiative, steps and shifts, zones, tension tiers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from yarnlog.core.referee import Referee
from yarnlog.rulesets.yarn_polyhedral.rules import rule
from yarnlog.rulesets.yarn_polyhedral.rules.points import PHYSICAL

STEPS = rule("Steps", "Your current attribute's rank is how many steps you get for the round when your "
                      "dice would include that attribute. (line 249)")
ONE_FEAT = rule("Movement", "You only get one feat during your phase, but you can move both before and "
                            "after attempting the feat. (line 257)")
TURN_ORDER = rule("Rounds", "After the first player is done with their turn, they select which player "
                            "will take the next turn, ... until all of the players have had a turn. "
                            "(line 217)")
COOPERATING = rule("Cooperating", "When you are chosen to take the next turn, before initiative is rolled, other "
                                   "characters (including NPCs) can choose to join your turn, subject to your "
                                   "approval. (line 738)")
GROUP_INITIATIVE = rule("Cooperating", "The actual initiative for the cooperating group is the lowest of the "
                                       "included characters. (line 740)")
ONCE_A_ROUND = rule("Turns", "You are only active once in a round, during your phase (line 229)")
ESCALATION = rule("Tension", "Normally, a situation only escalates or de-escalates one tier at a time. "
                             "(line 776)")

ZONE_SHIFTS = 2  # P32, line 267: "Moving to an adjacent zone usually takes two shifts."
CLOSE_SHIFTS = 1  # P32, line 269: closing or pulling away within a zone
NPC_STEPS = 5  # P36, line 241: "usually with at least five steps"

# P35, lines 674-685 (weapons' own steps in combat.WEAPONS win, reading 8).
ACTION_STEPS = {"shift": 1, "punch": 2, "knife": 2, "pistol": 2, "kick": 3, "sword": 3, "rifle": 3,
                "heavy weapon": 4, "grab": 1, "drop": 0, "active defense": 1, "evade": 1, "aim": 1,
                "perception": 1}


class Tension(str, Enum):
    """The tiers of tension (P65, lines 760-776)."""

    SAFE = "safe"
    RISK = "risk"
    DANGER = "danger"


TIERS = (Tension.SAFE, Tension.RISK, Tension.DANGER)


def physical(attribute: str) -> bool:
    """Strength, dexterity and health are physical (line 58)."""
    return attribute in PHYSICAL


def steps_for(current_rank: int) -> int:
    """Steps in a round: the current attribute's rank (P30, line 249)."""
    return current_rank


def step_cost(action: str, current: str, base: int | None = None) -> int:
    """Steps an action costs: a shift or active defense costs double in a mental turn (P31, P35)."""
    cost = ACTION_STEPS[action] if base is None else base
    if action in ("shift", "active defense") and not physical(current):
        return cost * 2
    return cost


def off_attribute_steps(steps: int) -> int:
    """Steps for a feat on another attribute: two steps buy one (P30, line 251)."""
    return steps * 2


def movement_shifts(zones: int, close: bool = False) -> int:
    """Shifts to move ``zones`` zones over, plus one to close with someone (P32)."""
    return zones * ZONE_SHIFTS + (CLOSE_SHIFTS if close else 0)


def check_feat(feats_this_phase: int, referee: Referee) -> None:
    """One feat per phase; a perception roll counts as the feat (P33, line 257; line 607)."""
    referee.require(feats_this_phase == 0, ONE_FEAT, "this phase has had its feat")


def check_next_turn(order_so_far: Sequence[str], players: Sequence[str], chosen: str, referee: Referee) -> None:
    """Each player picks the next, until every player has had a turn (line 217)."""
    referee.require(chosen not in order_so_far, TURN_ORDER, f"{chosen} has had a turn this round")
    referee.require(chosen in players, TURN_ORDER, f"{chosen} is not a player of this round")


def check_join(joiner: str, current: str | None, group: Sequence[str], active_this_round: Sequence[str],
               initiative_rolled: bool, referee: Referee) -> None:
    """Joining the chosen player's turn: before its initiative is rolled (P34, line 738), by a
    character not yet active this round (line 229)."""
    referee.require(current is not None, COOPERATING, "there is no turn to join: take a turn first")
    referee.require(joiner not in group, COOPERATING, f"{joiner} is already in {current}'s turn")
    referee.require(joiner not in active_this_round, ONCE_A_ROUND, f"{joiner} has been active this round")
    referee.require(not initiative_rolled, COOPERATING, f"initiative is rolled: too late to join {current}'s turn")


def group_initiative(initiatives: Mapping[str, int], group: Sequence[str]) -> int | None:
    """The cooperating group's initiative: the lowest of its members' rolled (P34, line 740);
    ``None`` until one has rolled."""
    rolled = [initiatives[name] for name in group if name in initiatives]
    return min(rolled) if rolled else None


def initiative_order(initiatives: Mapping[str, int], groups: Sequence[Sequence[str]] = ()) -> list[str]:
    """Phases in descending initiative; a cooperating group acts at its lowest (P34, line 740).
    Ties keep the order given: the acting player decides them (line 227)."""
    effective = dict(initiatives)
    for group in groups:
        low = min(initiatives[name] for name in group)
        effective.update({name: low for name in group})
    return sorted(effective, key=lambda name: -effective[name])


def check_tension(before: Tension, after: Tension, referee: Referee) -> None:
    """Tension moves one tier at a time (P65, line 776)."""
    referee.require(abs(TIERS.index(after) - TIERS.index(before)) == 1, ESCALATION,
                    f"tension moves one tier at a time: {before.value} cannot become {after.value}")
