"""The seats of the console's status line: what a ruleset shows of each participant
(:attr:`yarnlog.core.ruleset.Words.seats`), as plain data the shell draws."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Seat:
    """One participant on the status line: drama tokens, bennies, and their character's hit points;
    ``figures``, any other short words a ruleset shows of the seat ("Will 7/9"), in its order."""

    name: str
    drama_tokens: int | None = None
    bennies: int | None = None
    character: str | None = None
    hit_points: tuple[int, int] | None = None  # (current, maximum)
    figures: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seats:
    """Who calls the next scene (if the ruleset keeps a calling order) and every participant's seat;
    ``no_next``, when the order says no one is next, the ruleset's short words for it ("none: closer")."""

    next_caller: str | None
    seats: tuple[Seat, ...]
    no_next: str | None = None


def names_only(state: object, names: list[str]) -> Seats:
    """The status of a ruleset that shows nothing more than who sits at the table."""
    return Seats(None, tuple(Seat(name) for name in names))


def seats_of_characters(characters: Iterable[Any], names: list[str], figures: Callable[[Any], str]) -> Seats:
    """One seat per participant, for a ruleset without a calling order whose characters each name
    their ``player``: the first character a participant plays beside the name, any further one in
    its figures (``figures(character)`` words what the ruleset shows of it)."""
    played: dict[str, list[Any]] = {}
    for who in characters:
        played.setdefault(who.player, []).append(who)
    shown = []
    for name in names:
        mine = played.get(name, [])
        if not mine:
            shown.append(Seat(name))
            continue
        first, *more = mine
        shown.append(Seat(name, character=first.name,
                          figures=(figures(first), *(f"{who.name} {figures(who)}" for who in more))))
    return Seats(None, tuple(shown))
