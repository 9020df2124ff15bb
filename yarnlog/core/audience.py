"""Who a recap is for, and the history that audience may see (filtered before anything is projected).

The GM's recap sees everything. A player's (``--as NAME``) sees the events visible to everyone
and those recorded for that participant only; the players' recap (``--players``, the one posted
to the group) only what everyone may see. Filtering comes first: every sentence, balance and
count of a recap is then derived from the events the audience may see, so nothing hidden can
leak through a derived number. Amendments (corrections, retractions) are applied after the
filter, so an amendment the audience may not see does not change what it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.core.state import EVERYONE, visible_to
from yarnlog.core.table import Table


@dataclass(frozen=True)
class Audience:
    """``kind`` is ``gm``, ``player`` (``name`` set) or ``players`` (every player at once)."""

    kind: str = "gm"
    name: str | None = None

    @property
    def is_gm(self) -> bool:
        return self.kind == "gm"

    def label(self) -> str:
        return {"gm": "The GM's recap", "players": "The players' recap"}.get(self.kind, f"{self.name}'s recap")

    def sees(self, recorded: Recorded, table: Table) -> bool:
        if self.kind == "gm":
            return True
        if self.kind == "players":
            return recorded.visibility == EVERYONE
        return visible_to(recorded, self.name, table)


GM = Audience("gm")
PLAYERS = Audience("players")


def player(name: str) -> Audience:
    return Audience("player", name)


def visible_history(history: Sequence[Recorded], audience: Audience, table: Table) -> list[Recorded]:
    """The events ``audience`` may see, amendments applied (``history`` carries its context)."""
    return effective(rec for rec in history if audience.sees(rec, table))
