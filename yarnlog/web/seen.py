"""What one participant may see of a campaign, as of one point: the history filtered, then replayed.

The GM sees everything. A player sees the events visible to everyone and those recorded for them
only (:func:`yarnlog.core.state.visible_to`); every number a page shows is derived from the replay
of those events alone (amendments applied after the filter), so nothing hidden can leak through a
derived number, as in the players' recaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.state import CampaignState, replay, visible_to
from yarnlog.core.table import Table


@dataclass(frozen=True)
class Seen:
    """``viewer`` (``None``: the GM's view) and what they may see up to event ``upto``: the ``history``
    (stored order, unamended), the ``state`` replayed from it, the whole campaign's ``table``, and the
    last event of that history (``upto``)."""

    campaign_id: str
    name: str
    viewer: str | None
    history: Sequence[Recorded]
    state: CampaignState[Any]
    table: Table
    upto: int

    @property
    def is_gm(self) -> bool:
        return self.viewer is None


def seen_by(campaign_id: str, name: str, history: Sequence[Recorded], state: CampaignState[Any]) -> Seen:
    """What ``name`` may see of ``history`` (``state`` is the whole history's replay, for the table)."""
    table = state.table
    upto = history[-1].sequence if history else 0
    if table.is_gm(name):
        return Seen(campaign_id, name, None, history, state, table, upto)
    visible = [r for r in history if visible_to(r, name, table)]
    # A player's point is the last event they may see: the head would count the hidden ones after it.
    return Seen(campaign_id, name, name, visible, replay(visible), table, visible[-1].sequence if visible else 0)
