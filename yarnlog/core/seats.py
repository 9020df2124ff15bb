"""The seats of the console's status line: what a ruleset shows of each participant
(:attr:`yarnlog.core.ruleset.Words.seats`), as plain data the shell draws."""

from __future__ import annotations

from dataclasses import dataclass


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
    """Who calls the next scene (if the ruleset keeps a calling order) and every participant's seat."""

    next_caller: str | None
    seats: tuple[Seat, ...]


def names_only(state: object, names: list[str]) -> Seats:
    """The status of a ruleset that shows nothing more than who sits at the table."""
    return Seats(None, tuple(Seat(name) for name in names))
