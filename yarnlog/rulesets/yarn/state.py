"""How the Yarn ruleset is put together: parts, each owning a slice of state.

A :class:`Part` is one concern of the game (the economy of tokens and bennies, the characters,
the drama of scenes, procedural rolls and combat). Each has a fold of its own slice over every
event, a decider for its commands and an audit for ``verify``. :class:`YarnState` holds the
slices by part name, so ``state.economy`` is the economy part's slice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yarnlog.events import Payload, Recorded
    from yarnlog.journal import CampaignState
    from yarnlog.rules import Referee


def _no_commands(command: Any, campaign: "CampaignState", referee: "Referee") -> None:
    return None


def _no_audit(campaign: "CampaignState", recorded: "Recorded") -> list[str]:
    return []


@dataclass(frozen=True)
class Part:
    """One concern of the ruleset.

    ``evolve(slice, recorded, state_before) -> slice`` never refuses; ``decide(command,
    campaign_state, referee)`` returns payloads or ``None`` if the command is not this part's;
    ``audit(campaign_state, recorded)`` lists rules the recorded event broke.
    """

    name: str
    initial: Callable[[], Any]
    evolve: Callable[[Any, "Recorded", "YarnState"], Any]
    decide: Callable[[Any, "CampaignState", "Referee"], "list[Payload] | None"] = _no_commands
    audit: Callable[["CampaignState", "Recorded"], list[str]] = _no_audit


@dataclass(frozen=True)
class YarnState:
    """Every part's slice of state, by part name (``state.economy``, ``state.characters``...)."""

    parts: Mapping[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.parts[name]
        except KeyError:
            raise AttributeError(name) from None
