"""Will & Descriptors' seats on the console's status line: each character a participant plays, with
its Will against its start, the Power track's boxes crossed (of its length), and whether it is out of the scene."""

from __future__ import annotations

from yarnlog.core.seats import Seat, Seats
from yarnlog.rulesets.will_descriptors.state import Character, WillCampaign


def _figures(who: Character) -> str:
    crossed = f" crossed {','.join(map(str, sorted(who.crossed)))}/{who.track}" if who.crossed else ""
    return f"Will {who.will}/{who.starting_will}{crossed}" + (" out" if who.out else "")


def seats(campaign: WillCampaign, names: list[str]) -> Seats:
    """One seat per participant; the first character they play beside the name, any further one in
    its figures. No calling order in this draft: nobody is named to call next."""
    played: dict[str, list[Character]] = {}
    for who in campaign.rules.characters.values():
        played.setdefault(who.player, []).append(who)
    shown = []
    for name in names:
        mine = played.get(name, [])
        if not mine:
            shown.append(Seat(name))
            continue
        first, *more = mine
        figures = (_figures(first), *(f"{who.name} {_figures(who)}" for who in more))
        shown.append(Seat(name, character=first.name, figures=figures))
    return Seats(None, tuple(shown))
