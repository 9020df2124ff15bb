"""Rounds, turns and steps: who takes the next turn, the current attribute and its steps, one feat
a phase.

A round's turns go player to player, each choosing the next until all have had one (line 217); a
turn starts with a current attribute whose rank is the steps for the round (P30); shifts and
actions spend them, a shift costing two in a mental turn (P31, P35); a phase has one feat, and a
perception roll is that feat (P33, line 607). Initiative is a feat of its own (line 225): it is not
the phase's feat, nor is an object roll such as resistance (line 235).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.core.timeline import EpisodeEnded, SceneClosed, SceneOpened
from yarnlog.rulesets.yarn_polyhedral.parts.feats import FeatRolled
from yarnlog.rulesets.yarn_polyhedral.rules import rule, turns

STEPS_LEFT = rule("Steps", "When you're active, you can use your remaining steps to move around and do things "
                           "in any order you wish. (line 253)")


@event("yarn-polyhedral.round.started")
class RoundStarted(Payload):
    """A new round: every player will have a turn (line 217)."""

    number: int = Field(ge=1)


@event("yarn-polyhedral.turn.taken")
class TurnTaken(Payload):
    """A character's turn, with its current attribute and the steps it gives (P30, line 249)."""

    character: str
    attribute: str
    steps: int = Field(ge=0)


@event("yarn-polyhedral.steps.spent")
class StepsSpent(Payload):
    """Steps spent on a shift or an action (P31, P32, P35)."""

    character: str
    action: str
    times: int = Field(default=1, ge=1)
    steps: int = Field(ge=0)


@dataclass(frozen=True)
class StartRound:
    pass


@dataclass(frozen=True)
class TakeTurn:
    character: str
    attribute: str


@dataclass(frozen=True)
class SpendSteps:
    character: str
    action: str
    times: int = 1


@dataclass(frozen=True)
class Rounds:
    number: int = 0
    taken: tuple[str, ...] = ()  # characters who have had a turn this round
    current: str | None = None
    attribute: str | None = None
    steps_left: int = 0
    feats: int = 0  # feats in the current phase


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    rounds: Rounds = campaign.rules.rounds
    if isinstance(command, StartRound):
        return [RoundStarted(number=rounds.number + 1)]
    if isinstance(command, TakeTurn):
        who = campaign.rules.characters.get(command.character)
        attribute = who.quality(command.attribute)
        turn = TurnTaken(character=who.name, attribute=attribute.name, steps=turns.steps_for(attribute.rank))
        return [validate_turn(turn, campaign, referee)]
    if isinstance(command, SpendSteps):
        who = campaign.rules.characters.get(command.character)
        spent = StepsSpent(character=who.name, action=command.action, times=command.times, steps=0)
        return [validate_steps(spent, campaign, referee)]
    return None


def validate_turn(p: TurnTaken, campaign: Any, referee: Referee) -> TurnTaken:
    """Each player picks the next until every player has had a turn (line 217)."""
    rounds: Rounds = campaign.rules.rounds
    who = campaign.rules.characters.get(p.character)
    invalid(rounds.number >= 1, "start a round first")
    players = [c.name for c in campaign.rules.characters.by_name.values()]
    turns.check_next_turn(rounds.taken, players, who.name, referee)
    return p.model_copy(update={"steps": turns.steps_for(who.quality(p.attribute).rank)})


def validate_steps(p: StepsSpent, campaign: Any, referee: Referee) -> StepsSpent:
    """The steps an action costs in this turn, within the steps left (P30-P35)."""
    rounds: Rounds = campaign.rules.rounds
    who = campaign.rules.characters.get(p.character)
    invalid(p.action in turns.ACTION_STEPS, f"no action {p.action!r}: {', '.join(turns.ACTION_STEPS)}")
    invalid(rounds.current == who.name, f"it is not {who.name}'s turn")
    p = p.model_copy(update={"steps": turns.step_cost(p.action, rounds.attribute or "") * p.times})
    referee.require(p.steps <= rounds.steps_left, STEPS_LEFT,
                    f"{p.steps} steps needed; {rounds.steps_left} are left this turn")
    return p


def evolve(rounds: Rounds, recorded: Recorded, _before: Any = None) -> Rounds:
    p = recorded.payload
    if isinstance(p, (SceneOpened, SceneClosed, EpisodeEnded)):
        return Rounds()  # rounds are a scene's (line 145): a scene's end ends its last turn
    if isinstance(p, RoundStarted):
        return Rounds(number=p.number)
    if isinstance(p, TurnTaken):
        return replace(rounds, taken=(*rounds.taken, p.character), current=p.character, attribute=p.attribute,
                       steps_left=p.steps, feats=0)
    if isinstance(p, StepsSpent):
        return replace(rounds, steps_left=rounds.steps_left - p.steps)
    if isinstance(p, FeatRolled) and p.purpose == "feat" and rounds.current == p.character:
        return replace(rounds, feats=rounds.feats + 1)
    return rounds


PART = Part(name="rounds", initial=Rounds, evolve=evolve, decide=decide,
            validators={RoundStarted: lambda p, c, r: p, TurnTaken: validate_turn, StepsSpent: validate_steps},
            folds=folds(RoundStarted, TurnTaken, StepsSpent, FeatRolled, SceneOpened, SceneClosed, EpisodeEnded))
