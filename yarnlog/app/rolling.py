"""Randomness at the edge: the tool's dice are rolled here, once, never while deciding.

A decider that lacks faces raises :class:`~yarnlog.core.referee.DiceNeeded`; :func:`execute_rolling`
rolls exactly those dice from ``rng`` (a secure source by default), records the throw in the
command's ``rolled`` mapping and executes again. The faces then travel with the command, so the
journal's retries after a write conflict decide with the same dice, and replay never rolls.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.referee import DiceNeeded


def with_throw(command: Any, roll: str, thrown: Any) -> Any:
    """``command`` with ``thrown`` recorded under ``roll`` in its ``rolled`` mapping (or in that of
    the roll it carries, as a fringe power's ``roll`` does)."""
    rolled = getattr(command, "rolled", None)
    if rolled is not None:
        if roll in rolled:
            raise RuntimeError(f"the {roll} roll was supplied and asked for again")
        return dataclasses.replace(command, rolled={**rolled, roll: thrown})
    inner = getattr(command, "roll", None)
    if inner is not None and dataclasses.is_dataclass(inner):
        return dataclasses.replace(command, roll=with_throw(inner, roll, thrown))
    raise RuntimeError(f"{type(command).__name__} needs the {roll} roll but cannot carry rolled dice")


def execute_rolling(journal: Any, campaign_id: str, command: Any, *, rng: random.Random | None = None,
                    command_id: str | None = None, new_command: bool = False, **execute: Any) -> list[Recorded]:
    """Execute ``command``, first rolling (once each) whatever dice its decision asks for.

    ``command_id`` (:mod:`yarnlog.app.command_ids`) names the command as typed, before any roll: sent
    again, it finds what was recorded the first time (and its dice) instead of rolling again.
    """
    from yarnlog.app.command_ids import command_key

    rng = rng or secrets.SystemRandom()
    if command_id is not None:
        execute["command_key"] = command_key(command_id, command, by=execute.get("by"),
                                             visibility=execute.get("visibility", "everyone"),
                                             override=execute.get("override"))
        execute["new_command"] = new_command
    while True:
        try:
            return journal.execute(campaign_id, command, **execute)
        except DiceNeeded as need:
            command = with_throw(command, need.roll, need.throw(rng))
