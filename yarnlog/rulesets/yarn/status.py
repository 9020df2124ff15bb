"""Yarn's seats on the console's status line: the next caller in the calling order, each
participant's drama tokens and bennies, and their character's hit points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import calling_state
from yarnlog.rulesets.yarn.parts.characters.players import player_character
from yarnlog.rulesets.yarn.state import YarnCampaign

if TYPE_CHECKING:
    from yarnlog.core.seats import Seats


def seats(state: YarnCampaign, names: list[str]) -> Seats:
    """Lookups in the remembered state only, so the cost does not grow with the history."""
    from yarnlog.core.seats import Seat, Seats  # the console's status line, not every command's
    from yarnlog.rulesets.yarn.parts.combat.wounds import hit_points

    rules = state.rules
    episode = state.timeline.episode
    next_caller = no_next = None
    if episode is not None and rules.drama.closers.get(episode) is not None:
        no_next = "none: closer"  # no scene is called after the episode's closer ("Scenes")
    elif episode is not None:
        order = calling_state(rules.drama, rules.characters, episode)
        next_caller = order.next_caller if order is not None else None
    shown = []
    for name in names:
        character = player_character(rules.characters, name) if name != state.table.gm else None
        hp = None
        if character is not None:
            try:
                now = hit_points(rules, character)
                hp = (now.current, now.maximum)
            except Exception:  # a character without hit points to speak of: none shown
                hp = None
        shown.append(Seat(name, rules.economy.tokens.get(name, 0), rules.economy.bennies.get(name, 0), character, hp))
    return Seats(next_caller, tuple(shown), no_next)
