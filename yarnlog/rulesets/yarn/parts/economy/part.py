"""Yarn's economy of drama tokens and bennies: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.economy`),
with its two payloads registered under Yarn's prefix. The core's names are re-exported here."""

from __future__ import annotations

from typing import Any

from yarnlog.rulesets.scenes_and_tokens.parts import economy as _core
from yarnlog.rulesets.scenes_and_tokens.parts.economy import (
    Economy,
    EconomyEvents,
)

__all__ = ["PART", "return_to_kitty", "validate_returned"]


EVENTS = EconomyEvents.under("yarn")
validate_returned = _core.validate_returned


def return_to_kitty(economy: Economy, episode: int) -> _core.TokensReturned | None:
    """The end-of-episode return of every unspent drama token, as Yarn records it."""
    return _core.return_to_kitty(economy, episode, EVENTS.returned)


def decide(command: Any, campaign: Any, referee: Any) -> Any:
    return PART.decide(command, campaign, referee)


PART = _core.economy_part(EVENTS)
