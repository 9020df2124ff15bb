"""What a player may see of a DramaSystem campaign: the GM's secret token stays hers until its reveal.

"The GM secretly spends one of her available tokens" (SRD 445) for a simple resolution; it is
recorded for her eyes only and revealed when the resolution ends. A player's view (``--as NAME``)
is the replay of the events that player may see (``core.state.visible_to``), amendments applied
after the filter as in Yarn's recaps, so the secret token is in none of it and nothing derived
from it can show it. One more thing hints at it: the GM's pile, since what she still has unspent
narrows what she spent. While a procedural scene's resolution may still be open, a player's view
leaves the GM's pile out (reading 16).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.referee import invalid
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.state import replay, visible_to
from yarnlog.core.table import Table
from yarnlog.rulesets.dramasystem.state import DramaSystemCampaign

#: What a player's view says where the GM's pile would be.
HIDDEN = "hidden until the resolution ends"


def check_viewer(table: Table, viewer: str | None) -> None:
    """``viewer`` is someone at the table (``None``: the GM's view)."""
    invalid(viewer is None or table.knows(viewer),
            f"{viewer!r} is not at this table (players: {', '.join(table.players)})")


def is_player_view(table: Table, viewer: str | None) -> bool:
    """Whether ``viewer`` sees a player's view (the GM's own name sees everything, as the GM does)."""
    return viewer is not None and not table.is_gm(viewer)


def seen_by(history: Sequence[Recorded], table: Table, viewer: str | None) -> list[Recorded]:
    """The events ``viewer`` may see (all of them for the GM), in order, unamended."""
    return [r for r in history if visible_to(r, viewer, table)]


def campaign_seen_by(history: Sequence[Recorded], table: Table, viewer: str | None) -> CampaignState[Any]:
    """The campaign replayed from what ``viewer`` may see: a player's replay never holds the GM's secret."""
    return replay(seen_by(history, table, viewer))


def resolution_pending(campaign: DramaSystemCampaign) -> bool:
    """Whether the scene in play is procedural and its simple resolution may still be open.

    A player's replay does not know the GM has spent her token (it is secret until the target card
    at least), so any procedural scene in play counts until a resolution of it has ended, or an
    advanced one (whose GM token is public, SRD 796) has opened in its place.
    """
    rules = campaign.rules
    if rules.procedure.open:
        return True
    scene = campaign.timeline.scene
    opened = campaign.timeline.scenes.get(scene) if scene is not None else None
    if opened is None or opened.mode != "procedural":
        return False
    assert scene is not None
    return not (scene in rules.procedure.resolved or scene in rules.advanced.open or scene in rules.advanced.resolved)


def gm_pile_hidden(campaign: DramaSystemCampaign, viewer: str | None) -> bool:
    """Whether ``viewer``'s view must leave the GM's pile out now (reading 16)."""
    return is_player_view(campaign.table, viewer) and resolution_pending(campaign)
