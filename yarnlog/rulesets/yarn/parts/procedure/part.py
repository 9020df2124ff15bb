"""Procedural rolls in the journal: the ``procedure`` part, and how ``verify`` re-checks its events.

Yarn 0.1 "Procedural Scenes", "Mechanics", "Group Efforts" and "Personal Consequences" as events:
a roll is decided in :mod:`.roll_making`, a group effort in :mod:`.group_effort_rolls`, consequences
in :mod:`.consequence_rolls`; the events, commands and state are in :mod:`.roll_records`, and what the
table reads of them in :mod:`.roll_projections`. A recorded event is validated by deciding it
again from its own facts (:func:`redecided`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from yarnlog.core.composition import Part
from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee, invalid, present
from yarnlog.rulesets.yarn.parts.procedure import roll_records
from yarnlog.rulesets.yarn.parts.procedure.consequence_rolls import (
    IntroduceConsequence,
    decide_consequences,
    decide_introduced,
    validate_introduced,
)
from yarnlog.rulesets.yarn.parts.procedure.group_effort_rolls import decide_group_effort
from yarnlog.rulesets.yarn.parts.procedure.roll_making import decide_combined, decide_read, decide_roll, pcs_of
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    Against,
    AgainstSpec,
    CombineDice,
    ConsequenceFace,
    ConsequenceIntroduced,
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
from yarnlog.rulesets.yarn.state import YarnCampaign

# -- the part -------------------------------------------------------------------------------


DECIDERS: Mapping[type, Callable[[Any, Any, Referee], list[Payload]]] = {
    MakeRoll: decide_roll,
    CombineDice: decide_combined,
    ReadRoll: decide_read,
    GroupEffort: decide_group_effort,
    RollConsequences: decide_consequences,
    IntroduceConsequence: decide_introduced,
}


def decide(command: object, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    decider = DECIDERS.get(type(command))
    return decider(command, campaign, referee) if decider else None


def against_spec(against: Against | None) -> AgainstSpec | None:
    """The command's target back from a recorded one."""
    if against is None:
        return None
    if against.kind == "difficulty":
        return Factor(present(against.number, "a difficulty is recorded with its number"), against.label)
    if against.kind == "spell":
        return SpellLevel(present(against.number, "a spell resisted is recorded with its level"), against.label,
                          against.roll)
    if against.kind == "inert force":
        force = present(against.dice, "an inert force is recorded with its dice")
        return InertForce(force.dice, tuple(force.faces))
    return Opposed(present(against.roll, "an opposed roll is recorded with the roll it answers"))


def roll_command(p: RollMade, hands: Hands | None = None) -> MakeRoll:
    """The roll command a recorded roll came from (its faces entered), for :func:`redecided`."""
    gm_dice = p.trait_dice if p.gmc and p.trait_use in (TraitUse.TRAIT, TraitUse.TANGENTIAL) else None
    return MakeRoll(
        hands=hands or Hands(p.character, p.trait, p.trait_use, gm_dice), participant=p.participant,
        bonus=p.bonus, penalty=p.penalty, extra_actions=p.extra_actions, experience_dice=p.experience_dice,
        justifications=tuple(p.justifications), purpose=p.purpose, against=against_spec(p.against),
        faces=tuple(p.dice.faces), top_off=tuple(p.dice.top_off), reading=p.reading,
    )


def _command_of(campaign: YarnCampaign, p: Payload) -> Any:
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


def _with_recorded_sources(expected: Payload, recorded: Payload) -> Payload:
    """``expected`` with how each die was had (entered or rolled) taken from ``recorded``.

    Re-deciding enters the recorded faces; the rules do not depend on who rolled them.
    When the two are equal (every die entered, or the sources already alike) there is nothing to
    take: the recorded payload is what the rules derive, given back without dumping and validating
    both again (:func:`~yarnlog.core.validation.differences` then has nothing to compare).
    """
    if expected == recorded:
        return recorded
    return merged_sources(expected, recorded)


def merged_sources(expected: Payload, recorded: Payload) -> Payload:
    """``expected`` with every dice ``source`` of ``recorded``, field by field (the full path)."""
    def merge(want: Any, got: Any) -> Any:
        if isinstance(want, dict) and isinstance(got, dict):
            return {k: got.get(k, v) if k == "source" else merge(v, got.get(k)) for k, v in want.items()}
        if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
            return [merge(w, g) for w, g in zip(want, got)]
        return want

    return type(expected).model_validate(merge(expected.to_data(), recorded.to_data()))


Validator = Callable[[Any, Any, Referee], Payload]
Decide = Callable[[Any, YarnCampaign, Referee], "list[Payload] | None"]
_P = TypeVar("_P", bound=Payload)


def redecided(command_of: Callable[[YarnCampaign, _P], object], decide_fn: Decide) -> Validator:
    """A validator that decides again the command a recorded event came from, its dice entered.

    ``command_of(campaign, payload)`` gives the command; the payload of the same type that
    ``decide_fn`` produces is what the rules derive.
    """
    def validate(payload: _P, campaign: YarnCampaign, referee: Referee) -> Payload:
        command = command_of(campaign, payload)
        invalid(command is not None, f"no command of the rules records this {payload.event_type}")
        payloads = decide_fn(command, campaign, referee)
        expected = present(next((p for p in payloads or () if type(p) is type(payload)), None),
                           "the rules record no such event")
        return _with_recorded_sources(expected, payload)

    return validate


def plain_roll_command(campaign: YarnCampaign, p: RollMade) -> Any:
    """The roll command a recorded roll with no powers came from (the powers part asks for it)."""
    return _command_of(campaign, p)


#: RollMade is validated by the powers part, which knows rolls with and without powers.
VALIDATORS: Mapping[type, Validator] = {
    RollRead: redecided(_command_of, decide),
    GroupResolved: redecided(_command_of, decide),
    ConsequenceRolled: redecided(_command_of, decide),
    ConsequenceIntroduced: validate_introduced,
}


PART = Part(name="procedure", initial=Procedure, evolve=evolve, folds=roll_records.FOLDS, decide=decide,
            validators=VALIDATORS, thaw=roll_records.ProcedureBuilder)
