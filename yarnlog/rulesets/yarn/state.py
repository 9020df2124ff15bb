"""How the Yarn ruleset is put together: parts, each owning a slice of state.

A :class:`Part` is one concern of the game (the economy of tokens and bennies, the characters,
the drama of scenes, procedural rolls and combat). Each has a fold of its own slice over every
event, a decider for its commands and an audit for ``verify``. :class:`YarnState` holds the
slices by part name, so ``state.economy`` is the economy part's slice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class YarnState:
    """Every part's slice of state, by part name (``state.economy``, ``state.characters``...)."""

    parts: Mapping[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.parts[name]
        except KeyError:
            raise AttributeError(name) from None
