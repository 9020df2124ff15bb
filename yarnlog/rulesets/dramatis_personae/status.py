"""Dramatis Personae's seats on the console's status line: each character a participant plays, with
its level and the dice it holds (saved good and bad dice, the adventure's pool, any debt)."""

from __future__ import annotations

from typing import Any

from yarnlog.core.seats import Seat, Seats
from yarnlog.rulesets.dramatis_personae.rules.advancement import pool_size


def _figures(rules: Any, name: str, level: int) -> str:
    b = rules.ledger.balance(name)
    bits = [f"L{level}"] + [f"{n} {what}" for n, what in ((b.good, "good"), (b.bad, "bad")) if n]
    if rules.ledger.adventure:
        bits.append(f"pool {b.pool}/{pool_size(level)}")
    if b.debt:
        bits.append(f"debt {b.debt}")
    return " ".join(bits)


def seats(campaign: Any, names: list[str]) -> Seats:
    """One seat per participant; the first character they play beside the name, any further one in
    its figures. The book keeps no calling order: nobody is named to call next."""
    rules = campaign.rules
    played: dict[str, list[Any]] = {}
    for sheet in (rules.characters.pcs.values() if rules is not None else ()):
        played.setdefault(sheet.player, []).append(sheet)
    shown = []
    for name in names:
        mine = played.get(name, [])
        if not mine:
            shown.append(Seat(name))
            continue
        first, *more = mine
        figures = (_figures(rules, first.name, first.level),
                   *(f"{s.name} {_figures(rules, s.name, s.level)}" for s in more))
        shown.append(Seat(name, character=first.name, figures=figures))
    return Seats(None, tuple(shown))
