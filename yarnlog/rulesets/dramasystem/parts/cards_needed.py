"""The cards a command needs and does not carry: the tool draws them, or the table enters them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yarnlog.core.referee import DiceNeeded
from yarnlog.rulesets.dramasystem.rules.cards import Card

if TYPE_CHECKING:
    from random import Random


class CardsNeeded(DiceNeeded):
    """The command needs cards it does not carry: the tool draws them from the cards left."""

    def __init__(self, roll: str, count: int, left: tuple[Card, ...]):
        def draw(rng: Random) -> tuple[str, ...]:
            return tuple(str(card) for card in rng.sample(list(left), count))

        super().__init__(roll, count, 52, draw)  # type: ignore[arg-type]
        self.args = (f"the {roll} needs {count} card{'s' if count > 1 else ''}: enter the cards drawn at "
                     "the table (e.g. --cards QH,10S), or let the tool draw",)

    def uses(self) -> str:
        return f"the {self.roll} uses {self.dice} card{'s' if self.dice > 1 else ''}"
