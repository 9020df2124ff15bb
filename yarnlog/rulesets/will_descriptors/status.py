"""Will & Descriptors' seats on the console's status line: each character a participant plays, with
its Will against its start, the Power track's boxes crossed (of its length), and whether it is out of the scene."""

from __future__ import annotations

from yarnlog.core.seats import Seats, seats_of_characters
from yarnlog.rulesets.will_descriptors.state import Character, WillCampaign


def _figures(who: Character) -> str:
    crossed = f" crossed {','.join(map(str, sorted(who.crossed)))}/{who.track}" if who.crossed else ""
    return f"Will {who.will}/{who.starting_will}{crossed}" + (" out" if who.out else "")


def seats(campaign: WillCampaign, names: list[str]) -> Seats:
    """Each participant's characters with their Will and track (no calling order in this draft)."""
    return seats_of_characters(campaign.rules.characters.values(), names, _figures)
