"""The order in which scenes are called ("Calling Order", Yarn 0.1 and DramaSystem DS11 in nearly the
same words), and the queue jump a bennie buys ("Spending Bennies", DS76).

The precedence order is the cast's (``yarnlog precedence draw --purpose calling-order``); this
module derives the episode's calling order from it, checks who may call next, and follows the order
round as scenes are called. Yarn says the GM "usually" replaces the theme chooser, DramaSystem that
she replaces her: the order is the same (Yarn's default is DramaSystem's rule), only the words
quoted differ (:attr:`~yarnlog.rulesets.scenes_and_tokens.parameters.Dramatic.quotes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK, Dramatic
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import CallingOrder, Drama, DramaBuilder, Recall
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose

CALLING_ORDER = Rule(
    SHARED_BOOK, "Calling Order",
    "The player choosing the episode's theme always calls first. Then comes the player who actually "
    "appeared first, in your precedence order. The GM inserts herself into the order, usually replacing "
    "the player who chose the theme. Scenes are then called according to this altered order. Once you "
    "reach the end of a calling order, it rolls over, continuing the already established precedence order.",
)


def calling_order(precedence: tuple[str, ...], *, gm: str, theme_chooser: str | None) -> tuple[str, ...]:
    """The episode's calling order ("Calling Order"; DS11, lines 195-197).

    The theme chooser calls first, then the precedence order with the GM in the theme chooser's
    place (DramaSystem: always; Yarn: "usually", its default taken). When no player chose the theme
    (the first episode, whose theme the book leaves to the GM: reading 4.9), the GM frames the first
    scene and the players follow in precedence order.
    """
    if theme_chooser not in precedence:
        return (gm, *precedence)
    return (theme_chooser, *(gm if name == theme_chooser else name for name in precedence))


def current_order(roster: Any, gm: str, episode: int | None) -> tuple[str, ...] | None:
    """The calling order of ``episode``, if a calling-order precedence was drawn in it.

    ``roster`` is a ruleset's :class:`~yarnlog.rulesets.scenes_and_tokens.parameters.Roster` (its ``cast``
    keeps precedence orders and themes), or ``None`` in a journal that keeps no characters.
    """
    if roster is None or episode is None:
        return None
    drawn = roster.cast.last_drawn(Purpose.CALLING_ORDER, episode)
    if drawn is None:
        return None
    theme = roster.cast.themes.get(episode)
    return calling_order(drawn.order, gm=gm, theme_chooser=theme.chosen_by if theme else None)


def calling_state(drama: Drama | DramaBuilder, roster: Any, episode: int | None) -> CallingOrder | None:
    """How far round the episode's calling order the scenes have gone (a fresh draw starts it over)."""
    order = current_order(roster, drama.gm, episode)
    if order is None:
        return None
    known = drama.calling_of(episode)
    return known if known is not None and known.order == order else CallingOrder(order)


def allowed_callers(drama: Drama | DramaBuilder, roster: Any, episode: int | None) -> frozenset[str] | None:
    """Who may call the next scene: the next in the calling order, or a caller allowed to call again."""
    state = calling_state(drama, roster, episode)
    return None if state is None else _allowed(state, drama.recall)


def _allowed(state: CallingOrder, recall: Recall | None) -> frozenset[str]:
    return frozenset({state.next_caller, *([recall.caller] if recall else [])})


def advanced(state: CallingOrder, caller: str, recall: Recall | None) -> CallingOrder:
    """The order after ``caller`` called: a turn taken, queue-jumpers' next turns skipped.

    A replacement scene (a recall) or an out-of-turn call (a queue jump, a GM override) takes no
    turn: "after which the existing calling order is observed as per usual". Past its end the order
    repeats from its top (reading 4.9: "it rolls over").
    """
    if (recall is not None and caller == recall.caller) or caller != state.next_caller:
        return state
    turn, skips = state.turn + 1, list(state.skips)
    while state.order[turn % len(state.order)] in skips:
        skips.remove(state.order[turn % len(state.order)])
        turn += 1
    return replace(state, turn=turn, skips=tuple(skips))


def check_turn(dramatic: Dramatic, campaign: CampaignState[Any], referee: Referee, caller: str,
               jump_queue: bool) -> None:
    """The calling order, and the queue jump a bennie buys (its bennie is the caller's part to spend)."""
    allowed = allowed_callers(campaign.rules.drama, dramatic.roster(campaign), campaign.timeline.episode)
    if jump_queue:
        allowed = present(allowed, "no calling order was drawn this episode: there is no queue to jump")
        invalid(caller not in allowed, f"{caller} may call this scene without jumping the queue")
        return
    if allowed is not None:
        dramatic.referee(referee).require(caller in allowed, CALLING_ORDER,
                                          f"{' or '.join(sorted(allowed))} calls the next scene, not {caller}")


def called(drama: Drama, roster: Any, episode: int | None, caller: str) -> tuple[bool, Drama]:
    """Whether ``caller`` called in turn, and the drama with the calling order advanced past her call."""
    state = calling_state(drama, roster, episode)
    if state is None or episode is None:  # no calling order drawn: any caller is in turn
        return True, drama
    in_turn = caller in _allowed(state, drama.recall)
    return in_turn, replace(drama, calling=drama.calling.set(episode, advanced(state, caller, drama.recall)))


def called_in_place(drama: DramaBuilder, roster: Any, episode: int | None, caller: str) -> bool:
    """:func:`called` in a replay: whether ``caller`` called in turn; the calling order advanced in place."""
    state = calling_state(drama, roster, episode)
    if state is None or episode is None:
        return True
    drama.calling[episode] = advanced(state, caller, drama.recall)
    return caller in _allowed(state, drama.recall)


def _skipping(state: CallingOrder, caller: str) -> CallingOrder:
    return replace(state, skips=state.skips + (caller,))


def jumped(drama: Drama, episode: int | None, caller: str) -> Drama:
    """A queue jump is a turn bought out of order: the jumper's own next turn is skipped (DS76)."""
    state = drama.calling_of(episode)
    if state is None or episode is None:
        return drama
    return replace(drama, calling=drama.calling.set(episode, _skipping(state, caller)))


def jumped_in_place(drama: DramaBuilder, episode: int | None, caller: str) -> None:
    """:func:`jumped` in a replay."""
    state = drama.calling_of(episode)
    if state is not None and episode is not None:
        drama.calling[episode] = _skipping(state, caller)


def calling_view(campaign: CampaignState[Any], dramatic: Dramatic) -> dict[str, Any]:
    """The episode's calling order, who calls next, and each scene's caller."""
    drama: Drama = campaign.rules.drama
    timeline = campaign.timeline
    episode = timeline.episode or (timeline.episodes[-1] if timeline.episodes else None)
    roster = dramatic.roster(campaign)
    state = calling_state(drama, roster, episode)
    allowed = allowed_callers(drama, roster, episode) if timeline.episode is not None else None
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


def _scenes_of(drama: Drama, last_scene: int, episode: int | None) -> list[Any]:
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


@dataclass(frozen=True)
class CallInOrder(OpenScene):
    """A scene call in a ruleset that follows the calling order: the journal's ``OpenScene``, and
    ``jump_queue`` when the caller spends a bennie to call out of turn ("Spending Bennies", DS76)."""

    jump_queue: bool = False
