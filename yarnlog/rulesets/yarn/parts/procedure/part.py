"""Procedural rolls in the journal: the ``procedure`` part, and how ``verify`` re-checks its events.

Yarn 0.1 "Procedural Scenes", "Mechanics", "Group Efforts" and "Personal Consequences" as events:
a roll is decided in :mod:`.roll_making`, a group effort in :mod:`.group_effort_rolls`, consequences
in :mod:`.consequence_rolls`; the events, commands and state are in :mod:`.roll_records`, and what the
table reads of them in :mod:`.roll_projections`. A recorded event is re-checked by deciding it
again from its own facts (:func:`recheck`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from yarnlog.core.events import Payload, Recorded
from yarnlog.core.referee import InvalidCommand, Override, Referee
from yarnlog.core.ruleset import Part
from yarnlog.rulesets.yarn.parts.procedure.consequence_rolls import decide_consequences
from yarnlog.rulesets.yarn.parts.procedure.group_effort_rolls import decide_group_effort
from yarnlog.rulesets.yarn.parts.procedure.roll_making import decide_combined, decide_read, decide_roll, pcs_of
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    Against,
    AgainstSpec,
    CombineDice,
    ConsequenceFace,
    ConsequenceRolled,
    Factor,
    GroupEffort,
    GroupResolved,
    Hands,
    InertForce,
    MakeRoll,
    Opposed,
    Procedure,
    ReadRoll,
    RollConsequences,
    RollMade,
    RollRead,
    SpellLevel,
    TraitUse,
    evolve,
)

# -- the part -------------------------------------------------------------------------------


DECIDERS: Mapping[type, Callable[[Any, Any, Referee], list[Payload]]] = {
    MakeRoll: decide_roll,
    CombineDice: decide_combined,
    ReadRoll: decide_read,
    GroupEffort: decide_group_effort,
    RollConsequences: decide_consequences,
}


def decide(command, campaign, referee: Referee) -> list[Payload] | None:
    decider = DECIDERS.get(type(command))
    return decider(command, campaign, referee) if decider else None


def against_spec(against: Against | None) -> AgainstSpec | None:
    """The command's target back from a recorded one."""
    if against is None:
        return None
    if against.kind == "difficulty":
        return Factor(against.number, against.label)
    if against.kind == "spell":
        return SpellLevel(against.number, against.label, against.roll)
    if against.kind == "inert force":
        return InertForce(against.dice.dice, tuple(against.dice.faces))
    return Opposed(against.roll)


def roll_command(p: RollMade, hands: Hands | None = None) -> MakeRoll:
    """The roll command a recorded roll came from (its faces entered), for :func:`recheck`."""
    gm_dice = p.trait_dice if p.gmc and p.trait_use in (TraitUse.TRAIT, TraitUse.TANGENTIAL) else None
    return MakeRoll(
        hands=hands or Hands(p.character, p.trait, p.trait_use, gm_dice), participant=p.participant,
        bonus=p.bonus, penalty=p.penalty, extra_actions=p.extra_actions, experience_dice=p.experience_dice,
        justifications=tuple(p.justifications), purpose=p.purpose, against=against_spec(p.against),
        faces=tuple(p.dice.faces), top_off=tuple(p.dice.top_off), reading=p.reading,
    )


def _command_of(campaign, p: Payload) -> Any:
    """The command a recorded event came from, its dice entered; None for events this part does not audit."""
    if isinstance(p, RollMade):
        if p.psychic is not None or (p.against is not None and p.against.kind == "spell"):
            return None  # the powers part decides (and audits) rolls with shots and spell resistance
        if not p.helpers:
            return roll_command(p)
        # A PC's dice come from her sheet again; a GMC keeps the number the GM gave.
        members = [(p.character, p.trait, p.trait_use, p.trait_dice),
                   *((h.character, h.trait, h.trait_use, h.dice) for h in p.helpers)]
        return CombineDice(tuple(Hands(c, t, u, None if c in pcs_of(campaign) else n) for c, t, u, n in members),
                           roll_command(p))
    if isinstance(p, RollRead):
        return ReadRoll(p.roll, p.reading)
    if isinstance(p, GroupResolved):
        return GroupEffort(p.method, tuple(p.rolls), against_spec(p.against),
                           p.counting if p.method == "either/or" else None)
    if isinstance(p, ConsequenceRolled):
        return RollConsequences(p.scene, (ConsequenceFace(p.character, p.kind, p.face),), roll_rest=False)
    return None


def _comparable(data: Any) -> Any:
    """Payload data without how the dice were had (entered or rolled): the rules do not depend on it."""
    if isinstance(data, dict):
        return {k: _comparable(v) for k, v in data.items() if k != "source"}
    if isinstance(data, list):
        return [_comparable(v) for v in data]
    return data


def recheck(campaign, recorded: Recorded, command: Any, decide_fn) -> list[str]:
    """Decide ``command`` again against the state before ``recorded`` and list what differs.

    Every rule the event broke is listed (a collecting referee), then every field the rules
    derive differently from what was recorded.
    """
    referee = Referee(Override(by="verify", reason="audit"))
    try:
        payloads = decide_fn(command, campaign, referee)
    except InvalidCommand as exc:
        return [str(exc)]
    problems = [message for _, message in referee.overridden]
    expected = next((p for p in payloads or () if type(p) is type(recorded.payload)), None)
    if expected is None:
        return problems + ["the rules record no such event"]
    got, want = _comparable(recorded.payload.to_data()), _comparable(expected.to_data())
    # A field added by a later schema version was never stated by an older event: nothing to compare.
    added_in = getattr(type(recorded.payload), "added_in", {})
    unstated = {key for key, version in added_in.items() if recorded.schema_version < version}
    return problems + [f"{key} is recorded as {got.get(key)!r} but the dice and the rules give {want[key]!r}"
                       for key in want if key not in unstated and got.get(key) != want[key]]


def audit(campaign, recorded: Recorded) -> list[str]:
    command = _command_of(campaign, recorded.payload)
    return [] if command is None else recheck(campaign, recorded, command, decide)


PART = Part(name="procedure", initial=Procedure, evolve=evolve, decide=decide, audit=audit)
