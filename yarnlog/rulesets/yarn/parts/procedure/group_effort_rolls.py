"""Group efforts in the journal: Yarn 0.1 "Group Efforts" (simple addition, either/or, worst roller)
over rolls already recorded; the pure rules are :mod:`.group_efforts`.
"""

from __future__ import annotations

from collections.abc import Sequence

from yarnlog.core.events import Payload
from yarnlog.core.referee import DiceNeeded, InvalidCommand, Referee, invalid, present
from yarnlog.rulesets.yarn.parts.procedure.roll_making import (
    TWO_OR_MORE,
    options_of,
    resolution_fields,
    resolve_against,
)
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    Against,
    GroupEffort,
    GroupResolved,
    Opposed,
    PriorOdds,
    RollFact,
)
from yarnlog.rulesets.yarn.rules import dice, group_efforts, odds
from yarnlog.rulesets.yarn.state import YarnCampaign

# -- group efforts --------------------------------------------------------------------------


def _member_rolls(campaign: YarnCampaign, rolls: Sequence[int]) -> list[RollFact]:
    procedure = campaign.rules.procedure
    invalid(len(set(rolls)) == len(rolls), "each roll counts once in a group effort")
    members = []
    for seq in rolls:
        rec = present(procedure.rolls.get(seq), f"event {seq} is not a roll")
        invalid(rec.scene == campaign.timeline.scene, f"roll {seq} was made in another scene")
        invalid(seq not in procedure.grouped, f"roll {seq} already counts in group effort {procedure.grouped.get(seq)}")
        members.append(rec)
    names = [m.character for m in members]
    invalid(len(set(names)) == len(names), "a group effort joins different characters' rolls")
    return members


def decide_group_effort(command: GroupEffort, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """Resolve rolls already recorded as one group effort, by the GM's method ("Group Efforts")."""
    referee.require(len(command.rolls) >= 2, TWO_OR_MORE, "a group effort joins two or more characters' rolls")
    members = _member_rolls(campaign, command.rolls)
    results = [m.result() for m in members]
    options = options_of(campaign)
    invalid(not isinstance(command.against, Opposed) or command.against.roll not in command.rolls,
            "the group's rolls are not opposed to one of themselves")
    target: dice.Target | None = None
    against: Against | None = None
    if command.against is not None:
        target, against = resolve_against(campaign, command.against, "", command.rolled)
    counting = source = resolution = None
    if command.method == "simple addition":
        if target is None:  # not present(): mypy joins a union's members to object when it solves T
            raise InvalidCommand("simple addition adds the dice against a number: give the difficulty or the roll")
        resolution = group_efforts.simple_addition(results, target, options)
        total, botch = resolution.total, all(dice.is_botch(r, options) for r in results)
        sixes = resolution.sixes
    else:
        if command.method == "either/or":
            index, source = _counting(command, results)
            counted = group_efforts.either_or(results, index)
        else:
            counted = group_efforts.worst_roller(results, options)
        counting = command.rolls[results.index(counted)]
        total, botch, sixes = counted.total, dice.is_botch(counted, options), dice.unstoppable_sixes(counted, options)
        if target is not None:
            resolution = dice.resolve(counted, target, options)
    return [GroupResolved(
        method=command.method, rolls=list(command.rolls), characters=[m.character for m in members],
        counting=counting, source=source, total=total, against=against, botch=botch, sixes=sixes,
        odds=_group_odds(command.method, [r.spec for r in results], against, options),
        **resolution_fields(resolution, against),
    )]


def _group_odds(method: str, specs: list[dice.RollSpec], against: Against | None,
                options: dice.RollOptions) -> PriorOdds | None:
    """Exact odds of a group effort against a known difficulty, where the rules allow them."""
    if against is None or against.kind != "difficulty" or against.number is None or options != dice.NO_OPTIONS:
        return None
    if method == "simple addition":
        return PriorOdds.of(odds.simple_addition_odds(specs, against.number))
    if method == "worst roller":
        return PriorOdds.of(odds.worst_roller_odds(specs, against.number))
    return None  # either/or: the counting roll's own odds are recorded with it


def _counting(command: GroupEffort, results: Sequence[dice.RollResult]) -> tuple[int, str]:
    if command.counting is not None:
        invalid(command.counting in command.rolls, f"roll {command.counting} is not one of the group's rolls")
        return command.rolls.index(command.counting), "entered"
    thrown = command.rolled.get("either/or")
    if thrown is None:  # the GM's random pick is the shell's: one die of as many sides as rolls
        raise DiceNeeded("either/or", 1, len(results), lambda rng: ((rng.randint(1, len(results)),), ()))
    face = thrown[0][0]
    invalid(1 <= face <= len(results), f"the either/or die shows 1 to {len(results)}, not {face}")
    return face - 1, "rolled"
