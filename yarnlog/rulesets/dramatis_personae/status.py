"""Dramatis Personae's seats on the console's status line: each character a participant plays, with
its level and the dice it holds (saved good and bad dice, the adventure's pool, any debt)."""

from __future__ import annotations

from typing import Any

from yarnlog.core.seats import Seats, seats_of_characters
from yarnlog.rulesets.dramatis_personae.rules.advancement import pool_size


def seats(campaign: Any, names: list[str]) -> Seats:
    """Each participant's characters with their level and dice (the book keeps no calling order)."""
    rules = campaign.rules
    if rules is None:
        return seats_of_characters((), names, str)
    ledger = rules.ledger

    def figures(sheet: Any) -> str:
        b = ledger.balance(sheet.name)
        bits = [f"L{sheet.level}"] + [f"{n} {what}" for n, what in ((b.good, "good"), (b.bad, "bad")) if n]
        if ledger.adventure:
            bits.append(f"pool {b.pool}/{pool_size(sheet.level)}")
        if b.debt:
            bits.append(f"debt {b.debt}")
        return " ".join(bits)

    return seats_of_characters(rules.characters.pcs.values(), names, figures)
