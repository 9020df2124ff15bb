"""What a Yarn move answers: the recap's sentence of each recorded event (:func:`.sentences.sentence`,
the same words the recap prints), and one line on what follows, from the state after the move.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.ruleset import CampaignState


def _wants(state: CampaignState[Any]) -> dict[tuple[str, str], str]:
    characters = getattr(state.rules, "characters", None)
    if characters is None:
        return {}
    return {(name, w.withholder): w.want for name, sheet in characters.pcs.items() for w in sheet.wants}


def _rolls_seen(recorded: Recorded, state: CampaignState[Any], p: dict[str, Any]) -> dict[int, Any]:
    """The rolls a roll or group effort names (its opponent's, its members'), from the rolls the state
    keeps, as much of the recap's data as its sentences read of them (the character and the total);
    one the mover may not see (a secret roll, a player moving) is left out, so the sentence says the
    GM keeps it to herself, as the recap does."""
    procedure = getattr(state.rules, "procedure", None)
    if procedure is None:
        return {}
    if recorded.event_type not in ("yarn.roll.made", "yarn.group.resolved"):
        return {}
    wanted = [*(p.get("rolls") or ()), (p.get("against") or {}).get("roll")]
    gm = state.table.is_gm(recorded.recorded_by)
    seen: dict[int, Any] = {}
    for number in wanted:
        made = procedure.rolls.get(number) if number is not None else None
        if made is not None and (gm or made.visibility == "everyone"):
            seen[number] = {"character": made.character, "dice": {"total": made.total}}
    return seen


def narrate(recorded: Recorded, state: CampaignState[Any]) -> str | None:
    """``recorded`` in the book's words, as the recap tells it (``None``: the journal's own words; ``""``:
    nothing worth a line)."""
    kind = recorded.event_type
    if not (kind.startswith("yarn.") or kind == "override.recorded"):
        return None
    # The recap's sentences (and the book's sections they cite) for a move of the book's, not for a note.
    from yarnlog.rulesets.yarn.recap import roll_sentences
    from yarnlog.rulesets.yarn.recap import sentences as say

    p = recorded.payload.model_dump(mode="json")
    rolls = _rolls_seen(recorded, state, p)
    if kind == "yarn.roll.made":
        return roll_sentences.roll(p, rolls, recorded.visibility != "everyone")
    text = say.sentence(kind, p, _wants(state), rolls)
    if text is None and kind == "yarn.scene.called":
        return ""  # a plain call: the scene's opening says it
    if kind == "yarn.combat.gestalt_rolled" and p["side"] == "GMCs" and text:
        text += _gestalt_won(state)
    return text


def _gestalt_won(state: CampaignState[Any]) -> str:
    """`` The GMCs win, 20 to 14.``: the fight's outcome once the GM's secret side is in (her eyes only)."""
    from yarnlog.rulesets.yarn.parts.combat.part import gestalt_outcome

    outcome = gestalt_outcome(state) if getattr(state.rules, "combat", None) is not None else None
    if outcome is None:
        return ""
    if outcome.winner is None:
        return f" A tie, {outcome.players_total} each: the GM adjudicates the fight."
    won, lost = ((outcome.players_total, outcome.gmcs_total) if outcome.winner == "players"
                 else (outcome.gmcs_total, outcome.players_total))
    return f" The {outcome.winner} win, {won} to {lost}."


def follow_up(state: CampaignState[Any]) -> str | None:
    """``Tokens: Ana 1, Ben 0, Maya (GM) 5. Next to call: Ben.``: drama tokens at the table and the
    next caller in the episode in play (no one once its closer is named), read from ``state`` (no replay)."""
    from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import calling_state

    rules = state.rules
    if rules is None:
        return None
    table = state.table
    tokens = rules.economy.tokens
    held = [f"{n} {tokens.get(n, 0)}" for n in table.players] + [f"{table.gm} (GM) {tokens.get(table.gm, 0)}"]
    text = f"Tokens: {', '.join(held)}."
    closer = rules.drama.closers.get(state.timeline.episode) if state.timeline.episode is not None else None
    if closer is not None:  # no scene is called after the episode's closer ("Scenes")
        text += f" No one calls next: scene {closer} is the closer."
    elif state.timeline.episode is not None:
        order = calling_state(rules.drama, rules.characters, state.timeline.episode)
        if order is not None and order.next_caller:
            text += f" Next to call: {order.next_caller}."
    return text
