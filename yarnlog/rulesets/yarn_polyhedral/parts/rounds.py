"""Rounds, turns and steps: who takes the next turn, the current attribute and its steps, one feat
a phase.

A round's turns go player to player, each choosing the next until all have had one (line 217); a
turn starts with a current attribute whose rank is the steps for the round (P30); shifts and
actions spend them, a shift costing two in a mental turn (P31, P35); a phase has one feat, and a
perception roll is that feat (P33, line 607). Initiative is a feat of its own (line 225): it is not
the phase's feat, nor is an object roll such as resistance (line 235).

Other characters, NPCs too, may join the chosen player's turn before its initiative is rolled,
the player approving (P34, line 738): each joins with a current attribute and steps of its own and
has its own phase, and the whole group acts at the lowest initiative its members roll (line 740).
A character who joined a turn has been active this round and takes no turn of its own (line 229).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, invalid
from yarnlog.core.timeline import EpisodeEnded, SceneClosed, SceneOpened
from yarnlog.rulesets.yarn_polyhedral.parts.feats import FeatRolled, check_can_act
from yarnlog.rulesets.yarn_polyhedral.rules import injuries, rule, turns

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
    slowed: int = Field(default=0, ge=0)  # the legs' severity: steps that cannot move (P48, line 645)


@event("yarn-polyhedral.steps.spent")
class StepsSpent(Payload):
    """Steps spent on a shift or an action (P31, P32, P35)."""

    character: str
    action: str
    times: int = Field(default=1, ge=1)
    steps: int = Field(ge=0)


@event("yarn-polyhedral.turn.joined")
class TurnJoined(Payload):
    """A character joins the current turn, cooperating, with its own current attribute (P34, line 738)."""

    character: str
    turn_of: str  # the chosen player's character, whose approval this records
    attribute: str
    steps: int = Field(ge=0)
    slowed: int = Field(default=0, ge=0)  # the legs' severity: steps that cannot move (P48, line 645)


@dataclass(frozen=True)
class StartRound:
    pass


@dataclass(frozen=True)
class TakeTurn:
    character: str
    attribute: str


@dataclass(frozen=True)
class JoinTurn:
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
    taken: tuple[str, ...] = ()  # characters who have been active this round: a turn or a turn joined
    current: str | None = None  # whose turn it is (the chosen player's character)
    group: tuple[str, ...] = ()  # the turn's characters: its own, then those who joined it (P34)
    attributes: Mapping[str, str] = field(default_factory=dict)  # each one's current attribute
    steps: Mapping[str, int] = field(default_factory=dict)  # each one's steps left this turn
    phase_feats: Mapping[str, int] = field(default_factory=dict)  # feats in each one's phase
    initiatives: Mapping[str, int] = field(default_factory=dict)  # initiative feats rolled this turn
    granted: Mapping[str, int] = field(default_factory=dict)  # each one's steps for the turn (P30)
    shifted: Mapping[str, int] = field(default_factory=dict)  # steps each has spent on shifts

    @property
    def acts_at(self) -> int | None:
        """The turn's initiative: the lowest of its cooperating group's (P34, line 740)."""
        return turns.group_initiative(self.initiatives, self.group)

    def attribute_of(self, name: str) -> str | None:
        return self.attributes.get(name)

    def steps_left(self, name: str) -> int:
        return self.steps.get(name, 0)

    def feats_of(self, name: str) -> int:
        return self.phase_feats.get(name, 0)


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    rounds: Rounds = campaign.rules.rounds
    if isinstance(command, StartRound):
        return [RoundStarted(number=rounds.number + 1)]
    if isinstance(command, TakeTurn):
        who = campaign.rules.characters.get(command.character)
        attribute = who.quality(command.attribute)
        turn = TurnTaken(character=who.name, attribute=attribute.name, steps=turns.steps_for(attribute.rank))
        return [validate_turn(turn, campaign, referee)]
    if isinstance(command, JoinTurn):
        who = campaign.rules.characters.get(command.character)
        attribute = who.quality(command.attribute)
        joined = TurnJoined(character=who.name, turn_of=rounds.current or "", attribute=attribute.name,
                            steps=turns.steps_for(attribute.rank))
        return [validate_join(joined, campaign, referee)]
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
    check_can_act(campaign, who, referee)
    return p.model_copy(update={"steps": turns.steps_for(who.quality(p.attribute).rank),
                                "slowed": _slowed(campaign, who.name)})


def _slowed(campaign: Any, name: str) -> int:
    return injuries.leg_slowing(campaign.rules.bodies.injuries.get(name, {}))


def validate_join(p: TurnJoined, campaign: Any, referee: Referee) -> TurnJoined:
    """Join the current turn before its initiative, once a round (P34, line 738; line 229)."""
    rounds: Rounds = campaign.rules.rounds
    who = campaign.rules.characters.get(p.character)
    invalid(rounds.number >= 1, "start a round first")
    turns.check_join(who.name, rounds.current, rounds.group, rounds.taken, bool(rounds.initiatives), referee)
    check_can_act(campaign, who, referee)
    invalid(p.turn_of == rounds.current, f"the turn is {rounds.current}'s, not {p.turn_of}'s")
    return p.model_copy(update={"steps": turns.steps_for(who.quality(p.attribute).rank),
                                "slowed": _slowed(campaign, who.name)})


def validate_steps(p: StepsSpent, campaign: Any, referee: Referee) -> StepsSpent:
    """The steps an action costs in this turn, within the steps left (P30-P35)."""
    rounds: Rounds = campaign.rules.rounds
    who = campaign.rules.characters.get(p.character)
    invalid(p.action in turns.ACTION_STEPS, f"no action {p.action!r}: {', '.join(turns.ACTION_STEPS)}")
    invalid(who.name in rounds.group, f"it is not {who.name}'s turn")
    p = p.model_copy(update={"steps": turns.step_cost(p.action, rounds.attribute_of(who.name) or "") * p.times})
    left = rounds.steps_left(who.name)
    referee.require(p.steps <= left, STEPS_LEFT, f"{p.steps} steps needed; {left} are left this turn")
    if p.action == "shift":  # injured legs slow what is left to move, as they are now (P48, line 645)
        moves = max(0, injuries.movement_steps(rounds.granted.get(who.name, 0), _slowed(campaign, who.name))
                    - rounds.shifted.get(who.name, 0))
        referee.require(p.steps <= moves, injuries.LEG, f"injured legs: {moves} steps can move, not {p.steps}")
    return p


def evolve(rounds: Rounds, recorded: Recorded, _before: Any = None) -> Rounds:
    p = recorded.payload
    if isinstance(p, (SceneOpened, SceneClosed, EpisodeEnded)):
        return Rounds()  # rounds are a scene's (line 145): a scene's end ends its last turn
    if isinstance(p, RoundStarted):
        return Rounds(number=p.number)
    if isinstance(p, TurnTaken):
        return Rounds(number=rounds.number, taken=(*rounds.taken, p.character), current=p.character,
                      group=(p.character,), attributes={p.character: p.attribute}, steps={p.character: p.steps},
                      granted={p.character: p.steps})
    if isinstance(p, TurnJoined):
        return replace(rounds, taken=(*rounds.taken, p.character), group=(*rounds.group, p.character),
                       attributes={**rounds.attributes, p.character: p.attribute},
                       steps={**rounds.steps, p.character: p.steps},
                       granted={**rounds.granted, p.character: p.steps})
    if isinstance(p, StepsSpent):
        moved = p.steps if p.action == "shift" else 0
        return replace(rounds, steps={**rounds.steps, p.character: rounds.steps_left(p.character) - p.steps},
                       shifted={**rounds.shifted, p.character: rounds.shifted.get(p.character, 0) + moved})
    if isinstance(p, FeatRolled) and p.character in rounds.group:
        if p.purpose == "feat":
            return replace(rounds, phase_feats={**rounds.phase_feats, p.character: rounds.feats_of(p.character) + 1})
        if p.purpose == "initiative":
            return replace(rounds, initiatives={**rounds.initiatives, p.character: p.total})
    return rounds


PART = Part(name="rounds", initial=Rounds, evolve=evolve, decide=decide,
            validators={RoundStarted: lambda p, c, r: p, TurnTaken: validate_turn, TurnJoined: validate_join,
                        StepsSpent: validate_steps},
            folds=folds(RoundStarted, TurnTaken, TurnJoined, StepsSpent, FeatRolled, SceneOpened, SceneClosed,
                        EpisodeEnded))
