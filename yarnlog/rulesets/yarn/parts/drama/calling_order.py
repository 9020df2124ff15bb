"""The order in which scenes are called (Yarn 0.1, "Calling Order"; "Spending Bennies" for jumping the queue).

The precedence order is the characters part's (``yarnlog precedence draw --purpose calling-order``);
this module derives the episode's calling order from it, and follows it round as scenes are called.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.frozen import replace
from yarnlog.core.referee import Rule
from yarnlog.rulesets.yarn.parts.characters.players import characters_of
from yarnlog.rulesets.yarn.parts.characters.sheets import Characters
from yarnlog.rulesets.yarn.parts.characters.supporting_cast import Purpose
from yarnlog.rulesets.yarn.parts.drama.state import CallingOrder, Drama, Recall, SceneCall, drama_of
from yarnlog.rulesets.yarn.state import YarnCampaign

BOOK = "Yarn 0.1"
CALLING_ORDER = Rule(
    BOOK, "Calling Order",
    "The player choosing the episode's theme always calls first. Then comes the player who actually "
    "appeared first, in your precedence order. The GM inserts herself into the order, usually replacing "
    "the player who chose the theme. Scenes are then called according to this altered order. Once you "
    "reach the end of a calling order, it rolls over, continuing the already established precedence order.",
)


def calling_order(precedence: tuple[str, ...], *, gm: str, theme_chooser: str | None) -> tuple[str, ...]:
    """The episode's calling order ("Calling Order").

    The theme chooser calls first, then the precedence order with the GM in the theme chooser's
    place ("usually": the book's default, taken here). When no player chose the theme (the first
    episode, where "With a renewed order of precedence and an initial scene framing, play begins"),
    the GM frames the first scene and the players follow in precedence order.
    """
    if theme_chooser not in precedence:
        return (gm, *precedence)
    return (theme_chooser, *(gm if name == theme_chooser else name for name in precedence))


def current_order(characters: Characters | None, gm: str, episode: int | None) -> tuple[str, ...] | None:
    """The calling order of ``episode``, if a calling-order precedence was drawn in it."""
    if characters is None or episode is None:
        return None
    drawn = characters.cast.last_drawn(Purpose.CALLING_ORDER, episode)
    if drawn is None:
        return None
    theme = characters.cast.themes.get(episode)
    return calling_order(drawn.order, gm=gm, theme_chooser=theme.chosen_by if theme else None)


def calling_state(drama: Drama, characters: Characters | None, episode: int | None) -> CallingOrder | None:
    """How far round the episode's calling order the scenes have gone (a fresh draw starts it over)."""
    order = current_order(characters, drama.gm, episode)
    if order is None:
        return None
    known = drama.calling_of(episode)
    return known if known is not None and known.order == order else CallingOrder(order)


def allowed_callers(drama: Drama, characters: Characters | None, episode: int | None) -> frozenset[str] | None:
    """Who may call the next scene: the next in the calling order, or a caller allowed to call again."""
    state = calling_state(drama, characters, episode)
    if state is None:
        return None
    return frozenset({state.next_caller, *([drama.recall.caller] if drama.recall else [])})


def advanced(state: CallingOrder, caller: str, recall: Recall | None) -> CallingOrder:
    """The order after ``caller`` called: a turn taken, queue-jumpers' next turns skipped.

    A replacement scene (a recall) or an out-of-turn call (a queue jump, a GM override) takes no
    turn: "after which the existing calling order is observed as per usual".
    """
    if (recall is not None and caller == recall.caller) or caller != state.next_caller:
        return state
    turn, skips = state.turn + 1, list(state.skips)
    while state.order[turn % len(state.order)] in skips:
        skips.remove(state.order[turn % len(state.order)])
        turn += 1
    return replace(state, turn=turn, skips=tuple(skips))


def calling_view(campaign: YarnCampaign) -> dict[str, Any]:
    """The episode's calling order, who calls next, and each scene's caller."""
    drama = drama_of(campaign)
    timeline = campaign.timeline
    episode = timeline.episode or (timeline.episodes[-1] if timeline.episodes else None)
    characters = characters_of(campaign)
    state = calling_state(drama, characters, episode)
    allowed = allowed_callers(drama, characters, episode) if timeline.episode is not None else None
    return {
        "episode": episode,
        "calling_order": list(state.order) if state else None,
        "next_caller": state.next_caller if state and timeline.episode is not None else None,
        "may_call_next": sorted(allowed) if allowed else None,
        "recall": {"caller": drama.recall.caller, "reason": drama.recall.reason} if drama.recall else None,
        "skipped_next_turn": list(state.skips) if state else [],
        "scenes": [{"scene": s.number, "caller": s.caller, "in_turn": s.in_turn, "kind": s.kind, "mode": s.mode}
                   for s in _scenes_of(drama, timeline.last_scene, episode)],
    }


def _scenes_of(drama: Drama, last_scene: int, episode: int | None) -> list[SceneCall]:
    """The scenes of ``episode`` in order. Scenes are numbered as they are opened and episodes follow
    one another, so they are found walking back from the last scene to the first of an earlier
    episode: the cost of the episode, not of the campaign."""
    found = []
    for number in range(last_scene, 0, -1):
        scene = drama.scenes.get(number)
        if scene is None:
            continue
        if scene.episode == episode:
            found.append(scene)
        elif episode is not None and scene.episode is not None and scene.episode < episode:
            break
    return found[::-1]
