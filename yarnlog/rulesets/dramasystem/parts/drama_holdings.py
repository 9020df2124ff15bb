"""Drama tokens and bennies beside the procedural tokens, when the campaign's state holds them.

DramaSystem's drama tokens and bennies come from the shared core it shares with Yarn (SRD
271-275, 695-742), composed in as a slice of its own. The read views do not depend on when that
happens or on a setting: they look at the state. A slice that keeps drama ``tokens`` and
``bennies`` by participant is the economy; its movements are the ``transfers`` the events carry,
read from the history as Yarn's ledger reads them (``ledger_entries``). Without such a slice there
is nothing to show.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.rulesets.dramasystem.state import DramaSystemCampaign
from yarnlog.rulesets.scenes_and_tokens.parts.economy import ledger_entries


def economy_of(campaign: DramaSystemCampaign) -> Any | None:
    """The slice of ``campaign``'s state that holds drama tokens and bennies, or ``None``."""
    rules = campaign.rules
    if rules is None or not is_dataclass(rules):
        return None
    for slot in fields(rules):
        part = getattr(rules, slot.name)
        if isinstance(getattr(part, "tokens", None), Mapping) and isinstance(getattr(part, "bennies", None), Mapping):
            return part
    return None


def drama_holdings(campaign: DramaSystemCampaign) -> dict[str, dict[str, int]] | None:
    """Each participant's drama tokens and bennies now, or ``None`` when the state keeps none."""
    economy = economy_of(campaign)
    if economy is None:
        return None
    names = [campaign.table.gm, *campaign.table.players]
    names += sorted((set(economy.tokens) | set(economy.bennies)) - set(names))
    return {n: {"drama_tokens": int(economy.tokens.get(n, 0)), "bennies": int(economy.bennies.get(n, 0))}
            for n in names}


def drama_movements(campaign: DramaSystemCampaign, history: Iterable[Recorded]) -> list[dict[str, Any]]:
    """Every drama-token and bennie movement of ``history`` (the events ``campaign`` was folded from,
    corrections and retractions applied), oldest first; none when the state keeps no economy."""
    if economy_of(campaign) is None:
        return []
    return [{"sequence": entry.sequence, "scene": entry.scene, "episode": entry.episode, "event_type": entry.event_type,
             "currency": entry.currency, "amount": entry.amount, "source": entry.source,
             "destination": entry.destination, "chapter": entry.chapter, "rule": entry.rule}
            for entry in ledger_entries(history)]
